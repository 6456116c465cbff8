//! Black-box tests of the HTTP contract: requests go through the whole application
//! (routing, middleware, handlers, a real database) and only responses are checked.
//! One test binary, one module per resource family or concern; `both!` runs each case
//! on SQLite and, when `TEST_POSTGRES_URL` is set, on PostgreSQL.

#[macro_use]
mod common;

mod asset_filters;
mod assets;
mod availability;
mod browser;
mod businesses;
mod console;
mod conventions;
mod custom_fields;
mod customers;
mod groups;
mod imports;
mod labels;
mod limits;
mod listings;
mod locations;
mod member_addresses;
mod members;
mod methods;
mod moving;
mod openapi;
mod order_catalog;
mod order_charges;
mod order_invariants;
mod order_payments;
mod order_rentals;
mod orders;
mod paging;
mod panics;
mod params_fuzz;
mod rate_limits;
mod reference_data;
mod reservations;
mod services;
mod staff;
mod stock;
mod stock_reservations;
mod sub_groups;
mod unavailable;
mod vendors;
mod verifications;
mod webhooks;
