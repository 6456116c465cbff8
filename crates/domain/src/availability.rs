//! One availability for every way an item is promised: for an item and a period, what
//! is promised (order bookings, rent-outs and sales, members' check-outs and approved
//! reservations, services) plus what is asked must fit what the item has at every
//! moment. The store reads the holds under the item's row lock; this module weighs
//! them and names the one in the way.

use chrono::NaiveDateTime;

use crate::order::OrderState;

/// What holds units of an item for a period.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Holder {
    /// An order's line: booked, rented out, or (`selling`) to be sold at its rent-out.
    Order {
        number: i64,
        state: OrderState,
        selling: bool,
    },
    /// A member's approved reservation.
    Reservation {
        id: i64,
        member_id: i64,
        member: String,
    },
    /// A fixed asset checked out to a member.
    Checkout { member_id: i64, member: String },
    /// Units of asset stock checked out to a member (`line`: the line item).
    StockCheckout {
        line: i64,
        member_id: i64,
        member: String,
    },
    /// A service of a fixed asset.
    Service { id: i64, service_type: String },
}

impl Holder {
    /// The member whose promise this is, for those a member holds.
    pub fn member(&self) -> Option<i64> {
        match self {
            Holder::Reservation { member_id, .. }
            | Holder::Checkout { member_id, .. }
            | Holder::StockCheckout { member_id, .. } => Some(*member_id),
            Holder::Order { .. } | Holder::Service { .. } => None,
        }
    }

    pub fn is_reservation(&self) -> bool {
        matches!(self, Holder::Reservation { .. })
    }
}

/// Who holds the item, and for when, in the company's time zone (`until` `None`: with
/// no end).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Held {
    pub by: Holder,
    pub from: NaiveDateTime,
    pub until: Option<NaiveDateTime>,
}

/// The most units that `claims` (start, end, units; both ends inclusive) hold at one
/// moment of `from..=to`, and the first moment they do (`from` when nothing is held):
/// one sweep over the starts and ends, O(n log n).
pub fn peak<T: Ord + Copy>(claims: &[(T, T, i64)], from: T, to: T) -> (i64, T) {
    // (moment, 0 for a start / 1 for an end, units): at one moment starts come first,
    // since an end is inclusive.
    let mut events: Vec<(T, u8, i64)> = Vec::with_capacity(claims.len() * 2);
    for &(start, end, units) in claims {
        let (start, end) = (start.max(from), end.min(to));
        if start <= end && units > 0 {
            events.push((start, 0, units));
            events.push((end, 1, units));
        }
    }
    events.sort_unstable_by_key(|e| (e.0, e.1));
    let (mut now, mut best, mut at) = (0i64, 0i64, from);
    for (moment, kind, units) in events {
        if kind == 0 {
            now += units;
            if now > best {
                best = now;
                at = moment;
            }
        } else {
            now -= units;
        }
    }
    (best, at)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The obvious quadratic count, to check the sweep against.
    fn slow(claims: &[(i64, i64, i64)], from: i64, to: i64) -> i64 {
        (from..=to)
            .map(|t| {
                claims
                    .iter()
                    .filter(|c| c.0 <= t && t <= c.1)
                    .map(|c| c.2)
                    .sum::<i64>()
            })
            .max()
            .unwrap_or(0)
    }

    #[test]
    fn peak_counts_only_claims_that_meet() {
        let claims = [(1, 3, 4), (5, 9, 3), (8, 12, 2)];
        // 1-3 and 5-9 never meet; 5-9 and 8-12 do on 8 and 9.
        assert_eq!(peak(&claims, 1, 100), (5, 8));
        assert_eq!(peak(&claims, 1, 7), (4, 1));
        assert_eq!(peak(&claims, 4, 7), (3, 5));
        assert_eq!(peak(&claims, 10, 20), (2, 10));
        assert_eq!(peak(&claims, 13, 100), (0, 13));
        assert_eq!(peak::<i64>(&[], 1, 100), (0, 1));
        // A claim that began before the window counts at its start.
        assert_eq!(peak(&claims, 2, 2), (4, 2));
        // Ends are inclusive: one ending at 5 and one starting at 5 meet.
        assert_eq!(peak(&[(1, 5, 1), (5, 6, 1)], 0, 10), (2, 5));
        assert_eq!(peak(&[(1, 4, 1), (5, 6, 1)], 0, 10), (1, 1));
    }

    #[test]
    fn peak_agrees_with_counting_every_moment() {
        // A small deterministic generator: every window of many random claim sets.
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = |n: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n) as i64
        };
        for _ in 0..500 {
            let claims: Vec<(i64, i64, i64)> = (0..next(8))
                .map(|_| {
                    let s = next(30);
                    (s, s + next(10), 1 + next(4))
                })
                .collect();
            let from = next(30);
            let to = from + next(20);
            assert_eq!(
                peak(&claims, from, to).0,
                slow(&claims, from, to),
                "{claims:?} {from} {to}"
            );
        }
    }

    #[test]
    fn members_of_holders() {
        let r = Holder::Reservation {
            id: 1,
            member_id: 7,
            member: "Ann".into(),
        };
        assert_eq!(r.member(), Some(7));
        assert!(r.is_reservation());
        let s = Holder::Service {
            id: 2,
            service_type: "calibration".into(),
        };
        assert_eq!(s.member(), None);
    }
}
