//! The `.api` suffix. Requests for `/x/y.api` are rewritten to `/__api/x/y` before
//! routing, so API routes are plain axum paths and a path without `.api` can never
//! reach them.

use axum::extract::Request;
use axum::http::Uri;

pub const API_PREFIX: &str = "/__api";

pub fn rewrite(mut req: Request) -> Request {
    let path = req.uri().path();
    let new_path = if let Some(stripped) = path.strip_suffix(".api") {
        Some(format!("{API_PREFIX}{stripped}"))
    } else if path.starts_with(API_PREFIX) {
        Some("/__not_found".to_owned())
    } else {
        None
    };
    if let Some(p) = new_path {
        let pq = match req.uri().query() {
            Some(q) => format!("{p}?{q}"),
            None => p,
        };
        let mut parts = req.uri().clone().into_parts();
        if let Ok(pq) = pq.parse() {
            parts.path_and_query = Some(pq);
            if let Ok(uri) = Uri::from_parts(parts) {
                *req.uri_mut() = uri;
            }
        }
    }
    req
}

/// `/__api/locations/{id}` is shown as `/locations/{id}.api` in logs, metrics and docs.
pub fn display_route(route: &str) -> String {
    match route.strip_prefix(API_PREFIX) {
        Some(r) => format!("{r}.api"),
        None => route.to_owned(),
    }
}
