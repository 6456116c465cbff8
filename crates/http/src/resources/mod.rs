//! One module per resource family of the spec.

pub mod groups;
pub mod locations;
pub mod sub_groups;
pub mod vendors;
