//! The late fee of one line: per started unit of lateness, or flat (the rules are in the
//! [module doc](super)).

use chrono::{DateTime, Utc};

use super::{PricingError, RateUnit, money, started_minutes, started_units, units};
use crate::Vocabulary;
use crate::money::Money;
use crate::stock::Quantity;

/// How a late fee counts: an amount per started unit of lateness, or one amount.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LateFeeKind {
    /// The amount for every started unit.
    Per(RateUnit),
    /// The amount once, however late.
    Flat,
}

impl Vocabulary for LateFeeKind {
    const ALL: &'static [Self] = &[
        LateFeeKind::Per(RateUnit::Minute),
        LateFeeKind::Per(RateUnit::Hour),
        LateFeeKind::Per(RateUnit::Day),
        LateFeeKind::Per(RateUnit::Week),
        LateFeeKind::Per(RateUnit::Month),
        LateFeeKind::Flat,
    ];

    /// The unit's word (`hour`), or `flat`.
    fn as_str(self) -> &'static str {
        match self {
            LateFeeKind::Per(unit) => unit.as_str(),
            LateFeeKind::Flat => "flat",
        }
    }
}

/// An item's late fee: `amount` per started unit, or flat.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LateFee {
    /// Per started unit, or flat.
    pub kind: LateFeeKind,
    /// The fee per started unit, or the flat fee, for one unit of stock.
    pub amount: Money,
}

/// What a late return of one line costs, and how it came to that.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LateCharge {
    /// Minutes late ([`late_minutes`]); 0 when on time.
    pub minutes: i64,
    /// Started units of the fee's unit, or for a flat fee 1 when late at all; 0 when on
    /// time.
    pub units: i64,
    /// Units of stock on the line.
    pub quantity: i64,
    /// `units × fee × quantity`.
    pub amount: Money,
}

/// Minutes from `due` to `returned`, any part of a minute counting as one; 0 when
/// returned at or before `due`.
pub fn late_minutes(due: DateTime<Utc>, returned: DateTime<Utc>) -> i64 {
    started_minutes(due, returned)
}

impl LateFee {
    /// The fee for `quantity` units due at `due` and returned at `returned`.
    pub fn charge(
        &self,
        due: DateTime<Utc>,
        returned: DateTime<Utc>,
        quantity: Quantity,
    ) -> Result<LateCharge, PricingError> {
        let minutes = late_minutes(due, returned);
        let count = match self.kind {
            _ if minutes == 0 => 0,
            LateFeeKind::Per(unit) => started_units(minutes, unit.minutes()),
            LateFeeKind::Flat => 1,
        };
        let amount = i128::from(count) * units(self.amount)? * i128::from(quantity.get());
        Ok(LateCharge {
            minutes,
            units: count,
            quantity: quantity.get(),
            amount: money(amount)?,
        })
    }
}

#[cfg(test)]
#[allow(
    clippy::inconsistent_digit_grouping,
    reason = "amounts in minor units are written units_cents: 80_00 is 80.00"
)]
mod tests {
    use super::*;
    use crate::pricing::MAX_AMOUNT;
    use RateUnit::{Day as D, Hour as H, Minute as MIN, Month as MO, Week as W};
    use chrono::{TimeDelta, TimeZone};

    struct Case {
        what: &'static str,
        kind: LateFeeKind,
        /// The fee in minor units.
        fee: i64,
        /// Seconds from the due moment to the return (negative: early).
        late: i64,
        quantity: i64,
        /// Expected: minutes late, units counted, the fee in minor units.
        minutes: i64,
        units: i64,
        amount: i64,
    }

    const HOUR: i64 = 3600;
    const DAY: i64 = 24 * HOUR;

    const CASES: &[Case] = &[
        // 2 h 10 min late → 3 started hours × 5.00 = 15.00
        Case {
            what: "per hour",
            kind: LateFeeKind::Per(H),
            fee: 5_00,
            late: 2 * HOUR + 600,
            quantity: 1,
            minutes: 130,
            units: 3,
            amount: 15_00,
        },
        // 1 min late → 1 started day × 20.00 × 2 units = 40.00
        Case {
            what: "per day, 2 units",
            kind: LateFeeKind::Per(D),
            fee: 20_00,
            late: 60,
            quantity: 2,
            minutes: 1,
            units: 1,
            amount: 40_00,
        },
        // 3 days late, flat 25.00 × 3 units = 75.00 (once, not per day)
        Case {
            what: "flat, 3 units",
            kind: LateFeeKind::Flat,
            fee: 25_00,
            late: 3 * DAY,
            quantity: 3,
            minutes: 3 * 1440,
            units: 1,
            amount: 75_00,
        },
        // returned at the due moment: not late, no fee
        Case {
            what: "flat, on time",
            kind: LateFeeKind::Flat,
            fee: 25_00,
            late: 0,
            quantity: 1,
            minutes: 0,
            units: 0,
            amount: 0,
        },
        // returned 2 h early: no fee
        Case {
            what: "per hour, early",
            kind: LateFeeKind::Per(H),
            fee: 5_00,
            late: -2 * HOUR,
            quantity: 4,
            minutes: 0,
            units: 0,
            amount: 0,
        },
        // 10 min 30 s late → 11 started minutes × 0.50 = 5.50
        Case {
            what: "per minute",
            kind: LateFeeKind::Per(MIN),
            fee: 50,
            late: 630,
            quantity: 1,
            minutes: 11,
            units: 11,
            amount: 5_50,
        },
        // 8 d late → 2 started weeks × 100.00 = 200.00
        Case {
            what: "per week",
            kind: LateFeeKind::Per(W),
            fee: 100_00,
            late: 8 * DAY,
            quantity: 1,
            minutes: 8 * 1440,
            units: 2,
            amount: 200_00,
        },
        // 29 d 23 h late → 1 started month (30 d) × 300.00 = 300.00
        Case {
            what: "per month",
            kind: LateFeeKind::Per(MO),
            fee: 300_00,
            late: 29 * DAY + 23 * HOUR,
            quantity: 1,
            minutes: 29 * 1440 + 23 * 60,
            units: 1,
            amount: 300_00,
        },
        // 1 s late → 1 started minute → 1 started day × 10.00 = 10.00
        Case {
            what: "per day, a second late",
            kind: LateFeeKind::Per(D),
            fee: 10_00,
            late: 1,
            quantity: 1,
            minutes: 1,
            units: 1,
            amount: 10_00,
        },
    ];

    #[test]
    fn late_fees_follow_the_table() {
        let due = Utc.with_ymd_and_hms(2024, 3, 8, 17, 0, 0).unwrap();
        for case in CASES {
            let fee = LateFee {
                kind: case.kind,
                amount: Money::from_minor(case.fee),
            };
            let returned = due + TimeDelta::seconds(case.late);
            let quantity = Quantity::new(case.quantity).unwrap();
            let charge = fee.charge(due, returned, quantity);
            let expected = LateCharge {
                minutes: case.minutes,
                units: case.units,
                quantity: case.quantity,
                amount: Money::from_minor(case.amount),
            };
            assert_eq!(charge, Ok(expected), "{}", case.what);
        }
    }

    #[test]
    fn kinds_have_words_and_fees_cannot_overflow() {
        crate::vocabulary::assert_words_read_back::<LateFeeKind>();
        assert_eq!(LateFeeKind::parse("day"), Some(LateFeeKind::Per(D)));
        let due = Utc.with_ymd_and_hms(2024, 3, 8, 17, 0, 0).unwrap();
        let fee = LateFee {
            kind: LateFeeKind::Per(MIN),
            amount: Money::from_minor(MAX_AMOUNT),
        };
        let one = Quantity::new(1).unwrap();
        let a_minute = due + TimeDelta::minutes(1);
        assert_eq!(
            fee.charge(due, a_minute, one).map(|c| c.amount.minor()),
            Ok(MAX_AMOUNT)
        );
        assert_eq!(
            fee.charge(due, a_minute + TimeDelta::seconds(1), one),
            Err(PricingError::TooLarge)
        );
    }
}
