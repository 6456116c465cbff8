// The staff pages in a real browser (headless Chromium): a member logs in through an
// invitation the owner made in the console, finds an item, checks it out and in, sees
// it overdue after its due moment, scans its printed label with a fake camera (the
// label PDF rendered by pdftoppm, made a y4m video by ffmpeg), checks items in by
// scanning, rents out today's order; a member without the role gets no Retire action
// and a 403 when posting it anyway; a member of another company sees none of it.
// Screenshots of each page, at phone and desktop width, go to docs/screenshots/ (or
// to $SCREENSHOTS_DIR).
//
//   BASE_URL=http://localhost:3000 RENTRACK=target/debug/rentrack \
//   DATABASE_URL=sqlite:///tmp/x.db node staff.mjs
import { chromium } from 'playwright-core';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';

const base = process.env.BASE_URL ?? 'http://localhost:3000';
const rentrack = process.env.RENTRACK;
const databaseUrl = process.env.DATABASE_URL;
assert.ok(rentrack && databaseUrl, 'RENTRACK and DATABASE_URL name the binary and the database');
const shots = process.env.SCREENSHOTS_DIR ? `${process.env.SCREENSHOTS_DIR}/` : fileURLToPath(new URL('../../docs/screenshots/', import.meta.url));
mkdirSync(shots, { recursive: true });
const work = mkdtempSync(`${tmpdir()}/staff-`);
const run = Date.now().toString(36);
const password = 'correct-horse-battery';
const PHONE = { width: 360, height: 740 };
const DESKTOP = { width: 1100, height: 900 };

function cli(...args) {
  const out = execFileSync(rentrack, [...args, '--database-url', databaseUrl], { input: `${password}\n` });
  return JSON.parse(out.toString());
}

/** A company with the API on, its owner's console password set; its id and API. */
async function company(subdomain) {
  const made = cli('company', 'create', '--name', `Shop ${subdomain}`, '--subdomain', subdomain, '--plan', 'unlimited', '--enable-api');
  cli('owner', 'set-password', '--subdomain', subdomain, '--email', `owner@${subdomain}.test`);
  const call = async (method, path, params = {}) => {
    const body = new URLSearchParams(params);
    const res = await fetch(`${base}${path}`, {
      method,
      headers: { token: made.token, 'content-type': 'application/x-www-form-urlencoded' },
      body: method === 'GET' ? undefined : body,
    });
    const answer = await res.json();
    assert.ok(res.ok, `${method} ${path}: ${res.status} ${JSON.stringify(answer)}`);
    return answer;
  };
  return { id: made.company_id, subdomain, token: made.token, call };
}

/** The company's date and a time `minutes` from now (UTC, the default zone). */
function later(minutes) {
  const t = new Date(Date.now() + minutes * 60_000);
  return { date: t.toISOString().slice(0, 10), time: t.toISOString().slice(11, 16) };
}

async function step(name, fn) {
  process.stdout.write(`- ${name} ... `);
  await fn();
  console.log('ok');
}

async function shot(page, name) {
  await page.setViewportSize(PHONE);
  await page.screenshot({ path: `${shots}staff-${name}-phone.png`, fullPage: true });
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `${name} scrolls sideways at 360 px (${overflow} px)`);
  await page.setViewportSize(DESKTOP);
  await page.screenshot({ path: `${shots}staff-${name}-desktop.png`, fullPage: true });
}

// ---- The companies, their records, and the label video ----------------------------

const a = await company(`shopa-${run}`);
const b = await company(`shopb-${run}`);
const group = (await a.call('POST', '/groups.api', { 'group[name]': 'Tools' })).group;
const shelf = (await a.call('POST', '/locations.api', { 'location[name]': 'Shelf 1' })).location;
const van = (await a.call('POST', '/locations.api', { 'location[name]': 'Van' })).location;
const asset = (name) =>
  a.call('POST', '/assets.api', {
    'fixed_asset[name]': name,
    'fixed_asset[group_id]': group.id,
    'fixed_asset[purchased_on]': '2026-01-15',
    'fixed_asset[location_id]': shelf.id,
    'fixed_asset[rental_price_attributes][daily]': '10',
  });
const drill = (await asset('Hammer Drill')).asset;
const saw = (await asset('Circular Saw')).asset;
const ladder = (await asset('Step Ladder')).asset;
const cable = (await a.call('POST', '/stock_assets.api', { 'stock_asset[name]': 'Extension Cable', 'stock_asset[group_id]': group.id })).asset;
await a.call('POST', `/stock_assets/${cable.sequence_num}/order.api`, {
  order_type: 'Add Stock',
  'line_item[quantity]': '12',
  'line_item[price]': '5',
  'line_item[location_id]': shelf.id,
});
const member = (first, last, email, role) =>
  a.call('POST', '/members.api', { 'user[first_name]': first, 'user[last_name]': last, 'user[email]': email, 'user[role_id]': role });
const sam = (await member('Sam', 'Okafor', `sam@${a.subdomain}.test`, '2')).member;
const ada = (await member('Ada', 'Quist', `ada@${a.subdomain}.test`, '1')).member;
const customer = (await a.call('POST', '/customers.api', { 'customer[first_name]': 'Lee', 'customer[last_name]': 'Park' })).customer;
const order = (await a.call('POST', '/baskets.api', { 'basket[customer_id]': customer.id })).basket;
await a.call('PATCH', `/baskets/${order.sequence_num}/update_basket_from_show.api`, { asset_ids: String(ladder.sequence_num) });
const pickup = later(30);
const back = later(60 * 24 * 2);
await a.call('PATCH', `/baskets/${order.sequence_num}/reservation.api`, { from: pickup.date, from_time: pickup.time, to: back.date, to_time: '10:00' });
// Company B: a member of its own and an item numbered like none of A's.
await b.call('POST', '/groups.api', { 'group[name]': 'B things' });
const bo = (await b.call('POST', '/members.api', { 'user[first_name]': 'Bo', 'user[last_name]': 'Berg', 'user[email]': `bo@${b.subdomain}.test`, 'user[role_id]': '1' })).member;
assert.ok(bo.id);

const label = await a.call('POST', '/qrcodes.api', { asset_seq: String(drill.sequence_num) });
const pdf = Buffer.from(await (await fetch(label.url)).arrayBuffer());
writeFileSync(`${work}/label.pdf`, pdf);
execFileSync('pdftoppm', ['-png', '-r', '300', '-singlefile', `${work}/label.pdf`, `${work}/label`]);
execFileSync('ffmpeg', ['-loglevel', 'error', '-y', '-i', `${work}/label.png`, '-vf', 'scale=1280:720:force_original_aspect_ratio=decrease,pad=1280:720:-1:-1:white,format=yuv420p', '-frames:v', '1', `${work}/label.y4m`]);

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
  args: [
    '--no-sandbox',
    '--disable-dev-shm-usage',
    '--use-fake-device-for-media-stream',
    '--use-fake-ui-for-media-stream',
    `--use-file-for-fake-video-capture=${work}/label.y4m`,
    '--autoplay-policy=no-user-gesture-required',
  ],
});

const newPage = async () => {
  const context = await browser.newContext({ viewport: DESKTOP });
  await context.grantPermissions(['camera', 'clipboard-read', 'clipboard-write'], { origin: base });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => m.type() === 'error' && !m.text().includes('status of 4') && errors.push(m.text()));
  page.errors = errors;
  return page;
};

/** Posts through the staff proxy as the page's member, with their CSRF token. */
const post = (page, method, path, params) =>
  page.evaluate(
    async ([method, path, params]) => {
      const csrf = document.querySelector('meta[name="csrf-token"]').content;
      const res = await fetch(`/staff/api/${path}`, {
        method,
        headers: { 'x-csrf-token': csrf, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(params),
      });
      return { status: res.status, body: await res.json() };
    },
    [method, path, params],
  );

let failed = false;
let staff;
try {
  const owner = await newPage();
  staff = await newPage();
  let link;

  await step('the owner makes an invitation link in the console', async () => {
    await owner.goto(`${base}/login`);
    await owner.fill('#subdomain', a.subdomain);
    await owner.fill('#email', `owner@${a.subdomain}.test`);
    await owner.fill('#password', password);
    await owner.click('button[type=submit]');
    await owner.waitForURL(`${base}/settings`);
    await owner.fill('#staff-email', `SAM@${a.subdomain}.test`);
    await owner.click('#staff button[type=submit]');
    link = await owner.inputValue('#invitation-link');
    assert.match(link, /\/staff\/invitations\/[0-9a-f]{64}$/);
    await owner.locator('#staff').screenshot({ path: `${shots}staff-invitation-console.png` });
  });

  await step('the member sets a password through it and is logged in', async () => {
    await staff.goto(link);
    await staff.fill('#password', password);
    await staff.fill('#password_confirmation', 'another-password');
    await staff.click('button[type=submit]');
    assert.match(await staff.textContent('.error'), /differ/);
    await shot(staff, 'invitation');
    await staff.fill('#password', password);
    await staff.fill('#password_confirmation', password);
    await staff.click('button[type=submit]');
    await staff.waitForURL(`${base}/staff/find`);
    const cookie = (await staff.context().cookies(base)).find((c) => c.name === 'rentrack_staff');
    assert.ok(cookie && cookie.httpOnly && cookie.secure && cookie.sameSite === 'Lax');
    const again = await fetch(link);
    assert.equal(again.status, 404, 'a used link no longer works');
  });

  await step('log out, and log in with the password', async () => {
    await staff.click('.who button');
    await staff.waitForURL(/\/staff\/login/);
    assert.equal(await staff.inputValue('#company'), a.subdomain);
    await staff.fill('#email', `sam@${a.subdomain}.test`);
    await staff.fill('#password', 'wrong-password-here');
    await staff.click('button[type=submit]');
    assert.match(await staff.textContent('.error'), /not right/);
    await shot(staff, 'login');
    await staff.fill('#password', password);
    await staff.click('button[type=submit]');
    await staff.waitForURL(`${base}/staff/find`);
  });

  await step('find an item as one types, and open it', async () => {
    await staff.fill('#q', 'hammer');
    await staff.waitForSelector(`#results a[href="/staff/items/${drill.sequence_num}"]`);
    await staff.fill('#q', 'sam');
    await staff.waitForSelector('#results li:has-text("Sam Okafor")');
    await staff.fill('#q', 'dri');
    await staff.waitForSelector(`#results a[href="/staff/items/${drill.sequence_num}"]`);
    await shot(staff, 'find');
    await staff.click(`#results a[href="/staff/items/${drill.sequence_num}"]`);
    await staff.waitForSelector('#item h1:has-text("Hammer Drill")');
  });

  await step('a member without the role gets no Retire action, and a 403 if they post it', async () => {
    await staff.waitForSelector('#actions details');
    assert.equal(await staff.locator('details[data-action="Retire"]').count(), 0);
    const refused = await post(staff, 'PUT', `assets/${drill.sequence_num}/retire.api`, {
      'fixed_asset[retired_on]': later(0).date,
      'fixed_asset[retire_reason_id]': '1',
    });
    assert.equal(refused.status, 403);
    assert.match(refused.body.message, /administrator/);
    const noCsrf = await staff.evaluate(async (n) => (await fetch(`/staff/api/assets/${n}/checkin.api`, { method: 'PUT' })).status, drill.sequence_num);
    assert.equal(noCsrf, 403, 'a change without the CSRF token is refused');
    assert.equal((await a.call('GET', `/assets/${drill.sequence_num}.api`)).asset.state, 'available');
  });

  const due = later(1);
  await step('check it out to a member picked by search, due in a minute', async () => {
    await staff.fill('#out-member', 'ada');
    await staff.waitForSelector('#out-member-list li:has-text("Ada Quist")');
    await staff.keyboard.press('Enter');
    await staff.fill('#out-till', due.date);
    await staff.fill('#out-till-time', due.time);
    await staff.click('details[data-action="Check out"] button[type=submit]');
    await staff.waitForSelector('.notice:has-text("Checked out.")');
    await staff.waitForSelector('#item .badge:has-text("checked out")');
    const now = (await a.call('GET', `/assets/${drill.sequence_num}.api`)).asset;
    assert.equal(now.assigned_to_user_id, ada.id);
    await staff.waitForSelector('#history li:has-text("checked out")');
    await shot(staff, 'item');
  });

  await step('a second check-out shows the API refusal in its words', async () => {
    const res = await post(staff, 'PUT', `assets/${drill.sequence_num}/checkout.api`, { user_id: String(sam.id) });
    assert.equal(res.status, 409);
    assert.match(res.body.message, /checked out to Ada Quist/);
  });

  await step('check it in at a location', async () => {
    await staff.selectOption('#in-location', String(van.id));
    await staff.click('details[data-action="Check in"] button[type=submit]');
    await staff.waitForSelector('.notice:has-text("Checked in.")');
    const now = (await a.call('GET', `/assets/${drill.sequence_num}.api`)).asset;
    assert.equal(now.state, 'available');
    assert.equal(now.location_id, van.id);
  });

  await step('stock: check out and in by quantity, see quantities per location', async () => {
    await staff.goto(`${base}/staff/items/${cable.sequence_num}`);
    await staff.waitForSelector('#item table td:has-text("Shelf 1")');
    await staff.fill('#sout-member', 'sam');
    await staff.waitForSelector('#sout-member-list li:has-text("Sam Okafor")');
    await staff.keyboard.press('Enter');
    await staff.fill('#sout-quantity', '3');
    await staff.click('details[data-action="Check out"] button[type=submit]');
    await staff.waitForSelector('.notice:has-text("Checked out.")');
    assert.equal((await a.call('GET', `/stock_assets/${cable.sequence_num}.api`)).asset.checked_out_quantity, 3);
    await staff.fill('#sin-quantity', '3');
    await staff.click('details[data-action="Check in"] button[type=submit]');
    await staff.waitForSelector('.notice:has-text("Checked in.")');
    assert.equal((await a.call('GET', `/stock_assets/${cable.sequence_num}.api`)).asset.checked_out_quantity, 0);
  });

  await step('the label opens the item from a scanned QR code (fake camera)', async () => {
    await staff.goto(`${base}/staff/scan`);
    await staff.waitForURL(`${base}/staff/items/${drill.sequence_num}`, { timeout: 20_000 });
    await staff.waitForSelector('#item h1:has-text("Hammer Drill")');
  });

  await step('"check in what I scan" returns items one after another', async () => {
    for (const item of [drill, saw]) {
      await a.call('PUT', `/assets/${item.sequence_num}/checkout.api`, { user_id: String(ada.id) });
    }
    await staff.goto(`${base}/staff/scan`);
    await staff.check('input[name=mode][value=checkin]');
    await staff.waitForSelector(`#checkin-location option[value="${shelf.id}"]`, { state: 'attached' });
    await staff.selectOption('#checkin-location', String(shelf.id));
    await staff.waitForSelector('#scanned li:has-text("Hammer Drill")', { timeout: 20_000 });
    await staff.fill('#code', `#${saw.sequence_num}`);
    await staff.press('#code', 'Enter');
    await staff.waitForSelector('#scanned li:has-text("Circular Saw")');
    for (const item of [drill, saw]) {
      assert.equal((await a.call('GET', `/assets/${item.sequence_num}.api`)).asset.state, 'available');
    }
    await shot(staff, 'scan');
  });

  await step("today's orders: rent out the pick-up", async () => {
    await staff.goto(`${base}/staff/today`);
    const row = `#today-pickups li[data-order="${order.sequence_num}"]`;
    await staff.waitForSelector(row);
    await shot(staff, 'today');
    await staff.click(`${row} button:has-text("Rent out")`);
    await staff.waitForSelector(`#today-pickups li[data-order="${order.sequence_num}"]:has-text("Rented Out")`);
    assert.equal((await a.call('GET', `/baskets/${order.sequence_num}.api`)).basket.basket_state, 'checked_out');
  });

  await step('the item is on the overdue page after its due moment', async () => {
    await a.call('PUT', `/assets/${drill.sequence_num}/checkout.api`, { user_id: String(ada.id), till: due.date, till_time: due.time }).catch(async () => {
      // The minute has passed already: due a minute from now, then wait for it.
      const next = later(1);
      await a.call('PUT', `/assets/${drill.sequence_num}/checkout.api`, { user_id: String(ada.id), till: next.date, till_time: next.time });
    });
    const asset = (await a.call('GET', `/assets/${drill.sequence_num}.api`)).asset;
    const dueAt = Date.parse(`${asset.checkin_due_on.replace(' ', 'T')}Z`);
    await new Promise((r) => setTimeout(r, Math.max(0, dueAt - Date.now() + 1500)));
    await staff.goto(`${base}/staff/due`);
    await staff.waitForSelector(`#due-checkouts li:has-text("Hammer Drill")`);
    assert.match(await staff.textContent('#due-checkouts'), /Overdue \(1\)/);
    assert.match(await staff.textContent('#due-checkouts'), /with Ada Quist/);
    await shot(staff, 'due');
  });

  await step('a label link opens the staff page in a browser, and JSON for programs', async () => {
    const json = await fetch(`${base}/scan/${a.id}/assets/${drill.sequence_num}`);
    assert.equal(json.headers.get('content-type'), 'application/json');
    const fresh = await newPage();
    await fresh.goto(`${base}/scan/${a.id}/assets/${drill.sequence_num}`);
    await fresh.waitForURL(/\/staff\/login\?next=/);
    await fresh.fill('#company', a.subdomain);
    await fresh.fill('#email', `sam@${a.subdomain}.test`);
    await fresh.fill('#password', password);
    await fresh.click('button[type=submit]');
    await fresh.waitForURL(`${base}/staff/items/${drill.sequence_num}?company=${a.id}`);
    await fresh.waitForSelector('#item h1:has-text("Hammer Drill")');
    await fresh.context().close();
  });

  await step("a member of another company sees none of this company's pages or items", async () => {
    const invited = cli('staff', 'invite', '--subdomain', b.subdomain, '--email', `bo@${b.subdomain}.test`);
    const other = await newPage();
    await other.goto(`${base}${invited.path}`);
    await other.fill('#password', password);
    await other.fill('#password_confirmation', password);
    await other.click('button[type=submit]');
    await other.waitForURL(`${base}/staff/find`);
    const labelPage = await other.goto(`${base}/staff/items/${drill.sequence_num}?company=${a.id}`);
    assert.equal(labelPage.status(), 404);
    assert.match(await other.textContent('main'), /another company/);
    await other.goto(`${base}/staff/find`);
    await other.fill('#q', 'hammer');
    await other.waitForSelector('#results :text("No item matches.")');
    const read = await other.evaluate(async (n) => (await fetch(`/staff/api/assets/${n}.api`)).status, drill.sequence_num);
    assert.equal(read, 404);
    const write = await post(other, 'PUT', `assets/${drill.sequence_num}/checkin.api`, {});
    assert.equal(write.status, 404);
    assert.equal((await a.call('GET', `/assets/${drill.sequence_num}.api`)).asset.state, 'checked_out');
  });

  await step('no page raised a script error', async () => {
    assert.deepEqual(staff.errors, []);
  });
} catch (e) {
  failed = true;
  console.log('FAILED');
  console.error(e);
  if (staff) {
    console.error(`on ${staff.url()}:`, (await staff.textContent('main').catch(() => '')).replace(/\s+/g, ' ').slice(0, 2000));
    console.error('script errors:', staff.errors);
  }
} finally {
  await browser.close();
}
process.exit(failed ? 1 : 0);
