//! Cross-site request forgery: every form carries a token, before log-in a random one
//! also set as a cookie (double submit), after log-in the session's own; a form whose
//! Origin is another site is refused.

use axum::http::header::{HOST, ORIGIN};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{Html, IntoResponse, Response};

use super::cookies::{CSRF_COOKIE, cookie, random_hex, set_cookie};
use crate::params::Params;

/// The pre-log-in CSRF token: the cookie's if there is one, otherwise a new one (and
/// the cookie that carries it).
pub(crate) fn login_csrf(headers: &HeaderMap) -> (String, Vec<String>) {
    match cookie(headers, CSRF_COOKIE) {
        Some(token) => (token, vec![]),
        None => {
            let token = random_hex();
            let set = set_cookie(CSRF_COOKIE, &token, "Strict", 86_400);
            (token, vec![set])
        }
    }
}

/// A form from another site is refused: its Origin (when the browser sends one) must be
/// this host.
pub(crate) fn same_origin(headers: &HeaderMap) -> bool {
    let Some(origin) = headers.get(ORIGIN).and_then(|v| v.to_str().ok()) else {
        return true;
    };
    let host = headers
        .get(HOST)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default();
    origin
        .split_once("://")
        .is_some_and(|(_, rest)| rest == host)
}

pub(crate) fn forbidden_form() -> Response {
    let body = "<!doctype html><meta charset=utf-8><title>Form expired</title><p>This form has expired or did not come from this site. <a href=\"/\">Go back</a>, reload the page and try again.</p>";
    (StatusCode::FORBIDDEN, Html(body)).into_response()
}

pub(crate) fn pre_login_csrf_ok(headers: &HeaderMap, params: &Params) -> bool {
    let sent = params.get("csrf_token");
    same_origin(headers)
        && sent.is_some()
        && sent.map(str::to_owned) == cookie(headers, CSRF_COOKIE)
}
