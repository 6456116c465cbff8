//! Sign-up: a new company on the trial plan, its owner signed in at once.

use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use domain::{Plan, Subdomain};
use store::companies::{self, NewCompany};
use store::console;

use super::pages::{SignupPage, internal, page, redirect};
use super::session::sign_in;
use crate::client_addr::ClientAddr;
use crate::html::csrf::{forbidden_form, login_csrf, pre_login_csrf_ok};
use crate::html::throttle::{SIGNUP_THROTTLE, too_many};
use crate::params::Params;
use crate::state::AppState;

pub(super) fn signup_form(
    state: &AppState,
    csrf: String,
    errors: Vec<String>,
    params: Option<&Params>,
) -> SignupPage {
    let field = |name: &str| {
        params
            .and_then(|p| p.get(name))
            .unwrap_or_default()
            .to_owned()
    };
    SignupPage {
        csrf,
        errors,
        company_name: field("company_name"),
        subdomain: field("subdomain"),
        email: field("email"),
        base_domain: state
            .inner()
            .config
            .base_domain
            .as_deref()
            .map(|d| format!(" .{d}"))
            .unwrap_or_default()
            .replace(" .", "."),
        min_password: domain::password::MIN_CHARS,
    }
}

pub(super) async fn signup_page(State(state): State<AppState>, headers: HeaderMap) -> Response {
    let (csrf, cookies) = login_csrf(&headers);
    page(
        StatusCode::OK,
        signup_form(&state, csrf, vec![], None),
        cookies,
    )
}

pub(super) async fn signup(
    State(state): State<AppState>,
    headers: HeaderMap,
    ClientAddr(addr): ClientAddr,
    params: Params,
) -> Response {
    if !pre_login_csrf_ok(&headers, &params) {
        return forbidden_form();
    }
    let (csrf, _) = login_csrf(&headers);
    let mut errors = Vec::new();
    let name = params.get("company_name").unwrap_or_default().to_owned();
    if name.is_empty() {
        errors.push("Company name can't be blank.".to_owned());
    } else if name.chars().count() > 255 {
        errors.push("Company name is too long (at most 255 characters).".to_owned());
    }
    let subdomain = match Subdomain::parse(params.get("subdomain").unwrap_or_default()) {
        Ok(s) => Some(s),
        Err(e) => {
            errors.push(format!("Subdomain {e}."));
            None
        }
    };
    let email = params.get("email").unwrap_or_default().to_lowercase();
    if !domain::wire::is_email(&email) {
        errors.push("E-mail is not an e-mail address.".to_owned());
    }
    let password =
        match domain::password::owner_password(params.get("password").unwrap_or_default()) {
            Ok(p) => p.to_owned(),
            Err(problem) => {
                errors.push(format!("Password {problem}."));
                String::new()
            }
        };
    let Some(subdomain) = subdomain.filter(|_| errors.is_empty()) else {
        return page(
            StatusCode::UNPROCESSABLE_ENTITY,
            signup_form(&state, csrf, errors, Some(&params)),
            vec![],
        );
    };
    // Valid sign-ups (each runs argon2 and creates a company) are limited per address.
    let key = format!("signup:{addr}");
    match console::take_attempt(state.db(), &key, &SIGNUP_THROTTLE).await {
        Ok(None) => {}
        Ok(Some(wait)) => {
            if let Err(e) = console::give_back(state.db(), &key).await {
                return internal(e);
            }
            let errors = vec![too_many(wait, "sign-ups from your address")];
            return page(
                StatusCode::TOO_MANY_REQUESTS,
                signup_form(&state, csrf, errors, Some(&params)),
                vec![],
            );
        }
        Err(e) => return internal(e),
    }
    let new = NewCompany {
        name,
        subdomain,
        plan: Plan::Trial,
        owner_email: Some(email.clone()),
        owner_password: Some(password),
        enable_api: false,
    };
    let company = match companies::create(state.db(), new).await {
        Ok((company, _)) => company,
        Err(store::StoreError::Invalid(problems)) => {
            let errors = crate::error::worded(problems)
                .into_iter()
                .flat_map(|(field, list)| {
                    list.into_iter()
                        .map(move |p| format!("{} {p}.", capitalise(&field)))
                })
                .collect();
            return page(
                StatusCode::UNPROCESSABLE_ENTITY,
                signup_form(&state, csrf, errors, Some(&params)),
                vec![],
            );
        }
        Err(e) => return internal(e),
    };
    // The owner was just created with this e-mail: sign them in without hashing the
    // password a second time.
    match console::owner_id(state.db(), company.id, &email).await {
        Ok(Some(owner)) => sign_in(&state, company.id, owner).await,
        Ok(None) => redirect("/login", vec![]),
        Err(e) => internal(e),
    }
}

pub(super) fn capitalise(s: &str) -> String {
    let mut chars = s.chars();
    chars
        .next()
        .map(|c| c.to_uppercase().collect::<String>() + chars.as_str())
        .unwrap_or_default()
}
