//! Vendors: `/vendors.api`, `/assets/vendors.api`, `/vendors/{id}.api`.

use axum::extract::State;
use domain::custom_field::Target;
use domain::{CompanyId, Name, PageSize};
use serde::ser::{Serialize, Serializer};
use store::custom_fields::FieldSet;
use store::vendors::{self, Vendor, VendorInput};

use crate::api::{Api, Doc, get, post};
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
        "required on create (any length: the 3-character minimum is for items, groups and subgroups); an update may leave it out",
    ),
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
            .returns("vendor")
            .record::<Keyed<VendorShape>>(),
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
        .returns_page("vendors")
        .record::<VendorEntry>(),
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
        .returns("vendor")
        .record::<Keyed<VendorShape>>(),
    )
}

/// A vendor as the contract shows it.
// For the document only: `WithFields<Vendor>` writes these keys by hand, and custom
// fields as keys too (`custom_attributes::Keyed`).
#[derive(utoipa::ToSchema)]
#[schema(as = Vendor)]
#[allow(dead_code)]
pub struct VendorShape {
    id: i64,
    name: String,
    description: Option<String>,
    website: Option<String>,
    /// The vendor's address, as one text.
    address: Option<String>,
    contact_person_name: Option<String>,
    email: Option<String>,
    phone_number: Option<String>,
    fax: Option<String>,
    created_at: Moment,
    updated_at: Moment,
    custom_attributes: CustomAttributes,
}

impl custom_attributes::Shape for VendorShape {}

/// For the document: one entry of the vendor list, wrapped as `{"vendor": {...}}`.
pub struct VendorEntry;

impl utoipa::PartialSchema for VendorEntry {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        use utoipa::ToSchema;
        utoipa::openapi::ObjectBuilder::new()
            .schema_type(utoipa::openapi::schema::Type::Object)
            .property(
                "vendor",
                utoipa::openapi::Ref::from_schema_name(Keyed::<VendorShape>::name()),
            )
            .required("vendor")
            .into()
    }
}

impl utoipa::ToSchema for VendorEntry {
    fn schemas(
        schemas: &mut Vec<(
            String,
            utoipa::openapi::RefOr<utoipa::openapi::schema::Schema>,
        )>,
    ) {
        use utoipa::PartialSchema;
        schemas.push((
            Keyed::<VendorShape>::name().into_owned(),
            Keyed::<VendorShape>::schema(),
        ));
        Keyed::<VendorShape>::schemas(schemas);
    }
}

pub fn render<'a>(
    v: &'a Vendor,
    tz: chrono_tz::Tz,
    fields: &'a FieldSet,
    include: bool,
) -> WithFields<'a, Vendor> {
    WithFields::new(v, tz, fields, include)
}

impl Serialize for WithFields<'_, Vendor> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let (v, tz) = (self.record, self.tz);
        let mut o = Object::start(s)?;
        o.entry("id", &v.id)?;
        o.entry("name", &v.name)?;
        o.entry("description", &v.description)?;
        o.entry("website", &v.website)?;
        o.entry("address", &v.address)?;
        o.entry("contact_person_name", &v.contact_person_name)?;
        o.entry("email", &v.email)?;
        o.entry("phone_number", &v.phone_number)?;
        o.entry("fax", &v.fax)?;
        o.entry("created_at", &moment(v.created_at, tz))?;
        o.entry("updated_at", &moment(v.updated_at, tz))?;
        custom_attributes::write(&mut o, self.fields, &v.custom_attributes, self.include)?;
        o.end()
    }
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
) -> Result<views::Reply, ApiError> {
    let fields =
        custom_attributes::fields_for_output(state.db(), company.id, &[Target::Vendors], [&vendor])
            .await?;
    Ok(views::one(
        "vendor",
        render(&vendor, company.time_zone, &fields, include),
    ))
}

async fn create(
    State(state): State<AppState>,
    Tenant(company): Tenant,
    params: Params,
) -> Result<views::Reply, ApiError> {
    let mut input = read_input(&state, company.id, &params, true).await?;
    let name = input.name.take().expect("reported by finish");
    let vendor = vendors::create(state.db(), company.id, name, input).await?;
    answer(&state, &company, vendor, true).await
}

async fn list(
    State(state): State<AppState>,
    Tenant(company): Tenant,
    params: Params,
) -> Result<views::Reply, ApiError> {
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
    Ok(views::paged("vendors", page, &records, |v| {
        views::named("vendor", render(v, company.time_zone, &fields, include))
    }))
}

async fn details(
    State(state): State<AppState>,
    Tenant(company): Tenant,
    Id(id, _): Id<kind::Vendor>,
    params: Params,
) -> Result<views::Reply, ApiError> {
    let include = views::flag(&params, "include_custom_fields")?;
    let vendor = vendors::find(state.db(), company.id, id).await?;
    answer(&state, &company, vendor, include).await
}

async fn update(
    State(state): State<AppState>,
    Tenant(company): Tenant,
    Id(id, _): Id<kind::Vendor>,
    params: Params,
) -> Result<views::Reply, ApiError> {
    let input = read_input(&state, company.id, &params, false).await?;
    let vendor = vendors::update(state.db(), company.id, id, input).await?;
    answer(&state, &company, vendor, true).await
}
