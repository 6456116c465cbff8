//! Request mixes: which URIs a run cycles through, discovered from the
//! server's own list pages before the run starts.

use std::collections::BTreeMap;

use anyhow::{Context, Result, bail};
use chrono::NaiveDate;
use clap::ValueEnum;
use hyper::body::Bytes;
use hyper::{Method, Uri};
use serde_json::Value;

use crate::conn::{Conn, encode};

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Mix {
    /// GET /healthz (no auth, one trivial database ping): the ceiling.
    Healthz,
    /// GET /locations/<id>.api, ids round-robin.
    LocationDetails,
    /// GET /locations/get_line_item_locations.api?page=N&status=all, pages round-robin.
    LocationList,
    /// The location list's page 1 only.
    LocationListFirst,
    /// The location list's last 10 pages, round-robin.
    LocationListEnd,
    /// GET /assets/classification_view.api?page=N, pages round-robin.
    GroupList,
    /// GET /assets/vendors.api?page=N, pages round-robin.
    VendorList,
    /// GET /vendors/<id>.api, ids round-robin.
    VendorDetails,
    /// GET /members.api?page=N, pages round-robin.
    MemberList,
    /// The member list's page 1 only.
    MemberListFirst,
    /// The member list's last 10 pages, round-robin.
    MemberListEnd,
    /// GET /members/<id>.api, ids round-robin.
    MemberDetails,
    /// GET /members.api?filter=status&filter_val=active&page=N, pages round-robin.
    MemberListActive,
    /// GET /customers.api?page=N, pages round-robin.
    CustomerList,
    /// GET /customers/<id>.api, ids round-robin: the reference for the list mixes below.
    CustomerDetails,
    /// GET /customers.api?page=1 only.
    CustomerListFirst,
    /// GET /customers.api?page=N for the last 10 pages, round-robin.
    CustomerListEnd,
    /// GET /customers.api?page=N for the 10 pages in the middle of the list, round-robin.
    CustomerListMiddle,
    /// GET /customers.api?filter=non_taxed&page=N (one customer in ten).
    CustomerListNonTaxed,
    /// GET /customers.api?filter=email&filter_val=<e-mail>, e-mails of seeded customers round-robin.
    CustomerListEmail,
    /// GET /assets/<n>.api, asset numbers round-robin: the reference for the asset mixes.
    AssetDetails,
    /// GET /assets.api?page=1 only.
    AssetListFirst,
    /// GET /assets.api?page=N for the last 10 pages, round-robin.
    AssetListEnd,
    /// GET /assets/filter.api?status=available&page=1.
    AssetFilterFirst,
    /// GET /assets/filter.api?status=available for the last 10 pages.
    AssetFilterEnd,
    /// GET /search.api?search=bench&page=1 (every seeded asset matches).
    AssetSearchFirst,
    /// GET /search.api?search=bench for the last 10 pages.
    AssetSearchEnd,
    /// GET /search.api?search=gizmo&page=1: a search matching a few assets
    /// (`run-search.sh` names 25 of them `Rare Gizmo <n>`).
    AssetSearchFew,
    /// PUT /assets/<n>/checkout.api then PUT /assets/<n>/checkin.api, each connection
    /// on an asset of its own: one request of the mix is half a cycle.
    AssetCheckoutCycle,
    /// POST /assets/<n>/services.api then PUT /assets/<n>/services/<id>/complete.api,
    /// each connection on an asset of its own: one request of the mix is half a cycle.
    AssetServiceCycle,
    /// POST /inventory/<n>/order.api order_type=Add Stock, one unit, each connection on
    /// an inventory item of its own.
    StockAdd,
    /// POST /inventory/<n>/order.api order_type=New Sale, one unit, each connection on
    /// an inventory item of its own.
    StockSale,
    /// POST /inventory/<n>/transfer_stock.api, one unit between the item's two
    /// locations, there and back in turn, each connection on an inventory item of its own.
    StockTransfer,
    /// POST /stock_assets/<n>/order.api order_type=checkout (one unit to a member) then
    /// POST /stock_assets/<n>/checkin.api of the line item it made, each connection on
    /// an asset stock item of its own: one request of the mix is half a cycle.
    StockCheckoutCycle,
    /// stock-add with every connection on one inventory item.
    StockAddContended,
    /// stock-sale with every connection on one inventory item.
    StockSaleContended,
    /// stock-transfer with every connection on one inventory item.
    StockTransferContended,
    /// stock-checkout-cycle with every connection on one asset stock item.
    StockCheckoutCycleContended,
    /// GET /baskets.api?page=N (rental orders), pages round-robin.
    OrderList,
    /// GET /baskets.api?page=1.
    OrderListFirst,
    /// GET /baskets.api?page=N over the last 10 pages.
    OrderListEnd,
    /// GET /baskets/<n>.api (an order with its lines and priced totals), order numbers
    /// round-robin.
    OrderDetails,
    /// POST /baskets.api (a draft for the seeded customer with a fixed asset of the
    /// connection's own and 2 units of the shared asset stock item, for a far-future
    /// period) then PATCH /baskets/<n>/reservation.api (book it for that period): one
    /// request of the mix is half a cycle.
    OrderCycle,
    /// The whole rental cycle of an order, one request a step: POST /baskets.api (a
    /// draft for the seeded customer), PATCH /baskets/<n>/update_basket_from_show.api (5
    /// items: 4 fixed assets of the connection's own and 1 unit of the shared asset stock
    /// item), PATCH .../reservation.api (book them), PATCH .../checkout.api (rent them out
    /// now), PATCH .../checkin.api (return them now with a cash payment of the balance
    /// due, so that the order ends completed).
    OrderFullCycle,
    /// GET /payment_options.api?page=N (every company has three), pages round-robin.
    PaymentOptionList,
    /// GET /pricing_coupons.api?page=N, pages round-robin (empty unless coupons were
    /// made: `seed` makes none).
    CouponList,
    /// Even blend of location/group/vendor details and lists.
    Catalog,
}

impl Mix {
    pub fn name(self) -> String {
        self.to_possible_value()
            .map(|v| v.get_name().to_owned())
            .unwrap_or_default()
    }

    /// The single-kind mixes this mix interleaves.
    fn parts(self) -> Vec<Mix> {
        match self {
            Mix::Catalog => vec![
                Mix::LocationDetails,
                Mix::LocationList,
                Mix::GroupList,
                Mix::VendorList,
                Mix::VendorDetails,
            ],
            single => vec![single],
        }
    }

    /// The stock movement of a stock mix, and whether all connections share one item.
    fn stock(self) -> Option<(Movement, bool)> {
        Some(match self {
            Mix::StockAdd => (Movement::Add, false),
            Mix::StockSale => (Movement::Sale, false),
            Mix::StockTransfer => (Movement::Transfer, false),
            Mix::StockCheckoutCycle => (Movement::CheckoutCycle, false),
            Mix::StockAddContended => (Movement::Add, true),
            Mix::StockSaleContended => (Movement::Sale, true),
            Mix::StockTransferContended => (Movement::Transfer, true),
            Mix::StockCheckoutCycleContended => (Movement::CheckoutCycle, true),
            _ => return None,
        })
    }
}

/// What a stock mix does to an item.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Movement {
    Add,
    Sale,
    Transfer,
    CheckoutCycle,
}

/// The URIs of a run: one list per request kind. Request number `g` (counted
/// across all workers) uses kind `g % kinds` and, within it, entry
/// `(g / kinds) % len`, so kinds are evenly blended and ids/pages are hit
/// round-robin.
#[derive(Debug)]
pub struct Plan {
    kinds: Vec<Kind>,
    /// The periods of the orders the order cycles book (order-cycle, order-full-cycle).
    pub periods: Option<Periods>,
    /// Whether a connection finishes the cycle of its order after the window closes,
    /// uncounted (order-full-cycle): an order left booked or rented out would go on
    /// holding the connection's items, and the next run would be refused them.
    pub settles: bool,
}

#[derive(Debug)]
struct Kind {
    mix: Mix,
    method: Method,
    calls: Vec<Call>,
}

/// One request of a plan.
#[derive(Debug, Clone)]
pub struct Call {
    /// The method, when not its kind's (the order cycles' steps after the create).
    method: Option<Method>,
    /// For the steps on an order (`Link::on_order`), `/baskets.api`: their path names
    /// the order the connection created (see `OpenOrder::request`).
    pub uri: Uri,
    /// The encoded form body (the stock mixes' POSTs, the order cycles' steps).
    pub form: Option<Bytes>,
    pub link: Link,
}

/// How a request depends on the one before it on the same connection.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Link {
    /// It does not.
    Alone,
    /// A stock check-out: the connection keeps the `line_item.id` of its answer.
    KeepLineItem,
    /// The check-in of that line item: the form is `selected_line_items=<id>`.
    CheckInLineItem,
    /// A service's start: the connection keeps the `service.id` of its answer.
    KeepService,
    /// The completion of that service: `PUT /assets/<n>/services/<id>/complete.api`
    /// (the call's path has `0` for the id).
    CompleteService,
    /// An order's create: the form gets the period of the connection's next order
    /// (`expected_checkout_date`, `due_date`), and the connection keeps the
    /// `basket.sequence_num` of the answer.
    KeepOrder,
    /// The booking of that order for the same period: `PATCH
    /// /baskets/<n>/reservation.api` with `from` and `to`.
    BookOrder,
    /// Items put on that order: `PATCH /baskets/<n>/update_basket_from_show.api` with
    /// the call's form.
    AddItems,
    /// Renting that order out: `PATCH /baskets/<n>/checkout.api` with the call's form;
    /// the connection keeps the `basket.balance_due` of the answer.
    RentOut,
    /// Its return: `PATCH /baskets/<n>/checkin.api` with the call's form and
    /// `basket[cash_paid]=<that balance>` (no payment when nothing is owed); the answer
    /// must say the order is `completed`.
    Return,
}

impl Link {
    /// What a 2xx answer must name (or say) for the connection to go on.
    pub fn kept(self) -> Option<&'static str> {
        match self {
            Link::KeepLineItem => Some("line_item.id"),
            Link::KeepService => Some("service.id"),
            Link::KeepOrder => Some("basket.sequence_num"),
            Link::RentOut => Some("basket.balance_due"),
            Link::Return => Some("basket.basket_state completed"),
            _ => None,
        }
    }

    /// Whether the request is a step on the order the connection created last.
    pub fn on_order(self) -> bool {
        matches!(
            self,
            Link::BookOrder | Link::AddItems | Link::RentOut | Link::Return
        )
    }

    /// The names of the steps, in the order of their cycles.
    pub const STEPS: [&'static str; 9] = [
        "create",
        "add-items",
        "book",
        "rent-out",
        "return",
        "check-out",
        "check-in",
        "start-service",
        "complete-service",
    ];

    /// The name of the step in a cycle, for the figures of each step.
    pub fn step(self) -> Option<&'static str> {
        Some(match self {
            Link::Alone => return None,
            Link::KeepLineItem => "check-out",
            Link::CheckInLineItem => "check-in",
            Link::KeepService => "start-service",
            Link::CompleteService => "complete-service",
            Link::KeepOrder => "create",
            Link::AddItems => "add-items",
            Link::BookOrder => "book",
            Link::RentOut => "rent-out",
            Link::Return => "return",
        })
    }
}

/// The periods of the orders an order cycle books: whole days, `from` the first day
/// at 00:00 to the next day at 23:59, each one `apart` days after the one before.
///
/// order-cycle books three days apart, so that no two periods share a moment.
/// Connection `w` gives its `j`-th order created (counting only creates that answered a
/// number) period `first + j`: its periods never overlap (its fixed asset is its own;
/// the asset stock item is shared but has a million units). `first` is the number of
/// orders the company had when the run started, so a later run starts past every
/// period an earlier one booked (each connection booked at most as many periods as
/// orders were created), whatever the connection count.
///
/// order-full-cycle books the same two days (`apart` 0) every time: a connection books
/// its next order only after it returned the last one, and a returned line holds its
/// item only until the moment it came back, before the period starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Periods {
    /// Day 0: the day after the run started (UTC).
    pub start: NaiveDate,
    /// The first period a connection books.
    pub first: u64,
    /// Days from one period to the next.
    pub apart: u64,
}

impl Periods {
    /// `from` and `to` (mm/dd/yyyy) of the connection's `made`-th order (from 0).
    pub fn nth(self, made: u64) -> (String, String) {
        let k = self.first + made;
        let from = self.start + chrono::Days::new(self.apart * k);
        let to = from + chrono::Days::new(1);
        (
            from.format("%m/%d/%Y").to_string(),
            to.format("%m/%d/%Y").to_string(),
        )
    }

    /// The create's form with the period of the connection's `made`-th order.
    pub fn create_form(self, form: &[u8], made: u64) -> Bytes {
        let (from, to) = self.nth(made);
        let mut body = String::from_utf8_lossy(form).into_owned();
        if !body.is_empty() {
            body.push('&');
        }
        body.push_str(&encode(&[
            ("expected_checkout_date", from),
            ("due_date", to),
        ]));
        Bytes::from(body)
    }

    /// The path and form that book order `number`, the connection's `made`-th, for its
    /// period.
    pub fn booking(self, number: i64, made: u64) -> (String, Bytes) {
        let (from, to) = self.nth(made);
        (
            format!("/baskets/{number}/reservation.api"),
            Bytes::from(encode(&[("from", from), ("to", to)])),
        )
    }
}

/// The order a connection is taking through a cycle.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OpenOrder {
    /// The `basket.sequence_num` its create answered.
    pub number: i64,
    /// Which of the connection's orders it is (from 0), for its period.
    pub made: u64,
    /// The `basket.balance_due` its rent-out answered, paid at its return.
    pub balance: Option<String>,
}

impl OpenOrder {
    /// The path and form of the step `link` (one `on_order`) on this order, from the
    /// call's `form`.
    pub fn request(&self, link: Link, form: Option<&[u8]>, periods: Periods) -> (String, Bytes) {
        let n = self.number;
        let mut body = String::from_utf8_lossy(form.unwrap_or_default()).into_owned();
        let path = match link {
            Link::BookOrder => return periods.booking(n, self.made),
            Link::AddItems => format!("/baskets/{n}/update_basket_from_show.api"),
            Link::RentOut => format!("/baskets/{n}/checkout.api"),
            Link::Return => {
                if let Some(b) = self
                    .balance
                    .as_deref()
                    .filter(|b| b.parse::<f64>().is_ok_and(|b| b > 0.0))
                {
                    if !body.is_empty() {
                        body.push('&');
                    }
                    body.push_str(&encode(&[("basket[cash_paid]", b)]));
                }
                format!("/baskets/{n}/checkin.api")
            }
            other => unreachable!("{other:?} is not a step on an order"),
        };
        (path, Bytes::from(body))
    }
}

/// A call before its path is made a URI.
struct Draft {
    method: Option<Method>,
    path: String,
    form: Option<String>,
    link: Link,
}

impl Draft {
    fn get(path: String) -> Draft {
        Draft {
            method: None,
            path,
            form: None,
            link: Link::Alone,
        }
    }

    fn post(path: String, pairs: &[(&str, &str)]) -> Draft {
        Draft {
            method: None,
            path,
            form: Some(encode(pairs)),
            link: Link::Alone,
        }
    }
}

impl Plan {
    pub fn pick(&self, g: u64) -> (&Method, &Call) {
        let n = self.kinds.len() as u64;
        let kind = &self.kinds[(g % n) as usize];
        let call = &kind.calls[((g / n) % kind.calls.len() as u64) as usize];
        (call.method.as_ref().unwrap_or(&kind.method), call)
    }

    /// `name=count` of each kind, e.g. `location-details=100 location-list=40`.
    pub fn describe(&self) -> String {
        self.kinds
            .iter()
            .map(|k| format!("{}={}", k.mix.name(), k.calls.len()))
            .collect::<Vec<_>>()
            .join(" ")
    }

    pub fn targets(&self) -> serde_json::Map<String, Value> {
        self.kinds
            .iter()
            .map(|k| (k.mix.name(), Value::from(k.calls.len())))
            .collect()
    }

    /// Reads list pages through `conn` to find ids and page counts for `mix`.
    /// `id_pages` caps how many list pages are read to collect ids.
    /// `connections`: the workers of the run (the check-out cycles and the stock mixes
    /// give each its item).
    pub async fn discover(
        conn: &mut Conn,
        mix: Mix,
        id_pages: u64,
        connections: usize,
    ) -> Result<Plan> {
        let mut kinds = Vec::new();
        let mut periods = None;
        for part in mix.parts() {
            let method = match part {
                Mix::AssetCheckoutCycle => Method::PUT,
                Mix::AssetServiceCycle => Method::POST,
                Mix::OrderCycle | Mix::OrderFullCycle => Method::POST,
                _ if part.stock().is_some() => Method::POST,
                _ => Method::GET,
            };
            let drafts = match part.stock() {
                Some((movement, contended)) => {
                    stock_drafts(conn, movement, contended, connections).await?
                }
                None if part == Mix::AssetServiceCycle => service_cycle(conn, connections).await?,
                None if part == Mix::OrderCycle || part == Mix::OrderFullCycle => {
                    let (drafts, found) = order_cycle(conn, part, connections).await?;
                    periods = Some(found);
                    drafts
                }
                None => paths(conn, part, id_pages, connections)
                    .await?
                    .into_iter()
                    .map(Draft::get)
                    .collect(),
            };
            let calls = drafts
                .into_iter()
                .map(|d| {
                    Ok(Call {
                        method: d.method,
                        uri: conn.target().uri(&d.path)?,
                        form: d.form.map(Bytes::from),
                        link: d.link,
                    })
                })
                .collect::<Result<Vec<_>>>()?;
            kinds.push(Kind {
                mix: part,
                method,
                calls,
            });
        }
        Ok(Plan {
            kinds,
            periods,
            settles: mix == Mix::OrderFullCycle,
        })
    }

    #[cfg(test)]
    fn from_paths(kinds: &[(Mix, &[&str])]) -> Plan {
        Plan {
            kinds: kinds
                .iter()
                .map(|(mix, paths)| Kind {
                    mix: *mix,
                    method: Method::GET,
                    calls: paths
                        .iter()
                        .map(|p| Call {
                            method: None,
                            uri: p.parse().unwrap(),
                            form: None,
                            link: Link::Alone,
                        })
                        .collect(),
                })
                .collect(),
            periods: None,
            settles: false,
        }
    }
}

/// The paths of a mix that only reads (and of asset-checkout-cycle).
async fn paths(
    conn: &mut Conn,
    part: Mix,
    id_pages: u64,
    connections: usize,
) -> Result<Vec<String>> {
    Ok(match part {
        Mix::Healthz => vec!["/healthz".to_owned()],
        Mix::LocationDetails => {
            let ids = collect_ids(conn, Listing::LOCATIONS, id_pages).await?;
            ids.iter()
                .map(|id| format!("/locations/{id}.api"))
                .collect()
        }
        Mix::VendorDetails => {
            let ids = collect_ids(conn, Listing::VENDORS, id_pages).await?;
            ids.iter().map(|id| format!("/vendors/{id}.api")).collect()
        }
        Mix::MemberDetails => {
            let ids = collect_ids(conn, Listing::MEMBERS, id_pages).await?;
            ids.iter().map(|id| format!("/members/{id}.api")).collect()
        }
        Mix::MemberList => page_uris(conn, Listing::MEMBERS).await?,
        Mix::MemberListActive => page_uris(conn, Listing::ACTIVE_MEMBERS).await?,
        Mix::CustomerList => page_uris(conn, Listing::CUSTOMERS).await?,
        Mix::CustomerDetails => {
            let ids = collect_ids(conn, Listing::CUSTOMERS, id_pages).await?;
            ids.iter()
                .map(|id| format!("/customers/{id}.api"))
                .collect()
        }
        Mix::CustomerListFirst => vec![Listing::CUSTOMERS.page(1)],
        Mix::CustomerListEnd => last_pages(conn, Listing::CUSTOMERS).await?,
        Mix::LocationListFirst => vec![Listing::LOCATIONS.page(1)],
        Mix::LocationListEnd => last_pages(conn, Listing::LOCATIONS).await?,
        Mix::MemberListFirst => vec![Listing::MEMBERS.page(1)],
        Mix::MemberListEnd => last_pages(conn, Listing::MEMBERS).await?,
        Mix::CustomerListMiddle => {
            let pages = page_count(conn, Listing::CUSTOMERS).await?;
            let from = (pages / 2).saturating_sub(4).max(1);
            (from..=(from + 9).min(pages))
                .map(|n| Listing::CUSTOMERS.page(n))
                .collect()
        }
        Mix::CustomerListNonTaxed => page_uris(conn, Listing::NON_TAXED_CUSTOMERS).await?,
        Mix::CustomerListEmail => {
            let body = Listing::CUSTOMERS.fetch(conn, 1).await?;
            let emails: Vec<String> = body["customers"]
                .as_array()
                .map(|a| {
                    a.iter()
                        .filter_map(|c| c["email"].as_str().map(str::to_owned))
                        .collect()
                })
                .unwrap_or_default();
            if emails.is_empty() {
                bail!("no customer with an e-mail on the first page; seed customers first");
            }
            emails
                .iter()
                .map(|e| {
                    format!(
                        "/customers.api?filter=email&filter_val={}",
                        e.replace('@', "%40").replace('+', "%2B")
                    )
                })
                .collect()
        }
        Mix::LocationList => page_uris(conn, Listing::LOCATIONS).await?,
        Mix::GroupList => page_uris(conn, Listing::GROUPS).await?,
        Mix::VendorList => page_uris(conn, Listing::VENDORS).await?,
        Mix::AssetDetails => asset_numbers(conn, id_pages)
            .await?
            .iter()
            .map(|n| format!("/assets/{n}.api"))
            .collect(),
        Mix::AssetListFirst => vec![Listing::ASSETS.page(1)],
        Mix::AssetListEnd => last_pages(conn, Listing::ASSETS).await?,
        Mix::AssetFilterFirst => vec![Listing::AVAILABLE_ASSETS.page(1)],
        Mix::AssetFilterEnd => last_pages(conn, Listing::AVAILABLE_ASSETS).await?,
        Mix::AssetSearchFirst => vec![Listing::ASSET_SEARCH.page(1)],
        Mix::AssetSearchEnd => last_pages(conn, Listing::ASSET_SEARCH).await?,
        Mix::AssetSearchFew => vec![Listing::FEW_SEARCHED.page(1)],
        Mix::AssetCheckoutCycle => checkout_cycle(conn, connections).await?,
        Mix::OrderList => page_uris(conn, Listing::ORDERS).await?,
        Mix::OrderListFirst => vec![Listing::ORDERS.page(1)],
        Mix::OrderListEnd => last_pages(conn, Listing::ORDERS).await?,
        Mix::PaymentOptionList => page_uris(conn, Listing::PAYMENT_OPTIONS).await?,
        Mix::CouponList => page_uris(conn, Listing::COUPONS).await?,
        Mix::OrderDetails => order_numbers(conn, id_pages)
            .await?
            .iter()
            .map(|n| format!("/baskets/{n}.api"))
            .collect(),
        _ => unreachable!(
            "{}: catalog is not a part; stock mixes and the order cycle are drafted",
            part.name()
        ),
    })
}

/// A paged list endpoint.
#[derive(Debug, Clone, Copy)]
struct Listing {
    /// Name used in messages and the preferred JSON array key.
    what: &'static str,
    path: &'static str,
    /// Extra query parameters after `page=N`.
    extra: &'static str,
}

impl Listing {
    const LOCATIONS: Listing = Listing {
        what: "locations",
        path: "/locations/get_line_item_locations.api",
        extra: "&status=all",
    };
    const GROUPS: Listing = Listing {
        what: "groups",
        path: "/assets/classification_view.api",
        extra: "",
    };
    const VENDORS: Listing = Listing {
        what: "vendors",
        path: "/assets/vendors.api",
        extra: "",
    };

    const CUSTOMERS: Listing = Listing {
        what: "customers",
        path: "/customers.api",
        extra: "",
    };
    const NON_TAXED_CUSTOMERS: Listing = Listing {
        what: "customers",
        path: "/customers.api",
        extra: "&filter=non_taxed",
    };
    const ASSETS: Listing = Listing {
        what: "assets",
        path: "/assets.api",
        extra: "",
    };
    const INVENTORY: Listing = Listing {
        what: "assets",
        path: "/inventory.api",
        extra: "",
    };
    const STOCK_ASSETS: Listing = Listing {
        what: "assets",
        path: "/stock_assets.api",
        extra: "",
    };
    const AVAILABLE_ASSETS: Listing = Listing {
        what: "assets",
        path: "/assets/filter.api",
        extra: "&status=available",
    };
    const ASSET_SEARCH: Listing = Listing {
        what: "assets",
        path: "/search.api",
        extra: "&search=bench",
    };
    const FEW_SEARCHED: Listing = Listing {
        what: "assets",
        path: "/search.api",
        extra: "&search=gizmo",
    };
    const MEMBERS: Listing = Listing {
        what: "members",
        path: "/members.api",
        extra: "",
    };
    const ACTIVE_MEMBERS: Listing = Listing {
        what: "members",
        path: "/members.api",
        extra: "&filter=status&filter_val=active",
    };
    const ORDERS: Listing = Listing {
        what: "baskets",
        path: "/baskets.api",
        extra: "",
    };
    const PAYMENT_OPTIONS: Listing = Listing {
        what: "payment_options",
        path: "/payment_options.api",
        extra: "",
    };
    const COUPONS: Listing = Listing {
        what: "coupons",
        path: "/pricing_coupons.api",
        extra: "",
    };
    /// The fixed assets `seed --orders N` makes to rent out (named `Bench Rentable ...`).
    const RENTABLE_ASSETS: Listing = Listing {
        what: "assets",
        path: "/search.api",
        extra: "&search=rentable",
    };
    /// The asset stock item `seed --orders N` makes to rent out.
    const RENTABLE_STOCK: Listing = Listing {
        what: "assets",
        path: "/search.api",
        extra: "&search=rentable&facet=StockAsset",
    };

    fn page(self, n: u64) -> String {
        format!("{}?page={n}{}", self.path, self.extra)
    }

    async fn fetch(self, conn: &mut Conn, n: u64) -> Result<Value> {
        get_json(conn, &self.page(n)).await
    }
}

/// GET `path`, which must answer 2xx with JSON.
async fn get_json(conn: &mut Conn, path: &str) -> Result<Value> {
    let req = conn.target().get(conn.target().uri(path)?);
    let reply = conn
        .call(req)
        .await
        .with_context(|| format!("GET {path}"))?;
    if !reply.is_success() {
        bail!("GET {path} answered {}: {}", reply.status, reply.snippet());
    }
    reply.json().with_context(|| format!("GET {path}"))
}

/// The last ten pages of a list.
async fn last_pages(conn: &mut Conn, listing: Listing) -> Result<Vec<String>> {
    let pages = page_count(conn, listing).await?;
    Ok((pages.saturating_sub(9).max(1)..=pages)
        .map(|n| listing.page(n))
        .collect())
}

/// The records (`assets`) on the first `max_pages` pages of a list of items.
async fn items(conn: &mut Conn, listing: Listing, max_pages: u64) -> Result<Vec<Value>> {
    let mut found = Vec::new();
    for page in 1..=max_pages.max(1) {
        let mut body = listing.fetch(conn, page).await?;
        let last = total_pages(&body).unwrap_or(1);
        let records = match body["assets"].take() {
            Value::Array(a) => a,
            _ => Vec::new(),
        };
        let empty = records.is_empty();
        found.extend(records);
        if empty || page >= last {
            break;
        }
    }
    Ok(found)
}

/// The numbers (`sequence_num`) of the assets on the first `max_pages` pages.
async fn asset_numbers(conn: &mut Conn, max_pages: u64) -> Result<Vec<i64>> {
    let numbers: Vec<i64> = items(conn, Listing::ASSETS, max_pages)
        .await?
        .iter()
        .filter_map(|x| x["sequence_num"].as_i64())
        .collect();
    if numbers.is_empty() {
        bail!("no assets found via /assets.api; run `rentrack-bench seed --assets N` first");
    }
    Ok(numbers)
}

/// For worker `w` of `connections`: entry `w` checks asset `w` out to a member, entry
/// `w + connections` checks it in (a worker's requests are `w`, `w + connections`,
/// `w + 2 connections`, ...: it alternates the two). Every asset is checked in first,
/// in case an earlier run left it out.
async fn checkout_cycle(conn: &mut Conn, connections: usize) -> Result<Vec<String>> {
    let numbers = asset_numbers(conn, (connections as u64).div_ceil(25)).await?;
    if numbers.len() < connections {
        bail!("the check-out cycle needs one asset per connection: seed at least {connections}");
    }
    let member = active_member(conn).await?;
    let numbers = &numbers[..connections];
    for n in numbers {
        let uri = conn.target().uri(&format!("/assets/{n}/checkin.api"))?;
        let req = conn.target().put(uri);
        conn.call(req).await?;
    }
    let mut uris: Vec<String> = numbers
        .iter()
        .map(|n| format!("/assets/{n}/checkout.api?user_id={member}"))
        .collect();
    uris.extend(numbers.iter().map(|n| format!("/assets/{n}/checkin.api")));
    Ok(uris)
}

/// For worker `w` of `connections`: entry `w` starts a service of asset `w`, entry
/// `w + connections` completes it (the worker puts in the id the start answered).
/// The assets are the ones after asset-checkout-cycle's when there are enough (a
/// cycle's requests still in flight when its window closes land after the next mix
/// began); each is checked in and its open service completed first, in case an
/// earlier run left it out or in service.
async fn service_cycle(conn: &mut Conn, connections: usize) -> Result<Vec<Draft>> {
    let numbers = asset_numbers(conn, (2 * connections as u64).div_ceil(25)).await?;
    let numbers = match numbers.len() {
        n if n >= 2 * connections => &numbers[connections..2 * connections],
        n if n >= connections => &numbers[..connections],
        _ => bail!("the service cycle needs one asset per connection: seed at least {connections}"),
    };
    for n in numbers {
        let uri = conn.target().uri(&format!("/assets/{n}/checkin.api"))?;
        let req = conn.target().put(uri);
        conn.call(req).await?;
        let asset = get_json(conn, &format!("/assets/{n}.api?show_services_details=true")).await?;
        let open = asset["asset"]["services"]
            .as_array()
            .and_then(|s| s.iter().find(|s| s["status"] == "in_service"))
            .and_then(|s| s["id"].as_i64());
        if let Some(id) = open {
            let uri = conn
                .target()
                .uri(&format!("/assets/{n}/services/{id}/complete.api"))?;
            let req = conn.target().put(uri);
            conn.call(req).await?;
        }
    }
    let starts = numbers.iter().map(|n| {
        let mut draft = Draft::post(
            format!("/assets/{n}/services.api"),
            &[("service[service_type]", "Bench")],
        );
        draft.link = Link::KeepService;
        draft
    });
    let completes = numbers.iter().map(|n| Draft {
        method: Some(Method::PUT),
        path: format!("/assets/{n}/services/0/complete.api"),
        form: None,
        link: Link::CompleteService,
    });
    Ok(starts.chain(completes).collect())
}

/// The first active member on the first page of members.
async fn active_member(conn: &mut Conn) -> Result<i64> {
    let members = Listing::MEMBERS.fetch(conn, 1).await?;
    members["members"]
        .as_array()
        .and_then(|a| {
            a.iter()
                .find(|m| m["status"] == "active")
                .and_then(|m| m["id"].as_i64())
        })
        .context("no active member to check items out to")
}

/// The requests of a stock mix. Connection `w` of `connections` sends entries `w`,
/// `w + connections`, `w + 2 connections`, ... (see `Plan::pick`): with one entry per
/// connection it always sends entry `w`; with two per connection it alternates entry
/// `w` and entry `w + connections` (a transfer there and back, a check-out and the
/// check-in of its line item). Connection `w` works on the `w`-th item of the list, or
/// on the first when `contended`. Each item moves units between its own location and
/// that location's parent (`seed --stock N` makes both and stocks each item at both).
async fn stock_drafts(
    conn: &mut Conn,
    movement: Movement,
    contended: bool,
    connections: usize,
) -> Result<Vec<Draft>> {
    let listing = match movement {
        Movement::CheckoutCycle => Listing::STOCK_ASSETS,
        _ => Listing::INVENTORY,
    };
    let base = listing.path.trim_end_matches(".api");
    let wanted = if contended { 1 } else { connections };
    let found = items(conn, listing, (wanted as u64).div_ceil(25)).await?;
    let mut parents = BTreeMap::new();
    let mut used = Vec::with_capacity(wanted);
    for item in found.iter().take(wanted) {
        let (Some(number), Some(here)) =
            (item["sequence_num"].as_i64(), item["location_id"].as_i64())
        else {
            bail!("{base} item without a number or a location: {item}");
        };
        let there = match parents.get(&here) {
            Some(&there) => there,
            None => {
                let body = get_json(conn, &format!("/locations/{here}.api")).await?;
                let there = body["location"]["parent_id"].as_i64().with_context(|| {
                    format!(
                        "location {here} of {base} item {number} has no parent location to \
                         move stock to; seed with `rentrack-bench seed --stock N`"
                    )
                })?;
                parents.insert(here, there);
                there
            }
        };
        used.push(StockItem {
            number,
            here: here.to_string(),
            there: there.to_string(),
        });
    }
    if used.len() < wanted {
        bail!(
            "{} needs {wanted} items in {base}, found {}: seed with `rentrack-bench seed --stock N`",
            if contended {
                "a contended stock mix"
            } else {
                "a stock mix (one item per connection)"
            },
            used.len()
        );
    }
    let member = match movement {
        Movement::CheckoutCycle => Some(active_member(conn).await?),
        _ => None,
    };
    Ok(stock_entries(
        movement,
        base,
        &used,
        contended,
        connections,
        member,
    ))
}

/// A stock item a mix works on: its number, its own location and the other one.
struct StockItem {
    number: i64,
    here: String,
    there: String,
}

/// The entries of a stock mix (see `stock_drafts`) on the items `used` of `base`
/// (`/inventory` or `/stock_assets`); `member` takes the check-outs.
fn stock_entries(
    movement: Movement,
    base: &str,
    used: &[StockItem],
    contended: bool,
    connections: usize,
    member: Option<i64>,
) -> Vec<Draft> {
    let item = |w: usize| &used[if contended { 0 } else { w % connections }];
    let order = |w: usize, order_type: &str| {
        let StockItem { number, here, .. } = item(w);
        let mut pairs = vec![
            ("order_type", order_type),
            ("line_item[quantity]", "1"),
            ("line_item[location_id]", here.as_str()),
        ];
        if order_type == "Add Stock" {
            pairs.push(("line_item[price]", "1.00"));
        }
        Draft::post(format!("{base}/{number}/order.api"), &pairs)
    };
    match movement {
        Movement::Add => (0..connections).map(|w| order(w, "Add Stock")).collect(),
        Movement::Sale => (0..connections).map(|w| order(w, "New Sale")).collect(),
        Movement::Transfer => (0..2 * connections)
            .map(|i| {
                let StockItem {
                    number,
                    here,
                    there,
                } = item(i);
                let (from, to) = if i < connections {
                    (here, there)
                } else {
                    (there, here)
                };
                Draft::post(
                    format!("{base}/{number}/transfer_stock.api"),
                    &[
                        ("transfer_stock[quantity]", "1"),
                        ("from_location", from.as_str()),
                        ("to_location", to.as_str()),
                    ],
                )
            })
            .collect(),
        Movement::CheckoutCycle => {
            let member = member
                .expect("a check-out cycle has its member")
                .to_string();
            (0..2 * connections)
                .map(|i| {
                    if i < connections {
                        let StockItem { number, here, .. } = item(i);
                        let mut draft = Draft::post(
                            format!("{base}/{number}/order.api"),
                            &[
                                ("order_type", "checkout"),
                                ("user[id]", &member),
                                ("line_item[quantity]", "1"),
                                ("line_item[location_id]", here.as_str()),
                            ],
                        );
                        draft.link = Link::KeepLineItem;
                        draft
                    } else {
                        Draft {
                            method: None,
                            path: format!("{base}/{}/checkin.api", item(i).number),
                            form: None,
                            link: Link::CheckInLineItem,
                        }
                    }
                })
                .collect()
        }
    }
}

/// The numbers (`sequence_num`) of the orders on the first `max_pages` pages.
async fn order_numbers(conn: &mut Conn, max_pages: u64) -> Result<Vec<i64>> {
    let mut numbers = Vec::new();
    for page in 1..=max_pages.max(1) {
        let body = Listing::ORDERS.fetch(conn, page).await?;
        let found = sequence_nums(&body, "baskets");
        let empty = found.is_empty();
        numbers.extend(found);
        if empty || page >= total_pages(&body).unwrap_or(1) {
            break;
        }
    }
    if numbers.is_empty() {
        bail!("no orders found via /baskets.api; run `rentrack-bench seed --orders N` first");
    }
    Ok(numbers)
}

/// `sequence_num` of each record in the array under `key`.
fn sequence_nums(body: &Value, key: &str) -> Vec<i64> {
    body[key]
        .as_array()
        .map(|a| a.iter().filter_map(|x| as_id(&x["sequence_num"])).collect())
        .unwrap_or_default()
}

/// How many orders the company has, exactly: the records on the last page after
/// 25 on each page before it. Also the customer of the first order.
async fn order_count(conn: &mut Conn) -> Result<(u64, Option<i64>)> {
    let first = Listing::ORDERS.fetch(conn, 1).await?;
    let customer = first["baskets"]
        .as_array()
        .and_then(|a| a.iter().find_map(|o| as_id(&o["customer_id"])));
    let pages = total_pages(&first).unwrap_or(1).max(1);
    let last = if pages == 1 {
        first
    } else {
        Listing::ORDERS.fetch(conn, pages).await?
    };
    let on_last = last["baskets"].as_array().map_or(0, Vec::len) as u64;
    Ok(((pages - 1) * 25 + on_last, customer))
}

/// The rentable records (available, with a daily rate) of a search for `seed --orders`'s
/// items, from its first `max_pages` pages.
async fn rentable(conn: &mut Conn, listing: Listing, max_pages: u64) -> Result<Vec<i64>> {
    Ok(items(conn, listing, max_pages)
        .await?
        .iter()
        .filter(|x| x["state"] != "retired" && x["state"] != "checked_out")
        .filter(|x| !x["rental_prices"]["daily"].is_null())
        .filter_map(|x| x["sequence_num"].as_i64())
        .collect())
}

/// The order cycles: the customer of the first order, rentable fixed assets (one per
/// connection for order-cycle, [`FULL_CYCLE_ASSETS`] for order-full-cycle) and the
/// rentable asset stock item (all from `seed --orders N`), and the periods to book from
/// the number of orders there are now (see [`Periods`]). order-cycle takes the first
/// assets of the search, order-full-cycle the last, so that the two work on different
/// assets when there are enough for both.
async fn order_cycle(
    conn: &mut Conn,
    mix: Mix,
    connections: usize,
) -> Result<(Vec<Draft>, Periods)> {
    let hint = "seed with `rentrack-bench seed --orders N`";
    let full = mix == Mix::OrderFullCycle;
    let (count, customer) = order_count(conn).await?;
    let customer = customer.with_context(|| format!("no order with a customer: {hint}"))?;
    let (per_connection, pages) = if full {
        (FULL_CYCLE_ASSETS, u64::MAX)
    } else {
        (1, (connections as u64).div_ceil(25) + 1)
    };
    let wanted = per_connection * connections;
    let assets = rentable(conn, Listing::RENTABLE_ASSETS, pages).await?;
    if assets.len() < wanted {
        bail!(
            "{} needs {per_connection} rentable fixed asset(s) (`Bench Rentable ...`, with a \
             daily rate) per connection, {wanted}, found {}: {hint} --order-assets {wanted}",
            mix.name(),
            assets.len()
        );
    }
    let stock = *rentable(conn, Listing::RENTABLE_STOCK, 1)
        .await?
        .first()
        .with_context(|| {
            format!("no rentable asset stock item (`Bench Rentable Stock ...`): {hint}")
        })?;
    let today = chrono::Utc::now().date_naive();
    let periods = Periods {
        start: today + chrono::Days::new(1),
        first: count,
        apart: if full { 0 } else { 3 },
    };
    let drafts = if full {
        full_cycle_entries(customer, &assets[assets.len() - wanted..], stock)
    } else {
        order_entries(customer, &assets[..connections], stock)
    };
    Ok((drafts, periods))
}

/// Units of the asset stock item on each order of the cycle and of the seed.
pub const ORDER_STOCK_UNITS: &str = "2";

/// Fixed assets of its own each connection of order-full-cycle puts on an order, with
/// [`FULL_CYCLE_STOCK_UNITS`] of the shared asset stock item: 5 items.
pub const FULL_CYCLE_ASSETS: usize = 4;

/// Units of the asset stock item on each order of order-full-cycle.
pub const FULL_CYCLE_STOCK_UNITS: &str = "1";

/// The entries of the order cycle: connection `w` (of `assets.len()`) sends entry `w`,
/// a create of an order of `customer` with its own fixed asset `assets[w]` and
/// [`ORDER_STOCK_UNITS`] of `stock`, then entry `w + connections`, the booking of that
/// order, in turn (the worker adds the period and the order's number).
fn order_entries(customer: i64, assets: &[i64], stock: i64) -> Vec<Draft> {
    let customer = customer.to_string();
    let quantity = format!("stock_assets_values[{stock}][quantity]");
    let creates = assets.iter().map(|asset| Draft {
        method: None,
        path: "/baskets.api".to_owned(),
        form: Some(encode(&[
            ("basket[customer_id]", customer.as_str()),
            ("asset_ids", &format!("{asset},{stock}")),
            (&quantity, ORDER_STOCK_UNITS),
        ])),
        link: Link::KeepOrder,
    });
    let bookings = assets.iter().map(|_| Draft {
        method: Some(Method::PATCH),
        path: "/baskets.api".to_owned(),
        form: None,
        link: Link::BookOrder,
    });
    creates.chain(bookings).collect()
}

/// The entries of order-full-cycle, five per connection: connection `w` (of
/// `assets.len() / FULL_CYCLE_ASSETS`) sends entries `w`, `w + c`, ..., `w + 4c` in
/// turn: a create of an order of `customer` (the worker adds the period), the
/// connection's own fixed assets `assets[4w..4w + 4]` and [`FULL_CYCLE_STOCK_UNITS`] of
/// `stock` put on it, its booking, its rent-out now and its return now (the worker adds
/// the order's number, the period and the payment).
fn full_cycle_entries(customer: i64, assets: &[i64], stock: i64) -> Vec<Draft> {
    let connections = assets.len() / FULL_CYCLE_ASSETS;
    let on_order = |link: Link, pairs: &[(&str, &str)]| Draft {
        method: Some(Method::PATCH),
        path: "/baskets.api".to_owned(),
        form: Some(encode(pairs)),
        link,
    };
    let customer = customer.to_string();
    let quantity = format!("stock_assets_values[{stock}][quantity]");
    let mut entries = Vec::with_capacity(5 * connections);
    entries.extend((0..connections).map(|_| Draft {
        method: None,
        path: "/baskets.api".to_owned(),
        form: Some(encode(&[("basket[customer_id]", customer.as_str())])),
        link: Link::KeepOrder,
    }));
    entries.extend(assets.chunks(FULL_CYCLE_ASSETS).map(|own| {
        let mut ids: Vec<String> = own.iter().map(i64::to_string).collect();
        ids.push(stock.to_string());
        on_order(
            Link::AddItems,
            &[
                ("asset_ids", &ids.join(",")),
                (&quantity, FULL_CYCLE_STOCK_UNITS),
            ],
        )
    }));
    entries.extend((0..connections).map(|_| Draft {
        form: None,
        ..on_order(Link::BookOrder, &[])
    }));
    entries.extend(
        (0..connections).map(|_| on_order(Link::RentOut, &[("use_current_datetime", "true")])),
    );
    entries.extend((0..connections).map(|_| {
        on_order(
            Link::Return,
            &[
                ("use_current_datetime", "true"),
                ("basket[payment_method_name]", "Cash"),
            ],
        )
    }));
    entries
}

/// Page URIs 1..=total_pages (just page 1 when the list is empty).
async fn page_uris(conn: &mut Conn, listing: Listing) -> Result<Vec<String>> {
    let pages = page_count(conn, listing).await?;
    Ok((1..=pages).map(|n| listing.page(n)).collect())
}

/// The list's `total_pages`, at least 1.
async fn page_count(conn: &mut Conn, listing: Listing) -> Result<u64> {
    let first = listing.fetch(conn, 1).await?;
    let pages = match total_pages(&first) {
        Some(n) => n.max(1),
        None => {
            eprintln!(
                "warning: {} has no total_pages; using page 1 only",
                listing.page(1)
            );
            1
        }
    };
    if list_ids(&first, listing.what).is_empty() {
        eprintln!(
            "warning: {} list is empty; seed first for meaningful numbers",
            listing.what
        );
    }
    Ok(pages)
}

/// Ids from list pages 1..=min(total_pages, max_pages); errors when none.
async fn collect_ids(conn: &mut Conn, listing: Listing, max_pages: u64) -> Result<Vec<i64>> {
    let mut ids = Vec::new();
    let mut page = 1;
    loop {
        let body = listing.fetch(conn, page).await?;
        let found = list_ids(&body, listing.what);
        let last = total_pages(&body).unwrap_or(1);
        let empty = found.is_empty();
        ids.extend(found);
        if empty || page >= last || page >= max_pages.max(1) {
            break;
        }
        page += 1;
    }
    ids.sort_unstable();
    ids.dedup();
    if ids.is_empty() {
        bail!(
            "no {} found via {}; run `rentrack-bench seed` first",
            listing.what,
            listing.page(1)
        );
    }
    Ok(ids)
}

fn as_u64(v: &Value) -> Option<u64> {
    v.as_u64().or_else(|| v.as_str()?.trim().parse().ok())
}

fn as_id(v: &Value) -> Option<i64> {
    v.as_i64().or_else(|| v.as_str()?.trim().parse().ok())
}

/// `total_pages` at the top level (number or numeric string).
pub fn total_pages(body: &Value) -> Option<u64> {
    as_u64(body.get("total_pages")?)
}

/// Ids of the records in a list response. Looks for the array under `key`
/// first, then any top-level array; elements may be `{"id": ..}` or wrapped
/// like `{"vendor": {"id": ..}}`.
pub fn list_ids(body: &Value, key: &str) -> Vec<i64> {
    let array = body.get(key).and_then(Value::as_array).or_else(|| {
        body.as_object()?
            .values()
            .filter_map(Value::as_array)
            .find(|a| a.iter().any(|e| element_id(e).is_some()))
    });
    array
        .map(|a| a.iter().filter_map(element_id).collect())
        .unwrap_or_default()
}

fn element_id(e: &Value) -> Option<i64> {
    let obj = e.as_object()?;
    if let Some(id) = obj.get("id") {
        return as_id(id);
    }
    match obj.values().collect::<Vec<_>>().as_slice() {
        [inner] => as_id(inner.get("id")?),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn mix_names_match_cli() {
        assert_eq!(Mix::LocationDetails.name(), "location-details");
        assert_eq!(Mix::Healthz.name(), "healthz");
        assert_eq!(Mix::from_str("vendor-list", false), Ok(Mix::VendorList));
    }

    #[test]
    fn ids_from_plain_and_wrapped_lists() {
        let body = json!({"locations": [{"id": 3}, {"id": "4"}, {"name": "x"}], "total_pages": 2});
        assert_eq!(list_ids(&body, "locations"), vec![3, 4]);
        assert_eq!(total_pages(&body), Some(2));

        let body =
            json!({"classifications": [{"group": {"id": 9, "name": "G"}}], "total_pages": "1"});
        assert_eq!(list_ids(&body, "groups"), vec![9]);
        assert_eq!(total_pages(&body), Some(1));

        assert!(list_ids(&json!({"vendors": []}), "vendors").is_empty());
        assert_eq!(total_pages(&json!({})), None);
    }

    fn items(n: i64) -> Vec<StockItem> {
        (1..=n)
            .map(|number| StockItem {
                number,
                here: "7".to_owned(),
                there: "6".to_owned(),
            })
            .collect()
    }

    /// What worker `w` of `connections` sends as its first `k` requests.
    fn sent(entries: &[Draft], connections: usize, w: usize, k: usize) -> Vec<String> {
        (0..k)
            .map(|j| {
                let d = &entries[(w + j * connections) % entries.len()];
                format!("{} {}", d.path, d.form.as_deref().unwrap_or("-"))
            })
            .collect()
    }

    #[test]
    fn stock_mixes_give_each_connection_its_item() {
        let used = items(3);
        let add = stock_entries(Movement::Add, "/inventory", &used, false, 3, None);
        assert_eq!(
            sent(&add, 3, 1, 2),
            ["/inventory/2/order.api order_type=Add+Stock&line_item%5Bquantity%5D=1&line_item%5Blocation_id%5D=7&line_item%5Bprice%5D=1.00";
                2]
        );
        let sale = stock_entries(Movement::Sale, "/inventory", &used, true, 3, None);
        assert!(sale.iter().all(|d| {
            d.path == "/inventory/1/order.api"
                && d.form
                    .as_deref()
                    .unwrap()
                    .starts_with("order_type=New+Sale&")
        }));
    }

    #[test]
    fn transfers_go_there_and_back() {
        let used = items(4);
        for contended in [false, true] {
            let t = stock_entries(Movement::Transfer, "/inventory", &used, contended, 4, None);
            let n = if contended { 1 } else { 3 };
            let there = format!(
                "/inventory/{n}/transfer_stock.api transfer_stock%5Bquantity%5D=1&from_location=7&to_location=6"
            );
            let back = format!(
                "/inventory/{n}/transfer_stock.api transfer_stock%5Bquantity%5D=1&from_location=6&to_location=7"
            );
            assert_eq!(sent(&t, 4, 2, 4), [there.as_str(), &back, &there, &back]);
        }
    }

    #[test]
    fn checkout_cycle_alternates_and_links() {
        let used = items(2);
        let c = stock_entries(
            Movement::CheckoutCycle,
            "/stock_assets",
            &used,
            false,
            2,
            Some(9),
        );
        assert_eq!(
            sent(&c, 2, 1, 3),
            [
                "/stock_assets/2/order.api order_type=checkout&user%5Bid%5D=9&line_item%5Bquantity%5D=1&line_item%5Blocation_id%5D=7",
                "/stock_assets/2/checkin.api -",
                "/stock_assets/2/order.api order_type=checkout&user%5Bid%5D=9&line_item%5Bquantity%5D=1&line_item%5Blocation_id%5D=7",
            ]
        );
        assert_eq!(
            c.iter().map(|d| d.link).collect::<Vec<_>>(),
            [
                Link::KeepLineItem,
                Link::KeepLineItem,
                Link::CheckInLineItem,
                Link::CheckInLineItem
            ]
        );
    }

    #[test]
    fn stock_mix_names() {
        assert_eq!(
            Mix::StockCheckoutCycleContended.name(),
            "stock-checkout-cycle-contended"
        );
        assert_eq!(
            Mix::from_str("stock-transfer-contended", false)
                .unwrap()
                .stock(),
            Some((Movement::Transfer, true))
        );
        assert_eq!(Mix::AssetCheckoutCycle.stock(), None);
    }

    #[test]
    fn order_periods_are_days_apart_and_follow_the_count() {
        let periods = Periods {
            start: NaiveDate::from_ymd_opt(2026, 12, 30).unwrap(),
            first: 0,
            apart: 3,
        };
        assert_eq!(
            periods.nth(0),
            ("12/30/2026".to_owned(), "12/31/2026".to_owned())
        );
        assert_eq!(
            periods.nth(1),
            ("01/02/2027".to_owned(), "01/03/2027".to_owned())
        );
        // A later run starts past the orders there are.
        let later = Periods {
            first: 7,
            ..periods
        };
        assert_eq!(later.nth(0), periods.nth(7));
        // No two periods of a connection share a day.
        let days: Vec<String> = (0..50)
            .flat_map(|k| {
                let (from, to) = periods.nth(k);
                [from, to]
            })
            .collect();
        let mut unique = days.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), days.len());
    }

    #[test]
    fn order_cycle_creates_then_books_on_the_connections_asset() {
        let entries = order_entries(5, &[11, 12], 30);
        let create = "/baskets.api basket%5Bcustomer_id%5D=5&asset_ids=12%2C30&stock_assets_values%5B30%5D%5Bquantity%5D=2";
        assert_eq!(sent(&entries, 2, 1, 3), [create, "/baskets.api -", create]);
        assert_eq!(
            entries.iter().map(|d| d.link).collect::<Vec<_>>(),
            [
                Link::KeepOrder,
                Link::KeepOrder,
                Link::BookOrder,
                Link::BookOrder
            ]
        );
        assert_eq!(
            entries.iter().map(|d| d.method.clone()).collect::<Vec<_>>(),
            [None, None, Some(Method::PATCH), Some(Method::PATCH)]
        );
        let periods = Periods {
            start: NaiveDate::from_ymd_opt(2026, 3, 1).unwrap(),
            first: 2,
            apart: 3,
        };
        let form = periods.create_form(entries[1].form.as_deref().unwrap().as_bytes(), 1);
        assert_eq!(
            &form[..],
            format!(
                "{}&expected_checkout_date=03%2F10%2F2026&due_date=03%2F11%2F2026",
                &create[13..]
            )
            .as_bytes()
        );
        let (path, form) = periods.booking(44, 1);
        assert_eq!(path, "/baskets/44/reservation.api");
        assert_eq!(&form[..], b"from=03%2F10%2F2026&to=03%2F11%2F2026");
        assert_eq!(Link::KeepOrder.kept(), Some("basket.sequence_num"));
        assert_eq!(Link::BookOrder.kept(), None);
    }

    #[test]
    fn order_mixes_and_numbers() {
        assert_eq!(Mix::OrderCycle.name(), "order-cycle");
        assert_eq!(Mix::from_str("order-list", false), Ok(Mix::OrderList));
        assert_eq!(
            Mix::from_str("payment-option-list", false),
            Ok(Mix::PaymentOptionList)
        );
        assert_eq!(Mix::from_str("coupon-list", false), Ok(Mix::CouponList));
        assert_eq!(Mix::OrderDetails.stock(), None);
        let body = json!({"baskets": [{"id": 1, "sequence_num": 7}, {"id": 2, "sequence_num": "8"}, {"id": 3}], "total_pages": 1});
        assert_eq!(sequence_nums(&body, "baskets"), vec![7, 8]);
        assert!(sequence_nums(&json!({}), "baskets").is_empty());
    }

    #[test]
    fn full_cycle_periods_are_the_same_two_days() {
        let periods = Periods {
            start: NaiveDate::from_ymd_opt(2026, 2, 28).unwrap(),
            first: 100_000,
            apart: 0,
        };
        let days = ("02/28/2026".to_owned(), "03/01/2026".to_owned());
        assert_eq!(periods.nth(0), days);
        assert_eq!(periods.nth(12_345), days);
        assert_eq!(
            &periods.booking(9, 7).1[..],
            b"from=02%2F28%2F2026&to=03%2F01%2F2026"
        );
        // A create without other fields gets the period alone.
        assert_eq!(
            &periods.create_form(b"", 3)[..],
            b"expected_checkout_date=02%2F28%2F2026&due_date=03%2F01%2F2026"
        );
        // Year's end, and a leap day.
        let turn = Periods {
            start: NaiveDate::from_ymd_opt(2027, 12, 31).unwrap(),
            ..periods
        };
        assert_eq!(turn.nth(5).1, "01/01/2028");
        let leap = Periods {
            start: NaiveDate::from_ymd_opt(2028, 2, 28).unwrap(),
            ..periods
        };
        assert_eq!(leap.nth(0).1, "02/29/2028");
    }

    #[test]
    fn full_cycle_steps_in_turn_on_the_connections_items() {
        // Two connections, four assets each, stock item 30, customer 5.
        let assets = [11, 12, 13, 14, 21, 22, 23, 24];
        let entries = full_cycle_entries(5, &assets, 30);
        assert_eq!(entries.len(), 10);
        let create = "/baskets.api basket%5Bcustomer_id%5D=5";
        let add = "/baskets.api asset_ids=21%2C22%2C23%2C24%2C30&stock_assets_values%5B30%5D%5Bquantity%5D=1";
        let rent = "/baskets.api use_current_datetime=true";
        let ret = "/baskets.api use_current_datetime=true&basket%5Bpayment_method_name%5D=Cash";
        assert_eq!(
            sent(&entries, 2, 1, 6),
            [create, add, "/baskets.api -", rent, ret, create]
        );
        assert!(sent(&entries, 2, 0, 2)[1].contains("asset_ids=11%2C12%2C13%2C14%2C30"));
        let links: Vec<Link> = entries.iter().step_by(2).map(|d| d.link).collect();
        assert_eq!(
            links,
            [
                Link::KeepOrder,
                Link::AddItems,
                Link::BookOrder,
                Link::RentOut,
                Link::Return
            ]
        );
        assert_eq!(entries[0].method, None);
        assert!(entries[2..].iter().all(|d| d.method == Some(Method::PATCH)));
        assert!(entries[2..].iter().all(|d| d.link.on_order()));
        assert!(!Link::KeepOrder.on_order());
        assert_eq!(
            links.iter().map(|l| l.step().unwrap()).collect::<Vec<_>>(),
            Link::STEPS[..5]
        );
        assert_eq!(Link::Alone.step(), None);
        assert_eq!(Mix::OrderFullCycle.name(), "order-full-cycle");
    }

    #[test]
    fn full_cycle_requests_name_the_order_and_pay_its_balance() {
        let periods = Periods {
            start: NaiveDate::from_ymd_opt(2026, 3, 1).unwrap(),
            first: 0,
            apart: 0,
        };
        let mut open = OpenOrder {
            number: 77,
            made: 4,
            balance: None,
        };
        let add = open.request(Link::AddItems, Some(b"asset_ids=1"), periods);
        assert_eq!(add.0, "/baskets/77/update_basket_from_show.api");
        assert_eq!(&add.1[..], b"asset_ids=1");
        let book = open.request(Link::BookOrder, None, periods);
        assert_eq!(book, periods.booking(77, 4));
        assert_eq!(book.0, "/baskets/77/reservation.api");
        let rent = open.request(Link::RentOut, Some(b"use_current_datetime=true"), periods);
        assert_eq!(rent.0, "/baskets/77/checkout.api");
        let form = b"use_current_datetime=true&basket%5Bpayment_method_name%5D=Cash";
        // Nothing known owed (or nothing owed): no payment.
        for balance in [None, Some("0.00"), Some("-1.00"), Some("n/a")] {
            open.balance = balance.map(str::to_owned);
            let ret = open.request(Link::Return, Some(form), periods);
            assert_eq!(ret.0, "/baskets/77/checkin.api");
            assert_eq!(&ret.1[..], form);
        }
        open.balance = Some("123.00".to_owned());
        let ret = open.request(Link::Return, Some(form), periods);
        assert_eq!(
            String::from_utf8_lossy(&ret.1),
            "use_current_datetime=true&basket%5Bpayment_method_name%5D=Cash&basket%5Bcash_paid%5D=123.00"
        );
        assert_eq!(Link::RentOut.kept(), Some("basket.balance_due"));
        assert_eq!(Link::Return.kept(), Some("basket.basket_state completed"));
    }

    #[test]
    fn a_call_can_have_its_own_method() {
        let mut plan = Plan::from_paths(&[(Mix::OrderCycle, &["/baskets.api", "/baskets.api"])]);
        plan.kinds[0].method = Method::POST;
        plan.kinds[0].calls[1].method = Some(Method::PATCH);
        assert_eq!(*plan.pick(0).0, Method::POST);
        assert_eq!(*plan.pick(1).0, Method::PATCH);
    }

    #[test]
    fn single_kind_is_round_robin() {
        let plan = Plan::from_paths(&[(Mix::LocationDetails, &["/a", "/b", "/c"])]);
        let got: Vec<_> = (0..7)
            .map(|g| plan.pick(g).1.uri.path().to_owned())
            .collect();
        assert_eq!(got, ["/a", "/b", "/c", "/a", "/b", "/c", "/a"]);
    }

    #[test]
    fn blend_is_even_and_round_robin_within_kind() {
        let plan = Plan::from_paths(&[
            (Mix::LocationDetails, &["/l1", "/l2"]),
            (Mix::LocationList, &["/p1"]),
            (Mix::VendorDetails, &["/v1", "/v2", "/v3"]),
        ]);
        let got: Vec<_> = (0..9)
            .map(|g| plan.pick(g).1.uri.path().to_owned())
            .collect();
        assert_eq!(
            got,
            [
                "/l1", "/p1", "/v1", "/l2", "/p1", "/v2", "/l1", "/p1", "/v3"
            ]
        );
        assert_eq!(
            plan.describe(),
            "location-details=2 location-list=1 vendor-details=3"
        );
    }
}
