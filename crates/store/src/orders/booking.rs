//! Booking an order for its period, and taking the booking back. Booking promises the
//! order's items for the period (`availability`): each item's row is locked (in number
//! order, after the order's), then everything else promised of it in the period is
//! read and weighed, so two promises racing for one item queue on its lock and the
//! second sees the first.

use crate::CompanyId;
use crate::ids::{Number, kind};
use chrono::{DateTime, Utc};
use domain::Vocabulary;
use domain::item::{AssetType, ItemState};
use domain::order::{OrderAction, OrderState};
use domain::pricing::Ceiling;
use domain::refusal::{Conflict, Moment, Must, Problem};
use sea_query::{Cond, Expr, ExprTrait, Query, QueryStatementBuilder};
use serde_json::json;

use super::lines::LineItem;
use super::priced::{OrderView, reprice};
use super::{Items, Locking, Order, lock, lock_items, lock_with_lines};
use crate::availability::{Weighing, fit, holds, holds_read, holds_reads, open_end};
use crate::item_core::{self, Clock};
use crate::{Db, StoreError, Tx, change_log};

/// Refused (409 naming what holds it) when anything else holds fixed asset `item` at
/// some moment of `from..until` (for good without an end): a service starts only over
/// a free period.
pub(crate) async fn refuse_if_promised(
    tx: &mut Tx,
    company: CompanyId,
    item: &item_core::Locked,
    (from, until): (DateTime<Utc>, Option<DateTime<Utc>>),
    tz: chrono_tz::Tz,
) -> Result<(), StoreError> {
    let window = (from, until.unwrap_or_else(open_end));
    let held = holds(tx, company, item, window, None, tz).await?;
    fit(item, &held, window, 1, tz)
}

/// Locks the items of the lines of `order` to promise ([`lock_items`]) and promises
/// them for `period` ([`lock_and_promise_items`]).
pub(super) async fn lock_and_promise(
    tx: &mut Tx,
    company: CompanyId,
    order: &Order,
    lines: &[LineItem],
    period: (DateTime<Utc>, DateTime<Utc>),
    tz: chrono_tz::Tz,
) -> Result<(), StoreError> {
    let locked = promised(order, lines);
    lock_and_promise_items(
        tx,
        company,
        order,
        (lines, locked),
        Locking::Weigh,
        period,
        tz,
    )
    .await
    .map(drop)
}

/// Locks the items of `locked` (lines of `order`, for `locking`: [`lock_items`]) and
/// promises the lines of `order` for `from..=to`: rented items for the period; until
/// the order goes out, sold ones from `from` for good. What holds them is read for all
/// together in the lock's round trip (after the lock, which a line's item and kind,
/// known before it, are enough to read for), so an order holds its items' locks one
/// round trip less. Refused (409 naming the first item short and what holds it) when
/// an item is retired or what else is promised of it leaves too little. The items as
/// locked come back.
pub(super) async fn lock_and_promise_items(
    tx: &mut Tx,
    company: CompanyId,
    order: &Order,
    (lines, locked): (&[LineItem], Vec<&LineItem>),
    locking: Locking,
    (from, to): (DateTime<Utc>, DateTime<Utc>),
    tz: chrono_tz::Tz,
) -> Result<Items, StoreError> {
    let mut promised = promised(order, lines);
    promised.sort_by_key(|l| l.sequence_num);
    let weighing: Vec<Weighing> = promised
        .iter()
        .map(|line| Weighing {
            item: line.item_id,
            stock: line.kind() == AssetType::StockAsset,
            out: true,
            window: (from, if line.sold() { open_end() } else { to }),
        })
        .collect();
    let then = holds_reads(company, &weighing, Some(order.id), tz);
    let then: Vec<&(dyn crate::Statement + Sync)> = then
        .iter()
        .map(|r| r as &(dyn crate::Statement + Sync))
        .collect();
    let (items, mut reads) = lock_items(tx, company, locked, locking, &then).await?;
    let weighed = promised
        .iter()
        .zip(&weighing)
        .map(|(line, weighing)| Ok((items.get(line.sequence_num)?, weighing)))
        .collect::<Result<Vec<_>, StoreError>>()?;
    let held = holds_read(tx, &mut reads, company, &weighed, tz).await?;
    for ((line, (item, weighing)), held) in promised.iter().zip(&weighed).zip(&held) {
        if item.state() == ItemState::Retired {
            return Err(StoreError::Conflict(Conflict::Retired {
                number: line.sequence_num,
            }));
        }
        fit(
            item,
            held,
            weighing.window,
            line.quantity - line.quantity_returned,
            tz,
        )?;
    }
    Ok(items)
}

/// The lines of `order` that [`lock_and_promise_items`] weighs: those not all back,
/// less what was sold once the order is out.
fn promised<'a>(order: &Order, lines: &'a [LineItem]) -> Vec<&'a LineItem> {
    // Not yet rented out or sold.
    let selling = order.state().is_open_for_items();
    lines
        .iter()
        .filter(|l| selling || !l.sold())
        .filter(|l| l.quantity > l.quantity_returned)
        .collect()
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

/// The company's pricing settings as columns that freeze them on an order (at its
/// rent-out or sale): read by the order's update itself, no round trip of their own.
pub(super) fn frozen_settings(company: CompanyId) -> Vec<(&'static str, Expr)> {
    let now = |column: &'static str| {
        let read = Query::select()
            .from("companies")
            .column(column)
            .and_where(Expr::col("id").eq(company.0))
            .to_owned();
        Expr::SubQuery(None, Box::new(read.into_sub_query_statement()))
    };
    vec![
        ("inclusive_return", now("inclusive_return")),
        ("best_pricing", now("best_pricing")),
    ]
}

/// Moves order `order` to `state`, with other columns set.
pub(super) async fn set_state(
    tx: &mut Tx,
    company: CompanyId,
    order: i64,
    state: OrderState,
    more: Vec<(&'static str, Expr)>,
) -> Result<(), StoreError> {
    let mut values: Vec<(&'static str, Expr)> = vec![
        ("basket_state", state.as_str().into()),
        ("updated_at", crate::now().into()),
    ];
    values.extend(more);
    let stmt = Query::update()
        .table("orders")
        .values(values)
        .and_where(Expr::col("company_id").eq(company.0))
        .and_where(Expr::col("id").eq(order))
        .to_owned();
    tx.send(&stmt)?;
    Ok(())
}

/// Books a draft or web order for `from..=to`: its rented items are promised for the
/// period (409 when one is short); the period becomes the order's.
#[tracing::instrument(level = "debug", skip_all)]
pub async fn book(
    db: &Db,
    company: CompanyId,
    number: Number<kind::Order>,
    (from, to): (DateTime<Utc>, DateTime<Utc>),
    clock: &Clock,
) -> Result<OrderView, StoreError> {
    if to <= from {
        return Err(StoreError::invalid(
            "to",
            Problem::OutOfOrder {
                must: Must::BeLater,
                other: Moment::From,
            },
        ));
    }
    if to <= clock.now {
        return Err(StoreError::invalid(
            "to",
            "is in the past: a booking ends later than now",
        ));
    }
    let mut tx = super::begin_on_items(db, company, number).await?;
    let (order, lines) = lock_with_lines(&mut tx, company, number).await?;
    let state = next(&order, OrderAction::Book)?;
    if lines.is_empty() {
        return Err(StoreError::invalid(
            "asset_ids",
            format!("order #{number} has no items to book: put some on it first"),
        ));
    }
    lock_and_promise(&mut tx, company, &order, &lines, (from, to), clock.tz).await?;
    hold(&mut tx, company, order.id, Holding::Booked(from, to)).await?;
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
    let view = reprice(&mut tx, company, order.id, Ceiling::refuse()).await?;
    tx.commit().await?;
    Ok(view)
}

/// Takes a booking back: the order is a draft again and its items are free.
#[tracing::instrument(level = "debug", skip_all)]
pub async fn cancel_booking(
    db: &Db,
    company: CompanyId,
    number: Number<kind::Order>,
) -> Result<OrderView, StoreError> {
    let mut tx = db.begin().await?;
    let order = lock(&mut tx, company, number).await?;
    let state = next(&order, OrderAction::CancelBooking)?;
    hold(&mut tx, company, order.id, Holding::Nothing).await?;
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
    // The price is left alone (a booked order is priced as a draft).
    let view = reprice(&mut tx, company, order.id, Ceiling::clamp()).await?;
    tx.commit().await?;
    Ok(view)
}

/// The periods item `number` is held by orders (booked or rented out) that end at or
/// after `from`, earliest first.
#[tracing::instrument(level = "debug", skip_all)]
pub async fn item_bookings(
    db: &Db,
    company: CompanyId,
    number: Number<kind::Item>,
    from: DateTime<Utc>,
) -> Result<Vec<ItemBooking>, StoreError> {
    let l = |c: &'static str| ("order_line_items", c);
    let o = |c: &'static str| ("orders", c);
    let stmt = super::lines_joined(company)
        .expr_as(Expr::col(o("sequence_num")), "order_number")
        .expr_as(Expr::col(o("basket_state")), "basket_state")
        .expr_as(Expr::col(l("held_from")), "starts")
        .expr_as(Expr::col(l("held_until")), "ends")
        .expr_as(
            Expr::col(l("quantity")).sub(Expr::col(l("quantity_returned"))),
            "units",
        )
        .and_where(Expr::col(("items", "sequence_num")).eq(number))
        .and_where(Expr::col(l("held_from")).is_not_null())
        .and_where(Expr::col(l("held_until")).gte(from))
        .order_by(l("held_from"), sea_query::Order::Asc)
        .to_owned();
    db.read().all(&stmt).await
}

/// What an order's lines not yet back hold of their items.
#[derive(Debug, Clone, Copy)]
pub(super) enum Holding {
    /// Nothing, as in a draft (and once the order is sold, cancelled or ended).
    Nothing,
    /// Booked for `from..=to`: rented lines for the period, sold ones from `from` for
    /// good (they leave when the order goes out).
    Booked(DateTime<Utc>, DateTime<Utc>),
    /// Out for `from..=to`: rented lines for the period, and due at `to`; sold ones
    /// are gone and hold nothing.
    Out(DateTime<Utc>, DateTime<Utc>),
}

/// Sets what the lines of `order` not yet back hold (and, out, when they are due), in
/// one statement.
pub(super) async fn hold(
    tx: &mut Tx,
    company: CompanyId,
    order: i64,
    holding: Holding,
) -> Result<(), StoreError> {
    // `domain::order::sold_line` in SQL.
    let sold = || {
        Cond::any()
            .add(Expr::col("for_sale").eq(true))
            .add(Expr::col("asset_type").eq(AssetType::VolatileAsset.as_str()))
    };
    let either = |if_sold: Option<DateTime<Utc>>, rented: DateTime<Utc>| -> Expr {
        Expr::case(sold(), Expr::val(if_sold))
            .finally(Expr::val(rented))
            .into()
    };
    let none = || Expr::val(None::<DateTime<Utc>>);
    let (from, until) = match holding {
        Holding::Nothing => (none(), none()),
        Holding::Booked(from, to) => (Expr::val(from), either(Some(open_end()), to)),
        Holding::Out(from, to) => (either(None, from), either(None, to)),
    };
    let mut stmt = Query::update();
    stmt.table("order_line_items")
        .value("held_from", from)
        .value("held_until", until);
    if let Holding::Out(_, to) = holding {
        // Lines not for sale (inventory rented out too) are due back.
        let due =
            Expr::case(Expr::col("for_sale").eq(false), Expr::val(to)).finally(Expr::col("due_at"));
        stmt.value("due_at", due);
    }
    let stmt = stmt
        .and_where(Expr::col("company_id").eq(company.0))
        .and_where(Expr::col("order_id").eq(order))
        .and_where(Expr::col("quantity_returned").lt(Expr::col("quantity")))
        .to_owned();
    tx.send(&stmt)?;
    Ok(())
}

/// A period an item is promised to an order.
#[derive(Debug, Clone, crate::Row)]
pub struct ItemBooking {
    pub order_number: i64,
    pub basket_state: String,
    pub starts: Option<DateTime<Utc>>,
    pub ends: Option<DateTime<Utc>>,
    pub units: i64,
}
