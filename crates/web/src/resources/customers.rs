//! Customers: `/customers.api`, `/customers/{id}.api`, `mark_active`, `mark_inactive`.

use axum::extract::State;
use domain::customer_filter::PersonList;

use crate::api::{Api, Doc, get, put_or_patch};
use crate::auth::Tenant;
use crate::error::ApiError;
use crate::ids::{Id, kind};
use crate::resources::persons::{CustomerJson, create, delete, details, list, set_active, update};
use crate::state::AppState;
use crate::views;

type Customer = kind::Customer;

pub const FIELDS: &[(&str, &str)] = &[
    (
        "first_name",
        "required on create; an update may leave it out (kept), not clear it",
    ),
    (
        "last_name",
        "required on create; an update may leave it out (kept), not clear it",
    ),
    (
        "email",
        "e-mail address; required when login_enabled is true",
    ),
    ("description", "text"),
    ("employee_identification_number", "text"),
    (
        "category",
        "text (a rentrack addition; the `category` filter matches it)",
    ),
    ("collect_tax", "boolean, default true"),
    ("login_enabled", "boolean, default false"),
    ("subscribed_to_emails", "boolean, default false"),
    ("address_name", "text"),
    ("address", "text"),
    ("address_line_2", "text"),
    ("city", "text"),
    ("state", "state code, kept as given"),
    ("zip_code", "text"),
    ("country", "two-letter code (ISO 3166-1 alpha-2)"),
    ("phone_number", "text"),
    ("fax", "text"),
    (
        "custom_attributes][<field name>",
        "value of a custom field that applies to customers; null clears",
    ),
];

pub fn routes(api: Api) -> Api {
    api.route(
        "/customers",
        get(list::<Customer>).post(create::<Customer>),
        Doc::new("Customers", "List customers, 25 a page, active ones unless filter=inactive_customers (GET), or create one (POST)")
            .form("customer", FIELDS)
            .query(&[
                ("page", "page number, default 1"),
                ("filter", PersonList::Customers.values()),
                ("filter_val", "the e-mail (URL-encoded), the category, part of the name (account_name), or a comparison such as >5 (completed_orders)"),
                ("include_custom_fields", "boolean"),
            ])
            .returns_page("customers")
            .returns("customer")
            .record::<CustomerJson>(),
    )
    .route(
        "/customers/{id}",
        get(details::<Customer>)
            .put_or_patch(update::<Customer>)
            .delete(delete::<Customer>),
        Doc::new("Customers", "Customer details (GET), update (PUT or PATCH) or delete (DELETE; 409 while it has open orders)")
            .form("customer", FIELDS)
            .query(&[("include_custom_fields", "boolean")])
            .returns("customer")
            .record::<CustomerJson>(),
    )
    .route("/customers/{id}/mark_active", put_or_patch(mark_active), Doc::new("Customers", "Mark a customer active (PUT or PATCH)").returns("customer").record::<CustomerJson>())
    .route("/customers/{id}/mark_inactive", put_or_patch(mark_inactive), Doc::new("Customers", "Mark a customer inactive (PUT or PATCH)").returns("customer").record::<CustomerJson>())
}

async fn mark_active(
    State(state): State<AppState>,
    Tenant(company): Tenant,
    Id(id, _): Id<Customer>,
) -> Result<views::Reply, ApiError> {
    set_active::<Customer>(&state, &company, id, true).await
}

async fn mark_inactive(
    State(state): State<AppState>,
    Tenant(company): Tenant,
    Id(id, _): Id<Customer>,
) -> Result<views::Reply, ApiError> {
    set_active::<Customer>(&state, &company, id, false).await
}
