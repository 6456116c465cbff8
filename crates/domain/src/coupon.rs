//! Pricing coupons: what a coupon is worth ([`ValueType`]: an amount of money or a
//! percentage, both with two decimal places and above zero) and the days it may be used
//! ([`Validity`]). How a coupon changes an order's totals is `pricing`'s.
//!
//! Both kinds of value are kept as hundredths: a flat 12.50 is 1250 minor units, 12.5 %
//! is 1250 hundredths of a percent, so the same stored number reads "12.50" either way.

use chrono::NaiveDate;

use crate::Vocabulary;
use crate::money::Money;
use crate::pricing::{CouponValue, MAX_AMOUNT, Percent};

/// Whether a coupon is an amount or a percentage.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ValueType {
    /// An amount of money.
    Flat,
    /// A percentage of the order's gross amount less its discount.
    Percent,
}

impl Vocabulary for ValueType {
    const ALL: &'static [Self] = &[ValueType::Flat, ValueType::Percent];

    fn as_str(self) -> &'static str {
        match self {
            ValueType::Flat => "flat",
            ValueType::Percent => "percent",
        }
    }
}

/// The problem of a value that is not above 0.
pub const ABOVE_ZERO: &str = "must be greater than 0";

impl ValueType {
    /// The kind of `value`.
    pub fn of(value: CouponValue) -> Self {
        match value {
            CouponValue::Flat(_) => ValueType::Flat,
            CouponValue::Percent(_) => ValueType::Percent,
        }
    }

    /// Reads a value of this kind: an amount (`12`, `12.5`, `12.50`, at most
    /// 1000000000000.00) or a percentage (above 0, at most 100), two places at most.
    pub fn parse_value(self, raw: &str) -> Result<CouponValue, String> {
        let value = match self {
            ValueType::Flat => CouponValue::Flat(Money::parse(raw)?),
            ValueType::Percent => CouponValue::Percent(Percent::parse(raw)?),
        };
        if hundredths(value) <= 0 {
            return Err(ABOVE_ZERO.into());
        }
        Ok(value)
    }

    /// The value of this kind stored as `hundredths` (minor units, or hundredths of a
    /// percent): what a coupon is worth when its kind changes and its number stays.
    pub fn value(self, hundredths: i64) -> Result<CouponValue, String> {
        if hundredths <= 0 {
            return Err(ABOVE_ZERO.into());
        }
        match self {
            ValueType::Flat if hundredths > MAX_AMOUNT => Err("is too large".into()),
            ValueType::Flat => Ok(CouponValue::Flat(Money::from_minor(hundredths))),
            ValueType::Percent => Percent::from_hundredths(hundredths).map(CouponValue::Percent),
        }
    }
}

/// The value in hundredths, as stored: minor units for an amount, hundredths of a
/// percent for a percentage.
pub fn hundredths(value: CouponValue) -> i64 {
    match value {
        CouponValue::Flat(m) => m.minor(),
        CouponValue::Percent(p) => p.hundredths(),
    }
}

/// The value as the API shows it, with two places: `"12.50"` for 12.50 and for 12.5 %.
pub fn to_fixed_string(value: CouponValue) -> String {
    match value {
        CouponValue::Flat(m) => m.to_decimal_string(),
        CouponValue::Percent(p) => p.to_fixed_string(),
    }
}

/// When a coupon may be used: while active, from `from` and until `until` (both days
/// included; either may be open).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Validity {
    pub active: bool,
    pub from: Option<NaiveDate>,
    pub until: Option<NaiveDate>,
}

impl Validity {
    /// The period's problem, if any: it may not end before it starts.
    pub fn check(from: Option<NaiveDate>, until: Option<NaiveDate>) -> Result<(), String> {
        match (from, until) {
            (Some(from), Some(until)) if until < from => Err(format!(
                "can't be before valid_from ({until} is before {from})"
            )),
            _ => Ok(()),
        }
    }

    /// True when the coupon may be used on `day`.
    pub fn covers(&self, day: NaiveDate) -> bool {
        self.active
            && self.from.is_none_or(|from| from <= day)
            && self.until.is_none_or(|until| day <= until)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vocabulary::assert_words_read_back;

    fn day(s: &str) -> NaiveDate {
        s.parse().unwrap()
    }

    #[test]
    fn words_read_back() {
        assert_words_read_back::<ValueType>();
        assert_eq!(ValueType::names(), "flat, percent");
    }

    #[test]
    fn values_are_above_zero_with_two_places() {
        let flat = |raw: &str| ValueType::Flat.parse_value(raw).map(to_fixed_string);
        let pct = |raw: &str| ValueType::Percent.parse_value(raw).map(to_fixed_string);
        assert_eq!(flat("12.5"), Ok("12.50".into()));
        assert_eq!(flat("1000000000000"), Ok("1000000000000.00".into()));
        assert_eq!(pct("12.5"), Ok("12.50".into()));
        assert_eq!(pct("100"), Ok("100.00".into()));
        assert_eq!(flat("0"), Err(ABOVE_ZERO.into()));
        assert_eq!(pct("0.00"), Err(ABOVE_ZERO.into()));
        assert!(flat("1.005").unwrap_err().contains("two decimal places"));
        assert!(flat("-1").unwrap_err().contains("negative"));
        assert!(flat("1000000000000.01").unwrap_err().contains("too large"));
        assert!(pct("100.01").unwrap_err().contains("from 0 to 100"));
        assert!(pct("ten").unwrap_err().contains("percentage"));
    }

    #[test]
    fn stored_hundredths_read_back_by_kind() {
        let v = ValueType::Percent.parse_value("12.5").unwrap();
        assert_eq!(hundredths(v), 1250);
        assert_eq!(ValueType::Percent.value(1250), Ok(v));
        assert_eq!(
            ValueType::Flat.value(1250),
            Ok(CouponValue::Flat(Money::from_minor(1250)))
        );
        assert_eq!(ValueType::of(v), ValueType::Percent);
        assert!(ValueType::Percent.value(15000).is_err(), "150 %");
        assert_eq!(
            ValueType::Flat.value(15000).map(to_fixed_string),
            Ok("150.00".into())
        );
        assert_eq!(ValueType::Flat.value(0), Err(ABOVE_ZERO.into()));
        assert!(ValueType::Flat.value(100_000_000_000_001).is_err());
    }

    #[test]
    fn validity_includes_both_days() {
        let v = Validity {
            active: true,
            from: Some(day("2026-03-01")),
            until: Some(day("2026-03-31")),
        };
        assert!(!v.covers(day("2026-02-28")));
        assert!(v.covers(day("2026-03-01")));
        assert!(v.covers(day("2026-03-31")));
        assert!(!v.covers(day("2026-04-01")));
        assert!(!Validity { active: false, ..v }.covers(day("2026-03-15")));
        let open = Validity {
            active: true,
            from: None,
            until: None,
        };
        assert!(open.covers(day("1999-01-01")));
        assert!(Validity::check(v.from, v.until).is_ok());
        assert!(Validity::check(v.from, v.from).is_ok(), "one day");
        assert!(Validity::check(v.until, v.from).is_err());
        assert!(Validity::check(None, v.from).is_ok());
    }
}
