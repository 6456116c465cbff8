//! Locations: `/locations.api`, `/locations/get_line_item_locations.api`,
//! `/locations/{id}.api`, activate, deactivate, `quantities_by_asset_ids`.

use std::collections::BTreeMap;

use axum::extract::State;
use domain::vocabulary::Activity;
use domain::{Change, Name, Page, PageSize};
use serde::Serialize;
use store::locations::{self, Location, LocationFields, StatusFilter};

use crate::api::{Api, Doc, get, post, put_or_patch};
use crate::auth::Tenant;
use crate::error::ApiError;
use crate::ids::{Id, kind};
use crate::input::{AnyName, Country, Input, PageNumber, RecordId, Word};
use crate::params::Params;
use crate::state::AppState;
use crate::views::{self, Moment, moment};

pub fn routes(api: Api) -> Api {
    api.route("/locations", post(create), Doc::new("Locations", "Create a location").input::<NewLocation>().returns("location").record::<LocationJson<'_>>())
        .route(
            "/locations/get_line_item_locations",
            get(list),
            Doc::new("Locations", "List locations, 25 a page")
                .params::<ListQuery>()
                .returns_page("locations")
                .record::<LocationJson<'_>>(),
        )
        .route(
            "/locations/{id}",
            get(details).put_or_patch(update),
            Doc::new("Locations", "Location details (GET) or update (PUT or PATCH; location[name] required)")
                .input::<LocationInput>()
                .params::<DetailsQuery>()
                .returns("location")
                .record::<LocationJson<'_>>(),
        )
        .route(
            "/locations/{id}/activate",
            put_or_patch(activate),
            Doc::new("Locations", "Activate a location; activate_all_children_locations=1 activates its subtree (PUT or PATCH)")
                .params::<ActivateQuery>()
                .returns("location")
                .record::<LocationJson<'_>>(),
        )
        .route("/locations/{id}/deactivate", put_or_patch(deactivate), Doc::new("Locations", "Deactivate a location and its subtree (PUT or PATCH)").returns("location").record::<LocationJson<'_>>())
        .route(
            "/locations/{id}/quantities_by_asset_ids",
            get(quantities),
            Doc::new("Locations", "Stock quantities held at the location, by asset number").answers::<QuantitiesJson>(),
        )
}

/// A location's fields, on create and update.
#[derive(Input)]
#[input(resource = "location")]
struct LocationInput {
    /// Any length from one character (the 3-character minimum is for items, groups and
    /// subgroups).
    #[input(format = AnyName)]
    name: Name,
    description: Change<String>,
    street1: Change<String>,
    street2: Change<String>,
    city: Change<String>,
    state: Change<String>,
    zipcode: Change<String>,
    /// Two-letter ISO 3166-1 code, any case; stored upper-case.
    #[input(format = Country)]
    country: Change<String>,
    /// The id of the parent location; `null` or 0 clears (on update).
    #[input(format = RecordId)]
    parent_id: Change<i64>,
}

impl LocationInput {
    fn into_parts(self, active: Option<bool>) -> (Name, LocationFields) {
        let fields = LocationFields {
            description: self.description,
            street1: self.street1,
            street2: self.street2,
            city: self.city,
            state: self.state,
            zipcode: self.zipcode,
            country: self.country,
            parent_id: self.parent_id.map(store::Id::new),
            active,
        };
        (self.name, fields)
    }
}

/// A new location: its fields and whether it starts active.
#[derive(Input)]
#[input(resource = "location")]
struct NewLocation {
    #[input(flatten)]
    fields: LocationInput,
    /// Active unless sent `inactive` (on create only: use activate and deactivate
    /// afterwards).
    #[input(format = Word<Activity>)]
    status: Option<Activity>,
}

/// The parameters of the location list.
#[derive(Input)]
struct ListQuery {
    /// Which locations: all (the default), active or inactive.
    #[input(format = Word<StatusFilter>)]
    status: Option<StatusFilter>,
    #[input(format = PageNumber)]
    page: Option<u32>,
    /// Accepted for the hosted service's clients; locations have no custom fields.
    #[input(rename = "include_custom_fields")]
    _include_custom_fields: Option<bool>,
}

/// The parameters of a location's details.
#[derive(Input)]
struct DetailsQuery {
    /// Accepted for the hosted service's clients; locations have no custom fields.
    #[input(rename = "include_custom_fields")]
    _include_custom_fields: Option<bool>,
}

/// The parameters of activation.
#[derive(Input)]
struct ActivateQuery {
    /// Activates the location's whole subtree too.
    activate_all_children_locations: Option<bool>,
}

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

async fn create(
    State(state): State<AppState>,
    Tenant(company): Tenant,
    params: Params,
) -> Result<views::Reply, ApiError> {
    let NewLocation { fields, status } = NewLocation::parse(&params)?;
    let (name, mut fields) = fields.into_parts(status.map(|s| s == Activity::Active));
    // A new location has no parent to clear.
    if fields.parent_id == Change::Clear {
        fields.parent_id = Change::Keep;
    }
    let location = locations::create(state.db(), company.id, name, fields).await?;
    Ok(views::one("location", render(&location, company.time_zone)))
}

async fn list(
    State(state): State<AppState>,
    Tenant(company): Tenant,
    params: Params,
) -> Result<views::Reply, ApiError> {
    let query = ListQuery::parse(&params)?;
    let page = Page::new(query.page.unwrap_or(1), PageSize::DEFAULT);
    let status = query.status.unwrap_or(StatusFilter::All);
    let records = locations::list(state.db(), company.id, status, page).await?;
    Ok(views::paged("locations", page, &records, |l| {
        render(l, company.time_zone)
    }))
}

async fn details(
    State(state): State<AppState>,
    Tenant(company): Tenant,
    Id(id): Id<kind::Location>,
    params: Params,
) -> Result<views::Reply, ApiError> {
    DetailsQuery::parse(&params)?;
    let location = locations::find(state.db(), company.id, id).await?;
    Ok(views::one("location", render(&location, company.time_zone)))
}

async fn update(
    State(state): State<AppState>,
    Tenant(company): Tenant,
    Id(id): Id<kind::Location>,
    params: Params,
) -> Result<views::Reply, ApiError> {
    let (name, fields) = LocationInput::parse(&params)?.into_parts(None);
    let location = locations::update(state.db(), company.id, id, name, fields).await?;
    Ok(views::one("location", render(&location, company.time_zone)))
}

async fn activate(
    State(state): State<AppState>,
    Tenant(company): Tenant,
    Id(id): Id<kind::Location>,
    params: Params,
) -> Result<views::Reply, ApiError> {
    let with_children = ActivateQuery::parse(&params)?
        .activate_all_children_locations
        .unwrap_or(false);
    let location = locations::activate(state.db(), company.id, id, with_children).await?;
    Ok(views::one("location", render(&location, company.time_zone)))
}

async fn deactivate(
    State(state): State<AppState>,
    Tenant(company): Tenant,
    Id(id): Id<kind::Location>,
) -> Result<views::Reply, ApiError> {
    let location = locations::deactivate(state.db(), company.id, id).await?;
    Ok(views::one("location", render(&location, company.time_zone)))
}

/// The stock a location holds.
#[derive(Serialize, utoipa::ToSchema)]
#[schema(as = LocationQuantities)]
struct QuantitiesJson {
    location_id: i64,
    /// The quantity held of each item, by the item's number (`sequence_num`).
    quantities_by_asset_ids: BTreeMap<String, i64>,
}

async fn quantities(
    State(state): State<AppState>,
    Tenant(company): Tenant,
    Id(id): Id<kind::Location>,
) -> Result<views::Reply, ApiError> {
    let rows = locations::quantities(state.db(), company.id, id).await?;
    Ok(views::Reply::of(&QuantitiesJson {
        location_id: id.get(),
        quantities_by_asset_ids: rows
            .iter()
            .map(|q| (q.item_sequence_num.to_string(), q.quantity))
            .collect(),
    }))
}

/// One row of a location import (`resources::imports`), its fields as a form would
/// send them: the location numbered `key` updated, or a new one; written in `tx`.
pub(crate) async fn import_row(
    tx: &mut store::Tx,
    company: store::CompanyId,
    params: &Params,
    key: Option<i64>,
) -> Result<super::imports::Written, ApiError> {
    use super::imports::Written;
    match key {
        None => {
            let NewLocation { fields, status } = NewLocation::parse(params)?;
            let (name, fields) = fields.into_parts(status.map(|s| s == Activity::Active));
            locations::create_in(tx, company, name, fields).await?;
            Ok(Written::Created)
        }
        Some(n) => {
            let id = locations::numbered_in(tx, company, n)
                .await?
                .ok_or(ApiError::no_such(store::ids::Kind::Location))?;
            let (name, fields) = LocationInput::parse(params)?.into_parts(None);
            locations::update_in(tx, company, id, name, fields).await?;
            Ok(Written::Updated)
        }
    }
}

/// The columns a location import reads besides `sequence_num` and `parent`.
pub(crate) fn import_columns() -> Vec<&'static str> {
    NewLocation::fields().iter().map(|f| f.name).collect()
}
