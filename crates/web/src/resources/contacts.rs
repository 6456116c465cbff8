//! Business contacts: `/contacts.api`, `/contacts/{id}.api`,
//! `/contacts/add_existing_contacts_to_business.api`, `/contacts/{id}/update_status.api`.

use axum::extract::State;
use domain::customer_filter::PersonList;
use serde::Serialize;
use store::custom_fields::FieldSet;
use store::persons::{self, PersonView};

use crate::api::{Api, Doc, get, post, put_or_patch};
use crate::auth::Tenant;
use crate::error::ApiError;
use crate::form::{Form, parse_id};
use crate::ids::{Id, kind};
use crate::params::Params;
use crate::resources::persons::{
    ContactJson, create, delete, details, fields_for, list, render, set_active, update,
};
use crate::state::AppState;
use crate::views;

type Contact = kind::Contact;

const FIELDS: &[(&str, &str)] = &[
    (
        "last_name",
        "required on create; an update may leave it out (kept), not clear it",
    ),
    ("first_name", "text"),
    (
        "email",
        "e-mail address; required when login_enabled is true",
    ),
    ("description", "text"),
    ("employee_identification_number", "text"),
    ("collect_tax", "boolean, default true"),
    ("login_enabled", "boolean, default false"),
    ("subscribed_to_emails", "boolean, default false"),
    ("phone_number", "text"),
    ("fax", "text"),
    (
        "custom_attributes][<field name>",
        "value of a custom field that applies to contacts; null clears",
    ),
];

pub fn routes(api: Api) -> Api {
    api.route(
        "/contacts",
        get(list::<Contact>).post(create::<Contact>),
        Doc::new("Business contacts", "List contacts, 25 a page, active ones unless filtered otherwise (GET), or create one (POST)")
            .form("contact", FIELDS)
            .query(&[
                ("business_ids", "comma list of business ids: required on create; on update the full new list"),
                ("page", "page number, default 1"),
                ("filter", PersonList::Contacts.values()),
                ("filter_val", "the e-mail (URL-encoded) with filter=email"),
                ("include_custom_fields", "boolean"),
            ])
            .returns_page("contacts")
            .returns("contact")
            .record::<ContactJson>(),
    )
    .route(
        "/contacts/{id}",
        get(details::<Contact>)
            .put_or_patch(update::<Contact>)
            .delete(delete::<Contact>),
        Doc::new("Business contacts", "Contact details (GET), update (PUT or PATCH) or delete (DELETE; 409 while it has open orders)")
            .form("contact", FIELDS)
            .query(&[("business_ids", "comma list: the contact's businesses, replacing the old list"), ("include_custom_fields", "boolean")])
            .returns("contact")
            .record::<ContactJson>(),
    )
    .route(
        "/contacts/add_existing_contacts_to_business",
        post(add_to_business),
        Doc::new("Business contacts", "Add existing contacts to a business; answers the contacts as they now are")
            .query(&[("contact_ids", "comma list of contact ids"), ("business_id", "the business")])
            .answers::<ContactsAddedJson<'_>>(),
    )
    .route(
        "/contacts/{id}/update_status",
        put_or_patch(update_status),
        Doc::new("Business contacts", "Mark a contact active (mark_active=TRUE) or inactive (mark_inactive=TRUE); PUT or PATCH")
            .query(&[("mark_active", "boolean"), ("mark_inactive", "boolean")])
            .returns("contact")
            .record::<ContactJson>(),
    )
}

/// The answer of adding existing contacts to a business: the business and the contacts
/// as they now are (their custom fields under `custom_attributes` only).
#[derive(Serialize, utoipa::ToSchema)]
#[schema(as = ContactsAdded)]
pub struct ContactsAddedJson<'a> {
    business_id: i64,
    #[schema(value_type = Vec<ContactJson>)]
    contacts: Contacts<'a>,
}

/// The contacts, each written as `persons::render` writes it.
struct Contacts<'a> {
    contacts: &'a [PersonView],
    tz: chrono_tz::Tz,
    fields: &'a FieldSet,
}

impl Serialize for Contacts<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(
            self.contacts
                .iter()
                .map(|c| render(c, self.tz, self.fields, false)),
        )
    }
}

/// Exactly one of `mark_active=TRUE` and `mark_inactive=TRUE`.
async fn update_status(
    State(state): State<AppState>,
    Tenant(company): Tenant,
    Id(id, _): Id<Contact>,
    params: Params,
) -> Result<views::Reply, ApiError> {
    let active = views::flag(&params, "mark_active")?;
    let inactive = views::flag(&params, "mark_inactive")?;
    let active = match (active, inactive) {
        (true, false) => true,
        (false, true) => false,
        _ => {
            return Err(ApiError::field(
                "mark_active",
                "send exactly one of mark_active=TRUE and mark_inactive=TRUE",
            ));
        }
    };
    set_active::<Contact>(&state, &company, id, active).await
}

async fn add_to_business(
    State(state): State<AppState>,
    Tenant(company): Tenant,
    params: Params,
) -> Result<views::Reply, ApiError> {
    // Both parameters are top-level; the form only collects their problems.
    let mut form = Form::new(&params, "contact");
    let business = match params.get("business_id").map(|raw| (raw, parse_id(raw))) {
        None => {
            form.error("business_id", "can't be blank");
            None
        }
        Some((raw, None)) => {
            form.error("business_id", format!("must be a business id, not {raw:?}"));
            None
        }
        Some((_, id)) => id,
    };
    let contact_ids = form.ids_at("contact_ids", "contact_ids", "contact ids");
    if contact_ids.is_empty() && !form.has_errors_for("contact_ids") {
        form.error(
            "contact_ids",
            "can't be blank: give a comma list of contact ids",
        );
    }
    form.finish()?;
    let business = business.expect("reported by finish");
    let contacts =
        persons::add_contacts_to_business(state.db(), company.id, business, &contact_ids).await?;
    let fields = fields_for(&state, company.id, &contacts).await?;
    Ok(views::Reply::of(&ContactsAddedJson {
        business_id: business,
        contacts: Contacts {
            contacts: &contacts,
            tz: company.time_zone,
            fields: &fields,
        },
    }))
}
