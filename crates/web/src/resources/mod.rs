//! One module per resource family of the spec, plus rentrack's reference data.

pub mod addresses;
pub mod assets;
pub mod bundles;
pub mod businesses;
pub mod company_settings;
pub mod contacts;
pub mod coupons;
pub mod custom_fields;
pub mod custom_filters;
pub mod custom_taxes;
pub mod customers;
pub mod group_taxes;
pub mod groups;
pub mod labels;
pub mod listings;
pub mod locations;
pub mod members;
pub mod orders;
pub mod payment_options;
pub mod persons;
pub mod reference_data;
pub mod stock;
pub mod sub_groups;
pub mod vendors;
pub mod verifications;
pub mod webhooks;
