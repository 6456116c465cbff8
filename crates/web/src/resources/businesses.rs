//! Businesses: `/businesses.api`, `/businesses/{id}.api`. Status 1 is active, 0 inactive.

use axum::extract::State;
use domain::custom_field::Target;
use domain::customer_filter::BusinessFilter;
use domain::{CompanyId, PageSize};
use serde::ser::{Serialize, Serializer};
use store::address_block::AddressBlock;
use store::businesses::{self, Business, BusinessInput};
use store::custom_fields::FieldSet;

use crate::address_block;
use crate::api::{Api, Doc, get};
use crate::auth::Tenant;
use crate::custom_attributes::{self, CustomAttributes, Keyed, WithFields};
use crate::error::ApiError;
use crate::form::Form;
use crate::ids::{Id, kind};
use crate::params::Params;
use crate::state::AppState;
use crate::views::{self, Moment, Object, moment};

const FIELDS: &[(&str, &str)] = &[
    (
        "name",
        "required on create; an update may leave it out (kept)",
    ),
    ("description", "text"),
    ("status", "1 active (default) or 0 inactive"),
    ("industry", "text"),
    ("email", "e-mail address"),
    ("address_name", "text"),
    ("address", "text"),
    ("address_line_2", "text"),
    ("country", "two-letter code (ISO 3166-1 alpha-2)"),
    ("state", "state code, kept as given"),
    ("city", "text"),
    ("zip_code", "text"),
    ("phone_number", "text"),
    ("fax", "text"),
    ("display_picture", "image URL"),
    ("tax_free", "boolean, default false"),
    ("company_default_payment_terms", "boolean, default false"),
    (
        "custom_attributes][<field name>",
        "value of a custom field that applies to businesses; null clears",
    ),
];

const ATTRIBUTES: &str = "business[custom_attributes]";

pub fn routes(api: Api) -> Api {
    api.route(
        "/businesses",
        get(list).post(create),
        Doc::new(
            "Businesses",
            "List businesses, 20 a page (GET), or create one (POST)",
        )
        .form("business", FIELDS)
        .query(&[
            ("page", "page number, default 1"),
            ("filter", BusinessFilter::VALUES),
            (
                "filter_val",
                "a comparison such as >5 with filter=completed_orders",
            ),
            ("include_custom_fields", "boolean"),
        ])
        .returns_page("businesses")
        .returns("business")
        .record::<Keyed<BusinessShape>>(),
    )
    .route(
        "/businesses/{id}",
        get(details).put_or_patch(update),
        Doc::new(
            "Businesses",
            "Business details (GET) or update (PUT or PATCH; fields left out are kept)",
        )
        .form("business", FIELDS)
        .query(&[("include_custom_fields", "boolean")])
        .returns("business")
        .record::<Keyed<BusinessShape>>(),
    )
}

/// A business as the contract shows it.
// For the document only: `WithFields<Business>` writes these keys by hand, the address
// block's too (`extend`), and custom fields as keys (`custom_attributes::Keyed`).
#[derive(utoipa::ToSchema)]
#[schema(as = Business)]
#[allow(dead_code)]
pub struct BusinessShape {
    id: i64,
    name: String,
    description: Option<String>,
    /// 1 active, 0 inactive.
    #[schema(minimum = 0, maximum = 1)]
    status: i32,
    industry: Option<String>,
    email: Option<String>,
    /// The image URL, as given.
    display_picture: Option<String>,
    tax_free: bool,
    company_default_payment_terms: bool,
    created_at: Moment,
    updated_at: Moment,
    custom_attributes: CustomAttributes,
}

impl custom_attributes::Shape for BusinessShape {
    fn extend(record: &mut utoipa::openapi::schema::Object) {
        address_block::document(record, AddressBlock::NAMES);
    }
}

fn render<'a>(
    b: &'a Business,
    tz: chrono_tz::Tz,
    fields: &'a FieldSet,
    include: bool,
) -> WithFields<'a, Business> {
    WithFields::new(b, tz, fields, include)
}

impl Serialize for WithFields<'_, Business> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let (b, tz) = (self.record, self.tz);
        let mut o = Object::start(s)?;
        o.entry("id", &b.id)?;
        o.entry("name", &b.name)?;
        o.entry("description", &b.description)?;
        o.entry("status", &if b.active { 1 } else { 0 })?;
        o.entry("industry", &b.industry)?;
        o.entry("email", &b.email)?;
        o.entry("display_picture", &b.display_picture)?;
        o.entry("tax_free", &b.tax_free)?;
        o.entry(
            "company_default_payment_terms",
            &b.company_default_payment_terms,
        )?;
        o.entry("created_at", &moment(b.created_at, tz))?;
        o.entry("updated_at", &moment(b.updated_at, tz))?;
        address_block::write(&mut o, AddressBlock::NAMES, &b.address_block)?;
        custom_attributes::write(&mut o, self.fields, &b.custom_attributes, self.include)?;
        o.end()
    }
}

async fn read_input(
    state: &AppState,
    company: CompanyId,
    params: &Params,
    creating: bool,
) -> Result<BusinessInput, ApiError> {
    let mut form = Form::new(params, "business");
    let fields = custom_attributes::fields_for_input(
        state.db(),
        company,
        Target::Businesses,
        &form,
        ATTRIBUTES,
    )
    .await?;
    // Required on create; an update may leave it out (kept), not clear it.
    let name = match creating {
        true => form.required_text("name"),
        false => form.optional_required_text("name"),
    };
    let description = form.text("description");
    let industry = form.text("industry");
    let email = form.email("email");
    let address_block = address_block::read(&mut form, AddressBlock::NAMES);
    let display_picture = form.text("display_picture");
    let active = match params.get("business[status]") {
        None => None,
        Some("1") => Some(true),
        Some("0") => Some(false),
        Some(_) => {
            form.error("status", "must be 1 (active) or 0 (inactive)");
            None
        }
    };
    let tax_free = form.boolean("tax_free");
    let company_default_payment_terms = form.boolean("company_default_payment_terms");
    let custom_attributes =
        custom_attributes::read(&mut form, ATTRIBUTES, &fields, Target::Businesses);
    form.finish()?;
    Ok(BusinessInput {
        name,
        description,
        industry,
        email,
        address_block,
        display_picture,
        active,
        tax_free,
        company_default_payment_terms,
        custom_attributes,
    })
}

impl custom_attributes::Attributed for Business {
    fn stored_values(&self) -> &str {
        &self.custom_attributes
    }
}

async fn answer(
    state: &AppState,
    company: &store::companies::Company,
    business: Business,
    include: bool,
) -> Result<views::Reply, ApiError> {
    let fields = custom_attributes::fields_for_output(
        state.db(),
        company.id,
        &[Target::Businesses],
        [&business],
    )
    .await?;
    Ok(views::one(
        "business",
        render(&business, company.time_zone, &fields, include),
    ))
}

async fn list(
    State(state): State<AppState>,
    Tenant(company): Tenant,
    params: Params,
) -> Result<views::Reply, ApiError> {
    let include = views::flag(&params, "include_custom_fields")?;
    let page = views::page(&params, PageSize::BUSINESSES)?;
    let filter = BusinessFilter::parse(params.get("filter"), params.get("filter_val"))
        .map_err(ApiError::filter)?;
    let records = businesses::list(state.db(), company.id, filter, page).await?;
    let fields = custom_attributes::fields_for_output(
        state.db(),
        company.id,
        &[Target::Businesses],
        &records.records,
    )
    .await?;
    Ok(views::paged("businesses", page, &records, |b| {
        render(b, company.time_zone, &fields, include)
    }))
}

async fn create(
    State(state): State<AppState>,
    Tenant(company): Tenant,
    params: Params,
) -> Result<views::Reply, ApiError> {
    let input = read_input(&state, company.id, &params, true).await?;
    let business = businesses::create(state.db(), company.id, input).await?;
    answer(&state, &company, business, true).await
}

async fn details(
    State(state): State<AppState>,
    Tenant(company): Tenant,
    Id(id, _): Id<kind::Business>,
    params: Params,
) -> Result<views::Reply, ApiError> {
    let include = views::flag(&params, "include_custom_fields")?;
    let business = businesses::find(state.db(), company.id, id).await?;
    answer(&state, &company, business, include).await
}

async fn update(
    State(state): State<AppState>,
    Tenant(company): Tenant,
    Id(id, _): Id<kind::Business>,
    params: Params,
) -> Result<views::Reply, ApiError> {
    businesses::find(state.db(), company.id, id).await?;
    let input = read_input(&state, company.id, &params, false).await?;
    let business = businesses::update(state.db(), company.id, id, input).await?;
    answer(&state, &company, business, true).await
}
