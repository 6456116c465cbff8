//! Reservation requests of fixed assets, their decisions, and the dates an asset is
//! reserved or booked.

use axum::Json;
use axum::extract::State;
use domain::reservation::{Decision, parse_status_filter};
use domain::wire::parse_date;
use domain::{PageSize, Vocabulary};
use serde_json::{Value, json};
use store::reservations::{self, NewReservation, Reservation, ReservationFilter};

use super::today;
use crate::api::{Api, Doc, get, put_or_patch};
use crate::auth::Tenant;
use crate::error::ApiError;
use crate::form::{Form, parse_id};
use crate::ids::{Id, Number, kind};
use crate::params::Params;
use crate::state::AppState;
use crate::views::{self, moment};

pub(super) fn routes(api: Api) -> Api {
    api.route(
        "/assets/{sequence_num}/reservation_requests",
        get(list_for_asset).post(create),
        Doc::new("Reservations", "Reservation requests of an asset, 25 a page (GET), or a new one, pending until decided (POST)")
            .form(
                "reservation_request",
                &[
                    ("from", "required: first day (mm/dd/yyyy), today or later"),
                    ("to", "required: last day, not before from"),
                    ("note", "text"),
                    ("quantity", "inventory and asset stock: the units wanted, 1 to 1000000000, default 1; a fixed asset takes none (it is reserved whole)"),
                ],
            )
            .query(&[
                ("user[id]", "required on create: the member (active)"),
                ("status", "list filter: pending (requested), approved, denied, fullfilled, removed or all (default)"),
                ("user_id", "list filter: one member's requests"),
                ("page", "page number, default 1"),
            ])
            .returns("reservation_request")
            .returns_page("reservation_requests"),
    )
    .route(
        "/assets/{sequence_num}/reservation_requests/{id}/update_status",
        put_or_patch(decide),
        Doc::new("Reservations", "Approve (approve_request: pending to approved; refused for a fixed asset when it overlaps an approved reservation, for inventory and asset stock when approved reservations would need more units on a day than the item has) or deny (deny: pending or approved to denied) a request (PUT or PATCH)")
            .query(&[("request_action", "required: approve_request or deny")])
            .returns("reservation_request"),
    )
    .route(
        "/checkout_requests/filter",
        get(filter),
        Doc::new("Reservations", "What starts on a day: reservation requests (pending only unless all=true) as reservation_requests, and orders expected to go out that day (Draft, Web Order or Booked unless all=true) as baskets; the two lists are paged side by side, 25 of each a page, total_pages the longer one's")
            .query(&[
                ("start_date", "the first day of the requests and orders (mm/dd/yyyy); default today"),
                ("all", "boolean: every status, not only pending requests and orders waiting to go out"),
                ("page", "page number, default 1"),
            ])
            .returns_page("reservation_requests"),
    )
    .route(
        "/assets/{sequence_num}/reserved_dates",
        get(reserved_dates),
        Doc::new("Reservations", "The approved reservations of an asset that have not ended, 25 a page")
            .query(&[("page", "page number, default 1")])
            .returns_page("reserved_dates"),
    )
    .route(
        "/assets/{sequence_num}/booked_dates",
        get(booked_dates),
        Doc::new("Reservations", "Every period the asset is taken: its current check-out and the orders it is booked or rented out to (first, on page 1), and its approved reservations, 25 a page")
            .query(&[("page", "page number, default 1")])
            .returns_page("booked_dates"),
    )
    .route(
        "/members/{id}/reservation_requests",
        get(for_member::<true>),
        Doc::new("Members", "The member's reservation requests of fixed assets, 25 a page")
            .query(&[("page", "page number, default 1")])
            .returns_page("reservation_requests"),
    )
    .route(
        "/members/{id}/inventory_reservations",
        get(for_member::<false>),
        Doc::new("Members", "The member's reservation requests of inventory and asset stock, 25 a page")
            .query(&[("page", "page number, default 1")])
            .returns_page("reservation_requests"),
    )
}

fn render(r: &Reservation, tz: chrono_tz::Tz) -> Value {
    json!({
        "id": r.id,
        "sequence_num": r.sequence_num,
        "asset_name": r.asset_name,
        "user_id": r.member_id,
        "user_full_name": r.member_name,
        "from": r.from_on.to_string(),
        "to": r.to_on.to_string(),
        "note": r.note,
        "quantity": r.quantity,
        "status": r.status,
        "created_at": moment(r.created_at, tz),
        "updated_at": moment(r.updated_at, tz),
    })
}

async fn create(
    State(state): State<AppState>,
    tenant: Tenant,
    Number(number, _): Number<kind::Item>,
    params: Params,
) -> Result<views::Reply, ApiError> {
    let mut form = Form::new(&params, "reservation_request");
    let day = |form: &mut Form<'_>, field: &str| match params
        .get(&format!("reservation_request[{field}]"))
    {
        None => {
            form.error(field, "can't be blank");
            None
        }
        Some(raw) => parse_date(raw)
            .map_err(|problem| form.error(field, problem.to_string()))
            .ok(),
    };
    let from = day(&mut form, "from");
    let to = day(&mut form, "to");
    if let (Some(f), Some(t)) = (from, to)
        && t < f
    {
        form.error("to", "can't be before from");
    }
    let note = form.text("note").as_set().cloned();
    let quantity = match params.get("reservation_request[quantity]") {
        None | Some("") => None,
        Some(_) => form.quantity("quantity"),
    };
    let member = match params.get("user[id]").or_else(|| params.get("user_id")) {
        None => {
            form.error(
                "user[id]",
                "can't be blank: the member the asset is reserved for",
            );
            None
        }
        Some(raw) => parse_id(raw).or_else(|| {
            form.error("user[id]", "must be a member id (a positive whole number)");
            None
        }),
    };
    form.finish()?;
    let new = NewReservation {
        member: member.expect("reported"),
        from: from.expect("reported"),
        to: to.expect("reported"),
        note,
        quantity,
    };
    let r = reservations::create(state.db(), tenant.0.id, number, new, today(&tenant))
        .await
        .map_err(ApiError::from_item)?;
    Ok(views::one(
        "reservation_request",
        render(&r, tenant.0.time_zone),
    ))
}

async fn list_for_asset(
    State(state): State<AppState>,
    tenant: Tenant,
    Number(number, _): Number<kind::Item>,
    params: Params,
) -> Result<views::Reply, ApiError> {
    let page = views::page(&params, PageSize::DEFAULT)?;
    let status = match params.get("status") {
        None => None,
        Some(raw) => parse_status_filter(raw).map_err(|p| ApiError::field("status", p))?,
    };
    let member = match params.get("user_id") {
        None => None,
        Some(raw) => Some(parse_id(raw).ok_or_else(|| {
            ApiError::field("user_id", "must be a member id (a positive whole number)")
        })?),
    };
    let filter = ReservationFilter {
        item_number: Some(number),
        member,
        status,
        ..ReservationFilter::default()
    };
    page_of(&state, &tenant, &filter, page).await
}

async fn page_of(
    state: &AppState,
    tenant: &Tenant,
    filter: &ReservationFilter,
    page: domain::Page,
) -> Result<views::Reply, ApiError> {
    let records = reservations::list(state.db(), tenant.0.id, filter, page)
        .await
        .map_err(ApiError::from_item)?;
    let tz = tenant.0.time_zone;
    Ok(views::paged("reservation_requests", page, &records, |r| {
        render(r, tz)
    }))
}

async fn decide(
    State(state): State<AppState>,
    tenant: Tenant,
    Number(number, _): Number<kind::Item>,
    Id(id, _): Id<kind::ReservationRequest>,
    params: Params,
) -> Result<views::Reply, ApiError> {
    let Some(raw) = params.get("request_action") else {
        return Err(ApiError::field(
            "request_action",
            format!("can't be blank: one of {}", Decision::names()),
        ));
    };
    let decision = Decision::parse_loosely(raw).ok_or_else(|| {
        ApiError::field(
            "request_action",
            format!("must be one of {}", Decision::names()),
        )
    })?;
    let r = reservations::decide(
        state.db(),
        tenant.0.id,
        number,
        id,
        decision,
        tenant.0.time_zone,
    )
    .await
    .map_err(ApiError::from_record("reservation request of this asset"))?;
    Ok(views::one(
        "reservation_request",
        render(&r, tenant.0.time_zone),
    ))
}

async fn filter(
    State(state): State<AppState>,
    tenant: Tenant,
    params: Params,
) -> Result<Json<Value>, ApiError> {
    let page = views::page(&params, PageSize::DEFAULT)?;
    let day = match params.get("start_date") {
        None => today(&tenant).0,
        Some(raw) => {
            parse_date(raw).map_err(|problem| ApiError::field("start_date", problem.to_string()))?
        }
    };
    let all = views::flag(&params, "all")?;
    let filter = ReservationFilter {
        item_number: None,
        member: None,
        status: (!all).then_some(domain::reservation::ReservationStatus::Pending),
        starting_on: Some(day),
        ..ReservationFilter::default()
    };
    let requests = reservations::list(state.db(), tenant.0.id, &filter, page)
        .await
        .map_err(ApiError::from_item)?;
    // The orders (baskets) going out that day, in the company's time zone.
    let tz = tenant.0.time_zone;
    let midnight =
        |d: chrono::NaiveDate| domain::item::local_moment(d, Some(chrono::NaiveTime::MIN), tz);
    let next = day.succ_opt().unwrap_or(day);
    let orders = store::orders::starting(
        state.db(),
        tenant.0.id,
        (midnight(day), midnight(next)),
        all,
        page,
    )
    .await?;
    // Two lists paged side by side: page n holds the n-th page of each.
    Ok(Json(json!({
        "reservation_requests": requests.records.iter().map(|r| render(r, tz)).collect::<Vec<_>>(),
        "baskets": orders.records.iter().map(|o| crate::resources::orders::summary(o, tz)).collect::<Vec<_>>(),
        "total_pages": page.total_pages(requests.total).max(page.total_pages(orders.total)),
        "current_page": page.number,
    })))
}

/// A member's reservation requests: of fixed assets (`FIXED`), or of inventory and
/// asset stock.
async fn for_member<const FIXED: bool>(
    State(state): State<AppState>,
    tenant: Tenant,
    Id(member, _): Id<kind::Member>,
    params: Params,
) -> Result<views::Reply, ApiError> {
    let page = views::page(&params, PageSize::DEFAULT)?;
    store::members::find(state.db(), tenant.0.id, member).await?;
    let filter = ReservationFilter {
        member: Some(member),
        fixed_assets: Some(FIXED),
        ..ReservationFilter::default()
    };
    page_of(&state, &tenant, &filter, page).await
}

fn period(r: &Reservation) -> Value {
    json!({
        "id": r.id,
        "from": r.from_on.to_string(),
        "to": r.to_on.to_string(),
        "reservation_id": r.id,
        "user_id": r.member_id,
        "user_full_name": r.member_name,
        "quantity": r.quantity,
    })
}

/// A page (25) of the approved reservations of an asset that have not ended, in the
/// order they were requested.
async fn reserved_page(
    state: &AppState,
    tenant: &Tenant,
    number: i64,
    page: domain::Page,
) -> Result<store::PageOf<Reservation>, ApiError> {
    let filter = ReservationFilter {
        item_number: Some(number),
        status: Some(domain::reservation::ReservationStatus::Approved),
        ending_from: Some(today(tenant).0),
        ..ReservationFilter::default()
    };
    reservations::list(state.db(), tenant.0.id, &filter, page)
        .await
        .map_err(ApiError::from_item)
}

/// `{"sequence_num": n, "<key>": [...], "total_pages": t, "current_page": p}`.
fn dates_page(number: i64, key: &str, page: domain::Page, total: u64, dates: Vec<Value>) -> Value {
    json!({
        "sequence_num": number,
        key: dates,
        "total_pages": page.total_pages(total),
        "current_page": page.number,
    })
}

async fn reserved_dates(
    State(state): State<AppState>,
    tenant: Tenant,
    Number(number, _): Number<kind::Item>,
    params: Params,
) -> Result<Json<Value>, ApiError> {
    let page = views::page(&params, PageSize::DEFAULT)?;
    let found = reserved_page(&state, &tenant, number, page).await?;
    let dates = found.records.iter().map(period).collect();
    Ok(Json(dates_page(
        number,
        "reserved_dates",
        page,
        found.total,
        dates,
    )))
}

async fn booked_dates(
    State(state): State<AppState>,
    tenant: Tenant,
    Number(number, _): Number<kind::Item>,
    params: Params,
) -> Result<Json<Value>, ApiError> {
    let page = views::page(&params, PageSize::DEFAULT)?;
    let item = store::items::find(state.db(), tenant.0.id, number, today(&tenant))
        .await
        .map_err(ApiError::from_item)?
        .item;
    let found = reserved_page(&state, &tenant, number, page).await?;
    let tz = tenant.0.time_zone;
    let mut booked: Vec<Value> = Vec::new();
    if let (Some(out), 1) = (item.checkout_on, page.number) {
        booked.push(json!({
            "from": out.with_timezone(&tz).date_naive().to_string(),
            "to": item.checkin_due_on.map(|d| d.with_timezone(&tz).date_naive().to_string()),
            "checked_out": true,
            "user_id": item.assigned_to_id,
            "user_full_name": item.assigned_to_name,
        }));
    }
    if page.number == 1 {
        let orders = store::orders::item_bookings(
            state.db(),
            tenant.0.id,
            number,
            super::clock(&tenant).now,
        )
        .await?;
        booked.extend(orders.iter().map(|b| {
            json!({
                "from": b.starts.map(|m| moment(m, tz)),
                "to": b.ends.map(|m| moment(m, tz)),
                "order_number": b.order_number,
                "basket_state": b.basket_state,
                "quantity": b.units,
            })
        }));
    }
    booked.extend(found.records.iter().map(period));
    Ok(Json(dates_page(
        number,
        "booked_dates",
        page,
        found.total,
        booked,
    )))
}
