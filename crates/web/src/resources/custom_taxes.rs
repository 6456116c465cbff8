//! Custom taxes: `GET /custom_taxes.api` (the spec's list of tax ids) and, as a
//! rentrack extension, `POST /custom_taxes.api` to define one.

use axum::extract::State;
use domain::{Name, PageSize};
use rust_decimal::Decimal;
use store::custom_taxes::{self, CustomTax};

use crate::api::{Api, Doc, get};
use crate::auth::Tenant;
use crate::error::ApiError;
use crate::input::{AnyName, Input, PageQuery, Percent};
use crate::params::Params;
use crate::state::AppState;
use crate::views::{self, moment};

pub fn routes(api: Api) -> Api {
    api.route(
        "/custom_taxes",
        get(list).post(create),
        Doc::new(
            "Taxes",
            "The company's custom taxes, 25 a page (GET), or a new one (POST, rentrack extension)",
        )
        .input::<NewCustomTax>()
        .params::<PageQuery>()
        .returns("custom_tax")
        .returns_page("custom_taxes")
        .record::<CustomTaxJson<'_>>(),
    )
}

/// A rate in parts per million as a percent: 88750 is "8.875".
pub(crate) fn percent(ppm: i64) -> String {
    (Decimal::from(ppm) / Decimal::from(10_000))
        .normalize()
        .to_string()
}

/// A custom tax as the contract shows it.
#[derive(serde::Serialize, utoipa::ToSchema)]
#[schema(as = CustomTax)]
struct CustomTaxJson<'a> {
    id: i64,
    name: &'a str,
    /// Percent, up to 4 decimal places ("8.875").
    #[schema(pattern = r"^\d{1,3}(\.\d{1,4})?$")]
    rate: String,
    created_at: views::Moment,
    updated_at: views::Moment,
}

fn render(t: &CustomTax, tz: chrono_tz::Tz) -> CustomTaxJson<'_> {
    CustomTaxJson {
        id: t.id,
        name: &t.name,
        rate: percent(t.rate_ppm),
        created_at: moment(t.created_at, tz),
        updated_at: moment(t.updated_at, tz),
    }
}

/// A new custom tax.
#[derive(Input)]
#[input(resource = "custom_tax")]
struct NewCustomTax {
    /// Unique in the company.
    #[input(format = AnyName)]
    name: Name,
    #[input(format = Percent)]
    rate: i64,
}

async fn create(
    State(state): State<AppState>,
    Tenant(company): Tenant,
    params: Params,
) -> Result<views::Reply, ApiError> {
    let NewCustomTax { name, rate } = NewCustomTax::parse(&params)?;
    let tax = custom_taxes::create(state.db(), company.id, name, rate).await?;
    Ok(views::one("custom_tax", render(&tax, company.time_zone)))
}

async fn list(
    State(state): State<AppState>,
    Tenant(company): Tenant,
    params: Params,
) -> Result<views::Reply, ApiError> {
    let page = PageQuery::parse(&params)?.page(PageSize::DEFAULT);
    let records = custom_taxes::list(state.db(), company.id, page).await?;
    Ok(views::paged("custom_taxes", page, &records, |t| {
        render(t, company.time_zone)
    }))
}
