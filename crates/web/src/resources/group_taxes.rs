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
use crate::form::Form;
use crate::ids::{Id, kind};
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
        .form(
            "group_tax",
            &[
                ("name", "required, unique in the company"),
                (
                    "custom_tax_ids",
                    "required: the custom taxes it sums, a comma list of their ids (1,2) or repeated []",
                ),
            ],
        )
        .query(&[("page", "page number, default 1")])
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

async fn create(
    State(state): State<AppState>,
    Tenant(company): Tenant,
    params: Params,
) -> Result<views::Reply, ApiError> {
    let mut form = Form::new(&params, "group_tax");
    let name = form.name("name", Name::parse_required);
    let ids = form.ids_at(
        "group_tax[custom_tax_ids]",
        "custom_tax_ids",
        "custom tax ids",
    );
    if ids.is_empty() && !form.has_errors_for("custom_tax_ids") {
        form.error(
            "custom_tax_ids",
            "can't be blank: give the ids of the custom taxes it sums (GET /custom_taxes.api lists them)",
        );
    }
    form.finish()?;
    let name = name.expect("reported by finish");
    let group = group_taxes::create(state.db(), company.id, name, &ids).await?;
    Ok(views::one("group_tax", render(&group, company.time_zone)))
}

async fn list(
    State(state): State<AppState>,
    Tenant(company): Tenant,
    params: Params,
) -> Result<views::Reply, ApiError> {
    let page = views::page(&params, PageSize::DEFAULT)?;
    let records = group_taxes::list(state.db(), company.id, page).await?;
    Ok(views::paged("group_taxes", page, &records, |g| {
        render(g, company.time_zone)
    }))
}

async fn details(
    State(state): State<AppState>,
    Tenant(company): Tenant,
    Id(id, _): Id<kind::GroupTax>,
) -> Result<views::Reply, ApiError> {
    let group = group_taxes::find(state.db(), company.id, id)
        .await
        .map_err(ApiError::from_record("group tax"))?;
    Ok(views::one("group_tax", render(&group, company.time_zone)))
}
