//! Booking an order (`reservation.api`) and taking the booking back
//! (`cancel_reservation.api`).

use axum::extract::State;
use domain::Change;
use store::orders;

use super::answer;
use super::records::moment_at;
use crate::api::{Api, Doc, put_or_patch};
use crate::auth::Tenant;
use crate::error::ApiError;
use crate::form::Form;
use crate::ids::{Number, kind};
use crate::params::Params;
use crate::resources::assets::clock;
use crate::state::AppState;
use crate::views;

pub(super) fn routes(api: Api) -> Api {
    api.route(
        "/baskets/{sequence_num}/reservation",
        put_or_patch(book),
        Doc::new(
            "Orders",
            "Book a draft or web order for a period (PATCH or PUT): its rented items are promised for it; 409 when one is retired or taken (booked, rented out, reserved or checked out) for part of the period, or asset stock would be promised beyond its units",
        )
        .query(&[
            ("from", "required: the first day (mm/dd/yyyy)"),
            ("from_time", "hh:mm in the company's time zone; default 00:00"),
            ("to", "required: the last day; the period ends after now and after from"),
            ("to_time", "hh:mm; default 23:59"),
        ])
        .returns("basket")
        .record::<super::OrderJson<'_>>(),
    )
    .route(
        "/baskets/{sequence_num}/cancel_reservation",
        put_or_patch(cancel),
        Doc::new(
            "Orders",
            "Take a booking back (PATCH or PUT): the order is a draft again and its items are free",
        )
        .query(&[("cancel_booking", "required: removed")])
        .returns("basket")
        .record::<super::OrderJson<'_>>(),
    )
}

async fn book(
    State(state): State<AppState>,
    tenant: Tenant,
    Number(number, _): Number<kind::Order>,
    params: Params,
) -> Result<views::Reply, ApiError> {
    let mut form = Form::new(&params, "basket");
    let tz = tenant.0.time_zone;
    let from = moment_at(
        &mut form,
        "from",
        &["from_time"],
        chrono::NaiveTime::MIN,
        tz,
    );
    let end = chrono::NaiveTime::from_hms_opt(23, 59, 0).expect("valid");
    let to = moment_at(&mut form, "to", &["to_time"], end, tz);
    for (field, m) in [("from", &from), ("to", &to)] {
        if !matches!(m, Change::Set(_)) && !form.has_errors_for(field) {
            form.error(field, "can't be blank: a date (mm/dd/yyyy)");
        }
    }
    form.finish()?;
    let (Change::Set(from), Change::Set(to)) = (from, to) else {
        unreachable!("reported by finish");
    };
    let view = orders::book(state.db(), tenant.0.id, number, (from, to), &clock(&tenant))
        .await
        .map_err(ApiError::from_order)?;
    Ok(answer(&view, tz))
}

async fn cancel(
    State(state): State<AppState>,
    tenant: Tenant,
    Number(number, _): Number<kind::Order>,
    params: Params,
) -> Result<views::Reply, ApiError> {
    match params.get("cancel_booking") {
        Some(v) if v.trim().eq_ignore_ascii_case("removed") => {}
        Some(_) => return Err(ApiError::field("cancel_booking", "must be removed")),
        None => {
            return Err(ApiError::field(
                "cancel_booking",
                "can't be blank: send cancel_booking=removed",
            ));
        }
    }
    let view = orders::cancel_booking(state.db(), tenant.0.id, number)
        .await
        .map_err(ApiError::from_order)?;
    Ok(answer(&view, tenant.0.time_zone))
}
