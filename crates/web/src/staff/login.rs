//! Log-in (throttled per account and per client address, as the console's), log-out,
//! and the invitation link with which a member sets their password.

use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use store::staff;

use super::pages::{InvitationPage, LoginPage, page};
use super::session::{STAFF_COOKIE, current, next_page, sign_in};
use crate::client_addr::ClientAddr;
use crate::html::cookies::{cookie, set_cookie};
use crate::html::csrf::{forbidden_form, login_csrf, pre_login_csrf_ok, same_origin};
use crate::html::throttle::{give_back, logged_in, take_log_in, too_many};
use crate::html::{internal, redirect};
use crate::params::Params;
use crate::state::AppState;

const BAD_LOGIN: &str = "The company, e-mail or password is not right.";

fn login_form(
    csrf: String,
    error: Option<String>,
    notice: Option<String>,
    params: &Params,
) -> LoginPage {
    let field = |name: &str| params.get(name).unwrap_or_default().to_owned();
    LoginPage {
        csrf,
        error,
        notice,
        company: field("company"),
        email: field("email"),
        next: next_page(params.get("next")),
    }
}

pub(super) async fn login_page(
    State(state): State<AppState>,
    headers: HeaderMap,
    params: Params,
) -> Response {
    let next = next_page(params.get("next"));
    match current(&state, &headers).await {
        Ok(Some(_)) => return redirect(&next, vec![]),
        Ok(None) => {}
        Err(r) => return r,
    }
    let (csrf, cookies) = login_csrf(&headers);
    let notice = params
        .get("signed_out")
        .map(|_| "You are logged out.".to_owned());
    page(
        StatusCode::OK,
        login_form(csrf, None, notice, &params),
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
    let subdomain = params
        .get("company")
        .unwrap_or_default()
        .trim()
        .to_lowercase();
    let email = params
        .get("email")
        .unwrap_or_default()
        .trim()
        .to_lowercase();
    let password = domain::password::offered(params.get("password").unwrap_or_default());
    // The console's key: the owner, who logs in to both, has one budget of failures.
    let account_key = format!("account:{subdomain}:{email}");
    let address_key = format!("address:{addr}");
    let wait = match take_log_in(&state, &account_key, &address_key).await {
        Ok(w) => w,
        Err(e) => return internal(e),
    };
    if let Some(wait) = wait {
        let error = too_many(wait, "failed log-ins");
        return page(
            StatusCode::TOO_MANY_REQUESTS,
            login_form(csrf, Some(error), None, &params),
            vec![],
        );
    }
    match staff::check_password(state.db(), &subdomain, &email, password).await {
        Ok(Some((company, member))) => {
            if let Err(e) = logged_in(&state, &account_key, &address_key).await {
                return internal(e);
            }
            sign_in(&state, company, member, &next_page(params.get("next"))).await
        }
        Ok(None) => page(
            StatusCode::UNAUTHORIZED,
            login_form(csrf, Some(BAD_LOGIN.to_owned()), None, &params),
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
    let session = match current(&state, &headers).await {
        Ok(Some(s)) => s,
        Ok(None) => return redirect("/staff/login", vec![]),
        Err(r) => return r,
    };
    if !same_origin(&headers) || params.get("csrf_token") != Some(session.csrf_token.as_str()) {
        return forbidden_form();
    }
    if let Some(token) = cookie(&headers, STAFF_COOKIE)
        && let Err(e) = staff::end_session(state.db(), &token).await
    {
        return internal(e);
    }
    redirect(
        &format!(
            "/staff/login?signed_out=1&company={}",
            session.company.subdomain
        ),
        vec![set_cookie(STAFF_COOKIE, "", "Lax", 0)],
    )
}

const GONE: &str = "This invitation link has expired or was already used. Ask the account owner for a new one (Settings, Staff).";

async fn invitation(
    state: &AppState,
    headers: &HeaderMap,
    token: &str,
    status: StatusCode,
    error: Option<String>,
) -> Response {
    let (csrf, cookies) = login_csrf(headers);
    match staff::invited(state.db(), token).await {
        Ok(invited) => {
            let (status, error) = match invited {
                Some(_) => (status, error),
                None => (StatusCode::NOT_FOUND, Some(GONE.to_owned())),
            };
            page(
                status,
                InvitationPage {
                    csrf,
                    error,
                    invited,
                    min_password: domain::password::MIN_CHARS,
                },
                cookies,
            )
        }
        Err(e) => internal(e),
    }
}

pub(super) async fn invitation_page(
    State(state): State<AppState>,
    headers: HeaderMap,
    Path(token): Path<String>,
) -> Response {
    invitation(&state, &headers, &token, StatusCode::OK, None).await
}

/// Sets the member's password from the link, and signs them in.
pub(super) async fn accept(
    State(state): State<AppState>,
    headers: HeaderMap,
    Path(token): Path<String>,
    params: Params,
) -> Response {
    if !pre_login_csrf_ok(&headers, &params) {
        return forbidden_form();
    }
    let raw = params.get("password").unwrap_or_default();
    let password = match domain::password::owner_password(raw) {
        Ok(p) => p,
        Err(problem) => {
            let error = format!("The password {problem}.");
            return invitation(
                &state,
                &headers,
                &token,
                StatusCode::UNPROCESSABLE_ENTITY,
                Some(error),
            )
            .await;
        }
    };
    if params
        .get("password_confirmation")
        .map(domain::password::offered)
        != Some(password)
    {
        let error = "The two passwords differ; type the same password twice.".to_owned();
        return invitation(
            &state,
            &headers,
            &token,
            StatusCode::UNPROCESSABLE_ENTITY,
            Some(error),
        )
        .await;
    }
    let hash = match store::passwords::hash(password).await {
        Ok(h) => h,
        Err(e) => return internal(e),
    };
    match staff::accept(state.db(), &token, hash).await {
        Ok(Some((company, member))) => sign_in(&state, company, member, "/staff/find").await,
        Ok(None) => invitation(&state, &headers, &token, StatusCode::NOT_FOUND, None).await,
        Err(e) => internal(e),
    }
}
