//! Payments of an order: a pre-payment (`charge_pre_payment.api`), voiding one
//! (`payment_histories/<id>/mark_void.api`), and the optional payment a sale or a
//! return carries (`basket[cash_paid]` and the rest).

use axum::extract::State;
use chrono::{DateTime, NaiveDate, NaiveTime, Utc};
use domain::Change;
use store::orders::{self, Payment};

use super::answer;
use super::input::{PaidAmount, both, set_at};
use crate::api::{Api, Doc, put_or_patch};
use crate::auth::Tenant;
use crate::error::ApiError;
use crate::form::Form;
use crate::ids::{Id, Number, kind};
use crate::input::{Input, Scalar, TimeOfDay};
use crate::params::Params;
use crate::resources::assets::clock;
use crate::state::AppState;
use crate::views;

pub(super) fn routes(api: Api) -> Api {
    api.route(
        "/baskets/{sequence_num}/charge_pre_payment",
        put_or_patch(pre_pay),
        Doc::new(
            "Orders",
            "Take a payment for an order that is not closed (PATCH or PUT); a Returned order it pays off is Completed. 403 for a credit-card payment option; 409 for a Completed, Void, Sold or Cancelled order",
        )
        .input::<PrePaid>()
        .input::<PrePayMethod>()
        .returns("basket")
        .record::<super::OrderJson<'_>>(),
    )
    .route(
        "/baskets/{sequence_num}/payment_histories/{id}/mark_void",
        put_or_patch(mark_void),
        Doc::new(
            "Orders",
            "Void a payment of the order (PATCH or PUT): it stays in payment_histories, voided, and no longer counts in amount_paid. 403 for a credit-card payment; 409 when voided already or the order is Completed, Void, Sold or Cancelled",
        )
        .returns("basket")
        .record::<super::OrderJson<'_>>(),
    )
}

/// When a payment was made. Its problems name the parameters as sent
/// (`basket[payment_date]`).
#[derive(Input)]
pub(super) struct PaidAt {
    /// The day it was paid; default today (now).
    #[input(rename = "basket[payment_date]")]
    payment_date: Option<NaiveDate>,
    /// hh:mm; default 00:00 of payment_date (only with it).
    #[input(rename = "basket[payment_time]", format = TimeOfDay, needs = "basket[payment_date]")]
    payment_time: Option<NaiveTime>,
}

/// The payment a sale or a return may carry: its amount and moment (beside
/// [`PaymentBasket`]).
#[derive(Input)]
pub(super) struct CashPaid {
    /// An amount paid now, above 0 (optional); not by credit card.
    #[input(rename = "basket[cash_paid]", format = PaidAmount)]
    cash_paid: Option<i64>,
    #[input(flatten)]
    at: PaidAt,
}

/// The payment option and notes of a sale's or a return's payment.
#[derive(Input)]
#[input(resource = "basket")]
pub(super) struct PaymentBasket {
    /// The payment option it is paid with (GET /payment_options.api); default Cash.
    payment_method_name: Option<String>,
    /// Text; `null` is none.
    payment_notes: Change<String>,
}

/// A pre-payment's amount and moment.
#[derive(Input)]
struct PrePaid {
    /// An amount above 0.
    #[input(rename = "basket[pre_paid_amount]", format = PaidAmount)]
    pre_paid_amount: i64,
    #[input(flatten)]
    at: PaidAt,
}

/// A pre-payment's option and notes.
#[derive(Input)]
#[input(resource = "basket")]
struct PrePayMethod {
    /// A payment option of the company (GET /payment_options.api), not a credit card.
    #[input(format = OptionName)]
    payment_method_name: String,
    /// Text; `null` is none.
    payment_notes: Change<String>,
}

/// The name of a payment option.
struct OptionName;

impl Scalar for OptionName {
    type Value = String;

    fn parse(raw: &str) -> Result<String, String> {
        String::parse(raw)
    }

    fn schema() -> serde_json::Value {
        String::schema()
    }

    fn blank() -> String {
        "can't be blank: name a payment option (GET /payment_options.api)".to_owned()
    }
}

fn paid_at(at: PaidAt, clock: &store::items::Clock) -> DateTime<Utc> {
    set_at(at.payment_date, at.payment_time, NaiveTime::MIN, clock.tz).unwrap_or(clock.now)
}

fn notes(notes: Change<String>) -> Option<String> {
    match notes {
        Change::Set(n) => Some(n),
        _ => None,
    }
}

/// The optional payment of a sale or a return (`basket[cash_paid]` ...).
pub(super) fn optional_payment(
    cash: CashPaid,
    basket: PaymentBasket,
    clock: &store::items::Clock,
) -> Option<Payment> {
    Some(Payment {
        amount: cash.cash_paid?,
        method: basket
            .payment_method_name
            .unwrap_or_else(|| "Cash".to_owned()),
        paid_at: paid_at(cash.at, clock),
        notes: notes(basket.payment_notes),
    })
}

async fn pre_pay(
    State(state): State<AppState>,
    tenant: Tenant,
    Number(number): Number<kind::Order>,
    params: Params,
) -> Result<views::Reply, ApiError> {
    let clock = clock(&tenant);
    let mut top = Form::new(&params, "");
    let paid = PrePaid::read(&mut top);
    let (paid, method) = both(top.finish_with(paid), PrePayMethod::parse(&params))?;
    let payment = Payment {
        amount: paid.pre_paid_amount,
        method: method.payment_method_name,
        paid_at: paid_at(paid.at, &clock),
        notes: notes(method.payment_notes),
    };
    let view = orders::pre_pay(state.db(), tenant.0.id, number, payment).await?;
    Ok(answer(&view, tenant.0.time_zone))
}

async fn mark_void(
    State(state): State<AppState>,
    tenant: Tenant,
    Number(number): Number<kind::Order>,
    Id(id): Id<kind::PaymentHistory>,
) -> Result<views::Reply, ApiError> {
    let view = orders::void_payment(state.db(), tenant.0.id, number, id)
        .await?
        .ok_or_else(|| ApiError::no_such(store::ids::Kind::PaymentHistory))?;
    Ok(answer(&view, tenant.0.time_zone))
}
