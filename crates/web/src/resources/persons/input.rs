//! Reads the fields of a customer or a contact.

use domain::Change;
use domain::CompanyId;
use store::address_block::AddressBlock;
use store::persons::{Kind, PersonInput};

use super::{PersonKind, target};
use crate::address_block;
use crate::custom_attributes;
use crate::error::ApiError;
use crate::form::Form;
use crate::params::Params;
use crate::state::AppState;

/// Reads `customer[...]` or `contact[...]`.
/// On update, the names the spec says are "to be specified" may be left out (kept)
/// but not cleared (docs/api.md, "Updates"); the e-mail is required whenever login
/// is enabled (checked by the store, which knows the state).
pub(super) async fn read_input<K: PersonKind>(
    state: &AppState,
    company: CompanyId,
    params: &Params,
    creating: bool,
) -> Result<PersonInput, ApiError> {
    let (kind, resource) = (K::KIND, K::SINGULAR);
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
