//! JSON shapes shared by every resource: moments in the company's time zone,
//! pages wrapped in their plural name.

use chrono::{DateTime, Datelike, Timelike, Utc};
use chrono_tz::Tz;
use domain::{Page, PageSize};
use serde_json::{Map, Value, json};
use store::PageOf;

use crate::error::ApiError;
use crate::params::Params;

/// `YYYY-MM-DD HH:MM:SS` in the company's time zone.
pub fn moment(at: DateTime<Utc>, tz: Tz) -> String {
    // Written field by field: chrono's `format` parses its pattern on every call, which
    // showed in the profile of list pages (two moments a row).
    let local = at.with_timezone(&tz);
    format!(
        "{:04}-{:02}-{:02} {:02}:{:02}:{:02}",
        local.year(),
        local.month(),
        local.day(),
        local.hour(),
        local.minute(),
        local.second()
    )
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

/// `{"<plural>": [...], "total_pages": n, "current_page": p}`.
pub fn paged<T>(
    plural: &str,
    page: Page,
    records: PageOf<T>,
    render: impl Fn(&T) -> Value,
) -> Value {
    let mut body = Map::new();
    body.insert(
        plural.to_owned(),
        Value::Array(records.records.iter().map(render).collect()),
    );
    body.insert("total_pages".into(), json!(page.total_pages(records.total)));
    body.insert("current_page".into(), json!(page.number));
    Value::Object(body)
}

/// `{"<singular>": {...}}`.
pub fn one(singular: &str, record: Value) -> Value {
    let mut body = Map::new();
    body.insert(singular.to_owned(), record);
    Value::Object(body)
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
    use super::moment;
    use chrono::{DateTime, Utc};

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
            let expected = at
                .with_timezone(&tz)
                .format("%Y-%m-%d %H:%M:%S")
                .to_string();
            assert_eq!(moment(at, tz), expected);
        }
    }
}
