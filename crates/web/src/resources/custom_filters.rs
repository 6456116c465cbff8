//! Custom filters: `GET /custom_filters.api?assets_type=...` (the spec's list) and, as a
//! rentrack extension, `POST /custom_filters.api` to define one as a named
//! conjunction of the built-in filters, each written `status` or `status:value`
//! (`group:3:9` for a subgroup).

use axum::extract::State;
use domain::asset_filter::AssetFilter;
use domain::item::AssetType;
use domain::{Name, PageSize};
use store::custom_filters::{self, ASSETS_TYPES, Condition, CustomFilter};

use crate::api::{Api, Doc, get};
use crate::auth::Tenant;
use crate::error::ApiError;
use crate::form::{Form, MAX_LIST_ENTRIES};
use crate::params::Params;
use crate::state::AppState;
use crate::views::{self, moment};

/// Conditions one filter may hold.
const MAX_CONDITIONS: usize = 20;

pub fn routes(api: Api) -> Api {
    api.route(
        "/custom_filters",
        get(list).post(create),
        Doc::new("Fixed assets", "Custom filters of one kind of item, 25 a page (GET), or a new one (POST, rentrack extension); use one as status=custom_filter_<id>")
            .form(
                "custom_filter",
                &[
                    ("name", "required, unique for its kind of item"),
                    ("assets_type", "required: fixed_assets, volatile_assets or stock_assets"),
                    ("conditions][", "required, 1 to 20: each a built-in filter as status or status:filter_param_val (group:3:9 adds a subgroup); all must hold"),
                ],
            )
            .query(&[
                ("assets_type", "fixed_assets (default), volatile_assets or stock_assets"),
                ("page", "page number, default 1"),
            ])
            .returns("custom_filter")
            .returns_page("custom_filters")
            .record::<CustomFilterJson<'_>>(),
    )
}

/// A custom filter as the contract shows it.
#[derive(serde::Serialize, utoipa::ToSchema)]
#[schema(as = CustomFilter)]
struct CustomFilterJson<'a> {
    id: i64,
    name: &'a str,
    #[schema(value_type = String, pattern = "^(fixed_assets|volatile_assets|stock_assets)$")]
    assets_type: &'a str,
    /// What a list's `status` takes to apply it: `custom_filter_<id>`.
    #[schema(pattern = "^custom_filter_[0-9]+$")]
    status: String,
    conditions: Vec<FilterCondition>,
    created_at: views::Moment,
    updated_at: views::Moment,
}

/// One built-in filter of a custom filter.
#[derive(serde::Serialize, utoipa::ToSchema)]
struct FilterCondition {
    status: String,
    filter_param_val: Option<String>,
    sub_group_param_val: Option<String>,
}

fn render(f: &CustomFilter, tz: chrono_tz::Tz) -> CustomFilterJson<'_> {
    CustomFilterJson {
        id: f.id,
        name: &f.name,
        assets_type: &f.assets_type,
        status: format!("custom_filter_{}", f.id),
        conditions: f
            .conditions()
            .into_iter()
            .map(|c| FilterCondition {
                status: c.status,
                filter_param_val: c.value,
                sub_group_param_val: c.sub_group,
            })
            .collect(),
        created_at: moment(f.created_at, tz),
        updated_at: moment(f.updated_at, tz),
    }
}

fn assets_type(raw: Option<&str>) -> Result<&'static str, String> {
    match raw {
        None => Ok("fixed_assets"),
        Some(t) => ASSETS_TYPES
            .iter()
            .copied()
            .find(|known| *known == t)
            .ok_or_else(|| format!("must be one of {}", ASSETS_TYPES.join(", "))),
    }
}

/// `status`, `status:value` or `group:<group>:<subgroup>`.
fn condition(raw: &str, kind: AssetType) -> Result<Condition, String> {
    let mut parts = raw.splitn(3, ':');
    let status = parts.next().unwrap_or_default().trim().to_owned();
    let value = parts.next().map(|v| v.trim().to_owned());
    let sub_group = parts.next().map(|v| v.trim().to_owned());
    let c = Condition {
        status,
        value,
        sub_group,
    };
    match c.filter(kind) {
        Ok(AssetFilter::Custom(_)) => Err(format!("{raw:?}: a custom filter cannot hold another")),
        Ok(_) => Ok(c),
        Err(e) => Err(format!("{raw:?}: {} {}", e.field, e.problem)),
    }
}

async fn create(
    State(state): State<AppState>,
    Tenant(company): Tenant,
    params: Params,
) -> Result<views::Reply, ApiError> {
    let mut form = Form::new(&params, "custom_filter");
    let name = form.name("name", Name::parse_required);
    let kind = match params.get("custom_filter[assets_type]") {
        None => {
            form.error("assets_type", "can't be blank");
            None
        }
        Some(raw) => assets_type(Some(raw))
            .map_err(|p| form.error("assets_type", p))
            .ok(),
    };
    let raws = params
        .list("custom_filter[conditions]", MAX_LIST_ENTRIES)
        .unwrap_or_default();
    if raws.is_empty() {
        form.error("conditions", "can't be blank: at least one condition");
    } else if raws.len() > MAX_CONDITIONS {
        form.error(
            "conditions",
            format!("can hold at most {MAX_CONDITIONS} conditions"),
        );
    }
    let mut conditions = Vec::new();
    for raw in raws.iter().take(MAX_CONDITIONS) {
        let Some(kind) = kind.and_then(custom_filters::kind_of) else {
            break;
        };
        match condition(raw, kind) {
            Ok(c) => conditions.push(c),
            Err(problem) => form.error("conditions", problem),
        }
    }
    form.finish()?;
    let (Some(name), Some(kind)) = (name, kind) else {
        unreachable!("reported by finish");
    };
    let filter =
        custom_filters::create(state.db(), company.id, name.as_str(), kind, &conditions).await?;
    Ok(views::one(
        "custom_filter",
        render(&filter, company.time_zone),
    ))
}

async fn list(
    State(state): State<AppState>,
    Tenant(company): Tenant,
    params: Params,
) -> Result<views::Reply, ApiError> {
    let page = views::page(&params, PageSize::DEFAULT)?;
    let kind =
        assets_type(params.get("assets_type")).map_err(|p| ApiError::field("assets_type", p))?;
    let records = custom_filters::list(state.db(), company.id, kind, page).await?;
    Ok(views::paged("custom_filters", page, &records, |f| {
        render(f, company.time_zone)
    }))
}
