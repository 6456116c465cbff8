//! Business contacts: `/contacts.api`, `/contacts/{id}.api`,
//! `/contacts/add_existing_contacts_to_business.api`, `/contacts/{id}/update_status.api`.

use axum::extract::State;
use serde::Serialize;
use store::custom_fields::FieldSet;
use store::persons::{self, PersonView};

use crate::api::{Api, Doc, get, post, put_or_patch};
use crate::auth::Tenant;
use crate::custom_attributes::{self, IncludeQuery};
use crate::error::ApiError;
use crate::form::Form;
use crate::ids::{Id, kind};
use crate::input::{Input, RecordId, SomeIds};
use crate::params::Params;
use crate::resources::persons::{
    ContactChanges, ContactJson, ContactListQuery, ContactQuery, NewContact, create, delete,
    details, fields_for, list, render, set_active, update,
};
use crate::state::AppState;
use crate::views;

type Contact = kind::Contact;

pub fn routes(api: Api) -> Api {
    api.route(
        "/contacts",
        get(list::<Contact>).post(create::<Contact>),
        Doc::new("Business contacts", "List contacts, 25 a page, active ones unless filtered otherwise (GET), or create one (POST)")
            .input::<NewContact>()
            .custom_values("contact", custom_attributes::FIELDS)
            .input::<ContactQuery>()
            .params::<ContactListQuery>()
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
            .input::<ContactChanges>()
            .custom_values("contact", custom_attributes::FIELDS)
            .input::<ContactQuery>()
            .params::<IncludeQuery>()
            .returns("contact")
            .record::<ContactJson>(),
    )
    .route(
        "/contacts/add_existing_contacts_to_business",
        post(add_to_business),
        Doc::new("Business contacts", "Add existing contacts to a business; answers the contacts as they now are")
            .input::<AddToBusiness>()
            .answers::<ContactsAddedJson<'_>>(),
    )
    .route(
        "/contacts/{id}/update_status",
        put_or_patch(update_status),
        Doc::new("Business contacts", "Mark a contact active (mark_active=TRUE) or inactive (mark_inactive=TRUE); PUT or PATCH")
            .params::<StatusQuery>()
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

/// How a contact's status is changed: exactly one of the two, sent true.
#[derive(Input)]
struct StatusQuery {
    /// true marks the contact active.
    mark_active: Option<bool>,
    /// true marks the contact inactive.
    mark_inactive: Option<bool>,
}

/// Exactly one of `mark_active=TRUE` and `mark_inactive=TRUE`.
async fn update_status(
    State(state): State<AppState>,
    Tenant(company): Tenant,
    Id(id): Id<Contact>,
    params: Params,
) -> Result<views::Reply, ApiError> {
    let query = StatusQuery::parse(&params)?;
    let active = match (query.mark_active, query.mark_inactive) {
        (Some(true), None | Some(false)) => true,
        (None | Some(false), Some(true)) => false,
        _ => {
            return Err(ApiError::field(
                "mark_active",
                "send exactly one of mark_active=TRUE and mark_inactive=TRUE",
            ));
        }
    };
    set_active::<Contact>(&state, &company, id, active).await
}

/// Existing contacts to add to a business.
#[derive(Input)]
struct AddToBusiness {
    /// The business.
    #[input(format = RecordId)]
    business_id: i64,
    /// The contacts' ids (repeated, or one comma list); at least one.
    #[input(format = SomeIds)]
    contact_ids: Vec<i64>,
}

async fn add_to_business(
    State(state): State<AppState>,
    Tenant(company): Tenant,
    params: Params,
) -> Result<views::Reply, ApiError> {
    let mut form = Form::new(&params, "");
    let input = AddToBusiness::read(&mut form);
    let AddToBusiness {
        business_id: business,
        contact_ids,
    } = form.finish_with(input)?;
    let contacts = persons::add_contacts_to_business(
        state.db(),
        company.id,
        store::Id::new(business),
        &store::Id::each(contact_ids),
    )
    .await?;
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
