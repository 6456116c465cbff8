//! Stock of inventory and asset stock: what each location holds (`stock_levels`), the
//! movements that change it (add stock, sale, transfer), the minimum wanted per
//! location, and the quantities the location endpoints answer.
//!
//! Every movement locks the item's row first (`item_core::lock`), then changes the
//! location's level with a conditional statement (`quantity >= n`) and the item's
//! total in the same transaction, so two requests on one item queue and a location
//! never gives more than it holds. Check-outs of asset stock are in
//! `stock_checkouts.rs` and use [`take`] and [`put`] too.

use crate::CompanyId;
use crate::ids::{Id, Kind, Number, kind};
use domain::Vocabulary;
use domain::item::{AssetType, ItemState};
use domain::money::Money;
use domain::refusal::Conflict;
use domain::stock::{OrderType, Quantity};
use sea_query::{Expr, ExprTrait, OnConflict, Order, Query, SelectStatement};
use serde_json::json;

use crate::custom_fields::merge_values;
use crate::item_core::{self, Clock, Locked, Today};
use crate::items::{self, ItemView};
use crate::{Db, StoreError, Tx, now};

/// Drops the stock levels of item `number` (the item is being deleted).
pub(crate) fn forget(tx: &mut Tx, company: CompanyId, number: i64) -> Result<(), StoreError> {
    let stmt = Query::delete()
        .from_table("stock_levels")
        .and_where(Expr::col("company_id").eq(company.0))
        .and_where(Expr::col("item_sequence_num").eq(number))
        .to_owned();
    tx.send(&stmt)?;
    Ok(())
}

/// Units of item `number` on hand at `location` (0 when none was ever there).
async fn level(
    tx: &mut Tx,
    company: CompanyId,
    number: i64,
    location: i64,
) -> Result<i64, StoreError> {
    let stmt = Query::select()
        .column("quantity")
        .from("stock_levels")
        .and_where(Expr::col("company_id").eq(company.0))
        .and_where(Expr::col("location_id").eq(location))
        .and_where(Expr::col("item_sequence_num").eq(number))
        .to_owned();
    Ok(tx.optional::<(i64,)>(&stmt).await?.map_or(0, |q| q.0))
}

async fn location_name(
    tx: &mut Tx,
    company: CompanyId,
    location: i64,
) -> Result<String, StoreError> {
    Ok(tx
        .optional::<(String,)>(&location_read(company, location))
        .await?
        .map_or_else(|| format!("location {location}"), |n| n.0))
}

/// The read of location `location`'s name.
fn location_read(company: CompanyId, location: i64) -> SelectStatement {
    crate::scoped("locations", company)
        .column("name")
        .and_where(Expr::col("id").eq(location))
        .to_owned()
}

/// The name of location `location` as `read` ([`location_read`]) found it, refused (422
/// on `field`) when it is not the company's: a check of the location and the read of
/// its name for the history in one.
fn location_found(
    found: Vec<(String,)>,
    location: Id<kind::Location>,
    field: &str,
) -> Result<String, StoreError> {
    found.into_iter().next().map(|n| n.0).ok_or_else(|| {
        StoreError::invalid(
            field,
            format!("is not a location of this company: {location}"),
        )
    })
}

/// The name of location `location`, refused (422 on `field`) when it is not the
/// company's ([`location_found`]).
async fn named_location(
    tx: &mut Tx,
    company: CompanyId,
    location: Id<kind::Location>,
    field: &str,
) -> Result<String, StoreError> {
    let found = tx.all(&location_read(company, location.get())).await?;
    location_found(found, location, field)
}

/// Where the units a movement takes from a location go, or those it puts at one come
/// from, which decides what else of the item's totals changes with the location's level.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Side {
    /// Not the item's (sold, used up; or new units): its total on hand moves alone.
    Outside,
    /// Checked out (to a member or on an order), counted in `checked_out_quantity`
    /// until back: that moves the other way.
    CheckedOut,
    /// Another of its locations (a transfer): its totals stay.
    Location,
}

/// Takes `quantity` units of `item` from `location`, refused (422 on `field`) when the
/// location holds fewer; the item's totals change as `side` says, in one statement.
pub(crate) async fn take(
    tx: &mut Tx,
    company: CompanyId,
    item: &Locked,
    (location, side): (i64, Side),
    quantity: Quantity,
    field: &str,
) -> Result<(), StoreError> {
    let n = quantity.get();
    let stmt = Query::update()
        .table("stock_levels")
        .value("quantity", Expr::col("quantity").sub(n))
        .and_where(Expr::col("company_id").eq(company.0))
        .and_where(Expr::col("location_id").eq(location))
        .and_where(Expr::col("item_sequence_num").eq(item.sequence_num))
        .and_where(Expr::col("quantity").gte(n))
        .returning_col("location_id")
        .to_owned();
    // The location's minimum, read after the units left: one round trip with them.
    let minimum = thresholds_select(company, item)
        .and_where(Expr::col(("stock_thresholds", "location_id")).eq(location))
        .to_owned();
    let mut reads = tx.read_together(&[&stmt, &minimum]).await?;
    if reads.next::<(i64,)>(tx)?.is_empty() {
        let held = level(tx, company, item.sequence_num, location).await?;
        let name = location_name(tx, company, location).await?;
        return Err(StoreError::invalid(
            field,
            format!(
                "is more than in stock: {name} holds {held} unit(s) of asset #{}, not {n}",
                item.sequence_num
            ),
        ));
    }
    let threshold = reads.next::<Threshold>(tx)?.into_iter().next();
    crossed_threshold(tx, company, item, (location, threshold), n).await?;
    match side {
        Side::Outside => total(tx, company, item.id, (-n, 0)),
        Side::CheckedOut => total(tx, company, item.id, (-n, n)),
        // The units' arrival counts.
        Side::Location => Ok(()),
    }
}

/// Tells, as the webhook event `stock.threshold_crossed`, that taking `taken` units
/// from `location` brought it under the item's minimum there (`threshold`, read after).
async fn crossed_threshold(
    tx: &mut Tx,
    company: CompanyId,
    item: &Locked,
    (location, threshold): (i64, Option<Threshold>),
    taken: i64,
) -> Result<(), StoreError> {
    let Some(Threshold {
        minimum, quantity, ..
    }) = threshold
    else {
        return Ok(());
    };
    let low = domain::stock::is_low;
    if low(quantity, minimum) && !low(quantity + taken, minimum) {
        let details = json!({"location_id": location, "minimum": minimum, "quantity": quantity});
        crate::outbox::emit(tx, company, "item", item.id, "threshold_crossed", &details).await?;
    }
    Ok(())
}

/// Puts `quantity` units of `item` at `location`; the item's totals change as `side`
/// says, in one statement.
pub(crate) fn put(
    tx: &mut Tx,
    company: CompanyId,
    item: &Locked,
    (location, side): (i64, Side),
    quantity: Quantity,
) -> Result<(), StoreError> {
    let n = quantity.get();
    let stmt = Query::insert()
        .into_table("stock_levels")
        .columns(["company_id", "location_id", "item_sequence_num", "quantity"])
        .values_panic([
            company.0.into(),
            location.into(),
            item.sequence_num.into(),
            n.into(),
        ])
        .on_conflict(
            OnConflict::columns(["company_id", "location_id", "item_sequence_num"])
                .value(
                    "quantity",
                    Expr::col(("stock_levels", "quantity"))
                        .add(Expr::col(("excluded", "quantity"))),
                )
                .to_owned(),
        )
        .to_owned();
    tx.send(&stmt)?;
    match side {
        Side::Outside => total(tx, company, item.id, (n, 0)),
        Side::CheckedOut => total(tx, company, item.id, (n, -n)),
        Side::Location => total(tx, company, item.id, (0, 0)),
    }
}

/// Adds `on_hand` to the item's `quantity` and `out` to its `checked_out_quantity`, and
/// marks it updated: one statement.
fn total(
    tx: &mut Tx,
    company: CompanyId,
    item: i64,
    (on_hand, out): (i64, i64),
) -> Result<(), StoreError> {
    let mut stmt = Query::update();
    stmt.table("items").value("updated_at", now());
    for (column, delta) in [("quantity", on_hand), ("checked_out_quantity", out)] {
        if delta != 0 {
            stmt.value(column, Expr::col(column).add(delta));
        }
    }
    let stmt = stmt
        .and_where(Expr::col("company_id").eq(company.0))
        .and_where(Expr::col("id").eq(item))
        .to_owned();
    tx.send(&stmt)
}

/// The full name of whoever acts: the member signed in to the staff pages
/// (`acting::as_member`), else, with the company's token, its owner.
pub(crate) async fn actor(tx: &mut Tx, company: CompanyId) -> Result<String, StoreError> {
    Ok(acting(tx.all(&actor_read(company)).await?))
}

/// The read of [`actor`].
pub(crate) fn actor_read(company: CompanyId) -> SelectStatement {
    let who = match crate::acting::member() {
        Some(member) => Expr::col("id").eq(member),
        None => Expr::col("is_owner").eq(true),
    };
    crate::scoped("members", company)
        .expr(Expr::cust(r#""first_name" || ' ' || "last_name""#))
        .and_where(who)
        .limit(1)
        .to_owned()
}

/// The actor's name as [`actor_read`] found it.
pub(crate) fn acting(found: Vec<(String,)>) -> String {
    found
        .into_iter()
        .next()
        .map_or_else(|| "Account Owner".into(), |n| n.0)
}

/// An item of stock locked for a movement, with whoever acts ([`actor`], named in the
/// movement's history) read in the round trip of its lock.
pub(crate) struct Stocked {
    pub(crate) item: Locked,
    pub(crate) actor: String,
}

/// Locks item `number`, which must be of `kind` and not retired, reading whoever acts
/// with it.
pub(crate) async fn lock_stocked(
    tx: &mut Tx,
    company: CompanyId,
    kind: AssetType,
    number: i64,
) -> Result<Stocked, StoreError> {
    let actor = actor_read(company);
    let (item, mut reads) =
        item_core::lock_reading(tx, company, Number::new(number), &[&actor]).await?;
    let actor = acting(reads.next(tx)?);
    let item = item.of_kind(kind)?;
    if item.state() == ItemState::Retired {
        return Err(StoreError::Conflict(Conflict::Retired { number }));
    }
    Ok(Stocked { item, actor })
}

/// Where most units of `item` are (the lowest location id among equals); `None` when
/// none is anywhere.
pub(crate) async fn fullest(
    tx: &mut Tx,
    company: CompanyId,
    item: &Locked,
) -> Result<Option<i64>, StoreError> {
    let stmt = by_units(company, item)
        .and_where(Expr::col("quantity").gt(0))
        .take();
    Ok(tx.optional::<(i64,)>(&stmt).await?.map(|l| l.0))
}

/// Where units of `item` come back without a location given: the location holding
/// most of its units, or, with every unit out, one that held them (its level is 0, not
/// gone); `None` when it was never stocked anywhere.
pub(crate) async fn home(
    tx: &mut Tx,
    company: CompanyId,
    item: &Locked,
) -> Result<Option<i64>, StoreError> {
    Ok(tx
        .optional::<(i64,)>(&by_units(company, item))
        .await?
        .map(|l| l.0))
}

/// The first of `item`'s locations by units held, most first.
fn by_units(company: CompanyId, item: &Locked) -> SelectStatement {
    Query::select()
        .column("location_id")
        .from("stock_levels")
        .and_where(Expr::col("company_id").eq(company.0))
        .and_where(Expr::col("item_sequence_num").eq(item.sequence_num))
        .order_by("quantity", Order::Desc)
        .order_by("location_id", Order::Asc)
        .limit(1)
        .take()
}

/// `location` if given (it must be the company's), else the item's own location;
/// without either, a 422 on `field`.
pub(crate) async fn location_or_default(
    tx: &mut Tx,
    company: CompanyId,
    item: &Locked,
    location: Option<Id<kind::Location>>,
    field: &str,
) -> Result<(i64, String), StoreError> {
    match location.or(item.location_id.map(Id::new)) {
        Some(l) => Ok((l.get(), named_location(tx, company, l, field).await?)),
        None => Err(StoreError::invalid(
            field,
            format!(
                "can't be blank: asset #{} has no location of its own, so say where the stock is",
                item.sequence_num
            ),
        )),
    }
}

fn money(units: Option<i64>) -> Option<String> {
    units.map(|u| Money::from_minor(u).to_decimal_string())
}

/// A stock addition or a sale.
#[derive(Debug, Clone)]
pub struct Movement {
    pub order_type: OrderType,
    pub quantity: Quantity,
    /// Per unit, minor units (required to add stock; the HTTP layer says so).
    pub price: Option<i64>,
    /// The item's own location when `None`.
    pub location: Option<Id<kind::Location>>,
    pub comments: Option<String>,
    /// Custom field values of the movement (`add_stock_values[c_attr_vals]`, ...).
    pub values: crate::custom_fields::FieldValues,
    /// A sale: the member the units go to (their approved reservations that have
    /// begun are fulfilled), if any.
    pub member: Option<Id<kind::Member>>,
    /// A sale: sell over other members' approved reservations (they become removed).
    pub override_conflicting: bool,
}

/// Adds stock to (`Add Stock`) or sells stock of (`New Sale`, inventory only) item
/// `number` of `kind` at a location; a sale of more than the location holds is a 422,
/// one that leaves fewer units than others' approved reservations need a 409, and
/// neither changes anything.
#[tracing::instrument(level = "debug", skip_all)]
pub async fn order(
    db: &Db,
    company: CompanyId,
    kind: AssetType,
    number: Number<kind::Item>,
    movement: Movement,
    clock: &Clock,
) -> Result<ItemView, StoreError> {
    let mut tx = item_core::begin(db, company, number).await?;
    let Stocked { item, actor } = lock_stocked(&mut tx, company, kind, number.get()).await?;
    let (location, location_name) =
        location_or_default(&mut tx, company, &item, movement.location, "location_id").await?;
    let mut fulfilled = Vec::new();
    let (action, after) = match movement.order_type {
        OrderType::AddStock => {
            put(
                &mut tx,
                company,
                &item,
                (location, Side::Outside),
                movement.quantity,
            )?;
            if let Some(price) = movement.price {
                // The latest addition's price is the unit price an order sells it at.
                let stmt = Query::update()
                    .table("items")
                    .value("unit_price", price)
                    .and_where(Expr::col("company_id").eq(company.0))
                    .and_where(Expr::col("id").eq(item.id))
                    .to_owned();
                tx.send(&stmt)?;
            }
            ("stock_added", item.quantity + movement.quantity.get())
        }
        OrderType::NewSale => {
            if let Some(member) = movement.member {
                crate::members::active_member(&mut tx, company, member, "user_id").await?;
            }
            take(
                &mut tx,
                company,
                &item,
                (location, Side::Outside),
                movement.quantity,
                "quantity",
            )
            .await?;
            fulfilled = crate::reservations::make_room(
                &mut tx,
                company,
                &item,
                crate::reservations::Leaving {
                    member: movement.member.map(Id::get),
                    quantity: movement.quantity.get(),
                    until: None,
                    override_conflicting: movement.override_conflicting,
                },
                clock,
            )
            .await?;
            ("sold", item.quantity - movement.quantity.get())
        }
        other => {
            return Err(StoreError::invalid(
                "order_type",
                format!("{} is not a stock addition or a sale", other.as_str()),
            ));
        }
    };
    let details = json!({
        "order_type": movement.order_type.as_str(),
        "quantity": movement.quantity.get(),
        "quantity_after_transaction": after,
        "price": money(movement.price),
        "location_id": location,
        "location_name": location_name,
        "comments": movement.comments,
        "c_attr_vals": serde_json::from_str::<serde_json::Value>(&merge_values("{}", &movement.values)).unwrap_or_default(),
        "user_full_name": actor,
        "sold_to_id": movement.member,
        "reservations_fulfilled": fulfilled,
    });
    items::finish(tx, company, item.id, (action, details), Today(clock.today)).await
}

/// What an import row says item `number` (of `kind`) holds at `location` (else its own
/// location): a new item's opening stock (`created`), added as `Add Stock` is; an
/// existing item's must already be that many, since an import moves no stock (its
/// export imports back unchanged). 0 units of a new item writes nothing.
pub async fn import_level_in(
    tx: &mut Tx,
    company: CompanyId,
    kind: AssetType,
    number: i64,
    location: Option<Id<kind::Location>>,
    units: i64,
    created: bool,
) -> Result<(), StoreError> {
    let Stocked { item, actor } = lock_stocked(tx, company, kind, number).await?;
    let (location, location_name) =
        location_or_default(tx, company, &item, location, "location_id").await?;
    if !created {
        let now = level(tx, company, number, location).await?;
        if now != units {
            return Err(StoreError::invalid(
                "quantity",
                format!(
                    "differs from the {now} units at {location_name} now: an import moves no stock; use order or transfer_stock",
                ),
            ));
        }
        return Ok(());
    }
    let Ok(quantity) = Quantity::new(units) else {
        return Ok(());
    };
    put(tx, company, &item, (location, Side::Outside), quantity)?;
    let details = json!({
        "order_type": OrderType::AddStock.as_str(),
        "quantity": units,
        "quantity_after_transaction": item.quantity + units,
        "location_id": location,
        "location_name": location_name,
        "comments": "imported",
        "user_full_name": actor,
    });
    item_core::history(tx, company, item.id, "stock_added", details).await
}

/// The units items `numbers` hold at each location that has any (or had: a level of
/// 0 stays), by number and location (an export's rows): one statement.
pub async fn levels_of(
    db: &Db,
    company: CompanyId,
    numbers: &[i64],
) -> Result<Vec<(i64, i64, i64)>, StoreError> {
    if numbers.is_empty() {
        return Ok(Vec::new());
    }
    let stmt = Query::select()
        .columns(["item_sequence_num", "location_id", "quantity"])
        .from("stock_levels")
        .and_where(Expr::col("company_id").eq(company.0))
        .and_where(Expr::col("item_sequence_num").is_in(numbers.iter().copied()))
        .order_by("item_sequence_num", Order::Asc)
        .order_by("location_id", Order::Asc)
        .to_owned();
    db.read().all(&stmt).await
}

/// A move of stock between two locations of the company.
#[derive(Debug, Clone)]
pub struct Transfer {
    pub quantity: Quantity,
    pub from: i64,
    pub to: i64,
    pub price: Option<i64>,
    pub comments: Option<String>,
}

/// Moves units of item `number` from one location to another in one transaction: the
/// total stays the same, the source never goes below zero (a 422 otherwise).
#[tracing::instrument(level = "debug", skip_all)]
pub async fn transfer(
    db: &Db,
    company: CompanyId,
    kind: AssetType,
    number: Number<kind::Item>,
    transfer: Transfer,
    today: Today,
) -> Result<ItemView, StoreError> {
    let mut tx = item_core::begin(db, company, number).await?;
    let Stocked { item, actor } = lock_stocked(&mut tx, company, kind, number.get()).await?;
    // Both locations checked and named in one round trip.
    let (from, to) = (
        location_read(company, transfer.from),
        location_read(company, transfer.to),
    );
    let mut reads = tx.read_together(&[&from, &to]).await?;
    // Both refusals at once when neither location is the company's.
    let mut errors = crate::FieldErrors::new();
    let mut names = [String::new(), String::new()];
    for (name, (field, l)) in names.iter_mut().zip([
        ("from_location", transfer.from),
        ("to_location", transfer.to),
    ]) {
        match location_found(reads.next(&mut tx)?, Id::new(l), field) {
            Ok(found) => *name = found,
            Err(StoreError::Invalid(problem)) => errors.extend(problem),
            Err(other) => return Err(other),
        }
    }
    if !errors.is_empty() {
        return Err(StoreError::Invalid(errors));
    }
    let [from_name, to_name] = names;
    let between = |location| (location, Side::Location);
    take(
        &mut tx,
        company,
        &item,
        between(transfer.from),
        transfer.quantity,
        "quantity",
    )
    .await?;
    put(
        &mut tx,
        company,
        &item,
        between(transfer.to),
        transfer.quantity,
    )?;
    let details = json!({
        "order_type": OrderType::Transfer.as_str(),
        "quantity": transfer.quantity.get(),
        "quantity_after_transaction": item.quantity,
        "price": money(transfer.price),
        "from_location_id": transfer.from,
        "from_location_name": from_name,
        "location_id": transfer.to,
        "location_name": to_name,
        "comments": transfer.comments,
        "user_full_name": actor,
    });
    items::finish(tx, company, item.id, ("transferred", details), today).await
}

/// The units of item `number` on hand at `location`: fixed assets count 1 when
/// available there. Unknown item or location: 404.
#[tracing::instrument(level = "debug", skip_all)]
pub async fn quantity_at(
    db: &Db,
    company: CompanyId,
    number: Number<kind::Item>,
    location: Id<kind::Location>,
) -> Result<i64, StoreError> {
    let mut tx = db.begin_read().await?;
    let stmt = crate::scoped("items", company)
        .columns(["asset_type", "state", "location_id"])
        .and_where(Expr::col("sequence_num").eq(number))
        .to_owned();
    let (asset_type, state, at): (String, String, Option<i64>) = tx
        .optional(&stmt)
        .await?
        .ok_or(StoreError::NotFound(Kind::Item))?;
    if !crate::has(&mut tx, "locations", company, location).await? {
        return Err(StoreError::invalid(
            "location_id",
            format!("is not a location of this company: {location}"),
        ));
    }
    let quantity = if asset_type == AssetType::FixedAsset.as_str() {
        i64::from(at == Some(location.get()) && state == ItemState::Available.as_str())
    } else {
        level(&mut tx, company, number.get(), location.get()).await?
    };
    tx.commit().await?;
    Ok(quantity)
}

/// A location's minimum of one item, with what it holds now.
#[derive(Debug, Clone, crate::Row)]
pub struct Threshold {
    pub location_id: i64,
    pub location_name: String,
    pub minimum: i64,
    pub quantity: i64,
}

impl Threshold {
    pub fn is_low(&self) -> bool {
        domain::stock::is_low(self.quantity, self.minimum)
    }
}

async fn thresholds_of(
    tx: &mut Tx,
    company: CompanyId,
    item: &Locked,
) -> Result<Vec<Threshold>, StoreError> {
    let stmt = thresholds_select(company, item)
        .order_by(("stock_thresholds", "location_id"), Order::Asc)
        .to_owned();
    tx.all(&stmt).await
}

/// The item's minimums with its units at each of their locations ([`Threshold`]).
fn thresholds_select(company: CompanyId, item: &Locked) -> SelectStatement {
    Query::select()
        .from("stock_thresholds")
        .column(("stock_thresholds", "location_id"))
        .column(("stock_thresholds", "minimum"))
        .expr_as(Expr::col(("locations", "name")), "location_name")
        .expr_as(
            Expr::cust(r#"COALESCE("stock_levels"."quantity", 0)"#),
            "quantity",
        )
        .inner_join(
            "locations",
            Expr::col(("locations", "company_id"))
                .equals(("stock_thresholds", "company_id"))
                .and(Expr::col(("locations", "id")).equals(("stock_thresholds", "location_id"))),
        )
        .left_join(
            "stock_levels",
            Expr::col(("stock_levels", "company_id"))
                .equals(("stock_thresholds", "company_id"))
                .and(
                    Expr::col(("stock_levels", "location_id"))
                        .equals(("stock_thresholds", "location_id")),
                )
                .and(Expr::col(("stock_levels", "item_sequence_num")).eq(item.sequence_num)),
        )
        .and_where(Expr::col(("stock_thresholds", "company_id")).eq(company.0))
        .and_where(Expr::col(("stock_thresholds", "item_id")).eq(item.id))
        .to_owned()
}

/// The minimums of item `number` of `kind` per location (at most one per location of
/// the company: a fixed number of rows, answered whole).
#[tracing::instrument(level = "debug", skip_all)]
pub async fn thresholds(
    db: &Db,
    company: CompanyId,
    kind: AssetType,
    number: Number<kind::Item>,
) -> Result<Vec<Threshold>, StoreError> {
    let mut tx = db.begin_read().await?;
    let item = item_core::row(&mut tx, company, number)
        .await?
        .of_kind(kind)?;
    let found = thresholds_of(&mut tx, company, &item).await?;
    tx.commit().await?;
    Ok(found)
}

/// Sets (`Some`) or removes (`None`) the minimum of item `number` at each location
/// given, in one transaction; answers every minimum of the item.
#[tracing::instrument(level = "debug", skip_all)]
pub async fn set_thresholds(
    db: &Db,
    company: CompanyId,
    kind: AssetType,
    number: Number<kind::Item>,
    minimums: &[(i64, Option<i64>)],
) -> Result<Vec<Threshold>, StoreError> {
    let mut tx = item_core::begin(db, company, number).await?;
    let item = item_core::lock(&mut tx, company, number)
        .await?
        .of_kind(kind)?;
    let locations: Vec<i64> = minimums.iter().map(|m| m.0).collect();
    if let Some(problem) = crate::unknown_ids(
        &mut tx,
        crate::scoped("locations", company),
        &locations,
        "location",
    )
    .await?
    {
        return Err(StoreError::invalid("thresholds", problem));
    }
    let at = now();
    for (location, minimum) in minimums {
        match minimum {
            Some(m) => {
                let stmt = Query::insert()
                    .into_table("stock_thresholds")
                    .columns([
                        "company_id",
                        "item_id",
                        "location_id",
                        "minimum",
                        "updated_at",
                    ])
                    .values_panic([
                        company.0.into(),
                        item.id.into(),
                        (*location).into(),
                        (*m).into(),
                        at.into(),
                    ])
                    .on_conflict(
                        OnConflict::columns(["company_id", "item_id", "location_id"])
                            .update_columns(["minimum", "updated_at"])
                            .to_owned(),
                    )
                    .to_owned();
                tx.send(&stmt)?;
            }
            None => {
                let stmt = Query::delete()
                    .from_table("stock_thresholds")
                    .and_where(Expr::col("company_id").eq(company.0))
                    .and_where(Expr::col("item_id").eq(item.id))
                    .and_where(Expr::col("location_id").eq(*location))
                    .to_owned();
                tx.send(&stmt)?;
            }
        }
    }
    let changes: serde_json::Map<String, serde_json::Value> = minimums
        .iter()
        .map(|(l, m)| (l.to_string(), json!(m)))
        .collect();
    item_core::history(
        &mut tx,
        company,
        item.id,
        "thresholds_set",
        json!({"minimums": changes}),
    )
    .await?;
    let found = thresholds_of(&mut tx, company, &item).await?;
    tx.commit().await?;
    Ok(found)
}
