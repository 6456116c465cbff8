//! The rental charge of one line: billed minutes, the standard split, best pricing and
//! quantity (the rules are in the [module doc](super)).

use chrono::{DateTime, Utc};

use super::{Ceiling, PricingError, started_minutes, started_units};
use crate::Vocabulary;
use crate::money::Money;
use crate::stock::Quantity;

/// A unit of rental time an item can have a rate for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum RateUnit {
    /// One minute.
    Minute,
    /// Sixty minutes.
    Hour,
    /// Twenty-four hours.
    Day,
    /// Seven days.
    Week,
    /// Thirty days, whatever the calendar month.
    Month,
}

impl RateUnit {
    /// The unit's length in minutes.
    pub const fn minutes(self) -> i64 {
        match self {
            RateUnit::Minute => 1,
            RateUnit::Hour => 60,
            RateUnit::Day => 1440,
            RateUnit::Week => 7 * 1440,
            RateUnit::Month => 30 * 1440,
        }
    }
}

impl Vocabulary for RateUnit {
    /// Shortest first.
    const ALL: &'static [Self] = &[
        RateUnit::Minute,
        RateUnit::Hour,
        RateUnit::Day,
        RateUnit::Week,
        RateUnit::Month,
    ];

    fn as_str(self) -> &'static str {
        match self {
            RateUnit::Minute => "minute",
            RateUnit::Hour => "hour",
            RateUnit::Day => "day",
            RateUnit::Week => "week",
            RateUnit::Month => "month",
        }
    }
}

/// An item's rental rates: an amount per unit for the units it is rented by, `None` for
/// the others. An item without any rate cannot be priced.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Rates {
    /// The rate per minute.
    pub per_minute: Option<Money>,
    /// The rate per hour.
    pub hourly: Option<Money>,
    /// The rate per day.
    pub daily: Option<Money>,
    /// The rate per week (7 days).
    pub weekly: Option<Money>,
    /// The rate per month (30 days).
    pub monthly: Option<Money>,
}

/// The company settings the rental charge follows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RentalSettings {
    /// Bill one more minute for the return (on by default).
    pub inclusive_return: bool,
    /// Charge the cheapest of the standard split and each unit alone (off by default).
    pub best_pricing: bool,
}

impl Default for RentalSettings {
    fn default() -> Self {
        RentalSettings {
            inclusive_return: true,
            best_pricing: false,
        }
    }
}

/// One unit of a charge: `count` of `unit` at `rate` each.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Part {
    /// The unit charged.
    pub unit: RateUnit,
    /// How many of it: at least 1.
    pub count: i64,
    /// The item's rate for the unit.
    pub rate: Money,
    /// `count × rate`.
    pub amount: Money,
}

/// What renting one unit of an item for a period costs, and how it came to that.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RentalCharge {
    /// The billed minutes ([`billed_minutes`]).
    pub minutes: i64,
    /// The units charged, largest first, none with a count of 0.
    pub parts: Vec<Part>,
    /// The sum of the parts' amounts.
    pub amount: Money,
    /// Whether best pricing found one unit alone cheaper than the standard split (and
    /// `parts` is that unit).
    pub best_pricing: bool,
}

impl RentalCharge {
    /// The charge for `quantity` units: `amount × quantity`.
    pub fn times(&self, quantity: Quantity) -> Result<Money, PricingError> {
        self.times_within(quantity, &Ceiling::refuse())
    }

    /// The charge for `quantity` units, refused or clamped beyond the ceiling as
    /// `ceiling` says.
    pub fn times_within(
        &self,
        quantity: Quantity,
        ceiling: &Ceiling,
    ) -> Result<Money, PricingError> {
        ceiling.money(ceiling.units(self.amount)? * i128::from(quantity.get()))
    }
}

/// The minutes billed from `from` to `to`: the time between them rounded up to a whole
/// minute, plus one when the return is inclusive. `to` must be after `from`.
pub fn billed_minutes(
    from: DateTime<Utc>,
    to: DateTime<Utc>,
    inclusive_return: bool,
) -> Result<i64, PricingError> {
    if to <= from {
        return Err(PricingError::EmptyPeriod);
    }
    Ok(started_minutes(from, to) + i64::from(inclusive_return))
}

impl Rates {
    /// The rate for `unit`, if the item has one.
    pub fn rate(&self, unit: RateUnit) -> Option<Money> {
        match unit {
            RateUnit::Minute => self.per_minute,
            RateUnit::Hour => self.hourly,
            RateUnit::Day => self.daily,
            RateUnit::Week => self.weekly,
            RateUnit::Month => self.monthly,
        }
    }

    /// The units the item has a rate for, with their rates, largest unit first.
    pub fn offered(&self) -> Vec<(RateUnit, Money)> {
        RateUnit::ALL
            .iter()
            .rev()
            .filter_map(|&unit| self.rate(unit).map(|rate| (unit, rate)))
            .collect()
    }

    /// The charge for `minutes` billed minutes (at least 1): the standard split, or with
    /// `best_pricing` the cheapest of it and each unit alone.
    pub fn charge(&self, minutes: i64, best_pricing: bool) -> Result<RentalCharge, PricingError> {
        self.charge_within(minutes, best_pricing, &Ceiling::refuse())
    }

    /// [`Rates::charge`], a figure beyond the ceiling refused or clamped as `ceiling`
    /// says: the cheapest is chosen on the exact amounts, then each amount clamped.
    pub fn charge_within(
        &self,
        minutes: i64,
        best_pricing: bool,
        ceiling: &Ceiling,
    ) -> Result<RentalCharge, PricingError> {
        if minutes <= 0 {
            return Err(PricingError::EmptyPeriod);
        }
        let offered = self
            .offered()
            .into_iter()
            .map(|(unit, rate)| Ok((unit, rate, ceiling.units(rate)?)))
            .collect::<Result<Vec<_>, PricingError>>()?;
        if offered.is_empty() {
            return Err(PricingError::NoRate);
        }

        // The standard split: largest first, whole units, then one more of the smallest
        // unit for what is left.
        let mut counts: Vec<(RateUnit, i64)> = Vec::new();
        let mut left = minutes;
        for &(unit, ..) in &offered {
            counts.push((unit, left / unit.minutes()));
            left %= unit.minutes();
        }
        // `counts` follows `offered`: its last entry is the smallest unit.
        if left > 0
            && let Some((_, count)) = counts.last_mut()
        {
            *count += 1;
        }
        let total = |counts: &[(RateUnit, i64)]| -> i128 {
            counts
                .iter()
                .zip(&offered)
                .map(|(&(_, count), &(.., rate))| i128::from(count) * rate)
                .sum()
        };
        let mut best_total = total(&counts);
        let mut best_parts: Vec<(RateUnit, i64, Money, i128)> = offered
            .iter()
            .zip(&counts)
            .map(|(&(unit, rate, r), &(_, count))| (unit, count, rate, r))
            .collect();
        let mut alone_won = false;

        if best_pricing {
            // Largest unit first, and only a cheaper one replaces: ties keep the split,
            // then the larger unit.
            for &(unit, rate, r) in &offered {
                let count = started_units(minutes, unit.minutes());
                let amount = i128::from(count) * r;
                if amount < best_total {
                    best_total = amount;
                    best_parts = vec![(unit, count, rate, r)];
                    alone_won = true;
                }
            }
        }

        let parts = best_parts
            .into_iter()
            .filter(|&(_, count, ..)| count > 0)
            .map(|(unit, count, rate, r)| {
                Ok(Part {
                    unit,
                    count,
                    rate,
                    amount: ceiling.money(i128::from(count) * r)?,
                })
            })
            .collect::<Result<Vec<_>, PricingError>>()?;
        Ok(RentalCharge {
            minutes,
            parts,
            amount: ceiling.money(best_total)?,
            best_pricing: alone_won,
        })
    }
}

/// What renting one unit of an item with `rates` from `from` to `to` costs under the
/// company's `settings`.
pub fn rental_charge(
    rates: &Rates,
    from: DateTime<Utc>,
    to: DateTime<Utc>,
    settings: RentalSettings,
) -> Result<RentalCharge, PricingError> {
    rental_charge_within(rates, from, to, settings, &Ceiling::refuse())
}

/// [`rental_charge`], a figure beyond the ceiling refused or clamped as `ceiling` says.
pub fn rental_charge_within(
    rates: &Rates,
    from: DateTime<Utc>,
    to: DateTime<Utc>,
    settings: RentalSettings,
    ceiling: &Ceiling,
) -> Result<RentalCharge, PricingError> {
    let minutes = billed_minutes(from, to, settings.inclusive_return)?;
    rates.charge_within(minutes, settings.best_pricing, ceiling)
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

    /// 1 March 2024, 06:00 UTC: every period of the table starts here.
    fn start() -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2024, 3, 1, 6, 0, 0).unwrap()
    }

    fn rates(list: &[(RateUnit, i64)]) -> Rates {
        let mut rates = Rates::default();
        for &(unit, minor) in list {
            let rate = Some(Money::from_minor(minor));
            match unit {
                MIN => rates.per_minute = rate,
                H => rates.hourly = rate,
                D => rates.daily = rate,
                W => rates.weekly = rate,
                MO => rates.monthly = rate,
            }
        }
        rates
    }

    struct Case {
        what: &'static str,
        /// Rates in minor units.
        rates: &'static [(RateUnit, i64)],
        /// Days, hours, minutes and seconds from the start to the end.
        length: (i64, i64, i64, i64),
        inclusive: bool,
        best: bool,
        quantity: i64,
        /// Expected: billed minutes, the parts (unit, count), one unit's charge, whether
        /// a unit alone won, and the line's amount (× quantity), in minor units.
        minutes: i64,
        parts: &'static [(RateUnit, i64)],
        amount: i64,
        alone: bool,
        line: i64,
    }

    const CASES: &[Case] = &[
        // 56 h = 2 d + 8 h left → 3 d = 3 × 10.00 = 30.00
        Case {
            what: "56 h, daily + weekly",
            rates: &[(D, 10_00), (W, 50_00)],
            length: (0, 56, 0, 0),
            inclusive: false,
            best: false,
            quantity: 1,
            minutes: 56 * 60,
            parts: &[(D, 3)],
            amount: 30_00,
            alone: false,
            line: 30_00,
        },
        // 9 d 8 h = 1 w + 2 d + 8 h → 1 w + 3 d = 50.00 + 30.00 = 80.00
        Case {
            what: "9 d 8 h, daily + weekly",
            rates: &[(D, 10_00), (W, 50_00)],
            length: (9, 8, 0, 0),
            inclusive: false,
            best: false,
            quantity: 1,
            minutes: 13440,
            parts: &[(W, 1), (D, 3)],
            amount: 80_00,
            alone: false,
            line: 80_00,
        },
        // The module doc's example: 9 d 8 h + 1 min = 1 w + 2 d + 8 h 1 min → 1 w + 3 d
        // = 80.00
        Case {
            what: "9 d 8 h inclusive, daily + weekly",
            rates: &[(D, 10_00), (W, 50_00)],
            length: (9, 8, 0, 0),
            inclusive: true,
            best: false,
            quantity: 1,
            minutes: 13441,
            parts: &[(W, 1), (D, 3)],
            amount: 80_00,
            alone: false,
            line: 80_00,
        },
        // 6 d 1 h = 0 w + 6 d + 1 h → 7 d = 70.00 (the split never promotes to a week)
        Case {
            what: "6 d 1 h, daily + weekly",
            rates: &[(D, 10_00), (W, 50_00)],
            length: (6, 1, 0, 0),
            inclusive: false,
            best: false,
            quantity: 1,
            minutes: 8700,
            parts: &[(D, 7)],
            amount: 70_00,
            alone: false,
            line: 70_00,
        },
        // split 7 d = 70.00; week alone ceil(8700 / 10080) = 1 → 50.00; day alone 7 d
        // = 70.00 → 50.00
        Case {
            what: "6 d 1 h, daily + weekly, best pricing",
            rates: &[(D, 10_00), (W, 50_00)],
            length: (6, 1, 0, 0),
            inclusive: false,
            best: true,
            quantity: 1,
            minutes: 8700,
            parts: &[(W, 1)],
            amount: 50_00,
            alone: true,
            line: 50_00,
        },
        // 1 d = 0 w + 1 d left → 1 w = 50.00
        Case {
            what: "1 d, weekly only",
            rates: &[(W, 50_00)],
            length: (1, 0, 0, 0),
            inclusive: false,
            best: false,
            quantity: 1,
            minutes: 1440,
            parts: &[(W, 1)],
            amount: 50_00,
            alone: false,
            line: 50_00,
        },
        // 24 h exactly = 1 d = 10.00
        Case {
            what: "24 h exclusive, daily only",
            rates: &[(D, 10_00)],
            length: (1, 0, 0, 0),
            inclusive: false,
            best: false,
            quantity: 1,
            minutes: 1440,
            parts: &[(D, 1)],
            amount: 10_00,
            alone: false,
            line: 10_00,
        },
        // 06:00 to 06:00 the next day inclusive = 1 d + 1 min → 2 d = 20.00
        Case {
            what: "24 h inclusive, daily only",
            rates: &[(D, 10_00)],
            length: (1, 0, 0, 0),
            inclusive: true,
            best: false,
            quantity: 1,
            minutes: 1441,
            parts: &[(D, 2)],
            amount: 20_00,
            alone: false,
            line: 20_00,
        },
        // 1 d + 1 min → 1 d + 1 h = 10.00 + 2.00 = 12.00
        Case {
            what: "24 h inclusive, hourly + daily",
            rates: &[(H, 2_00), (D, 10_00)],
            length: (1, 0, 0, 0),
            inclusive: true,
            best: false,
            quantity: 1,
            minutes: 1441,
            parts: &[(D, 1), (H, 1)],
            amount: 12_00,
            alone: false,
            line: 12_00,
        },
        // split 12.00; day alone ceil(1441 / 1440) = 2 → 20.00; hour alone 25 → 50.00
        // → the split, 12.00
        Case {
            what: "24 h inclusive, hourly + daily, best pricing",
            rates: &[(H, 2_00), (D, 10_00)],
            length: (1, 0, 0, 0),
            inclusive: true,
            best: true,
            quantity: 1,
            minutes: 1441,
            parts: &[(D, 1), (H, 1)],
            amount: 12_00,
            alone: false,
            line: 12_00,
        },
        // 10 min 1 s → 11 started minutes × 0.05 = 0.55
        Case {
            what: "10 min 1 s, per minute",
            rates: &[(MIN, 5)],
            length: (0, 0, 10, 1),
            inclusive: false,
            best: false,
            quantity: 1,
            minutes: 11,
            parts: &[(MIN, 11)],
            amount: 55,
            alone: false,
            line: 55,
        },
        // 90 min + 1 = 91 min × 0.10 = 9.10
        Case {
            what: "90 min inclusive, per minute",
            rates: &[(MIN, 10)],
            length: (0, 1, 30, 0),
            inclusive: true,
            best: false,
            quantity: 1,
            minutes: 91,
            parts: &[(MIN, 91)],
            amount: 9_10,
            alone: false,
            line: 9_10,
        },
        // 90 min = 1 h + 30 min left → 2 h × 15.00 = 30.00
        Case {
            what: "90 min, hourly only",
            rates: &[(H, 15_00)],
            length: (0, 1, 30, 0),
            inclusive: false,
            best: false,
            quantity: 1,
            minutes: 90,
            parts: &[(H, 2)],
            amount: 30_00,
            alone: false,
            line: 30_00,
        },
        // 90 min = 1 h + 30 min = 12.00 + 30 × 0.25 = 19.50
        Case {
            what: "90 min, per minute + hourly",
            rates: &[(MIN, 25), (H, 12_00)],
            length: (0, 1, 30, 0),
            inclusive: false,
            best: false,
            quantity: 1,
            minutes: 90,
            parts: &[(H, 1), (MIN, 30)],
            amount: 19_50,
            alone: false,
            line: 19_50,
        },
        // split 19.50; hour alone 2 → 24.00; minute alone 90 → 22.50 → the split
        Case {
            what: "90 min, per minute + hourly, best pricing",
            rates: &[(MIN, 25), (H, 12_00)],
            length: (0, 1, 30, 0),
            inclusive: false,
            best: true,
            quantity: 1,
            minutes: 90,
            parts: &[(H, 1), (MIN, 30)],
            amount: 19_50,
            alone: false,
            line: 19_50,
        },
        // 2 h 1 s → 121 min = 2 h + 1 min → 3 h × 10.00 = 30.00
        Case {
            what: "2 h 1 s, hourly only",
            rates: &[(H, 10_00)],
            length: (0, 2, 0, 1),
            inclusive: false,
            best: false,
            quantity: 1,
            minutes: 121,
            parts: &[(H, 3)],
            amount: 30_00,
            alone: false,
            line: 30_00,
        },
        // 30 h = 1 d + 6 h = 10.00 + 6 × 2.00 = 22.00
        Case {
            what: "30 h, hourly + daily",
            rates: &[(H, 2_00), (D, 10_00)],
            length: (1, 6, 0, 0),
            inclusive: false,
            best: false,
            quantity: 1,
            minutes: 1800,
            parts: &[(D, 1), (H, 6)],
            amount: 22_00,
            alone: false,
            line: 22_00,
        },
        // split 22.00; day alone ceil(30 / 24) = 2 → 20.00; hour alone 30 → 60.00
        // → 20.00
        Case {
            what: "30 h, hourly + daily, best pricing",
            rates: &[(H, 2_00), (D, 10_00)],
            length: (1, 6, 0, 0),
            inclusive: false,
            best: true,
            quantity: 1,
            minutes: 1800,
            parts: &[(D, 2)],
            amount: 20_00,
            alone: true,
            line: 20_00,
        },
        // 21 d < 30 d = 0 months + 21 d = 210.00
        Case {
            what: "21 d, daily + monthly",
            rates: &[(D, 10_00), (MO, 200_00)],
            length: (21, 0, 0, 0),
            inclusive: false,
            best: false,
            quantity: 1,
            minutes: 21 * 1440,
            parts: &[(D, 21)],
            amount: 210_00,
            alone: false,
            line: 210_00,
        },
        // split 210.00; month alone 1 → 200.00; day alone 21 → 210.00 → 200.00
        Case {
            what: "21 d, daily + monthly, best pricing",
            rates: &[(D, 10_00), (MO, 200_00)],
            length: (21, 0, 0, 0),
            inclusive: false,
            best: true,
            quantity: 1,
            minutes: 21 * 1440,
            parts: &[(MO, 1)],
            amount: 200_00,
            alone: true,
            line: 200_00,
        },
        // 45 d = 1 month (30 d) + 2 w + 1 d = 200.00 + 100.00 + 10.00 = 310.00
        Case {
            what: "45 d, daily + weekly + monthly",
            rates: &[(D, 10_00), (W, 50_00), (MO, 200_00)],
            length: (45, 0, 0, 0),
            inclusive: false,
            best: false,
            quantity: 1,
            minutes: 45 * 1440,
            parts: &[(MO, 1), (W, 2), (D, 1)],
            amount: 310_00,
            alone: false,
            line: 310_00,
        },
        // 30 d exactly = 1 month = 200.00
        Case {
            what: "30 d exclusive, monthly only",
            rates: &[(MO, 200_00)],
            length: (30, 0, 0, 0),
            inclusive: false,
            best: false,
            quantity: 1,
            minutes: 43200,
            parts: &[(MO, 1)],
            amount: 200_00,
            alone: false,
            line: 200_00,
        },
        // 30 d + 1 min → 2 months = 400.00
        Case {
            what: "30 d inclusive, monthly only",
            rates: &[(MO, 200_00)],
            length: (30, 0, 0, 0),
            inclusive: true,
            best: false,
            quantity: 1,
            minutes: 43201,
            parts: &[(MO, 2)],
            amount: 400_00,
            alone: false,
            line: 400_00,
        },
        // split 1 w + 5 d = 50.00 + 50.00 = 100.00; week alone 2 → 100.00 (a tie);
        // day alone 12 → 120.00 → the split stands
        Case {
            what: "12 d, daily + weekly, best pricing tie",
            rates: &[(D, 10_00), (W, 50_00)],
            length: (12, 0, 0, 0),
            inclusive: false,
            best: true,
            quantity: 1,
            minutes: 12 * 1440,
            parts: &[(W, 1), (D, 5)],
            amount: 100_00,
            alone: false,
            line: 100_00,
        },
        // 56 h → 3 d = 30.00 a unit; × 3 = 90.00
        Case {
            what: "56 h, daily + weekly, 3 units",
            rates: &[(D, 10_00), (W, 50_00)],
            length: (0, 56, 0, 0),
            inclusive: false,
            best: false,
            quantity: 3,
            minutes: 56 * 60,
            parts: &[(D, 3)],
            amount: 30_00,
            alone: false,
            line: 90_00,
        },
        // 1 month alone = 200.00 a unit; × 4 = 800.00
        Case {
            what: "21 d, daily + monthly, best pricing, 4 units",
            rates: &[(D, 10_00), (MO, 200_00)],
            length: (21, 0, 0, 0),
            inclusive: false,
            best: true,
            quantity: 4,
            minutes: 21 * 1440,
            parts: &[(MO, 1)],
            amount: 200_00,
            alone: true,
            line: 800_00,
        },
        // 25 h = 1 d + 1 h = 0.00 + 5.00 = 5.00 (a rate of 0.00 is a rate)
        Case {
            what: "25 h, hourly + a free daily rate",
            rates: &[(H, 5_00), (D, 0)],
            length: (1, 1, 0, 0),
            inclusive: false,
            best: false,
            quantity: 1,
            minutes: 1500,
            parts: &[(D, 1), (H, 1)],
            amount: 5_00,
            alone: false,
            line: 5_00,
        },
        // 1 w 2 min = 1 w + 2 min = 50.00 + 0.02 = 50.02
        Case {
            what: "1 w 2 min, per minute + weekly",
            rates: &[(MIN, 1), (W, 50_00)],
            length: (7, 0, 2, 0),
            inclusive: false,
            best: false,
            quantity: 1,
            minutes: 10082,
            parts: &[(W, 1), (MIN, 2)],
            amount: 50_02,
            alone: false,
            line: 50_02,
        },
        // split 10 h = 50.00; day alone 1 → 30.00; hour alone 10 → 50.00; minute alone
        // 600 → 60.00 → 30.00
        Case {
            what: "10 h, per minute + hourly + daily, best pricing",
            rates: &[(MIN, 10), (H, 5_00), (D, 30_00)],
            length: (0, 10, 0, 0),
            inclusive: false,
            best: true,
            quantity: 1,
            minutes: 600,
            parts: &[(D, 1)],
            amount: 30_00,
            alone: true,
            line: 30_00,
        },
        // split 1 d + 2 h = 5.00 + 6.00 = 11.00; week alone 1 → 10.00; day alone 2 →
        // 10.00 (a tie between units alone: the larger); hour alone 26 → 78.00 → 1 w
        Case {
            what: "26 h, hourly + daily + weekly, best pricing, units alone tie",
            rates: &[(H, 3_00), (D, 5_00), (W, 10_00)],
            length: (1, 2, 0, 0),
            inclusive: false,
            best: true,
            quantity: 1,
            minutes: 1560,
            parts: &[(W, 1)],
            amount: 10_00,
            alone: true,
            line: 10_00,
        },
        // 61 d 3 h 20 min 30 s → 88041 min = 2 months (86400) + 0 w + 1 d + 3 h + 21 min
        // = 300.00 + 10.00 + 1.50 + 0.21 = 311.71
        Case {
            what: "61 d 3 h 20 min 30 s, every unit",
            rates: &[(MIN, 1), (H, 50), (D, 10_00), (W, 50_00), (MO, 150_00)],
            length: (61, 3, 20, 30),
            inclusive: false,
            best: false,
            quantity: 1,
            minutes: 88041,
            parts: &[(MO, 2), (D, 1), (H, 3), (MIN, 21)],
            amount: 311_71,
            alone: false,
            line: 311_71,
        },
    ];

    #[test]
    fn charges_follow_the_table() {
        for case in CASES {
            let (d, h, m, s) = case.length;
            let end = start() + TimeDelta::seconds(((d * 24 + h) * 60 + m) * 60 + s);
            let rates = rates(case.rates);
            let settings = RentalSettings {
                inclusive_return: case.inclusive,
                best_pricing: case.best,
            };
            let charge = rental_charge(&rates, start(), end, settings)
                .unwrap_or_else(|e| panic!("{}: {e}", case.what));
            let parts: Vec<(RateUnit, i64)> =
                charge.parts.iter().map(|p| (p.unit, p.count)).collect();
            assert_eq!(charge.minutes, case.minutes, "{}", case.what);
            assert_eq!(parts, case.parts, "{}", case.what);
            assert_eq!(charge.amount.minor(), case.amount, "{}", case.what);
            assert_eq!(charge.best_pricing, case.alone, "{}", case.what);
            for part in &charge.parts {
                assert_eq!(Some(part.rate), rates.rate(part.unit), "{}", case.what);
                assert_eq!(
                    part.amount.minor(),
                    part.count * part.rate.minor(),
                    "{}",
                    case.what
                );
            }
            let sum: i64 = charge.parts.iter().map(|p| p.amount.minor()).sum();
            assert_eq!(sum, case.amount, "{}", case.what);
            let line = charge.times(Quantity::new(case.quantity).unwrap());
            assert_eq!(line.map(Money::minor), Ok(case.line), "{}", case.what);
        }
    }

    #[test]
    fn billed_minutes_round_up_and_count_the_return() {
        let t = start();
        let day = t + TimeDelta::days(1);
        assert_eq!(billed_minutes(t, day, true), Ok(1441));
        assert_eq!(billed_minutes(t, day, false), Ok(1440));
        assert_eq!(
            billed_minutes(t, t + TimeDelta::nanoseconds(1), false),
            Ok(1)
        );
        assert_eq!(billed_minutes(t, t + TimeDelta::seconds(59), false), Ok(1));
        assert_eq!(billed_minutes(t, t + TimeDelta::seconds(60), false), Ok(1));
        assert_eq!(billed_minutes(t, t + TimeDelta::seconds(61), true), Ok(3));
        // An end at or before the start is refused, inclusive or not.
        for inclusive in [true, false] {
            assert_eq!(
                billed_minutes(t, t, inclusive),
                Err(PricingError::EmptyPeriod)
            );
            assert_eq!(
                billed_minutes(day, t, inclusive),
                Err(PricingError::EmptyPeriod)
            );
        }
        assert_eq!(
            Rates::default().charge(0, false),
            Err(PricingError::EmptyPeriod)
        );
    }

    #[test]
    fn an_item_without_rates_has_no_price() {
        let t = start();
        let settings = RentalSettings::default();
        assert_eq!(
            rental_charge(&Rates::default(), t, t + TimeDelta::hours(1), settings),
            Err(PricingError::NoRate)
        );
        assert!(RentalSettings::default().inclusive_return);
        assert!(!RentalSettings::default().best_pricing);
    }

    #[test]
    fn overflow_is_an_error() {
        let huge = rates(&[(MO, MAX_AMOUNT)]);
        assert_eq!(
            huge.charge(RateUnit::Month.minutes(), false)
                .map(|c| c.amount),
            Ok(Money::from_minor(MAX_AMOUNT))
        );
        assert_eq!(
            huge.charge(RateUnit::Month.minutes() + 1, false),
            Err(PricingError::TooLarge)
        );
        assert_eq!(
            rates(&[(MIN, MAX_AMOUNT + 1)]).charge(1, false),
            Err(PricingError::TooLarge)
        );
        assert_eq!(
            rates(&[(MIN, -1)]).charge(1, false),
            Err(PricingError::NegativeAmount)
        );
        // A million a day for a billion units.
        let charge = rates(&[(D, 1_000_000_00)]).charge(1440, false).unwrap();
        assert_eq!(
            charge.times(Quantity::new(Quantity::MAX).unwrap()),
            Err(PricingError::TooLarge)
        );
        // A split beyond the limit still prices when best pricing finds a unit alone
        // within it.
        let cheap_month = rates(&[(MIN, MAX_AMOUNT), (MO, 100)]);
        assert_eq!(cheap_month.charge(59, false), Err(PricingError::TooLarge));
        assert_eq!(
            cheap_month.charge(59, true).map(|c| c.amount.minor()),
            Ok(100)
        );
    }

    #[test]
    fn overflow_clamps_when_asked() {
        let clamp = Ceiling::clamp;
        let huge = rates(&[(MO, MAX_AMOUNT)]);
        let ceiling = clamp();
        let exact = huge.charge_within(RateUnit::Month.minutes(), false, &ceiling);
        assert_eq!(exact, huge.charge(RateUnit::Month.minutes(), false));
        assert!(!ceiling.clamped());
        // Two months at a trillion: the part and the charge are the limit.
        let ceiling = clamp();
        let charge = huge
            .charge_within(RateUnit::Month.minutes() + 1, false, &ceiling)
            .unwrap();
        assert!(ceiling.clamped());
        assert_eq!(charge.amount, Money::from_minor(MAX_AMOUNT));
        assert_eq!(
            charge
                .parts
                .iter()
                .map(|p| (p.unit, p.count, p.amount.minor()))
                .collect::<Vec<_>>(),
            [(MO, 2, MAX_AMOUNT)]
        );
        // Best pricing still weighs the exact amounts.
        let cheap_month = rates(&[(MIN, MAX_AMOUNT), (MO, 100)]);
        let ceiling = clamp();
        assert_eq!(
            cheap_month
                .charge_within(59, true, &ceiling)
                .map(|c| c.amount.minor()),
            Ok(100)
        );
        assert!(!ceiling.clamped());
        // The return minute that takes a day's charge past the limit.
        let daily = rates(&[(D, 600_000_000_000_00)]);
        let day = (start(), start() + TimeDelta::days(1));
        let exclusive = RentalSettings {
            inclusive_return: false,
            best_pricing: false,
        };
        let ceiling = clamp();
        let one = rental_charge_within(&daily, day.0, day.1, exclusive, &ceiling).unwrap();
        assert_eq!(one.amount.minor(), 600_000_000_000_00);
        assert!(!ceiling.clamped());
        let inclusive = RentalSettings::default();
        assert_eq!(
            rental_charge(&daily, day.0, day.1, inclusive),
            Err(PricingError::TooLarge)
        );
        let two = rental_charge_within(&daily, day.0, day.1, inclusive, &ceiling).unwrap();
        assert_eq!((two.minutes, two.amount.minor()), (1441, MAX_AMOUNT));
        assert!(ceiling.clamped());
        // Quantity, and an input beyond the limit.
        let ceiling = clamp();
        let many = one.times_within(Quantity::new(Quantity::MAX).unwrap(), &ceiling);
        assert_eq!(many, Ok(Money::from_minor(MAX_AMOUNT)));
        assert!(ceiling.clamped());
        assert_eq!(
            rates(&[(MIN, MAX_AMOUNT + 1)])
                .charge_within(1, false, &clamp())
                .map(|c| c.amount.minor()),
            Ok(MAX_AMOUNT)
        );
        assert_eq!(
            rates(&[(MIN, -1)]).charge_within(1, false, &clamp()),
            Err(PricingError::NegativeAmount)
        );
    }

    #[test]
    fn units_have_words_and_lengths() {
        crate::vocabulary::assert_words_read_back::<RateUnit>();
        assert_eq!(RateUnit::parse_loosely(" Week "), Some(W));
        assert!(
            RateUnit::ALL
                .windows(2)
                .all(|w| w[0].minutes() < w[1].minutes())
        );
        assert_eq!(RateUnit::Month.minutes(), 43200);
    }

    /// A small, fixed pseudo-random sequence (xorshift), so the checks below repeat.
    fn sequence(mut state: u64) -> impl FnMut(i64) -> i64 {
        move |below| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            i64::try_from(state % u64::try_from(below).unwrap()).unwrap()
        }
    }

    #[test]
    fn splits_cover_the_time_and_best_pricing_is_never_dearer() {
        let mut next = sequence(0x5eed);
        for round in 0..3000 {
            // Any non-empty set of units, rates from 0.00 to 99.99.
            let mask = 1 + next(31);
            let list: Vec<(RateUnit, i64)> = RateUnit::ALL
                .iter()
                .enumerate()
                .filter(|(i, _)| mask & (1 << i) != 0)
                .map(|(_, &unit)| (unit, next(10_000)))
                .collect();
            let rates = rates(&list);
            let minutes = 1 + next(200 * 1440);
            let split = rates.charge(minutes, false).unwrap();
            let best = rates.charge(minutes, true).unwrap();
            let what = format!("round {round}: {list:?}, {minutes} min");

            let covered: i64 = split.parts.iter().map(|p| p.count * p.unit.minutes()).sum();
            let smallest = list[0].0.minutes();
            assert!(covered >= minutes, "{what}");
            assert!(covered - minutes < smallest, "{what}");
            assert!(!split.best_pricing, "{what}");

            let alone = list
                .iter()
                .map(|&(unit, rate)| started_units(minutes, unit.minutes()) * rate)
                .min()
                .unwrap();
            assert!(best.amount <= split.amount, "{what}");
            assert_eq!(
                best.amount.minor(),
                split.amount.minor().min(alone),
                "{what}"
            );
            assert_eq!(best.best_pricing, alone < split.amount.minor(), "{what}");
        }
    }
}
