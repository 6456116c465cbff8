//! Services of fixed assets, a rentrack extension: `/assets/{n}/services.api` (list,
//! start), `/assets/{n}/services/{id}.api` (details) and `.../complete.api`. They are
//! what the spec's `assets_being_serviced` filter and `show_services_details` flag
//! show.

use axum::extract::State;
use domain::PageSize;
use serde::Serialize;
use store::services::{self, NewService, Service};

use super::checkouts::moment_of;
use super::{Shown, clock, fields_of, render as render_asset};
use crate::api::{Api, Doc, get, put_or_patch};
use crate::auth::Tenant;
use crate::error::ApiError;
use crate::form::Form;
use crate::ids::{Id, Number, kind};
use crate::params::Params;
use crate::state::AppState;
use crate::views::{self, Moment, moment};

/// The services a details answer shows with `show_services_details`, newest first.
pub(crate) const SHOWN: u64 = 25;

pub(super) fn routes(api: Api) -> Api {
    api.route(
        "/assets/{sequence_num}/services",
        get(list).post(start),
        Doc::new(
            "Services",
            "The services of a fixed asset, oldest first, 25 a page (GET), or start one now (POST; a rentrack extension): the asset is in_service, and cannot be checked out, booked, rented out, reserved or retired until the service is completed. 409 unless the asset is available and free for the service's period",
        )
        .form(
            "service",
            &[
                ("service_type", "required: what is done (repair, calibration, cleaning, ...)"),
                ("expected_end_date", "the day it is expected back (mm/dd/yyyy), later than now; none: open-ended"),
                ("expected_end_time", "hh:mm in the company's time zone, default 23:59"),
                ("comments", "text"),
            ],
        )
        .query(&[("page", "page number, default 1")])
        .returns_page("services")
        .returns("service"),
    )
    .route(
        "/assets/{sequence_num}/services/{id}",
        get(details),
        Doc::new("Services", "One service of the asset").returns("service"),
    )
    .route(
        "/assets/{sequence_num}/services/{id}/complete",
        put_or_patch(complete),
        Doc::new(
            "Services",
            "Complete a service now (PUT or PATCH): the asset is available again; a completed one is a 409",
        )
        .form("service", &[("completion_comments", "text: what was done")])
        .returns("service"),
    )
}

#[derive(Serialize)]
pub(crate) struct ServiceJson<'a> {
    id: i64,
    sequence_num: i64,
    asset_name: &'a str,
    service_type: &'a str,
    comments: Option<&'a str>,
    status: &'static str,
    started_at: Moment,
    expected_end_at: Option<Moment>,
    completed_at: Option<Moment>,
    completion_comments: Option<&'a str>,
    created_at: Moment,
    updated_at: Moment,
}

pub(crate) fn render(s: &Service, tz: chrono_tz::Tz) -> ServiceJson<'_> {
    ServiceJson {
        id: s.id,
        sequence_num: s.sequence_num,
        asset_name: &s.asset_name,
        service_type: &s.service_type,
        comments: s.comments.as_deref(),
        status: if s.completed_at.is_some() {
            "completed"
        } else {
            "in_service"
        },
        started_at: moment(s.started_at, tz),
        expected_end_at: s.expected_end_at.map(|m| moment(m, tz)),
        completed_at: s.completed_at.map(|m| moment(m, tz)),
        completion_comments: s.completion_comments.as_deref(),
        created_at: moment(s.created_at, tz),
        updated_at: moment(s.updated_at, tz),
    }
}

/// `{"service": {...}, "asset": {...}}`: the service and its asset as it now is.
async fn answer(
    state: &AppState,
    tenant: &Tenant,
    (service, view): (Service, store::items::ItemView),
) -> Result<axum::Json<serde_json::Value>, ApiError> {
    let tz = tenant.0.time_zone;
    let fields = fields_of(state, &tenant.0, &view).await?;
    let asset = serde_json::to_value(render_asset(&view, tz, &fields, Shown::all()))
        .map_err(|e| ApiError::Internal(format!("rendering the asset: {e}")))?;
    let service = serde_json::to_value(render(&service, tz))
        .map_err(|e| ApiError::Internal(format!("rendering the service: {e}")))?;
    Ok(axum::Json(
        serde_json::json!({"service": service, "asset": asset}),
    ))
}

async fn start(
    State(state): State<AppState>,
    tenant: Tenant,
    Number(number, _): Number<kind::Item>,
    params: Params,
) -> Result<axum::Json<serde_json::Value>, ApiError> {
    let mut form = Form::new(&params, "service");
    let service_type = form.required_text("service_type");
    let comments = form.text("comments").as_set().cloned();
    let expected_end = moment_of(
        &params,
        [
            ("service[expected_end_date]", "expected_end_date"),
            ("service[expected_end_time]", "expected_end_time"),
        ],
        tenant.0.time_zone,
        &mut form,
    );
    form.finish()?;
    let Some(service_type) = service_type else {
        unreachable!("reported by finish");
    };
    let new = NewService {
        service_type,
        comments,
        expected_end,
    };
    let done = services::start(state.db(), tenant.0.id, number, new, &clock(&tenant))
        .await
        .map_err(ApiError::from_item)?;
    answer(&state, &tenant, done).await
}

async fn complete(
    State(state): State<AppState>,
    tenant: Tenant,
    Number(number, _): Number<kind::Item>,
    Id(id, _): Id<kind::Service>,
    params: Params,
) -> Result<axum::Json<serde_json::Value>, ApiError> {
    let mut form = Form::new(&params, "service");
    let comments = form.text("completion_comments").as_set().cloned();
    form.finish()?;
    let done = services::complete(
        state.db(),
        tenant.0.id,
        number,
        id,
        comments,
        &clock(&tenant),
    )
    .await
    .map_err(ApiError::from_item)?;
    answer(&state, &tenant, done).await
}

async fn details(
    State(state): State<AppState>,
    tenant: Tenant,
    Number(number, _): Number<kind::Item>,
    Id(id, _): Id<kind::Service>,
) -> Result<views::Reply, ApiError> {
    let service = services::find(state.db(), tenant.0.id, number, id).await?;
    Ok(views::one("service", render(&service, tenant.0.time_zone)))
}

async fn list(
    State(state): State<AppState>,
    tenant: Tenant,
    Number(number, _): Number<kind::Item>,
    params: Params,
) -> Result<views::Reply, ApiError> {
    let page = views::page(&params, PageSize::DEFAULT)?;
    let records = services::list(state.db(), tenant.0.id, number, page)
        .await
        .map_err(ApiError::from_item)?;
    let tz = tenant.0.time_zone;
    Ok(views::paged("services", page, &records, |s| render(s, tz)))
}
