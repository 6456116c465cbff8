//! Locations: `/locations.api`, `/locations/get_line_item_locations.api`,
//! `/locations/{id}.api`, activate, deactivate, `quantities_by_asset_ids`.

use axum::Json;
use axum::extract::State;
use domain::{Change, PageSize};
use serde::Serialize;
use serde_json::{Value, json};
use store::locations::{self, Location, LocationFields, StatusFilter};

use crate::api::{Api, Doc, get, post, put_or_patch};
use crate::auth::Tenant;
use crate::error::ApiError;
use crate::form::Form;
use crate::ids::{Id, kind};
use crate::params::Params;
use crate::state::AppState;
use crate::views::{self, Moment, moment};

pub fn routes(api: Api) -> Api {
    api.route("/locations", post(create), Doc::new("Locations", "Create a location").form("location", FIELDS).returns("location").record::<LocationJson<'_>>())
        .route(
            "/locations/get_line_item_locations",
            get(list),
            Doc::new("Locations", "List locations, 25 a page")
                .query(&[("status", "all (default), active or inactive"), ("page", "page number, default 1"), ("include_custom_fields", "boolean")])
                .returns_page("locations")
                .record::<LocationJson<'_>>(),
        )
        .route(
            "/locations/{id}",
            get(details).put_or_patch(update),
            Doc::new("Locations", "Location details (GET) or update (PUT or PATCH; location[name] required)")
                .form("location", FIELDS)
                .query(&[("include_custom_fields", "boolean")])
                .returns("location")
                .record::<LocationJson<'_>>(),
        )
        .route(
            "/locations/{id}/activate",
            put_or_patch(activate),
            Doc::new("Locations", "Activate a location; activate_all_children_locations=1 activates its subtree (PUT or PATCH)")
                .query(&[("activate_all_children_locations", "0 or 1")])
                .returns("location")
                .record::<LocationJson<'_>>(),
        )
        .route("/locations/{id}/deactivate", put_or_patch(deactivate), Doc::new("Locations", "Deactivate a location and its subtree (PUT or PATCH)").returns("location").record::<LocationJson<'_>>())
        .route(
            "/locations/{id}/quantities_by_asset_ids",
            get(quantities),
            Doc::new("Locations", "Stock quantities held at the location, by asset number").returns("quantities_by_asset_ids"),
        )
}

const FIELDS: &[(&str, &str)] = &[
    (
        "name",
        "required (any length: the 3-character minimum is for items, groups and subgroups)",
    ),
    ("description", "text"),
    ("street1", "text"),
    ("street2", "text"),
    ("city", "text"),
    ("state", "text"),
    ("zipcode", "text"),
    ("country", "two-letter ISO 3166-1 code"),
    (
        "status",
        "active or inactive (create only; use activate/deactivate afterwards)",
    ),
    ("parent_id", "id of the parent location; null clears"),
];

/// A location as the contract shows it.
#[derive(Serialize, utoipa::ToSchema)]
#[schema(as = Location)]
pub struct LocationJson<'a> {
    id: i64,
    sequence_num: i64,
    name: &'a str,
    description: &'a Option<String>,
    street1: &'a Option<String>,
    street2: &'a Option<String>,
    city: &'a Option<String>,
    state: &'a Option<String>,
    zipcode: &'a Option<String>,
    country: &'a Option<String>,
    parent_id: Option<i64>,
    #[schema(value_type = String, pattern = "^(active|inactive)$")]
    status: &'static str,
    created_at: Moment,
    updated_at: Moment,
}

pub fn render(l: &Location, tz: chrono_tz::Tz) -> LocationJson<'_> {
    LocationJson {
        id: l.id,
        sequence_num: l.sequence_num,
        name: &l.name,
        description: &l.description,
        street1: &l.street1,
        street2: &l.street2,
        city: &l.city,
        state: &l.state,
        zipcode: &l.zipcode,
        country: &l.country,
        parent_id: l.parent_id,
        status: if l.active { "active" } else { "inactive" },
        created_at: moment(l.created_at, tz),
        updated_at: moment(l.updated_at, tz),
    }
}

fn read_fields(
    params: &Params,
    creating: bool,
) -> Result<(domain::Name, LocationFields), ApiError> {
    let mut form = Form::new(params, "location");
    let name = form.name("name", domain::Name::parse_required);
    let mut fields = LocationFields {
        description: form.text("description"),
        street1: form.text("street1"),
        street2: form.text("street2"),
        city: form.text("city"),
        state: form.text("state"),
        zipcode: form.text("zipcode"),
        country: form.country("country"),
        parent_id: form.id("parent_id"),
        active: None,
    };
    if creating {
        if fields.parent_id == Change::Clear {
            fields.parent_id = Change::Keep;
        }
        fields.active = match params.get("location[status]") {
            None => None,
            Some("active") => Some(true),
            Some("inactive") => Some(false),
            Some(_) => {
                form.error("status", "must be active or inactive");
                None
            }
        };
    }
    form.finish()?;
    Ok((name.expect("a missing name is reported by finish"), fields))
}

async fn create(
    State(state): State<AppState>,
    Tenant(company): Tenant,
    params: Params,
) -> Result<views::Reply, ApiError> {
    let (name, fields) = read_fields(&params, true)?;
    let location = locations::create(state.db(), company.id, name, fields).await?;
    Ok(views::one("location", render(&location, company.time_zone)))
}

async fn list(
    State(state): State<AppState>,
    Tenant(company): Tenant,
    params: Params,
) -> Result<views::Reply, ApiError> {
    let status = match params.get("status") {
        None | Some("all") => StatusFilter::All,
        Some("active") => StatusFilter::Active,
        Some("inactive") => StatusFilter::Inactive,
        Some(_) => return Err(ApiError::field("status", "must be all, active or inactive")),
    };
    views::flag(&params, "include_custom_fields")?;
    let page = views::page(&params, PageSize::DEFAULT)?;
    let records = locations::list(state.db(), company.id, status, page).await?;
    Ok(views::paged("locations", page, &records, |l| {
        render(l, company.time_zone)
    }))
}

async fn details(
    State(state): State<AppState>,
    Tenant(company): Tenant,
    Id(id, _): Id<kind::Location>,
    params: Params,
) -> Result<views::Reply, ApiError> {
    views::flag(&params, "include_custom_fields")?;
    let location = locations::find(state.db(), company.id, id).await?;
    Ok(views::one("location", render(&location, company.time_zone)))
}

async fn update(
    State(state): State<AppState>,
    Tenant(company): Tenant,
    Id(id, _): Id<kind::Location>,
    params: Params,
) -> Result<views::Reply, ApiError> {
    let (name, fields) = read_fields(&params, false)?;
    let location = locations::update(state.db(), company.id, id, name, fields).await?;
    Ok(views::one("location", render(&location, company.time_zone)))
}

async fn activate(
    State(state): State<AppState>,
    Tenant(company): Tenant,
    Id(id, _): Id<kind::Location>,
    params: Params,
) -> Result<views::Reply, ApiError> {
    let with_children = views::flag(&params, "activate_all_children_locations")?;
    let location = locations::activate(state.db(), company.id, id, with_children).await?;
    Ok(views::one("location", render(&location, company.time_zone)))
}

async fn deactivate(
    State(state): State<AppState>,
    Tenant(company): Tenant,
    Id(id, _): Id<kind::Location>,
) -> Result<views::Reply, ApiError> {
    let location = locations::deactivate(state.db(), company.id, id).await?;
    Ok(views::one("location", render(&location, company.time_zone)))
}

async fn quantities(
    State(state): State<AppState>,
    Tenant(company): Tenant,
    Id(id, _): Id<kind::Location>,
) -> Result<Json<Value>, ApiError> {
    let rows = locations::quantities(state.db(), company.id, id).await?;
    let map: serde_json::Map<String, Value> = rows
        .iter()
        .map(|q| (q.item_sequence_num.to_string(), json!(q.quantity)))
        .collect();
    Ok(Json(
        json!({"location_id": id, "quantities_by_asset_ids": map}),
    ))
}
