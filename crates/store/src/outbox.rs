//! The outbox of webhook events: an event is written in the transaction of the change
//! it tells (`emit`, called by `change_log::record` for every change), one delivery for
//! each active endpoint of the company subscribed to its type, so a change that
//! commits is delivered and a refused one never is. Instances deliver them
//! (`webhooks::claim`); the transaction's commit wakes this instance's worker.

use std::cell::RefCell;
use std::collections::HashMap;
use std::future::Future;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use crate::CompanyId;
use domain::webhook::{EventType, Subscription};
use rand::RngCore;
use sea_query::{Expr, ExprTrait, Query};
use serde_json::Value as Json;

use crate::{StoreError, Tx, now};

tokio::task_local! {
    /// The events written by the work `collect` runs.
    static WRITTEN: RefCell<Vec<Written>>;
}

/// An event a request wrote.
#[derive(Debug, Clone, Copy)]
pub struct Written {
    pub company: CompanyId,
    pub event: i64,
}

/// Runs `work` (a request's handler), answering with what it answers and the events its
/// transactions wrote. Their commits do not wake the delivery worker: the caller
/// renders their bodies as the change left the records, then wakes it
/// (`Db::outbox_signal`); events a rolled-back transaction wrote are listed too, and
/// found gone.
pub async fn collect<F: Future>(work: F) -> (F::Output, Vec<Written>) {
    WRITTEN
        .scope(RefCell::new(Vec::new()), async move {
            let out = work.await;
            (out, WRITTEN.with(RefCell::take))
        })
        .await
}

/// Bodies this process's requests rendered for the events they wrote (`Db::rendered`),
/// kept in memory until a claim of this process takes one of their deliveries and
/// writes the body in its own transaction (`webhooks::claim`): a request then costs no
/// write of its own for its events. Bounded: past [`MAX_KEPT`] bodies, the request
/// writes its own; a body no claim of this process took within [`MAX_AGE`] (another
/// instance rendered it) is dropped when room is needed.
pub(crate) type Bodies = Mutex<HashMap<i64, (Instant, String)>>;

pub const MAX_KEPT: usize = 10_000;
pub const MAX_AGE: Duration = Duration::from_secs(60);

/// Keeps `body` for event `event`; gives it back when full (the caller writes it).
pub(crate) fn keep(bodies: &Bodies, event: i64, body: String) -> Option<String> {
    let mut bodies = bodies.lock().unwrap_or_else(|e| e.into_inner());
    if bodies.len() >= MAX_KEPT {
        bodies.retain(|_, (at, _)| at.elapsed() < MAX_AGE);
        if bodies.len() >= MAX_KEPT {
            return Some(body);
        }
    }
    bodies.insert(event, (Instant::now(), body));
    None
}

/// The body kept for `event`, if any.
pub(crate) fn kept(bodies: &Bodies, event: i64) -> Option<String> {
    let bodies = bodies.lock().unwrap_or_else(|e| e.into_inner());
    bodies.get(&event).map(|(_, body)| body.clone())
}

/// Forgets the bodies of `events`, now written.
pub(crate) fn forget(bodies: &Bodies, events: &[i64]) {
    if events.is_empty() {
        return;
    }
    let mut bodies = bodies.lock().unwrap_or_else(|e| e.into_inner());
    for event in events {
        bodies.remove(event);
    }
}

/// What a change log entry is an event of: an item (its resource, `asset` or `stock`,
/// is its kind's) or a named resource, and the event's action.
enum On {
    Item,
    Resource(&'static str),
}

/// The event a change log entry (`subject_type`, `action`) tells, if any.
fn event(subject_type: &str, action: &str) -> Option<(On, &'static str)> {
    use On::{Item, Resource};
    Some(match (subject_type, action) {
        ("item", "checkout_extended") => (Item, "extended"),
        ("item", "thresholds_set") => (Item, "updated"),
        ("item", "stock_added") => (Item, "added"),
        ("item", "rented_out_on_order") => (Item, "checked_out"),
        ("item", "returned_on_order") => (Item, "checked_in"),
        ("item", "sold_on_order") => (Item, "sold"),
        ("item", "service_started") => (Resource("service"), "started"),
        ("item", "service_completed") => (Resource("service"), "completed"),
        ("item", "verification_requested") => (Resource("verification"), "requested"),
        ("item", "verified") => (Resource("verification"), "verified"),
        ("item", "verification_cancelled") => (Resource("verification"), "cancelled"),
        ("item", "reservation_requested") => (Resource("reservation"), "created"),
        ("item", "reservation_approved") => (Resource("reservation"), "approved"),
        ("item", "reservation_denied") => (Resource("reservation"), "denied"),
        ("item", "reservation_fulfilled") => (Resource("reservation"), "fulfilled"),
        ("item", "reservation_removed") => (Resource("reservation"), "removed"),
        ("item", a) => (Item, action_word(a)?),
        ("order", "payment_taken") => (Resource("payment"), "received"),
        ("order", "payment_voided") => (Resource("payment"), "voided"),
        (
            "order",
            "items_added"
            | "items_removed"
            | "coupons_added"
            | "taxes_applied"
            | "custom_entry_added"
            | "damages_charged"
            | "sale_items_marked"
            | "sub_rent_item_added",
        ) => (Resource("order"), "updated"),
        ("business", "contacts_added") => (Resource("business"), "updated"),
        ("member_address" | "customer_address" | "business_address", a) => {
            (Resource("address"), action_word(a)?)
        }
        ("print_label_template", a) => (Resource("label_template"), action_word(a)?),
        ("company", "settings_changed") => (Resource("company_settings"), "updated"),
        (s, a) => {
            let resource = domain::webhook::EVENT_TYPES
                .iter()
                .filter_map(|t| t.split_once('.'))
                .map(|(r, _)| r)
                .find(|r| *r == s && !matches!(*r, "asset" | "stock" | "webhook"))?;
            (Resource(resource), action_word(a)?)
        }
    })
}

/// `action` as the action of some event type, if it is one.
fn action_word(action: &str) -> Option<&'static str> {
    domain::webhook::EVENT_TYPES
        .iter()
        .filter_map(|t| t.split_once('.'))
        .map(|(_, a)| a)
        .find(|a| *a == action)
}

#[derive(crate::Row)]
struct Endpoint {
    id: i64,
    events: String,
}

#[derive(crate::Row)]
struct ItemKind {
    asset_type: String,
    sequence_num: i64,
}

/// An event to write: its type, what it is about, and the change log's details.
pub(crate) struct NewEvent<'a> {
    pub(crate) event_type: EventType,
    pub(crate) subject_type: &'a str,
    pub(crate) subject_id: i64,
    pub(crate) subject_number: Option<i64>,
    pub(crate) asset_type: Option<String>,
    pub(crate) details: &'a Json,
}

/// Writes the event of a change log entry (or of a change its entry only counts, such
/// as the reservations a sale fulfilled) for the company's endpoints subscribed to it.
/// A company without an active endpoint costs one indexed read a transaction.
pub(crate) async fn emit(
    tx: &mut Tx,
    company: CompanyId,
    subject_type: &str,
    subject_id: i64,
    action: &str,
    details: &Json,
) -> Result<(), StoreError> {
    let Some((on, action)) = event(subject_type, action) else {
        return Ok(());
    };
    let endpoints: Vec<Endpoint> = match tx.endpoints.as_deref() {
        Some((of, known)) if *of == company => known
            .iter()
            .map(|(id, events)| Endpoint {
                id: *id,
                events: events.clone(),
            })
            .collect(),
        _ => {
            let endpoints: Vec<Endpoint> = tx.all(&endpoints_read(company)).await?;
            remember(tx, company, &endpoints);
            endpoints
        }
    };
    if endpoints.is_empty() {
        return Ok(());
    }
    let (mut number, mut asset_type) = (None, None);
    if subject_type == "item" {
        let stmt = crate::scoped("items", company)
            .columns(["asset_type", "sequence_num"])
            .and_where(Expr::col("id").eq(subject_id))
            .to_owned();
        // A deleted item is gone from its table: its history entry names both.
        let kind: Option<ItemKind> = tx.optional(&stmt).await?;
        number = kind
            .as_ref()
            .map(|k| k.sequence_num)
            .or_else(|| details["sequence_num"].as_i64());
        asset_type = kind
            .map(|k| k.asset_type)
            .or_else(|| details["asset_type"].as_str().map(str::to_owned));
    } else if subject_type == "order" {
        let stmt = crate::scoped("orders", company)
            .column("sequence_num")
            .and_where(Expr::col("id").eq(subject_id))
            .to_owned();
        let found: Option<(i64,)> = tx.optional(&stmt).await?;
        number = found
            .map(|(n,)| n)
            .or_else(|| details["sequence_num"].as_i64());
    }
    let resource = match on {
        On::Resource(r) => r,
        On::Item if asset_type.as_deref() == Some("FixedAsset") => "asset",
        On::Item => "stock",
    };
    let Some(event_type) = EventType::of(resource, action) else {
        return Ok(());
    };
    let to: Vec<i64> = endpoints
        .iter()
        .filter(|e| Subscription::parse(&e.events).is_ok_and(|s| s.matches(event_type)))
        .map(|e| e.id)
        .collect();
    let event = NewEvent {
        event_type,
        subject_type,
        subject_id,
        subject_number: number,
        asset_type,
        details,
    };
    write(tx, company, &event, &to).await?;
    Ok(())
}

/// The company's active endpoints, read at a transaction's first event of it ([`emit`])
/// or with its first lock ([`lock_with_endpoints`]).
fn endpoints_read(company: CompanyId) -> sea_query::SelectStatement {
    crate::scoped("webhooks", company)
        .columns(["id", "events"])
        .and_where(Expr::col("active").eq(true))
        .to_owned()
}

/// Keeps `endpoints`, those of `company`, for the rest of the transaction.
fn remember(tx: &mut Tx, company: CompanyId, endpoints: &[Endpoint]) {
    let known = endpoints.iter().map(|e| (e.id, e.events.clone()));
    tx.endpoints = Some(Box::new((company, known.collect())));
}

/// Locks with `lock` (a read that locks what a write changes: an item, an order) and
/// reads `with` after it ([`Tx::read_together`]), and, right after the lock in their
/// round trip, the company's active endpoints when the transaction does not know them
/// yet: the write learns where its events go without a round trip of its own at its
/// first event, and sees the endpoints as they are once it holds its lock, as it did
/// reading them at the event. A company without an endpoint costs the same one
/// indexed read as at the event. Answers the lock's one row (`NotFound(kind)` when
/// it locked none) and the reads of `with`.
pub(crate) async fn lock_with_endpoints<T: crate::Record>(
    tx: &mut Tx,
    company: CompanyId,
    lock: &(dyn crate::Statement + Sync),
    kind: crate::ids::Kind,
    with: &[&(dyn crate::Statement + Sync)],
) -> Result<(T, crate::Together), StoreError> {
    let endpoints = endpoints_read(company);
    let known = matches!(tx.endpoints.as_deref(), Some((of, _)) if *of == company);
    let mut reads: Vec<&(dyn crate::Statement + Sync)> = vec![lock];
    if !known {
        reads.push(&endpoints);
    }
    reads.extend_from_slice(with);
    let mut answers = tx.read_together(&reads).await?;
    let locked: Vec<T> = answers.next(tx)?;
    if !known {
        let found: Vec<Endpoint> = answers.next(tx)?;
        remember(tx, company, &found);
    }
    let row = locked
        .into_iter()
        .next()
        .ok_or(StoreError::NotFound(kind))?;
    Ok((row, answers))
}

/// Writes `event` with a delivery to each endpoint of `to` (nothing when `to` is
/// empty), due now; answers the event's id.
pub(crate) async fn write(
    tx: &mut Tx,
    company: CompanyId,
    event: &NewEvent<'_>,
    to: &[i64],
) -> Result<Option<i64>, StoreError> {
    if to.is_empty() {
        return Ok(None);
    }
    let at = now();
    let mut random = [0u8; 16];
    rand::thread_rng().fill_bytes(&mut random);
    let insert = Query::insert()
        .into_table("webhook_events")
        .columns([
            "company_id",
            "message_id",
            "event_type",
            "subject_type",
            "subject_id",
            "subject_number",
            "asset_type",
            "details",
            "created_at",
        ])
        .values_panic([
            company.0.into(),
            format!("msg_{}", hex::encode(random)).into(),
            event.event_type.as_str().into(),
            event.subject_type.into(),
            event.subject_id.into(),
            event.subject_number.into(),
            event.asset_type.clone().into(),
            event.details.to_string().into(),
            at.into(),
        ])
        .returning_col("id")
        .to_owned();
    let (id,): (i64,) = tx.one(&insert).await?;
    let mut deliveries = Query::insert()
        .into_table("webhook_deliveries")
        .columns([
            "company_id",
            "webhook_id",
            "event_id",
            "attempts",
            "next_attempt_at",
            "created_at",
        ])
        .to_owned();
    for endpoint in to {
        deliveries.values_panic([
            company.0.into(),
            (*endpoint).into(),
            id.into(),
            0i64.into(),
            at.into(),
            at.into(),
        ]);
    }
    tx.execute(&deliveries).await?;
    let collected = WRITTEN
        .try_with(|w| w.borrow_mut().push(Written { company, event: id }))
        .is_ok();
    if !collected {
        tx.wrote_events();
    }
    Ok(Some(id))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn named(subject: &str, action: &str) -> Option<String> {
        event(subject, action).map(|(on, a)| match on {
            On::Item => format!("item.{a}"),
            On::Resource(r) => format!("{r}.{a}"),
        })
    }

    #[test]
    fn rendered_bodies_are_bounded_and_forgotten_once_written() {
        let bodies = Bodies::default();
        for event in 0..MAX_KEPT as i64 {
            assert_eq!(keep(&bodies, event, format!("{event}")), None);
        }
        // Full of young bodies: the next is given back, for its request to write.
        let extra = MAX_KEPT as i64;
        assert_eq!(keep(&bodies, extra, "x".into()), Some("x".into()));
        assert_eq!(kept(&bodies, 7).as_deref(), Some("7"));
        forget(&bodies, &[7]);
        assert_eq!(kept(&bodies, 7), None);
        assert_eq!(keep(&bodies, extra, "x".into()), None);
        assert_eq!(kept(&bodies, extra).as_deref(), Some("x"));
    }

    #[test]
    fn change_log_entries_name_their_events() {
        assert_eq!(
            named("item", "checkout_extended").as_deref(),
            Some("item.extended")
        );
        assert_eq!(
            named("item", "checked_out").as_deref(),
            Some("item.checked_out")
        );
        assert_eq!(
            named("item", "reservation_approved").as_deref(),
            Some("reservation.approved")
        );
        assert_eq!(
            named("order", "payment_taken").as_deref(),
            Some("payment.received")
        );
        assert_eq!(
            named("order", "items_added").as_deref(),
            Some("order.updated")
        );
        assert_eq!(
            named("member", "deactivated").as_deref(),
            Some("member.deactivated")
        );
        assert_eq!(named("company", "token_regenerated"), None);
        assert_eq!(named("owner", "signed_in"), None);
    }
}
