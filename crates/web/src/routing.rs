//! What every request goes through before routing: the host it was sent to, and the
//! `.api` suffix. Requests for `/x/y.api` are rewritten to `/__api/x/y`, so API routes
//! are plain axum paths and a path without `.api` can never reach them.

use axum::extract::Request;
use axum::http::{HeaderValue, Uri, header::HOST};

pub const API_PREFIX: &str = "/__api";

pub fn rewrite(mut req: Request) -> Request {
    authority_as_host(&mut req);
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

/// HTTP/2 carries the host in the URI's authority (`:authority`), not in a `Host`
/// header, and an HTTP/1.1 request in absolute form names it in the URI too, which
/// then wins over `Host`. Copying the authority into `Host` lets every rule that reads
/// the host (the subdomain rule, the console's Origin check) see it on every version.
fn authority_as_host(req: &mut Request) {
    let Some(authority) = req.uri().authority() else {
        return;
    };
    // Without any `user@` part.
    let host = match authority.port() {
        Some(port) => format!("{}:{port}", authority.host()),
        None => authority.host().to_owned(),
    };
    if let Ok(value) = HeaderValue::from_str(&host) {
        req.headers_mut().insert(HOST, value);
    }
}

/// `/__api/locations/{id}` is shown as `/locations/{id}.api` in logs, metrics and docs.
pub fn display_route(route: &str) -> String {
    match route.strip_prefix(API_PREFIX) {
        Some(r) => format!("{r}.api"),
        None => route.to_owned(),
    }
}
