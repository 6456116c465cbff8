//! Tests of the store against real databases: schema agreement between the two
//! backends, SQLite durability, and the store functions orders call that no endpoint
//! reaches yet. One test binary, one module per concern.

mod durability;
mod order_catalog;
mod schema;
mod sqlite_urls;
