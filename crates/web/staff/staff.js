// The staff pages' script: each page is a shell the server renders (the member, the
// company's date, the CSRF token); this fills it in from the API through /staff/api/,
// which answers for the member's company and refuses what their role may not do. No
// framework and no build step; text goes in as text (never as HTML).

const body = document.body;
const page = body.dataset.page;
const administers = body.dataset.administer === "true";
const companyId = body.dataset.company;
const today = body.dataset.today;
const now = body.dataset.now;
const csrf = document.querySelector('meta[name="csrf-token"]').content;

// ---- Elements ----------------------------------------------------------------------

/** `h("a", {href: "/x"}, "text", child)`: an element; strings become text. */
function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else if (k === "dataset") Object.assign(el.dataset, v);
    else el.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat(Infinity)) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : String(c));
  }
  return el;
}

function fill(el, ...children) {
  el.replaceChildren(...children.flat(Infinity).filter((c) => c !== null && c !== undefined && c !== false));
}

const message = (kind, text) =>
  h("div", { class: kind, role: kind === "error" ? "alert" : "status" }, text);

// ---- The API -----------------------------------------------------------------------

class Refused extends Error {
  constructor(status, answer) {
    super(Refused.words(answer) || `The server answered ${status}.`);
    this.status = status;
  }

  /** The API's own words: its message, which names every field problem. */
  static words(answer) {
    return answer && typeof answer.message === "string" ? answer.message : "";
  }
}

function form(params) {
  const out = new URLSearchParams();
  for (const [k, v] of Object.entries(params || {})) {
    if (v === null || v === undefined || v === "") continue;
    out.append(k, v);
  }
  return out;
}

/** Calls the API path (`assets/7.api`) as the signed-in member. */
async function api(method, path, params) {
  let url = `/staff/api/${path}`;
  const init = { method, headers: { accept: "application/json" }, credentials: "same-origin" };
  if (method === "GET") {
    const q = form(params).toString();
    if (q) url += (url.includes("?") ? "&" : "?") + q;
  } else {
    init.headers["content-type"] = "application/x-www-form-urlencoded";
    init.headers["x-csrf-token"] = csrf;
    init.body = form(params);
  }
  let response;
  try {
    response = await fetch(url, init);
  } catch {
    throw new Refused(0, { message: "The server cannot be reached. Check the connection and try again." });
  }
  if (response.status === 401) {
    location.assign(`/staff/login?next=${encodeURIComponent(location.pathname + location.search)}`);
    throw new Refused(401, { message: "Your session has ended; log in again." });
  }
  const answer = await response.json().catch(() => null);
  if (!response.ok) throw new Refused(response.status, answer);
  return answer;
}

/** The API's answer, or null when it is a 404. */
async function maybe(path, params) {
  try {
    return await api("GET", path, params);
  } catch (e) {
    if (e.status === 404) return null;
    throw e;
  }
}

// ---- Words -------------------------------------------------------------------------

const KIND = { FixedAsset: "Asset", StockAsset: "Asset stock", VolatileAsset: "Inventory" };
const PATH = { FixedAsset: "assets", StockAsset: "stock_assets", VolatileAsset: "inventory" };

function stateBadge(state, late) {
  const cls = late ? "late" : state === "available" ? "in" : state === "checked_out" ? "out" : "";
  const words = (state || "").replaceAll("_", " ");
  return h("span", { class: `badge ${cls}` }, late ? `${words}, overdue` : words);
}

const isLate = (due) => Boolean(due) && due < now;
const customerName = (o) => {
  const c = o.associated_customer;
  if (c) return c.name || [c.first_name, c.last_name].filter(Boolean).join(" ") || `customer ${c.id}`;
  return o.business_name || "no customer";
};

function pager(current, total, go) {
  if (!total || total <= 1) return null;
  return h(
    "div",
    { class: "pager" },
    h("button", { type: "button", class: "secondary", disabled: current <= 1, onclick: () => go(current - 1) }, "Newer"),
    h("span", {}, `Page ${current} of ${total}`),
    h("button", { type: "button", class: "secondary", disabled: current >= total, onclick: () => go(current + 1) }, "Older"),
  );
}

/** A label's link (`…/scan/<company>/assets/<n>`), `#n` or a bare number: {company, number}. */
function readLabel(text) {
  const t = (text || "").trim();
  const link = t.match(/\/scan\/(\d+)\/assets\/(\d+)\b/);
  if (link) return { company: link[1], number: link[2] };
  const plain = t.match(/^#?(\d+)$/);
  if (plain) return { company: companyId, number: plain[1] };
  return null;
}

// ---- Pickers -----------------------------------------------------------------------

/** A member picker: a search box whose choices come from the member search. */
function memberPicker(id, labelText) {
  const input = h("input", {
    id,
    type: "text",
    autocomplete: "off",
    role: "combobox",
    "aria-expanded": "false",
    "aria-controls": `${id}-list`,
    "aria-autocomplete": "list",
    placeholder: "Type a name or e-mail",
    required: true,
  });
  const list = h("ul", { id: `${id}-list`, class: "list", role: "listbox", hidden: true });
  const picker = h("div", { class: "picker" }, h("label", { for: id }, labelText), input, list);
  picker.value = null;
  let active = -1;
  let choices = [];
  let timer;
  const show = (members) => {
    choices = members;
    active = members.length ? 0 : -1;
    fill(
      list,
      members.map((m, i) =>
        h(
          "li",
          { role: "option", id: `${id}-opt-${m.id}`, "aria-selected": String(i === active), onmousedown: (e) => { e.preventDefault(); choose(m); } },
          m.full_name || `${m.first_name} ${m.last_name}`,
          h("span", { class: "meta" }, m.email || m.employee_identification_number || `member ${m.id}`),
        ),
      ),
    );
    if (!members.length) list.append(h("li", {}, "No active member matches."));
    list.hidden = false;
    input.setAttribute("aria-expanded", "true");
    mark();
  };
  const mark = () => {
    [...list.children].forEach((li, i) => li.setAttribute("aria-selected", String(i === active)));
    const li = list.children[active];
    if (li && li.id) input.setAttribute("aria-activedescendant", li.id);
  };
  const close = () => {
    list.hidden = true;
    input.setAttribute("aria-expanded", "false");
  };
  const choose = (m) => {
    picker.value = m;
    input.value = m.full_name || `${m.first_name} ${m.last_name}`;
    input.dataset.memberId = m.id;
    close();
  };
  input.addEventListener("input", () => {
    picker.value = null;
    delete input.dataset.memberId;
    clearTimeout(timer);
    const q = input.value.trim();
    if (!q) return close();
    timer = setTimeout(async () => {
      try {
        const a = await api("GET", "members.api", { filter: "name", filter_val: q });
        if (input.value.trim() === q) show(a.members.filter((m) => m.status === "active"));
      } catch (e) {
        fill(list, h("li", {}, e.message));
        list.hidden = false;
      }
    }, 150);
  });
  input.addEventListener("keydown", (e) => {
    if (list.hidden || !choices.length) return;
    if (e.key === "ArrowDown") active = Math.min(active + 1, choices.length - 1);
    else if (e.key === "ArrowUp") active = Math.max(active - 1, 0);
    else if (e.key === "Enter") {
      e.preventDefault();
      return choose(choices[active]);
    } else if (e.key === "Escape") return close();
    else return;
    e.preventDefault();
    mark();
  });
  input.addEventListener("blur", () => setTimeout(close, 100));
  return picker;
}

let locationsCache;
async function locations() {
  locationsCache ??= allPages("locations/get_line_item_locations.api", { status: "active" }, "locations")
    .then((a) => a.rows)
    .catch((e) => {
      locationsCache = undefined;
      throw e;
    });
  return locationsCache;
}

async function locationSelect(id, labelText, { optional = true, selected } = {}) {
  const select = h("select", { id, name: id });
  if (optional) select.append(h("option", { value: "" }, "(as it is)"));
  for (const l of await locations()) {
    select.append(h("option", { value: l.id, selected: String(l.id) === String(selected) }, l.name));
  }
  return [h("label", { for: id }, labelText), select];
}

const field = (id, labelText, attrs = {}) => [
  h("label", { for: id }, labelText),
  h("input", { id, name: id, type: "text", ...attrs }),
];

// ---- Actions -----------------------------------------------------------------------

/**
 * An action: a disclosure holding a form; `send(values)` calls the API. The API's
 * refusal words are shown as they are; on success the page is read again.
 */
function action(title, build, send, { danger = false, open = false } = {}) {
  const out = h("div", { "aria-live": "polite" });
  const button = h("button", { type: "submit", class: danger ? "danger" : null }, title);
  const f = h("form", { novalidate: true }, build(), button, out);
  f.addEventListener("submit", async (e) => {
    e.preventDefault();
    button.disabled = true;
    fill(out);
    try {
      const done = await send(f);
      fill(out, message("notice", done || `${title}: done.`));
      notify(true);
      await showItem(done || `${title}: done.`);
    } catch (err) {
      fill(out, message("error", err.message));
      notify(false);
    } finally {
      button.disabled = false;
    }
  });
  const d = h("details", { class: "action", open }, h("summary", {}, title), f);
  d.dataset.action = title;
  return d;
}

const val = (f, id) => {
  const el = f.querySelector(`#${id}`);
  return el ? el.value.trim() : "";
};

function needMember(f, id) {
  const input = f.querySelector(`#${id}`);
  if (!input.dataset.memberId) {
    throw new Refused(422, { message: "Choose a member from the list (type part of their name or e-mail)." });
  }
  return input.dataset.memberId;
}

// ---- Sound and vibration -----------------------------------------------------------

let audio;
function notify(ok) {
  try {
    // Browsers refuse to vibrate before the person has touched the page.
    if (navigator.userActivation?.hasBeenActive) navigator.vibrate?.(ok ? 80 : [60, 60, 60]);
    audio ??= new AudioContext();
    const o = audio.createOscillator();
    const g = audio.createGain();
    o.frequency.value = ok ? 880 : 220;
    g.gain.value = 0.08;
    o.connect(g).connect(audio.destination);
    o.start();
    o.stop(audio.currentTime + (ok ? 0.12 : 0.3));
  } catch {
    // No sound on this device: the list still shows the outcome.
  }
}

// ---- Find --------------------------------------------------------------------------

function itemRow(a) {
  return h(
    "li",
    {},
    h("a", { href: `/staff/items/${a.sequence_num}` }, a.name),
    " ",
    stateBadge(a.state, a.state === "checked_out" && isLate(a.checkin_due_on)),
    h(
      "span",
      { class: "meta" },
      [`#${a.sequence_num}`, KIND[a.asset_type], a.identifier && `@${a.identifier}`, a.assigned_to_user_name && `with ${a.assigned_to_user_name}`, a.location_name]
        .filter(Boolean)
        .join(" · "),
    ),
  );
}

function orderRow(o, actions = true) {
  const li = h(
    "li",
    { dataset: { order: o.sequence_num } },
    h("strong", {}, `Order #${o.sequence_num}`),
    " ",
    h("span", { class: "badge" }, o.order_state),
    h(
      "span",
      { class: "meta" },
      [customerName(o), o.expected_checkout_date && `from ${o.expected_checkout_date}`, o.due_date && `due ${o.due_date}`].filter(Boolean).join(" · "),
    ),
  );
  if (actions) li.append(orderActions(o, li));
  return li;
}

function orderActions(o, li) {
  const out = h("div", { "aria-live": "polite" });
  const act = (label, path) =>
    h(
      "button",
      {
        type: "button",
        onclick: async (e) => {
          e.target.disabled = true;
          fill(out);
          try {
            const a = await api("PATCH", `baskets/${o.sequence_num}/${path}`, { use_current_datetime: "true" });
            notify(true);
            li.replaceWith(orderRow(a.basket || a.order || { ...o, order_state: label === "Rent out" ? "Rented Out" : "Returned" }, false));
          } catch (err) {
            notify(false);
            fill(out, message("error", err.message));
            e.target.disabled = false;
          }
        },
      },
      label,
    );
  const buttons = [];
  if (o.basket_state === "booked") buttons.push(act("Rent out", "checkout.api"));
  if (o.basket_state === "checked_out") buttons.push(act("Return", "checkin.api"));
  return h("div", {}, h("div", { class: "actions" }, buttons), out);
}

function findPage() {
  const input = document.getElementById("q");
  const results = document.getElementById("results");
  let seq = 0;
  let timer;
  let first = null;
  const search = async () => {
    const q = input.value.trim();
    const mine = ++seq;
    if (!q) return fill(results);
    const label = readLabel(q);
    if (label && q.includes("/scan/")) {
      location.assign(`/staff/items/${label.number}?company=${label.company}`);
      return;
    }
    const number = q.match(/^#?(\d+)$/);
    try {
      // `#` and `@` alone (or `#` before a non-number) are still being typed.
      const searchable = !/^[#@]$/.test(q) && !/^#\D/.test(q);
      const searchItems = (facet) => (searchable ? api("GET", "search.api", { search: q, facet }) : { assets: [], total_pages: 0 });
      const [fixed, inventory, stock, members, order] = await Promise.all([
        searchItems("FixedAsset"),
        searchItems("VolatileAsset"),
        searchItems("StockAsset"),
        q.startsWith("#") || q.startsWith("@") ? { members: [] } : api("GET", "members.api", { filter: "name", filter_val: q }),
        number ? maybe(`baskets/${number[1]}.api`) : null,
      ]);
      if (mine !== seq) return;
      const items = [...fixed.assets, ...inventory.assets, ...stock.assets];
      first = items.length === 1 ? items[0] : null;
      const more = [fixed, inventory, stock].some((a) => a.total_pages > 1);
      const groups = [];
      groups.push(h("h2", { class: "group" }, `Items (${items.length}${more ? "+" : ""})`));
      groups.push(items.length ? h("ul", { class: "list" }, items.map(itemRow)) : h("p", { class: "hint" }, "No item matches."));
      if (more) groups.push(h("p", { class: "hint" }, "More items match: type more of the name."));
      groups.push(h("h2", { class: "group" }, `Members (${members.members.length})`));
      groups.push(
        members.members.length
          ? h(
              "ul",
              { class: "list" },
              members.members.map((m) =>
                h(
                  "li",
                  {},
                  h("strong", {}, m.full_name),
                  h("span", { class: "meta" }, [m.email, m.role_name, m.status].filter(Boolean).join(" · ")),
                  h("button", { type: "button", class: "link", onclick: (e) => memberItems(m, e.target) }, "What they hold"),
                ),
              ),
            )
          : h("p", { class: "hint" }, "No member matches."),
      );
      const o = order && (order.basket || order.order);
      groups.push(h("h2", { class: "group" }, "Orders"));
      groups.push(o ? h("ul", { class: "list" }, orderRow(o)) : h("p", { class: "hint" }, number ? "No order has that number." : "Type an order's number (#12) to find it."));
      fill(results, groups);
    } catch (e) {
      if (mine === seq) fill(results, message("error", e.message));
    }
  };
  input.addEventListener("input", () => {
    clearTimeout(timer);
    timer = setTimeout(search, 180);
  });
  document.getElementById("find").addEventListener("submit", async (e) => {
    e.preventDefault();
    clearTimeout(timer);
    const label = readLabel(input.value);
    if (label && input.value.includes("/scan/")) return location.assign(`/staff/items/${label.number}?company=${label.company}`);
    await search();
    if (first) location.assign(`/staff/items/${first.sequence_num}`);
  });
  if (input.value) search();
}

async function memberItems(m, button) {
  const li = button.closest("li");
  button.remove();
  try {
    const a = await api("GET", "assets/filter.api", { status: "possessions_of", filter_param_val: m.id });
    li.append(a.assets.length ? h("ul", { class: "list" }, a.assets.map(itemRow)) : h("p", { class: "hint" }, "They hold no asset."));
  } catch (e) {
    li.append(message("error", e.message));
  }
}

// ---- Item --------------------------------------------------------------------------

const itemNumber = body.dataset.item;
let historyPage = 1;

async function showItem(notice) {
  const root = document.getElementById("item");
  if (!root) return;
  let a;
  try {
    a = (await api("GET", `assets/${itemNumber}.api`)).asset;
  } catch (e) {
    fill(root, h("h1", {}, e.status === 404 ? "Not found" : "Item"), message("error", e.message));
    return;
  }
  document.title = `${a.name} · rentrack`;
  const late = a.state === "checked_out" && isLate(a.checkin_due_on);
  const facts = [
    ["Number", `#${a.sequence_num}`],
    ["Kind", KIND[a.asset_type]],
    ["Identifier", a.identifier],
    ["Group", a.group_name],
    ["Location", a.location_name],
    ["Held by", a.assigned_to_user_name],
    ["Checked out", a.checkout_on],
    ["Due", a.checkin_due_on ? `${a.checkin_due_on}${late ? " (overdue)" : ""}` : a.state === "checked_out" ? "no end date" : null],
    ["Available", a.asset_type === "FixedAsset" ? null : a.available_quantity],
    ["Checked out (quantity)", a.asset_type === "StockAsset" ? a.checked_out_quantity : null],
    ["Total", a.asset_type === "FixedAsset" ? null : a.total_quantity ?? a.net_quantity],
    ["Retired", a.retired_on && `${a.retired_on} (${a.retire_reason || "no reason"})`],
  ].filter(([, v]) => v !== null && v !== undefined && v !== "");
  const head = h(
    "div",
    { class: "item-head" },
    a.image_url ? h("img", { src: a.image_url, alt: "" }) : null,
    h("div", {}, h("h1", {}, a.name), stateBadge(a.state, late)),
  );
  const parts = [
    head,
    notice ? message("notice", notice) : null,
    h("div", { class: "card" }, h("dl", { class: "facts" }, facts.flatMap(([k, v]) => [h("dt", {}, k), h("dd", {}, String(v))]))),
  ];
  let held = [];
  if (a.asset_type !== "FixedAsset") {
    held = await quantities(a);
    parts.push(h("section", { "aria-label": "Quantities per location" }, h("h2", {}, "Per location"), quantityTable(held)));
  }
  parts.push(h("section", { "aria-label": "Actions", id: "actions" }, h("h2", {}, "Actions"), await actions(a, held)));
  const history = h("div", { id: "history" });
  parts.push(h("section", { "aria-label": "History" }, h("h2", {}, "History"), history));
  parts.push(h("section", { "aria-label": "Label", class: "no-print-hide" }, h("h2", {}, "QR label"), labelPart(a)));
  fill(root, parts);
  await showHistory(a, historyPage);
}

/** The item's quantity at each active location that has some, most first. */
async function quantities(a) {
  const all = await locations();
  const counts = await Promise.all(
    all.map((l) => api("GET", "locations/get_quantity_by_location.api", { asset_id: a.sequence_num, location_id: l.id }).then((q) => [l, q.quantity])),
  );
  return counts.filter(([, n]) => n > 0).sort((x, y) => y[1] - x[1]);
}

function quantityTable(held) {
  if (!held.length) return h("p", { class: "hint" }, "None in stock at any active location.");
  return h(
    "table",
    {},
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Location"), h("th", { scope: "col" }, "Quantity"))),
    h("tbody", {}, held.map(([l, n]) => h("tr", {}, h("td", {}, l.name), h("td", {}, String(n))))),
  );
}

async function actions(a, held) {
  const n = a.sequence_num;
  const most = held.length ? held[0][0].id : a.location_id;
  const list = [];
  const due = async (prefix) => [...field(`${prefix}-till`, "Due date (empty: no end)", { type: "date" }), ...field(`${prefix}-till-time`, "Due time", { type: "time" })];
  if (a.status === "retired" || a.retired_on) {
    if (administers) {
      list.push(
        action(
          "Reactivate",
          () => h("div", {}),
          async () => {
            await api("PUT", `assets/${n}/activate.api`, {});
            return "Reactivated.";
          },
        ),
      );
    }
    return list.length ? list : h("p", { class: "hint" }, "A retired item has no actions.");
  }
  if (a.asset_type === "FixedAsset") {
    if (a.state !== "checked_out") {
      const tillFields = await due("out");
      list.push(
        action(
          "Check out",
          () => h("div", {}, memberPicker("out-member", "To member"), ...tillFields, ...field("out-comments", "Comments")),
          async (f) => {
            await api("PUT", `assets/${n}/checkout.api`, {
              user_id: needMember(f, "out-member"),
              till: val(f, "out-till"),
              till_time: val(f, "out-till-time"),
              "checkout_values[comments]": val(f, "out-comments"),
            });
            return "Checked out.";
          },
          { open: true },
        ),
      );
    } else {
      const where = await locationSelect("in-location", "Check in at", { selected: a.location_id });
      list.push(
        action(
          "Check in",
          () => h("div", {}, ...where, ...field("in-comments", "Comments")),
          async (f) => {
            await api("PUT", `assets/${n}/checkin.api`, {
              "checkin_values[location_id]": val(f, "in-location"),
              "checkin_values[comments]": val(f, "in-comments"),
            });
            return "Checked in.";
          },
          { open: true },
        ),
      );
      const tillFields = await due("ext");
      list.push(
        action(
          "Extend",
          () => h("div", {}, ...tillFields),
          async (f) => {
            await api("PUT", `assets/${n}/extend_checkout.api`, { till: val(f, "ext-till"), till_time: val(f, "ext-till-time") });
            return "Extended.";
          },
        ),
      );
      list.push(
        action(
          "Verify possession",
          () =>
            h(
              "div",
              {},
              h("p", { class: "hint" }, `Records that ${a.assigned_to_user_name} has it.`),
              ...field("ver-condition", "Condition"),
              ...field("ver-notes", "Notes"),
            ),
          async (f) => {
            await api("POST", `assets/${n}/verify_possession.api`, {
              user_id: a.assigned_to_user_id,
              "audit[condition]": val(f, "ver-condition"),
              "audit[notes]": val(f, "ver-notes"),
            });
            return "Possession verified.";
          },
        ),
      );
    }
    list.push(
      action(
        "Reserve",
        () =>
          h(
            "div",
            {},
            memberPicker("res-member", "For member"),
            ...field("res-from", "From", { type: "date", required: true }),
            ...field("res-to", "To", { type: "date", required: true }),
            ...field("res-note", "Note"),
          ),
        async (f) => {
          await api("POST", `assets/${n}/reservation_requests.api`, {
            "user[id]": needMember(f, "res-member"),
            "reservation_request[from]": val(f, "res-from"),
            "reservation_request[to]": val(f, "res-to"),
            "reservation_request[note]": val(f, "res-note"),
          });
          return "Reserved.";
        },
      ),
    );
  } else {
    const base = PATH[a.asset_type];
    if (a.asset_type === "StockAsset") {
      const from = await locationSelect("sout-location", "From location", { optional: false, selected: most });
      const tillFields = await due("sout");
      list.push(
        action(
          "Check out",
          () =>
            h(
              "div",
              {},
              memberPicker("sout-member", "To member"),
              ...field("sout-quantity", "Quantity", { type: "number", min: 1, value: 1, inputmode: "numeric" }),
              ...from,
              ...tillFields,
              ...field("sout-comments", "Comments"),
            ),
          async (f) => {
            await api("POST", `${base}/${n}/order.api`, {
              order_type: "checkout",
              "user[id]": needMember(f, "sout-member"),
              "line_item[quantity]": val(f, "sout-quantity"),
              "line_item[location_id]": val(f, "sout-location"),
              "line_item[comments]": val(f, "sout-comments"),
              till: val(f, "sout-till"),
              till_time: val(f, "sout-till-time"),
            });
            return "Checked out.";
          },
          { open: true },
        ),
      );
      const out = { line_items: (await allPages(`${base}/${n}/get_current_checkouts.api`, {}, "line_items")).rows };
      if (out.line_items.length) {
        const where = await locationSelect("sin-location", "Check in at", { optional: true });
        list.push(
          action(
            "Check in",
            () =>
              h(
                "div",
                {},
                h("label", { for: "sin-line" }, "Check-out"),
                h(
                  "select",
                  { id: "sin-line" },
                  out.line_items.map((l) =>
                    h("option", { value: l.id }, `${l.quantity_checked_out} with ${l.assigned_to_name || "a location"}${l.checkin_due_on ? `, due ${l.checkin_due_on}` : ""}`),
                  ),
                ),
                ...field("sin-quantity", "Quantity", { type: "number", min: 1, value: 1, inputmode: "numeric" }),
                ...where,
              ),
            async (f) => {
              await api("POST", `${base}/${n}/checkin.api`, {
                order_type: "checkin",
                selected_line_items: val(f, "sin-line"),
                "line_item[quantity]": val(f, "sin-quantity"),
                "line_item[location_id]": val(f, "sin-location"),
              });
              return "Checked in.";
            },
            { open: true },
          ),
        );
      }
    }
    const at = await locationSelect("add-location", "At location", { optional: false, selected: most });
    list.push(
      action(
        "Add stock",
        () =>
          h(
            "div",
            {},
            ...field("add-quantity", "Quantity", { type: "number", min: 1, value: 1, inputmode: "numeric" }),
            ...field("add-price", "Unit price", { inputmode: "decimal", value: "0" }),
            ...at,
          ),
        async (f) => {
          await api("POST", `${base}/${n}/order.api`, {
            order_type: "Add Stock",
            "line_item[quantity]": val(f, "add-quantity"),
            "line_item[price]": val(f, "add-price"),
            "line_item[location_id]": val(f, "add-location"),
          });
          return "Stock added.";
        },
      ),
    );
    const from = await locationSelect("tr-from", "From", { optional: false, selected: most });
    const to = await locationSelect("tr-to", "To", { optional: false });
    list.push(
      action(
        "Transfer",
        () => h("div", {}, ...field("tr-quantity", "Quantity", { type: "number", min: 1, value: 1, inputmode: "numeric" }), ...from, ...to),
        async (f) => {
          await api("POST", `${base}/${n}/transfer_stock.api`, {
            "transfer_stock[quantity]": val(f, "tr-quantity"),
            from_location: val(f, "tr-from"),
            to_location: val(f, "tr-to"),
          });
          return "Transferred.";
        },
      ),
    );
  }
  // Inventory is used up, not retired (the API refuses it).
  if (administers && a.asset_type !== "VolatileAsset") {
    const reasons = (await allPages("retire_reasons.api", {}, "retire_reasons")).rows;
    list.push(
      action(
        "Retire",
        () =>
          h(
            "div",
            {},
            ...field("ret-on", "Retired on", { type: "date", value: today }),
            h("label", { for: "ret-reason" }, "Reason"),
            h("select", { id: "ret-reason" }, reasons.map((r) => h("option", { value: r.id }, r.name))),
          ),
        async (f) => {
          await api("PUT", `assets/${n}/retire.api`, {
            "fixed_asset[retired_on]": val(f, "ret-on"),
            "fixed_asset[retire_reason_id]": val(f, "ret-reason"),
          });
          return "Retired.";
        },
        { danger: true },
      ),
    );
  }
  return list;
}

async function showHistory(a, pageNumber) {
  const root = document.getElementById("history");
  const path = a.asset_type === "FixedAsset" ? `assets/${a.sequence_num}/history_paginate.api` : `${PATH[a.asset_type]}/${a.sequence_num}/history.api`;
  try {
    const h_ = await api("GET", path, { page: pageNumber });
    historyPage = pageNumber;
    const rows = h_.history.map((e) =>
      h(
        "li",
        {},
        h("strong", {}, (e.action || e.order_type || "change").replaceAll("_", " ")),
        " ",
        h("span", {}, e.created_at || ""),
        h(
          "span",
          { class: "meta" },
          [
            e.user_full_name || e.assigned_to_user_name || e.checked_out_to_name,
            e.quantity !== undefined && e.quantity !== null ? `quantity ${e.quantity}` : null,
            e.location_name,
            e.comments,
          ]
            .filter(Boolean)
            .join(" · "),
        ),
      ),
    );
    fill(root, rows.length ? h("ol", { class: "list" }, rows) : h("p", { class: "hint" }, "No history yet."), pager(h_.current_page, h_.total_pages, (p) => showHistory(a, p)));
  } catch (e) {
    fill(root, message("error", e.message));
  }
}

function labelPart(a) {
  const out = h("div", { "aria-live": "polite" });
  const button = h(
    "button",
    {
      type: "button",
      class: "secondary",
      onclick: async () => {
        button.disabled = true;
        try {
          const answer = await api("POST", "qrcodes.api", { asset_seq: a.sequence_num });
          fill(
            out,
            h("p", {}, h("a", { href: answer.url, target: "_blank", rel: "noopener", class: "label-link" }, "Open the label (PDF) to print it")),
            h("p", { class: "hint" }, `The link works until ${answer.expires_at}.`),
          );
        } catch (e) {
          fill(out, message("error", e.message));
        } finally {
          button.disabled = false;
        }
      },
    },
    "Make a printable label",
  );
  return h("div", { class: "card" }, h("p", { class: "hint" }, "The label's QR code opens this page when scanned."), button, out);
}

// ---- Scan --------------------------------------------------------------------------

async function detector() {
  if ("BarcodeDetector" in window) {
    try {
      const formats = await window.BarcodeDetector.getSupportedFormats();
      if (formats.includes("qr_code")) return new window.BarcodeDetector({ formats: ["qr_code"] });
    } catch {
      // fall through to the decoder served with the pages
    }
  }
  const m = await import("/staff/assets/barcode-detector.js");
  m.prepareZXingModule({
    overrides: { locateFile: (path, prefix) => (path.endsWith(".wasm") ? "/staff/assets/zxing_reader.wasm" : prefix + path) },
    fireImmediately: true,
  });
  return new m.BarcodeDetector({ formats: ["qr_code"] });
}

function scanPage() {
  const video = document.getElementById("video");
  const status = document.getElementById("scan-status");
  const list = document.getElementById("scanned");
  const typed = document.getElementById("typed");
  const code = document.getElementById("code");
  const mode = () => document.querySelector('input[name="mode"]:checked').value;
  const seen = new Map();
  locationSelect("checkin-location", "", { optional: true }).then(([, select]) => {
    const target = document.getElementById("checkin-location");
    target.replaceChildren(...select.children);
  });

  const handle = async (text) => {
    const label = readLabel(text);
    if (!label) {
      notify(false);
      list.prepend(h("li", {}, message("error", `Not a rentrack label: ${text.slice(0, 80)}`)));
      return;
    }
    if (label.company !== companyId) {
      notify(false);
      list.prepend(h("li", {}, message("error", "This label belongs to another company.")));
      return;
    }
    if (mode() === "open") {
      notify(true);
      location.assign(`/staff/items/${label.number}`);
      return;
    }
    const where = document.getElementById("checkin-location").value;
    try {
      const a = await api("PUT", `assets/${label.number}/checkin.api`, { "checkin_values[location_id]": where });
      notify(true);
      list.prepend(h("li", {}, h("a", { href: `/staff/items/${label.number}` }, a.asset.name), " ", h("span", { class: "badge in" }, "checked in")));
    } catch (e) {
      notify(false);
      list.prepend(h("li", {}, h("a", { href: `/staff/items/${label.number}` }, `#${label.number}`), message("error", e.message)));
    }
  };

  const fresh = (text) => {
    const at = Date.now();
    const last = seen.get(text);
    seen.set(text, at);
    return !last || at - last > 3000;
  };

  typed.addEventListener("submit", (e) => {
    e.preventDefault();
    const text = code.value;
    code.value = "";
    if (text.trim()) handle(text);
  });

  (async () => {
    if (!navigator.mediaDevices?.getUserMedia) {
      status.textContent = "This browser gives no camera here (a phone needs the site on HTTPS). Type or scan into the field instead.";
      return;
    }
    let stream;
    try {
      stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: "environment" }, audio: false });
    } catch (e) {
      status.textContent = `No camera: ${e.message}. Type or scan into the field instead.`;
      return;
    }
    video.srcObject = stream;
    await video.play().catch(() => {});
    status.textContent = "Loading the label reader…";
    let reader;
    try {
      reader = await detector();
    } catch (e) {
      status.textContent = `The label reader could not start: ${e.message}`;
      return;
    }
    status.textContent = "Point the camera at a label.";
    body.dataset.scanner = "ready";
    const tick = async () => {
      if (video.readyState >= 2) {
        try {
          const codes = await reader.detect(video);
          for (const c of codes) {
            if (c.rawValue && fresh(c.rawValue)) {
              status.textContent = `Read ${c.rawValue}`;
              await handle(c.rawValue);
            }
          }
        } catch {
          // A frame that cannot be read; the next may.
        }
      }
      setTimeout(tick, 150);
    };
    tick();
  })();
}

// ---- Due and today -----------------------------------------------------------------

/** Every page of a list (at most `cap` pages), as one array. */
async function allPages(path, params, key, cap = 20) {
  const out = [];
  let total = 1;
  for (let p = 1; p <= Math.min(total, cap); p++) {
    const a = await api("GET", path, { ...params, page: p });
    out.push(...a[key]);
    total = a.total_pages;
  }
  return { rows: out, capped: total > cap };
}

async function section(id, load) {
  const root = document.getElementById(id);
  try {
    fill(root, await load());
  } catch (e) {
    fill(root, message("error", e.message));
  }
}

const listOr = (rows, render, empty, capped) => [
  rows.length ? h("ul", { class: "list" }, rows.map(render)) : h("p", { class: "hint" }, empty),
  capped ? h("p", { class: "hint" }, "Only the first pages are shown; the API lists the rest.") : null,
];

function duePage() {
  section("due-checkouts", async () => {
    const [late, todays] = await Promise.all([
      allPages("assets/filter.api", { status: "overdue" }, "assets"),
      allPages("assets/filter.api", { status: "due_today" }, "assets"),
    ]);
    const soon = todays.rows.filter((a) => !late.rows.some((b) => b.id === a.id));
    return [
      h("h3", { class: "group" }, `Overdue (${late.rows.length})`),
      listOr(late.rows, itemRow, "Nothing is overdue.", late.capped),
      h("h3", { class: "group" }, `Due later today (${soon.length})`),
      listOr(soon, itemRow, "Nothing else is due today.", todays.capped),
    ];
  });
  section("due-rentals", async () => {
    const out = await allPages("baskets.api", { "filters[state]": "checked_out" }, "baskets");
    const late = out.rows.filter((o) => o.due_date && o.due_date < now);
    const todays = out.rows.filter((o) => o.due_date && o.due_date >= now && o.due_date.startsWith(today));
    return [
      h("h3", { class: "group" }, `Overdue (${late.length})`),
      listOr(late, (o) => orderRow(o), "No rented-out order is overdue.", out.capped),
      h("h3", { class: "group" }, `Due later today (${todays.length})`),
      listOr(todays, (o) => orderRow(o), "No other order is due back today.", out.capped),
    ];
  });
}

function todayPage() {
  section("today-pickups", async () => {
    const booked = await allPages("baskets.api", { "filters[state]": "booked" }, "baskets");
    const rows = booked.rows.filter((o) => (o.expected_checkout_date || "").startsWith(today));
    return listOr(rows, (o) => orderRow(o), "No booked order starts today.", booked.capped);
  });
  section("today-returns", async () => {
    const out = await allPages("baskets.api", { "filters[state]": "checked_out" }, "baskets");
    const rows = out.rows.filter((o) => (o.due_date || "").startsWith(today));
    return listOr(rows, (o) => orderRow(o), "No rented-out order is due back today.", out.capped);
  });
}

// ---- Start -------------------------------------------------------------------------

({ find: findPage, item: () => showItem(), scan: scanPage, due: duePage, today: todayPage })[page]?.();
