//! The textual forms the interface accepts for dates, times, booleans and id lists.

use chrono::{Datelike, NaiveDate, NaiveTime};
use std::fmt;

/// The first year a date may name.
pub const FIRST_YEAR: i32 = 1900;
/// The last year a date may name. A moment is stored in UTC: the last moment of
/// 9998 in a time zone west of UTC is early in 9999 there, still a four-digit year,
/// so moments sort as text on SQLite as they do in time (`+10000-...` sorts before
/// `2026-...`), and stay below the end of 9999 that open-ended holds use.
pub const LAST_YEAR: i32 = 9998;

/// Why a date was refused: the words follow the parameter's name in a 422.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DateError {
    /// Not `mm/dd/yyyy` or `yyyy-mm-dd`, or no such day.
    NotADate(String),
    /// A real day outside [`FIRST_YEAR`]..=[`LAST_YEAR`].
    OutOfRange(String),
}

impl fmt::Display for DateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DateError::NotADate(raw) => {
                write!(f, "{raw:?} is not a date (mm/dd/yyyy or yyyy-mm-dd)")
            }
            DateError::OutOfRange(raw) => write!(
                f,
                "{raw:?} is outside the years {FIRST_YEAR} to {LAST_YEAR} that dates may name"
            ),
        }
    }
}

/// `mm/dd/yyyy` (the spec's form) or ISO `yyyy-mm-dd`, of the years [`FIRST_YEAR`]
/// to [`LAST_YEAR`]. Every date and moment the interface accepts is read here, so the
/// bound holds for all of them: a moment is a date read here and a time of day in the
/// company's time zone, whose UTC value then always has a four-digit year.
pub fn parse_date(raw: &str) -> Result<NaiveDate, DateError> {
    let trimmed = raw.trim();
    let date = NaiveDate::parse_from_str(trimmed, "%m/%d/%Y")
        .or_else(|_| NaiveDate::parse_from_str(trimmed, "%Y-%m-%d"))
        .map_err(|_| DateError::NotADate(trimmed.to_owned()))?;
    if (FIRST_YEAR..=LAST_YEAR).contains(&date.year()) {
        Ok(date)
    } else {
        Err(DateError::OutOfRange(trimmed.to_owned()))
    }
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
    use super::*;

    #[test]
    fn dates_are_years_1900_to_9998() {
        assert!(parse_date("12/31/9998").is_ok());
        assert!(parse_date("1900-01-01").is_ok());
        for out in [
            "12/31/9999",
            "01/01/9999",
            "1899-12-31",
            "1800-06-01",
            "0001-01-01",
        ] {
            assert_eq!(
                parse_date(out),
                Err(DateError::OutOfRange(out.to_owned())),
                "{out}"
            );
        }
        for bad in ["-99999-01-01", "10000-01-01", "0000-01-01", "+10000-01-01"] {
            assert!(parse_date(bad).is_err(), "{bad}");
        }
        assert!(
            parse_date("01/01/9999")
                .unwrap_err()
                .to_string()
                .contains("outside the years 1900 to 9998")
        );
    }

    #[test]
    fn the_last_moment_of_the_last_year_is_a_four_digit_year_in_utc() {
        use chrono::TimeZone;
        let last = parse_date("12/31/9998")
            .unwrap()
            .and_hms_opt(23, 59, 59)
            .unwrap();
        let first = parse_date("1900-01-01")
            .unwrap()
            .and_hms_opt(0, 0, 0)
            .unwrap();
        // The zones furthest west and east of UTC.
        for tz in [chrono_tz::Etc::GMTPlus12, chrono_tz::Pacific::Kiritimati] {
            for local in [last, first] {
                let utc = tz.from_local_datetime(&local).unwrap().to_utc();
                let text = utc.to_rfc3339();
                assert!(text.as_bytes()[4] == b'-', "{text}");
                assert!((1899..=9999).contains(&utc.year()), "{text}");
            }
        }
    }

    #[test]
    fn dates_in_both_forms() {
        let d = NaiveDate::from_ymd_opt(2026, 3, 9).unwrap();
        assert_eq!(parse_date("03/09/2026"), Ok(d));
        assert_eq!(parse_date("3/9/2026"), Ok(d));
        assert_eq!(parse_date("2026-03-09"), Ok(d));
        assert!(parse_date("13/01/2026").is_err());
        assert!(parse_date("02/30/2026").is_err());
        assert_eq!(
            parse_date("tomorrow"),
            Err(DateError::NotADate("tomorrow".into()))
        );
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
