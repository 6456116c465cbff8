//! Store listings, a rentrack extension: `/listings.api` (list, create),
//! `/listings/{id}.api` (details, update), `activate` and `deactivate`. The spec's
//! `user_listing_name` (orders), `user[user_listing_id]` (members) and the
//! `my_user_listing` / `outside_user_listing` asset filters name them.

use axum::extract::State;
use domain::{Change, PageSize};
use serde::Serialize;
use store::listings::{self, Listing, ListingInput};

use crate::api::{Api, Doc, get, put_or_patch};
use crate::auth::Tenant;
use crate::error::ApiError;
use crate::ids::{Id, kind};
use crate::input::{Input, PageQuery, Scalar, ShortText};
use crate::params::Params;
use crate::state::AppState;
use crate::views::{self, moment};

/// A new listing.
#[derive(Input)]
#[input(resource = "listing")]
struct NewListing {
    /// Unique in the company, at most 255 characters.
    #[input(format = ShortText)]
    name: String,
    /// Text; null clears.
    description: Change<String>,
}

/// A listing's changes: what is left out is kept.
#[derive(Input)]
#[input(resource = "listing")]
struct ListingChanges {
    /// Unique in the company, at most 255 characters; renames the listing on its
    /// orders.
    #[input(format = ShortText)]
    name: Option<String>,
    /// Text; null clears.
    description: Change<String>,
}

/// `status` of the list: all (or empty), active or inactive.
struct ListingStatus;

impl Scalar for ListingStatus {
    /// `None`: all.
    type Value = Option<bool>;

    fn parse(raw: &str) -> Result<Option<bool>, String> {
        match raw {
            "" | "all" => Ok(None),
            "active" => Ok(Some(true)),
            "inactive" => Ok(Some(false)),
            _ => Err("must be all, active or inactive".to_owned()),
        }
    }

    fn schema() -> serde_json::Value {
        serde_json::json!({"type": "string", "enum": ["all", "active", "inactive", ""]})
    }
}

/// The parameters of the listing list.
#[derive(Input)]
struct ListQuery {
    /// all (the default), active or inactive.
    #[input(format = ListingStatus)]
    status: Option<Option<bool>>,
    #[input(flatten)]
    page: PageQuery,
}

pub fn routes(api: Api) -> Api {
    api.route(
        "/listings",
        get(list).post(create),
        Doc::new(
            "Listings",
            "List store listings, 25 a page (status all, active or inactive), or create one (POST); a rentrack extension that orders' user_listing_name and members' user_listing_id name",
        )
        .input::<NewListing>()
        .params::<ListQuery>()
        .returns_page("listings")
        .returns("listing")
        .record::<ListingJson<'_>>(),
    )
    .route(
        "/listings/{id}",
        get(details).put_or_patch(update),
        Doc::new(
            "Listings",
            "Listing details (GET) or update (PUT or PATCH: fields left out are kept)",
        )
        .input::<ListingChanges>()
        .returns("listing")
        .record::<ListingJson<'_>>(),
    )
    .route(
        "/listings/{id}/activate",
        put_or_patch(activate),
        Doc::new("Listings", "Activate a listing (PUT or PATCH)")
            .returns("listing")
            .record::<ListingJson<'_>>(),
    )
    .route(
        "/listings/{id}/deactivate",
        put_or_patch(deactivate),
        Doc::new(
            "Listings",
            "Deactivate a listing (PUT or PATCH): new orders and members can no longer name it; the orders that do keep it",
        )
        .returns("listing")
        .record::<ListingJson<'_>>(),
    )
}

/// A listing as the contract shows it.
#[derive(Serialize, utoipa::ToSchema)]
#[schema(as = Listing)]
struct ListingJson<'a> {
    id: i64,
    name: &'a str,
    description: Option<&'a str>,
    #[schema(value_type = String, pattern = "^(active|inactive)$")]
    status: &'static str,
    active: bool,
    created_at: views::Moment,
    updated_at: views::Moment,
}

fn render(l: &Listing, tz: chrono_tz::Tz) -> ListingJson<'_> {
    ListingJson {
        id: l.id,
        name: &l.name,
        description: l.description.as_deref(),
        status: if l.active { "active" } else { "inactive" },
        active: l.active,
        created_at: moment(l.created_at, tz),
        updated_at: moment(l.updated_at, tz),
    }
}

async fn list(
    State(state): State<AppState>,
    Tenant(company): Tenant,
    params: Params,
) -> Result<views::Reply, ApiError> {
    let query = ListQuery::parse(&params)?;
    let active = query.status.flatten();
    let page = query.page.page(PageSize::DEFAULT);
    let records = listings::list(state.db(), company.id, active, page).await?;
    Ok(views::paged("listings", page, &records, |l| {
        render(l, company.time_zone)
    }))
}

async fn create(
    State(state): State<AppState>,
    Tenant(company): Tenant,
    params: Params,
) -> Result<views::Reply, ApiError> {
    let NewListing { name, description } = NewListing::parse(&params)?;
    let input = ListingInput {
        name: Some(name),
        description,
    };
    let listing = listings::create(state.db(), company.id, input).await?;
    Ok(views::one("listing", render(&listing, company.time_zone)))
}

async fn details(
    State(state): State<AppState>,
    Tenant(company): Tenant,
    Id(id): Id<kind::Listing>,
) -> Result<views::Reply, ApiError> {
    let listing = listings::find(state.db(), company.id, id).await?;
    Ok(views::one("listing", render(&listing, company.time_zone)))
}

async fn update(
    State(state): State<AppState>,
    Tenant(company): Tenant,
    Id(id): Id<kind::Listing>,
    params: Params,
) -> Result<views::Reply, ApiError> {
    let ListingChanges { name, description } = ListingChanges::parse(&params)?;
    let input = ListingInput { name, description };
    let listing = listings::update(state.db(), company.id, id, input).await?;
    Ok(views::one("listing", render(&listing, company.time_zone)))
}

async fn activate(
    State(state): State<AppState>,
    Tenant(company): Tenant,
    Id(id): Id<kind::Listing>,
) -> Result<views::Reply, ApiError> {
    let listing = listings::set_active(state.db(), company.id, id, true).await?;
    Ok(views::one("listing", render(&listing, company.time_zone)))
}

async fn deactivate(
    State(state): State<AppState>,
    Tenant(company): Tenant,
    Id(id): Id<kind::Listing>,
) -> Result<views::Reply, ApiError> {
    let listing = listings::set_active(state.db(), company.id, id, false).await?;
    Ok(views::one("listing", render(&listing, company.time_zone)))
}
