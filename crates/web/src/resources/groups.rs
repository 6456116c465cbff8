//! Groups: `/groups.api`, `/assets/classification_view.api`, `/groups/{id}.api`.

use axum::extract::State;
use domain::depreciation::{DepreciationMode, DepreciationRates};
use domain::{Change, PageSize};
use rust_decimal::Decimal;
use serde::Serialize;
use std::str::FromStr;
use store::groups::{self, Group, GroupInput};

use crate::api::{Api, Doc, get, post, put_or_patch};
use crate::auth::Tenant;
use crate::error::ApiError;
use crate::form::Form;
use crate::ids::{Id, kind};
use crate::input::{Input, PageQuery, Scalar};
use crate::params::Params;
use crate::state::AppState;
use crate::views::{self, Moment, moment};

/// The rates map beside a group's typed fields.
const RATES: &str = "depreciation_rates[<method name>]";
const RATE: &str = "The rate of a depreciation method: whole months (1 to 1200) under Useful Life, a percentage a year (above 0, at most 100) under Percentage; empty is none.";

/// A depreciation rate as sent: a number above 0 and at most 1200, written with digits
/// and at most two decimals (no leading zero but a lone one); which of those the
/// group's mode takes is `DepreciationMode::parse_rate`'s.
struct Rate;

impl Scalar for Rate {
    type Value = Decimal;

    fn parse(raw: &str) -> Result<Decimal, String> {
        let (whole, fraction) = raw.split_once('.').unwrap_or((raw, "0"));
        let digits = |s: &str, most: usize| {
            (1..=most).contains(&s.len()) && s.bytes().all(|b| b.is_ascii_digit())
        };
        Some(raw)
            .filter(|_| digits(whole, 4) && digits(fraction, 2))
            .filter(|_| whole == "0" || !whole.starts_with('0'))
            .and_then(|raw| Decimal::from_str(raw).ok())
            .filter(|rate| *rate > Decimal::ZERO && *rate <= Decimal::from(1200))
            .ok_or_else(|| {
                "must be a number above 0 and at most 1200, with at most two decimals".to_owned()
            })
    }

    fn schema() -> serde_json::Value {
        // The same numbers as `parse`: 1 to 1199 with decimals, 0.01 to 0.99, 1200.
        let pattern = r"^(?:(?:[1-9][0-9]{0,2}|1[01][0-9]{2})(?:\.[0-9]{1,2})?|0\.(?:0[1-9]|[1-9][0-9]?)|1200(?:\.00?)?)$";
        serde_json::json!({"anyOf": [
            {"type": "number", "exclusiveMinimum": 0, "maximum": 1200, "multipleOf": 0.01},
            {"type": "string", "pattern": pattern},
        ]})
    }
}

pub fn routes(api: Api) -> Api {
    api.route(
        "/groups",
        post(create),
        Doc::new("Groups", "Create a group")
            .input::<GroupInputForm>()
            .optional_map::<Rate>(RATES, RATE)
            .returns("group")
            .record::<GroupJson<'_>>(),
    )
    .route(
        "/assets/classification_view",
        get(list),
        Doc::new("Groups", "List groups, 25 a page, each wrapped as {\"group\": {...}}")
            .params::<ListQuery>()
            .returns_page("groups")
            .record::<GroupEntry<'_>>(),
    )
    .route(
        "/groups/{id}",
        put_or_patch(update).delete(delete).get(details),
        Doc::new("Groups", "Group details (GET), update (PUT or PATCH, as create) or delete (DELETE; 409 while it has subgroups or items)")
            .input::<GroupInputForm>()
            .optional_map::<Rate>(RATES, RATE)
            .returns("group")
            .record::<GroupJson<'_>>(),
    )
}

/// A group's fields, on create and update (beside its rates).
#[derive(Input)]
#[input(resource = "group")]
struct GroupInputForm {
    /// At least 3 characters.
    name: domain::Name,
    /// `null` clears.
    description: Change<String>,
    /// Useful Life (the default; rates in months) or Percentage (rates in percent a
    /// year).
    #[input(format = Mode)]
    asset_depreciation_mode: Option<DepreciationMode>,
}

/// How a group's rates count: `Useful Life` or `Percentage`, any case.
struct Mode;

impl Scalar for Mode {
    type Value = DepreciationMode;

    fn parse(raw: &str) -> Result<DepreciationMode, String> {
        DepreciationMode::parse(raw)
            .ok_or_else(|| "must be `Useful Life` or `Percentage`".to_owned())
    }

    fn schema() -> serde_json::Value {
        serde_json::json!({"type": "string", "enum": ["Useful Life", "Percentage", "useful_life"]})
    }
}

/// The parameters of the group list.
#[derive(Input)]
struct ListQuery {
    /// Accepted for the hosted service's clients.
    #[input(rename = "show_document_details")]
    _show_document_details: Option<bool>,
    #[input(flatten)]
    page: PageQuery,
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
    let input = GroupInputForm::read(&mut form);
    form.check_map("depreciation_rates", "depreciation_rates");
    let entries = params.map("depreciation_rates");
    let rates = if entries.is_empty() {
        None
    } else {
        let rate_mode = form
            .peek::<Mode>("asset_depreciation_mode")
            .or(stored_mode)
            .unwrap_or(DepreciationMode::UsefulLife);
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
            match Rate::parse(&raw).and_then(|_| rate_mode.parse_rate(&raw)) {
                Ok(rate) => {
                    rates.insert(method, rate);
                }
                Err(problem) => form.error(&format!("depreciation_rates[{method}]"), problem),
            }
        }
        Some(rates)
    };
    let input = form.finish_with(input)?;
    Ok(GroupInput {
        name: input.name,
        description: input.description,
        mode: input.asset_depreciation_mode,
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
    let page = ListQuery::parse(&params)?.page.page(PageSize::DEFAULT);
    let records = groups::list(state.db(), company.id, page).await?;
    Ok(views::paged("groups", page, &records, |g| GroupEntry {
        group: render(g, company.time_zone),
    }))
}

async fn details(
    State(state): State<AppState>,
    Tenant(company): Tenant,
    Id(id): Id<kind::Group>,
) -> Result<views::Reply, ApiError> {
    let group = groups::find(state.db(), company.id, id).await?;
    Ok(views::one("group", render(&group, company.time_zone)))
}

async fn update(
    State(state): State<AppState>,
    Tenant(company): Tenant,
    Id(id): Id<kind::Group>,
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
    Id(id): Id<kind::Group>,
) -> Result<views::Reply, ApiError> {
    let group = groups::delete(state.db(), company.id, id).await?;
    Ok(views::one("group", render(&group, company.time_zone)))
}

/// Writes one import row as a new group (`key` none) or as changes to group `key`, in
/// the import's transaction. Rates are no column: a map is no cell.
pub(crate) async fn import_row(
    tx: &mut store::Tx,
    company: store::CompanyId,
    params: &Params,
    key: Option<i64>,
) -> Result<super::imports::Written, ApiError> {
    use super::imports::Written;
    match key {
        None => {
            groups::create_in(tx, company, read_input(params, None)?).await?;
            Ok(Written::Created)
        }
        Some(id) => {
            let id = store::Id::new(id);
            let stored = groups::find_in(tx, company, id).await?;
            let input = read_input(params, DepreciationMode::parse(&stored.depreciation_mode))?;
            groups::update_in(tx, company, id, input).await?;
            Ok(Written::Updated)
        }
    }
}

/// The columns a group import reads besides `id`.
pub(crate) fn import_columns() -> Vec<&'static str> {
    GroupInputForm::fields().iter().map(|f| f.name).collect()
}
