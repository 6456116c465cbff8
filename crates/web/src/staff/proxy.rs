//! `/staff/api/<path>`: the API, answered for the signed-in member's company. The
//! request goes to the API's own routes (with their webhook events) as a program's
//! would, once the session, the CSRF token of a change and the member's role are
//! checked; every refusal is the API's, in its words.

use axum::Router;
use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::header::COOKIE;
use axum::http::{HeaderMap, Method, Uri};
use axum::response::{IntoResponse, Response};
use tower::ServiceExt as _;

use super::roles;
use super::session::current;
use crate::auth::{ServedCompany, Tenant};
use crate::error::ApiError;
use crate::html::csrf::same_origin;
use crate::routing::API_PREFIX;
use crate::state::AppState;

/// The header a change carries its session's CSRF token in.
const CSRF_HEADER: &str = "x-csrf-token";

pub(super) async fn forward(
    State(state): State<AppState>,
    api: Router,
    headers: HeaderMap,
    request: Request,
) -> Response {
    let session = match current(&state, &headers).await {
        Ok(Some(s)) => s,
        Ok(None) => {
            return ApiError::Unauthorized(
                "You are not logged in (or your session has ended): log in again at /staff/login."
                    .into(),
            )
            .into_response();
        }
        Err(r) => return r,
    };
    let (mut parts, body) = request.into_parts();
    // `/staff/api/assets/7.api` arrives as `/__api/staff/api/assets/7`; the API's own
    // route is `/__api/assets/7`.
    let path = parts
        .uri
        .path()
        .strip_prefix("/__api/staff/api")
        .unwrap_or_default()
        .to_owned();
    let reads = parts.method == Method::GET || parts.method == Method::HEAD;
    if !reads
        && (!same_origin(&headers)
            || headers.get(CSRF_HEADER).and_then(|v| v.to_str().ok())
                != Some(session.csrf_token.as_str()))
    {
        return ApiError::Forbidden(
            "This change did not come from a staff page of this site (its CSRF token is missing or stale): reload the page and try again."
                .into(),
        )
        .into_response();
    }
    if !roles::allows(session.role, &parts.method, &path) {
        return ApiError::Forbidden(
            "Your role does not allow this: only an administrator may. Ask an administrator of your company."
                .into(),
        )
        .into_response();
    }
    let target = match parts.uri.query() {
        Some(q) => format!("{API_PREFIX}{path}?{q}"),
        None => format!("{API_PREFIX}{path}"),
    };
    let Ok(uri) = target.parse::<Uri>() else {
        return ApiError::NotFound("No such route.".into()).into_response();
    };
    parts.uri = uri;
    parts.headers.remove(COOKIE);
    let company = session.company.id.get();
    let member = session.member_id;
    parts.extensions.insert(Tenant(session.company));
    let request = Request::from_parts(parts, body);
    let mut response = match store::acting::as_member(member, api.oneshot(request)).await {
        Ok(r) => r,
        Err(never) => match never {},
    };
    response.extensions_mut().insert(ServedCompany(company));
    response.map(Body::new)
}
