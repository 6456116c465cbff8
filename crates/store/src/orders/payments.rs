//! What customers pay for an order: pre-payments (`charge_pre_payment.api`), cash at
//! the sale or the return, and voiding a payment (`mark_void.api`). Every payment is a
//! row of `payment_histories`; `orders.amount_paid` is the sum of those not voided,
//! kept in the same transaction. A credit-card method is refused (403) both ways.

use crate::CompanyId;
use crate::ids::{Id, Number, kind};
use chrono::{DateTime, Utc};
use domain::Vocabulary;
use domain::order::{OrderAction, OrderState};
use domain::payment::PaymentKind;
use domain::pricing::Ceiling;
use domain::refusal::{Conflict, Forbidden};
use sea_query::{Expr, ExprTrait, Order as SqlOrder, Query};
use serde_json::json;

use super::booking::{next, set_state};
use super::priced::{OrderView, reprice};
use super::{Order, lock};
use crate::{Db, StoreError, Tx, change_log};

/// A payment taken.
#[derive(Debug, Clone)]
pub struct Payment {
    /// Minor units, above 0.
    pub amount: i64,
    /// The name of one of the company's payment options.
    pub method: String,
    pub paid_at: DateTime<Utc>,
    pub notes: Option<String>,
}

/// Why a payment was taken.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Purpose {
    PrePayment,
    AtSale,
    AtReturn,
}

impl Vocabulary for Purpose {
    const ALL: &'static [Self] = &[Purpose::PrePayment, Purpose::AtSale, Purpose::AtReturn];

    fn as_str(self) -> &'static str {
        match self {
            Purpose::PrePayment => "pre_payment",
            Purpose::AtSale => "sale",
            Purpose::AtReturn => "return",
        }
    }
}

/// A row of an order's payment history.
#[derive(Debug, Clone, crate::Row)]
pub struct PaymentRecord {
    pub id: i64,
    pub purpose: String,
    pub amount: i64,
    pub payment_method_name: String,
    pub payment_method_kind: String,
    pub paid_at: DateTime<Utc>,
    pub notes: Option<String>,
    pub voided_at: Option<DateTime<Utc>>,
    pub created_at: DateTime<Utc>,
}

const COLUMNS: [&str; 9] = [
    "id",
    "purpose",
    "amount",
    "payment_method_name",
    "payment_method_kind",
    "paid_at",
    "notes",
    "voided_at",
    "created_at",
];

/// The payments of order `order`, oldest first.
pub(super) async fn of_order(
    tx: &mut Tx,
    company: CompanyId,
    order: i64,
) -> Result<Vec<PaymentRecord>, StoreError> {
    tx.all(&payments_read(company, order)).await
}

/// The read of [`of_order`].
pub(super) fn payments_read(company: CompanyId, order: i64) -> sea_query::SelectStatement {
    crate::scoped("payment_histories", company)
        .columns(COLUMNS)
        .and_where(Expr::col("order_id").eq(order))
        .order_by("id", SqlOrder::Asc)
        .to_owned()
}

/// Records `payment` for `order` and adds it to what the order has been paid: the
/// method must be a payment option of the company (422) and not a credit card (403).
pub(super) async fn take(
    tx: &mut Tx,
    company: CompanyId,
    order: &Order,
    purpose: Purpose,
    payment: &Payment,
) -> Result<i64, StoreError> {
    let option = crate::payment_options::by_name(tx, company, &payment.method).await?;
    if option.kind == PaymentKind::CreditCard {
        return Err(StoreError::Forbidden(Forbidden::CreditCardPayment));
    }
    let at = crate::now();
    let insert = Query::insert()
        .into_table("payment_histories")
        .columns([
            "company_id",
            "order_id",
            "purpose",
            "amount",
            "payment_method_name",
            "payment_method_kind",
            "paid_at",
            "notes",
            "created_at",
        ])
        .values_panic([
            company.0.into(),
            order.id.into(),
            purpose.as_str().into(),
            payment.amount.into(),
            option.name.clone().into(),
            option.kind.as_str().into(),
            payment.paid_at.into(),
            payment.notes.clone().into(),
            at.into(),
        ])
        .returning(Query::returning().column("id"))
        .to_owned();
    let (id,): (i64,) = tx.one(&insert).await?;
    paid(tx, company, order.id, payment.amount)?;
    change_log::record(
        tx,
        company,
        "order",
        order.id,
        "payment_taken",
        json!({
            "payment_history_id": id,
            "purpose": purpose.as_str(),
            "amount": domain::money::Money::from_minor(payment.amount).to_decimal_string(),
            "payment_method_name": option.name,
            "paid_at": payment.paid_at,
            "notes": payment.notes,
        }),
    )
    .await?;
    Ok(id)
}

/// Adds `delta` to the order's `amount_paid`.
fn paid(tx: &mut Tx, company: CompanyId, order: i64, delta: i64) -> Result<(), StoreError> {
    let stmt = Query::update()
        .table("orders")
        .value("amount_paid", Expr::col("amount_paid").add(delta))
        .and_where(Expr::col("company_id").eq(company.0))
        .and_where(Expr::col("id").eq(order))
        .to_owned();
    tx.send(&stmt)?;
    Ok(())
}

/// Refused (409 naming the state) when the order is closed: Completed, Void, Sold or
/// Cancelled.
pub(super) fn not_closed(order: &Order, action: &'static str) -> Result<(), StoreError> {
    match order.state() {
        OrderState::Drafted
        | OrderState::WebOrder
        | OrderState::Booked
        | OrderState::CheckedOut
        | OrderState::Returned => Ok(()),
        state => Err(StoreError::Conflict(Conflict::OrderState {
            number: order.sequence_num,
            state,
            action,
        })),
    }
}

/// A returned order whose payments now cover its balance is completed.
pub(super) async fn settle_if_paid(
    tx: &mut Tx,
    company: CompanyId,
    order: &Order,
    view: &OrderView,
    at: DateTime<Utc>,
) -> Result<bool, StoreError> {
    if order.state() != OrderState::Returned || view.order.balance_due > 0 {
        return Ok(false);
    }
    let state = next(order, OrderAction::Settle)?;
    set_state(
        tx,
        company,
        order.id,
        state,
        vec![("completed_on", at.into())],
    )
    .await?;
    change_log::record(
        tx,
        company,
        "order",
        order.id,
        "completed",
        json!({"completed_on": at}),
    )
    .await?;
    Ok(true)
}

/// Takes a pre-payment for an order that is not closed; a returned order it pays off
/// is completed.
#[tracing::instrument(level = "debug", skip_all)]
pub async fn pre_pay(
    db: &Db,
    company: CompanyId,
    number: Number<kind::Order>,
    payment: Payment,
) -> Result<OrderView, StoreError> {
    let mut tx = db.begin().await?;
    let order = lock(&mut tx, company, number).await?;
    not_closed(&order, "take a payment for")?;
    take(&mut tx, company, &order, Purpose::PrePayment, &payment).await?;
    let mut view = reprice(&mut tx, company, order.id, Ceiling::refuse()).await?;
    if settle_if_paid(&mut tx, company, &order, &view, payment.paid_at).await? {
        view = reprice(&mut tx, company, order.id, Ceiling::refuse()).await?;
    }
    tx.commit().await?;
    Ok(view)
}

/// Voids payment `id` of the order: it stays in the history, marked voided, and no
/// longer counts as paid. `None` when the order has no such payment; 409 when it is
/// voided already or the order is closed, 403 for a credit-card payment.
#[tracing::instrument(level = "debug", skip_all)]
pub async fn void_payment(
    db: &Db,
    company: CompanyId,
    number: Number<kind::Order>,
    id: Id<kind::PaymentHistory>,
) -> Result<Option<OrderView>, StoreError> {
    let mut tx = db.begin().await?;
    let order = lock(&mut tx, company, number).await?;
    let Some(payment) = of_order(&mut tx, company, order.id)
        .await?
        .into_iter()
        .find(|p| p.id == id.get())
    else {
        return Ok(None);
    };
    if payment.payment_method_kind == PaymentKind::CreditCard.as_str() {
        return Err(StoreError::Forbidden(Forbidden::CreditCardPayment));
    }
    if payment.voided_at.is_some() {
        return Err(StoreError::Conflict(Conflict::PaymentVoided {
            number: number.get(),
            id: id.get(),
        }));
    }
    not_closed(&order, "void a payment of")?;
    let at = crate::now();
    let stmt = Query::update()
        .table("payment_histories")
        .value("voided_at", at)
        .and_where(Expr::col("company_id").eq(company.0))
        .and_where(Expr::col("id").eq(id))
        .to_owned();
    tx.send(&stmt)?;
    paid(&mut tx, company, order.id, -payment.amount)?;
    change_log::record(
        &mut tx,
        company,
        "order",
        order.id,
        "payment_voided",
        json!({
            "payment_history_id": id,
            "amount": domain::money::Money::from_minor(payment.amount).to_decimal_string(),
        }),
    )
    .await?;
    // Paid less: no figure grows past the ceiling that was not past it already.
    let view = reprice(&mut tx, company, order.id, Ceiling::clamp()).await?;
    tx.commit().await?;
    Ok(Some(view))
}
