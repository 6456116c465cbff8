//! Webhook endpoints (a rentrack extension): where a company's events go, their
//! deliveries, and what the delivery worker of every instance reads and writes.
//! Events are written by `outbox`; see docs/api.md, "Webhooks".

use std::time::Duration;

use crate::CompanyId;
use crate::ids::{Id, kind};
use chrono::{DateTime, Utc};
use domain::refusal::Conflict;
use domain::webhook::{self as rules, EventType, Subscription};
use domain::{Change, Page};
use rand::RngCore;
use sea_query::{Expr, ExprTrait, LockBehavior, LockType, Order, Query};
use serde_json::json;

use crate::outbox::{self, NewEvent};
use crate::{Assignments, Db, PageOf, StoreError, Tx, change_log, now};

/// A company has at most this many endpoints.
pub const MAX_PER_COMPANY: usize = 50;

/// How long a rotated-out secret keeps signing beside the new one.
pub const SECRET_OVERLAP: Duration = Duration::from_secs(24 * 3600);

#[derive(Debug, Clone, crate::Row)]
pub struct Webhook {
    pub id: i64,
    pub url: String,
    /// `*` or a comma list of event types and `<resource>.*` entries.
    pub events: String,
    pub description: Option<String>,
    pub active: bool,
    pub secret: String,
    pub previous_secret: Option<String>,
    pub previous_secret_until: Option<DateTime<Utc>>,
    /// The first failure of the failures since the last success.
    pub failing_since: Option<DateTime<Utc>>,
    /// Why delivery stopped by itself (410 Gone, five days of failures).
    pub disabled_reason: Option<String>,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
}

const COLUMNS: [&str; 12] = [
    "id",
    "url",
    "events",
    "description",
    "active",
    "secret",
    "previous_secret",
    "previous_secret_until",
    "failing_since",
    "disabled_reason",
    "created_at",
    "updated_at",
];

impl Webhook {
    /// The secrets that sign a message sent at `at`: the current one, and the one it
    /// replaced during the overlap.
    pub fn signing_secrets(&self, at: DateTime<Utc>) -> Vec<&str> {
        let mut secrets = vec![self.secret.as_str()];
        if let (Some(previous), Some(until)) = (&self.previous_secret, self.previous_secret_until)
            && at < until
        {
            secrets.push(previous);
        }
        secrets
    }
}

/// An endpoint's fields, as a create or an update gives them.
#[derive(Debug, Clone, Default)]
pub struct WebhookInput {
    /// Required on create (checked by the caller: scheme, host, address).
    pub url: Option<String>,
    /// Required on create.
    pub events: Option<Subscription>,
    pub description: Change<String>,
    /// Re-enabling a disabled endpoint resumes its undelivered events.
    pub active: Option<bool>,
}

fn assign(row: &mut Assignments, input: &WebhookInput) {
    let WebhookInput {
        url,
        events,
        description,
        active,
    } = input;
    row.given("url", url)
        .given("events", &events.as_ref().map(Subscription::to_text))
        .change("description", description)
        .given("active", active);
}

fn new_secret() -> String {
    let mut bytes = [0u8; 32];
    rand::thread_rng().fill_bytes(&mut bytes);
    rules::secret_text(&bytes)
}

fn scoped(company: CompanyId) -> sea_query::SelectStatement {
    crate::scoped("webhooks", company)
}

async fn lock(
    tx: &mut Tx,
    company: CompanyId,
    id: Id<kind::Webhook>,
) -> Result<Webhook, StoreError> {
    let stmt = scoped(company)
        .columns(COLUMNS)
        .and_where(Expr::col("id").eq(id))
        .lock(LockType::Update)
        .to_owned();
    tx.optional(&stmt).await?.ok_or(id.missing())
}

#[tracing::instrument(level = "debug", skip_all)]
pub async fn find(
    db: &Db,
    company: CompanyId,
    id: Id<kind::Webhook>,
) -> Result<Webhook, StoreError> {
    let stmt = scoped(company)
        .columns(COLUMNS)
        .and_where(Expr::col("id").eq(id))
        .to_owned();
    db.read().optional(&stmt).await?.ok_or(id.missing())
}

#[tracing::instrument(level = "debug", skip_all)]
pub async fn list(db: &Db, company: CompanyId, page: Page) -> Result<PageOf<Webhook>, StoreError> {
    let total = crate::Total::whole(company, "webhooks");
    crate::paged(db, scoped(company), COLUMNS, page, total).await
}

/// A new endpoint with a new secret. `input.url` and `input.events` are required.
#[tracing::instrument(level = "debug", skip_all)]
pub async fn create(
    db: &Db,
    company: CompanyId,
    input: WebhookInput,
) -> Result<Webhook, StoreError> {
    let mut tx = db.begin().await?;
    // The company's row, locked: creates of one company take turns on the limit.
    let company_row = Query::select()
        .column("id")
        .from("companies")
        .and_where(Expr::col("id").eq(company.0))
        .lock(LockType::Update)
        .to_owned();
    tx.execute(&company_row).await?;
    let count = scoped(company)
        .expr_as(Expr::col("id").count(), "n")
        .to_owned();
    let existing: crate::Count = tx.one(&count).await?;
    if usize::try_from(existing.n).unwrap_or(usize::MAX) >= MAX_PER_COMPANY {
        return Err(StoreError::Conflict(Conflict::WebhookLimit {
            max: MAX_PER_COMPANY,
        }));
    }
    let at = now();
    let mut row = Assignments::insert();
    row.set("company_id", company.0)
        .set("active", input.active.unwrap_or(true))
        .set("secret", new_secret())
        .set("created_at", at)
        .set("updated_at", at);
    assign(
        &mut row,
        &WebhookInput {
            active: None,
            ..input
        },
    );
    let stmt = row
        .into_insert("webhooks")
        .returning(Query::returning().columns(COLUMNS))
        .to_owned();
    let webhook: Webhook = tx.one(&stmt).await?;
    change_log::record(
        &mut tx,
        company,
        "webhook",
        webhook.id,
        "created",
        json!({"url": webhook.url, "events": webhook.events}),
    )
    .await?;
    tx.commit().await?;
    Ok(webhook)
}

/// Changes what is given. Enabling a disabled endpoint clears why it was disabled and
/// makes its undelivered events due now.
#[tracing::instrument(level = "debug", skip_all)]
pub async fn update(
    db: &Db,
    company: CompanyId,
    id: Id<kind::Webhook>,
    input: WebhookInput,
) -> Result<Webhook, StoreError> {
    let mut tx = db.begin().await?;
    let before = lock(&mut tx, company, id).await?;
    let mut row = Assignments::update();
    assign(&mut row, &input);
    let enabled = input.active == Some(true) && !before.active;
    if enabled {
        row.set("failing_since", Option::<DateTime<Utc>>::None)
            .set("disabled_reason", Option::<String>::None);
    }
    let columns = row.columns();
    let stmt = row
        .into_update("webhooks", company, id.get())
        .returning(Query::returning().columns(COLUMNS))
        .to_owned();
    let webhook: Webhook = tx.one(&stmt).await?;
    if enabled {
        let resume = Query::update()
            .table("webhook_deliveries")
            .value("next_attempt_at", now())
            .and_where(Expr::col("company_id").eq(company.0))
            .and_where(Expr::col("webhook_id").eq(id))
            .and_where(Expr::col("delivered_at").is_null())
            .to_owned();
        tx.execute(&resume).await?;
    }
    change_log::record(
        &mut tx,
        company,
        "webhook",
        id.get(),
        "updated",
        json!({"fields": columns}),
    )
    .await?;
    tx.commit().await?;
    Ok(webhook)
}

/// Deletes the endpoint and its deliveries.
#[tracing::instrument(level = "debug", skip_all)]
pub async fn delete(
    db: &Db,
    company: CompanyId,
    id: Id<kind::Webhook>,
) -> Result<Webhook, StoreError> {
    let mut tx = db.begin().await?;
    let webhook = lock(&mut tx, company, id).await?;
    for table in ["webhook_deliveries", "webhooks"] {
        let column = if table == "webhooks" {
            "id"
        } else {
            "webhook_id"
        };
        let stmt = Query::delete()
            .from_table(table)
            .and_where(Expr::col("company_id").eq(company.0))
            .and_where(Expr::col(column).eq(id))
            .to_owned();
        tx.execute(&stmt).await?;
    }
    change_log::record(
        &mut tx,
        company,
        "webhook",
        id.get(),
        "deleted",
        json!({"url": webhook.url}),
    )
    .await?;
    tx.commit().await?;
    Ok(webhook)
}

/// A new secret; the old one keeps signing beside it for [`SECRET_OVERLAP`].
#[tracing::instrument(level = "debug", skip_all)]
pub async fn rotate_secret(
    db: &Db,
    company: CompanyId,
    id: Id<kind::Webhook>,
) -> Result<Webhook, StoreError> {
    let mut tx = db.begin().await?;
    let before = lock(&mut tx, company, id).await?;
    let until = now() + SECRET_OVERLAP;
    let mut row = Assignments::update();
    row.set("secret", new_secret())
        .set("previous_secret", before.secret)
        .set("previous_secret_until", until);
    let stmt = row
        .into_update("webhooks", company, id.get())
        .returning(Query::returning().columns(COLUMNS))
        .to_owned();
    let webhook: Webhook = tx.one(&stmt).await?;
    change_log::record(
        &mut tx,
        company,
        "webhook",
        id.get(),
        "secret_rotated",
        json!({"previous_secret_until": until}),
    )
    .await?;
    tx.commit().await?;
    Ok(webhook)
}

/// An event's delivery to one endpoint, as the delivery log shows it.
#[derive(Debug, Clone, crate::Row)]
pub struct Delivery {
    pub id: i64,
    pub message_id: String,
    pub event_type: String,
    pub attempts: i64,
    pub last_status: Option<i64>,
    pub last_error: Option<String>,
    pub next_attempt_at: Option<DateTime<Utc>>,
    pub delivered_at: Option<DateTime<Utc>>,
    pub created_at: DateTime<Utc>,
}

fn deliveries_of(company: CompanyId, webhook: Id<kind::Webhook>) -> sea_query::SelectStatement {
    Query::select()
        .from("webhook_deliveries")
        .and_where(Expr::col(("webhook_deliveries", "company_id")).eq(company.0))
        .and_where(Expr::col(("webhook_deliveries", "webhook_id")).eq(webhook))
        .to_owned()
}

fn with_event(select: &mut sea_query::SelectStatement) -> &mut sea_query::SelectStatement {
    select
        .column(("webhook_deliveries", "id"))
        .columns([
            ("webhook_events", "message_id"),
            ("webhook_events", "event_type"),
        ])
        .columns([
            ("webhook_deliveries", "attempts"),
            ("webhook_deliveries", "last_status"),
            ("webhook_deliveries", "last_error"),
            ("webhook_deliveries", "next_attempt_at"),
            ("webhook_deliveries", "delivered_at"),
            ("webhook_deliveries", "created_at"),
        ])
        .inner_join(
            "webhook_events",
            Expr::col(("webhook_events", "company_id"))
                .equals(("webhook_deliveries", "company_id"))
                .and(
                    Expr::col(("webhook_events", "id")).equals(("webhook_deliveries", "event_id")),
                ),
        )
}

/// A page of the endpoint's deliveries, newest first (two statements: the count on the
/// endpoint's index, the page).
#[tracing::instrument(level = "debug", skip_all)]
pub async fn deliveries(
    db: &Db,
    company: CompanyId,
    webhook: Id<kind::Webhook>,
    page: Page,
) -> Result<PageOf<Delivery>, StoreError> {
    let mut tx = db.begin_read().await?;
    let endpoint = scoped(company)
        .column("id")
        .and_where(Expr::col("id").eq(webhook))
        .to_owned();
    let found: Option<(i64,)> = tx.optional(&endpoint).await?;
    found.ok_or(webhook.missing())?;
    let count = deliveries_of(company, webhook)
        .expr_as(Expr::col(("webhook_deliveries", "id")).count(), "n")
        .to_owned();
    let total: crate::Count = tx.one(&count).await?;
    let mut rows = deliveries_of(company, webhook);
    with_event(&mut rows)
        .order_by(("webhook_deliveries", "id"), Order::Desc)
        .limit(page.limit())
        .offset(page.offset());
    let records: Vec<Delivery> = tx.all(&rows).await?;
    tx.commit().await?;
    Ok(PageOf {
        records,
        total: u64::try_from(total.n).unwrap_or(0),
    })
}

async fn delivery_in(
    tx: &mut Tx,
    company: CompanyId,
    webhook: Id<kind::Webhook>,
    id: Id<kind::WebhookDelivery>,
) -> Result<Delivery, StoreError> {
    let mut stmt = deliveries_of(company, webhook);
    with_event(&mut stmt).and_where(Expr::col(("webhook_deliveries", "id")).eq(id));
    tx.optional(&stmt).await?.ok_or(id.missing())
}

/// Makes a delivery due now, delivered or not: it is sent again at once (when the
/// endpoint is active), and counts as one more attempt.
#[tracing::instrument(level = "debug", skip_all)]
pub async fn retry(
    db: &Db,
    company: CompanyId,
    webhook: Id<kind::Webhook>,
    id: Id<kind::WebhookDelivery>,
) -> Result<Delivery, StoreError> {
    let mut tx = db.begin().await?;
    lock(&mut tx, company, webhook).await?;
    delivery_in(&mut tx, company, webhook, id).await?;
    let stmt = Query::update()
        .table("webhook_deliveries")
        .value("next_attempt_at", now())
        .and_where(Expr::col("company_id").eq(company.0))
        .and_where(Expr::col("id").eq(id))
        .to_owned();
    tx.execute(&stmt).await?;
    let delivery = delivery_in(&mut tx, company, webhook, id).await?;
    tx.wrote_events();
    tx.commit().await?;
    Ok(delivery)
}

/// Queues a `webhook.test` event for this endpoint alone (whatever it subscribes to).
#[tracing::instrument(level = "debug", skip_all)]
pub async fn send_test(
    db: &Db,
    company: CompanyId,
    webhook: Id<kind::Webhook>,
) -> Result<Delivery, StoreError> {
    let mut tx = db.begin().await?;
    let endpoint = lock(&mut tx, company, webhook).await?;
    let details = json!({"url": endpoint.url});
    let event = NewEvent {
        event_type: EventType::parse("webhook.test").expect("a listed type"),
        subject_type: "webhook",
        subject_id: endpoint.id,
        subject_number: None,
        asset_type: None,
        details: &details,
    };
    outbox::write(&mut tx, company, &event, &[endpoint.id]).await?;
    let mut last = deliveries_of(company, webhook);
    with_event(&mut last).order_by(("webhook_deliveries", "id"), Order::Desc);
    let delivery: Delivery = tx.one(&last).await?;
    tx.commit().await?;
    Ok(delivery)
}

/// An event: what it tells, and the body sent for it once rendered.
#[derive(Debug, Clone, crate::Row)]
pub struct Event {
    pub id: i64,
    pub message_id: String,
    pub event_type: String,
    pub subject_type: String,
    pub subject_id: i64,
    pub subject_number: Option<i64>,
    pub asset_type: Option<String>,
    /// The change log's details, JSON.
    pub details: String,
    /// The body sent at the first attempt, sent again unchanged.
    pub body: Option<String>,
    pub created_at: DateTime<Utc>,
}

const EVENT_COLUMNS: [&str; 10] = [
    "id",
    "message_id",
    "event_type",
    "subject_type",
    "subject_id",
    "subject_number",
    "asset_type",
    "details",
    "body",
    "created_at",
];

/// The company's events of `ids` that exist (a rolled-back write's do not), in the
/// order of their ids.
#[tracing::instrument(level = "debug", skip_all)]
pub async fn events(db: &Db, company: CompanyId, ids: &[i64]) -> Result<Vec<Event>, StoreError> {
    let stmt = crate::scoped("webhook_events", company)
        .columns(EVENT_COLUMNS)
        .and_where(Expr::col("id").is_in(ids.iter().copied()))
        .order_by("id", Order::Asc)
        .to_owned();
    db.read().all(&stmt).await
}

/// A delivery the worker is to make, and its event.
#[derive(Debug, Clone, crate::Row)]
pub struct Due {
    pub id: i64,
    pub attempts: i64,
    #[row(flatten)]
    pub event: Event,
}

/// One endpoint this instance holds (until the lease ends) and its due deliveries,
/// oldest event first.
#[derive(Debug)]
pub struct Claim {
    pub company: CompanyId,
    pub webhook: Webhook,
    pub due: Vec<Due>,
    /// The lease's end: the deliveries taken are due again then, should this instance
    /// die before it writes their outcome; a retry asked meanwhile makes one due sooner
    /// and is kept (`attempted`).
    pub until: DateTime<Utc>,
    /// When it was taken: the moment its deliveries left unsent are due again
    /// (`finish`).
    pub taken: DateTime<Utc>,
}

#[derive(crate::Row)]
struct Leased {
    company_id: i64,
    id: i64,
}

/// Takes an active endpoint with deliveries due that no instance holds, for `lease`,
/// with up to `max` of them. Instances sharing a PostgreSQL database skip the endpoint
/// rows others are taking (`FOR UPDATE SKIP LOCKED`), and the lease keeps them off it
/// until released, so each delivery is made by one instance, in order; on SQLite one
/// transaction at a time writes.
#[tracing::instrument(level = "debug", skip_all)]
pub async fn claim(db: &Db, lease: Duration, max: u64) -> Result<Option<Claim>, StoreError> {
    let at = now();
    // A read first: with nothing due (most polls) no write transaction is begun.
    let any_due = Query::select()
        .column("id")
        .from("webhook_deliveries")
        .and_where(Expr::col("next_attempt_at").lte(at))
        .limit(1)
        .to_owned();
    let found: Option<(i64,)> = db.read().optional(&any_due).await?;
    if found.is_none() {
        return Ok(None);
    }
    let mut tx = db.begin().await?;
    let free = Expr::col(("webhooks", "leased_until"))
        .is_null()
        .or(Expr::col(("webhooks", "leased_until")).lt(at));
    let find = Query::select()
        .columns([("webhooks", "company_id"), ("webhooks", "id")])
        .from("webhook_deliveries")
        .inner_join(
            "webhooks",
            Expr::col(("webhooks", "company_id"))
                .equals(("webhook_deliveries", "company_id"))
                .and(Expr::col(("webhooks", "id")).equals(("webhook_deliveries", "webhook_id"))),
        )
        .and_where(Expr::col(("webhook_deliveries", "next_attempt_at")).lte(at))
        .and_where(Expr::col(("webhooks", "active")).eq(true))
        .and_where(free.clone())
        .order_by(("webhook_deliveries", "next_attempt_at"), Order::Asc)
        .limit(1)
        .lock_with_tables_behavior(LockType::Update, ["webhooks"], LockBehavior::SkipLocked)
        .to_owned();
    let Some(found): Option<Leased> = tx.optional(&find).await? else {
        return Ok(None);
    };
    let company = CompanyId(found.company_id);
    let take = Query::update()
        .table("webhooks")
        .value("leased_until", at + lease)
        .and_where(Expr::col("company_id").eq(found.company_id))
        .and_where(Expr::col("id").eq(found.id))
        .and_where(free)
        .to_owned();
    if tx.execute(&take).await? == 0 {
        return Ok(None);
    }
    let webhook_row = scoped(company)
        .columns(COLUMNS)
        .and_where(Expr::col("id").eq(found.id))
        .to_owned();
    let webhook: Webhook = tx.one(&webhook_row).await?;
    let due = Query::select()
        .columns([
            ("webhook_deliveries", "id"),
            ("webhook_deliveries", "attempts"),
        ])
        .columns(EVENT_COLUMNS.map(|c| ("webhook_events", c)))
        .from("webhook_deliveries")
        .inner_join(
            "webhook_events",
            Expr::col(("webhook_events", "company_id"))
                .equals(("webhook_deliveries", "company_id"))
                .and(
                    Expr::col(("webhook_events", "id")).equals(("webhook_deliveries", "event_id")),
                ),
        )
        .and_where(Expr::col(("webhook_deliveries", "company_id")).eq(found.company_id))
        .and_where(Expr::col(("webhook_deliveries", "webhook_id")).eq(found.id))
        .and_where(Expr::col(("webhook_deliveries", "next_attempt_at")).lte(at))
        .order_by(("webhook_deliveries", "id"), Order::Asc)
        .limit(max)
        .to_owned();
    let mut due: Vec<Due> = tx.all(&due).await?;
    // Bodies this process rendered are written here, in the claim's transaction.
    let mut written = Vec::new();
    for d in due.iter_mut().filter(|d| d.event.body.is_none()) {
        // One endpoint's deliveries are of distinct events.
        if let Some(body) = outbox::kept(&db.rendered, d.event.id) {
            tx.execute(&body_of(company, d.event.id, &body)).await?;
            written.push(d.event.id);
            d.event.body = Some(body);
        }
    }
    let until = at + lease;
    let taken = Query::update()
        .table("webhook_deliveries")
        .value("next_attempt_at", until)
        .and_where(Expr::col("company_id").eq(company.0))
        .and_where(Expr::col("id").is_in(due.iter().map(|d| d.id)))
        .to_owned();
    tx.execute(&taken).await?;
    tx.commit().await?;
    outbox::forget(&db.rendered, &written);
    Ok(Some(Claim {
        company,
        webhook,
        due,
        until,
        taken: at,
    }))
}

/// `next` as the delivery's next attempt, unless a retry was asked since the claim
/// (the moment is no longer the claim's `until`).
fn next_attempt(until: DateTime<Utc>, next: Option<DateTime<Utc>>) -> Expr {
    Expr::case(Expr::col("next_attempt_at").eq(until), Expr::val(next))
        .finally(Expr::col("next_attempt_at"))
        .into()
}

/// Keeps the body of an event's first attempt, so every retry sends the same bytes;
/// answers the body kept (another's, if one was kept first; none if the event is
/// gone).
#[tracing::instrument(level = "debug", skip_all)]
pub async fn keep_body(
    db: &Db,
    company: CompanyId,
    event: i64,
    body: String,
) -> Result<Option<String>, StoreError> {
    let mut tx = db.begin().await?;
    if tx.execute(&body_of(company, event, &body)).await? == 1 {
        tx.commit().await?;
        return Ok(Some(body));
    }
    let kept = crate::scoped("webhook_events", company)
        .column("body")
        .and_where(Expr::col("id").eq(event))
        .to_owned();
    let kept: Option<(Option<String>,)> = tx.optional(&kept).await?;
    tx.commit().await?;
    Ok(kept.map(|(kept,)| kept.unwrap_or(body)))
}

/// Keeps the bodies a request rendered for the events it wrote: in memory until this
/// process's first claim of one of their deliveries writes it (`outbox::Bodies`), or,
/// past its bound, written here in one transaction. Bodies another kept first stay as
/// they are.
#[tracing::instrument(level = "debug", skip_all)]
pub async fn keep_bodies(
    db: &Db,
    company: CompanyId,
    bodies: Vec<(i64, String)>,
) -> Result<(), StoreError> {
    let unkept: Vec<(i64, String)> = bodies
        .into_iter()
        .filter_map(|(event, body)| Some((event, outbox::keep(&db.rendered, event, body)?)))
        .collect();
    if unkept.is_empty() {
        return Ok(());
    }
    let mut tx = db.begin().await?;
    for (event, body) in &unkept {
        tx.execute(&body_of(company, *event, body)).await?;
    }
    tx.commit().await
}

/// Sets event `event`'s body to `body` unless it has one.
fn body_of(company: CompanyId, event: i64, body: &str) -> sea_query::UpdateStatement {
    Query::update()
        .table("webhook_events")
        .value("body", body)
        .and_where(Expr::col("company_id").eq(company.0))
        .and_where(Expr::col("id").eq(event))
        .and_where(Expr::col("body").is_null())
        .to_owned()
}

/// What one attempt came to.
#[derive(Debug, Clone)]
pub enum Outcome {
    /// A 2xx answer.
    Delivered { status: u16 },
    /// The receiver answered 410 Gone: the endpoint is disabled.
    Gone,
    /// Any other answer (`status`), a timeout or a failed connection (`error`); the
    /// receiver's `Retry-After`, if it sent one with a 429 or 503.
    Failed {
        status: Option<u16>,
        error: String,
        retry_after: Option<Duration>,
    },
}

/// One attempt the worker made at a delivery it took.
#[derive(Debug, Clone)]
pub struct Attempt {
    pub delivery: i64,
    /// The delivery's attempts before this one.
    pub attempts: i64,
    pub at: DateTime<Utc>,
    pub outcome: Outcome,
}

/// Ends a claim in one transaction: writes each attempt's outcome (delivered, due again
/// on the schedule, or given up), makes the deliveries of `unsent` (taken but not
/// attempted) due again from when the claim was taken, carries the endpoint's run of
/// failures on (disabling it on 410 Gone or after [`rules::DISABLE_AFTER`] of
/// failures), and lets other instances take
/// it. A delivery whose retry was asked meanwhile stays due then.
#[tracing::instrument(level = "debug", skip_all)]
pub async fn finish(
    db: &Db,
    company: CompanyId,
    webhook: &Webhook,
    (until, taken): (DateTime<Utc>, DateTime<Utc>),
    attempts: &[Attempt],
    unsent: &[i64],
) -> Result<(), StoreError> {
    let mut failing_since = webhook.failing_since;
    let mut disabled = None;
    let mut rows = Vec::with_capacity(attempts.len());
    for attempt in attempts {
        let at = attempt.at;
        let tries = attempt.attempts + 1;
        let mut row = Query::update()
            .table("webhook_deliveries")
            .value("attempts", tries)
            .and_where(Expr::col("company_id").eq(company.0))
            .and_where(Expr::col("id").eq(attempt.delivery))
            .to_owned();
        match &attempt.outcome {
            Outcome::Delivered { status } => {
                row.value("last_status", i64::from(*status))
                    .value("last_error", Option::<String>::None)
                    .value("delivered_at", at)
                    .value("next_attempt_at", next_attempt(until, None));
                failing_since = None;
            }
            Outcome::Gone => {
                // Kept due: it goes out when the endpoint is enabled again.
                row.value("last_status", 410i64)
                    .value("last_error", "410 Gone: the endpoint was disabled")
                    .value("next_attempt_at", next_attempt(until, Some(at)));
                disabled = Some("the receiver answered 410 Gone");
            }
            Outcome::Failed {
                status,
                error,
                retry_after,
            } => {
                let next = rules::next_wait(u32::try_from(tries).unwrap_or(u32::MAX), *retry_after)
                    .map(|wait| at + chrono::Duration::from_std(wait).unwrap_or_default());
                row.value("last_status", status.map(i64::from))
                    .value("last_error", error.clone())
                    .value("next_attempt_at", next_attempt(until, next));
                let since = *failing_since.get_or_insert(at);
                let limit = chrono::Duration::from_std(rules::DISABLE_AFTER).unwrap_or_default();
                if at - since >= limit {
                    disabled = Some("deliveries failed for five days");
                }
            }
        }
        rows.push(row);
    }
    let no_lease = Option::<DateTime<Utc>>::None;
    // The endpoint itself changes (and `updated_at` with it) only when its run of
    // failures starts or ends, or it is disabled; else only its lease ends.
    let release = if failing_since == webhook.failing_since && disabled.is_none() {
        Query::update()
            .table("webhooks")
            .value("leased_until", no_lease)
            .and_where(Expr::col("company_id").eq(company.0))
            .and_where(Expr::col("id").eq(webhook.id))
            .to_owned()
    } else {
        let mut endpoint = Assignments::update();
        endpoint
            .set("leased_until", no_lease)
            .set("failing_since", failing_since);
        if let Some(reason) = disabled {
            endpoint.set("active", false).set("disabled_reason", reason);
        }
        endpoint.into_update("webhooks", company, webhook.id)
    };
    let mut tx = db.begin().await?;
    for row in &rows {
        tx.execute(row).await?;
    }
    if !unsent.is_empty() {
        let due = Query::update()
            .table("webhook_deliveries")
            // Due from when they were taken, not from now: a later event of the same
            // record, written since, must not come due before them.
            .value("next_attempt_at", next_attempt(until, Some(taken)))
            .and_where(Expr::col("company_id").eq(company.0))
            .and_where(Expr::col("id").is_in(unsent.iter().copied()))
            .to_owned();
        tx.execute(&due).await?;
    }
    tx.execute(&release).await?;
    if let Some(reason) = disabled {
        change_log::record(
            &mut tx,
            company,
            "webhook",
            webhook.id,
            "disabled",
            json!({"reason": reason}),
        )
        .await?;
    }
    tx.commit().await?;
    Ok(())
}

/// Deletes events older than `before` whose every delivery was made (at most `max`
/// of them, with their deliveries); failed ones stay for the delivery log. Answers how
/// many went.
#[tracing::instrument(level = "debug", skip_all)]
pub async fn prune(db: &Db, before: DateTime<Utc>, max: u64) -> Result<u64, StoreError> {
    let undelivered = Query::select()
        .expr(Expr::val(1))
        .from("webhook_deliveries")
        .and_where(
            Expr::col(("webhook_deliveries", "company_id"))
                .equals(("webhook_events", "company_id")),
        )
        .and_where(Expr::col(("webhook_deliveries", "event_id")).equals(("webhook_events", "id")))
        .and_where(Expr::col(("webhook_deliveries", "delivered_at")).is_null())
        .to_owned();
    let old = Query::select()
        .column("id")
        .from("webhook_events")
        .and_where(Expr::col("created_at").lt(before))
        .and_where(Expr::exists(undelivered).not())
        .limit(max)
        .to_owned();
    let mut tx = db.begin().await?;
    let ids: Vec<(i64,)> = tx.all(&old).await?;
    let ids: Vec<i64> = ids.into_iter().map(|(id,)| id).collect();
    if ids.is_empty() {
        return Ok(0);
    }
    let deliveries = Query::delete()
        .from_table("webhook_deliveries")
        .and_where(Expr::col("event_id").is_in(ids.clone()))
        .to_owned();
    tx.execute(&deliveries).await?;
    let events = Query::delete()
        .from_table("webhook_events")
        .and_where(Expr::col("created_at").lt(before))
        .and_where(Expr::col("id").is_in(ids))
        .to_owned();
    let gone = tx.execute(&events).await?;
    tx.commit().await?;
    Ok(gone)
}
