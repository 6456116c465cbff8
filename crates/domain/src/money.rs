//! Money: exact decimal amounts, stored as integer minor units (cents) and written as
//! decimal strings with two places (`"3250.00"`). Never a float.

use rust_decimal::Decimal;
use std::str::FromStr;

/// An amount of at least zero, in minor units.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Money(i64);

/// The largest amount accepted: a trillion, well inside `i64` minor units.
const MAX_UNITS: i64 = 100_000_000_000_000;

impl Money {
    pub fn from_minor(units: i64) -> Self {
        Money(units)
    }

    pub fn minor(self) -> i64 {
        self.0
    }

    /// A non-negative amount with at most two decimal places: `12`, `12.5`, `12.50`.
    pub fn parse(raw: &str) -> Result<Self, String> {
        let d = Decimal::from_str(raw.trim())
            .map_err(|_| "must be an amount such as 12.50".to_owned())?;
        if d.is_sign_negative() && !d.is_zero() {
            return Err("can't be negative".into());
        }
        if d.normalize().scale() > 2 {
            return Err("can't have more than two decimal places".into());
        }
        let units = (d * Decimal::from(100))
            .trunc()
            .to_string()
            .parse::<i64>()
            .ok()
            .filter(|u| *u <= MAX_UNITS)
            .ok_or_else(|| "is too large".to_owned())?;
        Ok(Money(units))
    }

    /// `"3250.00"`.
    pub fn to_decimal_string(self) -> String {
        format!("{}.{:02}", self.0 / 100, self.0 % 100)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn amounts_are_exact() {
        assert_eq!(Money::parse("12").unwrap().minor(), 1200);
        assert_eq!(Money::parse("12.5").unwrap().minor(), 1250);
        assert_eq!(Money::parse(" 0.07 ").unwrap().minor(), 7);
        assert_eq!(Money::parse("0.1").unwrap().to_decimal_string(), "0.10");
        assert_eq!(Money::from_minor(325000).to_decimal_string(), "3250.00");
        assert_eq!(Money::parse("12.500").unwrap().minor(), 1250);
    }

    #[test]
    fn bad_amounts_say_why() {
        assert!(Money::parse("-1").unwrap_err().contains("negative"));
        assert!(Money::parse("1.005").unwrap_err().contains("two decimal"));
        assert!(Money::parse("abc").unwrap_err().contains("amount"));
        assert!(Money::parse("1e30").is_err());
        assert!(
            Money::parse("99999999999999999999")
                .unwrap_err()
                .contains("large")
        );
    }
}
