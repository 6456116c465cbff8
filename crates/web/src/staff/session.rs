//! The signed-in member: starting a session, finding it from its cookie.

use axum::http::HeaderMap;
use axum::response::Response;
use store::staff::{self, SESSION_DAYS, Session};

use crate::html::cookies::{cookie, set_cookie};
use crate::html::{internal, redirect};
use crate::state::AppState;

/// The staff session's cookie (the console's is another).
pub(super) const STAFF_COOKIE: &str = "rentrack_staff";

/// The signed-in member, if the session cookie names a live session of an active
/// member whose log-in is enabled.
pub(super) async fn current(
    state: &AppState,
    headers: &HeaderMap,
) -> Result<Option<Session>, Response> {
    let Some(token) = cookie(headers, STAFF_COOKIE) else {
        return Ok(None);
    };
    staff::session(state.db(), &token).await.map_err(internal)
}

/// Starts a session for `member` and goes on to `next`.
pub(super) async fn sign_in(
    state: &AppState,
    company: store::CompanyId,
    member: store::Id<store::ids::kind::Member>,
    next: &str,
) -> Response {
    match staff::start_session(state.db(), company, member).await {
        Ok(token) => redirect(
            next,
            vec![set_cookie(
                STAFF_COOKIE,
                &token,
                "Lax",
                SESSION_DAYS * 86_400,
            )],
        ),
        Err(e) => internal(e),
    }
}

/// Where to go after log-in: `next` when it is a staff page of this site, else Find.
pub(super) fn next_page(next: Option<&str>) -> String {
    next.filter(|n| {
        n.starts_with("/staff/")
            && !n.starts_with("/staff/api/")
            && !n.contains("//")
            && !n.contains('\\')
            && n.bytes().all(|b| b.is_ascii_graphic())
    })
    .unwrap_or("/staff/find")
    .to_owned()
}

#[cfg(test)]
mod tests {
    use super::next_page;

    #[test]
    fn next_is_a_staff_page_of_this_site() {
        assert_eq!(
            next_page(Some("/staff/items/7?company=3")),
            "/staff/items/7?company=3"
        );
        for elsewhere in [
            "https://evil.example/staff/",
            "//evil.example/staff/x",
            "/staff//evil.example",
            "/staff/\\evil",
            "/settings",
            "/staff/api/assets/1.api",
            "/staff/x y",
        ] {
            assert_eq!(next_page(Some(elsewhere)), "/staff/find", "{elsewhere}");
        }
        assert_eq!(next_page(None), "/staff/find");
    }
}
