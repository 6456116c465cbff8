//! What the order endpoints read besides the shared formats of `crate::input`: an
//! order's discount, its item and bundle references, units, signed amounts, and the
//! moments built from a date and a time parameter.

use chrono::{DateTime, NaiveDate, NaiveTime, Utc};
use domain::Change;
use serde_json::{Value, json};
use std::collections::HashSet;

use crate::error::ApiError;
use crate::form::{MAX_LIST_ENTRIES, parse_id};
use crate::input::{Format, MOST_MONEY, Scalar, Shape, decimal};
use crate::params::Params;

/// An order discount: a percentage from 0 to 100 with at most two decimal places.
pub(super) struct Discount;

impl Scalar for Discount {
    type Value = domain::pricing::Percent;

    fn parse(raw: &str) -> Result<domain::pricing::Percent, String> {
        domain::pricing::Percent::parse(raw)
    }

    fn schema() -> Value {
        let text = json!({
            "type": "string",
            "pattern": r"^\s*0*(?:100(?:\.0+)?|\d{1,2}(?:\.\d{1,2}0*)?)\s*$",
            "description": "A percentage from 0 to 100, at most two decimal places (12.5)",
        });
        decimal(text, 0.0, 100.0, 0.01, false)
    }
}

/// An amount that may be below 0 (`-15.00` takes off), at most two decimal places, in
/// minor units.
pub(super) struct SignedAmount;

impl Scalar for SignedAmount {
    type Value = i64;

    fn parse(raw: &str) -> Result<i64, String> {
        let (negative, digits) = match raw.strip_prefix('-') {
            Some(rest) => (true, rest),
            None => (false, raw),
        };
        let minor = domain::money::Money::parse(digits)?.minor();
        Ok(if negative { -minor } else { minor })
    }

    fn schema() -> Value {
        let text = json!({
            "type": "string",
            "pattern": r"^\s*-?\d{1,12}(?:\.\d{1,2}0*)?\s*$",
            "description": "An amount such as 12.50, negative to take off (-15.00): at most two decimal places",
        });
        decimal(text, -MOST_MONEY, MOST_MONEY, 0.01, false)
    }
}

/// A payment's amount: above 0, at most two decimal places, in minor units.
pub(super) struct PaidAmount;

impl Scalar for PaidAmount {
    type Value = i64;

    fn parse(raw: &str) -> Result<i64, String> {
        match domain::money::Money::parse(raw)?.minor() {
            0 => Err("must be more than 0".to_owned()),
            minor => Ok(minor),
        }
    }

    fn schema() -> Value {
        let text = json!({
            "type": "string",
            "pattern": r"^\s*0*(?:[1-9]\d{0,11}(?:\.\d{1,2}0*)?|0\.(?:[1-9]\d?|0[1-9])0*)\s*$",
            "description": "An amount above 0 such as 25.00: at most two decimal places",
        });
        decimal(text, 0.0, MOST_MONEY, 0.01, true)
    }

    fn blank() -> String {
        "can't be blank: an amount such as 25.00".to_owned()
    }
}

/// Item numbers and bundle ids.
pub(super) type Named = (Vec<i64>, Vec<i64>);

/// The items of an order request (`asset_ids`): item numbers and bundles as
/// `<bundle id>-b`, a comma list or repeated `asset_ids[]`, at most
/// [`MAX_LIST_ENTRIES`], each named once. Sent empty is not sent.
pub(super) struct ItemRefs;

impl Format for ItemRefs {
    type Value = Named;
    const SHAPE: Shape = Shape::List;
    const EMPTY_IS_UNSENT: bool = true;

    fn read(params: &Params, path: &str) -> Option<Result<Named, String>> {
        let parts = match params.list(path, MAX_LIST_ENTRIES) {
            Ok(parts) if parts.is_empty() => return None,
            Ok(parts) => parts,
            Err(bad) => return Some(Err(bad.to_string())),
        };
        let (mut numbers, mut bundles) = (Vec::new(), Vec::new());
        let mut seen = HashSet::with_capacity(parts.len());
        let mut problems = Vec::new();
        for part in &parts {
            let (list, id, what, bundle) = match part.strip_suffix("-b") {
                Some(bundle) => (&mut bundles, bundle, "a bundle id", true),
                None => (&mut numbers, part.as_str(), "an item number", false),
            };
            match parse_id(id) {
                Some(n) if seen.insert((bundle, n)) => list.push(n),
                Some(_) => problems.push(format!("{part} is named twice")),
                None => problems.push(format!("{part:?} is not {what}")),
            }
        }
        Some(if problems.is_empty() {
            Ok((numbers, bundles))
        } else {
            Err(problems.join("; "))
        })
    }

    fn schema() -> Value {
        json!({
            "type": "array",
            // Written plainly, so items that differ are different records.
            "items": {"type": "string", "pattern": "^[1-9][0-9]{0,17}(-b)?$"},
            "maxItems": MAX_LIST_ENTRIES,
            "uniqueItems": true,
        })
    }

    fn blank() -> String {
        "can't be blank: a comma list of item numbers".to_owned()
    }
}

/// [`ItemRefs`] that must name one item or more (sent empty, they are not sent).
pub(super) struct SomeItemRefs;

impl Format for SomeItemRefs {
    type Value = Named;
    const SHAPE: Shape = Shape::List;
    const EMPTY_IS_UNSENT: bool = true;

    fn read(params: &Params, path: &str) -> Option<Result<Named, String>> {
        ItemRefs::read(params, path)
    }

    fn schema() -> Value {
        let mut schema = ItemRefs::schema();
        schema["minItems"] = 1.into();
        schema
    }

    fn blank() -> String {
        ItemRefs::blank()
    }
}

/// The end of a day given without a time.
pub(super) fn end_of_day() -> NaiveTime {
    NaiveTime::from_hms_opt(23, 59, 0).expect("valid")
}

/// The moment of `date` at `time` (else `default_time`) in the company's time zone:
/// not sent keeps, `null` clears.
pub(super) fn at(
    date: Change<NaiveDate>,
    time: Option<NaiveTime>,
    default_time: NaiveTime,
    tz: chrono_tz::Tz,
) -> Change<DateTime<Utc>> {
    match date {
        Change::Set(d) => Change::Set(moment(d, time, default_time, tz)),
        Change::Clear => Change::Clear,
        Change::Keep => Change::Keep,
    }
}

/// The moment of `date` at `time` (else `default_time`) in the company's time zone.
pub(super) fn moment(
    date: NaiveDate,
    time: Option<NaiveTime>,
    default_time: NaiveTime,
    tz: chrono_tz::Tz,
) -> DateTime<Utc> {
    domain::item::local_moment(date, Some(time.unwrap_or(default_time)), tz)
}

/// The moment of `date`, when given, at `time` (else `default_time`).
pub(super) fn set_at(
    date: Option<NaiveDate>,
    time: Option<NaiveTime>,
    default_time: NaiveTime,
    tz: chrono_tz::Tz,
) -> Option<DateTime<Utc>> {
    date.map(|d| moment(d, time, default_time, tz))
}

/// `a` and `b` read from two forms (an order's `basket[...]` fields and its top-level
/// parameters), or one 422 naming the problems of both.
pub(super) fn both<A, B>(
    a: Result<A, ApiError>,
    b: Result<B, ApiError>,
) -> Result<(A, B), ApiError> {
    match (a, b) {
        (Ok(a), Ok(b)) => Ok((a, b)),
        (Err(ApiError::Invalid(mut a)), Err(ApiError::Invalid(b))) => {
            for (field, problems) in b {
                a.entry(field).or_default().extend(problems);
            }
            Err(ApiError::Invalid(a))
        }
        (Err(e), _) | (_, Err(e)) => Err(e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn discounts_and_amounts_read_what_their_schemas_allow() {
        for good in ["0", "12.5", "33.33", "100", "100.00", "007.50"] {
            assert!(Discount::parse(good).is_ok(), "{good}");
        }
        for bad in ["100.01", "12.345", "-1", "ten"] {
            assert!(Discount::parse(bad).is_err(), "{bad}");
        }
        assert_eq!(SignedAmount::parse("-15.00"), Ok(-1500));
        assert_eq!(SignedAmount::parse("2.5"), Ok(250));
        assert!(SignedAmount::parse("--1").is_err());
        assert_eq!(PaidAmount::parse("0.05"), Ok(5));
        assert!(PaidAmount::parse("0.00").is_err());
    }
}
