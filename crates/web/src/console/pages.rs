//! The console's templates, and how a page, a redirect or a failure is answered.

use askama::Template;
use axum::http::header::{LOCATION, SET_COOKIE};
use axum::http::{HeaderValue, StatusCode};
use axum::response::{Html, IntoResponse, Response};

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
}

pub(super) fn page(status: StatusCode, template: impl Template, cookies: Vec<String>) -> Response {
    let html = template
        .render()
        .unwrap_or_else(|e| format!("<p>Could not render the page: {e}</p>"));
    let mut response = (status, Html(html)).into_response();
    let headers = response.headers_mut();
    headers.insert("cache-control", HeaderValue::from_static("no-store"));
    headers.insert("x-frame-options", HeaderValue::from_static("DENY"));
    headers.insert("referrer-policy", HeaderValue::from_static("same-origin"));
    headers.insert(
        "content-security-policy",
        HeaderValue::from_static("default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'"),
    );
    for cookie in cookies {
        if let Ok(v) = HeaderValue::from_str(&cookie) {
            headers.append(SET_COOKIE, v);
        }
    }
    response
}

pub(super) fn redirect(to: &str, cookies: Vec<String>) -> Response {
    let mut response = StatusCode::SEE_OTHER.into_response();
    if let Ok(v) = HeaderValue::from_str(to) {
        response.headers_mut().insert(LOCATION, v);
    }
    for cookie in cookies {
        if let Ok(v) = HeaderValue::from_str(&cookie) {
            response.headers_mut().append(SET_COOKIE, v);
        }
    }
    response
}

/// A failed console request: a page saying to come back (503 with Retry-After) when the
/// database is busy or out of reach, else an apology (500).
pub(super) fn internal(e: store::StoreError) -> Response {
    if e.is_unavailable() {
        tracing::warn!(error = %e, "console request: database unavailable");
        return crate::error::unavailable(Html(
            "<p>The service is busy. Try again in a few seconds.</p>",
        ));
    }
    tracing::error!(error = %e, "console request failed");
    (
        StatusCode::INTERNAL_SERVER_ERROR,
        Html("<p>Something went wrong on our side. Try again.</p>"),
    )
        .into_response()
}
