//! Log-in (throttled per account and per client address) and log-out.

use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use store::console;

use super::pages::{LoginPage, internal, page, redirect};
use super::session::{posted_session, sign_in};
use crate::client_addr::ClientAddr;
use crate::html::cookies::{SESSION_COOKIE, cookie, set_cookie};
use crate::html::csrf::{forbidden_form, login_csrf, pre_login_csrf_ok};
use crate::html::throttle::{give_back, logged_in, take_log_in, too_many};
use crate::params::Params;
use crate::state::AppState;

pub(super) const BAD_LOGIN: &str = "The company, e-mail or password is not right.";

pub(super) fn login_form(
    csrf: String,
    error: Option<String>,
    notice: Option<String>,
    params: Option<&Params>,
) -> LoginPage {
    let field = |name: &str| {
        params
            .and_then(|p| p.get(name))
            .unwrap_or_default()
            .to_owned()
    };
    LoginPage {
        csrf,
        error,
        notice,
        subdomain: field("subdomain"),
        email: field("email"),
    }
}

pub(super) async fn login_page(headers: HeaderMap, params: Params) -> Response {
    let (csrf, cookies) = login_csrf(&headers);
    let notice = params
        .get("signed_out")
        .map(|_| "You are logged out.".to_owned());
    page(
        StatusCode::OK,
        login_form(csrf, None, notice, None),
        cookies,
    )
}

pub(super) async fn login(
    State(state): State<AppState>,
    headers: HeaderMap,
    ClientAddr(addr): ClientAddr,
    params: Params,
) -> Response {
    if !pre_login_csrf_ok(&headers, &params) {
        return forbidden_form();
    }
    let (csrf, _) = login_csrf(&headers);
    let subdomain = params.get("subdomain").unwrap_or_default().to_lowercase();
    let email = params.get("email").unwrap_or_default().to_lowercase();
    let password = domain::password::offered(params.get("password").unwrap_or_default());
    let account_key = format!("account:{subdomain}:{email}");
    let address_key = format!("address:{addr}");
    let wait = match take_log_in(&state, &account_key, &address_key).await {
        Ok(w) => w,
        Err(e) => return internal(e),
    };
    if let Some(wait) = wait {
        return page(
            StatusCode::TOO_MANY_REQUESTS,
            login_form(
                csrf,
                Some(too_many(wait, "failed log-ins")),
                None,
                Some(&params),
            ),
            vec![],
        );
    }
    match console::check_password(state.db(), &subdomain, &email, password).await {
        Ok(Some((company, owner))) => {
            if let Err(e) = logged_in(&state, &account_key, &address_key).await {
                return internal(e);
            }
            sign_in(&state, company.id, owner).await
        }
        Ok(None) => page(
            StatusCode::UNAUTHORIZED,
            login_form(csrf, Some(BAD_LOGIN.to_owned()), None, Some(&params)),
            vec![],
        ),
        Err(e) => {
            let _ = give_back(&state, &[&account_key, &address_key]).await;
            internal(e)
        }
    }
}

pub(super) async fn logout(
    State(state): State<AppState>,
    headers: HeaderMap,
    params: Params,
) -> Response {
    if let Err(r) = posted_session(&state, &headers, &params).await {
        return r;
    }
    if let Some(token) = cookie(&headers, SESSION_COOKIE)
        && let Err(e) = console::end_session(state.db(), &token).await
    {
        return internal(e);
    }
    redirect(
        "/login?signed_out=1",
        vec![set_cookie(SESSION_COOKIE, "", "Lax", 0)],
    )
}
