//! The staff pages (`/staff/...`): members of a company log in with a password set
//! through an invitation link the owner makes in the console, and find, scan, check
//! out and in, and see what is due, from a phone or a desktop.
//!
//! The pages are HTML shells (`pages`) that one script (`crates/web/staff/staff.js`,
//! served by `assets` with everything else they load) fills in through `/staff/api/...`
//! (`proxy`): the API itself, answered for the session's company, so every rule and
//! every refusal's words are the API's. What a member may send there follows their
//! role (`roles`). Sessions, CSRF and throttling are `crate::html`'s, as the console's.

mod assets;
mod login;
mod pages;
mod proxy;
mod roles;
mod session;

use axum::Router;
use axum::routing::{any, get, post};

use crate::state::AppState;

/// The staff routes; `api` is the API's router without its token check, which the
/// proxy calls with the session's company.
pub fn routes(api: Router) -> Router<AppState> {
    Router::new()
        .route("/staff", get(pages::home))
        .route("/staff/login", get(login::login_page).post(login::login))
        .route("/staff/logout", post(login::logout))
        .route(
            "/staff/invitations/{token}",
            get(login::invitation_page).post(login::accept),
        )
        .route("/staff/find", get(pages::find))
        .route("/staff/scan", get(pages::scan))
        .route("/staff/due", get(pages::due))
        .route("/staff/today", get(pages::today))
        .route("/staff/items/{number}", get(pages::item))
        .route("/staff/assets/{file}", get(assets::file))
        // `/staff/api/x.api` arrives rewritten, as every `.api` path (`routing`).
        .route(
            "/__api/staff/api/{*path}",
            any(move |state, headers, request| {
                proxy::forward(state, api.clone(), headers, request)
            }),
        )
}

pub(crate) use pages::wants_page;
