//! Vendors: `/vendors.api`, `/assets/vendors.api`, `/vendors/{id}.api`.

use axum::extract::State;
use domain::custom_field::Target;
use domain::{Change, Name, PageSize};
use serde::ser::{Serialize, Serializer};
use store::CompanyId;
use store::custom_fields::FieldSet;
use store::vendors::{self, Vendor, VendorInput};

use crate::api::{Api, Doc, get, post};
use crate::auth::Tenant;
use crate::custom_attributes::{self, CustomAttributes, IncludeQuery, Keyed, WithFields};
use crate::error::ApiError;
use crate::form::Form;
use crate::ids::{Id, kind};
use crate::input::{AnyName, Email, Input, PageQuery};
use crate::params::Params;
use crate::state::AppState;
use crate::views::{self, Moment, Object, moment};

pub fn routes(api: Api) -> Api {
    api.route(
        "/vendors",
        post(create),
        Doc::new("Vendors", "Create a vendor")
            .input::<NewVendor>()
            .custom_values("vendor", custom_attributes::FIELDS)
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
        .params::<ListQuery>()
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
        .input::<VendorChanges>()
        .custom_values("vendor", custom_attributes::FIELDS)
        .params::<IncludeQuery>()
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

/// What a vendor's create and update both take.
#[derive(Input)]
#[input(resource = "vendor")]
struct VendorFields {
    description: Change<String>,
    website: Change<String>,
    /// The vendor's address, as one text.
    address: Change<String>,
    contact_person_name: Change<String>,
    #[input(format = Email)]
    email: Change<String>,
    phone_number: Change<String>,
    fax: Change<String>,
}

/// A new vendor.
#[derive(Input)]
#[input(resource = "vendor")]
struct NewVendor {
    /// Any length from one character (the 3-character minimum is for items, groups
    /// and subgroups).
    #[input(format = AnyName)]
    name: Name,
    #[input(flatten)]
    fields: VendorFields,
}

/// A vendor's changes: what is left out is kept.
#[derive(Input)]
#[input(resource = "vendor")]
struct VendorChanges {
    /// Any length from one character; left out keeps the name.
    #[input(format = AnyName)]
    name: Option<Name>,
    #[input(flatten)]
    fields: VendorFields,
}

/// The parameters of the vendor list.
#[derive(Input)]
struct ListQuery {
    #[input(flatten)]
    page: PageQuery,
    #[input(flatten)]
    include: IncludeQuery,
}

/// Reads `T` and the custom field values sent beside it: the input, or one 422 naming
/// every problem of both.
async fn read_input<T: Input>(
    state: &AppState,
    company: CompanyId,
    params: &Params,
) -> Result<(T, store::custom_fields::FieldValues), ApiError> {
    let mut form = Form::new(params, "vendor");
    let input = T::read(&mut form);
    let values =
        custom_attributes::read_values(state.db(), company, Target::Vendors, &mut form).await?;
    Ok((form.finish_with(input)?, values))
}

fn vendor_input(
    name: Option<Name>,
    f: VendorFields,
    custom_attributes: store::custom_fields::FieldValues,
) -> VendorInput {
    VendorInput {
        name,
        description: f.description,
        website: f.website,
        address: f.address,
        contact_person_name: f.contact_person_name,
        email: f.email,
        phone_number: f.phone_number,
        fax: f.fax,
        custom_attributes,
    }
}

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
    let (new, values) = read_input::<NewVendor>(&state, company.id, &params).await?;
    let input = vendor_input(None, new.fields, values);
    let vendor = vendors::create(state.db(), company.id, new.name, input).await?;
    answer(&state, &company, vendor, true).await
}

async fn list(
    State(state): State<AppState>,
    Tenant(company): Tenant,
    params: Params,
) -> Result<views::Reply, ApiError> {
    let query = ListQuery::parse(&params)?;
    let (include, page) = (query.include.include(), query.page.page(PageSize::DEFAULT));
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
    Id(id): Id<kind::Vendor>,
    params: Params,
) -> Result<views::Reply, ApiError> {
    let include = IncludeQuery::parse(&params)?.include();
    let vendor = vendors::find(state.db(), company.id, id).await?;
    answer(&state, &company, vendor, include).await
}

async fn update(
    State(state): State<AppState>,
    Tenant(company): Tenant,
    Id(id): Id<kind::Vendor>,
    params: Params,
) -> Result<views::Reply, ApiError> {
    let (changes, values) = read_input::<VendorChanges>(&state, company.id, &params).await?;
    let input = vendor_input(changes.name, changes.fields, values);
    let vendor = vendors::update(state.db(), company.id, id, input).await?;
    answer(&state, &company, vendor, true).await
}

/// One row of a vendor import (`resources::imports`), its fields as a form would send
/// them: the vendor whose `id` is `key` updated, or a new one; written in `tx`.
pub(crate) async fn import_row(
    state: &AppState,
    tx: &mut store::Tx,
    company: CompanyId,
    params: &Params,
    key: Option<i64>,
) -> Result<super::imports::Written, ApiError> {
    use super::imports::Written;
    match key {
        None => {
            let (new, values) = read_input::<NewVendor>(state, company, params).await?;
            let input = vendor_input(None, new.fields, values);
            vendors::create_in(tx, company, new.name, input).await?;
            Ok(Written::Created)
        }
        Some(id) => {
            let (changes, values) = read_input::<VendorChanges>(state, company, params).await?;
            let input = vendor_input(changes.name, changes.fields, values);
            vendors::update_in(tx, company, store::Id::new(id), input).await?;
            Ok(Written::Updated)
        }
    }
}

/// The columns a vendor import reads besides `id` and custom fields' names.
pub(crate) fn import_columns() -> Vec<&'static str> {
    NewVendor::fields().iter().map(|f| f.name).collect()
}
