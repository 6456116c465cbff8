//! JSON shapes shared by every resource: moments in the company's time zone,
//! pages wrapped in their plural name.

use chrono::{DateTime, Utc};
use chrono_tz::Tz;
use domain::{Page, PageSize};
use serde_json::{Map, Value, json};
use store::PageOf;

use crate::error::ApiError;
use crate::params::Params;

/// `YYYY-MM-DD HH:MM:SS` in the company's time zone.
pub fn moment(at: DateTime<Utc>, tz: Tz) -> String {
    at.with_timezone(&tz)
        .format("%Y-%m-%d %H:%M:%S")
        .to_string()
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
