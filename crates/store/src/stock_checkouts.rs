//! Check-outs of asset stock: a quantity taken from a location to a member is a line
//! item (`stock_line_items`) until every unit is checked in again; check-ins may be
//! partial (`stock_checkins`). The units out are at no location: they leave the
//! location's level on check-out and come back to a location on check-in, and the
//! item's `checked_out_quantity` follows, all in one transaction after the item's row
//! is locked.

use crate::CompanyId;
use crate::ids::{Id, Number, kind};
use chrono::{DateTime, Utc};
use domain::availability::Holder;
use domain::item::AssetType;
use domain::refusal::Problem;
use domain::stock::{CheckoutStatus, OrderType, Quantity};
use domain::{Page, Vocabulary};
use sea_query::{Cond, Expr, ExprTrait, Order, Query, SelectStatement};
use serde_json::json;
use std::collections::BTreeMap;

use crate::availability::{self, Hold};
use crate::custom_fields::merge_values;
use crate::item_core::{self, Clock, Today};
use crate::items::{self, ItemView};
use crate::stock::{self, actor};
use crate::{Db, PageOf, StoreError, Tx, now};

/// A line item: units of an asset stock item checked out to a member.
#[derive(Debug, Clone, crate::Row)]
pub struct LineItem {
    pub id: i64,
    pub item_id: i64,
    pub member_id: i64,
    pub location_id: i64,
    pub checked_out_to_location_id: Option<i64>,
    pub quantity: i64,
    pub quantity_out: i64,
    pub price: Option<i64>,
    pub comments: Option<String>,
    pub custom_attributes: String,
    pub checkout_on: DateTime<Utc>,
    pub checkin_due_on: Option<DateTime<Utc>>,
    pub returned_on: Option<DateTime<Utc>>,
    pub sequence_num: i64,
    pub asset_name: String,
    pub member_name: String,
}

const COLUMNS: [&str; 13] = [
    "id",
    "item_id",
    "member_id",
    "location_id",
    "checked_out_to_location_id",
    "quantity",
    "quantity_out",
    "price",
    "comments",
    "custom_attributes",
    "checkout_on",
    "checkin_due_on",
    "returned_on",
];

fn li(c: &'static str) -> Expr {
    Expr::col(("stock_line_items", c))
}

fn select(company: CompanyId) -> SelectStatement {
    Query::select()
        .from("stock_line_items")
        .columns(COLUMNS.map(|c| ("stock_line_items", c)))
        .expr_as(Expr::col(("items", "sequence_num")), "sequence_num")
        .expr_as(Expr::col(("items", "name")), "asset_name")
        .expr_as(
            Expr::cust(r#""members"."first_name" || ' ' || "members"."last_name""#),
            "member_name",
        )
        .inner_join(
            "items",
            Cond::all()
                .add(Expr::col(("items", "company_id")).equals(("stock_line_items", "company_id")))
                .add(Expr::col(("items", "id")).equals(("stock_line_items", "item_id"))),
        )
        .inner_join(
            "members",
            Cond::all()
                .add(
                    Expr::col(("members", "company_id")).equals(("stock_line_items", "company_id")),
                )
                .add(Expr::col(("members", "id")).equals(("stock_line_items", "member_id"))),
        )
        .and_where(li("company_id").eq(company.0))
        .to_owned()
}

/// A check-out of asset stock.
#[derive(Debug, Clone)]
pub struct StockCheckout {
    pub member: Id<kind::Member>,
    pub quantity: Quantity,
    /// Where the units are taken from; the item's own location when `None`.
    pub location: Option<Id<kind::Location>>,
    /// Where the units go (kept on the line item; they count at no location).
    pub to_location: Option<Id<kind::Location>>,
    /// When they are due back; `None`: no end.
    pub due: Option<DateTime<Utc>>,
    pub price: Option<i64>,
    pub comments: Option<String>,
    pub values: crate::custom_fields::FieldValues,
    /// Check out over other members' approved reservations (they are removed).
    pub override_conflicting: bool,
}

/// The check-out as it was written, with the item as it now is.
#[derive(Debug, Clone)]
pub struct CheckedOut {
    pub item: ItemView,
    pub line_item: LineItem,
}

/// Checks `quantity` units of asset stock `number` out to a member: refused (422)
/// when the location holds fewer, (409) when other members' approved reservations
/// for the period need the units, unless overridden.
#[tracing::instrument(level = "debug", skip_all)]
pub async fn check_out(
    db: &Db,
    company: CompanyId,
    number: Number<kind::Item>,
    checkout: StockCheckout,
    clock: &Clock,
) -> Result<CheckedOut, StoreError> {
    let mut tx = item_core::begin(db, company, number).await?;
    let stock::Stocked { item, actor } =
        stock::lock_stocked(&mut tx, company, AssetType::StockAsset, number.get()).await?;
    let holder =
        crate::members::active_member(&mut tx, company, checkout.member, "user_id").await?;
    if let Some(due) = checkout.due
        && due <= clock.now
    {
        return Err(StoreError::invalid(
            "till",
            "must be later than now: the units are due back after they go out",
        ));
    }
    let (location, _) =
        stock::location_or_default(&mut tx, company, &item, checkout.location, "location_id")
            .await?;
    item_core::check_location(
        &mut tx,
        company,
        checkout.to_location,
        "checked_out_to_location_id",
    )
    .await?;
    // The location must hold the units (422), then they must fit beside what else is
    // promised of the item until they are back (409).
    let n = checkout.quantity.get();
    stock::take(
        &mut tx,
        company,
        &item,
        (location, stock::Side::CheckedOut),
        checkout.quantity,
        "quantity",
    )
    .await?;
    let fulfilled = crate::reservations::make_room(
        &mut tx,
        company,
        &item,
        crate::reservations::Leaving {
            member: Some(checkout.member.get()),
            quantity: checkout.quantity.get(),
            until: checkout.due,
            override_conflicting: checkout.override_conflicting,
        },
        clock,
    )
    .await?;
    let at = now();
    let insert = Query::insert()
        .into_table("stock_line_items")
        .columns([
            "company_id",
            "item_id",
            "member_id",
            "location_id",
            "checked_out_to_location_id",
            "quantity",
            "quantity_out",
            "price",
            "comments",
            "custom_attributes",
            "checkout_on",
            "checkin_due_on",
            "created_at",
            "updated_at",
        ])
        .values_panic([
            company.0.into(),
            item.id.into(),
            checkout.member.into(),
            location.into(),
            checkout.to_location.into(),
            n.into(),
            n.into(),
            checkout.price.into(),
            checkout.comments.clone().into(),
            merge_values("{}", &checkout.values).into(),
            at.into(),
            checkout.due.into(),
            at.into(),
            at.into(),
        ])
        .returning(Query::returning().column("id"))
        .to_owned();
    let (line,): (i64,) = tx.one(&insert).await?;
    let details = json!({
        "order_type": OrderType::Checkout.as_str(),
        "is_checkout": true,
        "line_item_id": line,
        "quantity": n,
        "quantity_after_transaction": item.quantity - n,
        "assigned_to_id": checkout.member,
        "assigned_to_name": holder,
        "location_id": location,
        "checked_out_to_location_id": checkout.to_location,
        "checkout_on": at,
        "checkin_due_on": checkout.due,
        "comments": checkout.comments,
        "reservations_fulfilled": fulfilled,
        "user_full_name": actor,
    });
    let line_item = one(&mut tx, company, line).await?;
    let item = items::finish(
        tx,
        company,
        item.id,
        ("checked_out", details),
        Today(clock.today),
    )
    .await?;
    Ok(CheckedOut { item, line_item })
}

async fn one(tx: &mut Tx, company: CompanyId, id: i64) -> Result<LineItem, StoreError> {
    let stmt = select(company).and_where(li("id").eq(id)).to_owned();
    tx.one(&stmt).await
}

/// The open line items `ids` of item `item`, locked; any other id is a 422 on
/// `selected_line_items`.
async fn open_line_items(
    tx: &mut Tx,
    company: CompanyId,
    item: i64,
    number: i64,
    ids: &[i64],
) -> Result<Vec<LineItem>, StoreError> {
    let stmt = select(company)
        .and_where(li("item_id").eq(item))
        .and_where(li("id").is_in(ids.to_vec()))
        .and_where(li("quantity_out").gt(crate::constant(0)))
        .order_by(("stock_line_items", "id"), Order::Asc)
        .to_owned();
    let found: Vec<LineItem> = tx.all(&stmt).await?;
    let missing: Vec<i64> = ids
        .iter()
        .copied()
        .filter(|id| !found.iter().any(|l| l.id == *id))
        .collect();
    if !missing.is_empty() {
        return Err(StoreError::invalid(
            "selected_line_items",
            Problem::NotOpenCheckouts {
                number,
                line_items: missing,
            },
        ));
    }
    Ok(found)
}

/// A check-in of asset stock.
#[derive(Debug, Clone)]
pub struct StockCheckin {
    pub line_items: Vec<i64>,
    /// Units to check in; `None`: all that each line item still has out. Given, it
    /// applies to one line item only (the HTTP layer says so).
    pub quantity: Option<Quantity>,
    /// Where the units come back; each line item's own location when `None`.
    pub location: Option<Id<kind::Location>>,
    /// When they came back; now when `None`.
    pub at: Option<DateTime<Utc>>,
    pub comments: Option<String>,
    pub values: crate::custom_fields::FieldValues,
}

/// Checks units of asset stock `number` in from the selected line items: a line item
/// keeps what is not checked in.
#[tracing::instrument(level = "debug", skip_all)]
pub async fn check_in(
    db: &Db,
    company: CompanyId,
    number: Number<kind::Item>,
    checkin: StockCheckin,
    clock: &Clock,
) -> Result<ItemView, StoreError> {
    let mut tx = item_core::begin(db, company, number).await?;
    let item = item_core::lock(&mut tx, company, number)
        .await?
        .of_kind(AssetType::StockAsset)?;
    let lines =
        open_line_items(&mut tx, company, item.id, number.get(), &checkin.line_items).await?;
    let at = checkin.at.unwrap_or(clock.now);
    if at > clock.now {
        return Err(StoreError::invalid(
            "actual_checkin_on",
            "is in the future: a check-in is recorded when the units are back",
        ));
    }
    if let Some(early) = lines.iter().find(|l| l.checkout_on > at) {
        return Err(StoreError::invalid(
            "actual_checkin_on",
            format!(
                "is before line item {} was checked out; give a moment after its check-out",
                early.id
            ),
        ));
    }
    if let (Some(q), [line]) = (checkin.quantity, lines.as_slice())
        && q.get() > line.quantity_out
    {
        return Err(StoreError::invalid(
            "quantity",
            format!(
                "is more than line item {} has out: {} unit(s), not {}",
                line.id,
                line.quantity_out,
                q.get()
            ),
        ));
    }
    item_core::check_location(&mut tx, company, checkin.location, "location_id").await?;
    let values = merge_values("{}", &checkin.values);
    let mut after = item.quantity;
    let mut returned = Vec::new();
    for line in &lines {
        let n = checkin.quantity.map_or(line.quantity_out, Quantity::get);
        let location = checkin.location.unwrap_or(Id::new(line.location_id));
        let quantity = Quantity::new(n).map_err(|p| StoreError::invalid("quantity", p))?;
        let back = (location.get(), stock::Side::CheckedOut);
        stock::put(&mut tx, company, &item, back, quantity)?;
        let left = line.quantity_out - n;
        let update = Query::update()
            .table("stock_line_items")
            .value("quantity_out", Expr::col("quantity_out").sub(n))
            .value("returned_on", if left == 0 { Some(at) } else { None })
            .value("updated_at", now())
            .and_where(Expr::col("company_id").eq(company.0))
            .and_where(Expr::col("id").eq(line.id))
            .and_where(Expr::col("quantity_out").gte(n))
            .to_owned();
        tx.send(&update)?;
        let insert = Query::insert()
            .into_table("stock_checkins")
            .columns([
                "company_id",
                "line_item_id",
                "quantity",
                "location_id",
                "checked_in_on",
                "comments",
                "custom_attributes",
                "created_at",
            ])
            .values_panic([
                company.0.into(),
                line.id.into(),
                n.into(),
                location.into(),
                at.into(),
                checkin.comments.clone().into(),
                values.clone().into(),
                now().into(),
            ])
            .to_owned();
        tx.send(&insert)?;
        after += n;
        returned.push(json!({
            "line_item_id": line.id,
            "quantity": n,
            "quantity_left_out": left,
            "assigned_to_id": line.member_id,
            "assigned_to_name": line.member_name,
            "location_id": location,
        }));
    }
    let total: i64 = returned.iter().filter_map(|r| r["quantity"].as_i64()).sum();
    let details = json!({
        "order_type": OrderType::Checkin.as_str(),
        "is_checkout": false,
        "quantity": total,
        "quantity_after_transaction": after,
        "line_items": returned,
        "checkin_on": at,
        "comments": checkin.comments,
        "user_full_name": actor(&mut tx, company).await?,
    });
    items::finish(
        tx,
        company,
        item.id,
        ("checked_in", details),
        Today(clock.today),
    )
    .await
}

/// Moves the due moment of the selected open line items of asset stock `number` to
/// `due` (later than now).
#[tracing::instrument(level = "debug", skip_all)]
pub async fn extend(
    db: &Db,
    company: CompanyId,
    number: Number<kind::Item>,
    line_items: &[i64],
    due: DateTime<Utc>,
    clock: &Clock,
) -> Result<ItemView, StoreError> {
    let mut tx = item_core::begin(db, company, number).await?;
    let item = item_core::lock(&mut tx, company, number)
        .await?
        .of_kind(AssetType::StockAsset)?;
    let lines = open_line_items(&mut tx, company, item.id, number.get(), line_items).await?;
    if due <= clock.now {
        return Err(StoreError::invalid("till", "must be later than now"));
    }
    // The units kept longer must fit beside what else holds the item until then (the
    // holders' own reservations aside).
    let window = (clock.now, due);
    let holders: Vec<i64> = lines.iter().map(|l| l.member_id).collect();
    let rest: Vec<Hold> = availability::holds(&mut tx, company, &item, window, None, clock.tz)
        .await?
        .into_iter()
        .filter(|h| match &h.by {
            Holder::StockCheckout { line, .. } => !line_items.contains(line),
            Holder::Reservation { member_id, .. } => !holders.contains(member_id),
            _ => true,
        })
        .collect();
    let units: i64 = lines.iter().map(|l| l.quantity_out).sum();
    availability::fit(&item, &rest, window, units, clock.tz)?;
    let update = Query::update()
        .table("stock_line_items")
        .value("checkin_due_on", due)
        .value("updated_at", now())
        .and_where(Expr::col("company_id").eq(company.0))
        .and_where(Expr::col("id").is_in(line_items.to_vec()))
        .to_owned();
    tx.send(&update)?;
    let previous: Vec<_> = lines
        .iter()
        .map(|l| json!({"line_item_id": l.id, "previous_due_on": l.checkin_due_on}))
        .collect();
    let details = json!({"checkin_due_on": due, "line_items": previous});
    items::finish(
        tx,
        company,
        item.id,
        ("checkout_extended", details),
        Today(clock.today),
    )
    .await
}

/// The open line items of asset stock `number` in a status, of one member if given,
/// oldest first, 25 a page.
#[tracing::instrument(level = "debug", skip_all)]
pub async fn current(
    db: &Db,
    company: CompanyId,
    number: Number<kind::Item>,
    status: CheckoutStatus,
    member: Option<Id<kind::Member>>,
    p: Page,
    clock: &Clock,
) -> Result<PageOf<LineItem>, StoreError> {
    // The item's row as a lock would read it: absent is a 404, another kind a 409.
    let mut tx = db.begin_read().await?;
    let id = item_core::row(&mut tx, company, number)
        .await?
        .of_kind(AssetType::StockAsset)?
        .id;
    tx.commit().await?;
    let mut cond = Cond::all()
        .add(li("item_id").eq(id))
        .add(li("quantity_out").gt(crate::constant(0)));
    if let Some(m) = member {
        cond = cond.add(li("member_id").eq(m));
    }
    cond = match status {
        CheckoutStatus::All => cond,
        CheckoutStatus::Overdue => cond.add(li("checkin_due_on").lt(clock.now)),
        CheckoutStatus::DueToday => cond
            .add(li("checkin_due_on").gte(clock.today_starts))
            .add(li("checkin_due_on").lt(clock.tomorrow_starts)),
        CheckoutStatus::OnTime => cond.add(
            Cond::any()
                .add(li("checkin_due_on").is_null())
                .add(li("checkin_due_on").gte(clock.now)),
        ),
    };
    page(db, company, cond, p).await
}

async fn page(
    db: &Db,
    company: CompanyId,
    cond: Cond,
    p: Page,
) -> Result<PageOf<LineItem>, StoreError> {
    let base = crate::scoped("stock_line_items", company)
        .cond_where(cond.clone())
        .to_owned();
    let rows = select(company)
        .cond_where(cond)
        .order_by(("stock_line_items", "id"), Order::Asc)
        .to_owned();
    crate::page_of(
        db,
        &base,
        rows,
        ("stock_line_items", "id"),
        p,
        crate::Total::Filtered,
    )
    .await
}

/// One check-in of a line item.
#[derive(Debug, Clone, crate::Row)]
pub struct Checkin {
    pub id: i64,
    pub line_item_id: i64,
    pub quantity: i64,
    pub location_id: i64,
    pub checked_in_on: DateTime<Utc>,
    pub comments: Option<String>,
}

/// A member's check-outs of asset stock, oldest first, 25 a page, each with its
/// check-ins (one more statement for the page).
#[tracing::instrument(level = "debug", skip_all)]
pub async fn member_history(
    db: &Db,
    company: CompanyId,
    member: Id<kind::Member>,
    p: Page,
) -> Result<PageOf<(LineItem, Vec<Checkin>)>, StoreError> {
    crate::members::find(db, company, member).await?;
    let lines = page(db, company, Cond::all().add(li("member_id").eq(member)), p).await?;
    let ids: Vec<i64> = lines.records.iter().map(|l| l.id).collect();
    let mut checkins: BTreeMap<i64, Vec<Checkin>> = BTreeMap::new();
    if !ids.is_empty() {
        let stmt = crate::scoped("stock_checkins", company)
            .columns([
                "id",
                "line_item_id",
                "quantity",
                "location_id",
                "checked_in_on",
                "comments",
            ])
            .and_where(Expr::col("line_item_id").is_in(ids))
            .order_by("id", Order::Asc)
            .to_owned();
        for c in db.read().all::<Checkin>(&stmt).await? {
            checkins.entry(c.line_item_id).or_default().push(c);
        }
    }
    Ok(PageOf {
        records: lines
            .records
            .into_iter()
            .map(|l| {
                let c = checkins.remove(&l.id).unwrap_or_default();
                (l, c)
            })
            .collect(),
        total: lines.total,
    })
}
