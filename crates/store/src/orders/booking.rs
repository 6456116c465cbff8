//! Booking an order for its period, and taking the booking back. Booking promises the
//! order's rented items for the period: each item's row is locked (in id order, after
//! the order's), then everything else promised on it in the period is read and
//! weighed, so two bookings racing for one item queue on its lock and the second sees
//! the first.

use chrono::{DateTime, Duration, Utc};
use domain::item::{AssetType, ItemState, start_of_day};
use domain::order::{OrderAction, OrderState};
use domain::refusal::Conflict;
use domain::reservation::peak_need;
use domain::{CompanyId, Vocabulary};
use sea_query::{Cond, Expr, ExprTrait, Query};
use serde_json::json;

use super::lines::{LineItem, lines_of};
use super::priced::{OrderView, reprice};
use super::{Order, lock};
use crate::items::{self, Clock};
use crate::{Db, StoreError, Tx, change_log};

/// A moment after any period (open-ended holds end there): the last second of year
/// 9999, since moments compare as text on SQLite, where a later year's text sorts
/// before this one's.
fn open_end() -> DateTime<Utc> {
    chrono::NaiveDate::from_ymd_opt(9999, 12, 31)
        .and_then(|d| d.and_hms_opt(23, 59, 59))
        .map_or(DateTime::<Utc>::MAX_UTC, |t| t.and_utc())
}

/// What else is promised of item `item` in `from..=to`: other orders' lines, approved
/// reservations of members, and what members have checked out; as (start, end,
/// units).
async fn claims(
    tx: &mut Tx,
    company: CompanyId,
    item: &items::Locked,
    order: i64,
    from: DateTime<Utc>,
    to: DateTime<Utc>,
    tz: chrono_tz::Tz,
) -> Result<Vec<(DateTime<Utc>, DateTime<Utc>, i64)>, StoreError> {
    #[derive(crate::PgRow, crate::LiteRow)]
    struct Held {
        held_from: DateTime<Utc>,
        held_until: DateTime<Utc>,
        units: i64,
    }
    let stmt = crate::scoped("order_line_items", company)
        .columns(["held_from", "held_until"])
        .expr_as(
            Expr::col("quantity").sub(Expr::col("quantity_returned")),
            "units",
        )
        .and_where(Expr::col("item_id").eq(item.id))
        .and_where(Expr::col("held_from").is_not_null())
        .and_where(Expr::col("held_until").gte(from))
        .and_where(Expr::col("held_from").lte(to))
        .and_where(Expr::col("order_id").ne(order))
        .to_owned();
    let held: Vec<Held> = tx.all(&stmt).await?;
    let mut claims: Vec<_> = held
        .into_iter()
        .map(|h| (h.held_from, h.held_until, h.units))
        .collect();
    let days = (
        from.with_timezone(&tz).date_naive(),
        to.with_timezone(&tz).date_naive(),
    );
    for r in crate::reservations::approved_from(tx, company, item.id, days.0, Some(days.1)).await? {
        let ends = start_of_day(r.to_on + Duration::days(1), tz) - Duration::seconds(1);
        claims.push((start_of_day(r.from_on, tz), ends, r.quantity));
    }
    // In service until its expected end (for good without one).
    if let Some((start, end)) = crate::services::hold_of(tx, company, item).await? {
        claims.push((start, end.unwrap_or_else(open_end), 1));
    }
    match item.kind() {
        // Out to a member (out on an order, its line's hold above counts it).
        AssetType::FixedAsset
            if item.state() == ItemState::CheckedOut && item.rented_order.is_none() =>
        {
            claims.push((
                item.checkout_on.unwrap_or(from),
                item.checkin_due_on.unwrap_or_else(open_end),
                1,
            ))
        }
        AssetType::StockAsset => {
            #[derive(crate::PgRow, crate::LiteRow)]
            struct Out {
                checkout_on: DateTime<Utc>,
                checkin_due_on: Option<DateTime<Utc>>,
                quantity_out: i64,
            }
            let stmt = crate::scoped("stock_line_items", company)
                .columns(["checkout_on", "checkin_due_on", "quantity_out"])
                .and_where(Expr::col("item_id").eq(item.id))
                .and_where(Expr::col("quantity_out").gt(0))
                .to_owned();
            let out: Vec<Out> = tx.all(&stmt).await?;
            claims.extend(out.into_iter().map(|o| {
                (
                    o.checkout_on,
                    o.checkin_due_on.unwrap_or_else(open_end),
                    o.quantity_out,
                )
            }));
        }
        _ => {}
    }
    claims.retain(|c| c.0 <= to && c.1 >= from);
    Ok(claims)
}

/// Refused (409) when anything else holds fixed asset `item` at some moment of
/// `from..until` (for good without an end): an order's booking or rent-out, an
/// approved reservation, a check-out. A service starts only over a free period.
pub(crate) async fn refuse_if_promised(
    tx: &mut Tx,
    company: CompanyId,
    item: &items::Locked,
    (from, until): (DateTime<Utc>, Option<DateTime<Utc>>),
    tz: chrono_tz::Tz,
) -> Result<(), StoreError> {
    let to = until.unwrap_or_else(open_end);
    if claims(tx, company, item, 0, from, to, tz).await?.is_empty() {
        Ok(())
    } else {
        Err(StoreError::Conflict(Conflict::PromisedDuring {
            number: item.sequence_num,
            name: item.name.clone(),
        }))
    }
}

/// Promises the rented lines of `order` for `from..=to`: refused (409 naming the first
/// item short) when an item is retired or what else is promised of it in the period
/// leaves too little.
pub(super) async fn promise(
    tx: &mut Tx,
    company: CompanyId,
    order: &Order,
    lines: &[LineItem],
    (from, to): (DateTime<Utc>, DateTime<Utc>),
    tz: chrono_tz::Tz,
) -> Result<(), StoreError> {
    let mut rented: Vec<&LineItem> = lines
        .iter()
        .filter(|l| !l.for_sale && l.kind() != AssetType::VolatileAsset)
        .collect();
    // Number order, as `items::lock_many` locks them.
    rented.sort_by_key(|l| l.sequence_num);
    for line in rented {
        let item = items::lock(tx, company, line.sequence_num).await?;
        if item.state() == ItemState::Retired {
            return Err(StoreError::Conflict(Conflict::Retired {
                number: line.sequence_num,
            }));
        }
        let units = match item.kind() {
            AssetType::FixedAsset => 1,
            _ => item.quantity + item.checked_out_quantity,
        };
        let held = claims(tx, company, &item, order.id, from, to, tz).await?;
        let promised = peak_need(&held, from, Some(to));
        let wanted = line.quantity - line.quantity_returned;
        if promised + wanted > units {
            return Err(StoreError::Conflict(Conflict::NotAvailable {
                number: line.sequence_num,
                name: item.name.clone(),
                wanted,
                units,
                promised,
            }));
        }
    }
    Ok(())
}

/// The state `action` takes the order to, or a 409 naming its state.
pub(super) fn next(order: &Order, action: OrderAction) -> Result<OrderState, StoreError> {
    order
        .state()
        .next(action)
        .ok_or(StoreError::Conflict(Conflict::OrderState {
            number: order.sequence_num,
            state: order.state(),
            action: action.describe(),
        }))
}

/// The company's pricing settings now, as columns that freeze them on an order (at
/// its rent-out or sale).
pub(super) async fn frozen_settings(
    tx: &mut Tx,
    company: CompanyId,
) -> Result<Vec<(&'static str, sea_query::Value)>, StoreError> {
    let s = super::priced::settings(tx, company).await?;
    Ok(vec![
        ("inclusive_return", s.inclusive_return.into()),
        ("best_pricing", s.best_pricing.into()),
    ])
}

/// Moves order `order` to `state`, with other columns set.
pub(super) async fn set_state(
    tx: &mut Tx,
    company: CompanyId,
    order: i64,
    state: OrderState,
    more: Vec<(&'static str, sea_query::Value)>,
) -> Result<(), StoreError> {
    let mut values = vec![
        ("basket_state", state.as_str().into()),
        ("updated_at", crate::now().into()),
    ];
    values.extend(more);
    let stmt = Query::update()
        .table("orders")
        .values(values.into_iter().map(|(c, v)| (c, Expr::val(v))))
        .and_where(Expr::col("company_id").eq(company.0))
        .and_where(Expr::col("id").eq(order))
        .to_owned();
    tx.execute(&stmt).await?;
    Ok(())
}

/// Books a draft or web order for `from..=to`: its rented items are promised for the
/// period (409 when one is short); the period becomes the order's.
#[tracing::instrument(level = "debug", skip_all)]
pub async fn book(
    db: &Db,
    company: CompanyId,
    number: i64,
    (from, to): (DateTime<Utc>, DateTime<Utc>),
    clock: &Clock,
) -> Result<OrderView, StoreError> {
    if to <= from {
        return Err(StoreError::invalid("to", "must be later than from"));
    }
    if to <= clock.now {
        return Err(StoreError::invalid(
            "to",
            "is in the past: a booking ends later than now",
        ));
    }
    let mut tx = db.begin().await?;
    let order = lock(&mut tx, company, number).await?;
    let state = next(&order, OrderAction::Book)?;
    let lines = lines_of(&mut tx, company, order.id).await?;
    if lines.is_empty() {
        return Err(StoreError::invalid(
            "asset_ids",
            format!("order #{number} has no items to book: put some on it first"),
        ));
    }
    promise(&mut tx, company, &order, &lines, (from, to), clock.tz).await?;
    hold(&mut tx, company, order.id, Some((from, to))).await?;
    set_state(
        &mut tx,
        company,
        order.id,
        state,
        vec![("expected_checkout_at", from.into()), ("due_at", to.into())],
    )
    .await?;
    change_log::record(
        &mut tx,
        company,
        "order",
        order.id,
        "booked",
        json!({"from": from, "to": to}),
    )
    .await?;
    let view = reprice(&mut tx, company, number).await?;
    tx.commit().await?;
    Ok(view)
}

/// Takes a booking back: the order is a draft again and its items are free.
#[tracing::instrument(level = "debug", skip_all)]
pub async fn cancel_booking(
    db: &Db,
    company: CompanyId,
    number: i64,
) -> Result<OrderView, StoreError> {
    let mut tx = db.begin().await?;
    let order = lock(&mut tx, company, number).await?;
    let state = next(&order, OrderAction::CancelBooking)?;
    hold(&mut tx, company, order.id, None).await?;
    set_state(&mut tx, company, order.id, state, Vec::new()).await?;
    change_log::record(
        &mut tx,
        company,
        "order",
        order.id,
        "booking_cancelled",
        json!({}),
    )
    .await?;
    let view = reprice(&mut tx, company, number).await?;
    tx.commit().await?;
    Ok(view)
}

/// The periods item `number` is held by orders (booked or rented out) that end at or
/// after `from`, earliest first.
#[tracing::instrument(level = "debug", skip_all)]
pub async fn item_bookings(
    db: &Db,
    company: CompanyId,
    number: i64,
    from: DateTime<Utc>,
) -> Result<Vec<ItemBooking>, StoreError> {
    let l = |c: &'static str| ("order_line_items", c);
    let o = |c: &'static str| ("orders", c);
    let stmt = Query::select()
        .from("order_line_items")
        .expr_as(Expr::col(o("sequence_num")), "order_number")
        .expr_as(Expr::col(o("basket_state")), "basket_state")
        .expr_as(Expr::col(l("held_from")), "starts")
        .expr_as(Expr::col(l("held_until")), "ends")
        .expr_as(
            Expr::col(l("quantity")).sub(Expr::col(l("quantity_returned"))),
            "units",
        )
        .inner_join(
            "orders",
            Cond::all()
                .add(Expr::col(o("company_id")).equals(l("company_id")))
                .add(Expr::col(o("id")).equals(l("order_id"))),
        )
        .inner_join(
            "items",
            Cond::all()
                .add(Expr::col(("items", "company_id")).equals(l("company_id")))
                .add(Expr::col(("items", "id")).equals(l("item_id"))),
        )
        .and_where(Expr::col(l("company_id")).eq(company.0))
        .and_where(Expr::col(("items", "sequence_num")).eq(number))
        .and_where(Expr::col(l("held_from")).is_not_null())
        .and_where(Expr::col(l("held_until")).gte(from))
        .order_by(l("held_from"), sea_query::Order::Asc)
        .to_owned();
    db.read().all(&stmt).await
}

/// Sets the period the order's rented lines hold their items (`None`: they hold
/// nothing, as in a draft).
pub(super) async fn hold(
    tx: &mut Tx,
    company: CompanyId,
    order: i64,
    period: Option<(DateTime<Utc>, DateTime<Utc>)>,
) -> Result<(), StoreError> {
    let (from, to) = (period.map(|p| p.0), period.map(|p| p.1));
    let stmt = Query::update()
        .table("order_line_items")
        .values([("held_from", from.into()), ("held_until", to.into())])
        .and_where(Expr::col("company_id").eq(company.0))
        .and_where(Expr::col("order_id").eq(order))
        .and_where(Expr::col("for_sale").eq(false))
        .and_where(Expr::col("asset_type").ne(AssetType::VolatileAsset.as_str()))
        .and_where(Expr::col("quantity_returned").lt(Expr::col("quantity")))
        .to_owned();
    tx.execute(&stmt).await?;
    Ok(())
}

/// A period an item is promised to an order.
#[derive(Debug, Clone, crate::PgRow, crate::LiteRow)]
pub struct ItemBooking {
    pub order_number: i64,
    pub basket_state: String,
    pub starts: Option<DateTime<Utc>>,
    pub ends: Option<DateTime<Utc>>,
    pub units: i64,
}
