//! Bundles (rentrack extension; orders name them as `<id>-b` in `asset_ids`):
//! `GET /bundles.api`, `POST /bundles.api`, `GET /bundles/{id}.api`.

use axum::extract::State;
use domain::stock::Quantity;
use domain::{Change, Name, PageSize};
use serde::Serialize;
use std::collections::BTreeMap;
use store::bundles::{self, Bundle};

use crate::api::{Api, Doc, get};
use crate::auth::Tenant;
use crate::error::ApiError;
use crate::form::Form;
use crate::ids::{Id, kind};
use crate::input::{AnyName, Input, PageQuery, Units};
use crate::params::Params;
use crate::state::AppState;
use crate::views::{self, Moment, moment};

pub fn routes(api: Api) -> Api {
    api.route(
        "/bundles",
        get(list).post(create),
        Doc::new(
            "Orders",
            "rentrack extension: the company's bundles with their items, 25 a page (GET), or a new one (POST); an order takes a bundle's items at once with asset_ids=<id>-b",
        )
        .input::<NewBundle>()
        .required_map::<Units>(
            "bundle[items][<asset number>]",
            "one or more: the units of that item in the bundle (a fixed asset: 1)",
        )
        .params::<PageQuery>()
        .returns("bundle")
        .returns_page("bundles")
        .record::<BundleJson<'_>>(),
    )
    .route(
        "/bundles/{id}",
        get(details),
        Doc::new("Orders", "rentrack extension: bundle details with its items").returns("bundle")
            .record::<BundleJson<'_>>(),
    )
}

/// A new bundle's fields beside its items.
#[derive(Input)]
#[input(resource = "bundle")]
struct NewBundle {
    /// Unique in the company.
    #[input(format = AnyName)]
    name: Name,
    /// `null` is none.
    description: Change<String>,
}

/// A bundle as the contract shows it, with its items.
#[derive(Serialize, utoipa::ToSchema)]
#[schema(as = Bundle)]
struct BundleJson<'a> {
    id: i64,
    name: &'a str,
    description: Option<&'a str>,
    /// What one set of the bundle holds, by item number.
    items: Vec<BundleItemJson<'a>>,
    created_at: Moment,
    updated_at: Moment,
}

/// One item of a bundle and its units in one set.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(as = BundleItem)]
struct BundleItemJson<'a> {
    /// The item's number.
    sequence_num: i64,
    name: &'a str,
    #[schema(pattern = "^(FixedAsset|VolatileAsset|StockAsset)$")]
    asset_type: &'a str,
    /// Units of the item in one set (a fixed asset: 1).
    quantity: i64,
}

fn render(b: &Bundle, tz: chrono_tz::Tz) -> BundleJson<'_> {
    BundleJson {
        id: b.id,
        name: &b.name,
        description: b.description.as_deref(),
        items: b
            .items
            .iter()
            .map(|i| BundleItemJson {
                sequence_num: i.sequence_num,
                name: &i.name,
                asset_type: &i.asset_type,
                quantity: i.quantity,
            })
            .collect(),
        created_at: moment(b.created_at, tz),
        updated_at: moment(b.updated_at, tz),
    }
}

async fn create(
    State(state): State<AppState>,
    Tenant(company): Tenant,
    params: Params,
) -> Result<views::Reply, ApiError> {
    let mut form = Form::new(&params, "bundle");
    let input = NewBundle::read(&mut form);
    // Keys are asset numbers: `4`, `04` and `+4` are one item, and naming it twice is
    // a 422 (it was the bundle's primary key twice: a 500).
    let sent = form.id_keyed("bundle[items]", "items", "an item number", |key| {
        format!("items][{key}")
    });
    let mut items = BTreeMap::new();
    for entry in sent {
        match Quantity::parse(entry.value().unwrap_or_default()) {
            Ok(q) => {
                items.insert(entry.id, q);
            }
            Err(p) => form.error(&entry.name, p),
        }
    }
    if items.is_empty() && !form.has_errors_for("items") {
        form.error(
            "items",
            "can't be blank: give bundle[items][<asset number>]=<quantity> for each item",
        );
    }
    let NewBundle { name, description } = form.finish_with(input)?;
    let description = match description {
        Change::Set(d) => Some(d),
        _ => None,
    };
    let bundle = bundles::create(state.db(), company.id, name, description, &items).await?;
    Ok(views::one("bundle", render(&bundle, company.time_zone)))
}

async fn list(
    State(state): State<AppState>,
    Tenant(company): Tenant,
    params: Params,
) -> Result<views::Reply, ApiError> {
    let page = PageQuery::parse(&params)?.page(PageSize::DEFAULT);
    let records = bundles::list(state.db(), company.id, page).await?;
    Ok(views::paged("bundles", page, &records, |b| {
        render(b, company.time_zone)
    }))
}

async fn details(
    State(state): State<AppState>,
    Tenant(company): Tenant,
    Id(id): Id<kind::Bundle>,
) -> Result<views::Reply, ApiError> {
    let bundle = bundles::find(state.db(), company.id, id).await?;
    Ok(views::one("bundle", render(&bundle, company.time_zone)))
}
