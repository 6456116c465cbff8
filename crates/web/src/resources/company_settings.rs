//! Company settings (a rentrack extension): `/company_settings.api`.

use axum::extract::State;
use domain::settings::{ActivationLocation, Currency};
use serde::Serialize;
use store::companies::{self, Company, Settings};

use crate::api::{Api, Doc, get};
use crate::auth::Tenant;
use crate::error::ApiError;
use crate::input::{Input, Scalar, Word};
use crate::params::Params;
use crate::state::AppState;
use crate::views;

pub fn routes(api: Api) -> Api {
    api.route(
        "/company_settings",
        get(show).put_or_patch(update),
        Doc::new("Company settings", "The company's settings (GET) or change some of them (PUT or PATCH); a rentrack extension")
            .input::<SettingsInput>()
            .returns("company_settings")
            .record::<SettingsJson<'_>>(),
    )
}

/// The settings changed: what is left out is kept.
#[derive(Input)]
#[input(resource = "company_settings")]
struct SettingsInput {
    /// IANA time zone name, e.g. America/Denver; moments in responses use it.
    #[input(format = TimeZone)]
    time_zone: Option<chrono_tz::Tz>,
    /// ISO 4217 code, e.g. USD (any case).
    #[input(format = CurrencyCode)]
    currency: Option<Currency>,
    /// Whether reactivating a retired asset needs a location.
    #[input(format = Word<ActivationLocation>)]
    retired_asset_activation_location: Option<ActivationLocation>,
    /// Rental orders count the return minute (06:00 to 06:00 is 24 h 1 min); true
    /// by default.
    inclusive_return: Option<bool>,
    /// Rental orders charge the cheapest of the rate split and each single unit;
    /// false by default.
    best_pricing: Option<bool>,
}

/// An IANA time zone name, as written (Europe/Paris).
struct TimeZone;

impl Scalar for TimeZone {
    type Value = chrono_tz::Tz;

    fn parse(raw: &str) -> Result<chrono_tz::Tz, String> {
        domain::subdomain::parse_time_zone(raw).ok_or_else(|| {
            "is not an IANA time zone name (e.g. Europe/Paris, America/New_York, UTC)".to_owned()
        })
    }

    fn schema() -> serde_json::Value {
        let names: Vec<&str> = chrono_tz::TZ_VARIANTS.iter().map(|tz| tz.name()).collect();
        serde_json::json!({"type": "string", "enum": names})
    }
}

/// An ISO 4217 currency code, any case; stored upper-case.
struct CurrencyCode;

impl Scalar for CurrencyCode {
    type Value = Currency;

    fn parse(raw: &str) -> Result<Currency, String> {
        Currency::parse(raw)
            .ok_or_else(|| "is not an ISO 4217 currency code (e.g. USD, EUR)".to_owned())
    }

    fn schema() -> serde_json::Value {
        serde_json::json!({"type": "string", "enum": domain::settings::CURRENCIES})
    }
}

/// The company's settings as the contract shows them.
#[derive(Serialize, utoipa::ToSchema)]
#[schema(as = CompanySettings)]
pub struct SettingsJson<'a> {
    /// The company's name.
    name: &'a str,
    /// The company's subdomain.
    subdomain: &'a str,
    /// The IANA time zone moments in answers are given in (America/Denver).
    time_zone: &'static str,
    /// ISO 4217 code (USD).
    #[schema(pattern = "^[A-Z]{3}$")]
    currency: &'a str,
    /// Whether reactivating a retired asset needs a location.
    #[schema(value_type = String, pattern = "^(required|optional|not_needed)$")]
    retired_asset_activation_location: &'static str,
    /// Rental orders count the return minute (06:00 to 06:00 is 24 h 1 min).
    inclusive_return: bool,
    /// Rental orders charge the cheapest of the rate split and each single unit.
    best_pricing: bool,
    /// The company's plan, which sets its rate limit.
    #[schema(value_type = String, pattern = "^(trial|paid|unlimited)$")]
    plan: &'static str,
}

pub fn render(c: &Company) -> SettingsJson<'_> {
    SettingsJson {
        name: &c.name,
        subdomain: &c.subdomain,
        time_zone: c.time_zone.name(),
        currency: c.currency.as_str(),
        retired_asset_activation_location: c.retired_activation_location.as_str(),
        inclusive_return: c.pricing.inclusive_return,
        best_pricing: c.pricing.best_pricing,
        plan: c.plan.as_str(),
    }
}

async fn show(Tenant(company): Tenant) -> views::Reply {
    views::one("company_settings", render(&company))
}

async fn update(
    State(state): State<AppState>,
    Tenant(company): Tenant,
    params: Params,
) -> Result<views::Reply, ApiError> {
    let input = SettingsInput::parse(&params)?;
    let settings = Settings {
        time_zone: input.time_zone,
        currency: input.currency,
        retired_activation_location: input.retired_asset_activation_location,
        inclusive_return: input.inclusive_return,
        best_pricing: input.best_pricing,
    };
    let company = companies::update_settings(state.db(), company.id, settings).await?;
    state.inner().companies.forget_all();
    Ok(views::one("company_settings", render(&company)))
}
