//! Vendors: `/vendors.api`, `/assets/vendors.api`, `/vendors/{id}.api`.

use axum::Json;
use axum::extract::State;
use domain::custom_field::Target;
use domain::{CompanyId, Name, PageSize};
use serde_json::{Value, json};
use store::custom_fields::FieldSet;
use store::vendors::{self, Vendor, VendorInput};

use crate::api::{Api, Doc, get, post};
use crate::auth::Tenant;
use crate::custom_attributes;
use crate::error::ApiError;
use crate::form::Form;
use crate::ids::{Id, kind};
use crate::params::Params;
use crate::state::AppState;
use crate::views::{self, moment};

const FIELDS: &[(&str, &str)] = &[
    ("name", "required on create, at least 3 characters"),
    ("description", "text"),
    ("website", "text"),
    ("address", "text"),
    ("contact_person_name", "text"),
    ("email", "e-mail address"),
    ("phone_number", "text"),
    ("fax", "text"),
    (
        "custom_attributes][<field name>",
        "value of a custom field that applies to vendors; underscores stand for spaces; null clears",
    ),
];

pub fn routes(api: Api) -> Api {
    api.route(
        "/vendors",
        post(create),
        Doc::new("Vendors", "Create a vendor")
            .form("vendor", FIELDS)
            .returns("vendor"),
    )
    .route(
        "/assets/vendors",
        get(list),
        Doc::new(
            "Vendors",
            "List vendors, 25 a page, each wrapped as {\"vendor\": {...}}",
        )
        .query(&[
            ("page", "page number, default 1"),
            ("include_custom_fields", "boolean"),
        ])
        .returns_page("vendors"),
    )
    .route(
        "/vendors/{id}",
        get(details).put_or_patch(update),
        Doc::new(
            "Vendors",
            "Vendor details (GET) or update (PUT or PATCH; fields left out are kept)",
        )
        .form("vendor", FIELDS)
        .query(&[("include_custom_fields", "boolean")])
        .returns("vendor"),
    )
}

pub fn render(
    v: &Vendor,
    tz: chrono_tz::Tz,
    fields: &FieldSet,
    include_custom_fields: bool,
) -> Value {
    let mut body = json!({
        "id": v.id,
        "name": v.name,
        "description": v.description,
        "website": v.website,
        "address": v.address,
        "contact_person_name": v.contact_person_name,
        "email": v.email,
        "phone_number": v.phone_number,
        "fax": v.fax,
        "created_at": moment(v.created_at, tz),
        "updated_at": moment(v.updated_at, tz),
    });
    custom_attributes::render_into(
        &mut body,
        fields,
        &v.custom_attributes,
        include_custom_fields,
    );
    body
}

async fn read_input(
    state: &AppState,
    company: CompanyId,
    params: &Params,
    creating: bool,
) -> Result<VendorInput, ApiError> {
    let mut form = Form::new(params, "vendor");
    let fields = custom_attributes::fields_for_input(
        state.db(),
        company,
        Target::Vendors,
        &form,
        ATTRIBUTES,
    )
    .await?;
    let name = if creating {
        form.name("name", Name::parse_required)
    } else {
        form.optional_name("name", Name::parse_required)
    };
    let input = VendorInput {
        name,
        description: form.text("description"),
        website: form.text("website"),
        address: form.text("address"),
        contact_person_name: form.text("contact_person_name"),
        email: form.email("email"),
        phone_number: form.text("phone_number"),
        fax: form.text("fax"),
        custom_attributes: custom_attributes::read(&mut form, ATTRIBUTES, &fields, Target::Vendors),
    };
    form.finish()?;
    Ok(input)
}

const ATTRIBUTES: &str = "vendor[custom_attributes]";

impl custom_attributes::Attributed for Vendor {
    fn stored_values(&self) -> &str {
        &self.custom_attributes
    }
}

/// `{"vendor": {...}}`, with its custom fields.
async fn answer(
    state: &AppState,
    company: &store::companies::Company,
    vendor: Vendor,
    include: bool,
) -> Result<Json<Value>, ApiError> {
    let fields =
        custom_attributes::fields_for_output(state.db(), company.id, &[Target::Vendors], [&vendor])
            .await?;
    Ok(Json(views::one(
        "vendor",
        render(&vendor, company.time_zone, &fields, include),
    )))
}

async fn create(
    State(state): State<AppState>,
    Tenant(company): Tenant,
    params: Params,
) -> Result<Json<Value>, ApiError> {
    let mut input = read_input(&state, company.id, &params, true).await?;
    let name = input.name.take().expect("reported by finish");
    let vendor = vendors::create(state.db(), company.id, name, input).await?;
    answer(&state, &company, vendor, true).await
}

async fn list(
    State(state): State<AppState>,
    Tenant(company): Tenant,
    params: Params,
) -> Result<Json<Value>, ApiError> {
    let include = views::flag(&params, "include_custom_fields")?;
    let page = views::page(&params, PageSize::DEFAULT)?;
    let records = vendors::list(state.db(), company.id, page).await?;
    let fields = custom_attributes::fields_for_output(
        state.db(),
        company.id,
        &[Target::Vendors],
        &records.records,
    )
    .await?;
    Ok(Json(views::paged("vendors", page, records, |v| {
        views::one("vendor", render(v, company.time_zone, &fields, include))
    })))
}

async fn details(
    State(state): State<AppState>,
    Tenant(company): Tenant,
    Id(id, _): Id<kind::Vendor>,
    params: Params,
) -> Result<Json<Value>, ApiError> {
    let include = views::flag(&params, "include_custom_fields")?;
    let vendor = vendors::find(state.db(), company.id, id).await?;
    answer(&state, &company, vendor, include).await
}

async fn update(
    State(state): State<AppState>,
    Tenant(company): Tenant,
    Id(id, _): Id<kind::Vendor>,
    params: Params,
) -> Result<Json<Value>, ApiError> {
    let input = read_input(&state, company.id, &params, false).await?;
    let vendor = vendors::update(state.db(), company.id, id, input).await?;
    answer(&state, &company, vendor, true).await
}
