//! The console's two cookies: the session, and the CSRF token before log-in.

use axum::http::HeaderMap;
use axum::http::header::COOKIE;

pub(crate) const SESSION_COOKIE: &str = "rentrack_session";

pub(crate) const CSRF_COOKIE: &str = "rentrack_csrf";

pub(crate) fn cookie(headers: &HeaderMap, name: &str) -> Option<String> {
    headers
        .get_all(COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(k, _)| *k == name)
        .map(|(_, v)| v.to_owned())
        .filter(|v| !v.is_empty())
}

/// `Set-Cookie` for a secure, HTTP-only cookie of the whole site.
pub(crate) fn set_cookie(name: &str, value: &str, same_site: &str, max_age_secs: i64) -> String {
    format!(
        "{name}={value}; Path=/; HttpOnly; Secure; SameSite={same_site}; Max-Age={max_age_secs}"
    )
}

pub(crate) fn random_hex() -> String {
    use rand::RngCore;
    let mut bytes = [0u8; 32];
    rand::thread_rng().fill_bytes(&mut bytes);
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}
