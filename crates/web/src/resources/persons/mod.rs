//! What customers and business contacts share: their fields, how they are read and
//! rendered, the handlers both kinds route to (`handlers`), and the persons list
//! `/individuals.api`, which shows both.

mod handlers;
mod input;

use axum::Json;
use axum::extract::State;
use domain::custom_field::Target;
use domain::customer_filter::{PersonFilter, PersonList};
use domain::{CompanyId, PageSize};
use serde_json::{Value, json};
use store::address_block::AddressBlock;
use store::custom_fields::FieldSet;
use store::persons::{self, Kind, PersonView};

use crate::address_block;
use crate::api::{Api, Doc, get};
use crate::auth::Tenant;
use crate::custom_attributes;
use crate::error::ApiError;
use crate::ids::kind;
use crate::params::Params;
use crate::state::AppState;
use crate::views::{self, moment};

pub use handlers::{create, delete, details, list, set_active, update};

/// A kind of person with routes of its own, as the type its path ids are read as.
pub trait PersonKind: crate::ids::Kind {
    const KIND: Kind;
    /// The form's resource (`customer[...]`) and the key of one record in answers.
    const SINGULAR: &'static str;
    /// The key of a page of records.
    const PLURAL: &'static str;
    /// The filters its list accepts.
    const LIST: PersonList;
}

impl PersonKind for kind::Customer {
    const KIND: Kind = Kind::Customer;
    const SINGULAR: &'static str = "customer";
    const PLURAL: &'static str = "customers";
    const LIST: PersonList = PersonList::Customers;
}

impl PersonKind for kind::Contact {
    const KIND: Kind = Kind::Contact;
    const SINGULAR: &'static str = "contact";
    const PLURAL: &'static str = "contacts";
    const LIST: PersonList = PersonList::Contacts;
}

pub fn routes(api: Api) -> Api {
    api.route(
        "/individuals",
        get(individuals),
        Doc::new("Persons", "Customers and business contacts in one list, 25 a page, active ones unless filtered otherwise")
            .query(&[
                ("page", "page number, default 1"),
                ("filter", PersonList::Persons.values()),
                ("filter_val", "the e-mail (URL-encoded) with filter=email"),
                ("include_custom_fields", "boolean"),
            ])
            .returns_page("individuals"),
    )
}

/// The custom field target of a kind of person.
pub fn target(kind: Kind) -> Target {
    match kind {
        Kind::Customer => Target::Customers,
        Kind::Contact => Target::Contacts,
    }
}

pub fn render(
    view: &PersonView,
    tz: chrono_tz::Tz,
    fields: &FieldSet,
    include_custom_fields: bool,
) -> Value {
    let p = &view.person;
    let mut body = json!({
        "id": p.id,
        "type": if p.is_contact() { "business_contact" } else { "customer" },
        "first_name": p.first_name,
        "last_name": p.last_name,
        "full_name": p.full_name(),
        "description": p.description,
        "employee_identification_number": p.employee_identification_number,
        "category": p.category,
        "collect_tax": p.collect_tax,
        "email": p.email,
        "login_enabled": p.login_enabled,
        "subscribed_to_emails": p.subscribed_to_emails,
        "status": if p.active { "active" } else { "inactive" },
        "active": p.active,
        "created_at": moment(p.created_at, tz),
        "updated_at": moment(p.updated_at, tz),
    });
    address_block::render_into(&mut body, AddressBlock::NAMES, &p.address_block);
    if p.is_contact() {
        body["business_ids"] = json!(view.business_ids);
    }
    custom_attributes::render_into(
        &mut body,
        fields,
        &p.custom_attributes,
        include_custom_fields,
    );
    body
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

/// Reads `filter` and `filter_val` for one of the person lists.
pub fn filter(params: &Params, list: PersonList) -> Result<PersonFilter, ApiError> {
    PersonFilter::parse(list, params.get("filter"), params.get("filter_val"))
        .map_err(ApiError::filter)
}

/// A page of persons (`kind` None: both kinds) wrapped under `plural`.
pub async fn page_of(
    state: &AppState,
    company: &store::companies::Company,
    params: &Params,
    kind: Option<Kind>,
    list: PersonList,
    plural: &str,
) -> Result<Json<Value>, ApiError> {
    let include = views::flag(params, "include_custom_fields")?;
    let page = views::page(params, PageSize::DEFAULT)?;
    let filter = filter(params, list)?;
    let records = persons::list(state.db(), company.id, kind, &filter, page).await?;
    let fields = fields_for(state, company.id, &records.records).await?;
    Ok(Json(views::paged(plural, page, records, |p| {
        render(p, company.time_zone, &fields, include)
    })))
}

/// `{"<singular>": {...}}` for one person, with its custom fields.
pub async fn answer(
    state: &AppState,
    company: &store::companies::Company,
    singular: &str,
    view: PersonView,
    include: bool,
) -> Result<Json<Value>, ApiError> {
    let fields = fields_for(state, company.id, std::slice::from_ref(&view)).await?;
    Ok(Json(views::one(
        singular,
        render(&view, company.time_zone, &fields, include),
    )))
}

async fn individuals(
    State(state): State<AppState>,
    Tenant(company): Tenant,
    params: Params,
) -> Result<Json<Value>, ApiError> {
    page_of(
        &state,
        &company,
        &params,
        None,
        PersonList::Persons,
        "individuals",
    )
    .await
}
