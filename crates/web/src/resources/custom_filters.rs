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
use crate::input::{AnyName, Format, Input, PageQuery, Scalar, Shape};
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
            .input::<NewCustomFilter>()
            .params::<ListQuery>()
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

/// A kind of item as custom filters name it: fixed_assets, volatile_assets or
/// stock_assets.
struct AssetsType;

impl Scalar for AssetsType {
    type Value = &'static str;

    fn parse(raw: &str) -> Result<&'static str, String> {
        ASSETS_TYPES
            .iter()
            .copied()
            .find(|known| *known == raw)
            .ok_or_else(|| format!("must be one of {}", ASSETS_TYPES.join(", ")))
    }

    fn schema() -> serde_json::Value {
        serde_json::json!({"type": "string", "enum": ASSETS_TYPES})
    }
}

/// A filter's conditions as sent: 1 to [`MAX_CONDITIONS`] texts, each a built-in
/// filter as `status` or `status:filter_param_val` (`group:3:9` adds a subgroup).
struct Conditions;

impl Format for Conditions {
    type Value = Vec<String>;
    const SHAPE: Shape = Shape::List;

    fn read(params: &Params, path: &str) -> Option<Result<Vec<String>, String>> {
        match params.list(path, MAX_LIST_ENTRIES) {
            Ok(raws) if raws.is_empty() => None,
            Ok(raws) if raws.len() > MAX_CONDITIONS => {
                Some(Err(format!("can hold at most {MAX_CONDITIONS} conditions")))
            }
            Ok(raws) => Some(Ok(raws)),
            Err(bad) => Some(Err(bad.to_string())),
        }
    }

    fn schema() -> serde_json::Value {
        serde_json::json!({
            "type": "array",
            "items": {"type": "string", "minLength": 1},
            "minItems": 1,
            "maxItems": MAX_CONDITIONS,
        })
    }

    fn blank() -> String {
        "can't be blank: at least one condition".to_owned()
    }
}

/// A new custom filter.
#[derive(Input)]
#[input(resource = "custom_filter")]
struct NewCustomFilter {
    /// Unique for its kind of item.
    #[input(format = AnyName)]
    name: Name,
    #[input(format = AssetsType)]
    assets_type: &'static str,
    /// Each a built-in filter as status or status:filter_param_val (group:3:9 adds a
    /// subgroup); all must hold.
    #[input(format = Conditions)]
    #[expect(
        dead_code,
        reason = "checked here for their number; each is read for the kind of item by `create`, whatever else failed"
    )]
    conditions: Vec<String>,
}

/// The parameters of the custom filter list.
#[derive(Input)]
struct ListQuery {
    /// The kind of item: fixed_assets (the default), volatile_assets or stock_assets.
    #[input(format = AssetsType)]
    assets_type: Option<&'static str>,
    #[input(flatten)]
    page: PageQuery,
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
    let input = NewCustomFilter::read(&mut form);
    // Each condition is read for its kind of item, whatever else failed.
    let mut conditions = Vec::new();
    if let (Some(kind), Some(raws)) = (
        form.peek::<AssetsType>("assets_type")
            .and_then(custom_filters::kind_of),
        form.peek::<Conditions>("conditions"),
    ) {
        for raw in &raws {
            match condition(raw, kind) {
                Ok(c) => conditions.push(c),
                Err(problem) => form.error("conditions", problem),
            }
        }
    }
    let NewCustomFilter {
        name, assets_type, ..
    } = form.finish_with(input)?;
    let kind = assets_type;
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
    let query = ListQuery::parse(&params)?;
    let page = query.page.page(PageSize::DEFAULT);
    let kind = query.assets_type.unwrap_or("fixed_assets");
    let records = custom_filters::list(state.db(), company.id, kind, page).await?;
    Ok(views::paged("custom_filters", page, &records, |f| {
        render(f, company.time_zone)
    }))
}
