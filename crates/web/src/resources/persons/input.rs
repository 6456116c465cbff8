//! The typed inputs of customers and contacts: their fields on create and update, and
//! the parameters of their lists.

use domain::customer_filter::{PersonFilter, PersonList};
use domain::{Change, Vocabulary};
use store::CompanyId;
use store::persons::{Kind, PersonInput};

use super::{PersonKind, target};
use crate::address_block::{AddressInput, Standard};
use crate::custom_attributes::{self, IncludeQuery};
use crate::error::ApiError;
use crate::form::Form;
use crate::input::{Email, Input, PageQuery, ShortText, SomeIds, Word, read_top_level};
use crate::params::Params;
use crate::state::AppState;

/// What customers and contacts take alike, on create and update.
#[derive(Input)]
pub struct PersonFields {
    /// Required when login_enabled is true; stored lower-case.
    #[input(format = Email)]
    email: Change<String>,
    description: Change<String>,
    employee_identification_number: Change<String>,
    /// A rentrack addition: the `category` filter matches it.
    category: Change<String>,
    #[input(flatten)]
    address_block: AddressInput<Standard>,
    /// true by default.
    collect_tax: Option<bool>,
    /// false by default.
    login_enabled: Option<bool>,
    /// false by default.
    subscribed_to_emails: Option<bool>,
}

impl PersonFields {
    fn into_input(
        self,
        first_name: Change<String>,
        last_name: Option<String>,
        business_ids: Option<Vec<i64>>,
    ) -> PersonInput {
        PersonInput {
            first_name,
            last_name,
            email: match self.email {
                Change::Set(e) => Change::Set(e.to_lowercase()),
                other => other,
            },
            description: self.description,
            employee_identification_number: self.employee_identification_number,
            category: self.category,
            address_block: self.address_block.into_block(),
            collect_tax: self.collect_tax,
            login_enabled: self.login_enabled,
            subscribed_to_emails: self.subscribed_to_emails,
            business_ids: business_ids.map(store::Id::each),
            custom_attributes: Default::default(),
        }
    }
}

/// A person's fields as one request sends them: `business_ids` are those sent at the
/// top level, which win over the record's own.
pub trait PersonWrite: Input {
    fn into_input(self, business_ids: Option<Vec<i64>>) -> PersonInput;
}

/// A new customer.
#[derive(Input)]
#[input(resource = "customer")]
pub struct NewCustomer {
    #[input(format = ShortText)]
    first_name: String,
    #[input(format = ShortText)]
    last_name: String,
    #[input(flatten)]
    fields: PersonFields,
}

impl PersonWrite for NewCustomer {
    fn into_input(self, _: Option<Vec<i64>>) -> PersonInput {
        let first = Change::Set(self.first_name);
        self.fields.into_input(first, Some(self.last_name), None)
    }
}

/// A customer's changes: what is left out is kept; the names cannot be cleared
/// (docs/api.md, "Updates").
#[derive(Input)]
#[input(resource = "customer")]
pub struct CustomerChanges {
    #[input(format = ShortText)]
    first_name: Option<String>,
    #[input(format = ShortText)]
    last_name: Option<String>,
    #[input(flatten)]
    fields: PersonFields,
}

impl PersonWrite for CustomerChanges {
    fn into_input(self, _: Option<Vec<i64>>) -> PersonInput {
        let first = self.first_name.map_or(Change::Keep, Change::Set);
        self.fields.into_input(first, self.last_name, None)
    }
}

/// A new business contact.
#[derive(Input)]
#[input(resource = "contact")]
pub struct NewContact {
    first_name: Change<String>,
    #[input(format = ShortText)]
    last_name: String,
    /// The ids of the contact's businesses, as the top-level business_ids (which
    /// wins when both are sent); one of the two is required.
    #[input(format = SomeIds, or = "/business_ids[]")]
    business_ids: Option<Vec<i64>>,
    #[input(flatten)]
    fields: PersonFields,
}

impl PersonWrite for NewContact {
    fn into_input(self, business_ids: Option<Vec<i64>>) -> PersonInput {
        let ids = business_ids.or(self.business_ids);
        self.fields
            .into_input(self.first_name, Some(self.last_name), ids)
    }
}

/// A contact's changes: what is left out is kept; the last name cannot be cleared.
#[derive(Input)]
#[input(resource = "contact")]
pub struct ContactChanges {
    first_name: Change<String>,
    #[input(format = ShortText)]
    last_name: Option<String>,
    /// The full new list of the contact's businesses, as the top-level business_ids
    /// (which wins when both are sent).
    #[input(format = SomeIds)]
    business_ids: Option<Vec<i64>>,
    #[input(flatten)]
    fields: PersonFields,
}

impl PersonWrite for ContactChanges {
    fn into_input(self, business_ids: Option<Vec<i64>>) -> PersonInput {
        let ids = business_ids.or(self.business_ids);
        self.fields.into_input(self.first_name, self.last_name, ids)
    }
}

/// The top-level parameters of a contact's create and update.
#[derive(Input)]
pub struct ContactQuery {
    /// The ids of the contact's businesses (repeated, or one comma list): required
    /// and not empty on create; on update, when sent, the full new list.
    #[input(format = SomeIds)]
    business_ids: Option<Vec<i64>>,
}

/// Reads `customer[...]` or `contact[...]` as `T`, with the custom field values and
/// (contacts) the top-level `business_ids`: the input, or one 422 naming every
/// problem. The e-mail is required whenever login is enabled (checked by the store,
/// which knows the state).
pub(super) async fn read_input<K: PersonKind, T: PersonWrite>(
    state: &AppState,
    company: CompanyId,
    params: &Params,
) -> Result<PersonInput, ApiError> {
    let mut form = Form::new(params, K::SINGULAR);
    let input = T::read(&mut form);
    let business_ids = if K::PERSON == Kind::Contact {
        read_top_level::<ContactQuery>(&mut form).map(|q| q.business_ids)
    } else {
        Some(None)
    };
    let values =
        custom_attributes::read_values(state.db(), company, target(K::PERSON), &mut form).await?;
    let (input, business_ids) = form.finish_with(input.zip(business_ids))?;
    Ok(PersonInput {
        custom_attributes: values,
        ..input.into_input(business_ids)
    })
}

/// The words of a person list's `filter`, as `PersonList::values` lists them.
macro_rules! filter_words {
    ($(#[$doc:meta])* $name:ident: $($word:literal),* $(,)?) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        pub struct $name(&'static str);

        impl Vocabulary for $name {
            const ALL: &'static [Self] = &[$($name($word)),*];

            fn as_str(self) -> &'static str {
                self.0
            }
        }
    };
}

filter_words!(
    /// The filters of the customer list.
    CustomerFilters: "email", "category", "taxed", "non_taxed", "inactive_customers",
    "subscribed_emails", "not_subscribed_emails", "checked_out_orders", "completed_orders",
    "account_name",
);

filter_words!(
    /// The filters of the contact list.
    ContactFilters: "email", "subscribed_emails", "not_subscribed_emails", "all",
    "active_contacts", "inactive_contacts", "login_enabled", "primary_contact_person",
    "shipping", "billing", "both",
);

filter_words!(
    /// The filters of the persons list.
    PersonFilters: "email", "subscribed_emails", "not_subscribed_emails", "all", "taxed",
    "non_taxed", "active_contacts", "non_business_contacts", "business_contacts",
    "login_enabled",
);

/// The parameters of a person list.
pub trait ListQuery: Input {
    /// The list they are read for.
    const LIST: PersonList;
    /// Its filters.
    type Filters: Vocabulary;
    /// The filter and its value.
    fn filter(&self) -> (Option<Self::Filters>, Option<String>);
    fn page(&self) -> &PageQuery;
    fn include(&self) -> bool;
}

/// The parameters of the customer list.
#[derive(Input)]
pub struct CustomerListQuery {
    /// Which customers: active ones unless filtered otherwise. email, category,
    /// completed_orders and account_name take a filter_val.
    #[input(format = Word<CustomerFilters>)]
    filter: Option<CustomerFilters>,
    /// The e-mail (URL-encoded), the category, part of the name (account_name), or a
    /// comparison such as >5 (completed_orders).
    filter_val: Option<String>,
    #[input(flatten)]
    page: PageQuery,
    #[input(flatten)]
    include: IncludeQuery,
}

/// The parameters of the contact list.
#[derive(Input)]
pub struct ContactListQuery {
    /// Which contacts: active ones unless filtered otherwise; email takes a
    /// filter_val.
    #[input(format = Word<ContactFilters>)]
    filter: Option<ContactFilters>,
    /// The e-mail (URL-encoded), with filter=email.
    filter_val: Option<String>,
    #[input(flatten)]
    page: PageQuery,
    #[input(flatten)]
    include: IncludeQuery,
}

/// The parameters of the persons list.
#[derive(Input)]
pub struct PersonListQuery {
    /// Which persons: active ones unless filtered otherwise; email takes a filter_val.
    #[input(format = Word<PersonFilters>)]
    filter: Option<PersonFilters>,
    /// The e-mail (URL-encoded), with filter=email.
    filter_val: Option<String>,
    #[input(flatten)]
    page: PageQuery,
    #[input(flatten)]
    include: IncludeQuery,
}

macro_rules! list_query {
    ($query:ident, $list:expr, $filters:ident) => {
        impl ListQuery for $query {
            const LIST: PersonList = $list;
            type Filters = $filters;

            fn filter(&self) -> (Option<$filters>, Option<String>) {
                (self.filter, self.filter_val.clone())
            }

            fn page(&self) -> &PageQuery {
                &self.page
            }

            fn include(&self) -> bool {
                self.include.include()
            }
        }
    };
}

list_query!(CustomerListQuery, PersonList::Customers, CustomerFilters);
list_query!(ContactListQuery, PersonList::Contacts, ContactFilters);
list_query!(PersonListQuery, PersonList::Persons, PersonFilters);

/// A list's parameters and its filter (a filter_val that suits the filter).
pub fn read_list_query<Q: ListQuery>(params: &Params) -> Result<(Q, PersonFilter), ApiError> {
    let mut form = Form::new(params, "");
    let query = Q::read(&mut form);
    let filter = if form.has_errors_for("filter") || form.has_errors_for("filter_val") {
        None
    } else {
        // Read whatever else failed, so one 422 names every problem.
        let (name, value) = match &query {
            Some(q) => q.filter(),
            None => (
                form.peek::<Word<Q::Filters>>("filter"),
                form.peek::<String>("filter_val"),
            ),
        };
        PersonFilter::parse(Q::LIST, name.map(|n| n.as_str()), value.as_deref())
            .map_err(|(field, problem)| form.error(field, problem))
            .ok()
    };
    form.finish_with(query.zip(filter))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_filter_words_are_the_lists_own() {
        assert_eq!(CustomerFilters::names(), PersonList::Customers.values());
        assert_eq!(ContactFilters::names(), PersonList::Contacts.values());
        assert_eq!(PersonFilters::names(), PersonList::Persons.values());
    }
}
