//! The webhook delivery worker, one per instance, apart from request handling: it
//! takes an endpoint with due deliveries (`store::webhooks::claim`, which several
//! instances share), renders each event's body once, signs it as Standard Webhooks
//! says and POSTs it, then writes the outcome. It wakes when this instance commits an
//! event and polls every second for the others'. At most `in_flight` endpoints are
//! sent to at once; each endpoint's events go one at a time, oldest first.

pub mod guard;

use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::Router;
use axum::body::Body;
use axum::extract::State;
use axum::http::{Request, StatusCode};
use axum::middleware::Next;
use axum::response::Response;
use chrono::{DateTime, SecondsFormat, Utc};
use http_body_util::BodyExt as _;
use serde_json::{Value, json};
use store::webhooks::{self, Claim, Due, Event, Outcome, Webhook};
use tokio::sync::Semaphore;
use tower::ServiceExt as _;

use crate::auth::Tenant;
use crate::state::AppState;

/// What the delivery worker is allowed and how hard it works.
#[derive(Debug, Clone)]
pub struct Settings {
    /// Send to loopback and private addresses too, and over plain http.
    pub allow_private: bool,
    /// Endpoints this instance sends to at once.
    pub in_flight: usize,
    /// How long an attempt may take, connection to last byte.
    pub timeout: Duration,
    /// Delivered events older than this are deleted; undelivered ones are kept.
    pub retention: Duration,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            allow_private: false,
            in_flight: 16,
            timeout: Duration::from_secs(10),
            retention: Duration::from_secs(30 * 86_400),
        }
    }
}

impl Settings {
    pub fn policy(&self) -> guard::Policy {
        if self.allow_private {
            guard::Policy::AllowPrivate
        } else {
            guard::Policy::PublicOnly
        }
    }
}

/// The `user-agent` of every delivery.
pub const USER_AGENT: &str = concat!("rentrack-webhooks/", env!("CARGO_PKG_VERSION"));

/// At most this much of a receiver's answer is read.
const MAX_ANSWER_BYTES: usize = 64 * 1024;

/// How long an instance holds an endpoint it took; it starts no attempt after half of
/// it, so an attempt (at most `timeout`) ends within it.
const LEASE: Duration = Duration::from_secs(30);

/// Deliveries taken with an endpoint at once.
const BATCH: u64 = 20;

/// How often the worker looks for events other instances wrote, or that came due.
const POLL: Duration = Duration::from_secs(1);

/// An event without a body is left this long to the request that wrote it (which
/// renders it as its change left the record); past it (the server died in between, or
/// no request wrote it) the worker renders it.
const RENDER_GRACE: chrono::Duration = chrono::Duration::seconds(5);

/// How often delivered events past the retention are deleted, and how many at a time.
const PRUNE_EVERY: Duration = Duration::from_secs(3600);
const PRUNE_BATCH: u64 = 1000;

struct Worker {
    state: AppState,
    renderer: Renderer,
    client: reqwest::Client,
    settings: Settings,
}

/// Renders events' bodies: `{"type", "timestamp", "data"}`, `data` the record as a GET
/// of it answers (for a deleted record, its id and what its history kept).
pub struct Renderer {
    state: AppState,
    /// The API's routes without authentication (the request carries its company),
    /// made at the first render.
    api: std::sync::OnceLock<Router>,
}

impl Renderer {
    pub fn new(state: AppState) -> Renderer {
        Renderer {
            state,
            api: std::sync::OnceLock::new(),
        }
    }

    fn api(&self) -> Router {
        self.api
            .get_or_init(|| {
                let (routes, _) = crate::api();
                Router::new().fallback_service(
                    routes
                        .with_state(self.state.clone())
                        .map_request(crate::routing::rewrite),
                )
            })
            .clone()
    }

    pub async fn body(&self, tenant: &Tenant, event: &Event) -> String {
        let data = match record_path(event) {
            Some(path) if !event.event_type.ends_with(".deleted") => self.get(tenant, &path).await,
            _ => None,
        };
        let data = data.unwrap_or_else(|| remains(event));
        json!({
            "type": event.event_type,
            "timestamp": rfc3339(event.created_at),
            "data": data,
        })
        .to_string()
    }

    /// The record a GET of `path` answers (`{"asset": {...}}` gives the asset).
    async fn get(&self, tenant: &Tenant, path: &str) -> Option<Value> {
        let mut request = Request::get(path).body(Body::empty()).ok()?;
        request.extensions_mut().insert(tenant.clone());
        let response = self.api().oneshot(request).await.ok()?;
        if response.status() != StatusCode::OK {
            return None;
        }
        let bytes = response.into_body().collect().await.ok()?.to_bytes();
        match serde_json::from_slice(&bytes).ok()? {
            Value::Object(one) if one.len() == 1 => one.into_iter().next().map(|(_, v)| v),
            _ => None,
        }
    }
}

/// Renders the bodies of the events an API request wrote once its handler is done, so
/// `data` is each record as that change left it (the client's next request has not
/// been sent), then wakes the worker. An event left without a body here (a crash in
/// between) is rendered by the worker before its first attempt.
pub async fn render_written(
    State((state, renderer)): State<(AppState, Arc<Renderer>)>,
    req: Request<Body>,
    next: Next,
) -> Response {
    let tenant = req.extensions().get::<Tenant>().cloned();
    let (response, written) = store::outbox::collect(next.run(req)).await;
    if written.is_empty() {
        return response;
    }
    let db = state.db();
    for w in &written {
        let Some(tenant) = tenant.as_ref().filter(|t| t.0.id == w.company) else {
            continue;
        };
        match webhooks::event(db, w.company, w.event).await {
            Ok(Some(event)) if event.body.is_none() => {
                let body = renderer.body(tenant, &event).await;
                if let Err(e) = webhooks::keep_body(db, w.company, event.id, body).await {
                    tracing::warn!(error = %e, "webhooks: could not keep an event's body");
                }
            }
            Ok(_) => {}
            Err(e) => tracing::warn!(error = %e, "webhooks: could not read an event"),
        }
    }
    db.outbox_signal().notify_one();
    response
}

/// Starts this instance's delivery worker.
pub fn spawn(state: AppState) -> tokio::task::JoinHandle<()> {
    let settings = state.inner().config.webhooks.clone();
    // Plain http and https with rustls on ring, the provider the server's TLS uses.
    let _ = rustls::crypto::ring::default_provider().install_default();
    let client = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .timeout(settings.timeout)
        .no_proxy()
        .user_agent(USER_AGENT)
        .dns_resolver(Arc::new(guard::Resolver(settings.policy())))
        .build()
        .expect("the delivery client builds");
    let worker = Arc::new(Worker {
        renderer: Renderer::new(state.clone()),
        state,
        client,
        settings,
    });
    tokio::spawn(worker.run())
}

impl Worker {
    async fn run(self: Arc<Self>) {
        let db = self.state.db().clone();
        let signal = db.outbox_signal();
        let slots = Arc::new(Semaphore::new(self.settings.in_flight.max(1)));
        let mut pruned = Instant::now().checked_sub(PRUNE_EVERY);
        loop {
            if pruned.is_none_or(|at| at.elapsed() >= PRUNE_EVERY) {
                pruned = Some(Instant::now());
                self.prune().await;
            }
            let Ok(slot) = slots.clone().acquire_owned().await else {
                return;
            };
            match webhooks::claim(&db, LEASE, BATCH).await {
                Ok(Some(claim)) => {
                    tracing::debug!(
                        webhook = claim.webhook.id,
                        due = claim.due.len(),
                        "webhooks: took an endpoint"
                    );
                    let worker = self.clone();
                    let signal = signal.clone();
                    tokio::spawn(async move {
                        let more = worker.deliver(claim).await;
                        drop(slot);
                        if more {
                            // The endpoint may have more due: look again at once.
                            signal.notify_one();
                        }
                    });
                }
                Ok(None) => {
                    drop(slot);
                    tokio::select! {
                        () = signal.notified() => {}
                        () = tokio::time::sleep(POLL) => {}
                    }
                }
                Err(e) => {
                    drop(slot);
                    tracing::warn!(error = %e, "webhooks: could not take due deliveries");
                    tokio::time::sleep(POLL).await;
                }
            }
        }
    }

    async fn prune(&self) {
        let retention = chrono::Duration::from_std(self.settings.retention).unwrap_or_default();
        match webhooks::prune(self.state.db(), store::now() - retention, PRUNE_BATCH).await {
            Ok(0) => {}
            Ok(events) => tracing::info!(events, "webhooks: pruned delivered events"),
            Err(e) => tracing::warn!(error = %e, "webhooks: could not prune delivered events"),
        }
    }

    /// Sends the claim's due deliveries in order, then lets the endpoint go.
    /// Answers whether the endpoint may have more due now (false when it stopped at
    /// an event whose request is still rendering it: that request wakes the worker).
    async fn deliver(&self, claim: Claim) -> bool {
        let db = self.state.db();
        let Claim {
            company,
            mut webhook,
            due,
            until,
        } = claim;
        let mut unsent: Vec<i64> = due.iter().map(|d| d.id).collect();
        let tenant = match store::companies::find(db, company).await {
            Ok(c) => Tenant(c),
            Err(e) => {
                tracing::warn!(error = %e, "webhooks: could not read the company");
                let _ = webhooks::release(db, company, webhook.id, until, &unsent).await;
                return false;
            }
        };
        let started = Instant::now();
        let mut more = true;
        for delivery in due {
            if started.elapsed() >= LEASE / 2 {
                break;
            }
            let young = store::now() - delivery.event.created_at < RENDER_GRACE;
            let body = match delivery.event.body.clone() {
                Some(body) => body,
                // Its request renders it as that change left the record; later events of
                // the endpoint wait, to keep their order.
                None if young => {
                    tracing::debug!(event = delivery.event.id, "webhooks: left to its request");
                    more = false;
                    break;
                }
                None => {
                    let body = self.renderer.body(&tenant, &delivery.event).await;
                    match webhooks::keep_body(db, company, delivery.event.id, body).await {
                        Ok(Some(kept)) => kept,
                        Ok(None) => {
                            unsent.retain(|id| *id != delivery.id);
                            continue;
                        }
                        Err(e) => {
                            tracing::warn!(error = %e, "webhooks: could not keep an event's body");
                            break;
                        }
                    }
                }
            };
            let outcome = self.send(&webhook, &delivery, &body).await;
            tracing::debug!(
                event = delivery.event.id,
                webhook = webhook.id,
                ?outcome,
                "webhooks: attempted"
            );
            let gone = matches!(outcome, Outcome::Gone);
            let delivered = matches!(outcome, Outcome::Delivered { .. });
            let recorded = webhooks::attempted(db, company, &webhook, (&delivery, until), outcome);
            if let Err(e) = recorded.await {
                tracing::warn!(error = %e, "webhooks: could not record an attempt");
                break;
            }
            unsent.retain(|id| *id != delivery.id);
            if delivered {
                webhook.failing_since = None;
            } else {
                webhook.failing_since.get_or_insert_with(store::now);
            }
            if gone {
                break;
            }
        }
        if let Err(e) = webhooks::release(db, company, webhook.id, until, &unsent).await {
            tracing::warn!(error = %e, "webhooks: could not release an endpoint");
        }
        more
    }

    async fn send(&self, webhook: &Webhook, due: &Due, body: &str) -> Outcome {
        let failed = |status: Option<u16>, error: String| Outcome::Failed {
            status,
            error,
            retry_after: None,
        };
        let Ok(url) = url::Url::parse(&webhook.url) else {
            return failed(None, "the endpoint's URL does not parse".to_owned());
        };
        if let Some(problem) = guard::literal_refused(&url, self.settings.policy()) {
            return failed(None, problem);
        }
        let at = store::now();
        let signatures: Vec<String> = webhook
            .signing_secrets(at)
            .into_iter()
            .filter_map(domain::webhook::secret_key)
            .map(|key| domain::webhook::sign(&key, &due.event.message_id, at.timestamp(), body))
            .collect();
        let sent = self
            .client
            .post(url)
            .header("webhook-id", &due.event.message_id)
            .header("webhook-timestamp", at.timestamp().to_string())
            .header("webhook-signature", signatures.join(" "))
            .header("content-type", "application/json")
            .body(body.to_owned())
            .send()
            .await;
        let mut response = match sent {
            Ok(r) => r,
            Err(e) => return failed(None, describe(&e, self.settings.timeout)),
        };
        let status = response.status();
        let retry_after = if matches!(status.as_u16(), 429 | 503) {
            response
                .headers()
                .get("retry-after")
                .and_then(|v| v.to_str().ok())
                .and_then(|v| v.trim().parse::<u64>().ok())
                .map(Duration::from_secs)
        } else {
            None
        };
        let answer = read_capped(&mut response).await;
        if status.is_success() {
            Outcome::Delivered {
                status: status.as_u16(),
            }
        } else if status == StatusCode::GONE {
            Outcome::Gone
        } else {
            let excerpt: String = String::from_utf8_lossy(&answer).chars().take(200).collect();
            Outcome::Failed {
                status: Some(status.as_u16()),
                error: format!("answered {status}: {}", excerpt.trim()),
                retry_after,
            }
        }
    }
}

/// Up to [`MAX_ANSWER_BYTES`] of the answer; the rest is not read.
async fn read_capped(response: &mut reqwest::Response) -> Vec<u8> {
    let mut answer = Vec::new();
    while answer.len() < MAX_ANSWER_BYTES {
        match response.chunk().await {
            Ok(Some(chunk)) => answer.extend_from_slice(&chunk),
            _ => break,
        }
    }
    answer.truncate(MAX_ANSWER_BYTES);
    answer
}

/// A failed attempt in words, without the URL (which may carry credentials).
fn describe(e: &reqwest::Error, timeout: Duration) -> String {
    if e.is_timeout() {
        return format!("no answer within {} s", timeout.as_secs());
    }
    let mut words = vec![if e.is_connect() {
        "could not connect".to_owned()
    } else {
        "the request failed".to_owned()
    }];
    let mut source = std::error::Error::source(e);
    while let Some(s) = source {
        words.push(s.to_string());
        source = s.source();
    }
    words.dedup();
    words.join(": ")
}

fn rfc3339(at: DateTime<Utc>) -> String {
    at.to_rfc3339_opts(SecondsFormat::Millis, true)
}

/// The path whose GET answers the event's record.
fn record_path(due: &Event) -> Option<String> {
    let id = due.subject_id;
    Some(match due.subject_type.as_str() {
        "item" => {
            let n = due.subject_number?;
            match due.asset_type.as_deref()? {
                "FixedAsset" => format!("/assets/{n}.api"),
                "StockAsset" => format!("/stock_assets/{n}.api"),
                _ => format!("/inventory/{n}.api"),
            }
        }
        "order" => format!("/baskets/{}.api", due.subject_number?),
        "member" => format!("/members/{id}.api"),
        "customer" => format!("/customers/{id}.api"),
        "contact" => format!("/contacts/{id}.api"),
        "business" => format!("/businesses/{id}.api"),
        "location" => format!("/locations/{id}.api"),
        "vendor" => format!("/vendors/{id}.api"),
        "group" => format!("/groups/{id}.api"),
        "webhook" => format!("/webhooks/{id}.api"),
        _ => return None,
    })
}

/// What is left of a record no GET answers any more: its id, its number, and what its
/// history kept.
fn remains(due: &Event) -> Value {
    let mut data = match serde_json::from_str(&due.details) {
        Ok(Value::Object(map)) => map,
        _ => serde_json::Map::new(),
    };
    data.insert("id".to_owned(), json!(due.subject_id));
    if let Some(n) = due.subject_number {
        data.insert("sequence_num".to_owned(), json!(n));
    }
    Value::Object(data)
}
