//! Sub-rental items (`add_sub_rent_item.api`): rented from someone else for one order,
//! described by name, priced at `price` × `quantity` for the order's period (a sale
//! when not for rent). Those for rent go out with the order and must come back with
//! it (`subrent_item_ids` of a partial return).

use crate::CompanyId;
use crate::ids::{Number, kind};
use chrono::{DateTime, Utc};
use domain::order::OrderState;
use domain::pricing::Ceiling;
use domain::refusal::Conflict;
use domain::stock::Quantity;
use sea_query::{Expr, ExprTrait, Order as SqlOrder, Query};
use serde_json::json;

use super::lock;
use super::priced::{OrderView, reprice};
use crate::{Db, StoreError, Tx, change_log};

/// A sub-rental item as stored.
#[derive(Debug, Clone, crate::Row)]
pub struct SubRentItem {
    pub id: i64,
    pub name: String,
    pub is_for_rent: bool,
    pub location: Option<String>,
    pub quantity: i64,
    pub item_no: Option<String>,
    /// Minor units, per unit.
    pub price: i64,
    pub returned_at: Option<DateTime<Utc>>,
    pub created_at: DateTime<Utc>,
}

impl SubRentItem {
    /// Out with the order and not back yet.
    pub fn is_out(&self) -> bool {
        self.is_for_rent && self.returned_at.is_none()
    }
}

/// A sub-rental item to add.
#[derive(Debug, Clone)]
pub struct NewSubRentItem {
    pub name: String,
    pub is_for_rent: bool,
    pub location: Option<String>,
    pub quantity: Quantity,
    pub item_no: Option<String>,
    pub price: i64,
}

/// The read of the sub-rental items of order `order`, oldest first.
pub(super) fn sub_rentals_read(
    company: CompanyId,
    order: impl Into<Expr>,
) -> sea_query::SelectStatement {
    crate::scoped("order_sub_rent_items", company)
        .columns([
            "id",
            "name",
            "is_for_rent",
            "location",
            "quantity",
            "item_no",
            "price",
            "returned_at",
            "created_at",
        ])
        .and_where(Expr::col("order_id").eq(order))
        .order_by("id", SqlOrder::Asc)
        .to_owned()
}

/// Marks sub-rental items `ids` of order `order` returned at `at`.
pub(super) fn mark_returned(
    tx: &mut Tx,
    company: CompanyId,
    order: i64,
    ids: &[i64],
    at: DateTime<Utc>,
) -> Result<(), StoreError> {
    if ids.is_empty() {
        return Ok(());
    }
    let stmt = Query::update()
        .table("order_sub_rent_items")
        .value("returned_at", at)
        .and_where(Expr::col("company_id").eq(company.0))
        .and_where(Expr::col("order_id").eq(order))
        .and_where(Expr::col("id").is_in(ids.to_vec()))
        .to_owned();
    tx.send(&stmt)?;
    Ok(())
}

/// Adds a sub-rental item to an order not yet returned or closed (Draft, Web Order,
/// Booked, Rented Out; 409 otherwise).
#[tracing::instrument(level = "debug", skip_all)]
pub async fn add_sub_rent_item(
    db: &Db,
    company: CompanyId,
    number: Number<kind::Order>,
    item: NewSubRentItem,
) -> Result<OrderView, StoreError> {
    let mut tx = db.begin().await?;
    let order = lock(&mut tx, company, number).await?;
    if !matches!(
        order.state(),
        OrderState::Drafted | OrderState::WebOrder | OrderState::Booked | OrderState::CheckedOut
    ) {
        return Err(StoreError::Conflict(Conflict::OrderState {
            number: number.get(),
            state: order.state(),
            action: "add a sub-rental item to",
        }));
    }
    let insert = Query::insert()
        .into_table("order_sub_rent_items")
        .columns([
            "company_id",
            "order_id",
            "name",
            "is_for_rent",
            "location",
            "quantity",
            "item_no",
            "price",
            "created_at",
        ])
        .values_panic([
            company.0.into(),
            order.id.into(),
            item.name.clone().into(),
            item.is_for_rent.into(),
            item.location.clone().into(),
            item.quantity.get().into(),
            item.item_no.clone().into(),
            item.price.into(),
            crate::now().into(),
        ])
        .returning(Query::returning().column("id"))
        .to_owned();
    let (id,): (i64,) = tx.one(&insert).await?;
    change_log::record(
        &mut tx,
        company,
        "order",
        order.id,
        "sub_rent_item_added",
        json!({
            "id": id,
            "name": item.name,
            "is_for_rent": item.is_for_rent,
            "quantity": item.quantity.get(),
            "price": domain::money::Money::from_minor(item.price).to_decimal_string(),
        }),
    )
    .await?;
    let view = reprice(&mut tx, company, order.id, Ceiling::refuse()).await?;
    tx.commit().await?;
    Ok(view)
}
