//! Pricing of rental orders: what one line's rental costs, what a late return adds, and
//! an order's totals. Money is integer minor units (cents, [`Money`]); percentages and
//! tax rates are exact decimals. Nothing here is a float, and every figure is kept
//! within [`MAX_AMOUNT`] (a trillion, Money's own limit): a sum beyond it is an error
//! ([`PricingError::TooLarge`]), never a silent overflow; or, when pricing an order
//! already stored only to show it, that figure clamped to ±[`MAX_AMOUNT`] and said so
//! ([`Ceiling`]).
//!
//! # Rental charge of one line
//!
//! - **Billed minutes.** The time from the start to the end, rounded *up* to a whole
//!   minute (any part of a minute is a started minute), plus one minute when the company
//!   counts the return minute ("inclusive return", on by default). The end must come
//!   after the start; an end at or before the start is [`PricingError::EmptyPeriod`],
//!   whatever the setting. 06:00 to 06:00 the next day is 1441 minutes inclusive, 1440
//!   not.
//! - **Units.** Minute (1 minute), hour (60), day (1440), week (7 days), month (30 days).
//!   An item has a rate for some of them ([`Rates`]); an item with none cannot be priced
//!   ([`PricingError::NoRate`]). A rate of 0.00 is a rate: that unit is free.
//! - **Standard split.** Among the units the item has a rate for, largest first, take as
//!   many whole units as fit; if time remains after the smallest of them, add one more of
//!   that smallest unit. The charge is the sum of count × rate. Six days and an hour at a
//!   daily and a weekly rate is seven days, not a week: the split never promotes.
//! - **Best pricing** (a company setting, off by default). The charge is the cheapest of
//!   the standard split and, for each unit the item has a rate for, that unit alone:
//!   started units × rate. On a tie the standard split stands; between units alone, the
//!   larger unit. [`RentalCharge::best_pricing`] tells whether a unit alone won.
//! - **Quantity.** A line of several units of stock costs the charge × quantity
//!   ([`RentalCharge::times`]).
//!
//! # Late fee of one line
//!
//! Late minutes run from the due moment to the return, rounded up to a started minute
//! (no inclusive minute); none, or a return before the due moment, is no fee. A fee per
//! minute, hour, day, week or month is started units × amount × quantity; a flat fee is
//! amount × quantity, once, if the return is late at all.
//!
//! # Order totals
//!
//! Amounts are rounded half away from zero to the cent at the three steps that multiply
//! by a percentage (each line's discount, each percentage coupon, each tax) and nowhere
//! else:
//!
//! 1. gross = the sum of the lines' rental and sale amounts (late fees apart);
//! 2. discount = the sum, line by line, of round(line × order discount %);
//! 3. coupons, in order, each on gross − discount (never on each other): a flat coupon is
//!    its amount, a percentage one round((gross − discount) × %); a discount subtracts, a
//!    surcharge adds. Discount coupons together never take more than gross − discount: the
//!    coupon that would reaches that floor and the ones after it take nothing;
//! 4. late fees = the sum of the lines' late fees;
//! 5. custom entries = the sum of their signed amounts;
//! 6. taxable base = gross − discount + coupons + damages + late fees + the custom entries
//!    that are not tax-free; a negative base is taxed as 0;
//! 7. each tax = round(base × rate %), 0 for every tax when the customer is tax-free (each
//!    still listed, with its base); a group tax is one tax whose rate is the sum of its
//!    components';
//! 8. net = gross − discount + coupons + damages + late fees + custom entries + taxes;
//!    negative custom entries can make it negative;
//! 9. balance due = net − amount paid, negative when the customer paid more.
//!
//! # Worked examples
//!
//! **A split.** Daily 10.00, weekly 50.00, from 1 March 08:00 to 10 March 16:00, inclusive
//! return, no best pricing: 9 d 8 h + 1 min = 13441 minutes = 1 week + 2 days + 8 h 1 min
//! left, which takes one more day: 1 week + 3 days = 50.00 + 30.00 = **80.00**.
//!
//! **Best pricing.** Daily 10.00, monthly 200.00, 21 days, return not inclusive: the split
//! is 21 days = 210.00; a month alone (30 days) covers it for 200.00; with best pricing
//! on the charge is **200.00** (without it, 210.00).
//!
//! **Totals.** A rental line of 80.00 returned late (late fee 6.00) and a sale line of
//! 25.00; order discount 10 %; a flat 5.00 discount coupon and a 10 % surcharge coupon;
//! damages 20.00; custom entries "Delivery" +15.00 and "Goodwill" −3.00 (tax-free);
//! taxes 6.25 % and a county group of 1.50 % + 0.75 % = 2.25 %; 100.00 paid.
//!
//! | figure | computation | amount |
//! |---|---|---|
//! | gross | 80.00 + 25.00 | 105.00 |
//! | discount | 8.00 + 2.50 | 10.50 |
//! | coupons | −5.00 + round((105.00 − 10.50) × 10 %) = −5.00 + 9.45 | 4.45 |
//! | damages | | 20.00 |
//! | late fees | | 6.00 |
//! | custom entries | 15.00 − 3.00 | 12.00 |
//! | taxable base | 94.50 + 4.45 + 20.00 + 6.00 + 15.00 | 139.95 |
//! | taxes | 139.95 × 6.25 % = 8.746875 → 8.75, 139.95 × 2.25 % = 3.148875 → 3.15 | 11.90 |
//! | net | 94.50 + 4.45 + 20.00 + 6.00 + 12.00 + 11.90 | 148.85 |
//! | balance due | 148.85 − 100.00 | 48.85 |

mod late_fee;
mod rental;
mod totals;

pub use late_fee::{LateCharge, LateFee, LateFeeKind, late_minutes};
pub use rental::{
    Part, RateUnit, Rates, RentalCharge, RentalSettings, billed_minutes, rental_charge,
    rental_charge_within,
};
pub use totals::{
    Basket, Coupon, CouponEffect, CouponTotal, CouponValue, CustomEntry, Line, LineKind, LineTotal,
    Tax, TaxTotal, Totals,
};

use chrono::{DateTime, Utc};
use rust_decimal::{Decimal, RoundingStrategy};
use std::cell::Cell;
use std::fmt;
use std::str::FromStr;

use crate::money::Money;

/// The largest figure, in minor units, any price, fee or total may reach (either sign):
/// a trillion, the limit [`Money::parse`] accepts.
pub const MAX_AMOUNT: i64 = 100_000_000_000_000;

/// Why a price cannot be worked out. The caller answers 422.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum PricingError {
    /// The item has no rental rate for any unit.
    #[error("has no rental rate")]
    NoRate,
    /// A rental period whose end is not after its start.
    #[error("must end after it starts")]
    EmptyPeriod,
    /// A figure would pass [`MAX_AMOUNT`].
    #[error("comes to more than 1000000000000.00, the largest amount accepted")]
    TooLarge,
    /// A [`Money`] given was below zero (only `Money::from_minor` can make one).
    #[error("has a negative amount where none may be")]
    NegativeAmount,
}

/// A percentage from 0 to 100 with at most two decimal places: an order discount or a
/// percentage coupon.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Percent(Decimal);

impl Percent {
    /// No percent.
    pub const ZERO: Percent = Percent(Decimal::ZERO);

    /// Reads `12`, `12.5`, `33.33`, ` 7.50 `.
    pub fn parse(raw: &str) -> Result<Self, String> {
        let value = Decimal::from_str(raw.trim())
            .map_err(|_| format!("must be a percentage such as 12.5, not {raw:?}"))?;
        Self::new(value)
    }

    /// `value` if it is from 0 to 100 with at most two decimal places.
    pub fn new(value: Decimal) -> Result<Self, String> {
        let value = value.normalize();
        if value < Decimal::ZERO || value > Decimal::ONE_HUNDRED {
            Err(format!("must be a percentage from 0 to 100, not {value}"))
        } else if value.scale() > 2 {
            Err(format!(
                "can't have more than two decimal places, as {value} has"
            ))
        } else {
            Ok(Percent(value))
        }
    }

    /// The percentage: 12.5 means 12.5 %.
    pub fn get(self) -> Decimal {
        self.0
    }

    /// In hundredths of a percent (12.5 % is 1250), as stored.
    pub fn hundredths(self) -> i64 {
        let scaled = (self.0 * Decimal::ONE_HUNDRED).trunc();
        i64::try_from(scaled).unwrap_or(0)
    }

    /// From hundredths of a percent, 0 to 10000.
    pub fn from_hundredths(h: i64) -> Result<Self, String> {
        Self::new(Decimal::new(h, 2))
    }

    /// With two places, as the API shows it: `12.50`.
    pub fn to_fixed_string(self) -> String {
        let h = self.hundredths();
        format!("{}.{:02}", h / 100, h % 100)
    }
}

impl fmt::Display for Percent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

/// A tax rate in percent, at least 0: 8.25 means 8.25 %. A group tax's rate is the sum
/// of its components' rates.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct TaxRate(Decimal);

impl TaxRate {
    /// Reads `8.25`, `6`, ` 8.875 `.
    pub fn parse(raw: &str) -> Result<Self, String> {
        let value = Decimal::from_str(raw.trim())
            .map_err(|_| format!("must be a tax rate in percent such as 8.25, not {raw:?}"))?;
        Self::new(value)
    }

    /// `value` if it is not negative.
    pub fn new(value: Decimal) -> Result<Self, String> {
        let value = value.normalize();
        if value < Decimal::ZERO {
            Err(format!("can't be negative, as {value} is"))
        } else {
            Ok(TaxRate(value))
        }
    }

    /// From parts per million of the amount, as custom taxes keep it: 88750 is 8.875 %.
    pub fn from_ppm(ppm: i64) -> Result<Self, String> {
        Self::new(Decimal::new(ppm, 4))
    }

    /// The rate in percent.
    pub fn get(self) -> Decimal {
        self.0
    }
}

impl fmt::Display for TaxRate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

/// What pricing does with a figure beyond [`MAX_AMOUNT`], and whether it had to.
///
/// A write that prices an order refuses such a figure ([`Ceiling::refuse`]:
/// [`PricingError::TooLarge`]), so nothing new is priced past the ceiling. A read of an
/// order already stored shows it instead ([`Ceiling::clamp`]): each figure beyond the
/// ceiling becomes ±[`MAX_AMOUNT`], and [`Ceiling::clamped`] then answers true. The
/// sums are worked out exactly and clamped only where they become a figure, so a
/// clamped order shows what fits of it: every figure within the ceiling is exact.
#[derive(Debug, Default)]
pub struct Ceiling {
    clamp: bool,
    clamped: Cell<bool>,
}

/// What a percentage of an amount that no `Decimal` holds comes to when clamping:
/// beyond every exact figure (a `Decimal` is below 8 × 10^28), and far enough inside
/// `i128` that sums of such figures do not overflow it.
const SATURATED: i128 = 10i128.pow(29);

impl Ceiling {
    /// Refuse a figure beyond the ceiling: [`PricingError::TooLarge`].
    pub fn refuse() -> Self {
        Ceiling::default()
    }

    /// Clamp a figure beyond the ceiling to ±[`MAX_AMOUNT`].
    pub fn clamp() -> Self {
        Ceiling {
            clamp: true,
            clamped: Cell::new(false),
        }
    }

    /// Whether a figure was clamped so far.
    pub fn clamped(&self) -> bool {
        self.clamped.get()
    }

    /// A figure beyond the ceiling: refused, or `at` (the ceiling with its sign).
    fn beyond(&self, at: i128) -> Result<i128, PricingError> {
        if self.clamp {
            self.clamped.set(true);
            Ok(at)
        } else {
            Err(PricingError::TooLarge)
        }
    }

    /// `amount × percent / 100`, rounded half away from zero to a whole minor unit; a
    /// result no `Decimal` holds is refused, or [`SATURATED`] with its sign (which
    /// clamps wherever it becomes a figure).
    fn percent_of(&self, amount: i128, percent: Decimal) -> Result<i128, PricingError> {
        let exact = Decimal::try_from_i128_with_scale(amount, 0)
            .ok()
            .and_then(|a| a.checked_mul(percent))
            .and_then(|v| v.checked_div(Decimal::ONE_HUNDRED));
        match exact {
            Some(exact) => {
                let rounded =
                    exact.round_dp_with_strategy(0, RoundingStrategy::MidpointAwayFromZero);
                i128::try_from(rounded).map_err(|_| PricingError::TooLarge)
            }
            None if self.clamp => Ok(SATURATED * amount.signum()),
            None => Err(PricingError::TooLarge),
        }
    }

    /// A `Money` given to a rule, checked to be at least 0 and within [`MAX_AMOUNT`].
    fn units(&self, amount: Money) -> Result<i128, PricingError> {
        match amount.minor() {
            m if m < 0 => Err(PricingError::NegativeAmount),
            m if m > MAX_AMOUNT => self.beyond(i128::from(MAX_AMOUNT)),
            m => Ok(i128::from(m)),
        }
    }

    /// A figure that is never negative, as `Money`.
    fn money(&self, units: i128) -> Result<Money, PricingError> {
        if units < 0 {
            Err(PricingError::NegativeAmount)
        } else {
            self.signed(units).map(Money::from_minor)
        }
    }

    /// A signed figure, within ±[`MAX_AMOUNT`].
    fn signed(&self, units: i128) -> Result<i64, PricingError> {
        let max = i128::from(MAX_AMOUNT);
        let within = if (-max..=max).contains(&units) {
            units
        } else {
            self.beyond(max * units.signum())?
        };
        i64::try_from(within).map_err(|_| PricingError::TooLarge)
    }
}

/// `amount × percent / 100`, rounded half away from zero to a whole minor unit.
#[cfg(test)]
fn percent_of(amount: i128, percent: Decimal) -> Result<i128, PricingError> {
    Ceiling::refuse().percent_of(amount, percent)
}

/// A `Money` given to a rule, checked to be within 0 and [`MAX_AMOUNT`].
fn units(amount: Money) -> Result<i128, PricingError> {
    Ceiling::refuse().units(amount)
}

/// A figure that is never negative, as `Money`.
fn money(units: i128) -> Result<Money, PricingError> {
    Ceiling::refuse().money(units)
}

/// A signed figure, within ±[`MAX_AMOUNT`].
#[cfg(test)]
fn signed(units: i128) -> Result<i64, PricingError> {
    Ceiling::refuse().signed(units)
}

/// Whole minutes from `from` to `to`, any part of a minute counting as one; 0 when `to`
/// is not after `from`.
fn started_minutes(from: DateTime<Utc>, to: DateTime<Utc>) -> i64 {
    if to <= from {
        return 0;
    }
    let span = to - from;
    let seconds = span.num_seconds();
    let part = seconds % 60 > 0 || span.subsec_nanos() > 0;
    seconds / 60 + i64::from(part)
}

/// Started units of `unit_minutes` in `minutes` (both positive): `ceil(minutes / unit)`.
fn started_units(minutes: i64, unit_minutes: i64) -> i64 {
    minutes / unit_minutes + i64::from(minutes % unit_minutes > 0)
}

#[cfg(test)]
mod percent_tests {
    use super::Percent;

    #[test]
    fn hundredths_round_trip() {
        let p = Percent::parse("12.5").unwrap();
        assert_eq!(p.hundredths(), 1250);
        assert_eq!(Percent::from_hundredths(1250), Ok(p));
        assert_eq!(p.to_fixed_string(), "12.50");
        assert_eq!(Percent::parse("100").unwrap().to_fixed_string(), "100.00");
        assert!(Percent::from_hundredths(10001).is_err());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_limit_is_moneys() {
        let max = Money::from_minor(MAX_AMOUNT).to_decimal_string();
        assert_eq!(max, "1000000000000.00");
        assert_eq!(Money::parse(&max), Ok(Money::from_minor(MAX_AMOUNT)));
        assert!(Money::parse("1000000000000.01").is_err());
        assert!(PricingError::TooLarge.to_string().contains(&max));
    }

    #[test]
    fn percentages_are_0_to_100_with_two_places() {
        let p = |raw: &str| Percent::parse(raw).map(|p| p.get().to_string());
        assert_eq!(p("12"), Ok("12".into()));
        assert_eq!(p(" 33.33 "), Ok("33.33".into()));
        assert_eq!(p("12.500"), Ok("12.5".into()));
        assert_eq!(p("0"), Ok("0".into()));
        assert_eq!(p("-0"), Ok("0".into()));
        assert_eq!(p("100"), Ok("100".into()));
        assert!(p("100.01").unwrap_err().contains("from 0 to 100"));
        assert!(p("-1").unwrap_err().contains("from 0 to 100"));
        assert!(p("12.345").unwrap_err().contains("two decimal places"));
        assert!(p("ten").unwrap_err().contains("such as 12.5"));
        assert!(p("").is_err());
        assert_eq!(Percent::ZERO.to_string(), "0");
    }

    #[test]
    fn tax_rates_are_not_negative() {
        assert_eq!(
            TaxRate::parse(" 8.875 ").map(|r| r.to_string()),
            Ok("8.875".into())
        );
        assert_eq!(TaxRate::parse("0").map(TaxRate::get), Ok(Decimal::ZERO));
        assert!(TaxRate::parse("-0.5").unwrap_err().contains("negative"));
        assert!(TaxRate::parse("8,25").unwrap_err().contains("such as 8.25"));
        assert_eq!(TaxRate::from_ppm(88_750), TaxRate::parse("8.875"));
        assert_eq!(
            TaxRate::from_ppm(100_000).map(|r| r.to_string()),
            Ok("10".into())
        );
        assert!(TaxRate::from_ppm(-1).is_err());
    }

    #[test]
    fn percentages_round_half_away_from_zero() {
        let pct = |s: &str| Decimal::from_str(s).unwrap();
        assert_eq!(percent_of(1000, pct("33.33")), Ok(333)); // 333.3
        assert_eq!(percent_of(20, pct("12.5")), Ok(3)); // 2.5
        assert_eq!(percent_of(-20, pct("12.5")), Ok(-3)); // -2.5
        assert_eq!(percent_of(13995, pct("6.25")), Ok(875)); // 874.6875
        assert_eq!(percent_of(0, pct("100")), Ok(0));
    }

    #[test]
    fn figures_stay_within_the_limit() {
        assert_eq!(
            money(i128::from(MAX_AMOUNT)),
            Ok(Money::from_minor(MAX_AMOUNT))
        );
        assert_eq!(
            money(i128::from(MAX_AMOUNT) + 1),
            Err(PricingError::TooLarge)
        );
        assert_eq!(money(-1), Err(PricingError::NegativeAmount));
        assert_eq!(signed(-i128::from(MAX_AMOUNT)), Ok(-MAX_AMOUNT));
        assert_eq!(signed(i128::MIN), Err(PricingError::TooLarge));
        assert_eq!(
            units(Money::from_minor(-1)),
            Err(PricingError::NegativeAmount)
        );
        assert_eq!(
            units(Money::from_minor(MAX_AMOUNT + 1)),
            Err(PricingError::TooLarge)
        );
    }
}
