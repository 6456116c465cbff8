//! What the browser-facing pages share (the owner console and the staff pages):
//! cookies, CSRF, log-in throttling, and how a page, a redirect or a failure is
//! answered.

pub(crate) mod cookies;
pub(crate) mod csrf;
pub(crate) mod throttle;

use askama::Template;
use axum::http::header::{LOCATION, SET_COOKIE};
use axum::http::{HeaderValue, StatusCode};
use axum::response::{Html, IntoResponse, Response};

/// `template` rendered, with the headers every page has and the content security
/// policy `csp`.
pub(crate) fn page(
    status: StatusCode,
    template: impl Template,
    cookies: Vec<String>,
    csp: &'static str,
) -> Response {
    let html = template
        .render()
        .unwrap_or_else(|e| format!("<p>Could not render the page: {e}</p>"));
    let mut response = (status, Html(html)).into_response();
    let headers = response.headers_mut();
    headers.insert("cache-control", HeaderValue::from_static("no-store"));
    headers.insert("x-frame-options", HeaderValue::from_static("DENY"));
    headers.insert("referrer-policy", HeaderValue::from_static("same-origin"));
    headers.insert("content-security-policy", HeaderValue::from_static(csp));
    for cookie in cookies {
        if let Ok(v) = HeaderValue::from_str(&cookie) {
            headers.append(SET_COOKIE, v);
        }
    }
    response
}

pub(crate) fn redirect(to: &str, cookies: Vec<String>) -> Response {
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

/// A failed page request: a page saying to come back (503 with Retry-After) when the
/// database is busy or out of reach, else an apology (500).
pub(crate) fn internal(e: store::StoreError) -> Response {
    if e.is_unavailable() {
        tracing::warn!(error = %e, "page request: database unavailable");
        return crate::error::unavailable(Html(
            "<p>The service is busy. Try again in a few seconds.</p>",
        ));
    }
    tracing::error!(error = %e, "page request failed");
    (
        StatusCode::INTERNAL_SERVER_ERROR,
        Html("<p>Something went wrong on our side. Try again.</p>"),
    )
        .into_response()
}
