//! Booking an order (`reservation.api`) and taking the booking back
//! (`cancel_reservation.api`).

use axum::extract::State;
use chrono::{NaiveDate, NaiveTime};
use store::orders;

use super::answer;
use super::input::{end_of_day, moment};
use crate::api::{Api, Doc, put_or_patch};
use crate::auth::Tenant;
use crate::error::ApiError;
use crate::ids::{Number, kind};
use crate::input::{Input, TimeOfDay, Word};
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
        .input::<BookQuery>()
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
        .input::<CancelQuery>()
        .returns("basket")
        .record::<super::OrderJson<'_>>(),
    )
}

/// The period of a booking.
#[derive(Input)]
struct BookQuery {
    /// The first day.
    from: NaiveDate,
    /// hh:mm in the company's time zone; default 00:00.
    #[input(format = TimeOfDay)]
    from_time: Option<NaiveTime>,
    /// The last day: the period ends after now and after from.
    to: NaiveDate,
    /// hh:mm; default 23:59.
    #[input(format = TimeOfDay)]
    to_time: Option<NaiveTime>,
}

/// The word that takes a booking back.
#[derive(Clone, Copy, PartialEq, Debug)]
struct Removed;

impl domain::Vocabulary for Removed {
    const ALL: &'static [Self] = &[Removed];

    fn as_str(self) -> &'static str {
        "removed"
    }
}

/// The confirmation of a cancelled booking.
#[derive(Input)]
struct CancelQuery {
    /// removed.
    #[input(format = Word<Removed>)]
    #[expect(dead_code, reason = "its one word is the confirmation")]
    cancel_booking: Removed,
}

async fn book(
    State(state): State<AppState>,
    tenant: Tenant,
    Number(number): Number<kind::Order>,
    params: Params,
) -> Result<views::Reply, ApiError> {
    let tz = tenant.0.time_zone;
    let q = BookQuery::parse(&params)?;
    let from = moment(q.from, q.from_time, NaiveTime::MIN, tz);
    let to = moment(q.to, q.to_time, end_of_day(), tz);
    let view = orders::book(state.db(), tenant.0.id, number, (from, to), &clock(&tenant)).await?;
    Ok(answer(&view, tz))
}

async fn cancel(
    State(state): State<AppState>,
    tenant: Tenant,
    Number(number): Number<kind::Order>,
    params: Params,
) -> Result<views::Reply, ApiError> {
    CancelQuery::parse(&params)?;
    let view = orders::cancel_booking(state.db(), tenant.0.id, number).await?;
    Ok(answer(&view, tenant.0.time_zone))
}
