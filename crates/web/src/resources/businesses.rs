//! Businesses: `/businesses.api`, `/businesses/{id}.api`. Status 1 is active, 0 inactive.

use axum::extract::State;
use domain::custom_field::Target;
use domain::customer_filter::BusinessFilter;
use domain::{Change, PageSize, Vocabulary};
use serde::ser::{Serialize, Serializer};
use store::CompanyId;
use store::address_block::AddressBlock;
use store::businesses::{self, Business, BusinessInput};
use store::custom_fields::FieldSet;

use crate::address_block::{self, AddressInput, Standard};
use crate::api::{Api, Doc, get};
use crate::auth::Tenant;
use crate::custom_attributes::{self, CustomAttributes, IncludeQuery, Keyed, WithFields};
use crate::error::ApiError;
use crate::form::Form;
use crate::ids::{Id, kind};
use crate::input::{Email, Input, PageQuery, Scalar, ShortText, Word};
use crate::params::Params;
use crate::state::AppState;
use crate::views::{self, Moment, Object, moment};

pub fn routes(api: Api) -> Api {
    api.route(
        "/businesses",
        get(list).post(create),
        Doc::new(
            "Businesses",
            "List businesses, 20 a page (GET), or create one (POST)",
        )
        .input::<NewBusiness>()
        .custom_values("business", custom_attributes::FIELDS)
        .params::<ListQuery>()
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
        .input::<BusinessChanges>()
        .custom_values("business", custom_attributes::FIELDS)
        .params::<IncludeQuery>()
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

pub fn render<'a>(
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

/// A business's status: 1 active, 0 inactive.
struct Status;

impl Scalar for Status {
    type Value = bool;

    fn parse(raw: &str) -> Result<bool, String> {
        match raw {
            "1" => Ok(true),
            "0" => Ok(false),
            _ => Err("must be 1 (active) or 0 (inactive)".to_owned()),
        }
    }

    fn schema() -> serde_json::Value {
        serde_json::json!({"type": "integer", "enum": [1, 0]})
    }
}

/// What a business's create and update both take.
#[derive(Input)]
#[input(resource = "business")]
struct BusinessFields {
    description: Change<String>,
    /// 1 active (the default) or 0 inactive.
    #[input(format = Status)]
    status: Option<bool>,
    industry: Change<String>,
    #[input(format = Email)]
    email: Change<String>,
    #[input(flatten)]
    address_block: AddressInput<Standard>,
    /// The image URL, kept as given.
    display_picture: Change<String>,
    /// false by default.
    tax_free: Option<bool>,
    /// false by default.
    company_default_payment_terms: Option<bool>,
}

/// A new business.
#[derive(Input)]
#[input(resource = "business")]
struct NewBusiness {
    /// At most 255 characters.
    #[input(format = ShortText)]
    name: String,
    #[input(flatten)]
    fields: BusinessFields,
}

/// A business's changes: what is left out is kept.
#[derive(Input)]
#[input(resource = "business")]
struct BusinessChanges {
    /// At most 255 characters; left out keeps the name, which cannot be cleared.
    #[input(format = ShortText)]
    name: Option<String>,
    #[input(flatten)]
    fields: BusinessFields,
}

/// The words of the business list's `filter`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct FilterName(&'static str);

impl Vocabulary for FilterName {
    const ALL: &'static [Self] = &[
        FilterName("all"),
        FilterName("active_businesses"),
        FilterName("inactive_businesses"),
        FilterName("checked_out_orders"),
        FilterName("active_customers"),
        FilterName("completed_orders"),
    ];

    fn as_str(self) -> &'static str {
        self.0
    }
}

/// The parameters of the business list.
#[derive(Input)]
struct ListQuery {
    /// Which businesses: all (the default), active_businesses, inactive_businesses,
    /// checked_out_orders, active_customers (an order booked or checked out) or
    /// completed_orders (with filter_val).
    #[input(format = Word<FilterName>)]
    filter: Option<FilterName>,
    /// With filter=completed_orders, a comparison of the number of completed orders,
    /// such as >5, <=2 or =3 (words such as greater_than 5 are read too).
    filter_val: Option<String>,
    #[input(flatten)]
    page: PageQuery,
    #[input(flatten)]
    include: IncludeQuery,
}

/// The list's parameters and its filter (a filter_val that suits the filter).
fn read_list_query(params: &Params) -> Result<(ListQuery, BusinessFilter), ApiError> {
    let mut form = Form::new(params, "");
    let query = ListQuery::read(&mut form);
    let filter = if form.has_errors_for("filter") || form.has_errors_for("filter_val") {
        None
    } else {
        // Read whatever else failed, so one 422 names every problem.
        let (name, value) = match &query {
            Some(q) => (q.filter, q.filter_val.clone()),
            None => (
                form.peek::<Word<FilterName>>("filter"),
                form.peek::<String>("filter_val"),
            ),
        };
        BusinessFilter::parse(name.map(FilterName::as_str), value.as_deref())
            .map_err(|(field, problem)| form.error(field, problem))
            .ok()
    };
    form.finish_with(query.zip(filter))
}

/// Reads `T` and the custom field values sent beside it: the input, or one 422 naming
/// every problem of both.
async fn read_input<T: Input>(
    state: &AppState,
    company: CompanyId,
    params: &Params,
) -> Result<(T, store::custom_fields::FieldValues), ApiError> {
    let mut form = Form::new(params, "business");
    let input = T::read(&mut form);
    let values =
        custom_attributes::read_values(state.db(), company, Target::Businesses, &mut form).await?;
    Ok((form.finish_with(input)?, values))
}

fn business_input(
    name: Option<String>,
    f: BusinessFields,
    custom_attributes: store::custom_fields::FieldValues,
) -> BusinessInput {
    BusinessInput {
        name,
        description: f.description,
        industry: f.industry,
        email: f.email,
        address_block: f.address_block.into_block(),
        display_picture: f.display_picture,
        active: f.status,
        tax_free: f.tax_free,
        company_default_payment_terms: f.company_default_payment_terms,
        custom_attributes,
    }
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
    let (query, filter) = read_list_query(&params)?;
    let (include, page) = (
        query.include.include(),
        query.page.page(PageSize::BUSINESSES),
    );
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
    let (new, values) = read_input::<NewBusiness>(&state, company.id, &params).await?;
    let input = business_input(Some(new.name), new.fields, values);
    let business = businesses::create(state.db(), company.id, input).await?;
    answer(&state, &company, business, true).await
}

async fn details(
    State(state): State<AppState>,
    Tenant(company): Tenant,
    Id(id): Id<kind::Business>,
    params: Params,
) -> Result<views::Reply, ApiError> {
    let include = IncludeQuery::parse(&params)?.include();
    let business = businesses::find(state.db(), company.id, id).await?;
    answer(&state, &company, business, include).await
}

async fn update(
    State(state): State<AppState>,
    Tenant(company): Tenant,
    Id(id): Id<kind::Business>,
    params: Params,
) -> Result<views::Reply, ApiError> {
    businesses::find(state.db(), company.id, id).await?;
    let (changes, values) = read_input::<BusinessChanges>(&state, company.id, &params).await?;
    let input = business_input(changes.name, changes.fields, values);
    let business = businesses::update(state.db(), company.id, id, input).await?;
    answer(&state, &company, business, true).await
}

/// Writes one import row as a new business (`key` none) or as changes to business
/// `key`, in the import's transaction.
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
            let (new, values) = read_input::<NewBusiness>(state, company, params).await?;
            let input = business_input(Some(new.name), new.fields, values);
            businesses::create_in(tx, company, input).await?;
            Ok(Written::Created)
        }
        Some(id) => {
            let (changes, values) = read_input::<BusinessChanges>(state, company, params).await?;
            let input = business_input(changes.name, changes.fields, values);
            businesses::update_in(tx, company, store::Id::new(id), input).await?;
            Ok(Written::Updated)
        }
    }
}

/// The columns a business import reads besides `id` and custom fields' names.
pub(crate) fn import_columns() -> Vec<&'static str> {
    NewBusiness::fields().iter().map(|f| f.name).collect()
}
