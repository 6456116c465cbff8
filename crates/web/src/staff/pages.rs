//! The staff pages' templates, and the shells of the pages the script fills in.

use askama::Template;
use axum::extract::{Path, State};
use axum::http::header::ACCEPT;
use axum::http::{HeaderMap, StatusCode, Uri};
use axum::response::Response;
use domain::member::Role;
use store::staff::{Invited, Session};

use super::roles;
use super::session::current;
use crate::html::redirect;
use crate::params::Params;
use crate::state::AppState;

/// The staff pages: their own script and styles, the camera's decoder (WebAssembly),
/// calls to this site only; item images may come from any HTTPS address (an item's
/// `image_url` is the company's own).
const CSP: &str = "default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' data: blob: https:; media-src 'self' blob:; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

pub(super) fn page(status: StatusCode, template: impl Template, cookies: Vec<String>) -> Response {
    crate::html::page(status, template, cookies, CSP)
}

#[derive(Template)]
#[template(path = "staff/login.html")]
pub(super) struct LoginPage {
    pub(super) csrf: String,
    pub(super) error: Option<String>,
    pub(super) notice: Option<String>,
    pub(super) company: String,
    pub(super) email: String,
    pub(super) next: String,
}

#[derive(Template)]
#[template(path = "staff/invitation.html")]
pub(super) struct InvitationPage {
    pub(super) csrf: String,
    pub(super) error: Option<String>,
    pub(super) invited: Option<Invited>,
    pub(super) min_password: usize,
}

/// The pages the script fills in.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Page {
    Find,
    Scan,
    Due,
    Today,
    Item,
}

impl Page {
    fn name(self) -> &'static str {
        match self {
            Page::Find => "find",
            Page::Scan => "scan",
            Page::Due => "due",
            Page::Today => "today",
            Page::Item => "item",
        }
    }

    fn title(self) -> &'static str {
        match self {
            Page::Find => "Find",
            Page::Scan => "Scan",
            Page::Due => "Overdue and due today",
            Page::Today => "Today's orders",
            Page::Item => "Item",
        }
    }
}

#[derive(Template)]
#[template(path = "staff/app.html")]
struct AppPage {
    page: &'static str,
    title: &'static str,
    csrf: String,
    member: String,
    role: &'static str,
    company: String,
    company_id: i64,
    /// The company's date and moment now, in its time zone (what "today" and
    /// "overdue" mean), as the API writes them.
    today: String,
    now: String,
    /// The item's number, on an item page.
    item: i64,
    /// A label of another company was scanned.
    elsewhere: bool,
    /// The actions the member's role allows, as the script reads them.
    may_administer: bool,
}

fn app(page_of: Page, session: Session, item: i64, elsewhere: bool) -> Response {
    let status = if elsewhere {
        StatusCode::NOT_FOUND
    } else {
        StatusCode::OK
    };
    let here = chrono::Utc::now().with_timezone(&session.company.time_zone);
    page(
        status,
        AppPage {
            page: page_of.name(),
            title: page_of.title(),
            csrf: session.csrf_token,
            member: if session.name.is_empty() {
                session.email
            } else {
                session.name
            },
            role: match session.role {
                Role::Administrator => "administrator",
                Role::Staff => "staff",
                Role::Custom(_) => "custom role",
            },
            company_id: session.company.id.get(),
            today: here.format("%Y-%m-%d").to_string(),
            now: here.format("%Y-%m-%d %H:%M:%S").to_string(),
            company: session.company.name,
            item,
            elsewhere,
            may_administer: roles::administers(session.role),
        },
        vec![],
    )
}

/// The page for a signed-in member, else the log-in that comes back to it.
async fn shell(page_of: Page, state: &AppState, headers: &HeaderMap, uri: &Uri) -> Response {
    match current(state, headers).await {
        Ok(Some(session)) => app(page_of, session, 0, false),
        Ok(None) => to_login(uri),
        Err(r) => r,
    }
}

fn to_login(uri: &Uri) -> Response {
    let here = uri.path_and_query().map_or("/staff/find", |p| p.as_str());
    let next: String = form_urlencoded::byte_serialize(here.as_bytes()).collect();
    redirect(&format!("/staff/login?next={next}"), vec![])
}

pub(super) async fn home(State(state): State<AppState>, headers: HeaderMap) -> Response {
    match current(&state, &headers).await {
        Ok(Some(_)) => redirect("/staff/find", vec![]),
        Ok(None) => redirect("/staff/login", vec![]),
        Err(r) => r,
    }
}

pub(super) async fn find(State(s): State<AppState>, h: HeaderMap, uri: Uri) -> Response {
    shell(Page::Find, &s, &h, &uri).await
}

pub(super) async fn scan(State(s): State<AppState>, h: HeaderMap, uri: Uri) -> Response {
    shell(Page::Scan, &s, &h, &uri).await
}

pub(super) async fn due(State(s): State<AppState>, h: HeaderMap, uri: Uri) -> Response {
    shell(Page::Due, &s, &h, &uri).await
}

pub(super) async fn today(State(s): State<AppState>, h: HeaderMap, uri: Uri) -> Response {
    shell(Page::Today, &s, &h, &uri).await
}

/// `/staff/items/<n>`, where a label's link leads (`?company=<id>` names the label's
/// company: a member of another company is told so, and sees nothing of it).
pub(super) async fn item(
    State(state): State<AppState>,
    headers: HeaderMap,
    uri: Uri,
    Path(number): Path<String>,
    params: Params,
) -> Response {
    let session = match current(&state, &headers).await {
        Ok(Some(s)) => s,
        Ok(None) => return to_login(&uri),
        Err(r) => return r,
    };
    let Some(number) = number.parse::<i64>().ok().filter(|n| *n > 0) else {
        return app(Page::Item, session, 0, false);
    };
    let elsewhere = params
        .get("company")
        .is_some_and(|c| c != session.company.id.get().to_string());
    // Nothing of another company's label reaches the page, not even its number.
    let shown = if elsewhere { 0 } else { number };
    app(Page::Item, session, shown, elsewhere)
}

/// Whether a request is a browser's asking for a page (its Accept names HTML), not a
/// program's asking for JSON.
pub(crate) fn wants_page(headers: &HeaderMap) -> bool {
    headers
        .get_all(ACCEPT)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .any(|range| {
            let mut parts = range.split(';').map(str::trim);
            let html = parts
                .next()
                .is_some_and(|t| t.eq_ignore_ascii_case("text/html"));
            let weight = parts
                .filter_map(|p| p.strip_prefix("q="))
                .find_map(|q| q.parse::<f32>().ok())
                .unwrap_or(1.0);
            html && weight > 0.0
        })
}

#[cfg(test)]
mod tests {
    use super::wants_page;
    use axum::http::{HeaderMap, HeaderValue};

    #[test]
    fn a_browser_wants_a_page_and_a_program_json() {
        let accepts = |value: &'static str| {
            let mut h = HeaderMap::new();
            h.insert("accept", HeaderValue::from_static(value));
            wants_page(&h)
        };
        assert!(accepts(
            "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"
        ));
        assert!(accepts("application/json, text/html; q=0.5"));
        assert!(!accepts("application/json"));
        assert!(!accepts("*/*"));
        assert!(!accepts("text/html;q=0, application/json"));
        assert!(!wants_page(&HeaderMap::new()));
    }
}
