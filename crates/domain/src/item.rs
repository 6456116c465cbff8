//! Items: the kinds of item, the states of a fixed asset, when a check-out is due (in
//! the company's time zone), GPS coordinates and document links.

use chrono::{DateTime, Days, NaiveDate, NaiveTime, TimeZone, Utc};
use chrono_tz::Tz;
use rust_decimal::Decimal;
use std::str::FromStr;

use crate::Vocabulary;

/// The kind of an item, as `asset_type` names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AssetType {
    /// A fixed asset, tracked one by one.
    FixedAsset,
    /// Inventory that is used up.
    VolatileAsset,
    /// Stock kept in quantities.
    StockAsset,
}

impl Vocabulary for AssetType {
    const ALL: &'static [Self] = &[
        AssetType::FixedAsset,
        AssetType::VolatileAsset,
        AssetType::StockAsset,
    ];

    fn as_str(self) -> &'static str {
        match self {
            AssetType::FixedAsset => "FixedAsset",
            AssetType::VolatileAsset => "VolatileAsset",
            AssetType::StockAsset => "StockAsset",
        }
    }
}

/// What a fixed asset is now, as stored. `reserved` and the due states are derived
/// (see [`Shown`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ItemState {
    Available,
    CheckedOut,
    Retired,
    /// A fixed asset being serviced (`/assets/<n>/services.api`): neither available
    /// nor out until the service is completed.
    InService,
}

impl Vocabulary for ItemState {
    const ALL: &'static [Self] = &[
        ItemState::Available,
        ItemState::CheckedOut,
        ItemState::Retired,
        ItemState::InService,
    ];

    fn as_str(self) -> &'static str {
        match self {
            ItemState::Available => "available",
            ItemState::CheckedOut => "checked_out",
            ItemState::Retired => "retired",
            ItemState::InService => "in_service",
        }
    }
}

/// The `state` an asset shows: its stored state, except that an available asset with
/// an approved reservation covering today shows `reserved`.
pub fn shown_state(state: ItemState, reserved_today: bool) -> &'static str {
    match state {
        ItemState::Available if reserved_today => "reserved",
        other => other.as_str(),
    }
}

/// The moment a date (and optional `hh:mm`, default the end of the day, 23:59) names
/// in the company's time zone. A local time skipped by a daylight-saving change is
/// read an hour later; a repeated one as its first occurrence.
pub fn local_moment(date: NaiveDate, time: Option<NaiveTime>, tz: Tz) -> DateTime<Utc> {
    let time = time.unwrap_or_else(|| NaiveTime::from_hms_opt(23, 59, 0).expect("valid"));
    let local = date.and_time(time);
    match tz.from_local_datetime(&local) {
        chrono::LocalResult::Single(t) | chrono::LocalResult::Ambiguous(t, _) => t.to_utc(),
        chrono::LocalResult::None => {
            let later = local + chrono::Duration::hours(1);
            tz.from_local_datetime(&later)
                .earliest()
                .map(|t| t.to_utc())
                .unwrap_or_else(|| Utc.from_utc_datetime(&local))
        }
    }
}

/// The first moment of `date` in the company's time zone.
pub fn start_of_day(date: NaiveDate, tz: Tz) -> DateTime<Utc> {
    local_moment(date, Some(NaiveTime::MIN), tz)
}

/// The company's today and the moments it starts and ends (`[start, end)`).
pub fn today(now: DateTime<Utc>, tz: Tz) -> (NaiveDate, DateTime<Utc>, DateTime<Utc>) {
    let date = now.with_timezone(&tz).date_naive();
    let next = date.checked_add_days(Days::new(1)).unwrap_or(date);
    (date, start_of_day(date, tz), start_of_day(next, tz))
}

/// A latitude (`max` 90) or longitude (`max` 180): a decimal number within range
/// (`52.5200`), or one written with an exponent (`1e-7`, as JSON and other languages
/// write small numbers), kept as a normalised decimal string of at most 10 decimal
/// places (more are rounded: a ten-billionth of a degree is about 0.01 mm).
pub fn parse_coordinate(raw: &str, max: u32) -> Result<String, String> {
    let raw = raw.trim();
    let out_of_range = || format!("must be between -{max} and {max}");
    // Digits on both sides of a point, an exponent after them: no `5.`, `.5`, `1_0`.
    let (mantissa, exponent) = raw.split_once(['e', 'E']).unwrap_or((raw, "0"));
    let digits = |part: &str| !part.is_empty() && part.bytes().all(|b| b.is_ascii_digit());
    let unsigned = mantissa.strip_prefix(['-', '+']).unwrap_or(mantissa);
    let (whole, fraction) = unsigned.split_once('.').unwrap_or((unsigned, "0"));
    let exponent_digits = exponent.strip_prefix(['-', '+']).unwrap_or(exponent);
    if !(digits(whole) && digits(fraction) && digits(exponent_digits)) {
        return Err("must be a decimal number such as 52.5200".to_owned());
    }
    let d = match Decimal::from_str(raw).or_else(|_| Decimal::from_scientific(raw)) {
        Ok(d) => d,
        Err(_) => match raw.parse::<f64>() {
            // Within the range, `{:.10}` writes no exponent and fits a Decimal.
            Ok(f) if f.is_finite() && f.abs() <= f64::from(max) => {
                Decimal::from_str(&format!("{f:.10}")).map_err(|_| out_of_range())?
            }
            _ => return Err(out_of_range()),
        },
    };
    if d.abs() > Decimal::from(max) {
        return Err(out_of_range());
    }
    Ok(d.round_dp(10).normalize().to_string())
}

/// Document links an item may carry.
pub const MAX_DOCUMENTS: usize = 5;

/// An http(s) link.
pub fn is_link(raw: &str) -> bool {
    let lower = raw.trim().to_ascii_lowercase();
    (lower.starts_with("http://") || lower.starts_with("https://"))
        && raw.len() > "https://".len()
        && !raw.contains(char::is_whitespace)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_read_back() {
        crate::vocabulary::assert_words_read_back::<AssetType>();
        crate::vocabulary::assert_words_read_back::<ItemState>();
        assert_eq!(
            AssetType::parse("fixedasset"),
            None,
            "exact: the database checks it"
        );
    }

    #[test]
    fn an_available_asset_reserved_today_shows_reserved() {
        assert_eq!(shown_state(ItemState::Available, true), "reserved");
        assert_eq!(shown_state(ItemState::Available, false), "available");
        assert_eq!(shown_state(ItemState::CheckedOut, true), "checked_out");
    }

    #[test]
    fn moments_are_read_in_the_company_time_zone() {
        let date = NaiveDate::from_ymd_opt(2026, 7, 1).unwrap();
        let berlin: Tz = "Europe/Berlin".parse().unwrap();
        let at = local_moment(date, NaiveTime::from_hms_opt(10, 0, 0), berlin);
        assert_eq!(at.to_rfc3339(), "2026-07-01T08:00:00+00:00");
        // Without a time: the end of that day.
        let end = local_moment(date, None, chrono_tz::UTC);
        assert_eq!(end.to_rfc3339(), "2026-07-01T23:59:00+00:00");
        // A skipped local time (Berlin, 2026-03-29 02:30) is read an hour later.
        let spring = NaiveDate::from_ymd_opt(2026, 3, 29).unwrap();
        let skipped = local_moment(spring, NaiveTime::from_hms_opt(2, 30, 0), berlin);
        assert_eq!(skipped.to_rfc3339(), "2026-03-29T01:30:00+00:00");
    }

    #[test]
    fn today_is_the_company_day() {
        let tokyo: Tz = "Asia/Tokyo".parse().unwrap();
        let now = DateTime::parse_from_rfc3339("2026-07-01T20:00:00Z")
            .unwrap()
            .to_utc();
        let (date, start, end) = today(now, tokyo);
        assert_eq!(date.to_string(), "2026-07-02");
        assert_eq!(start.to_rfc3339(), "2026-07-01T15:00:00+00:00");
        assert_eq!(end.to_rfc3339(), "2026-07-02T15:00:00+00:00");
    }

    #[test]
    fn coordinates_are_exact_and_in_range() {
        assert_eq!(parse_coordinate("52.5200", 90).unwrap(), "52.52");
        assert_eq!(parse_coordinate("-180", 180).unwrap(), "-180");
        assert!(parse_coordinate("91", 90).unwrap_err().contains("between"));
        assert!(parse_coordinate("north", 90).is_err());
        assert_eq!(parse_coordinate("1e-7", 90).unwrap(), "0.0000001");
        assert_eq!(parse_coordinate("1e-300", 90).unwrap(), "0");
        assert_eq!(
            parse_coordinate("52.520008333333335", 90).unwrap(),
            "52.5200083333"
        );
        assert!(
            parse_coordinate("1e3", 180)
                .unwrap_err()
                .contains("between")
        );
    }

    #[test]
    fn links_are_http() {
        assert!(is_link("https://example.com/manual.pdf"));
        assert!(!is_link("javascript:alert(1)"));
        assert!(!is_link("https://"));
    }
}
