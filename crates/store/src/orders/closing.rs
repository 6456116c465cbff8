//! Ending an order other than by a return: selling it (`sale_order.api`), cancelling
//! it before it goes out, voiding a completed one; and marking its items for sale
//! first (`sale_items_for_drafted_basket.api`).

use crate::CompanyId;
use crate::ids::{Number, kind};
use chrono::{DateTime, Utc};
use domain::item::AssetType;
use domain::order::{OrderAction, OrderState};
use domain::pricing::Ceiling;
use domain::refusal::Conflict;
use domain::refusal::Problem;
use sea_query::{Expr, ExprTrait, Query};
use serde_json::json;

use super::booking::{Holding, hold, next, set_state};
use super::payments::{Payment, Purpose, take};
use super::priced::{OrderView, reprice};
use super::rent_out::hand_over_all;
use super::{lock, lock_with_lines};
use crate::custom_fields::merge_values;
use crate::item_core::Clock;
use crate::{Db, StoreError, change_log};

/// A sale: when, an optional payment, the custom field values recorded with it.
#[derive(Debug, Clone)]
pub struct Sale {
    pub at: DateTime<Utc>,
    pub payment: Option<Payment>,
    pub values: crate::custom_fields::FieldValues,
}

/// Sells a draft, web or booked order: every item on it must be for sale (inventory
/// always is; others are marked with `mark_for_sale`), and is handed over for good.
#[tracing::instrument(level = "debug", skip_all)]
pub async fn sell(
    db: &Db,
    company: CompanyId,
    number: Number<kind::Order>,
    sale: Sale,
    clock: &Clock,
) -> Result<OrderView, StoreError> {
    let mut tx = super::begin_on_items(db, company, number).await?;
    let (order, lines) = lock_with_lines(&mut tx, company, number).await?;
    let state = next(&order, OrderAction::Sell)?;
    if lines.is_empty() {
        return Err(StoreError::invalid(
            "asset_ids",
            format!("order #{number} has no items to sell: put some on it first"),
        ));
    }
    let rented: Vec<String> = lines
        .iter()
        .filter(|l| !l.for_sale)
        .map(|l| format!("#{}", l.sequence_num))
        .collect();
    if !rented.is_empty() {
        return Err(StoreError::invalid(
            "asset_ids",
            Problem::NotForSale {
                items: rented.join(", "),
            },
        ));
    }
    // Sold for good from the sale: what other orders, members or services hold of the
    // items later must still fit.
    hand_over_all(
        &mut tx,
        company,
        (&order, &lines),
        (sale.at, sale.at),
        clock,
    )
    .await?;
    hold(&mut tx, company, order.id, Holding::Nothing).await?;
    if let Some(payment) = &sale.payment {
        take(&mut tx, company, &order, Purpose::AtSale, payment).await?;
    }
    let values = merge_values(&order.checkout_values, &sale.values);
    let mut more = vec![
        ("completed_on", sale.at.into()),
        ("checkout_values", values.clone().into()),
    ];
    more.extend(super::booking::frozen_settings(company));
    set_state(&mut tx, company, order.id, state, more).await?;
    change_log::record(
        &mut tx,
        company,
        "order",
        order.id,
        "sold",
        json!({
            "sold_on": sale.at,
            "item_custom_attribute_values": serde_json::from_str::<serde_json::Value>(&values).ok(),
        }),
    )
    .await?;
    let view = reprice(&mut tx, company, order.id, Ceiling::refuse()).await?;
    tx.commit().await?;
    Ok(view)
}

/// Cancels a draft, web or booked order: its items are free again.
#[tracing::instrument(level = "debug", skip_all)]
pub async fn cancel(
    db: &Db,
    company: CompanyId,
    number: Number<kind::Order>,
) -> Result<OrderView, StoreError> {
    end(db, company, number, OrderAction::Cancel, "cancelled").await
}

/// Voids a completed order.
#[tracing::instrument(level = "debug", skip_all)]
pub async fn void(
    db: &Db,
    company: CompanyId,
    number: Number<kind::Order>,
) -> Result<OrderView, StoreError> {
    end(db, company, number, OrderAction::Void, "voided").await
}

async fn end(
    db: &Db,
    company: CompanyId,
    number: Number<kind::Order>,
    action: OrderAction,
    word: &str,
) -> Result<OrderView, StoreError> {
    let mut tx = db.begin().await?;
    let order = lock(&mut tx, company, number).await?;
    let state = next(&order, action)?;
    hold(&mut tx, company, order.id, Holding::Nothing).await?;
    set_state(&mut tx, company, order.id, state, Vec::new()).await?;
    change_log::record(&mut tx, company, "order", order.id, word, json!({})).await?;
    // The price is left alone: an order past the ceiling can be cancelled.
    let view = reprice(&mut tx, company, order.id, Ceiling::clamp()).await?;
    tx.commit().await?;
    Ok(view)
}

/// Marks items of a draft or web order for sale at a price each (minor units), and
/// others back for rent. Every number must be on the order (422 naming the others);
/// inventory is always sold.
#[tracing::instrument(level = "debug", skip_all)]
pub async fn mark_for_sale(
    db: &Db,
    company: CompanyId,
    number: Number<kind::Order>,
    for_sale: &[(Number<kind::Item>, i64)],
    for_rent: &[Number<kind::Item>],
) -> Result<OrderView, StoreError> {
    let for_sale: Vec<(i64, i64)> = for_sale.iter().map(|(n, p)| (n.get(), *p)).collect();
    let for_rent = &Number::raw(for_rent)[..];
    let mut tx = db.begin().await?;
    let (order, lines) = lock_with_lines(&mut tx, company, number).await?;
    if !matches!(order.state(), OrderState::Drafted | OrderState::WebOrder) {
        return Err(StoreError::Conflict(Conflict::OrderState {
            number: number.get(),
            state: order.state(),
            action: "mark items for sale on",
        }));
    }
    let line_of = |n: i64| lines.iter().find(|l| l.sequence_num == n);
    let missing = |field: &str, numbers: &mut dyn Iterator<Item = i64>| {
        let absent: Vec<String> = numbers
            .filter(|n| line_of(*n).is_none())
            .map(|n| format!("#{n}"))
            .collect();
        (!absent.is_empty()).then(|| {
            StoreError::invalid(
                field,
                format!("are not on order #{number}: {}", absent.join(", ")),
            )
        })
    };
    if let Some(e) = missing(
        "asset_ids_marked_as_sale",
        &mut for_sale.iter().map(|m| m.0),
    ) {
        return Err(e);
    }
    if let Some(e) = missing(
        "asset_ids_marked_for_non_sale",
        &mut for_rent.iter().copied(),
    ) {
        return Err(e);
    }
    let inventory: Vec<String> = for_rent
        .iter()
        .filter_map(|n| line_of(*n))
        .filter(|l| l.kind() == AssetType::VolatileAsset)
        .map(|l| format!("#{}", l.sequence_num))
        .collect();
    if !inventory.is_empty() {
        return Err(StoreError::invalid(
            "asset_ids_marked_for_non_sale",
            format!(
                "are inventory, which is always sold: {}",
                inventory.join(", ")
            ),
        ));
    }
    let mut changes: Vec<(i64, Option<i64>)> = for_sale
        .iter()
        .filter_map(|(n, price)| line_of(*n).map(|l| (l.id, Some(*price))))
        .collect();
    changes.extend(
        for_rent
            .iter()
            .filter_map(|n| line_of(*n).map(|l| (l.id, None))),
    );
    for (line, price) in &changes {
        let stmt = Query::update()
            .table("order_line_items")
            .values([
                ("for_sale", price.is_some().into()),
                ("sale_price", (*price).into()),
                ("updated_at", crate::now().into()),
            ])
            .and_where(Expr::col("company_id").eq(company.0))
            .and_where(Expr::col("id").eq(*line))
            .to_owned();
        tx.send(&stmt)?;
    }
    change_log::record(
        &mut tx,
        company,
        "order",
        order.id,
        "sale_items_marked",
        json!({
            "for_sale": for_sale.iter().map(|(n, p)| json!({"sequence_num": n, "sale_price": domain::money::Money::from_minor(*p).to_decimal_string()})).collect::<Vec<_>>(),
            "for_rent": for_rent,
        }),
    )
    .await?;
    let view = reprice(&mut tx, company, order.id, Ceiling::refuse()).await?;
    tx.commit().await?;
    Ok(view)
}
