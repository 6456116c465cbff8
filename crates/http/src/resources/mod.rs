//! One module per resource family of the spec, plus rentrack's reference data.

pub mod company_settings;
pub mod custom_fields;
pub mod groups;
pub mod locations;
pub mod member_addresses;
pub mod members;
pub mod reference_data;
pub mod sub_groups;
pub mod vendors;
