//! Webhooks (a rentrack extension): `/webhooks.api`, `/webhooks/{id}.api`,
//! `rotate_secret`, `test`, `deliveries` and a delivery's `retry`. The worker that
//! sends them is `crate::delivery`.

use axum::extract::State;
use domain::webhook::{Subscription, SubscriptionProblem};
use domain::{Change, PageSize};
use serde::Serialize;
use store::webhooks::{self, Delivery, Webhook, WebhookInput};

use crate::api::{Api, Doc, get, post};
use crate::auth::Tenant;
use crate::delivery::guard;
use crate::error::ApiError;
use crate::ids::{Id, Under, kind};
use crate::input::{Input, PageQuery, Scalar};
use crate::params::Params;
use crate::state::AppState;
use crate::views::{self, Moment, moment};

pub fn routes(api: Api) -> Api {
    api.route(
        "/webhooks",
        post(create).get(list),
        Doc::new("Webhooks", "Create a webhook endpoint (POST; its secret is shown once) or list them, 25 a page (GET)")
            .input::<NewWebhook>()
            .params::<PageQuery>()
            .returns("webhook")
            .returns_page("webhooks")
            .record::<WebhookJson<'_>>(),
    )
    .route(
        "/webhooks/{id}",
        get(details).put_or_patch(update).delete(delete),
        Doc::new("Webhooks", "Webhook endpoint details (GET), update (PUT or PATCH; fields left out are kept; active=true re-enables and resumes undelivered events) or delete (DELETE)")
            .input::<WebhookChanges>()
            .returns("webhook")
            .record::<WebhookJson<'_>>(),
    )
    .route(
        "/webhooks/{id}/rotate_secret",
        post(rotate),
        Doc::new("Webhooks", "A new signing secret, shown in the answer; the old one keeps signing beside it for 24 hours")
            .returns("webhook")
            .record::<WebhookJson<'_>>(),
    )
    .route(
        "/webhooks/{id}/test",
        post(test),
        Doc::new("Webhooks", "Queues a webhook.test event for this endpoint")
            .returns("delivery")
            .record::<DeliveryJson<'_>>(),
    )
    .route(
        "/webhooks/{id}/deliveries",
        get(deliveries),
        Doc::new("Webhooks", "The endpoint's deliveries, newest first, 25 a page")
            .params::<PageQuery>()
            .returns_page("deliveries")
            .record::<DeliveryJson<'_>>(),
    )
    .route(
        "/webhooks/{webhook_id}/deliveries/{id}/retry",
        post(retry),
        Doc::new("Webhooks", "Sends the delivery again now (delivered or not)")
            .returns("delivery")
            .record::<DeliveryJson<'_>>(),
    )
}

/// An endpoint URL: `https://` (or `http://` where the server allows private targets),
/// with a host; at most 2,000 characters.
pub struct WebhookUrl;

/// The longest endpoint URL.
const MAX_URL_CHARS: usize = 2000;

impl Scalar for WebhookUrl {
    type Value = url::Url;

    fn parse(raw: &str) -> Result<url::Url, String> {
        let raw = raw.trim_matches(|c: char| c.is_whitespace() || c.is_control());
        if raw.chars().count() > MAX_URL_CHARS {
            return Err(format!(
                "is too long (maximum is {MAX_URL_CHARS} characters)"
            ));
        }
        let url =
            url::Url::parse(raw).map_err(|_| "is not a URL (https://host/path)".to_owned())?;
        if !matches!(url.scheme(), "https" | "http") {
            return Err("must start with https://".to_owned());
        }
        if url.host().is_none() {
            return Err("has no host".to_owned());
        }
        Ok(url)
    }

    fn schema() -> serde_json::Value {
        // The default server's rule: https. (http:// is taken too where the server runs
        // with --webhook-allow-private.)
        serde_json::json!({
            "type": "string",
            // A name of labels (none an invalid punycode `xn--` one), the last starting with a
            // letter: a last label of digits makes the host an IPv4 address (WHATWG), and
            // a malformed one is no URL.
            "pattern": r"^\s*[hH][tT][tT][pP][sS]://(?:(?![xX][nN]--)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.){0,8}(?![xX][nN]--)[A-Za-z](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?::[0-9]{1,4})?(?:/\S*)?\s*$",
            "maxLength": MAX_URL_CHARS,
            "description": "https://host/path; the host must resolve to public addresses only (unless the server runs with --webhook-allow-private, which takes http:// and private addresses too)",
        })
    }
}

/// The event types an endpoint receives: `*`, or a comma list of event types and
/// `<resource>.*` entries.
pub struct EventList;

impl Scalar for EventList {
    type Value = Subscription;

    fn parse(raw: &str) -> Result<Subscription, String> {
        Subscription::parse(raw).map_err(|problem| match problem {
            SubscriptionProblem::Empty => "can't be blank: send * or a comma list of event types".to_owned(),
            SubscriptionProblem::TooMany => format!(
                "lists more than {} event types; subscribe to * or to <resource>.* instead",
                domain::webhook::MAX_SUBSCRIBED
            ),
            SubscriptionProblem::Unknown(names) => format!(
                "names no event type: {} (docs/api.md lists them; <resource>.* takes all of one resource)",
                names.join(", ")
            ),
        })
    }

    fn schema() -> serde_json::Value {
        let mut words: Vec<String> = domain::webhook::EVENT_TYPES
            .iter()
            .map(|t| regex_syntax::escape(t))
            .collect();
        let mut resources: Vec<&str> = domain::webhook::EVENT_TYPES
            .iter()
            .filter_map(|t| t.split_once('.').map(|(r, _)| r))
            .collect();
        resources.dedup();
        words.extend(resources.iter().map(|r| format!(r"{r}\.\*")));
        words.push(r"\*".to_owned());
        let entry = format!("(?:{})", words.join("|"));
        serde_json::json!({
            "type": "string",
            "pattern": format!(
                r"^\s*{entry}\s*(?:,\s*{entry}\s*){{0,{}}}$",
                domain::webhook::MAX_SUBSCRIBED - 1
            ),
            "description": "* or a comma list of event types (docs/api.md, \"Webhooks\"); <resource>.* takes every event of a resource",
        })
    }
}

/// A new endpoint.
#[derive(Input)]
#[input(resource = "webhook")]
struct NewWebhook {
    /// Where events are POSTed.
    #[input(format = WebhookUrl)]
    url: url::Url,
    /// Which events it receives.
    #[input(format = EventList)]
    events: Subscription,
    description: Change<String>,
}

/// An endpoint's changes; what is left out is kept.
#[derive(Input)]
#[input(resource = "webhook")]
struct WebhookChanges {
    #[input(format = WebhookUrl)]
    url: Option<url::Url>,
    #[input(format = EventList)]
    events: Option<Subscription>,
    description: Change<String>,
    /// false stops deliveries; true enables the endpoint again, and its undelivered
    /// events are sent.
    active: Option<bool>,
}

/// An endpoint as the API shows it; `secret` only in the answer of a create or a
/// rotation.
#[derive(Serialize, utoipa::ToSchema)]
#[schema(as = Webhook)]
pub struct WebhookJson<'a> {
    id: i64,
    url: &'a str,
    /// `*` or the event types and `<resource>.*` entries subscribed to.
    events: Vec<&'a str>,
    description: &'a Option<String>,
    active: bool,
    /// Why the server stopped delivering by itself (410 Gone, five days of failures).
    disabled_reason: &'a Option<String>,
    /// The first failure since the last delivery, while deliveries fail.
    failing_since: Option<Moment>,
    /// The signing secret, `whsec_` and base64: shown on create and rotation only.
    #[serde(skip_serializing_if = "Option::is_none")]
    secret: Option<&'a str>,
    created_at: Moment,
    updated_at: Moment,
}

fn render(w: &Webhook, tz: chrono_tz::Tz, with_secret: bool) -> WebhookJson<'_> {
    WebhookJson {
        id: w.id,
        url: &w.url,
        events: w.events.split(',').collect(),
        description: &w.description,
        active: w.active,
        disabled_reason: &w.disabled_reason,
        failing_since: w.failing_since.map(|t| moment(t, tz)),
        secret: with_secret.then_some(w.secret.as_str()),
        created_at: moment(w.created_at, tz),
        updated_at: moment(w.updated_at, tz),
    }
}

/// A delivery as the delivery log shows it.
#[derive(Serialize, utoipa::ToSchema)]
#[schema(as = WebhookDelivery)]
pub struct DeliveryJson<'a> {
    id: i64,
    /// The event's `webhook-id`, the same on every attempt.
    event_id: &'a str,
    #[serde(rename = "type")]
    event_type: &'a str,
    attempts: i64,
    /// The HTTP status of the last attempt, if it got an answer.
    last_status: Option<i64>,
    last_error: &'a Option<String>,
    /// When the next attempt is due; null once delivered or given up.
    next_attempt_at: Option<Moment>,
    delivered_at: Option<Moment>,
    created_at: Moment,
}

fn render_delivery(d: &Delivery, tz: chrono_tz::Tz) -> DeliveryJson<'_> {
    DeliveryJson {
        id: d.id,
        event_id: &d.message_id,
        event_type: &d.event_type,
        attempts: d.attempts,
        last_status: d.last_status,
        last_error: &d.last_error,
        next_attempt_at: d.next_attempt_at.map(|t| moment(t, tz)),
        delivered_at: d.delivered_at.map(|t| moment(t, tz)),
        created_at: moment(d.created_at, tz),
    }
}

/// The URL, refused (422 on `url`) when the server does not send to it.
async fn allowed(state: &AppState, url: url::Url) -> Result<String, ApiError> {
    let policy = state.inner().config.webhooks.policy();
    guard::check_url(&url, policy)
        .await
        .map_err(|problem| ApiError::field("url", problem))?;
    Ok(url.to_string())
}

async fn create(
    State(state): State<AppState>,
    Tenant(company): Tenant,
    params: Params,
) -> Result<views::Reply, ApiError> {
    let NewWebhook {
        url,
        events,
        description,
    } = NewWebhook::parse(&params)?;
    let input = WebhookInput {
        url: Some(allowed(&state, url).await?),
        events: Some(events),
        description,
        active: None,
    };
    let webhook = webhooks::create(state.db(), company.id, input).await?;
    Ok(views::one(
        "webhook",
        render(&webhook, company.time_zone, true),
    ))
}

async fn list(
    State(state): State<AppState>,
    Tenant(company): Tenant,
    params: Params,
) -> Result<views::Reply, ApiError> {
    let page = PageQuery::parse(&params)?.page(PageSize::DEFAULT);
    let records = webhooks::list(state.db(), company.id, page).await?;
    Ok(views::paged("webhooks", page, &records, |w| {
        render(w, company.time_zone, false)
    }))
}

async fn details(
    State(state): State<AppState>,
    Tenant(company): Tenant,
    Id(id): Id<kind::Webhook>,
) -> Result<views::Reply, ApiError> {
    let webhook = webhooks::find(state.db(), company.id, id).await?;
    Ok(views::one(
        "webhook",
        render(&webhook, company.time_zone, false),
    ))
}

async fn update(
    State(state): State<AppState>,
    Tenant(company): Tenant,
    Id(id): Id<kind::Webhook>,
    params: Params,
) -> Result<views::Reply, ApiError> {
    let WebhookChanges {
        url,
        events,
        description,
        active,
    } = WebhookChanges::parse(&params)?;
    let url = match url {
        Some(url) => Some(allowed(&state, url).await?),
        None => None,
    };
    let input = WebhookInput {
        url,
        events,
        description,
        active,
    };
    let webhook = webhooks::update(state.db(), company.id, id, input).await?;
    Ok(views::one(
        "webhook",
        render(&webhook, company.time_zone, false),
    ))
}

async fn delete(
    State(state): State<AppState>,
    Tenant(company): Tenant,
    Id(id): Id<kind::Webhook>,
) -> Result<views::Reply, ApiError> {
    let webhook = webhooks::delete(state.db(), company.id, id).await?;
    Ok(views::one(
        "webhook",
        render(&webhook, company.time_zone, false),
    ))
}

async fn rotate(
    State(state): State<AppState>,
    Tenant(company): Tenant,
    Id(id): Id<kind::Webhook>,
) -> Result<views::Reply, ApiError> {
    let webhook = webhooks::rotate_secret(state.db(), company.id, id).await?;
    Ok(views::one(
        "webhook",
        render(&webhook, company.time_zone, true),
    ))
}

async fn test(
    State(state): State<AppState>,
    Tenant(company): Tenant,
    Id(id): Id<kind::Webhook>,
) -> Result<views::Reply, ApiError> {
    let delivery = webhooks::send_test(state.db(), company.id, id).await?;
    Ok(views::one(
        "delivery",
        render_delivery(&delivery, company.time_zone),
    ))
}

async fn deliveries(
    State(state): State<AppState>,
    Tenant(company): Tenant,
    Id(id): Id<kind::Webhook>,
    params: Params,
) -> Result<views::Reply, ApiError> {
    let page = PageQuery::parse(&params)?.page(PageSize::DEFAULT);
    let records = webhooks::deliveries(state.db(), company.id, id, page).await?;
    Ok(views::paged("deliveries", page, &records, |d| {
        render_delivery(d, company.time_zone)
    }))
}

async fn retry(
    State(state): State<AppState>,
    Tenant(company): Tenant,
    Under(webhook): Under<kind::Webhook>,
    Id(id): Id<kind::WebhookDelivery>,
) -> Result<views::Reply, ApiError> {
    let delivery = webhooks::retry(state.db(), company.id, webhook, id).await?;
    Ok(views::one(
        "delivery",
        render_delivery(&delivery, company.time_zone),
    ))
}
