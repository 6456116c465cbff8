//! Payment options: `GET /payment_options.api` (the spec's list, whose names orders take
//! as `basket[payment_method_name]`) and, as a rentrack extension,
//! `POST /payment_options.api` to add one.

use axum::extract::State;
use domain::payment::PaymentKind;
use domain::{Name, PageSize, Vocabulary};
use store::payment_options::{self, PaymentOption};

use crate::api::{Api, Doc, get};
use crate::auth::Tenant;
use crate::error::ApiError;
use crate::input::{AnyName, Input, PageQuery, Word};
use crate::params::Params;
use crate::state::AppState;
use crate::views::{self, moment};

pub fn routes(api: Api) -> Api {
    api.route(
        "/payment_options",
        get(list).post(create),
        Doc::new(
            "Payment options",
            "The company's payment options (Cash, Check and Credit Card from the start), 25 a page (GET), or a new one (POST, rentrack extension)",
        )
        .input::<NewPaymentOption>()
        .params::<PageQuery>()
        .returns("payment_option")
        .returns_page("payment_options")
        .record::<PaymentOptionJson<'_>>(),
    )
}

/// A payment option as the contract shows it.
#[derive(serde::Serialize, utoipa::ToSchema)]
#[schema(as = PaymentOption)]
struct PaymentOptionJson<'a> {
    id: i64,
    name: &'a str,
    #[schema(value_type = String, pattern = "^(cash|check|credit_card|other)$")]
    kind: &'static str,
    created_at: views::Moment,
}

fn render(o: &PaymentOption, tz: chrono_tz::Tz) -> PaymentOptionJson<'_> {
    PaymentOptionJson {
        id: o.id,
        name: &o.name,
        kind: o.kind.as_str(),
        created_at: moment(o.created_at, tz),
    }
}

/// A new payment option.
#[derive(Input)]
#[input(resource = "payment_option")]
struct NewPaymentOption {
    /// Unique in the company whatever its case.
    #[input(format = AnyName)]
    name: Name,
    /// cash, check, credit_card or other (the default).
    #[input(format = Word<PaymentKind>)]
    kind: Option<PaymentKind>,
}

async fn create(
    State(state): State<AppState>,
    Tenant(company): Tenant,
    params: Params,
) -> Result<views::Reply, ApiError> {
    let NewPaymentOption { name, kind } = NewPaymentOption::parse(&params)?;
    let option = payment_options::create(
        state.db(),
        company.id,
        name,
        kind.unwrap_or(PaymentKind::Other),
    )
    .await?;
    Ok(views::one(
        "payment_option",
        render(&option, company.time_zone),
    ))
}

async fn list(
    State(state): State<AppState>,
    Tenant(company): Tenant,
    params: Params,
) -> Result<views::Reply, ApiError> {
    let page = PageQuery::parse(&params)?.page(PageSize::DEFAULT);
    let records = payment_options::list(state.db(), company.id, page).await?;
    Ok(views::paged("payment_options", page, &records, |o| {
        render(o, company.time_zone)
    }))
}
