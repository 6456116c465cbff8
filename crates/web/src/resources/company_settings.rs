//! Company settings (a rentrack extension): `/company_settings.api`.

use axum::extract::State;
use domain::settings::{ActivationLocation, Currency};
use serde::Serialize;
use store::companies::{self, Company, Settings};

use crate::api::{Api, Doc, get};
use crate::auth::Tenant;
use crate::error::ApiError;
use crate::form::Form;
use crate::params::Params;
use crate::state::AppState;
use crate::views;

const FIELDS: &[(&str, &str)] = &[
    (
        "time_zone",
        "IANA time zone name, e.g. America/Denver; moments in responses use it",
    ),
    ("currency", "ISO 4217 code, e.g. USD"),
    (
        "retired_asset_activation_location",
        "whether reactivating a retired asset needs a location: required, optional or not_needed",
    ),
    (
        "inclusive_return",
        "boolean, default true: rental orders count the return minute (06:00 to 06:00 is 24 h 1 min)",
    ),
    (
        "best_pricing",
        "boolean, default false: rental orders charge the cheapest of the rate split and each single unit",
    ),
];

pub fn routes(api: Api) -> Api {
    api.route(
        "/company_settings",
        get(show).put_or_patch(update),
        Doc::new("Company settings", "The company's settings (GET) or change some of them (PUT or PATCH); a rentrack extension")
            .form("company_settings", FIELDS)
            .returns("company_settings")
            .record::<SettingsJson<'_>>(),
    )
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
    let mut form = Form::new(&params, "company_settings");
    let mut settings = Settings::default();
    if let Some(raw) = params.get("company_settings[time_zone]") {
        match domain::subdomain::parse_time_zone(raw) {
            Some(tz) => settings.time_zone = Some(tz),
            None => form.error(
                "time_zone",
                "is not an IANA time zone name (e.g. Europe/Paris, America/New_York, UTC)",
            ),
        }
    }
    if let Some(raw) = params.get("company_settings[currency]") {
        match Currency::parse(raw) {
            Some(c) => settings.currency = Some(c),
            None => form.error(
                "currency",
                "is not an ISO 4217 currency code (e.g. USD, EUR)",
            ),
        }
    }
    if let Some(raw) = params.get("company_settings[retired_asset_activation_location]") {
        match ActivationLocation::parse(raw) {
            Some(a) => settings.retired_activation_location = Some(a),
            None => form.error(
                "retired_asset_activation_location",
                format!("must be one of {}", ActivationLocation::NAMES),
            ),
        }
    }
    settings.inclusive_return = form.boolean("inclusive_return");
    settings.best_pricing = form.boolean("best_pricing");
    form.finish()?;
    let company = companies::update_settings(state.db(), company.id, settings).await?;
    state.inner().companies.forget_all();
    Ok(views::one("company_settings", render(&company)))
}
