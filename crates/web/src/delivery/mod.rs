//! The webhook delivery worker, one per instance, apart from request handling: it
//! takes an endpoint with due deliveries (`store::webhooks::claim`, which several
//! instances share), renders each event's body once, signs it as Standard Webhooks
//! says and POSTs it, then writes the outcomes of the claim in one transaction. It
//! wakes when this instance commits an event and polls every second for the others'.
//! At most `in_flight` endpoints are sent to at once; to each, one record's events go
//! one at a time, oldest first, and up to `LANES` records' at once.

pub mod guard;

use std::sync::Arc;
use std::sync::atomic::Ordering;
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
use store::webhooks::{self, Attempt, Claim, Due, Event, Outcome, Webhook};
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
const BATCH: u64 = 100;

/// Records whose events go to one endpoint at once; each record's go one at a time.
const LANES: usize = 8;

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

    /// The body of `event`; `got` keeps the records read for the bodies before it.
    pub async fn body(&self, tenant: &Tenant, event: &Event, got: &mut Records) -> String {
        let data = match source(event) {
            Some(source) if !event.event_type.ends_with(".deleted") => {
                let record = match got.get(&source.path) {
                    Some(record) => record.clone(),
                    None => {
                        let record = self.get(tenant, &source.path).await;
                        got.insert(source.path, record.clone());
                        record
                    }
                };
                match source.entry {
                    Some((list, id)) => record.and_then(|r| entry_of(r, list, id)),
                    None => record,
                }
            }
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

/// The deliveries of a claim in lanes, one per record (the subject of their events),
/// each in the claim's order (oldest event first).
fn lanes(ready: Vec<(Due, String)>) -> Vec<Vec<(Due, String)>> {
    let mut lanes: Vec<Vec<(Due, String)>> = Vec::new();
    let mut lane_of: std::collections::HashMap<(String, i64), usize> = Default::default();
    for (delivery, body) in ready {
        let record = (
            delivery.event.subject_type.clone(),
            delivery.event.subject_id,
        );
        let lane = *lane_of.entry(record).or_insert_with(|| {
            lanes.push(Vec::new());
            lanes.len() - 1
        });
        lanes[lane].push((delivery, body));
    }
    lanes
}

/// Records read for events' bodies, by the path of their GET (`None`: no record).
pub type Records = std::collections::HashMap<String, Option<Value>>;

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
    if let Some(mut tenant) = tenant {
        let company = tenant.0.id;
        let ids: Vec<i64> = written
            .iter()
            .filter(|w| w.company == company)
            .map(|w| w.event)
            .collect();
        match webhooks::events(db, company, &ids).await {
            Ok(events) => {
                // The request changed its company's settings (its time zone, say): the
                // bodies show the company as it is now.
                if events.iter().any(|e| e.subject_type == "company") {
                    match store::companies::find(db, company).await {
                        Ok(now) => tenant = Tenant(now),
                        Err(e) => {
                            tracing::warn!(error = %e, "webhooks: could not read the company")
                        }
                    }
                }
                // Two events about one record (a retirement's `reservation.removed` and
                // `asset.retired`) are rendered from one GET.
                let mut got = Records::default();
                let mut bodies = Vec::with_capacity(events.len());
                for event in events.iter().filter(|e| e.body.is_none()) {
                    bodies.push((event.id, renderer.body(&tenant, event, &mut got).await));
                }
                if let Err(e) = webhooks::keep_bodies(db, company, bodies).await {
                    tracing::warn!(error = %e, "webhooks: could not keep events' bodies");
                }
            }
            Err(e) => tracing::warn!(error = %e, "webhooks: could not read events"),
        }
    }
    db.outbox_signal().notify_one();
    response
}

/// Starts this instance's delivery worker. It takes no new work once the server is
/// stopping, and a shutdown waits for the deliveries under way (`AppState::drain`), so
/// none is cut off between the receiver's answer and its record. Refused when its
/// client cannot be made: without the system's CA certificates it could verify no
/// endpoint.
pub fn spawn(state: AppState) -> Result<tokio::task::JoinHandle<()>, String> {
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
        .map_err(|e| {
            let cause = std::error::Error::source(&e).map_or(e.to_string(), |c| c.to_string());
            format!(
                "cannot make the webhook client ({cause}): install the system's CA certificates (Debian: ca-certificates)"
            )
        })?;
    let worker = Arc::new(Worker {
        renderer: Renderer::new(state.clone()),
        state,
        client,
        settings,
    });
    let state = worker.state.clone();
    Ok(state.spawn(worker.run()))
}

impl Worker {
    async fn run(self: Arc<Self>) {
        let db = self.state.db().clone();
        let signal = db.outbox_signal();
        let stopping = self.state.stopping().clone();
        let slots = Arc::new(Semaphore::new(self.settings.in_flight.max(1)));
        let mut pruned = Instant::now().checked_sub(PRUNE_EVERY);
        loop {
            if pruned.is_none_or(|at| at.elapsed() >= PRUNE_EVERY) {
                pruned = Some(Instant::now());
                self.prune().await;
            }
            let slot = tokio::select! {
                slot = slots.clone().acquire_owned() => match slot {
                    Ok(slot) => slot,
                    Err(_) => return,
                },
                () = stopping.cancelled() => return,
            };
            if stopping.is_cancelled() {
                return;
            }
            match webhooks::claim(&db, LEASE, BATCH).await {
                Ok(Some(claim)) => {
                    let worker = self.clone();
                    let signal = signal.clone();
                    self.state.spawn(async move {
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
                        () = stopping.cancelled() => return,
                    }
                }
                Err(e) => {
                    drop(slot);
                    tracing::warn!(error = %e, "webhooks: could not take due deliveries");
                    tokio::select! {
                        () = tokio::time::sleep(POLL) => {}
                        () = stopping.cancelled() => return,
                    }
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

    /// Sends the claim's due deliveries, one record's in order and different records'
    /// at once (up to [`LANES`]), then writes their outcomes and lets the endpoint go.
    /// Answers whether the endpoint may have more due now (false when it stopped at
    /// an event whose request is still rendering it: that request wakes the worker).
    async fn deliver(&self, claim: Claim) -> bool {
        let db = self.state.db();
        let Claim {
            company,
            webhook,
            due,
            until,
            taken,
        } = claim;
        let mut unsent: Vec<i64> = due.iter().map(|d| d.id).collect();
        let mut attempts = Vec::with_capacity(due.len());
        let mut more = true;
        match store::companies::find(db, company).await {
            Ok(company) => {
                let tenant = Tenant(company);
                let mut got = Records::default();
                let mut ready = Vec::with_capacity(due.len());
                for delivery in due {
                    match self.body_of(&tenant, &delivery, &mut got).await {
                        Some(Some(body)) => ready.push((delivery, body)),
                        // Its event is gone.
                        Some(None) => unsent.retain(|id| *id != delivery.id),
                        None => {
                            more = false;
                            break;
                        }
                    }
                }
                attempts = self.send_lanes(&webhook, lanes(ready)).await;
                unsent.retain(|id| attempts.iter().all(|a| a.delivery != *id));
            }
            Err(e) => {
                tracing::warn!(error = %e, "webhooks: could not read the company");
                more = false;
            }
        }
        tracing::debug!(
            webhook = webhook.id,
            attempts = attempts.len(),
            unsent = unsent.len(),
            "webhooks: attempted"
        );
        let finished = webhooks::finish(db, company, &webhook, (until, taken), &attempts, &unsent);
        if let Err(e) = finished.await {
            tracing::warn!(error = %e, "webhooks: could not record attempts");
        }
        more
    }

    /// Sends each lane's deliveries one after another, up to [`LANES`] lanes at once;
    /// none starts after half the lease, nor after the receiver answered 410 Gone, nor
    /// once the server is stopping (a shutdown waits only for those under way).
    /// Answers the attempts made, in the order they ended.
    async fn send_lanes(&self, webhook: &Webhook, lanes: Vec<Vec<(Due, String)>>) -> Vec<Attempt> {
        use futures_util::StreamExt as _;
        let started = Instant::now();
        let stopping = self.state.stopping();
        let gone = std::sync::atomic::AtomicBool::new(false);
        let gone = &gone;
        let mut attempts: Vec<Attempt> = futures_util::stream::iter(lanes)
            .map(|lane| async move {
                let mut made = Vec::with_capacity(lane.len());
                for (delivery, body) in lane {
                    if started.elapsed() >= LEASE / 2
                        || gone.load(Ordering::Relaxed)
                        || stopping.is_cancelled()
                    {
                        break;
                    }
                    let outcome = self.send(webhook, &delivery, &body).await;
                    if matches!(outcome, Outcome::Gone) {
                        gone.store(true, Ordering::Relaxed);
                    }
                    // The record's later events wait for the next round (due again at
                    // once), so one retried at once still goes first.
                    let failed = !matches!(outcome, Outcome::Delivered { .. });
                    made.push(Attempt {
                        delivery: delivery.id,
                        attempts: delivery.attempts,
                        at: store::now(),
                        outcome,
                    });
                    if failed {
                        break;
                    }
                }
                made
            })
            .buffer_unordered(LANES)
            .flat_map(futures_util::stream::iter)
            .collect()
            .await;
        attempts.sort_by_key(|a| a.at);
        attempts
    }

    /// The body to send for `delivery`: `Some(None)` when its event is gone, `None` to
    /// stop here (its request is still rendering it, or it could not be kept), so that
    /// the endpoint's later events wait and keep their order.
    async fn body_of(
        &self,
        tenant: &Tenant,
        delivery: &Due,
        got: &mut Records,
    ) -> Option<Option<String>> {
        if let Some(body) = &delivery.event.body {
            return Some(Some(body.clone()));
        }
        if store::now() - delivery.event.created_at < RENDER_GRACE {
            // Its request renders it as that change left the record, and wakes the
            // worker when it has.
            return None;
        }
        let db = self.state.db();
        let body = self.renderer.body(tenant, &delivery.event, got).await;
        match webhooks::keep_body(db, tenant.0.id, delivery.event.id, body).await {
            Ok(kept) => Some(kept),
            Err(e) => {
                tracing::warn!(error = %e, "webhooks: could not keep an event's body");
                None
            }
        }
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
                .and_then(|v| retry_after(v, Utc::now()))
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

/// The wait a `Retry-After` value asks for at `now`: delay-seconds, or an HTTP date
/// (`Wed, 21 Oct 2026 07:28:00 GMT`; one already past is no wait). The schedule bounds
/// it (`domain::webhook::next_wait`).
fn retry_after(value: &str, now: DateTime<Utc>) -> Option<Duration> {
    let value = value.trim();
    if let Ok(seconds) = value.parse::<u64>() {
        return Some(Duration::from_secs(seconds));
    }
    let at = DateTime::parse_from_rfc2822(value).ok()?;
    Some((at.with_timezone(&Utc) - now).to_std().unwrap_or_default())
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

/// Where an event's `data` comes from: the record a GET of `path` answers or, with
/// `entry`, the element of that record's list `entry.0` whose id is `entry.1` (a
/// payment, among its order's `payment_histories`).
struct Source {
    path: String,
    entry: Option<(&'static str, i64)>,
}

/// The record an event is about. Events of a reservation, verification or service
/// carry that record, named by the id their history kept, not the item's.
fn source(event: &Event) -> Option<Source> {
    let id = event.subject_id;
    let details: Value = serde_json::from_str(&event.details).unwrap_or(Value::Null);
    let kept = |key: &str| details[key].as_i64();
    let resource = event.event_type.split_once('.').map_or("", |(r, _)| r);
    let path = match (event.subject_type.as_str(), resource) {
        ("item", "reservation") => {
            let n = event.subject_number?;
            format!(
                "/assets/{n}/reservation_requests/{}.api",
                kept("reservation_id")?
            )
        }
        ("item", "verification") => {
            let n = event.subject_number?;
            format!("/assets/{n}/verifications/{}.api", kept("verification_id")?)
        }
        ("item", "service") => {
            let n = event.subject_number?;
            format!("/assets/{n}/services/{}.api", kept("service_id")?)
        }
        ("item", _) => {
            let n = event.subject_number?;
            match event.asset_type.as_deref()? {
                "FixedAsset" => format!("/assets/{n}.api"),
                "StockAsset" => format!("/stock_assets/{n}.api"),
                _ => format!("/inventory/{n}.api"),
            }
        }
        ("order", "payment") => {
            return Some(Source {
                path: format!("/baskets/{}.api", event.subject_number?),
                entry: Some(("payment_histories", kept("payment_history_id")?)),
            });
        }
        ("order", _) => format!("/baskets/{}.api", event.subject_number?),
        ("member", _) => format!("/members/{id}.api"),
        ("customer", _) => format!("/customers/{id}.api"),
        ("contact", _) => format!("/contacts/{id}.api"),
        ("business", _) => format!("/businesses/{id}.api"),
        ("location", _) => format!("/locations/{id}.api"),
        ("vendor", _) => format!("/vendors/{id}.api"),
        ("group", _) => format!("/groups/{id}.api"),
        ("sub_group", _) => format!("/groups/{}/sub_groups/{id}.api", kept("group_id")?),
        ("member_address", _) => {
            format!("/users/{}/shipping_addresses/{id}.api", kept("owner_id")?)
        }
        ("customer_address", _) => {
            format!(
                "/customers/{}/shipping_addresses/{id}.api",
                kept("owner_id")?
            )
        }
        ("business_address", _) => {
            format!(
                "/businesses/{}/shipping_addresses/{id}.api",
                kept("owner_id")?
            )
        }
        ("listing", _) => format!("/listings/{id}.api"),
        ("coupon", _) => format!("/pricing_coupons/{id}.api"),
        ("bundle", _) => format!("/bundles/{id}.api"),
        ("custom_field", _) => format!("/custom_fields/{id}.api"),
        ("group_tax", _) => format!("/group_taxes/{id}.api"),
        ("custom_role", _) => format!("/custom_roles/{id}.api"),
        ("team", _) => format!("/teams/{id}.api"),
        ("retire_reason", _) => format!("/retire_reasons/{id}.api"),
        ("webhook", _) => format!("/webhooks/{id}.api"),
        ("company", _) => "/company_settings.api".to_owned(),
        _ => return None,
    };
    Some(Source { path, entry: None })
}

/// The element of `record`'s list `list` whose id is `id`, with the record's
/// `sequence_num` as `basket_sequence_num` (a payment names its order so).
fn entry_of(record: Value, list: &str, id: i64) -> Option<Value> {
    let number = record["sequence_num"].clone();
    let Value::Array(entries) = record.get(list)?.clone() else {
        return None;
    };
    let mut entry = entries.into_iter().find(|e| e["id"].as_i64() == Some(id))?;
    entry
        .as_object_mut()?
        .insert("basket_sequence_num".to_owned(), number);
    Some(entry)
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn retry_after_reads_seconds_and_http_dates() {
        let now = DateTime::parse_from_rfc3339("2026-10-21T07:28:00Z")
            .unwrap()
            .with_timezone(&Utc);
        assert_eq!(retry_after(" 120 ", now), Some(Duration::from_secs(120)));
        assert_eq!(
            retry_after("Wed, 21 Oct 2026 07:30:30 GMT", now),
            Some(Duration::from_secs(150))
        );
        assert_eq!(
            retry_after("Wed, 21 Oct 2026 07:00:00 GMT", now),
            Some(Duration::ZERO)
        );
        assert_eq!(retry_after("soon", now), None);
        assert_eq!(retry_after("-5", now), None);
    }
}
