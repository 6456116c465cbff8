//! Services of fixed assets, a rentrack extension: `/assets/{n}/services.api` (list,
//! start), `/assets/{n}/services/{id}.api` (details) and `.../complete.api`. They are
//! what the spec's `assets_being_serviced` filter and `show_services_details` flag
//! show.

use axum::extract::State;
use chrono::{NaiveDate, NaiveTime};
use domain::item::local_moment;
use domain::{Change, PageSize};
use serde::Serialize;
use store::services::{self, NewService, Service};

use super::{AssetJson, Shown, clock, fields_of, render as render_asset};
use crate::api::{Api, Doc, get, post, put_or_patch};
use crate::auth::Tenant;
use crate::error::ApiError;
use crate::form::Form;
use crate::ids::{Id, Number, kind};
use crate::input::{Input, PageQuery, ShortText, TimeOfDay};
use crate::params::Params;
use crate::state::AppState;
use crate::views::{self, Moment, moment};

/// The services a details answer shows with `show_services_details`, newest first.
pub(crate) const SHOWN: u64 = 25;

pub(super) fn routes(api: Api) -> Api {
    api.route(
        "/assets/{sequence_num}/services",
        get(list),
        Doc::new(
            "Services",
            "The services of a fixed asset, oldest first, 25 a page (a rentrack extension)",
        )
        .params::<PageQuery>()
        .returns_page("services")
        .record::<ServiceJson<'_>>(),
    )
    .route(
        "/assets/{sequence_num}/services",
        post(start),
        Doc::new(
            "Services",
            "Start a service of a fixed asset now (a rentrack extension): the asset is in_service, and cannot be checked out, booked, rented out, reserved or retired until the service is completed. 409 unless the asset is available and free for the service's period. Answers the service and the asset",
        )
        .input::<NewServiceInput>()
        .answers::<OutcomeJson<'_>>(),
    )
    .route(
        "/assets/{sequence_num}/services/{id}",
        get(details),
        Doc::new("Services", "One service of the asset")
            .returns("service")
            .record::<ServiceJson<'_>>(),
    )
    .route(
        "/assets/{sequence_num}/services/{id}/complete",
        put_or_patch(complete),
        Doc::new(
            "Services",
            "Complete a service now (PUT or PATCH): the asset is available again; a completed one is a 409. Answers the service and the asset",
        )
        .input::<CompletionInput>()
        .answers::<OutcomeJson<'_>>(),
    )
}

/// A service of a fixed asset (a rentrack extension).
#[derive(Serialize, utoipa::ToSchema)]
#[schema(as = Service)]
// Closes the schema where it is nested too (`serde` reads it on deserializing only).
#[serde(deny_unknown_fields)]
pub(crate) struct ServiceJson<'a> {
    id: i64,
    /// The asset's number.
    sequence_num: i64,
    asset_name: &'a str,
    /// What is done (repair, calibration, cleaning, ...).
    service_type: &'a str,
    #[schema(required)]
    comments: Option<&'a str>,
    #[schema(value_type = String, pattern = "^(in_service|completed)$")]
    status: &'static str,
    started_at: Moment,
    /// When the asset is expected back; null: open-ended.
    #[schema(required)]
    expected_end_at: Option<Moment>,
    #[schema(required)]
    completed_at: Option<Moment>,
    /// What was done, given on completion.
    #[schema(required)]
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

/// What starting or completing a service answers: the service and its asset as it now
/// is.
#[derive(Serialize, utoipa::ToSchema)]
#[schema(as = ServiceOutcome)]
struct OutcomeJson<'a> {
    service: ServiceJson<'a>,
    asset: AssetJson<'a>,
}

/// `{"service": {...}, "asset": {...}}`: the service and its asset as it now is.
async fn answer(
    state: &AppState,
    tenant: &Tenant,
    (service, view): (Service, store::items::ItemView),
) -> Result<views::Reply, ApiError> {
    let tz = tenant.0.time_zone;
    let fields = fields_of(state, &tenant.0, &view).await?;
    Ok(views::Reply::of(&OutcomeJson {
        service: render(&service, tz),
        asset: render_asset(&view, tz, &fields, Shown::all()),
    }))
}

/// A service started.
#[derive(Input)]
#[input(resource = "service")]
struct NewServiceInput {
    /// What is done (repair, calibration, cleaning, ...), at most 255 characters.
    #[input(format = ShortText)]
    service_type: String,
    /// The day it is expected back (mm/dd/yyyy or yyyy-mm-dd), later than now; left
    /// out: open-ended.
    expected_end_date: Option<NaiveDate>,
    /// hh:mm in the company's time zone (default 23:59); only with expected_end_date.
    #[input(format = TimeOfDay, needs = "expected_end_date")]
    expected_end_time: Option<NaiveTime>,
    /// Text (null: none).
    comments: Change<String>,
}

/// A service completed.
#[derive(Input)]
#[input(resource = "service")]
struct CompletionInput {
    /// What was done: text (null: none).
    completion_comments: Change<String>,
}

async fn start(
    State(state): State<AppState>,
    tenant: Tenant,
    Number(number): Number<kind::Item>,
    params: Params,
) -> Result<views::Reply, ApiError> {
    let mut form = Form::new(&params, "service");
    let input = NewServiceInput::read(&mut form);
    let input = form.finish_with(input)?;
    let tz = tenant.0.time_zone;
    let new = NewService {
        service_type: input.service_type,
        comments: input.comments.as_set().cloned(),
        expected_end: input
            .expected_end_date
            .map(|day| local_moment(day, input.expected_end_time, tz)),
    };
    let done = services::start(state.db(), tenant.0.id, number, new, &clock(&tenant)).await?;
    answer(&state, &tenant, done).await
}

async fn complete(
    State(state): State<AppState>,
    tenant: Tenant,
    Number(number): Number<kind::Item>,
    Id(id): Id<kind::Service>,
    params: Params,
) -> Result<views::Reply, ApiError> {
    let comments = CompletionInput::parse(&params)?
        .completion_comments
        .as_set()
        .cloned();
    let done = services::complete(
        state.db(),
        tenant.0.id,
        number,
        id,
        comments,
        &clock(&tenant),
    )
    .await?;
    answer(&state, &tenant, done).await
}

async fn details(
    State(state): State<AppState>,
    tenant: Tenant,
    Number(number): Number<kind::Item>,
    Id(id): Id<kind::Service>,
) -> Result<views::Reply, ApiError> {
    let service = services::find(state.db(), tenant.0.id, number, id).await?;
    Ok(views::one("service", render(&service, tenant.0.time_zone)))
}

async fn list(
    State(state): State<AppState>,
    tenant: Tenant,
    Number(number): Number<kind::Item>,
    params: Params,
) -> Result<views::Reply, ApiError> {
    let page = PageQuery::parse(&params)?.page(PageSize::DEFAULT);
    let records = services::list(state.db(), tenant.0.id, number, page).await?;
    let tz = tenant.0.time_zone;
    Ok(views::paged("services", page, &records, |s| render(s, tz)))
}
