//! The owner console: server-rendered pages (no `.api`) to sign up, log in, and in
//! Settings enable the API, generate or regenerate the token, revoke the label links,
//! invite staff to the staff pages, and see the plan, its limits, today's usage and
//! the time zone. Every form carries
//! a CSRF token: before log-in a random one also set as a cookie (double submit),
//! after log-in the session's own. Pages work without JavaScript.
//!
//! One module per concern: `session`, `pages` (the templates), and the handlers of
//! `signup`, `login` (and log-out) and `settings`; cookies, CSRF and throttling are
//! `crate::html`'s, shared with the staff pages.

mod login;
mod pages;
mod session;
mod settings;
mod signup;

use axum::Router;
use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::Response;
use axum::routing::{get, post};

use crate::state::AppState;
use login::{login, login_page, logout};
use pages::redirect;
use session::current;
use settings::{
    invite_staff, regenerate_token, revoke_label_links, set_api, set_time_zone, settings_page,
};
use signup::{signup, signup_page};

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/", get(home))
        .route("/signup", get(signup_page).post(signup))
        .route("/login", get(login_page).post(login))
        .route("/logout", post(logout))
        .route("/settings", get(settings_page))
        .route("/settings/api", post(set_api))
        .route("/settings/token", post(regenerate_token))
        .route("/settings/time_zone", post(set_time_zone))
        .route("/settings/label_links", post(revoke_label_links))
        .route("/settings/staff", post(invite_staff))
}

async fn home(State(state): State<AppState>, headers: HeaderMap) -> Response {
    match current(&state, &headers).await {
        Ok(Some(_)) => redirect("/settings", vec![]),
        Ok(None) => redirect("/login", vec![]),
        Err(r) => r,
    }
}
