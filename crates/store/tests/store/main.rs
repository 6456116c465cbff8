//! Tests of the store against real databases: schema agreement between the two
//! backends and SQLite durability. One test binary, one module per concern.

mod durability;
mod schema;
