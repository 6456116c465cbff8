//! The items on an order: put on (fixed assets and asset stock at the rates they have
//! then, inventory at a sale price) and taken off a draft.

use crate::CompanyId;
use crate::ids::{Id, Number, kind};
use chrono::{DateTime, Utc};
use domain::Vocabulary;
use domain::item::AssetType;
use domain::order::OrderState;
use domain::pricing::{Ceiling, Rates};
use domain::refusal::Conflict;
use domain::refusal::Problem;
use domain::stock::Quantity;
use sea_query::{Expr, ExprTrait, Order as SqlOrder, Query, SelectStatement};
use serde_json::json;
use std::collections::{HashMap, HashSet};

use super::charges::coupons_in;
use super::lock;
use super::priced::{OrderView, reprice};
use crate::item_core::Clock;
use crate::{Assignments, Db, StoreError, Tx, change_log, now};

/// One item on an order, with the item's number and name.
#[derive(Debug, Clone, crate::Row)]
pub struct LineItem {
    pub id: i64,
    pub order_id: i64,
    pub item_id: i64,
    pub sequence_num: i64,
    pub asset_name: String,
    pub asset_type: String,
    pub bundle_id: Option<i64>,
    /// Units of the item in one set of its bundle (`None`: not from a bundle, or put
    /// on before bundles had sets: one set is the whole line).
    pub bundle_units: Option<i64>,
    pub quantity: i64,
    pub quantity_returned: i64,
    pub location_id: Option<i64>,
    pub for_sale: bool,
    pub sale_price: Option<i64>,
    pub rate_per_minute: Option<i64>,
    pub rate_hourly: Option<i64>,
    pub rate_daily: Option<i64>,
    pub rate_weekly: Option<i64>,
    pub rate_monthly: Option<i64>,
    pub late_fee_kind: Option<String>,
    pub late_fee_amount: Option<i64>,
    pub due_at: Option<DateTime<Utc>>,
    pub returned_at: Option<DateTime<Utc>>,
    pub late_fee: i64,
    pub custom_attributes: String,
    pub created_at: DateTime<Utc>,
}

impl LineItem {
    pub fn rates(&self) -> Rates {
        let m = |v: Option<i64>| v.map(domain::money::Money::from_minor);
        Rates {
            per_minute: m(self.rate_per_minute),
            hourly: m(self.rate_hourly),
            daily: m(self.rate_daily),
            weekly: m(self.rate_weekly),
            monthly: m(self.rate_monthly),
        }
    }

    pub fn kind(&self) -> AssetType {
        AssetType::parse(&self.asset_type).unwrap_or(AssetType::FixedAsset)
    }

    /// Whether the line's units leave for good when the order goes out.
    pub fn sold(&self) -> bool {
        domain::order::sold_line(self.kind(), self.for_sale)
    }

    /// Units of one set of the line's bundle.
    pub fn set_units(&self) -> i64 {
        Ord::max(self.bundle_units.unwrap_or(self.quantity), 1)
    }
}

fn lines_select(company: CompanyId) -> SelectStatement {
    let l = |c: &'static str| ("order_line_items", c);
    Query::select()
        .from("order_line_items")
        .columns(
            [
                "id",
                "order_id",
                "item_id",
                "asset_type",
                "bundle_id",
                "bundle_units",
                "quantity",
                "quantity_returned",
                "location_id",
                "for_sale",
                "sale_price",
                "rate_per_minute",
                "rate_hourly",
                "rate_daily",
                "rate_weekly",
                "rate_monthly",
                "late_fee_kind",
                "late_fee_amount",
                "due_at",
                "returned_at",
                "late_fee",
                "custom_attributes",
                "created_at",
            ]
            .map(l),
        )
        .expr_as(Expr::col(("items", "sequence_num")), "sequence_num")
        .expr_as(Expr::col(("items", "name")), "asset_name")
        .inner_join(
            "items",
            crate::joins("items", ("order_line_items", "item_id")),
        )
        .and_where(Expr::col(l("company_id")).eq(company.0))
        .order_by(l("id"), SqlOrder::Asc)
        .to_owned()
}

/// The lines of order `order`, read in `tx`.
pub(super) async fn lines_of(
    tx: &mut Tx,
    company: CompanyId,
    order: i64,
) -> Result<Vec<LineItem>, StoreError> {
    tx.all(&lines_read(company, order)).await
}

/// The read of [`lines_of`].
pub(super) fn lines_read(company: CompanyId, order: impl Into<Expr>) -> SelectStatement {
    lines_select(company)
        .and_where(Expr::col(("order_line_items", "order_id")).eq(order))
        .to_owned()
}

/// An item to put on an order.
#[derive(Debug, Clone)]
pub struct Addition {
    pub number: Number<kind::Item>,
    /// Units of asset stock or inventory; a fixed asset is 1.
    pub quantity: Option<Quantity>,
    /// Where units of stock or inventory come from; the item's own location when
    /// `None`.
    pub location: Option<Id<kind::Location>>,
    /// Inventory: the price per unit it is sold at with the order (minor units); the
    /// item's price when `None`.
    pub price: Option<i64>,
}

/// What a request puts on an order: items, and bundles (`<id>-b`) whose items go on
/// with their quantities, each bundle a number of sets (`bundle_with_quantity`).
#[derive(Debug, Clone, Default)]
pub struct Additions {
    pub items: Vec<Addition>,
    pub bundles: Vec<(Id<kind::Bundle>, Quantity)>,
}

impl Additions {
    pub fn is_empty(&self) -> bool {
        self.items.is_empty() && self.bundles.is_empty()
    }
}

/// An addition that comes from a bundle: the bundle, its item's units in one set,
/// and the sets put on.
#[derive(Debug, Clone, Copy)]
struct FromBundle {
    id: i64,
    set_units: i64,
    sets: i64,
}

#[derive(Debug, Clone, crate::Row)]
struct Addable {
    id: i64,
    sequence_num: i64,
    name: String,
    asset_type: String,
    state: String,
    location_id: Option<i64>,
    price: Option<i64>,
    unit_price: Option<i64>,
    rate_per_minute: Option<i64>,
    rate_hourly: Option<i64>,
    rate_daily: Option<i64>,
    rate_weekly: Option<i64>,
    rate_monthly: Option<i64>,
    late_fee_kind: Option<String>,
    late_fee_amount: Option<i64>,
}

impl Addable {
    fn has_rate(&self) -> bool {
        [
            self.rate_per_minute,
            self.rate_hourly,
            self.rate_daily,
            self.rate_weekly,
            self.rate_monthly,
        ]
        .iter()
        .any(Option::is_some)
    }
}

/// Puts items and coupons on a draft or web order: fixed assets and asset stock need a
/// rental rate, inventory a price (it is sold with the order), coupons must be valid
/// on the order's day; every problem of both is one 422 and nothing is added.
#[tracing::instrument(level = "debug", skip_all)]
pub async fn add_items(
    db: &Db,
    company: CompanyId,
    number: Number<kind::Order>,
    additions: Additions,
    coupons: &[Id<kind::Coupon>],
    clock: &Clock,
) -> Result<OrderView, StoreError> {
    let mut tx = db.begin().await?;
    let order = lock(&mut tx, company, number).await?;
    let state = order.state();
    if !matches!(state, OrderState::Drafted | OrderState::WebOrder) {
        return Err(StoreError::Conflict(Conflict::OrderState {
            number: number.get(),
            state,
            action: if additions.is_empty() {
                "add coupons to"
            } else {
                "add items to"
            },
        }));
    }
    let items = match additions.is_empty() {
        true => Ok(()),
        false => add_in(&mut tx, company, order.id, &additions).await,
    };
    let coupons = match coupons.is_empty() {
        true => Ok(()),
        false => coupons_in(&mut tx, company, &order, coupons, clock).await,
    };
    match (items, coupons) {
        (Ok(()), Ok(())) => {}
        (Err(StoreError::Invalid(mut a)), Err(StoreError::Invalid(b))) => {
            a.extend(b);
            return Err(StoreError::Invalid(a));
        }
        (Err(e), _) | (_, Err(e)) => return Err(e),
    }
    let view = reprice(&mut tx, company, order.id, Ceiling::refuse()).await?;
    tx.commit().await?;
    Ok(view)
}

/// Writes the line items of `additions` on order `order` (its row locked); every
/// problem is one 422 on `asset_ids` and nothing is written.
pub(super) async fn add_in(
    tx: &mut Tx,
    company: CompanyId,
    order: i64,
    additions: &Additions,
) -> Result<(), StoreError> {
    let mut all: Vec<(Addition, Option<FromBundle>)> =
        additions.items.iter().map(|a| (a.clone(), None)).collect();
    let bundle_ids: Vec<i64> = additions.bundles.iter().map(|b| b.0.get()).collect();
    let sets_of: HashMap<i64, i64> = additions
        .bundles
        .iter()
        .map(|(b, sets)| (b.get(), sets.get()))
        .collect();
    for item in crate::bundles::items_for_order(tx, company, &bundle_ids).await? {
        let sets = sets_of.get(&item.bundle_id).copied().unwrap_or(1);
        all.push((
            Addition {
                number: Number::new(item.sequence_num),
                quantity: Quantity::new(item.quantity.saturating_mul(sets)).ok(),
                location: None,
                price: None,
            },
            Some(FromBundle {
                id: item.bundle_id,
                set_units: item.quantity,
                sets,
            }),
        ));
    }
    // The bundles' items make this list as long as the company's bundles are: it is
    // read in chunks (crate::IN_CHUNK), and looked up by number, once each.
    let mut numbers: Vec<i64> = all.iter().map(|a| a.0.number.get()).collect();
    numbers.sort_unstable();
    numbers.dedup();
    let items = crate::scoped("items", company)
        .columns([
            "id",
            "sequence_num",
            "name",
            "asset_type",
            "state",
            "location_id",
            "price",
            "unit_price",
            "rate_per_minute",
            "rate_hourly",
            "rate_daily",
            "rate_weekly",
            "rate_monthly",
            "late_fee_kind",
            "late_fee_amount",
        ])
        .to_owned();
    let found: Vec<Addable> = crate::all_in(tx, &numbers, |chunk| {
        items
            .clone()
            .and_where(Expr::col("sequence_num").is_in(chunk))
            .to_owned()
    })
    .await?;
    let found: HashMap<i64, Addable> = found.into_iter().map(|f| (f.sequence_num, f)).collect();
    let on_order = Query::select()
        .from("order_line_items")
        .columns(["id", "item_id", "bundle_id"])
        .and_where(Expr::col("company_id").eq(company.0))
        .and_where(Expr::col("order_id").eq(order))
        .to_owned();
    let held: Vec<(i64, i64, Option<i64>)> = tx.all(&on_order).await?;
    // The order's lines by item: (line, bundle) of each.
    let mut held_by_item: HashMap<i64, Vec<(i64, Option<i64>)>> = HashMap::new();
    for (line, item, bundle) in held {
        held_by_item.entry(item).or_default().push((line, bundle));
    }
    let mut named = HashSet::with_capacity(all.len());
    let mut problems = Vec::new();
    let mut rows = Vec::new();
    // Lines of a bundle on the order already that take more sets: (line, units).
    let mut more = Vec::new();
    for (addition, bundle) in &all {
        let n = addition.number.get();
        if !named.insert(n) {
            problems.push(Problem::from(format!(
                "#{n} is named twice (alone or in a bundle)"
            )));
            continue;
        }
        let Some(item) = found.get(&n) else {
            problems.push(Problem::from(format!(
                "#{n} is not an asset of this company"
            )));
            continue;
        };
        let kind = AssetType::parse(&item.asset_type).unwrap_or(AssetType::FixedAsset);
        if item.state == domain::item::ItemState::Retired.as_str() {
            problems.push(Problem::from(format!("#{n} ({}) is retired", item.name)));
            continue;
        }
        let held = held_by_item.get(&item.id).map_or(&[][..], Vec::as_slice);
        let again = held
            .iter()
            .find(|h| bundle.is_some_and(|b| h.1 == Some(b.id)));
        match (again, kind) {
            (Some(_), AssetType::FixedAsset) => {
                problems.push(Problem::from(format!(
                    "#{n} ({}) is a fixed asset of bundle {}, which is on this order already: a bundle holding a fixed asset goes on once",
                    item.name,
                    bundle.map_or(0, |b| b.id)
                )));
                continue;
            }
            (Some(line), _) => {
                more.push((line.0, addition.quantity.map_or(1, Quantity::get)));
                continue;
            }
            (None, _) if !held.is_empty() => {
                problems.push(Problem::from(format!(
                    "#{n} ({}) is on this order already",
                    item.name
                )));
                continue;
            }
            (None, _) => {}
        }
        let quantity = match (kind, addition.quantity) {
            (AssetType::FixedAsset, Some(q)) if q.get() != 1 => {
                problems.push(Problem::from(match bundle {
                    Some(b) => format!(
                        "#{n} ({}) is a fixed asset: bundle {} holding it goes on as one set, not {}",
                        item.name, b.id, b.sets
                    ),
                    None => format!("#{n} ({}) is a fixed asset: its quantity is 1", item.name),
                }));
                continue;
            }
            (_, q) => q.map_or(1, Quantity::get),
        };
        let sale_price = match kind {
            // The price of the request, else the item's own, else its latest stock
            // addition's.
            AssetType::VolatileAsset => match addition.price.or(item.price).or(item.unit_price) {
                Some(p) => Some(p),
                None => {
                    problems.push(Problem::NeverPriced {
                        number: n,
                        name: item.name.clone(),
                    });
                    continue;
                }
            },
            _ if !item.has_rate() => {
                problems.push(Problem::NoRentalRate {
                    number: n,
                    name: item.name.clone(),
                });
                continue;
            }
            _ => None,
        };
        let location = match kind {
            AssetType::FixedAsset => item.location_id,
            _ => addition.location.map(Id::get).or(item.location_id),
        };
        rows.push((item.clone(), kind, quantity, location, sale_price, *bundle));
    }
    for (_, _, _, location, _, _) in &rows {
        if let Some(l) = location
            && !crate::has(tx, "locations", company, *l).await?
        {
            problems.push(Problem::from(format!(
                "location {l} is not a location of this company"
            )));
        }
    }
    if !problems.is_empty() {
        return Err(StoreError::invalid("asset_ids", Problem::Each(problems)));
    }
    for (line, units) in &more {
        let stmt = Query::update()
            .table("order_line_items")
            .value("quantity", Expr::col("quantity").add(*units))
            .value("updated_at", now())
            .and_where(Expr::col("company_id").eq(company.0))
            .and_where(Expr::col("id").eq(*line))
            .to_owned();
        tx.send(&stmt)?;
    }
    let at = now();
    for (item, kind, quantity, location, sale_price, bundle) in &rows {
        let mut row = Assignments::insert();
        row.set("company_id", company.0)
            .set("order_id", order)
            .set("item_id", item.id)
            .set("asset_type", kind.as_str())
            .set("quantity", *quantity)
            .given("location_id", location)
            .set("for_sale", sale_price.is_some())
            .given("sale_price", sale_price)
            .given("rate_per_minute", &item.rate_per_minute)
            .given("rate_hourly", &item.rate_hourly)
            .given("rate_daily", &item.rate_daily)
            .given("rate_weekly", &item.rate_weekly)
            .given("rate_monthly", &item.rate_monthly)
            .given("late_fee_kind", &item.late_fee_kind)
            .given("late_fee_amount", &item.late_fee_amount)
            .given("bundle_id", &bundle.map(|b| b.id))
            .given("bundle_units", &bundle.map(|b| b.set_units))
            .set("created_at", at)
            .set("updated_at", at);
        tx.execute(&row.into_insert("order_line_items")).await?;
    }
    change_log::record(
        tx,
        company,
        "order",
        order,
        "items_added",
        json!({
            "asset_ids": numbers,
            "bundle_ids": bundle_ids,
            "bundle_sets": additions.bundles.iter().map(|b| b.1.get()).collect::<Vec<_>>(),
        }),
    )
    .await?;
    Ok(())
}

/// Takes items off a draft or web order; an item not on it is a 422 and nothing
/// changes.
#[tracing::instrument(level = "debug", skip_all)]
pub async fn remove_items(
    db: &Db,
    company: CompanyId,
    number: Number<kind::Order>,
    numbers: Vec<Number<kind::Item>>,
    (bundles, complete): (Vec<Id<kind::Bundle>>, bool),
) -> Result<OrderView, StoreError> {
    let (numbers, bundles) = (Number::raw(&numbers), Id::raw(&bundles));
    let mut tx = db.begin().await?;
    let order = lock(&mut tx, company, number).await?;
    let state = order.state();
    if !matches!(state, OrderState::Drafted | OrderState::WebOrder) {
        return Err(StoreError::Conflict(Conflict::OrderState {
            number: number.get(),
            state,
            action: "remove items from",
        }));
    }
    let lines = lines_of(&mut tx, company, order.id).await?;
    let on_order: HashSet<i64> = lines.iter().map(|l| l.sequence_num).collect();
    let bundles_on: HashSet<i64> = lines.iter().filter_map(|l| l.bundle_id).collect();
    let mut missing: Vec<String> = numbers
        .iter()
        .filter(|n| !on_order.contains(n))
        .map(|n| format!("#{n}"))
        .collect();
    missing.extend(
        bundles
            .iter()
            .filter(|b| !bundles_on.contains(b))
            .map(|b| format!("{b}-b")),
    );
    if !missing.is_empty() {
        return Err(StoreError::invalid(
            "asset_ids",
            format!("not on this order: {}", missing.join(", ")),
        ));
    }
    let (named, named_bundles): (HashSet<i64>, HashSet<i64>) = (
        numbers.iter().copied().collect(),
        bundles.iter().copied().collect(),
    );
    let in_bundle = |l: &&LineItem| l.bundle_id.is_some_and(|b| named_bundles.contains(&b));
    // An order's lines, and so these lists, may be longer than a statement binds:
    // chunks of crate::IN_CHUNK.
    if !complete {
        // The bundle's items stay on the order, each on its own.
        let kept: Vec<i64> = lines.iter().filter(in_bundle).map(|l| l.id).collect();
        crate::execute_in(&mut tx, &kept, |chunk| {
            Query::update()
                .table("order_line_items")
                .value("bundle_id", Option::<i64>::None)
                .and_where(Expr::col("company_id").eq(company.0))
                .and_where(Expr::col("id").is_in(chunk))
                .to_owned()
        })
        .await?;
    }
    let ids: Vec<i64> = lines
        .iter()
        .filter(|l| named.contains(&l.sequence_num) || (complete && in_bundle(l)))
        .map(|l| l.id)
        .collect();
    crate::execute_in(&mut tx, &ids, |chunk| {
        Query::delete()
            .from_table("order_line_items")
            .and_where(Expr::col("company_id").eq(company.0))
            .and_where(Expr::col("id").is_in(chunk))
            .to_owned()
    })
    .await?;
    change_log::record(
        &mut tx,
        company,
        "order",
        order.id,
        "items_removed",
        json!({"asset_ids": numbers, "bundle_ids": bundles, "remove_complete_bundle": complete}),
    )
    .await?;
    let view = reprice(&mut tx, company, order.id, Ceiling::refuse()).await?;
    tx.commit().await?;
    Ok(view)
}

/// Whether item `item` is on any order (it cannot be deleted then).
pub(crate) async fn holds_item(
    tx: &mut Tx,
    company: CompanyId,
    item: i64,
) -> Result<bool, StoreError> {
    let stmt = Query::select()
        .from("order_line_items")
        .column("order_id")
        .and_where(Expr::col("company_id").eq(company.0))
        .and_where(Expr::col("item_id").eq(item))
        .limit(1)
        .to_owned();
    Ok(tx.optional::<(i64,)>(&stmt).await?.is_some())
}
