//! The signed-in owner: starting a session, finding it from its cookie, and checking
//! a form posted within it.

use axum::http::HeaderMap;
use axum::response::Response;
use store::console::{self, SESSION_DAYS, Session};

use super::pages::{internal, redirect};
use crate::html::cookies::{SESSION_COOKIE, cookie, set_cookie};
use crate::html::csrf::{forbidden_form, same_origin};
use crate::params::Params;
use crate::state::AppState;

/// The signed-in owner, if the session cookie names a live session.
pub(super) async fn current(
    state: &AppState,
    headers: &HeaderMap,
) -> Result<Option<Session>, Response> {
    let Some(token) = cookie(headers, SESSION_COOKIE) else {
        return Ok(None);
    };
    console::session(state.db(), &token).await.map_err(internal)
}

/// The session of a form posted after log-in, with its CSRF token checked.
pub(super) async fn posted_session(
    state: &AppState,
    headers: &HeaderMap,
    params: &Params,
) -> Result<Session, Response> {
    let Some(session) = current(state, headers).await? else {
        return Err(redirect("/login", vec![]));
    };
    if !same_origin(headers) || params.get("csrf_token") != Some(session.csrf_token.as_str()) {
        return Err(forbidden_form());
    }
    Ok(session)
}

pub(super) async fn sign_in(
    state: &AppState,
    company: store::CompanyId,
    owner: store::Id<store::ids::kind::Member>,
) -> Response {
    match console::start_session(state.db(), company, owner).await {
        Ok(token) => redirect(
            "/settings",
            vec![set_cookie(
                SESSION_COOKIE,
                &token,
                "Lax",
                SESSION_DAYS * 86_400,
            )],
        ),
        Err(e) => internal(e),
    }
}
