//! Groups: `/groups.api`, `/assets/classification_view.api`, `/groups/{id}.api`.

use axum::extract::State;
use domain::PageSize;
use domain::depreciation::{DepreciationMode, DepreciationRates};
use serde::Serialize;
use store::groups::{self, Group, GroupInput};

use crate::api::{Api, Doc, get, post, put_or_patch};
use crate::auth::Tenant;
use crate::error::ApiError;
use crate::form::Form;
use crate::ids::{Id, kind};
use crate::params::Params;
use crate::state::AppState;
use crate::views::{self, Moment, moment};

const FIELDS: &[(&str, &str)] = &[
    ("name", "required, at least 3 characters"),
    ("description", "text"),
    (
        "asset_depreciation_mode",
        "`Useful Life` (default; rates in months) or `Percentage` (rates in percent a year)",
    ),
];

pub fn routes(api: Api) -> Api {
    api.route(
        "/groups",
        post(create),
        Doc::new("Groups", "Create a group")
            .form("group", FIELDS)
            .query(&[("depreciation_rates[<method name>]", "rate per depreciation method")])
            .returns("group")
            .record::<GroupJson<'_>>(),
    )
    .route(
        "/assets/classification_view",
        get(list),
        Doc::new("Groups", "List groups, 25 a page, each wrapped as {\"group\": {...}}")
            .query(&[("page", "page number, default 1"), ("show_document_details", "boolean")])
            .returns_page("groups")
            .record::<GroupEntry<'_>>(),
    )
    .route(
        "/groups/{id}",
        put_or_patch(update).delete(delete).get(details),
        Doc::new("Groups", "Group details (GET), update (PUT or PATCH, as create) or delete (DELETE; 409 while it has subgroups or items)")
            .form("group", FIELDS)
            .returns("group")
            .record::<GroupJson<'_>>(),
    )
}

/// A group as the contract shows it.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(as = Group)]
pub struct GroupJson<'a> {
    id: i64,
    name: &'a str,
    description: Option<&'a str>,
    /// Whether the rates are useful lives in months or percentages a year.
    #[schema(pattern = "^(Useful Life|Percentage)$")]
    asset_depreciation_mode: &'a str,
    /// The rate of each depreciation method, by the method's name: a decimal string.
    #[schema(value_type = BTreeMap<String, String>)]
    depreciation_rates: serde_json::Map<String, serde_json::Value>,
    created_at: Moment,
    updated_at: Moment,
}

/// A group in the classification view's list: wrapped in its singular, as the hosted
/// service writes it.
#[derive(Serialize, utoipa::ToSchema)]
#[schema(as = GroupListEntry)]
pub struct GroupEntry<'a> {
    group: GroupJson<'a>,
}

pub fn render(g: &Group, tz: chrono_tz::Tz) -> GroupJson<'_> {
    GroupJson {
        id: g.id,
        name: &g.name,
        description: g.description.as_deref(),
        asset_depreciation_mode: &g.depreciation_mode,
        depreciation_rates: g.rates(),
        created_at: moment(g.created_at, tz),
        updated_at: moment(g.updated_at, tz),
    }
}

/// `stored_mode` is the group's mode on update: rates sent without a mode are
/// checked against it.
fn read_input(
    params: &Params,
    stored_mode: Option<DepreciationMode>,
) -> Result<GroupInput, ApiError> {
    let mut form = Form::new(params, "group");
    let name = form.name("name", domain::Name::parse);
    let description = form.text("description");
    let mode = match params.get("group[asset_depreciation_mode]") {
        None => None,
        Some(raw) => match DepreciationMode::parse(raw) {
            Some(m) => Some(m),
            None => {
                form.error(
                    "asset_depreciation_mode",
                    "must be `Useful Life` or `Percentage`",
                );
                None
            }
        },
    };
    let entries = params.map("depreciation_rates");
    let rates = if entries.is_empty() {
        None
    } else {
        let rate_mode = mode.or(stored_mode).unwrap_or(DepreciationMode::UsefulLife);
        let mut rates = DepreciationRates::new();
        for (method, raw) in entries {
            let method = method.trim().to_owned();
            if method.is_empty() {
                form.error(
                    "depreciation_rates",
                    "needs a depreciation method name in brackets",
                );
                continue;
            }
            if raw.is_empty() {
                continue;
            }
            match rate_mode.parse_rate(&raw) {
                Ok(rate) => {
                    rates.insert(method, rate);
                }
                Err(problem) => form.error(&format!("depreciation_rates[{method}]"), problem),
            }
        }
        Some(rates)
    };
    form.finish()?;
    Ok(GroupInput {
        name: name.expect("reported by finish"),
        description,
        mode,
        rates,
    })
}

async fn create(
    State(state): State<AppState>,
    Tenant(company): Tenant,
    params: Params,
) -> Result<views::Reply, ApiError> {
    let group = groups::create(state.db(), company.id, read_input(&params, None)?).await?;
    Ok(views::one("group", render(&group, company.time_zone)))
}

async fn list(
    State(state): State<AppState>,
    Tenant(company): Tenant,
    params: Params,
) -> Result<views::Reply, ApiError> {
    views::flag(&params, "show_document_details")?;
    let page = views::page(&params, PageSize::DEFAULT)?;
    let records = groups::list(state.db(), company.id, page).await?;
    Ok(views::paged("groups", page, &records, |g| GroupEntry {
        group: render(g, company.time_zone),
    }))
}

async fn details(
    State(state): State<AppState>,
    Tenant(company): Tenant,
    Id(id, _): Id<kind::Group>,
) -> Result<views::Reply, ApiError> {
    let group = groups::find(state.db(), company.id, id).await?;
    Ok(views::one("group", render(&group, company.time_zone)))
}

async fn update(
    State(state): State<AppState>,
    Tenant(company): Tenant,
    Id(id, _): Id<kind::Group>,
    params: Params,
) -> Result<views::Reply, ApiError> {
    let stored = groups::find(state.db(), company.id, id).await?;
    let input = read_input(&params, DepreciationMode::parse(&stored.depreciation_mode))?;
    let group = groups::update(state.db(), company.id, id, input).await?;
    Ok(views::one("group", render(&group, company.time_zone)))
}

async fn delete(
    State(state): State<AppState>,
    Tenant(company): Tenant,
    Id(id, _): Id<kind::Group>,
) -> Result<views::Reply, ApiError> {
    let group = groups::delete(state.db(), company.id, id).await?;
    Ok(views::one("group", render(&group, company.time_zone)))
}
