//! Reservation requests: their statuses, the filter words, the decisions, and when two
//! reservations overlap.

use chrono::NaiveDate;

use crate::Vocabulary;

/// A request's status as stored.
///
/// `pending` (made, undecided) --approve_request--> `approved` --the reserver checks
/// the asset out during it--> `fullfilled`; `pending` or `approved` --deny--> `denied`;
/// an `approved` one overridden by someone else's check-out --> `removed`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReservationStatus {
    Pending,
    Approved,
    Denied,
    Fulfilled,
    Removed,
}

impl Vocabulary for ReservationStatus {
    const ALL: &'static [Self] = &[
        ReservationStatus::Pending,
        ReservationStatus::Approved,
        ReservationStatus::Denied,
        ReservationStatus::Fulfilled,
        ReservationStatus::Removed,
    ];

    fn as_str(self) -> &'static str {
        match self {
            ReservationStatus::Pending => "pending",
            ReservationStatus::Approved => "approved",
            ReservationStatus::Denied => "denied",
            // The spec's spelling.
            ReservationStatus::Fulfilled => "fullfilled",
            ReservationStatus::Removed => "removed",
        }
    }
}

/// The `status` filter of a reservation list: one status, or all of them.
/// `requested` is a synonym of `pending` (the spec names both).
pub fn parse_status_filter(raw: &str) -> Result<Option<ReservationStatus>, String> {
    match raw.trim().to_ascii_lowercase().as_str() {
        "all" | "" => Ok(None),
        "requested" => Ok(Some(ReservationStatus::Pending)),
        "fulfilled" => Ok(Some(ReservationStatus::Fulfilled)),
        other => ReservationStatus::parse(other).map(Some).ok_or_else(|| {
            format!(
                "must be one of {}, requested, all",
                ReservationStatus::names()
            )
        }),
    }
}

/// `request_action` of `update_status.api`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Decision {
    Approve,
    Deny,
}

impl Vocabulary for Decision {
    const ALL: &'static [Self] = &[Decision::Approve, Decision::Deny];

    fn as_str(self) -> &'static str {
        match self {
            Decision::Approve => "approve_request",
            Decision::Deny => "deny",
        }
    }
}

impl Decision {
    /// The status a request in `from` takes, or `None` when the decision is not open
    /// to it (only pending requests are approved; pending or approved ones denied).
    pub fn next(self, from: ReservationStatus) -> Option<ReservationStatus> {
        use ReservationStatus as S;
        match (self, from) {
            (Decision::Approve, S::Pending) => Some(S::Approved),
            (Decision::Deny, S::Pending | S::Approved) => Some(S::Denied),
            _ => None,
        }
    }
}

/// Whether the whole days `a` and `b` (first and last day, inclusive) share a day.
pub fn overlaps(a: (NaiveDate, NaiveDate), b: (NaiveDate, NaiveDate)) -> bool {
    a.0 <= b.1 && b.0 <= a.1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_read_back() {
        crate::vocabulary::assert_words_read_back::<ReservationStatus>();
        crate::vocabulary::assert_words_read_back::<Decision>();
    }

    #[test]
    fn status_filters() {
        assert_eq!(parse_status_filter("all"), Ok(None));
        assert_eq!(
            parse_status_filter("requested"),
            Ok(Some(ReservationStatus::Pending))
        );
        assert_eq!(
            parse_status_filter("fullfilled"),
            Ok(Some(ReservationStatus::Fulfilled))
        );
        assert!(
            parse_status_filter("lost")
                .unwrap_err()
                .contains("requested")
        );
    }

    #[test]
    fn decisions() {
        use ReservationStatus as S;
        assert_eq!(Decision::Approve.next(S::Pending), Some(S::Approved));
        assert_eq!(Decision::Approve.next(S::Denied), None);
        assert_eq!(Decision::Approve.next(S::Approved), None);
        assert_eq!(Decision::Deny.next(S::Approved), Some(S::Denied));
        assert_eq!(Decision::Deny.next(S::Fulfilled), None);
    }

    #[test]
    fn days_overlap_inclusively() {
        let d = |n| NaiveDate::from_ymd_opt(2026, 7, n).unwrap();
        assert!(overlaps((d(1), d(3)), (d(3), d(5))));
        assert!(!overlaps((d(1), d(2)), (d(3), d(5))));
        assert!(overlaps((d(1), d(9)), (d(3), d(5))));
    }
}
