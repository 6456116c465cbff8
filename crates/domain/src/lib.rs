//! Types that only hold valid values, and the pure rules of rentrack.
//! Nothing here knows about SQL or HTTP.

pub mod asset_filter;
pub mod availability;
pub mod country;
pub mod coupon;
pub mod custom_field;
pub mod customer_filter;
pub mod depreciation;
pub mod item;
pub mod label;
pub mod login;
pub mod member;
pub mod money;
pub mod name;
pub mod order;
pub mod paging;
pub mod password;
pub mod payment;
pub mod plan;
pub mod pricing;
pub mod rate_limit;
pub mod refusal;
pub mod reservation;
pub mod settings;
pub mod stock;
pub mod verification;
pub mod vocabulary;
pub mod webhook;
pub mod wire;

pub use name::Name;
pub use paging::{Page, PageSize};
pub use plan::{Plan, RateLimitPolicy};
pub use vocabulary::Vocabulary;
pub mod change;
pub mod subdomain;

pub use change::Change;
pub use subdomain::Subdomain;
