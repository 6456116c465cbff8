//! Renting an order out (`checkout.api`): its rented items are promised for the
//! rental period and handed over. A fixed asset becomes `checked_out` on the order;
//! asset stock leaves its location and counts as checked out; inventory, and anything
//! marked for sale, is used up. An order of inventory alone is completed at once.

use crate::CompanyId;
use crate::ids::{Number, kind};
use chrono::{DateTime, Utc};
use domain::Vocabulary;
use domain::item::{AssetType, ItemState};
use domain::order::OrderAction;
use domain::pricing::Ceiling;
use domain::refusal::{Conflict, Problem};
use domain::stock::{OrderType, Quantity};
use sea_query::{Expr, ExprTrait, Query};
use serde_json::json;

use super::booking::{Holding, hold, next, set_state};
use super::lines::{LineItem, lines_read};
use super::priced::{OrderView, reprice};
use super::{Items, Locking, Order, id_of, lock_reading};
use crate::custom_fields::merge_values;
use crate::item_core::{self, Clock};
use crate::{Assignments, Db, StoreError, Tx, change_log, stock};

/// A rent-out: when the items go and come back, the billing period if it differs,
/// and the custom field values recorded with it.
#[derive(Debug, Clone)]
pub struct RentOut {
    /// When the items go out.
    pub from: DateTime<Utc>,
    /// When they are due back; the order's due moment when `None`.
    pub to: Option<DateTime<Utc>>,
    /// The start of billing; kept (or the rent-out moment) when `None`.
    pub bill_from: Option<DateTime<Utc>>,
    /// The end of billing; kept (or the due moment) when `None`.
    pub bill_to: Option<DateTime<Utc>>,
    /// `item_custom_attribute_values`, by custom field id.
    pub values: crate::custom_fields::FieldValues,
}

/// Rents out a draft, web or booked order: 422 when it has no items, no due moment or
/// one already past, 409 when an item is retired, out, or promised elsewhere for part
/// of the period, 422 when a location holds fewer units than a line takes. Nothing
/// changes when refused.
#[tracing::instrument(level = "debug", skip_all)]
pub async fn rent_out(
    db: &Db,
    company: CompanyId,
    number: Number<kind::Order>,
    rent: RentOut,
    clock: &Clock,
) -> Result<OrderView, StoreError> {
    let mut tx = super::begin_on_items(db, company, number).await?;
    // The order with its lines and its coupons, one round trip on PostgreSQL.
    let id = || id_of(company, number);
    let coupons = super::charges::coupon_ids_read(company, id());
    let (order, mut reads) = lock_reading(
        &mut tx,
        company,
        number,
        &[&lines_read(company, id()), &coupons],
    )
    .await?;
    let lines: Vec<LineItem> = reads.next(&mut tx)?;
    let coupons = reads.next(&mut tx)?;
    let only_inventory = lines.iter().all(|l| l.kind() == AssetType::VolatileAsset);
    let state = next(&order, OrderAction::RentOut { only_inventory })?;
    if lines.is_empty() {
        return Err(StoreError::invalid(
            "asset_ids",
            format!("order #{number} has no items to rent out: put some on it first"),
        ));
    }
    let to = period_end(&order, &rent, clock)?;
    let bill_from = rent.bill_from.or(order.bill_from);
    let bill_to = rent.bill_to.or(order.bill_to);
    if bill_to.unwrap_or(to) <= bill_from.unwrap_or(rent.from) {
        return Err(StoreError::invalid(
            "bill_to",
            Problem::BillingEndsBeforeStart,
        ));
    }
    let day = rent.from.with_timezone(&clock.tz).date_naive();
    super::charges::check_coupons_on(&mut tx, company, coupons, day).await?;
    hand_over_all(&mut tx, company, (&order, &lines), (rent.from, to), clock).await?;
    // Their lines are held and due till then (the fixed assets are, handed over).
    hold(&mut tx, company, order.id, Holding::Out(rent.from, to)).await?;
    let values = merge_values(&order.checkout_values, &rent.values);
    let mut more = vec![
        ("checked_out_on", rent.from.into()),
        ("due_at", to.into()),
        ("bill_from", bill_from.into()),
        ("bill_to", bill_to.into()),
        ("checkout_values", values.clone().into()),
    ];
    if only_inventory {
        more.push(("completed_on", rent.from.into()));
    }
    more.extend(super::booking::frozen_settings(company));
    set_state(&mut tx, company, order.id, state, more).await?;
    change_log::record(
        &mut tx,
        company,
        "order",
        order.id,
        "rented_out",
        json!({
            "checked_out_on": rent.from,
            "due_at": to,
            "bill_from": bill_from,
            "bill_to": bill_to,
            "basket_state": state.as_str(),
            "item_custom_attribute_values": serde_json::from_str::<serde_json::Value>(&values).ok(),
        }),
    )
    .await?;
    let view = reprice(&mut tx, company, order.id, Ceiling::refuse()).await?;
    tx.commit().await?;
    Ok(view)
}

/// The items of order `order` still out are held, and due, until `to` (a later due
/// date, the leftovers of a partial return): its lines and the fixed assets rented on
/// it. What was sold is gone: its lines hold nothing.
pub(super) async fn keep_until(
    tx: &mut Tx,
    company: CompanyId,
    order: i64,
    (from, to): (DateTime<Utc>, DateTime<Utc>),
) -> Result<(), StoreError> {
    hold(tx, company, order, Holding::Out(from, to)).await?;
    let assets = Query::update()
        .table("items")
        .value("checkin_due_on", to)
        .and_where(Expr::col("company_id").eq(company.0))
        .and_where(Expr::col("rented_order_id").eq(order))
        .to_owned();
    tx.send(&assets)?;
    Ok(())
}

/// The moment the items are due back: given, or the order's due moment; after the
/// rent-out and after now.
fn period_end(order: &Order, rent: &RentOut, clock: &Clock) -> Result<DateTime<Utc>, StoreError> {
    let Some(to) = rent.to.or(order.due_at) else {
        return Err(StoreError::invalid(
            "return_date",
            "can't be blank: the order has no due date, so say when the items come back",
        ));
    };
    if to <= clock.now {
        return Err(StoreError::invalid(
            "return_date",
            "is in the past: the items must be due back later than now",
        ));
    }
    if to <= rent.from {
        return Err(StoreError::invalid(
            "return_date",
            "must be later than the rent-out moment",
        ));
    }
    Ok(to)
}

/// Which way units of stock on an order line move.
#[derive(Clone, Copy)]
pub(super) enum Way {
    Out,
    Back,
}

/// Where units of stock on an order line go from or come back to: `given` (the
/// request's, the line's or the order's location), else the item's own, else the
/// location holding most of its units (coming back, with every unit out, one that held
/// them: `stock::home`); `None` when there is none of these.
pub(super) async fn stock_location(
    tx: &mut Tx,
    company: CompanyId,
    item: &item_core::Locked,
    given: Option<i64>,
    way: Way,
) -> Result<Option<i64>, StoreError> {
    match (given.or(item.location_id), way) {
        (Some(l), _) => Ok(Some(l)),
        (None, Way::Out) => stock::fullest(tx, company, item).await,
        (None, Way::Back) => stock::home(tx, company, item).await,
    }
}

/// Promises `lines` of `order` for `period` and hands their items over (a rent-out, a
/// sale): locked in one statement, weighed together, each changed from its row as
/// locked.
pub(super) async fn hand_over_all(
    tx: &mut Tx,
    company: CompanyId,
    (order, lines): (&Order, &[LineItem]),
    period: (DateTime<Utc>, DateTime<Utc>),
    clock: &Clock,
) -> Result<(), StoreError> {
    let locked = lines.iter().collect();
    let mut items = super::booking::lock_and_promise_items(
        tx,
        company,
        order,
        (lines, locked),
        Locking::Move,
        period,
        clock.tz,
    )
    .await?;
    for line in lines {
        let item = items.take(tx, company, line.sequence_num).await?;
        hand_over(
            tx,
            company,
            (order, line),
            (item, &mut items),
            period,
            clock,
        )
        .await?;
    }
    Ok(())
}

/// Hands the line's item (`item`, its row locked, one of `items`) over: out on the
/// order, or used up when sold.
async fn hand_over(
    tx: &mut Tx,
    company: CompanyId,
    (order, line): (&Order, &LineItem),
    (item, items): (item_core::Locked, &mut Items),
    (from, to): (DateTime<Utc>, DateTime<Utc>),
    clock: &Clock,
) -> Result<(), StoreError> {
    let sold = line.sold();
    let details = match item.kind() {
        AssetType::FixedAsset => {
            match item.state() {
                ItemState::Retired => {
                    return Err(StoreError::Conflict(Conflict::Retired {
                        number: item.sequence_num,
                    }));
                }
                ItemState::CheckedOut => {
                    return Err(item_core::out_conflict(tx, company, &item).await?);
                }
                ItemState::InService => {
                    return Err(crate::availability::in_service(tx, company, &item).await?);
                }
                ItemState::Available => {}
            }
            let mut row = Assignments::update();
            if sold {
                row.set("state", ItemState::Retired.as_str())
                    .set("retired_on", from.with_timezone(&clock.tz).date_naive());
                crate::reservations::remove_open(tx, company, item.id).await?;
            } else {
                row.set("state", ItemState::CheckedOut.as_str())
                    .set("checkout_on", from)
                    .set("checkin_due_on", to)
                    .set("rented_order_id", order.id);
            }
            tx.send(&row.into_update("items", company, item.id))?;
            json!({"order": order.sequence_num, "sold": sold, "checkout_on": from, "checkin_due_on": to})
        }
        _ => {
            let quantity = Quantity::new(line.quantity - line.quantity_returned)
                .map_err(|p| StoreError::invalid("quantity", p))?;
            let location = stock_location(
                tx,
                company,
                &item,
                line.location_id.or(order.location_id),
                Way::Out,
            )
            .await?
            .ok_or_else(|| {
                StoreError::invalid(
                    "quantity",
                    format!(
                        "is more than in stock: asset #{} has no units at any location",
                        item.sequence_num
                    ),
                )
            })?;
            let side = if sold {
                stock::Side::Outside
            } else {
                stock::Side::CheckedOut
            };
            stock::take(tx, company, &item, (location, side), quantity, "quantity").await?;
            let order_type = if sold {
                OrderType::NewSale
            } else {
                OrderType::Checkout
            };
            json!({
                "order": order.sequence_num,
                "order_type": order_type.as_str(),
                "sold": sold,
                "quantity": quantity.get(),
                "quantity_after_transaction": item.quantity - quantity.get(),
                "location_id": location,
                "checkout_on": from,
                "checkin_due_on": (!sold).then_some(to),
                "user_full_name": items.actor(tx, company).await?,
            })
        }
    };
    let action = if sold {
        "sold_on_order"
    } else {
        "rented_out_on_order"
    };
    change_log::record(tx, company, "item", item.id, action, details).await
}
