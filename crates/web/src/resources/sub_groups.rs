//! Subgroups: `/groups/{group}/sub_groups.api`, `/groups/get_sub_groups.api`,
//! `/groups/{group}/sub_groups/{id}.api`.

use axum::extract::State;
use domain::{Change, PageSize};
use store::sub_groups::{self, SubGroup, SubGroupInput};

use crate::api::{Api, Doc, get, post};
use crate::auth::Tenant;
use crate::error::ApiError;
use crate::ids::{Id, Under, kind};
use crate::input::{Input, PageQuery, RecordId};
use crate::params::Params;
use crate::state::AppState;
use crate::views::{self, moment};

pub fn routes(api: Api) -> Api {
    api.route(
        "/groups/{group_id}/sub_groups",
        post(create),
        Doc::new("Subgroups", "Create a subgroup under a group").input::<SubGroupForm>().returns("sub_group").record::<SubGroupJson<'_>>(),
    )
    .route(
        "/groups/get_sub_groups",
        get(list),
        Doc::new("Subgroups", "List subgroups of the company or of one group, 25 a page")
            .params::<ListQuery>()
            .returns_page("sub_groups")
            .record::<SubGroupJson<'_>>(),
    )
    .route(
        "/groups/{group_id}/sub_groups/{id}",
        get(details).put_or_patch(update).delete(delete),
        Doc::new("Subgroups", "Subgroup details (GET), update (PUT or PATCH) or delete (DELETE; 409 while it has child subgroups or items)")
            .input::<SubGroupForm>()
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

/// A subgroup's fields, on create and update.
#[derive(Input)]
#[input(resource = "sub_group")]
struct SubGroupForm {
    name: domain::Name,
    description: Change<String>,
    /// The id of a subgroup of the same group to sit under; `null` or 0 clears (on
    /// update).
    #[input(format = RecordId)]
    parent_id: Change<i64>,
}

impl From<SubGroupForm> for SubGroupInput {
    fn from(f: SubGroupForm) -> Self {
        SubGroupInput {
            name: f.name,
            description: f.description,
            parent_id: f.parent_id.map(store::Id::new),
        }
    }
}

/// The parameters of the subgroup list.
#[derive(Input)]
struct ListQuery {
    /// Only this group's subgroups.
    #[input(format = RecordId)]
    group_id: Option<i64>,
    #[input(flatten)]
    page: PageQuery,
}

async fn create(
    State(state): State<AppState>,
    Tenant(company): Tenant,
    Under(group): Under<kind::Group>,
    params: Params,
) -> Result<views::Reply, ApiError> {
    let mut input = SubGroupInput::from(SubGroupForm::parse(&params)?);
    // A new subgroup has no parent to clear.
    if input.parent_id == Change::Clear {
        input.parent_id = Change::Keep;
    }
    let sub = sub_groups::create(state.db(), company.id, group, input).await?;
    Ok(views::one("sub_group", render(&sub, company.time_zone)))
}

async fn list(
    State(state): State<AppState>,
    Tenant(company): Tenant,
    params: Params,
) -> Result<views::Reply, ApiError> {
    let query = ListQuery::parse(&params)?;
    let page = query.page.page(PageSize::DEFAULT);
    let records = sub_groups::list(
        state.db(),
        company.id,
        query.group_id.map(store::Id::new),
        page,
    )
    .await?;
    Ok(views::paged("sub_groups", page, &records, |s| {
        render(s, company.time_zone)
    }))
}

async fn details(
    State(state): State<AppState>,
    Tenant(company): Tenant,
    Under(group): Under<kind::Group>,
    Id(id): Id<kind::SubGroup>,
) -> Result<views::Reply, ApiError> {
    let sub = sub_groups::find(state.db(), company.id, group, id).await?;
    Ok(views::one("sub_group", render(&sub, company.time_zone)))
}

async fn update(
    State(state): State<AppState>,
    Tenant(company): Tenant,
    Under(group): Under<kind::Group>,
    Id(id): Id<kind::SubGroup>,
    params: Params,
) -> Result<views::Reply, ApiError> {
    let input = SubGroupInput::from(SubGroupForm::parse(&params)?);
    let sub = sub_groups::update(state.db(), company.id, group, id, input).await?;
    Ok(views::one("sub_group", render(&sub, company.time_zone)))
}

async fn delete(
    State(state): State<AppState>,
    Tenant(company): Tenant,
    Under(group): Under<kind::Group>,
    Id(id): Id<kind::SubGroup>,
) -> Result<views::Reply, ApiError> {
    let sub = sub_groups::delete(state.db(), company.id, group, id).await?;
    Ok(views::one("sub_group", render(&sub, company.time_zone)))
}

/// Writes one import row as a new subgroup of the row's group (`key` none) or as
/// changes to subgroup `key` of it, in the import's transaction. The group comes as
/// `sub_group[group_id]`, the path's id of the API's writes.
pub(crate) async fn import_row(
    tx: &mut store::Tx,
    company: store::CompanyId,
    params: &Params,
    key: Option<i64>,
) -> Result<super::imports::Written, ApiError> {
    use super::imports::Written;
    let mut form = crate::form::Form::new(params, "sub_group");
    let fields = SubGroupForm::read(&mut form);
    let group = form.required_id("group_id");
    let (fields, group) = form.finish_with(fields.zip(group))?;
    let mut input = SubGroupInput::from(fields);
    let group = store::Id::new(group);
    match key {
        None => {
            // A new subgroup has no parent to clear.
            if input.parent_id == Change::Clear {
                input.parent_id = Change::Keep;
            }
            sub_groups::create_in(tx, company, group, input).await?;
            Ok(Written::Created)
        }
        Some(id) => {
            sub_groups::update_in(tx, company, group, store::Id::new(id), input).await?;
            Ok(Written::Updated)
        }
    }
}

/// The columns a subgroup import reads besides `id`, `group` and `parent`.
pub(crate) fn import_columns() -> Vec<&'static str> {
    let mut columns: Vec<&'static str> = SubGroupForm::fields().iter().map(|f| f.name).collect();
    columns.insert(0, "group_id");
    columns
}
