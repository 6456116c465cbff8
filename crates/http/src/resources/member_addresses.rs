//! Members' addresses: `/users/{member}/shipping_addresses.api`,
//! `/users/{member}/shipping_addresses/default_address.api`,
//! `/users/{member}/shipping_addresses/{id}.api`.

use axum::extract::{Path, State};
use axum::routing::get;
use axum::Json;
use domain::{Change, PageSize};
use rust_decimal::Decimal;
use serde_json::{json, Value};
use std::str::FromStr;
use store::member_addresses::{self, Address, AddressInput, TEXT_FIELDS};

use crate::api::{Api, Doc};
use crate::auth::Tenant;
use crate::error::ApiError;
use crate::form::{parse_id, Form};
use crate::params::Params;
use crate::state::AppState;
use crate::views::{self, moment, path_id};

const FIELDS: &[(&str, &str)] = &[
    ("name", "text"),
    ("street1", "required on create"),
    ("street2", "text"),
    ("city", "text (a rentrack addition)"),
    ("state", "text, kept as given"),
    ("zipcode", "text"),
    ("country", "two-letter code (ISO 3166-1 alpha-2)"),
    ("longi", "longitude, -180 to 180"),
    ("lati", "latitude, -90 to 90"),
    ("email", "e-mail address"),
    ("phone_number", "text"),
    ("active", "boolean, default true"),
];

const EXTRA: &[(&str, &str)] = &[
    ("default_address", "boolean: true makes this the member's only default address (a member's first address becomes the default)"),
    ("created_by_id", "id of the member who records the address (on create)"),
];

pub fn routes(api: Api) -> Api {
    api.route(
        "/users/{member_id}/shipping_addresses",
        get(list).post(create),
        Doc::new("Member addresses", "List a member's addresses, 25 a page (GET), or add one (POST)")
            .form("shipping_address", FIELDS)
            .query(EXTRA)
            .query(&[("page", "page number, default 1")])
            .returns_page("shipping_addresses"),
    )
    .route(
        "/users/{member_id}/shipping_addresses/default_address",
        get(default_address),
        Doc::new("Member addresses", "The member's default address (404 when none)").returns("shipping_address"),
    )
    .route(
        "/users/{member_id}/shipping_addresses/{id}",
        get(details).patch(update).put(update),
        Doc::new("Member addresses", "One address (GET) or update (PATCH; PUT does the same)")
            .form("shipping_address", FIELDS)
            .query(EXTRA)
            .returns("shipping_address"),
    )
}

pub fn render(a: &Address, tz: chrono_tz::Tz) -> Value {
    json!({
        "id": a.id,
        "user_id": a.member_id,
        "name": a.name,
        "street1": a.street1,
        "street2": a.street2,
        "city": a.city,
        "state": a.state,
        "zipcode": a.zipcode,
        "country": a.country,
        "longi": a.longi,
        "lati": a.lati,
        "email": a.email,
        "phone_number": a.phone_number,
        "active": a.active,
        "default_address": a.is_default,
        "created_by_id": a.created_by_id,
        "created_at": moment(a.created_at, tz),
        "updated_at": moment(a.updated_at, tz),
    })
}

/// A coordinate in `[-limit, limit]`, stored as the decimal text given (normalised).
fn coordinate(form: &mut Form<'_>, field: &str, limit: i64) -> Change<String> {
    match form.text(field) {
        Change::Set(raw) => match Decimal::from_str(&raw) {
            Ok(d) if d.abs() <= Decimal::from(limit) => Change::Set(d.normalize().to_string()),
            _ => {
                form.error(field, format!("must be a number from -{limit} to {limit}"));
                Change::Keep
            }
        },
        other => other,
    }
}

fn read_input(params: &Params, creating: bool) -> Result<AddressInput, ApiError> {
    let mut form = Form::new(params, "shipping_address");
    let street1 = if creating { form.required_text("street1") } else { form.optional_required_text("street1") };
    let text = TEXT_FIELDS.map(|field| match field {
        "country" => form.country(field),
        "email" => form.email(field),
        "longi" => coordinate(&mut form, field, 180),
        "lati" => coordinate(&mut form, field, 90),
        _ => form.text(field),
    });
    let active = form.boolean("active");
    let default_address = match params.get("default_address").or_else(|| params.get("shipping_address[default_address]")) {
        None => None,
        Some(raw) => {
            let parsed = domain::wire::parse_bool(raw);
            if parsed.is_none() {
                form.error("default_address", "must be true or false");
            }
            parsed
        }
    };
    let created_by_id = match params.get("created_by_id") {
        Some(raw) if creating => {
            let id = parse_id(raw);
            if id.is_none() {
                form.error("created_by_id", "must be a member id (a positive whole number)");
            }
            id
        }
        _ => None,
    };
    form.finish()?;
    Ok(AddressInput { street1, text, active, default_address, created_by_id })
}

async fn list(State(state): State<AppState>, Tenant(company): Tenant, Path(member): Path<String>, params: Params) -> Result<Json<Value>, ApiError> {
    let member = path_id(&member, "member")?;
    let page = views::page(&params, PageSize::DEFAULT)?;
    let records = member_addresses::list(state.db(), company.id, member, page).await?;
    Ok(Json(views::paged("shipping_addresses", page, records, |a| render(a, company.time_zone))))
}

async fn create(State(state): State<AppState>, Tenant(company): Tenant, Path(member): Path<String>, params: Params) -> Result<Json<Value>, ApiError> {
    let member = path_id(&member, "member")?;
    let input = read_input(&params, true)?;
    let address = member_addresses::create(state.db(), company.id, member, input).await?;
    Ok(Json(views::one("shipping_address", render(&address, company.time_zone))))
}

async fn default_address(State(state): State<AppState>, Tenant(company): Tenant, Path(member): Path<String>) -> Result<Json<Value>, ApiError> {
    let member = path_id(&member, "member")?;
    let address = member_addresses::default_address(state.db(), company.id, member)
        .await
        .map_err(|e| match e {
            store::StoreError::NotFound => ApiError::NotFound("This member has no default address (or no such member in this company).".into()),
            other => other.into(),
        })?;
    Ok(Json(views::one("shipping_address", render(&address, company.time_zone))))
}

async fn details(State(state): State<AppState>, Tenant(company): Tenant, Path((member, id)): Path<(String, String)>) -> Result<Json<Value>, ApiError> {
    let address = member_addresses::find(state.db(), company.id, path_id(&member, "member")?, path_id(&id, "address")?).await?;
    Ok(Json(views::one("shipping_address", render(&address, company.time_zone))))
}

async fn update(
    State(state): State<AppState>,
    Tenant(company): Tenant,
    Path((member, id)): Path<(String, String)>,
    params: Params,
) -> Result<Json<Value>, ApiError> {
    let (member, id) = (path_id(&member, "member")?, path_id(&id, "address")?);
    let input = read_input(&params, false)?;
    let address = member_addresses::update(state.db(), company.id, member, id, input).await?;
    Ok(Json(views::one("shipping_address", render(&address, company.time_zone))))
}
