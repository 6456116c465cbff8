//! What customers and business contacts share: their fields, how they are read and
//! rendered, the handlers both kinds route to (`handlers`), and the persons list
//! `/individuals.api`, which shows both.

mod handlers;
mod input;

use axum::extract::State;
use domain::PageSize;
use domain::custom_field::Target;
use serde::ser::{Serialize, Serializer};
use store::CompanyId;
use store::address_block::AddressBlock;
use store::custom_fields::FieldSet;
use store::persons::{self, Kind, PersonView};

use crate::address_block;
use crate::api::{Api, Doc, get};
use crate::auth::Tenant;
use crate::custom_attributes::{self, CustomAttributes, Keyed, WithFields};
use crate::error::ApiError;
use crate::ids::kind;
use crate::params::Params;
use crate::state::AppState;
use crate::views::{self, Moment, Object, moment};

pub use handlers::{create, delete, details, list, set_active, update};
pub(crate) use handlers::{import_columns, import_row};
pub use input::{
    ContactChanges, ContactListQuery, ContactQuery, CustomerChanges, CustomerListQuery, NewContact,
    NewCustomer,
};

use input::{ListQuery, PersonListQuery, PersonWrite, read_list_query};

/// A kind of person with routes of its own, as the type its path ids are read as.
pub trait PersonKind: persons::Persons {
    /// The form's resource (`customer[...]`) and the key of one record in answers.
    const SINGULAR: &'static str;
    /// The key of a page of records.
    const PLURAL: &'static str;
    /// The parameters of its list.
    type List: ListQuery;
    /// Its fields on create.
    type New: PersonWrite;
    /// Its fields on update.
    type Changes: PersonWrite;
}

impl PersonKind for kind::Customer {
    const SINGULAR: &'static str = "customer";
    const PLURAL: &'static str = "customers";
    type List = CustomerListQuery;
    type New = NewCustomer;
    type Changes = CustomerChanges;
}

impl PersonKind for kind::Contact {
    const SINGULAR: &'static str = "contact";
    const PLURAL: &'static str = "contacts";
    type List = ContactListQuery;
    type New = NewContact;
    type Changes = ContactChanges;
}

pub fn routes(api: Api) -> Api {
    api.route(
        "/individuals",
        get(individuals),
        Doc::new("Persons", "Customers and business contacts in one list, 25 a page, active ones unless filtered otherwise")
            .params::<PersonListQuery>()
            .returns_page("individuals")
            .record::<PersonJson>(),
    )
}

/// The keys `WithFields<PersonView>` writes for one kind of person, as a shape struct
/// for the document only (the serializer writes them by hand, with the address block
/// and custom fields as keys too); `$more` are the kind's own.
macro_rules! person_shape {
    ($(#[$doc:meta])* $shape:ident as $name:ident, $type:literal, { $($more:tt)* }) => {
        $(#[$doc])*
        #[derive(utoipa::ToSchema)]
        #[schema(as = $name)]
        #[allow(dead_code)]
        pub struct $shape {
            id: i64,
            /// The kind of person.
            #[serde(rename = "type")]
            #[schema(value_type = String, pattern = $type)]
            kind: &'static str,
            first_name: Option<String>,
            last_name: String,
            /// The first and last name, with a space between (the last name alone without
            /// a first).
            full_name: String,
            description: Option<String>,
            employee_identification_number: Option<String>,
            /// A rentrack addition: the `category` filter matches it.
            category: Option<String>,
            collect_tax: bool,
            email: Option<String>,
            login_enabled: bool,
            subscribed_to_emails: bool,
            #[schema(value_type = String, pattern = "^(active|inactive)$")]
            status: &'static str,
            /// `true` exactly when `status` is `active`.
            active: bool,
            created_at: Moment,
            updated_at: Moment,
            $($more)*
            custom_attributes: CustomAttributes,
        }

        impl custom_attributes::Shape for $shape {
            fn extend(record: &mut utoipa::openapi::schema::Object) {
                address_block::document(record, AddressBlock::NAMES);
            }
        }
    };
}

person_shape!(
    /// A customer as the contract shows it.
    CustomerShape as Customer, "^customer$", {}
);

person_shape!(
    /// A business contact as the contract shows it.
    ContactShape as Contact, "^business_contact$", {
        /// The ids of the businesses the contact belongs to, ascending.
        business_ids: Vec<i64>,
    }
);

/// A customer, as routes answering one name it.
pub type CustomerJson = Keyed<CustomerShape>;

/// A business contact, as routes answering one name it.
pub type ContactJson = Keyed<ContactShape>;

/// For the document: an entry of the persons list, a customer or a business contact
/// (`type` says which).
pub struct PersonJson;

impl utoipa::PartialSchema for PersonJson {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        use utoipa::ToSchema;
        use utoipa::openapi::Ref;
        utoipa::openapi::OneOfBuilder::new()
            .item(Ref::from_schema_name(CustomerJson::name()))
            .item(Ref::from_schema_name(ContactJson::name()))
            .description(Some("A customer or a business contact, as `type` says"))
            .into()
    }
}

impl utoipa::ToSchema for PersonJson {
    fn name() -> std::borrow::Cow<'static, str> {
        "Person".into()
    }

    fn schemas(
        schemas: &mut Vec<(
            String,
            utoipa::openapi::RefOr<utoipa::openapi::schema::Schema>,
        )>,
    ) {
        use utoipa::PartialSchema;
        schemas.push((CustomerJson::name().into_owned(), CustomerJson::schema()));
        CustomerJson::schemas(schemas);
        schemas.push((ContactJson::name().into_owned(), ContactJson::schema()));
        ContactJson::schemas(schemas);
    }
}

/// The custom field target of a kind of person.
pub fn target(kind: Kind) -> Target {
    match kind {
        Kind::Customer => Target::Customers,
        Kind::Contact => Target::Contacts,
    }
}

pub fn render<'a>(
    view: &'a PersonView,
    tz: chrono_tz::Tz,
    fields: &'a FieldSet,
    include: bool,
) -> WithFields<'a, PersonView> {
    WithFields::new(view, tz, fields, include)
}

impl Serialize for WithFields<'_, PersonView> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let (p, tz) = (&self.record.person, self.tz);
        let mut o = Object::start(s)?;
        o.entry("id", &p.id)?;
        o.entry(
            "type",
            if p.is_contact() {
                "business_contact"
            } else {
                "customer"
            },
        )?;
        o.entry("first_name", &p.first_name)?;
        o.entry("last_name", &p.last_name)?;
        o.entry("full_name", &p.full_name())?;
        o.entry("description", &p.description)?;
        o.entry(
            "employee_identification_number",
            &p.employee_identification_number,
        )?;
        o.entry("category", &p.category)?;
        o.entry("collect_tax", &p.collect_tax)?;
        o.entry("email", &p.email)?;
        o.entry("login_enabled", &p.login_enabled)?;
        o.entry("subscribed_to_emails", &p.subscribed_to_emails)?;
        o.entry("status", if p.active { "active" } else { "inactive" })?;
        o.entry("active", &p.active)?;
        o.entry("created_at", &moment(p.created_at, tz))?;
        o.entry("updated_at", &moment(p.updated_at, tz))?;
        address_block::write(&mut o, AddressBlock::NAMES, &p.address_block)?;
        if p.is_contact() {
            o.entry("business_ids", &self.record.business_ids)?;
        }
        custom_attributes::write(&mut o, self.fields, &p.custom_attributes, self.include)?;
        o.end()
    }
}

impl custom_attributes::Attributed for PersonView {
    fn stored_values(&self) -> &str {
        &self.person.custom_attributes
    }
}

/// The custom fields needed to render `views`: those of the kinds of person among them
/// (none when no record has values).
pub async fn fields_for(
    state: &AppState,
    company: CompanyId,
    views: &[PersonView],
) -> Result<FieldSet, ApiError> {
    let targets: Vec<Target> = [Kind::Customer, Kind::Contact]
        .into_iter()
        .filter(|kind| {
            views
                .iter()
                .any(|v| v.person.is_contact() == (*kind == Kind::Contact))
        })
        .map(target)
        .collect();
    custom_attributes::fields_for_output(state.db(), company, &targets, views).await
}

/// A page of persons (`kind` None: both kinds) wrapped under `plural`, read with the
/// list's parameters `Q`.
pub async fn page_of<Q: ListQuery>(
    state: &AppState,
    company: &store::companies::Company,
    params: &Params,
    kind: Option<Kind>,
    plural: &str,
) -> Result<views::Reply, ApiError> {
    let (query, filter) = read_list_query::<Q>(params)?;
    let (include, page) = (query.include(), query.page().page(PageSize::DEFAULT));
    let records = persons::list(state.db(), company.id, kind, &filter, page).await?;
    let fields = fields_for(state, company.id, &records.records).await?;
    Ok(views::paged(plural, page, &records, |p| {
        render(p, company.time_zone, &fields, include)
    }))
}

/// `{"<singular>": {...}}` for one person, with its custom fields.
pub async fn answer(
    state: &AppState,
    company: &store::companies::Company,
    singular: &str,
    view: PersonView,
    include: bool,
) -> Result<views::Reply, ApiError> {
    let fields = fields_for(state, company.id, std::slice::from_ref(&view)).await?;
    Ok(views::one(
        singular,
        render(&view, company.time_zone, &fields, include),
    ))
}

async fn individuals(
    State(state): State<AppState>,
    Tenant(company): Tenant,
    params: Params,
) -> Result<views::Reply, ApiError> {
    page_of::<PersonListQuery>(&state, &company, &params, None, "individuals").await
}
