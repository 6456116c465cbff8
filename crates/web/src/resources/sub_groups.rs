//! Subgroups: `/groups/{group}/sub_groups.api`, `/groups/get_sub_groups.api`,
//! `/groups/{group}/sub_groups/{id}.api`.

use axum::extract::State;
use domain::PageSize;
use store::sub_groups::{self, SubGroup, SubGroupInput};

use crate::api::{Api, Doc, get, post};
use crate::auth::Tenant;
use crate::error::ApiError;
use crate::form::Form;
use crate::ids::{Id, Under, kind};
use crate::params::Params;
use crate::state::AppState;
use crate::views::{self, moment};

const FIELDS: &[(&str, &str)] = &[
    ("name", "required, at least 3 characters"),
    ("description", "text"),
    (
        "parent_id",
        "id of a subgroup of the same group; null clears",
    ),
];

pub fn routes(api: Api) -> Api {
    api.route(
        "/groups/{group_id}/sub_groups",
        post(create),
        Doc::new("Subgroups", "Create a subgroup under a group").form("sub_group", FIELDS).returns("sub_group").record::<SubGroupJson<'_>>(),
    )
    .route(
        "/groups/get_sub_groups",
        get(list),
        Doc::new("Subgroups", "List subgroups of the company or of one group, 25 a page")
            .query(&[("group_id", "only this group's subgroups"), ("page", "page number, default 1")])
            .returns_page("sub_groups")
            .record::<SubGroupJson<'_>>(),
    )
    .route(
        "/groups/{group_id}/sub_groups/{id}",
        get(details).put_or_patch(update).delete(delete),
        Doc::new("Subgroups", "Subgroup details (GET), update (PUT or PATCH) or delete (DELETE; 409 while it has child subgroups or items)")
            .form("sub_group", FIELDS)
            .returns("sub_group")
            .record::<SubGroupJson<'_>>(),
    )
}

/// A subgroup as the contract shows it.
#[derive(serde::Serialize, utoipa::ToSchema)]
#[schema(as = SubGroup)]
pub struct SubGroupJson<'a> {
    id: i64,
    group_id: i64,
    /// The subgroup it sits under, if any.
    parent_id: Option<i64>,
    name: &'a str,
    description: Option<&'a str>,
    created_at: views::Moment,
    updated_at: views::Moment,
}

pub fn render(s: &SubGroup, tz: chrono_tz::Tz) -> SubGroupJson<'_> {
    SubGroupJson {
        id: s.id,
        group_id: s.group_id,
        parent_id: s.parent_id,
        name: &s.name,
        description: s.description.as_deref(),
        created_at: moment(s.created_at, tz),
        updated_at: moment(s.updated_at, tz),
    }
}

fn read_input(params: &Params) -> Result<SubGroupInput, ApiError> {
    let mut form = Form::new(params, "sub_group");
    let name = form.name("name", domain::Name::parse);
    let description = form.text("description");
    let parent_id = form.id("parent_id");
    form.finish()?;
    Ok(SubGroupInput {
        name: name.expect("reported by finish"),
        description,
        parent_id,
    })
}

async fn create(
    State(state): State<AppState>,
    Tenant(company): Tenant,
    Under(group, _): Under<kind::Group>,
    params: Params,
) -> Result<views::Reply, ApiError> {
    let mut input = read_input(&params)?;
    if matches!(input.parent_id, domain::Change::Clear) {
        input.parent_id = domain::Change::Keep;
    }
    let sub = sub_groups::create(state.db(), company.id, group, input).await?;
    Ok(views::one("sub_group", render(&sub, company.time_zone)))
}

async fn list(
    State(state): State<AppState>,
    Tenant(company): Tenant,
    params: Params,
) -> Result<views::Reply, ApiError> {
    let group = match params.get("group_id") {
        None => None,
        Some(raw) => Some(crate::form::parse_id(raw).ok_or_else(|| {
            ApiError::field("group_id", "must be a positive whole number (an id)")
        })?),
    };
    let page = views::page(&params, PageSize::DEFAULT)?;
    let records = sub_groups::list(state.db(), company.id, group, page).await?;
    Ok(views::paged("sub_groups", page, &records, |s| {
        render(s, company.time_zone)
    }))
}

async fn details(
    State(state): State<AppState>,
    Tenant(company): Tenant,
    Under(group, _): Under<kind::Group>,
    Id(id, _): Id<kind::SubGroup>,
) -> Result<views::Reply, ApiError> {
    let sub = sub_groups::find(state.db(), company.id, group, id).await?;
    Ok(views::one("sub_group", render(&sub, company.time_zone)))
}

async fn update(
    State(state): State<AppState>,
    Tenant(company): Tenant,
    Under(group, _): Under<kind::Group>,
    Id(id, _): Id<kind::SubGroup>,
    params: Params,
) -> Result<views::Reply, ApiError> {
    let sub = sub_groups::update(state.db(), company.id, group, id, read_input(&params)?).await?;
    Ok(views::one("sub_group", render(&sub, company.time_zone)))
}

async fn delete(
    State(state): State<AppState>,
    Tenant(company): Tenant,
    Under(group, _): Under<kind::Group>,
    Id(id, _): Id<kind::SubGroup>,
) -> Result<views::Reply, ApiError> {
    let sub = sub_groups::delete(state.db(), company.id, group, id).await?;
    Ok(views::one("sub_group", render(&sub, company.time_zone)))
}
