//! The console's templates, and its pages' security policy.

use askama::Template;
use axum::http::StatusCode;
use axum::response::Response;

#[derive(Template)]
#[template(path = "signup.html")]
pub(super) struct SignupPage {
    pub(super) csrf: String,
    pub(super) errors: Vec<String>,
    pub(super) company_name: String,
    pub(super) subdomain: String,
    pub(super) email: String,
    pub(super) base_domain: String,
    pub(super) min_password: usize,
}

#[derive(Template)]
#[template(path = "login.html")]
pub(super) struct LoginPage {
    pub(super) csrf: String,
    pub(super) error: Option<String>,
    pub(super) notice: Option<String>,
    pub(super) subdomain: String,
    pub(super) email: String,
}

#[derive(Template)]
#[template(path = "settings.html")]
pub(super) struct SettingsPage {
    pub(super) csrf: String,
    pub(super) owner_email: String,
    pub(super) company_name: String,
    pub(super) subdomain: String,
    pub(super) api_enabled: bool,
    pub(super) has_token: bool,
    pub(super) new_token: Option<String>,
    pub(super) plan: String,
    pub(super) limit: String,
    pub(super) used_today: i64,
    pub(super) remaining: String,
    /// Every zone name, and whether it is the company's.
    pub(super) zones: Vec<(&'static str, bool)>,
    pub(super) notice: Option<String>,
    pub(super) error: Option<String>,
    /// A staff invitation just made: its link, for whom, until when.
    pub(super) invitation: Option<StaffInvitation>,
}

pub(super) struct StaffInvitation {
    pub(super) link: String,
    pub(super) email: String,
    pub(super) expires: String,
}

/// The console's pages: inline styles and scripts only, forms to this site.
const CSP: &str = "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'";

pub(super) fn page(status: StatusCode, template: impl Template, cookies: Vec<String>) -> Response {
    crate::html::page(status, template, cookies, CSP)
}

pub(super) use crate::html::{internal, redirect};
