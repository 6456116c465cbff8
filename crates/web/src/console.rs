//! The owner console: server-rendered pages (no `.api`) to sign up, log in, and in
//! Settings enable the API, generate or regenerate the token, and see the plan, its
//! limits, today's usage and the time zone. Every form carries a CSRF token: before
//! log-in a random one also set as a cookie (double submit), after log-in the
//! session's own. Pages work without JavaScript.

use askama::Template;
use axum::Router;
use axum::extract::State;
use axum::http::header::{COOKIE, HOST, LOCATION, ORIGIN, SET_COOKIE};
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::{get, post};
use domain::{Plan, RateLimitPolicy, Subdomain};
use store::companies::{self, NewCompany};
use store::console::{self, SESSION_DAYS, Session, Throttle};

use crate::client_addr::ClientAddr;
use crate::params::Params;
use crate::state::AppState;

const SESSION_COOKIE: &str = "rentrack_session";
const CSRF_COOKIE: &str = "rentrack_csrf";
/// Failed log-ins allowed per account, and per client address, in 15 minutes.
const ACCOUNT_THROTTLE: Throttle = Throttle {
    limit: 5,
    window_secs: 900,
};
/// Sign-ups allowed per client address in an hour.
const SIGNUP_THROTTLE: Throttle = Throttle {
    limit: 10,
    window_secs: 3600,
};
const ADDRESS_THROTTLE: Throttle = Throttle {
    limit: 20,
    window_secs: 900,
};
const BAD_LOGIN: &str = "The company, e-mail or password is not right.";

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
}

#[derive(Template)]
#[template(path = "signup.html")]
struct SignupPage {
    csrf: String,
    errors: Vec<String>,
    company_name: String,
    subdomain: String,
    email: String,
    base_domain: String,
    min_password: usize,
}

#[derive(Template)]
#[template(path = "login.html")]
struct LoginPage {
    csrf: String,
    error: Option<String>,
    notice: Option<String>,
    subdomain: String,
    email: String,
}

#[derive(Template)]
#[template(path = "settings.html")]
struct SettingsPage {
    csrf: String,
    owner_email: String,
    company_name: String,
    subdomain: String,
    api_enabled: bool,
    has_token: bool,
    new_token: Option<String>,
    plan: String,
    limit: String,
    used_today: i64,
    remaining: String,
    /// Every zone name, and whether it is the company's.
    zones: Vec<(&'static str, bool)>,
    notice: Option<String>,
    error: Option<String>,
}

fn page(status: StatusCode, template: impl Template, cookies: Vec<String>) -> Response {
    let html = template
        .render()
        .unwrap_or_else(|e| format!("<p>Could not render the page: {e}</p>"));
    let mut response = (status, Html(html)).into_response();
    let headers = response.headers_mut();
    headers.insert("cache-control", HeaderValue::from_static("no-store"));
    headers.insert("x-frame-options", HeaderValue::from_static("DENY"));
    headers.insert("referrer-policy", HeaderValue::from_static("same-origin"));
    headers.insert(
        "content-security-policy",
        HeaderValue::from_static("default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'"),
    );
    for cookie in cookies {
        if let Ok(v) = HeaderValue::from_str(&cookie) {
            headers.append(SET_COOKIE, v);
        }
    }
    response
}

fn redirect(to: &str, cookies: Vec<String>) -> Response {
    let mut response = StatusCode::SEE_OTHER.into_response();
    if let Ok(v) = HeaderValue::from_str(to) {
        response.headers_mut().insert(LOCATION, v);
    }
    for cookie in cookies {
        if let Ok(v) = HeaderValue::from_str(&cookie) {
            response.headers_mut().append(SET_COOKIE, v);
        }
    }
    response
}

fn cookie(headers: &HeaderMap, name: &str) -> Option<String> {
    headers
        .get_all(COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(k, _)| *k == name)
        .map(|(_, v)| v.to_owned())
        .filter(|v| !v.is_empty())
}

/// `Set-Cookie` for a secure, HTTP-only cookie of the whole site.
fn set_cookie(name: &str, value: &str, same_site: &str, max_age_secs: i64) -> String {
    format!(
        "{name}={value}; Path=/; HttpOnly; Secure; SameSite={same_site}; Max-Age={max_age_secs}"
    )
}

fn random_hex() -> String {
    use rand::RngCore;
    let mut bytes = [0u8; 32];
    rand::thread_rng().fill_bytes(&mut bytes);
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The pre-log-in CSRF token: the cookie's if there is one, otherwise a new one (and
/// the cookie that carries it).
fn login_csrf(headers: &HeaderMap) -> (String, Vec<String>) {
    match cookie(headers, CSRF_COOKIE) {
        Some(token) => (token, vec![]),
        None => {
            let token = random_hex();
            let set = set_cookie(CSRF_COOKIE, &token, "Strict", 86_400);
            (token, vec![set])
        }
    }
}

/// A form from another site is refused: its Origin (when the browser sends one) must be
/// this host.
fn same_origin(headers: &HeaderMap) -> bool {
    let Some(origin) = headers.get(ORIGIN).and_then(|v| v.to_str().ok()) else {
        return true;
    };
    let host = headers
        .get(HOST)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default();
    origin
        .split_once("://")
        .is_some_and(|(_, rest)| rest == host)
}

fn forbidden_form() -> Response {
    let body = "<!doctype html><meta charset=utf-8><title>Form expired</title><p>This form has expired or did not come from this site. <a href=\"/\">Go back</a>, reload the page and try again.</p>";
    (StatusCode::FORBIDDEN, Html(body)).into_response()
}

fn pre_login_csrf_ok(headers: &HeaderMap, params: &Params) -> bool {
    let sent = params.get("csrf_token");
    same_origin(headers)
        && sent.is_some()
        && sent.map(str::to_owned) == cookie(headers, CSRF_COOKIE)
}

/// The signed-in owner, if the session cookie names a live session.
async fn current(state: &AppState, headers: &HeaderMap) -> Result<Option<Session>, Response> {
    let Some(token) = cookie(headers, SESSION_COOKIE) else {
        return Ok(None);
    };
    console::session(state.db(), &token).await.map_err(internal)
}

/// A failed console request: a page saying to come back (503 with Retry-After) when the
/// database is busy or out of reach, else an apology (500).
fn internal(e: store::StoreError) -> Response {
    if e.is_unavailable() {
        tracing::warn!(error = %e, "console request: database unavailable");
        return crate::error::unavailable(Html(
            "<p>The service is busy. Try again in a few seconds.</p>",
        ));
    }
    tracing::error!(error = %e, "console request failed");
    (
        StatusCode::INTERNAL_SERVER_ERROR,
        Html("<p>Something went wrong on our side. Try again.</p>"),
    )
        .into_response()
}

async fn home(State(state): State<AppState>, headers: HeaderMap) -> Response {
    match current(&state, &headers).await {
        Ok(Some(_)) => redirect("/settings", vec![]),
        Ok(None) => redirect("/login", vec![]),
        Err(r) => r,
    }
}

fn signup_form(
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

async fn signup_page(State(state): State<AppState>, headers: HeaderMap) -> Response {
    let (csrf, cookies) = login_csrf(&headers);
    page(
        StatusCode::OK,
        signup_form(&state, csrf, vec![], None),
        cookies,
    )
}

async fn signup(
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
            let errors = problems
                .iter()
                .flat_map(|(field, list)| {
                    list.iter()
                        .map(move |p| format!("{} {p}.", capitalise(field)))
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

fn capitalise(s: &str) -> String {
    let mut chars = s.chars();
    chars
        .next()
        .map(|c| c.to_uppercase().collect::<String>() + chars.as_str())
        .unwrap_or_default()
}

async fn sign_in(state: &AppState, company: domain::CompanyId, owner: i64) -> Response {
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

fn login_form(
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

async fn login_page(headers: HeaderMap, params: Params) -> Response {
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

async fn login(
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
    let keys = [
        (&account_key, &ACCOUNT_THROTTLE),
        (&address_key, &ADDRESS_THROTTLE),
    ];
    // Each attempt is counted before the password is checked, so parallel guesses
    // cannot all pass the limit; attempts that check no password, or the right one,
    // are given back, so what counts is failed checks.
    let mut wait = None;
    for (key, throttle) in keys {
        match console::take_attempt(state.db(), key, throttle).await {
            Ok(Some(w)) => wait = wait.max(Some(w)),
            Ok(None) => {}
            Err(e) => return internal(e),
        }
    }
    if let Some(wait) = wait {
        if let Err(e) = give_back(&state, &[&account_key, &address_key]).await {
            return internal(e);
        }
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
            let forgotten = console::clear_failures(state.db(), &account_key).await;
            if let Err(e) = forgotten.and(give_back(&state, &[&address_key]).await) {
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

async fn give_back(state: &AppState, keys: &[&str]) -> Result<(), store::StoreError> {
    for key in keys {
        console::give_back(state.db(), key).await?;
    }
    Ok(())
}

/// "Too many failed log-ins. Try again in 15 minutes."
fn too_many(wait_secs: i64, what: &str) -> String {
    let minutes = (wait_secs + 59) / 60;
    format!(
        "Too many {what}. Try again in {minutes} minute{}.",
        if minutes == 1 { "" } else { "s" }
    )
}

/// The session of a form posted after log-in, with its CSRF token checked.
async fn posted_session(
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

async fn logout(State(state): State<AppState>, headers: HeaderMap, params: Params) -> Response {
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

/// Renders Settings for `session`, with a just-issued token or a message.
async fn settings(
    state: &AppState,
    session: Session,
    new_token: Option<String>,
    notice: Option<String>,
    error: Option<String>,
) -> Response {
    let company = match companies::find(state.db(), session.company.id).await {
        Ok(c) => c,
        Err(e) => return internal(e),
    };
    let has_token = match companies::has_token(state.db(), company.id).await {
        Ok(t) => t,
        Err(e) => return internal(e),
    };
    let used_today = match state.inner().usage.today(state.db(), company.id).await {
        Ok(n) => n,
        Err(e) => return internal(e),
    };
    let remaining = match company.rate_limit {
        RateLimitPolicy::Unlimited => "no limit".to_owned(),
        RateLimitPolicy::Limited {
            requests,
            window_secs: 86_400,
        } => (i64::from(requests) - used_today).max(0).to_string(),
        RateLimitPolicy::Limited { requests, .. } => {
            format!("{requests} in each window (fair use)")
        }
    };
    let template = SettingsPage {
        csrf: session.csrf_token,
        owner_email: session.owner_email,
        company_name: company.name.clone(),
        subdomain: company.subdomain.clone(),
        api_enabled: company.api_enabled,
        has_token: has_token || new_token.is_some(),
        new_token,
        plan: company.plan.as_str().to_owned(),
        limit: crate::auth::describe(company.rate_limit),
        used_today,
        remaining,
        zones: chrono_tz::TZ_VARIANTS
            .iter()
            .map(|z| (z.name(), *z == company.time_zone))
            .collect(),
        notice,
        error,
    };
    page(StatusCode::OK, template, vec![])
}

async fn settings_page(State(state): State<AppState>, headers: HeaderMap) -> Response {
    match current(&state, &headers).await {
        Ok(Some(session)) => settings(&state, session, None, None, None).await,
        Ok(None) => redirect("/login", vec![]),
        Err(r) => r,
    }
}

async fn set_api(State(state): State<AppState>, headers: HeaderMap, params: Params) -> Response {
    let session = match posted_session(&state, &headers, &params).await {
        Ok(s) => s,
        Err(r) => return r,
    };
    let Some(enabled) = params.get("enabled").and_then(domain::wire::parse_bool) else {
        return settings(
            &state,
            session,
            None,
            None,
            Some("Choose whether to enable or disable the API.".into()),
        )
        .await;
    };
    if let Err(e) =
        companies::set_api_enabled(state.db(), &session.company.subdomain, enabled).await
    {
        return internal(e);
    }
    let notice = if enabled {
        "The API is enabled."
    } else {
        "The API is disabled; tokens now get 403."
    };
    settings(&state, session, None, Some(notice.into()), None).await
}

async fn regenerate_token(
    State(state): State<AppState>,
    headers: HeaderMap,
    params: Params,
) -> Response {
    let session = match posted_session(&state, &headers, &params).await {
        Ok(s) => s,
        Err(r) => return r,
    };
    match companies::regenerate_token(state.db(), session.company.id).await {
        Ok(token) => settings(&state, session, Some(token.0), None, None).await,
        Err(e) => internal(e),
    }
}

async fn set_time_zone(
    State(state): State<AppState>,
    headers: HeaderMap,
    params: Params,
) -> Response {
    let session = match posted_session(&state, &headers, &params).await {
        Ok(s) => s,
        Err(r) => return r,
    };
    let Some(tz) = params
        .get("time_zone")
        .and_then(domain::subdomain::parse_time_zone)
    else {
        return settings(
            &state,
            session,
            None,
            None,
            Some("That is not a time zone name (e.g. Europe/Paris).".into()),
        )
        .await;
    };
    if let Err(e) = companies::set_time_zone(state.db(), &session.company.subdomain, tz).await {
        return internal(e);
    }
    settings(
        &state,
        session,
        None,
        Some(format!("Time zone set to {}.", tz.name())),
        None,
    )
    .await
}
