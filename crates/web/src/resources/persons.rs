//! What customers and business contacts share (their fields, how they are read and
//! rendered), and the persons list `/individuals.api`, which shows both.

use axum::Json;
use axum::extract::State;
use domain::custom_field::Target;
use domain::customer_filter::{PersonFilter, PersonList};
use domain::{Change, CompanyId, PageSize};
use serde_json::{Value, json};
use store::address_block::AddressBlock;
use store::custom_fields::FieldSet;
use store::persons::{self, Kind, PersonInput, PersonView};

use crate::address_block;
use crate::api::{Api, Doc, get};
use crate::auth::Tenant;
use crate::custom_attributes;
use crate::error::ApiError;
use crate::form::Form;
use crate::params::Params;
use crate::state::AppState;
use crate::views::{self, moment};

pub fn routes(api: Api) -> Api {
    api.route(
        "/individuals",
        get(list),
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

/// The custom fields needed to render `views`: those of the kinds of person among them
/// (none when no record has values).
pub async fn fields_for(
    state: &AppState,
    company: CompanyId,
    views: &[&PersonView],
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
    custom_attributes::fields_for_output(
        state.db(),
        company,
        &targets,
        views.iter().map(|v| v.person.custom_attributes.as_str()),
    )
    .await
}

/// Reads `<resource>[...]` for a customer (`customer`) or a contact (`contact`).
/// On update, first and last name are required as the spec says; the e-mail is
/// required whenever login is enabled (checked by the store, which knows the state).
pub async fn read_input(
    state: &AppState,
    company: CompanyId,
    params: &Params,
    kind: Kind,
    creating: bool,
) -> Result<PersonInput, ApiError> {
    let resource = match kind {
        Kind::Customer => "customer",
        Kind::Contact => "contact",
    };
    let attributes_path = format!("{resource}[custom_attributes]");
    let mut form = Form::new(params, resource);
    let fields = custom_attributes::fields_for_input(
        state.db(),
        company,
        target(kind),
        &form,
        &attributes_path,
    )
    .await?;
    let first_name = match kind {
        Kind::Customer if creating => form
            .required_text("first_name")
            .map(Change::Set)
            .unwrap_or(Change::Keep),
        Kind::Customer => form
            .optional_required_text("first_name")
            .map(Change::Set)
            .unwrap_or(Change::Keep),
        Kind::Contact => form.text("first_name"),
    };
    let last_name = if creating {
        form.required_text("last_name")
    } else {
        form.optional_required_text("last_name")
    };
    if !creating && !params.contains(&format!("{resource}[last_name]")) {
        form.error(
            "last_name",
            "can't be blank: send the first and last name with every update",
        );
    }
    if !creating && kind == Kind::Customer && !params.contains("customer[first_name]") {
        form.error(
            "first_name",
            "can't be blank: send the first and last name with every update",
        );
    }
    let email = match form.email("email") {
        Change::Set(e) => Change::Set(e.to_lowercase()),
        other => other,
    };
    let description = form.text("description");
    let employee_identification_number = form.text("employee_identification_number");
    let category = form.text("category");
    let address_block = address_block::read(&mut form, AddressBlock::NAMES);
    let collect_tax = form.boolean("collect_tax");
    let login_enabled = form.boolean("login_enabled");
    let subscribed_to_emails = form.boolean("subscribed_to_emails");
    let custom_attributes =
        custom_attributes::read(&mut form, &attributes_path, &fields, target(kind));
    let business_ids = if kind == Kind::Contact {
        read_business_ids(&mut form, creating)
    } else {
        None
    };
    form.finish()?;
    Ok(PersonInput {
        first_name,
        last_name,
        email,
        description,
        employee_identification_number,
        category,
        address_block,
        collect_tax,
        login_enabled,
        subscribed_to_emails,
        business_ids,
        custom_attributes,
    })
}

/// `business_ids` (a comma list; `contact[business_ids]` and `business_ids[]` work
/// too): required and non-empty on create; on update, when sent, the full new list.
fn read_business_ids(form: &mut Form<'_>, creating: bool) -> Option<Vec<i64>> {
    let params = form.params();
    let path = ["business_ids", "contact[business_ids]"]
        .into_iter()
        .find(|p| params.contains(p));
    let Some(path) = path else {
        if creating {
            form.error(
                "business_ids",
                "can't be blank: give the ids of the contact's businesses",
            );
        }
        return None;
    };
    let ids = form.ids_at(path, "business_ids", "business ids");
    if ids.is_empty() && !form.has_errors_for("business_ids") {
        form.error(
            "business_ids",
            "can't be empty: a contact belongs to at least one business",
        );
    }
    Some(ids)
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
    let fields = fields_for(
        state,
        company.id,
        &records.records.iter().collect::<Vec<_>>(),
    )
    .await?;
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
    let fields = fields_for(state, company.id, &[&view]).await?;
    Ok(Json(views::one(
        singular,
        render(&view, company.time_zone, &fields, include),
    )))
}

async fn list(
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
