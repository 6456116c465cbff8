//! JSON shapes shared by every resource: moments in the company's time zone, pages
//! wrapped in their plural name, one record wrapped in its singular, and the answer
//! they make, serialized straight from the records' typed views.

use axum::http::{HeaderValue, header};
use axum::response::{IntoResponse, Response};
use chrono::{DateTime, Datelike, NaiveDate, NaiveDateTime, Timelike, Utc};
use chrono_tz::Tz;
use domain::{Page, PageSize};
use serde::ser::{Error as _, Serialize, SerializeMap, Serializer};
use std::fmt;
use store::PageOf;

use crate::error::ApiError;
use crate::params::Params;

/// `YYYY-MM-DD HH:MM:SS` in the company's time zone: written straight into the answer
/// (or `to_string()` where text is needed).
pub fn moment(at: DateTime<Utc>, tz: Tz) -> Moment {
    Moment(at.with_timezone(&tz).naive_local())
}

pub struct Moment(NaiveDateTime);

/// A day as the contract writes it, `YYYY-MM-DD`, written straight into the answer:
/// chrono's own `Serialize` went through the formatter's padding and serde_json's
/// escaping of each piece (2% of an asset page's CPU for its two days a row).
pub struct Day(pub NaiveDate);

/// `YYYY-MM-DD` into the first ten bytes of `text`; `None` for a year outside 0 to 9999.
fn date_digits(day: &impl Datelike, text: &mut [u8]) -> Option<()> {
    let year = u32::try_from(day.year()).ok().filter(|y| *y <= 9999)?;
    put_digits(text, 0, 4, year);
    put_digits(text, 5, 2, day.month());
    put_digits(text, 8, 2, day.day());
    Some(())
}

/// `n` in decimal into `text[at..at + width]`, zero-padded (`n` has at most `width`
/// digits).
fn put_digits(text: &mut [u8], at: usize, width: usize, mut n: u32) {
    for i in (at..at + width).rev() {
        // Each digit is below 10, so the cast keeps it.
        text[i] = b'0' + (n % 10) as u8;
        n /= 10;
    }
}

impl Moment {
    /// The text, written digit by digit: chrono's `format` parses its pattern on every
    /// call, and `write!` of six numbers went through the formatter's padding and, in
    /// an answer, serde_json's escaping of each piece (two moments a row of every list
    /// page). `None` for a year outside 0 to 9999, which `Display` writes as chrono does.
    fn digits(&self) -> Option<[u8; 19]> {
        let at = &self.0;
        let mut text = *b"0000-00-00 00:00:00";
        date_digits(at, &mut text)?;
        put_digits(&mut text, 11, 2, at.hour());
        put_digits(&mut text, 14, 2, at.minute());
        put_digits(&mut text, 17, 2, at.second());
        Some(text)
    }
}

impl fmt::Display for Moment {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.digits() {
            // Only ASCII digits and separators are written.
            Some(text) => f.write_str(std::str::from_utf8(&text).map_err(|_| fmt::Error)?),
            None => write!(f, "{}", self.0.format("%Y-%m-%d %H:%M:%S")),
        }
    }
}

impl Serialize for Moment {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self.digits() {
            Some(text) => s.serialize_str(std::str::from_utf8(&text).map_err(S::Error::custom)?),
            None => s.collect_str(self),
        }
    }
}

/// A text schema of a pattern, for the OpenAPI document.
fn text_schema(
    pattern: &str,
    description: &str,
) -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
    utoipa::openapi::ObjectBuilder::new()
        .schema_type(utoipa::openapi::schema::Type::String)
        .pattern(Some(pattern))
        .description(Some(description))
        .into()
}

impl utoipa::PartialSchema for Moment {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        text_schema(
            r"^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$",
            "A moment in the company's time zone: YYYY-MM-DD HH:MM:SS",
        )
    }
}

impl utoipa::ToSchema for Moment {}

impl utoipa::PartialSchema for Day {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        text_schema(r"^\d{4}-\d{2}-\d{2}$", "A day: YYYY-MM-DD")
    }
}

impl utoipa::ToSchema for Day {}

impl Serialize for Day {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut text = *b"0000-00-00";
        match date_digits(&self.0, &mut text) {
            Some(()) => s.serialize_str(std::str::from_utf8(&text).map_err(S::Error::custom)?),
            // chrono's own text for other years (a sign, more digits).
            None => self.0.serialize(s),
        }
    }
}

/// An amount of money, 0 or more, as the contract writes it: a decimal string with two
/// places (`"3250.00"`), written straight from the minor units.
pub struct Amount(pub i64);

/// An amount that may be below 0 (`"-15.00"`): a custom entry or coupon that takes
/// off, a balance paid beyond the order's amount.
pub struct SignedAmount(pub i64);

impl Amount {
    pub fn of(m: domain::money::Money) -> Self {
        Amount(m.minor())
    }
}

/// `minor` as `[-]units.cents`.
fn write_amount<S: Serializer>(minor: i64, s: S) -> Result<S::Ok, S::Error> {
    // 20 digits of a u64, the point and the sign.
    let mut text = [0u8; 24];
    let mut at = text.len();
    let abs = minor.unsigned_abs();
    let (mut units, cents) = (abs / 100, abs % 100);
    for digit in [cents % 10, cents / 10] {
        at -= 1;
        // Each digit is below 10, so the cast keeps it.
        text[at] = b'0' + digit as u8;
    }
    at -= 1;
    text[at] = b'.';
    loop {
        at -= 1;
        text[at] = b'0' + (units % 10) as u8;
        units /= 10;
        if units == 0 {
            break;
        }
    }
    if minor < 0 {
        at -= 1;
        text[at] = b'-';
    }
    s.serialize_str(std::str::from_utf8(&text[at..]).map_err(S::Error::custom)?)
}

impl Serialize for Amount {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        write_amount(self.0, s)
    }
}

impl Serialize for SignedAmount {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        write_amount(self.0, s)
    }
}

impl utoipa::PartialSchema for Amount {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        text_schema(
            r"^[0-9]+\.[0-9]{2}$",
            "An amount of money, 0 or more, in the company's currency: a decimal string with two places (3250.00)",
        )
    }
}

impl utoipa::ToSchema for Amount {}

impl utoipa::PartialSchema for SignedAmount {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        text_schema(
            r"^-?[0-9]+\.[0-9]{2}$",
            "An amount of money that may be below 0, in the company's currency: a decimal string with two places (-15.00)",
        )
    }
}

impl utoipa::ToSchema for SignedAmount {}

/// An optional day, as `Day` writes it.
pub fn day(day: Option<NaiveDate>) -> Option<Day> {
    day.map(Day)
}

/// The `page` parameter: a whole number from 1, default 1.
pub fn page(params: &Params, size: PageSize) -> Result<Page, ApiError> {
    match params.get("page") {
        None => Ok(Page::new(1, size)),
        Some(raw) => match raw.parse::<u32>() {
            Ok(n) if n >= 1 => Ok(Page::new(n, size)),
            _ => Err(ApiError::field("page", "must be a whole number from 1")),
        },
    }
}

/// A JSON answer, serialized as it is built: `paged` and `one` write records straight
/// from their typed views, with no `serde_json::Value` tree in between.
pub struct Reply(Result<Vec<u8>, serde_json::Error>);

impl Reply {
    pub fn of(body: &impl Serialize) -> Self {
        Self::sized(body, 512)
    }

    /// The answer written into a buffer of `capacity` bytes to start with.
    fn sized(body: &impl Serialize, capacity: usize) -> Self {
        let mut out = Vec::with_capacity(capacity);
        Reply(crate::json::write(&mut out, body).map(|()| out))
    }
}

impl IntoResponse for Reply {
    fn into_response(self) -> Response {
        match self.0 {
            Ok(bytes) => (
                [(
                    header::CONTENT_TYPE,
                    HeaderValue::from_static("application/json"),
                )],
                bytes,
            )
                .into_response(),
            Err(e) => ApiError::Internal(format!("rendering the answer: {e}")).into_response(),
        }
    }
}

/// `{"<plural>": [...], "total_pages": n, "current_page": p}`.
pub fn paged<'a, T, R: Serialize>(
    plural: &str,
    page: Page,
    records: &'a PageOf<T>,
    render: impl Fn(&'a T) -> R,
) -> Reply {
    struct Body<'p, 'a, T, F> {
        plural: &'p str,
        records: &'a [T],
        render: F,
        total_pages: u64,
        current_page: u32,
    }
    impl<'a, T, R: Serialize, F: Fn(&'a T) -> R> Serialize for Body<'_, 'a, T, F> {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            let mut map = s.serialize_map(Some(3))?;
            map.serialize_entry(self.plural, &Each(self.records, &self.render))?;
            map.serialize_entry("total_pages", &self.total_pages)?;
            map.serialize_entry("current_page", &self.current_page)?;
            map.end()
        }
    }
    struct Each<'a, 'f, T, F>(&'a [T], &'f F);
    impl<'a, T, R: Serialize, F: Fn(&'a T) -> R> Serialize for Each<'a, '_, T, F> {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            s.collect_seq(self.0.iter().map(self.1))
        }
    }
    Reply::sized(
        &Body {
            plural,
            records: &records.records,
            render,
            total_pages: page.total_pages(records.total),
            current_page: page.number,
        },
        256 + records.records.len() * 1024,
    )
}

/// `{"<singular>": {...}}`.
pub fn one(singular: &str, record: impl Serialize) -> Reply {
    Reply::of(&named(singular, record))
}

/// `{"<key>": value}` inside another answer (list entries wrapped in their singular).
pub fn named<R: Serialize>(key: &str, value: R) -> Named<'_, R> {
    Named(key, value)
}

pub struct Named<'a, R>(&'a str, R);

impl<R: Serialize> Serialize for Named<'_, R> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(1))?;
        map.serialize_entry(self.0, &self.1)?;
        map.end()
    }
}

/// A record's JSON object written entry by entry, for views with optional or dynamic
/// keys. It remembers the keys written so that custom fields shown as top-level keys
/// never repeat one (the record's own key wins).
pub struct Object<M> {
    map: M,
    keys: Vec<&'static str>,
}

impl<M: SerializeMap> Object<M> {
    pub fn start<S: Serializer<SerializeMap = M>>(s: S) -> Result<Self, S::Error> {
        Ok(Object {
            map: s.serialize_map(None)?,
            keys: Vec::with_capacity(48),
        })
    }

    pub fn entry<V: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &V,
    ) -> Result<(), M::Error> {
        self.keys.push(key);
        self.map
            .serialize_entry(&crate::json::StaticKey(key), value)
    }

    /// An entry whose key comes from data (a custom field's name): written only if the
    /// object has no such key yet.
    pub fn extra<V: Serialize + ?Sized>(&mut self, key: &str, value: &V) -> Result<(), M::Error> {
        if self.keys.contains(&key) {
            return Ok(());
        }
        self.map.serialize_entry(key, value)
    }

    pub fn end(self) -> Result<M::Ok, M::Error> {
        self.map.end()
    }
}

/// A boolean query flag such as `include_custom_fields`; a bad value is a 422.
pub fn flag(params: &Params, name: &str) -> Result<bool, ApiError> {
    match params.get(name) {
        None => Ok(false),
        Some(raw) => domain::wire::parse_bool(raw)
            .ok_or_else(|| ApiError::field(name, "must be true or false")),
    }
}

#[cfg(test)]
mod tests {
    use super::{Object, moment};
    use chrono::{DateTime, TimeZone, Utc};
    use serde::ser::{Serialize, Serializer};

    #[test]
    fn keys_from_data_never_repeat_the_records_own() {
        struct Record;
        impl Serialize for Record {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                let mut o = Object::start(s)?;
                o.entry("name", "the record's")?;
                o.extra("name", "a custom field's")?;
                o.extra("colour", "red")?;
                o.end()
            }
        }
        assert_eq!(
            serde_json::to_string(&Record).unwrap(),
            r#"{"name":"the record's","colour":"red"}"#
        );
        // The same through a `Value`, as `json!` embeds a view in another answer.
        assert_eq!(
            serde_json::to_value(&Record).unwrap(),
            serde_json::json!({"name": "the record's", "colour": "red"})
        );
    }

    #[test]
    fn moments_read_as_chrono_formats_them() {
        for (at, tz) in [
            ("2026-01-05T03:04:05.999Z", chrono_tz::UTC),
            ("2026-03-29T00:59:59Z", chrono_tz::Europe::Berlin),
            ("2026-03-29T01:00:00Z", chrono_tz::Europe::Berlin),
            ("2026-12-31T23:30:00Z", chrono_tz::Asia::Kolkata),
            ("0999-07-01T12:00:00Z", chrono_tz::America::New_York),
        ] {
            let at: DateTime<Utc> = at.parse().unwrap();
            assert_written_as_chrono_writes(at, tz);
        }
        // Years outside 0 to 9999 take chrono's own path (a sign, more digits).
        for year in [12_000, -44] {
            assert_written_as_chrono_writes(
                Utc.with_ymd_and_hms(year, 3, 15, 12, 0, 0).unwrap(),
                chrono_tz::UTC,
            );
        }
    }

    #[test]
    fn days_read_as_chrono_writes_them() {
        for (y, m, d) in [
            (2026, 1, 5),
            (999, 12, 31),
            (9999, 2, 28),
            (0, 1, 1),
            (12_000, 3, 15),
            (-44, 3, 15),
        ] {
            let day = chrono::NaiveDate::from_ymd_opt(y, m, d).unwrap();
            assert_eq!(
                serde_json::to_string(&super::Day(day)).unwrap(),
                serde_json::to_string(&day).unwrap()
            );
        }
    }

    fn assert_written_as_chrono_writes(at: DateTime<Utc>, tz: chrono_tz::Tz) {
        let expected = at
            .with_timezone(&tz)
            .format("%Y-%m-%d %H:%M:%S")
            .to_string();
        assert_eq!(moment(at, tz).to_string(), expected);
        assert_eq!(
            serde_json::to_string(&moment(at, tz)).unwrap(),
            format!("\"{expected}\"")
        );
    }
}
