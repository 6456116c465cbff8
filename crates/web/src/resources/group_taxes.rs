//! Group taxes: `GET /group_taxes.api` (the spec's list of group tax ids) and, as
//! rentrack extensions, `POST /group_taxes.api` to define one from custom taxes and
//! `GET /group_taxes/{id}.api` to read one.

use axum::extract::State;
use domain::{Name, PageSize};
use store::group_taxes::{self, GroupTaxRecord};

use super::custom_taxes::percent;
use crate::api::{Api, Doc, get};
use crate::auth::Tenant;
use crate::error::ApiError;
use crate::ids::{Id, kind};
use crate::input::{AnyName, Format, IdList, Input, PageQuery, Shape, SomeIds};
use crate::params::Params;
use crate::state::AppState;
use crate::views::{self, moment};

pub fn routes(api: Api) -> Api {
    api.route(
        "/group_taxes",
        get(list).post(create),
        Doc::new(
            "Taxes",
            "The company's group taxes with their custom taxes, 25 a page (GET), or a new one (POST, rentrack extension)",
        )
        .input::<NewGroupTax>()
        .params::<PageQuery>()
        .returns("group_tax")
        .returns_page("group_taxes")
        .record::<GroupTaxJson<'_>>(),
    )
    .route(
        "/group_taxes/{id}",
        get(details),
        Doc::new(
            "Taxes",
            "Group tax details with its custom taxes (rentrack extension)",
        )
        .returns("group_tax")
        .record::<GroupTaxJson<'_>>(),
    )
}

/// A group tax as the contract shows it, with the custom taxes it sums.
#[derive(serde::Serialize, utoipa::ToSchema)]
#[schema(as = GroupTax)]
struct GroupTaxJson<'a> {
    id: i64,
    name: &'a str,
    /// The sum of its custom taxes' rates, in percent.
    rate: String,
    custom_taxes: Vec<GroupTaxPart<'a>>,
    created_at: views::Moment,
    updated_at: views::Moment,
}

/// One custom tax of a group tax.
#[derive(serde::Serialize, utoipa::ToSchema)]
#[schema(as = GroupTaxPart)]
struct GroupTaxPart<'a> {
    id: i64,
    name: &'a str,
    /// Percent.
    rate: String,
}

fn render(g: &GroupTaxRecord, tz: chrono_tz::Tz) -> GroupTaxJson<'_> {
    GroupTaxJson {
        id: g.id,
        name: &g.name,
        rate: percent(g.rate_ppm()),
        custom_taxes: g
            .components
            .iter()
            .map(|c| GroupTaxPart {
                id: c.id,
                name: &c.name,
                rate: percent(c.rate_ppm),
            })
            .collect(),
        created_at: moment(g.created_at, tz),
        updated_at: moment(g.updated_at, tz),
    }
}

/// A new group tax.
#[derive(Input)]
#[input(resource = "group_tax")]
struct NewGroupTax {
    /// Unique in the company.
    #[input(format = AnyName)]
    name: Name,
    /// The custom taxes it sums: their ids, a comma list (1,2) or repeated `[]`.
    #[input(format = TaxIds)]
    custom_tax_ids: Vec<i64>,
}

/// The ids of the custom taxes a group tax sums: at least one.
struct TaxIds;

impl Format for TaxIds {
    type Value = Vec<i64>;
    const SHAPE: Shape = Shape::List;

    fn read(params: &Params, path: &str) -> Option<Result<Vec<i64>, String>> {
        IdList::read_unless_empty(params, path)
    }

    fn schema() -> serde_json::Value {
        SomeIds::schema()
    }

    fn blank() -> String {
        "can't be blank: give the ids of the custom taxes it sums (GET /custom_taxes.api lists them)".to_owned()
    }
}

async fn create(
    State(state): State<AppState>,
    Tenant(company): Tenant,
    params: Params,
) -> Result<views::Reply, ApiError> {
    let NewGroupTax {
        name,
        custom_tax_ids,
    } = NewGroupTax::parse(&params)?;
    let group = group_taxes::create(
        state.db(),
        company.id,
        name,
        &store::Id::each(custom_tax_ids),
    )
    .await?;
    Ok(views::one("group_tax", render(&group, company.time_zone)))
}

async fn list(
    State(state): State<AppState>,
    Tenant(company): Tenant,
    params: Params,
) -> Result<views::Reply, ApiError> {
    let page = PageQuery::parse(&params)?.page(PageSize::DEFAULT);
    let records = group_taxes::list(state.db(), company.id, page).await?;
    Ok(views::paged("group_taxes", page, &records, |g| {
        render(g, company.time_zone)
    }))
}

async fn details(
    State(state): State<AppState>,
    Tenant(company): Tenant,
    Id(id): Id<kind::GroupTax>,
) -> Result<views::Reply, ApiError> {
    let group = group_taxes::find(state.db(), company.id, id).await?;
    Ok(views::one("group_tax", render(&group, company.time_zone)))
}
