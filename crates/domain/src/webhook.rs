//! Outbound webhooks as the Standard Webhooks specification (standardwebhooks.com)
//! describes them: the event types, what an endpoint subscribes to, the retry schedule
//! and the signature.

use std::time::Duration;

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD as BASE64;
use hmac::{Hmac, Mac};
use sha2::Sha256;

/// Every event type, `<resource>.<action>`: the one list `docs/api.md` and
/// `/openapi.json` show.
pub const EVENT_TYPES: &[&str] = &[
    "asset.created",
    "asset.updated",
    "asset.deleted",
    "asset.checked_out",
    "asset.checked_in",
    "asset.extended",
    "asset.retired",
    "asset.activated",
    "asset.gps",
    "asset.sold",
    "stock.created",
    "stock.updated",
    "stock.deleted",
    "stock.added",
    "stock.sold",
    "stock.transferred",
    "stock.checked_out",
    "stock.checked_in",
    "stock.extended",
    "stock.retired",
    "stock.activated",
    "stock.gps",
    "stock.threshold_crossed",
    "reservation.created",
    "reservation.approved",
    "reservation.denied",
    "reservation.fulfilled",
    "reservation.removed",
    "verification.requested",
    "verification.verified",
    "verification.cancelled",
    "service.started",
    "service.completed",
    "order.created",
    "order.updated",
    "order.deleted",
    "order.booked",
    "order.booking_cancelled",
    "order.rented_out",
    "order.returned",
    "order.completed",
    "order.sold",
    "order.cancelled",
    "order.voided",
    "payment.received",
    "payment.voided",
    "member.created",
    "member.updated",
    "member.deleted",
    "member.activated",
    "member.deactivated",
    "customer.created",
    "customer.updated",
    "customer.deleted",
    "customer.activated",
    "customer.deactivated",
    "contact.created",
    "contact.updated",
    "contact.deleted",
    "contact.activated",
    "contact.deactivated",
    "business.created",
    "business.updated",
    "business.deleted",
    "business.activated",
    "business.deactivated",
    "location.created",
    "location.updated",
    "location.deleted",
    "location.activated",
    "location.deactivated",
    "vendor.created",
    "vendor.updated",
    "vendor.deleted",
    "group.created",
    "group.updated",
    "group.deleted",
    "sub_group.created",
    "sub_group.updated",
    "sub_group.deleted",
    "address.created",
    "address.updated",
    "listing.created",
    "listing.updated",
    "listing.activated",
    "listing.deactivated",
    "coupon.created",
    "coupon.updated",
    "bundle.created",
    "custom_field.created",
    "custom_field.updated",
    "custom_field.deleted",
    "custom_tax.created",
    "group_tax.created",
    "payment_option.created",
    "custom_filter.created",
    "label_template.created",
    "custom_role.created",
    "custom_role.updated",
    "custom_role.deleted",
    "team.created",
    "team.updated",
    "team.deleted",
    "retire_reason.created",
    "retire_reason.updated",
    "retire_reason.deleted",
    "company_settings.updated",
    "webhook.test",
];

/// One of [`EVENT_TYPES`]: made only by [`EventType::parse`] or [`EventType::of`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct EventType(&'static str);

impl EventType {
    /// The event type named `raw`, if it is one.
    pub fn parse(raw: &str) -> Option<EventType> {
        EVENT_TYPES
            .iter()
            .find(|t| **t == raw)
            .map(|t| EventType(t))
    }

    /// The event type of `action` on a record of `resource`, if there is one.
    pub fn of(resource: &str, action: &str) -> Option<EventType> {
        EVENT_TYPES
            .iter()
            .find(|t| {
                t.split_once('.')
                    .is_some_and(|(r, a)| r == resource && a == action)
            })
            .map(|t| EventType(t))
    }

    pub fn as_str(self) -> &'static str {
        self.0
    }

    /// The resource part: `asset` of `asset.checked_out`.
    pub fn resource(self) -> &'static str {
        self.0.split_once('.').map_or(self.0, |(r, _)| r)
    }
}

/// At most this many entries in an endpoint's list of event types.
pub const MAX_SUBSCRIBED: usize = 100;

/// What an endpoint receives: every event, or those its list names (an event type, or
/// `<resource>.*` for every event of a resource).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Subscription {
    All,
    Only(Vec<Pattern>),
}

/// An entry of a subscription's list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pattern {
    Event(EventType),
    /// Every event of the resource (`asset.*`).
    Resource(&'static str),
}

/// Why a list of event types was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SubscriptionProblem {
    Empty,
    TooMany,
    /// The entries that name no event type, as sent.
    Unknown(Vec<String>),
}

impl Subscription {
    /// Reads a comma list of event types and `<resource>.*` entries, or `*`: spaces
    /// around entries and repeats are ignored; `*` anywhere means every event.
    pub fn parse(raw: &str) -> Result<Subscription, SubscriptionProblem> {
        // Spaces as Unicode and as Python's `\s` count them (the separators U+001C to
        // U+001F too, which a generator may draw for a schema's `\s`).
        let space = |c: char| c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c);
        let entries: Vec<&str> = raw
            .split(',')
            .map(|e| e.trim_matches(space))
            .filter(|e| !e.is_empty())
            .collect();
        if entries.is_empty() {
            return Err(SubscriptionProblem::Empty);
        }
        if entries.len() > MAX_SUBSCRIBED {
            return Err(SubscriptionProblem::TooMany);
        }
        if entries.contains(&"*") {
            return Ok(Subscription::All);
        }
        let mut patterns = Vec::new();
        let mut unknown = Vec::new();
        for entry in entries {
            let pattern = match entry.strip_suffix(".*") {
                Some(resource) => EVENT_TYPES
                    .iter()
                    .map(|t| EventType(t).resource())
                    .find(|r| *r == resource)
                    .map(Pattern::Resource),
                None => EventType::parse(entry).map(Pattern::Event),
            };
            match pattern {
                Some(p) if !patterns.contains(&p) => patterns.push(p),
                Some(_) => {}
                None => unknown.push(entry.to_owned()),
            }
        }
        if !unknown.is_empty() {
            return Err(SubscriptionProblem::Unknown(unknown));
        }
        Ok(Subscription::Only(patterns))
    }

    pub fn matches(&self, event: EventType) -> bool {
        match self {
            Subscription::All => true,
            Subscription::Only(patterns) => patterns.iter().any(|p| match p {
                Pattern::Event(e) => *e == event,
                Pattern::Resource(r) => *r == event.resource(),
            }),
        }
    }

    /// The subscription as stored and shown: `*`, or its entries joined by commas.
    pub fn to_text(&self) -> String {
        match self {
            Subscription::All => "*".to_owned(),
            Subscription::Only(patterns) => patterns
                .iter()
                .map(|p| match p {
                    Pattern::Event(e) => e.as_str().to_owned(),
                    Pattern::Resource(r) => format!("{r}.*"),
                })
                .collect::<Vec<_>>()
                .join(","),
        }
    }
}

/// The specification's schedule: the first attempt at once, then these waits after each
/// failed attempt; after the last one the delivery is given up.
pub const RETRY_SCHEDULE: [Duration; 7] = [
    Duration::from_secs(5),
    Duration::from_secs(5 * 60),
    Duration::from_secs(30 * 60),
    Duration::from_secs(2 * 3600),
    Duration::from_secs(5 * 3600),
    Duration::from_secs(10 * 3600),
    Duration::from_secs(10 * 3600),
];

/// The longest wait a receiver's `Retry-After` may ask for.
pub const MAX_RETRY_AFTER: Duration = Duration::from_secs(10 * 3600);

/// An endpoint failing for this long, without a success in between, is disabled.
pub const DISABLE_AFTER: Duration = Duration::from_secs(5 * 24 * 3600);

/// How long to wait after `attempts` failed attempts before the next one (`None`:
/// give up). A receiver's `Retry-After` (429, 503) replaces the schedule's wait,
/// bounded by [`MAX_RETRY_AFTER`] and at least a second.
pub fn next_wait(attempts: u32, retry_after: Option<Duration>) -> Option<Duration> {
    let index = usize::try_from(attempts.checked_sub(1)?).ok()?;
    let scheduled = *RETRY_SCHEDULE.get(index)?;
    Some(retry_after.map_or(scheduled, |asked| {
        asked.clamp(Duration::from_secs(1), MAX_RETRY_AFTER)
    }))
}

/// The prefix of a signing secret.
pub const SECRET_PREFIX: &str = "whsec_";

/// The key a secret (`whsec_` and base64) signs with: its decoded bytes.
pub fn secret_key(secret: &str) -> Option<Vec<u8>> {
    BASE64
        .decode(secret.strip_prefix(SECRET_PREFIX).unwrap_or(secret))
        .ok()
}

/// A secret of `bytes`: `whsec_` and their base64.
pub fn secret_text(bytes: &[u8]) -> String {
    format!("{SECRET_PREFIX}{}", BASE64.encode(bytes))
}

/// The signature of one message, `v1,<base64 of HMAC-SHA256 of "id.timestamp.body">`.
pub fn sign(key: &[u8], message_id: &str, timestamp: i64, body: &str) -> String {
    let mut mac = Hmac::<Sha256>::new_from_slice(key).expect("HMAC takes a key of any length");
    mac.update(message_id.as_bytes());
    mac.update(b".");
    mac.update(timestamp.to_string().as_bytes());
    mac.update(b".");
    mac.update(body.as_bytes());
    format!("v1,{}", BASE64.encode(mac.finalize().into_bytes()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signs_as_the_specification_example() {
        // The example of the specification's reference libraries.
        let key = secret_key("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw").unwrap();
        let body = r#"{"test": 2432232314}"#;
        assert_eq!(
            sign(&key, "msg_p5jXN8AQM9LWM0D4loKWxJek", 1614265330, body),
            "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE="
        );
    }

    #[test]
    fn subscriptions_read_lists_and_wildcards() {
        let s = Subscription::parse(" asset.checked_out, order.* ,asset.checked_out").unwrap();
        assert_eq!(s.to_text(), "asset.checked_out,order.*");
        assert!(s.matches(EventType::parse("order.voided").unwrap()));
        assert!(s.matches(EventType::parse("asset.checked_out").unwrap()));
        assert!(!s.matches(EventType::parse("asset.checked_in").unwrap()));
        assert_eq!(
            Subscription::parse("asset.created,*"),
            Ok(Subscription::All)
        );
        assert_eq!(Subscription::parse(" , "), Err(SubscriptionProblem::Empty));
        assert_eq!(
            Subscription::parse("asset.exploded,nothing.*,order.created"),
            Err(SubscriptionProblem::Unknown(vec![
                "asset.exploded".into(),
                "nothing.*".into()
            ]))
        );
        let many = vec!["asset.created"; MAX_SUBSCRIBED + 1].join(",");
        assert_eq!(
            Subscription::parse(&many),
            Err(SubscriptionProblem::TooMany)
        );
    }

    #[test]
    fn the_schedule_then_gives_up() {
        assert_eq!(next_wait(1, None), Some(Duration::from_secs(5)));
        assert_eq!(next_wait(2, None), Some(Duration::from_secs(300)));
        assert_eq!(next_wait(7, None), Some(Duration::from_secs(36_000)));
        assert_eq!(next_wait(8, None), None);
        assert_eq!(
            next_wait(1, Some(Duration::from_secs(120))),
            Some(Duration::from_secs(120))
        );
        assert_eq!(
            next_wait(1, Some(Duration::from_secs(10 * 86_400))),
            Some(MAX_RETRY_AFTER)
        );
        assert_eq!(next_wait(8, Some(Duration::from_secs(1))), None);
    }

    #[test]
    fn every_type_is_a_resource_and_an_action() {
        for t in EVENT_TYPES {
            let e = EventType::parse(t).unwrap();
            let (r, a) = t.split_once('.').unwrap();
            assert_eq!(EventType::of(r, a), Some(e));
        }
    }
}
