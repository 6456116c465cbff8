//! Customers: `/customers.api`, `/customers/{id}.api`, `mark_active`, `mark_inactive`.

use axum::extract::State;

use crate::api::{Api, Doc, get, put_or_patch};
use crate::auth::Tenant;
use crate::custom_attributes::{self, IncludeQuery};
use crate::error::ApiError;
use crate::ids::{Id, kind};
use crate::resources::persons::{
    CustomerChanges, CustomerJson, CustomerListQuery, NewCustomer, create, delete, details, list,
    set_active, update,
};
use crate::state::AppState;
use crate::views;

type Customer = kind::Customer;

pub fn routes(api: Api) -> Api {
    api.route(
        "/customers",
        get(list::<Customer>).post(create::<Customer>),
        Doc::new("Customers", "List customers, 25 a page, active ones unless filter=inactive_customers (GET), or create one (POST)")
            .input::<NewCustomer>()
            .custom_values("customer", custom_attributes::FIELDS)
            .params::<CustomerListQuery>()
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
            .input::<CustomerChanges>()
            .custom_values("customer", custom_attributes::FIELDS)
            .params::<IncludeQuery>()
            .returns("customer")
            .record::<CustomerJson>(),
    )
    .route("/customers/{id}/mark_active", put_or_patch(mark_active), Doc::new("Customers", "Mark a customer active (PUT or PATCH)").returns("customer").record::<CustomerJson>())
    .route("/customers/{id}/mark_inactive", put_or_patch(mark_inactive), Doc::new("Customers", "Mark a customer inactive (PUT or PATCH)").returns("customer").record::<CustomerJson>())
}

async fn mark_active(
    State(state): State<AppState>,
    Tenant(company): Tenant,
    Id(id): Id<Customer>,
) -> Result<views::Reply, ApiError> {
    set_active::<Customer>(&state, &company, id, true).await
}

async fn mark_inactive(
    State(state): State<AppState>,
    Tenant(company): Tenant,
    Id(id): Id<Customer>,
) -> Result<views::Reply, ApiError> {
    set_active::<Customer>(&state, &company, id, false).await
}
