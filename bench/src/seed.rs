//! `seed`: create locations, groups, vendors, members, customers, fixed assets, stock
//! and rental orders through the API, concurrently.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use anyhow::{Result, bail};
use serde_json::json;
use tokio::task::JoinSet;

use crate::conn::{Conn, Target};
use crate::plan::ORDER_STOCK_UNITS;
use crate::stats::{LatencySummary, Tally, micros, ms};

pub struct SeedOpts {
    pub locations: usize,
    pub groups: usize,
    pub vendors: usize,
    pub members: usize,
    pub customers: usize,
    /// Fixed assets, in a group of their own.
    pub assets: usize,
    /// Inventory items and as many asset stock items, in a group of their own, with
    /// [`STOCK_UNITS`] of each at two locations of their own, and a member to check
    /// asset stock out to.
    pub stock: usize,
    /// Draft rental orders, each with a rentable fixed asset and [`ORDER_STOCK_UNITS`]
    /// of a rentable asset stock item, for one customer (all made first).
    pub orders: usize,
    /// Rentable fixed assets made with the orders (the order-cycle mix needs one per
    /// connection); the orders use them in turn.
    pub order_assets: usize,
    pub concurrency: usize,
    /// Make 10% of the locations roots and the rest their children.
    pub nested: bool,
    /// Suffix for record names, so repeated seeds don't collide.
    pub tag: Option<String>,
    pub timeout: Duration,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Location,
    Group,
    Vendor,
    Member,
    Customer,
    Asset,
    Inventory,
    StockAsset,
    /// Stock added to an item (`order.api`).
    StockOrder,
    /// A fixed asset with a daily rate, for rental orders (known by its number).
    RentableAsset,
    /// An asset stock item with a daily rate, for rental orders.
    RentableStock,
    /// A rental order (known by its number).
    Order,
}

impl Kind {
    fn key(self) -> &'static str {
        match self {
            Kind::Location => "location",
            Kind::Group => "group",
            Kind::Vendor => "vendor",
            Kind::Member => "member",
            Kind::Customer => "customer",
            Kind::Asset
            | Kind::Inventory
            | Kind::StockAsset
            | Kind::StockOrder
            | Kind::RentableAsset
            | Kind::RentableStock => "asset",
            Kind::Order => "basket",
        }
    }

    /// The field of the answer's record that identifies what was made: stock items are
    /// known by their number.
    fn id_key(self) -> &'static str {
        match self {
            Kind::Inventory
            | Kind::StockAsset
            | Kind::StockOrder
            | Kind::RentableAsset
            | Kind::RentableStock
            | Kind::Order => "sequence_num",
            _ => "id",
        }
    }

    fn path(self) -> &'static str {
        match self {
            Kind::Location => "/locations.api",
            Kind::Group => "/groups.api",
            Kind::Vendor => "/vendors.api",
            Kind::Member => "/members.api",
            Kind::Customer => "/customers.api",
            Kind::Asset | Kind::RentableAsset => "/assets.api",
            Kind::Inventory => "/inventory.api",
            Kind::StockAsset | Kind::RentableStock => "/stock_assets.api",
            Kind::Order => "/baskets.api",
            Kind::StockOrder => unreachable!("an order's path names its item"),
        }
    }
}

#[derive(Debug, Clone)]
struct Job {
    kind: Kind,
    path: String,
    fields: Vec<(String, String)>,
}

impl Job {
    fn new(kind: Kind, fields: Vec<(String, String)>) -> Job {
        Job {
            kind,
            path: kind.path().to_owned(),
            fields,
        }
    }
}

const CITIES: [&str; 5] = ["Austin", "Berlin", "Lagos", "Osaka", "Lima"];

fn location_job(n: usize, tag: &str, parent: Option<i64>) -> Job {
    let mut fields = vec![
        (
            "location[name]".to_owned(),
            format!("Bench Location {n:05} {tag}"),
        ),
        (
            "location[city]".to_owned(),
            CITIES[n % CITIES.len()].to_owned(),
        ),
    ];
    if let Some(p) = parent {
        fields.push(("location[parent_id]".to_owned(), p.to_string()));
    }
    Job::new(Kind::Location, fields)
}

fn named_job(kind: Kind, n: usize, tag: &str) -> Job {
    let label = match kind {
        Kind::Location => "Location",
        Kind::Group => "Group",
        Kind::Vendor => "Vendor",
        _ => unreachable!("members, customers, assets and stock have their own jobs"),
    };
    Job::new(
        kind,
        vec![(
            format!("{}[name]", kind.key()),
            format!("Bench {label} {n:04} {tag}"),
        )],
    )
}

/// A staff member with a unique e-mail; every tenth has login disabled and no
/// e-mail, so the status filters have both kinds to tell apart.
fn member_job(n: usize, tag: &str) -> Job {
    let mut fields = vec![
        ("user[first_name]".to_owned(), format!("Bench{n:05}")),
        ("user[last_name]".to_owned(), format!("Member {tag}")),
        ("user[role_id]".to_owned(), "2".to_owned()),
        ("user[employee_id]".to_owned(), format!("E{n:05}-{tag}")),
        ("user[city]".to_owned(), CITIES[n % CITIES.len()].to_owned()),
    ];
    if n.is_multiple_of(10) {
        fields.push(("user[login_enabled]".to_owned(), "false".to_owned()));
    } else {
        fields.push((
            "user[email]".to_owned(),
            format!("bench{n}-{tag}@bench.test"),
        ));
    }
    Job::new(Kind::Member, fields)
}

/// A customer with a unique e-mail; every tenth is not taxed, so the non_taxed
/// filter matches a tenth of them.
fn customer_job(n: usize, tag: &str) -> Job {
    let mut fields = vec![
        ("customer[first_name]".to_owned(), format!("Bench{n:06}")),
        ("customer[last_name]".to_owned(), format!("Customer {tag}")),
        (
            "customer[email]".to_owned(),
            format!("customer{n}-{tag}@bench.test"),
        ),
        (
            "customer[city]".to_owned(),
            CITIES[n % CITIES.len()].to_owned(),
        ),
    ];
    if n.is_multiple_of(10) {
        fields.push(("customer[collect_tax]".to_owned(), "false".to_owned()));
    }
    Job::new(Kind::Customer, fields)
}

/// A fixed asset of `group`, with an identification number; every tenth has a daily
/// rate.
fn asset_job(n: usize, tag: &str, group: i64) -> Job {
    let mut fields = vec![
        (
            "fixed_asset[name]".to_owned(),
            format!("Bench Asset {n:06} {tag}"),
        ),
        ("fixed_asset[group_id]".to_owned(), group.to_string()),
        (
            "fixed_asset[purchased_on]".to_owned(),
            "01/15/2026".to_owned(),
        ),
        (
            "fixed_asset[identifier]".to_owned(),
            format!("SN-{n:06}-{tag}"),
        ),
    ];
    if n.is_multiple_of(10) {
        fields.push((
            "fixed_asset[rental_price_attributes][daily]".to_owned(),
            "45.00".to_owned(),
        ));
    }
    Job::new(Kind::Asset, fields)
}

/// Units of each stock item seeded at each of its two locations: enough that the
/// stock-sale mixes never run out.
pub const STOCK_UNITS: u32 = 1_000_000;

/// An inventory (`Kind::Inventory`) or asset stock item of `group` whose own location is
/// `location`.
fn stock_item_job(kind: Kind, n: usize, tag: &str, group: i64, location: i64) -> Job {
    let (scope, label) = match kind {
        Kind::Inventory => ("volatile_asset", "Inventory"),
        _ => ("stock_asset", "Stock"),
    };
    Job::new(
        kind,
        vec![
            (
                format!("{scope}[name]"),
                format!("Bench {label} {n:06} {tag}"),
            ),
            (format!("{scope}[group_id]"), group.to_string()),
            (format!("{scope}[location_id]"), location.to_string()),
        ],
    )
}

/// [`STOCK_UNITS`] of item `number` (of `kind`) added at `location`, at 1.00 each.
fn add_stock_job(kind: Kind, number: i64, location: i64) -> Job {
    let items = kind.path().trim_end_matches(".api");
    Job {
        kind: Kind::StockOrder,
        path: format!("{items}/{number}/order.api"),
        fields: vec![
            ("order_type".to_owned(), "Add Stock".to_owned()),
            ("line_item[quantity]".to_owned(), STOCK_UNITS.to_string()),
            ("line_item[price]".to_owned(), "1.00".to_owned()),
            ("line_item[location_id]".to_owned(), location.to_string()),
        ],
    }
}

/// A fixed asset of `group` to rent out: a daily rate of 10.00, and `Rentable` in its
/// name, which the order-cycle mix searches for.
fn rentable_asset_job(n: usize, tag: &str, group: i64) -> Job {
    Job::new(
        Kind::RentableAsset,
        vec![
            (
                "fixed_asset[name]".to_owned(),
                format!("Bench Rentable {n:05} {tag}"),
            ),
            ("fixed_asset[group_id]".to_owned(), group.to_string()),
            (
                "fixed_asset[purchased_on]".to_owned(),
                "01/15/2026".to_owned(),
            ),
            (
                "fixed_asset[rental_price_attributes][daily]".to_owned(),
                "10".to_owned(),
            ),
        ],
    )
}

/// The asset stock item of `group` at `location` that every order rents units of: a
/// daily rate of 1.00.
fn rentable_stock_job(tag: &str, group: i64, location: i64) -> Job {
    Job::new(
        Kind::RentableStock,
        vec![
            (
                "stock_asset[name]".to_owned(),
                format!("Bench Rentable Stock {tag}"),
            ),
            ("stock_asset[group_id]".to_owned(), group.to_string()),
            ("stock_asset[location_id]".to_owned(), location.to_string()),
            (
                "stock_asset[rental_price_attributes][daily]".to_owned(),
                "1".to_owned(),
            ),
        ],
    )
}

/// A draft order of `customer` with fixed asset `asset` and [`ORDER_STOCK_UNITS`] of
/// asset stock item `stock`, without a period.
fn order_job(customer: i64, asset: i64, stock: i64) -> Job {
    Job::new(
        Kind::Order,
        vec![
            ("basket[customer_id]".to_owned(), customer.to_string()),
            ("asset_ids".to_owned(), format!("{asset},{stock}")),
            (
                format!("stock_assets_values[{stock}][quantity]"),
                ORDER_STOCK_UNITS.to_owned(),
            ),
        ],
    )
}

/// The member asset stock is checked out to: active, with an e-mail.
fn stock_member_job(tag: &str) -> Job {
    Job::new(
        Kind::Member,
        vec![
            ("user[first_name]".to_owned(), "Bench".to_owned()),
            ("user[last_name]".to_owned(), format!("Stock Member {tag}")),
            ("user[email]".to_owned(), format!("stock-{tag}@bench.test")),
            ("user[role_id]".to_owned(), "2".to_owned()),
        ],
    )
}

/// What one phase produced.
#[derive(Default)]
struct Outcome {
    created: Vec<(Kind, i64)>,
    tally: Tally,
    /// Creates sent again after a 503 (a busy database: nothing was made).
    retries: u64,
}

impl Outcome {
    fn ids(&self, kind: Kind) -> Vec<i64> {
        self.created
            .iter()
            .filter(|(k, _)| *k == kind)
            .map(|&(_, id)| id)
            .collect()
    }
}

pub async fn seed(target: Arc<Target>, opts: SeedOpts) -> Result<()> {
    let concurrency = opts.concurrency.max(1);
    let tag = opts.tag.clone().unwrap_or_else(default_tag);
    let started = Instant::now();

    let roots = if opts.nested {
        opts.locations.div_ceil(10)
    } else {
        0
    };
    let mut total = Outcome::default();
    if roots > 0 {
        let jobs = (1..=roots).map(|n| location_job(n, &tag, None)).collect();
        let phase = run_jobs(&target, jobs, concurrency, opts.timeout).await;
        absorb(&mut total, phase);
    }
    let parents = total.ids(Kind::Location);
    let mut jobs: Vec<Job> = (roots + 1..=opts.locations)
        .map(|n| {
            let parent = (!parents.is_empty()).then(|| parents[n % parents.len()]);
            location_job(n, &tag, parent)
        })
        .collect();
    jobs.extend((1..=opts.groups).map(|n| named_job(Kind::Group, n, &tag)));
    jobs.extend((1..=opts.vendors).map(|n| named_job(Kind::Vendor, n, &tag)));
    jobs.extend((1..=opts.members).map(|n| member_job(n, &tag)));
    jobs.extend((1..=opts.customers).map(|n| customer_job(n, &tag)));
    let phase = run_jobs(&target, jobs, concurrency, opts.timeout).await;
    absorb(&mut total, phase);
    if opts.assets > 0 {
        let group = run_jobs(
            &target,
            vec![named_job(Kind::Group, 0, &format!("assets {tag}"))],
            1,
            opts.timeout,
        )
        .await;
        let Some(&(_, group_id)) = group.created.first() else {
            bail!(
                "could not create the assets' group: {:?}",
                group.tally.first_error
            );
        };
        absorb(&mut total, group);
        let jobs = (1..=opts.assets)
            .map(|n| asset_job(n, &tag, group_id))
            .collect();
        let phase = run_jobs(&target, jobs, concurrency, opts.timeout).await;
        absorb(&mut total, phase);
    }
    if opts.stock > 0 {
        seed_stock(&target, &opts, concurrency, &tag, &mut total).await?;
    }
    let orders_took = if opts.orders > 0 {
        seed_orders(&target, &opts, concurrency, &tag, &mut total).await?
    } else {
        0.0
    };

    let elapsed = started.elapsed().as_secs_f64();
    let requested = opts.locations
        + opts.groups
        + opts.vendors
        + opts.members
        + opts.customers
        + opts.assets
        + usize::from(opts.assets > 0)
        // A group, two locations and a member; the items; stock at both locations.
        + if opts.stock > 0 { 4 + 6 * opts.stock } else { 0 }
        // A group, a location and a customer; the assets and the stock item; its units.
        + if opts.orders > 0 { 5 + opts.order_assets.max(1) + opts.orders } else { 0 };
    let errors = total.tally.errors();
    let lat = LatencySummary::from_samples(&mut total.tally.samples);
    let range = |kind| {
        let ids = total.ids(kind);
        match (ids.iter().min(), ids.iter().max()) {
            (Some(lo), Some(hi)) => json!([lo, hi]),
            _ => json!(null),
        }
    };
    let counts: Vec<usize> = [
        Kind::Location,
        Kind::Group,
        Kind::Vendor,
        Kind::Member,
        Kind::Customer,
        Kind::Asset,
        Kind::Inventory,
        Kind::StockAsset,
        Kind::StockOrder,
        Kind::RentableAsset,
        Kind::RentableStock,
        Kind::Order,
    ]
    .iter()
    .map(|&k| total.ids(k).len())
    .collect();
    let per_s = if elapsed > 0.0 {
        total.created.len() as f64 / elapsed
    } else {
        0.0
    };

    eprintln!(
        "seed: created {} locations, {} groups, {} vendors, {} members, {} customers, {} assets, \
         {} inventory and {} asset stock items ({} stock additions) in {elapsed:.2}s ({per_s:.1}/s, \
         p50 {:.3} ms, p99 {:.3} ms, {concurrency} concurrent), {errors} errors",
        counts[0],
        counts[1],
        counts[2],
        counts[3],
        counts[4],
        counts[5],
        counts[6],
        counts[7],
        counts[8],
        ms(lat.p50.into()),
        ms(lat.p99.into()),
    );
    let orders_per_s = if orders_took > 0.0 {
        counts[11] as f64 / orders_took
    } else {
        0.0
    };
    if opts.orders > 0 {
        eprintln!(
            "seed: {} rental orders in {orders_took:.2}s ({orders_per_s:.1}/s, one request each), \
             with {} rentable fixed assets and {} rentable asset stock item",
            counts[11], counts[9], counts[10],
        );
    }
    if total.retries > 0 {
        eprintln!(
            "seed: {} creates sent again after a 503 (busy database)",
            total.retries
        );
    }
    if let Some(e) = &total.tally.first_error {
        eprintln!("first error: {e}");
    }
    let non_2xx: serde_json::Map<String, serde_json::Value> = total
        .tally
        .statuses
        .iter()
        .map(|(s, n)| (s.to_string(), json!(n)))
        .collect();
    let line = json!({
        "bench": "seed",
        "tag": tag,
        "locations": counts[0],
        "groups": counts[1],
        "vendors": counts[2],
        "members": counts[3],
        "customers": counts[4],
        "assets": counts[5],
        "inventory": counts[6],
        "stock_assets": counts[7],
        "stock_orders": counts[8],
        "stock_units": if opts.stock > 0 { STOCK_UNITS } else { 0 },
        "rentable_assets": counts[9],
        "rentable_stock": counts[10],
        "rentable_stock_units": if counts[10] > 0 { STOCK_UNITS } else { 0 },
        "orders": counts[11],
        "order_numbers": range(Kind::Order),
        "orders_elapsed_s": (orders_took * 1000.0).round() / 1000.0,
        "orders_per_s": (orders_per_s * 10.0).round() / 10.0,
        "requested": requested,
        "nested": opts.nested,
        "location_ids": range(Kind::Location),
        "group_ids": range(Kind::Group),
        "vendor_ids": range(Kind::Vendor),
        "member_ids": range(Kind::Member),
        "customer_ids": range(Kind::Customer),
        "asset_ids": range(Kind::Asset),
        "inventory_numbers": range(Kind::Inventory),
        "stock_asset_numbers": range(Kind::StockAsset),
        "concurrency": concurrency,
        "elapsed_s": (elapsed * 1000.0).round() / 1000.0,
        "creates_per_s": (per_s * 10.0).round() / 10.0,
        "p50_ms": ms(lat.p50.into()),
        "p99_ms": ms(lat.p99.into()),
        "max_ms": ms(lat.max.into()),
        "errors": errors,
        "retries": total.retries,
        "non_2xx": non_2xx,
        "transport_errors": total.tally.transport_errors,
        "timeouts": total.tally.timeouts,
        "first_error": total.tally.first_error,
    });
    println!("{line}");
    if errors > 0 {
        bail!("{errors} of {requested} creates failed");
    }
    Ok(())
}

/// `--stock N`: a group, a location and one inside it, a member (one phase, then the
/// inner location), N inventory and N asset stock items at the inner location, then
/// [`STOCK_UNITS`] of every item added at each of the two locations. The stock mixes
/// find it all from the items: their location and that location's parent.
async fn seed_stock(
    target: &Arc<Target>,
    opts: &SeedOpts,
    concurrency: usize,
    tag: &str,
    total: &mut Outcome,
) -> Result<()> {
    let location = |name: String, parent: Option<i64>| {
        let mut fields = vec![("location[name]".to_owned(), name)];
        if let Some(p) = parent {
            fields.push(("location[parent_id]".to_owned(), p.to_string()));
        }
        Job::new(Kind::Location, fields)
    };
    let jobs = vec![
        named_job(Kind::Group, 0, &format!("stock {tag}")),
        location(format!("Bench Stock Store {tag}"), None),
        stock_member_job(tag),
    ];
    let first = run_jobs(target, jobs, concurrency, opts.timeout).await;
    let (Some(&group), Some(&store)) = (
        first.ids(Kind::Group).first(),
        first.ids(Kind::Location).first(),
    ) else {
        bail!(
            "could not create the stock's group and location: {:?}",
            first.tally.first_error
        );
    };
    absorb(total, first);
    let inner = run_jobs(
        target,
        vec![location(format!("Bench Stock Shelf {tag}"), Some(store))],
        1,
        opts.timeout,
    )
    .await;
    let Some(&shelf) = inner.ids(Kind::Location).first() else {
        bail!(
            "could not create the stock's second location: {:?}",
            inner.tally.first_error
        );
    };
    absorb(total, inner);
    let jobs = [Kind::Inventory, Kind::StockAsset]
        .iter()
        .flat_map(|&kind| (1..=opts.stock).map(move |n| stock_item_job(kind, n, tag, group, shelf)))
        .collect();
    let items = run_jobs(target, jobs, concurrency, opts.timeout).await;
    // One location after the other, so that no two additions wait for the same item.
    let jobs = [shelf, store]
        .iter()
        .flat_map(|&at| {
            items
                .created
                .iter()
                .map(move |&(kind, number)| add_stock_job(kind, number, at))
        })
        .collect();
    absorb(total, items);
    let orders = run_jobs(target, jobs, concurrency, opts.timeout).await;
    absorb(total, orders);
    Ok(())
}

/// `--orders N`: a group, a location and a customer (one phase), `--order-assets` fixed
/// assets and an asset stock item to rent out, [`STOCK_UNITS`] of the stock item at the
/// location, then N draft orders of the customer, each with the next fixed asset in
/// turn and [`ORDER_STOCK_UNITS`] of the stock item. Answers the seconds the orders
/// took.
async fn seed_orders(
    target: &Arc<Target>,
    opts: &SeedOpts,
    concurrency: usize,
    tag: &str,
    total: &mut Outcome,
) -> Result<f64> {
    let jobs = vec![
        named_job(Kind::Group, 0, &format!("orders {tag}")),
        Job::new(
            Kind::Location,
            vec![(
                "location[name]".to_owned(),
                format!("Bench Rental Yard {tag}"),
            )],
        ),
        Job::new(
            Kind::Customer,
            vec![
                ("customer[first_name]".to_owned(), "Bench".to_owned()),
                (
                    "customer[last_name]".to_owned(),
                    format!("Orders Customer {tag}"),
                ),
            ],
        ),
    ];
    let first = run_jobs(target, jobs, concurrency, opts.timeout).await;
    let (Some(&group), Some(&yard), Some(&customer)) = (
        first.ids(Kind::Group).first(),
        first.ids(Kind::Location).first(),
        first.ids(Kind::Customer).first(),
    ) else {
        bail!(
            "could not create the orders' group, location and customer: {:?}",
            first.tally.first_error
        );
    };
    absorb(total, first);
    let mut jobs: Vec<Job> = (1..=opts.order_assets.max(1))
        .map(|n| rentable_asset_job(n, tag, group))
        .collect();
    jobs.push(rentable_stock_job(tag, group, yard));
    let items = run_jobs(target, jobs, concurrency, opts.timeout).await;
    let mut assets = items.ids(Kind::RentableAsset);
    assets.sort_unstable();
    let Some(&stock) = items.ids(Kind::RentableStock).first() else {
        bail!(
            "could not create the orders' asset stock item: {:?}",
            items.tally.first_error
        );
    };
    if assets.is_empty() {
        bail!(
            "could not create the orders' fixed assets: {:?}",
            items.tally.first_error
        );
    }
    absorb(total, items);
    let units = run_jobs(
        target,
        vec![add_stock_job(Kind::RentableStock, stock, yard)],
        1,
        opts.timeout,
    )
    .await;
    absorb(total, units);
    let started = Instant::now();
    let jobs = (0..opts.orders)
        .map(|i| order_job(customer, assets[i % assets.len()], stock))
        .collect();
    let orders = run_jobs(target, jobs, concurrency, opts.timeout).await;
    let took = started.elapsed().as_secs_f64();
    absorb(total, orders);
    Ok(took)
}

fn absorb(total: &mut Outcome, phase: Outcome) {
    total.retries += phase.retries;
    total.created.extend(phase.created);
    total.tally.merge(phase.tally);
}

/// Seconds since the epoch in base 36: short, and different per seed run.
fn default_tag() -> String {
    let mut n = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    let mut out = Vec::new();
    loop {
        out.push(b"0123456789abcdefghijklmnopqrstuvwxyz"[(n % 36) as usize]);
        n /= 36;
        if n == 0 {
            break;
        }
    }
    out.reverse();
    String::from_utf8(out).unwrap_or_default()
}

/// Runs `jobs` on `concurrency` connections; each worker takes the next job.
async fn run_jobs(
    target: &Arc<Target>,
    jobs: Vec<Job>,
    concurrency: usize,
    timeout: Duration,
) -> Outcome {
    let jobs = Arc::new(jobs);
    let next = Arc::new(AtomicUsize::new(0));
    let mut workers = JoinSet::new();
    for _ in 0..concurrency.min(jobs.len()) {
        let (jobs, next, target) = (jobs.clone(), next.clone(), target.clone());
        workers.spawn(async move {
            let mut conn = Conn::new(target);
            let mut out = Outcome::default();
            loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(job) = jobs.get(i) else { break };
                create(&mut conn, job, timeout, &mut out).await;
            }
            out
        });
    }
    let mut total = Outcome::default();
    while let Some(joined) = workers.join_next().await {
        match joined {
            Ok(out) => absorb(&mut total, out),
            Err(e) => {
                total.tally.transport_errors += 1;
                total
                    .tally
                    .note_error(|| format!("seed worker failed: {e}"));
            }
        }
    }
    total
}

/// Times a create answered 503 (the database busy: SQLite's writer lock or
/// PostgreSQL's lock waits past their bound, nothing made) is sent again, after the
/// answer's `Retry-After` (at most [`MAX_RETRY_WAIT`]).
const RETRIES: u32 = 5;

/// The longest wait before a retry.
const MAX_RETRY_WAIT: Duration = Duration::from_secs(2);

/// The wait a 503 asks for: its `Retry-After` seconds, at most [`MAX_RETRY_WAIT`].
fn retry_wait(reply: &crate::conn::Reply) -> Duration {
    reply
        .headers
        .get("retry-after")
        .and_then(|v| v.to_str().ok()?.trim().parse::<u64>().ok())
        .map_or(MAX_RETRY_WAIT, Duration::from_secs)
        .min(MAX_RETRY_WAIT)
}

async fn create(conn: &mut Conn, job: &Job, timeout: Duration, out: &mut Outcome) {
    let mut tries = 0;
    loop {
        match send_create(conn, job, timeout).await {
            Ok(Ok((_, reply))) if reply.status == 503 && tries < RETRIES => {
                tries += 1;
                out.retries += 1;
                tokio::time::sleep(retry_wait(&reply)).await;
            }
            outcome => {
                if outcome.is_err() {
                    // Timed out: the connection's state is unknown.
                    conn.reset();
                }
                return tally_create(job, outcome, timeout, out);
            }
        }
    }
}

type Sent = Result<Result<(Duration, crate::conn::Reply)>, tokio::time::error::Elapsed>;

async fn send_create(conn: &mut Conn, job: &Job, timeout: Duration) -> Sent {
    let path = job.path.as_str();
    tokio::time::timeout(timeout, async {
        conn.ready().await?;
        let pairs: Vec<(&str, &str)> = job
            .fields
            .iter()
            .map(|(k, v)| (k.as_str(), v.as_str()))
            .collect();
        let req = conn.target().post_form(conn.target().uri(path)?, &pairs);
        let sent = Instant::now();
        let reply = conn.send(req).await?;
        anyhow::Ok((sent.elapsed(), reply))
    })
    .await
}

fn tally_create(job: &Job, outcome: Sent, timeout: Duration, out: &mut Outcome) {
    let path = job.path.as_str();
    let tally = &mut out.tally;
    match outcome {
        Ok(Ok((took, reply))) if reply.is_success() => {
            let id = reply.json().ok().and_then(|v| {
                let id = v.get(job.kind.key())?.get(job.kind.id_key())?.clone();
                id.as_i64().or_else(|| id.as_str()?.parse().ok())
            });
            match id {
                Some(id) => {
                    tally.samples.push(micros(took));
                    out.created.push((job.kind, id));
                }
                None => {
                    *tally.statuses.entry(reply.status).or_default() += 1;
                    tally.note_error(|| {
                        format!(
                            "POST {path} answered {} without {}.{}: {}",
                            reply.status,
                            job.kind.key(),
                            job.kind.id_key(),
                            reply.snippet()
                        )
                    });
                }
            }
        }
        Ok(Ok((_, reply))) => {
            *tally.statuses.entry(reply.status).or_default() += 1;
            tally.note_error(|| {
                format!("POST {path} answered {}: {}", reply.status, reply.snippet())
            });
        }
        Ok(Err(e)) => {
            tally.transport_errors += 1;
            tally.note_error(|| format!("POST {path}: {e:#}"));
        }
        Err(_) => {
            tally.timeouts += 1;
            tally.note_error(|| format!("POST {path}: no answer within {timeout:?}"));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn jobs_have_valid_names() {
        let j = location_job(7, "abc", Some(12));
        assert_eq!(
            j.fields[0],
            (
                "location[name]".to_owned(),
                "Bench Location 00007 abc".to_owned()
            )
        );
        assert_eq!(
            j.fields[2],
            ("location[parent_id]".to_owned(), "12".to_owned())
        );
        let j = named_job(Kind::Vendor, 3, "abc");
        assert_eq!(
            j.fields,
            vec![(
                "vendor[name]".to_owned(),
                "Bench Vendor 0003 abc".to_owned()
            )]
        );
        assert!(!default_tag().is_empty());
    }

    #[test]
    fn retries_wait_as_asked_within_bounds() {
        let reply = |after: Option<&str>| {
            let mut headers = hyper::HeaderMap::new();
            if let Some(a) = after {
                headers.insert("retry-after", a.parse().unwrap());
            }
            crate::conn::Reply {
                status: 503,
                headers,
                body: Default::default(),
            }
        };
        assert_eq!(retry_wait(&reply(Some("1"))), Duration::from_secs(1));
        assert_eq!(retry_wait(&reply(Some("0"))), Duration::ZERO);
        assert_eq!(retry_wait(&reply(Some("120"))), MAX_RETRY_WAIT);
        assert_eq!(retry_wait(&reply(None)), MAX_RETRY_WAIT);
        assert_eq!(retry_wait(&reply(Some("soon"))), MAX_RETRY_WAIT);
    }

    #[test]
    fn order_jobs_rent_an_asset_and_two_units() {
        let j = order_job(3, 17, 40);
        assert_eq!(
            (j.kind.path(), j.kind.key(), j.kind.id_key()),
            ("/baskets.api", "basket", "sequence_num")
        );
        assert_eq!(
            j.fields,
            vec![
                ("basket[customer_id]".to_owned(), "3".to_owned()),
                ("asset_ids".to_owned(), "17,40".to_owned()),
                (
                    "stock_assets_values[40][quantity]".to_owned(),
                    "2".to_owned()
                ),
            ]
        );
        let a = rentable_asset_job(4, "t", 9);
        assert_eq!(a.fields[0].1, "Bench Rentable 00004 t");
        assert!(a.fields.contains(&(
            "fixed_asset[rental_price_attributes][daily]".to_owned(),
            "10".to_owned()
        )));
        let s = rentable_stock_job("t", 9, 2);
        assert_eq!(s.path, "/stock_assets.api");
        assert_eq!(
            add_stock_job(Kind::RentableStock, 5, 2).path,
            "/stock_assets/5/order.api"
        );
    }
}
