//! The textual forms the interface accepts for dates, times, booleans and id lists.

use chrono::{NaiveDate, NaiveTime};

/// `mm/dd/yyyy` (the spec's form) or ISO `yyyy-mm-dd`.
pub fn parse_date(raw: &str) -> Option<NaiveDate> {
    use chrono::Datelike;
    let raw = raw.trim();
    NaiveDate::parse_from_str(raw, "%m/%d/%Y")
        .or_else(|_| NaiveDate::parse_from_str(raw, "%Y-%m-%d"))
        .ok()
        // Years both databases store (PostgreSQL refuses years past 294276 and before
        // 4713 BC), and that a person means.
        .filter(|d| (1..=9999).contains(&d.year()))
}

/// Something@something.tld, without spaces.
pub fn is_email(raw: &str) -> bool {
    raw.split_once('@').is_some_and(|(local, host)| {
        !local.is_empty()
            && host.contains('.')
            && !host.starts_with('.')
            && !host.ends_with('.')
            && !host.contains('@')
    }) && !raw.contains(char::is_whitespace)
}

/// `hh:mm`, 24-hour.
pub fn parse_time(raw: &str) -> Option<NaiveTime> {
    let raw = raw.trim();
    let (h, m) = raw.split_once(':')?;
    if h.is_empty() || h.len() > 2 || m.len() != 2 {
        return None;
    }
    NaiveTime::from_hms_opt(h.parse().ok()?, m.parse().ok()?, 0)
}

/// `true`/`1`/`on` (any case) are true; `false`/`0`/`off` and empty are false.
/// Anything else is not a boolean.
pub fn parse_bool(raw: &str) -> Option<bool> {
    match raw.trim().to_ascii_lowercase().as_str() {
        "true" | "1" | "on" | "yes" => Some(true),
        "false" | "0" | "off" | "no" | "" => Some(false),
        _ => None,
    }
}

/// One entry of a comma list such as `asset_ids=12,15,7-b`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ListEntry {
    Id(i64),
    Bundle(i64),
}

/// Parses a comma list; blank entries are skipped, anything else must be an id
/// (optionally with the `-b` bundle mark). Returns the offending entry on error.
pub fn parse_id_list(raw: &str) -> Result<Vec<ListEntry>, String> {
    raw.split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|s| {
            let (digits, bundle) = match s.strip_suffix("-b") {
                Some(d) => (d, true),
                None => (s, false),
            };
            match digits.parse::<i64>() {
                Ok(n) if n > 0 && bundle => Ok(ListEntry::Bundle(n)),
                Ok(n) if n > 0 => Ok(ListEntry::Id(n)),
                _ => Err(s.to_owned()),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    #[test]
    fn dates_are_years_1_to_9999() {
        assert!(parse_date("12/31/9999").is_some());
        assert!(parse_date("-99999-01-01").is_none());
        assert!(parse_date("10000-01-01").is_none());
        assert!(parse_date("0000-01-01").is_none());
    }

    use super::*;

    #[test]
    fn dates_in_both_forms() {
        let d = NaiveDate::from_ymd_opt(2026, 3, 9).unwrap();
        assert_eq!(parse_date("03/09/2026"), Some(d));
        assert_eq!(parse_date("3/9/2026"), Some(d));
        assert_eq!(parse_date("2026-03-09"), Some(d));
        assert_eq!(parse_date("13/01/2026"), None);
        assert_eq!(parse_date("02/30/2026"), None);
        assert_eq!(parse_date("tomorrow"), None);
    }

    #[test]
    fn times() {
        assert_eq!(parse_time("09:05"), NaiveTime::from_hms_opt(9, 5, 0));
        assert_eq!(parse_time("23:59"), NaiveTime::from_hms_opt(23, 59, 0));
        assert_eq!(parse_time("24:00"), None);
        assert_eq!(parse_time("9:5"), None);
    }

    #[test]
    fn booleans() {
        for t in ["true", "TRUE", "True", "1", "on"] {
            assert_eq!(parse_bool(t), Some(true), "{t}");
        }
        for f in ["false", "FALSE", "0", "off", ""] {
            assert_eq!(parse_bool(f), Some(false), "{f}");
        }
        assert_eq!(parse_bool("maybe"), None);
    }

    #[test]
    fn id_lists() {
        assert_eq!(
            parse_id_list("12, 15,7-b,"),
            Ok(vec![
                ListEntry::Id(12),
                ListEntry::Id(15),
                ListEntry::Bundle(7)
            ])
        );
        assert_eq!(parse_id_list("12,x"), Err("x".into()));
        assert_eq!(parse_id_list("0"), Err("0".into()));
    }
}
