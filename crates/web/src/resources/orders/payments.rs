//! Payments of an order: a pre-payment (`charge_pre_payment.api`), voiding one
//! (`payment_histories/<id>/mark_void.api`), and the optional payment a sale or a
//! return carries (`basket[cash_paid]` and the rest).

use axum::extract::State;
use chrono::NaiveTime;
use domain::Change;
use domain::money::Money;
use store::orders::{self, Payment};

use super::answer;
use super::rental::set_moment;
use crate::api::{Api, Doc, put_or_patch};
use crate::auth::Tenant;
use crate::error::ApiError;
use crate::form::Form;
use crate::ids::{Id, Number, kind};
use crate::params::Params;
use crate::resources::assets::clock;
use crate::state::AppState;
use crate::views;

/// The payment fields of a sale or a return.
pub(super) const PAYMENT_FIELDS: [(&str, &str); 5] = [
    (
        "basket[cash_paid]",
        "an amount paid now (optional); not by credit card",
    ),
    (
        "basket[payment_method_name]",
        "the payment option it is paid with (GET /payment_options.api); default Cash",
    ),
    ("basket[payment_date]", "the day it was paid; default today"),
    ("basket[payment_time]", "hh:mm; default now"),
    ("basket[payment_notes]", "text"),
];

pub(super) fn routes(api: Api) -> Api {
    api.route(
        "/baskets/{sequence_num}/charge_pre_payment",
        put_or_patch(pre_pay),
        Doc::new(
            "Orders",
            "Take a payment for an order that is not closed (PATCH or PUT); a Returned order it pays off is Completed. 403 for a credit-card payment option; 409 for a Completed, Void, Sold or Cancelled order",
        )
        .query(&[
            ("basket[pre_paid_amount]", "required: an amount above 0"),
            (
                "basket[payment_method_name]",
                "required: a payment option of the company, not a credit card",
            ),
            ("basket[payment_date]", "the day it was paid; default today"),
            ("basket[payment_time]", "hh:mm; default now"),
            ("basket[payment_notes]", "text"),
        ])
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

/// An amount of money above 0 in `field`.
fn amount(form: &mut Form<'_>, field: &str, required: bool) -> Option<i64> {
    match form.params().get(field).map(str::trim) {
        None | Some("") => {
            if required {
                form.error(field, "can't be blank: an amount such as 25.00");
            }
            None
        }
        Some(raw) => match Money::parse(raw) {
            Ok(m) if m.minor() > 0 => Some(m.minor()),
            Ok(_) => {
                form.error(field, "must be more than 0");
                None
            }
            Err(problem) => {
                form.error(field, problem);
                None
            }
        },
    }
}

/// The payment details besides the amount: method (or `default_method`), moment, notes.
fn payment(
    form: &mut Form<'_>,
    amount: i64,
    default_method: Option<&str>,
    clock: &store::items::Clock,
) -> Option<Payment> {
    let method = match form
        .params()
        .get("basket[payment_method_name]")
        .map(str::trim)
    {
        Some(m) if !m.is_empty() => Some(m.to_owned()),
        _ => {
            if default_method.is_none() {
                form.error(
                    "payment_method_name",
                    "can't be blank: name a payment option (GET /payment_options.api)",
                );
            }
            default_method.map(str::to_owned)
        }
    };
    let at = set_moment(
        form,
        "basket[payment_date]",
        "basket[payment_time]",
        NaiveTime::MIN,
        clock.tz,
    );
    let notes = match form.text("payment_notes") {
        Change::Set(n) => Some(n),
        _ => None,
    };
    Some(Payment {
        amount,
        method: method?,
        paid_at: at.unwrap_or(clock.now),
        notes,
    })
}

/// The optional payment of a sale or a return (`basket[cash_paid]` ...).
pub(super) fn optional_payment(
    form: &mut Form<'_>,
    clock: &store::items::Clock,
) -> Option<Payment> {
    let amount = amount(form, "basket[cash_paid]", false)?;
    payment(form, amount, Some("Cash"), clock)
}

async fn pre_pay(
    State(state): State<AppState>,
    tenant: Tenant,
    Number(number, _): Number<kind::Order>,
    params: Params,
) -> Result<views::Reply, ApiError> {
    let mut form = Form::new(&params, "basket");
    let clock = clock(&tenant);
    let amount = amount(&mut form, "basket[pre_paid_amount]", true);
    let payment = amount.and_then(|a| payment(&mut form, a, None, &clock));
    form.finish()?;
    let payment = payment.expect("reported by finish");
    let view = orders::pre_pay(state.db(), tenant.0.id, number, payment)
        .await
        .map_err(ApiError::from_order)?;
    Ok(answer(&view, tenant.0.time_zone))
}

async fn mark_void(
    State(state): State<AppState>,
    tenant: Tenant,
    Number(number, _): Number<kind::Order>,
    Id(id, _): Id<kind::PaymentHistory>,
) -> Result<views::Reply, ApiError> {
    let view = orders::void_payment(state.db(), tenant.0.id, number, id)
        .await
        .map_err(ApiError::from_order)?
        .ok_or_else(|| ApiError::not_found("payment history"))?;
    Ok(answer(&view, tenant.0.time_zone))
}
