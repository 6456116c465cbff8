//! The filters of `/assets/filter.api`: every `status` value of either spec, read with
//! its `filter_param_val` (and `sub_group_param_val`) into a typed filter. What each
//! one selects is written in docs/api.md; the store turns it into a condition.

use chrono::NaiveDate;

use crate::wire::parse_date;

/// One filter of fixed assets.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AssetFilter {
    Available,
    /// No interface puts an asset in service: always empty (docs/api.md).
    BeingServiced,
    /// Free for the whole of the days from..=to.
    AvailabilityRange(NaiveDate, NaiveDate),
    CheckedOut,
    /// Checked out and due back before now (`overdue`, `checkin_overdue`).
    Overdue,
    /// Checked out and due back today, in the company's time zone (`due_today`,
    /// `checkin_due_today`).
    DueToday,
    Group {
        group: i64,
        sub_group: Option<i64>,
    },
    /// On an open rental order (orders are built later: none yet).
    InOrder,
    Location(i64),
    /// Assets with a pending verification asked of this member (`my_pending_audit`).
    PendingAuditOf(i64),
    /// Assets with a pending verification (`pending audit`).
    PendingAudit,
    /// Checked out to this member (`possessions_of`, `my_possessions`).
    PossessionsOf(i64),
    PossessionsOfEmail(String),
    /// Checked out to members whose user listing is (`true`) or is not this one.
    UserListing(String, bool),
    ProductModelNumber(String),
    ReservationStartingToday,
    /// With an approved reservation that has not ended.
    Reserved,
    Retired,
    /// Updated on a day, or within a range of days.
    UpdateTime(NaiveDate, NaiveDate),
    /// Updated after the end of a day.
    UpdatedAfter(NaiveDate),
    CreatedAfter(NaiveDate),
    /// Inventory and asset stock below the minimum at one of their locations.
    LowStock,
    /// Inventory and asset stock with `start..=end` units on hand (all locations).
    QuantityRange(i64, i64),
    /// A custom filter by id.
    Custom(i64),
}

/// The statuses `/inventory/filter.api` accepts (custom filters aside).
pub const INVENTORY_STATUSES: &[&str] = &[
    "group",
    "items_in_order",
    "location",
    "low_stock",
    "quantity_range",
    "update_time",
    "custom_filter_<id>",
];

/// The statuses `/stock_assets/filter.api` accepts (custom filters aside).
pub const STOCK_STATUSES: &[&str] = &[
    "location",
    "possessions_of",
    "low_stock",
    "quantity_range",
    "reserved",
    "retired",
    "update_time",
    "group",
    "items_in_order",
    "custom_filter_<id>",
];

/// Every status word `/assets/filter.api` accepts (custom filters aside).
pub const STATUSES: &[&str] = &[
    "available",
    "assets_being_serviced",
    "availability_range",
    "checked_out",
    "checkin_overdue",
    "checkin_due_today",
    "due_today",
    "group",
    "items_in_order",
    "location",
    "my_pending_audit",
    "my_possessions",
    "my_user_listing",
    "outside_user_listing",
    "overdue",
    "pending audit",
    "possessions_of",
    "possessions_of_email",
    "product_model_number",
    "reservation_starting_today",
    "reserved",
    "retired",
    "update_time",
    "updated_after",
    "created_after",
    "custom_filter_<id>",
];

/// What is wrong with a filter: the parameter and the problem.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FilterError {
    pub field: &'static str,
    pub problem: String,
}

fn err(field: &'static str, problem: impl Into<String>) -> FilterError {
    FilterError {
        field,
        problem: problem.into(),
    }
}

fn id(value: Option<&str>, what: &str) -> Result<i64, FilterError> {
    let raw =
        value.ok_or_else(|| err("filter_param_val", format!("can't be blank: give {what}")))?;
    raw.trim()
        .parse::<i64>()
        .ok()
        .filter(|n| *n > 0)
        .ok_or_else(|| {
            err(
                "filter_param_val",
                format!("must be {what} (a positive whole number)"),
            )
        })
}

fn text(value: Option<&str>, what: &str) -> Result<String, FilterError> {
    match value.map(str::trim) {
        Some(v) if !v.is_empty() => Ok(v.to_owned()),
        _ => Err(err(
            "filter_param_val",
            format!("can't be blank: give {what}"),
        )),
    }
}

fn date(raw: &str) -> Result<NaiveDate, FilterError> {
    parse_date(raw).map_err(|problem| err("filter_param_val", problem.to_string()))
}

/// Two dates joined by `~` (`start~end`), start not after end; one date alone is that day.
fn range(value: Option<&str>, single_allowed: bool) -> Result<(NaiveDate, NaiveDate), FilterError> {
    let raw = text(value, "dates as start~end (mm/dd/yyyy)")?;
    let (from, to) = match raw.split_once('~') {
        Some((a, b)) => (date(a)?, date(b)?),
        None if single_allowed => {
            let d = date(&raw)?;
            (d, d)
        }
        None => {
            return Err(err(
                "filter_param_val",
                "must be a start and an end date joined by a tilde: 07/01/2026~07/05/2026",
            ));
        }
    };
    if to < from {
        return Err(err(
            "filter_param_val",
            "the end date is before the start date",
        ));
    }
    Ok((from, to))
}

/// `start,end`: two whole numbers of units, start not above end.
fn quantity_range(value: Option<&str>) -> Result<(i64, i64), FilterError> {
    let raw = text(value, "a quantity range as start,end (for example 0,10)")?;
    let bound = |s: &str| {
        s.trim().parse::<i64>().ok().filter(|n| *n >= 0).ok_or_else(|| {
            err(
                "filter_param_val",
                format!("{raw:?} is not a quantity range: two whole numbers joined by a comma, such as 0,10"),
            )
        })
    };
    let Some((a, b)) = raw.split_once(',') else {
        return Err(err(
            "filter_param_val",
            "must be a start and an end quantity joined by a comma: 0,10",
        ));
    };
    let (from, to) = (bound(a)?, bound(b)?);
    if to < from {
        return Err(err(
            "filter_param_val",
            "the end of the quantity range is below its start",
        ));
    }
    Ok((from, to))
}

/// The statuses a filter of items of `kind` takes.
pub fn statuses(kind: crate::item::AssetType) -> &'static [&'static str] {
    use crate::item::AssetType;
    match kind {
        AssetType::FixedAsset => STATUSES,
        AssetType::VolatileAsset => INVENTORY_STATUSES,
        AssetType::StockAsset => STOCK_STATUSES,
    }
}

/// Other spellings of a status of `kind` that a filter reads: `pending_audit` (the spec
/// writes `pending audit`), and `my_possessions` for asset stock.
pub fn aliases(kind: crate::item::AssetType) -> &'static [&'static str] {
    match kind {
        crate::item::AssetType::StockAsset => &["pending_audit", "my_possessions"],
        _ => &["pending_audit"],
    }
}

impl AssetFilter {
    /// Reads a filter of items of `kind`: fixed assets take every status of
    /// [`STATUSES`], inventory those of [`INVENTORY_STATUSES`], asset stock those of
    /// [`STOCK_STATUSES`].
    pub fn parse_for(
        kind: crate::item::AssetType,
        status: &str,
        value: Option<&str>,
        sub_group: Option<&str>,
    ) -> Result<Self, FilterError> {
        use crate::item::AssetType;
        let allowed = statuses(kind);
        let trimmed = status.trim();
        let word = if trimmed.starts_with("custom_filter_") {
            "custom_filter_<id>"
        } else if trimmed == "my_possessions" && kind == AssetType::StockAsset {
            "possessions_of"
        } else if trimmed == "pending_audit" {
            // The spec writes it with a space; a query string often cannot.
            "pending audit"
        } else {
            trimmed
        };
        if !allowed.contains(&word) {
            return Err(err(
                "status",
                format!("must be one of {}", allowed.join(", ")),
            ));
        }
        Self::parse(status, value, sub_group)
    }

    /// Reads `status` with `filter_param_val` (`value`) and `sub_group_param_val`.
    pub fn parse(
        status: &str,
        value: Option<&str>,
        sub_group: Option<&str>,
    ) -> Result<Self, FilterError> {
        let value = value.filter(|v| !v.trim().is_empty());
        let status = status.trim();
        Ok(match status {
            "available" => AssetFilter::Available,
            "assets_being_serviced" => AssetFilter::BeingServiced,
            "availability_range" => {
                let (from, to) = range(value, false)?;
                AssetFilter::AvailabilityRange(from, to)
            }
            "checked_out" => AssetFilter::CheckedOut,
            "overdue" | "checkin_overdue" => AssetFilter::Overdue,
            "due_today" | "checkin_due_today" => AssetFilter::DueToday,
            "group" => AssetFilter::Group {
                group: id(value, "a group id")?,
                sub_group: match sub_group.filter(|v| !v.trim().is_empty()) {
                    None => None,
                    Some(raw) => Some(
                        raw.trim()
                            .parse::<i64>()
                            .ok()
                            .filter(|n| *n > 0)
                            .ok_or_else(|| {
                                err(
                                    "sub_group_param_val",
                                    "must be a subgroup id (a positive whole number)",
                                )
                            })?,
                    ),
                },
            },
            "items_in_order" => AssetFilter::InOrder,
            "location" => AssetFilter::Location(id(value, "a location id")?),
            "my_pending_audit" => AssetFilter::PendingAuditOf(id(value, "the member's id")?),
            "pending audit" | "pending_audit" => AssetFilter::PendingAudit,
            "possessions_of" | "my_possessions" => {
                AssetFilter::PossessionsOf(id(value, "the member's id")?)
            }
            "possessions_of_email" => {
                AssetFilter::PossessionsOfEmail(text(value, "the member's e-mail")?.to_lowercase())
            }
            "my_user_listing" => AssetFilter::UserListing(text(value, "a user listing id")?, true),
            "outside_user_listing" => {
                AssetFilter::UserListing(text(value, "a user listing id")?, false)
            }
            "product_model_number" => {
                AssetFilter::ProductModelNumber(text(value, "a product model number")?)
            }
            "reservation_starting_today" => AssetFilter::ReservationStartingToday,
            "low_stock" => AssetFilter::LowStock,
            "quantity_range" => {
                let (from, to) = quantity_range(value)?;
                AssetFilter::QuantityRange(from, to)
            }
            "reserved" => AssetFilter::Reserved,
            "retired" => AssetFilter::Retired,
            "update_time" => {
                let (from, to) = range(value, true)?;
                AssetFilter::UpdateTime(from, to)
            }
            "updated_after" => AssetFilter::UpdatedAfter(date(&text(value, "a date")?)?),
            "created_after" => AssetFilter::CreatedAfter(date(&text(value, "a date")?)?),
            other => {
                match other.strip_prefix("custom_filter_") {
                    Some(n) => {
                        let custom = n.parse::<i64>().ok().filter(|n| *n > 0).ok_or_else(|| {
                        err("status", "a custom filter is custom_filter_<id>, the id a positive whole number")
                    })?;
                        if let Some(v) = value
                            && v.trim() != custom.to_string()
                        {
                            return Err(err(
                                "filter_param_val",
                                format!("must repeat the custom filter's id ({custom})"),
                            ));
                        }
                        AssetFilter::Custom(custom)
                    }
                    None => {
                        return Err(err(
                            "status",
                            format!("must be one of {}", STATUSES.join(", ")),
                        ));
                    }
                }
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(s: &str) -> NaiveDate {
        parse_date(s).unwrap()
    }

    #[test]
    fn every_status_word_reads() {
        for status in STATUSES {
            let status = status.replace("<id>", "4");
            let value = match status.as_str() {
                "availability_range" => Some("07/01/2026~07/03/2026"),
                "custom_filter_4" => Some("4"),
                "possessions_of_email" => Some("a@b.co"),
                "update_time" | "updated_after" | "created_after" => Some("07/01/2026"),
                _ => Some("7"),
            };
            AssetFilter::parse(&status, value, None).unwrap_or_else(|e| panic!("{status}: {e:?}"));
        }
    }

    #[test]
    fn each_kind_takes_its_own_statuses() {
        use crate::item::AssetType;
        for (kind, statuses) in [
            (AssetType::VolatileAsset, INVENTORY_STATUSES),
            (AssetType::StockAsset, STOCK_STATUSES),
        ] {
            for status in statuses {
                let status = status.replace("<id>", "4");
                let value = match status.as_str() {
                    "custom_filter_4" => Some("4"),
                    "quantity_range" => Some("0,10"),
                    "update_time" => Some("07/01/2026"),
                    _ => Some("7"),
                };
                AssetFilter::parse_for(kind, &status, value, None)
                    .unwrap_or_else(|e| panic!("{status}: {e:?}"));
            }
        }
        let e = AssetFilter::parse_for(AssetType::VolatileAsset, "checked_out", None, None)
            .unwrap_err();
        assert_eq!(e.field, "status");
        assert!(e.problem.contains("low_stock"), "{}", e.problem);
        assert!(AssetFilter::parse_for(AssetType::VolatileAsset, "retired", None, None).is_err());
        assert_eq!(
            AssetFilter::parse_for(
                AssetType::StockAsset,
                "quantity_range",
                Some(" 2 , 9"),
                None
            ),
            Ok(AssetFilter::QuantityRange(2, 9))
        );
        for bad in ["9,2", "1", "a,b", "-1,3", ""] {
            let e =
                AssetFilter::parse_for(AssetType::StockAsset, "quantity_range", Some(bad), None)
                    .unwrap_err();
            assert_eq!(e.field, "filter_param_val", "{bad}");
        }
    }

    #[test]
    fn values_are_read_by_their_meaning() {
        assert_eq!(
            AssetFilter::parse("availability_range", Some("07/01/2026~2026-07-05"), None),
            Ok(AssetFilter::AvailabilityRange(
                d("07/01/2026"),
                d("07/05/2026")
            ))
        );
        assert_eq!(
            AssetFilter::parse("group", Some("3"), Some("9")),
            Ok(AssetFilter::Group {
                group: 3,
                sub_group: Some(9)
            })
        );
        assert_eq!(
            AssetFilter::parse("checkin_overdue", None, None),
            AssetFilter::parse("overdue", None, None)
        );
        assert_eq!(
            AssetFilter::parse("update_time", Some("07/01/2026"), None),
            Ok(AssetFilter::UpdateTime(d("07/01/2026"), d("07/01/2026")))
        );
    }

    #[test]
    fn bad_filters_name_the_parameter() {
        let e = AssetFilter::parse("lost", None, None).unwrap_err();
        assert_eq!(e.field, "status");
        assert!(e.problem.contains("possessions_of_email"));
        assert_eq!(
            AssetFilter::parse("possessions_of", None, None)
                .unwrap_err()
                .field,
            "filter_param_val"
        );
        assert_eq!(
            AssetFilter::parse("location", Some("x"), None)
                .unwrap_err()
                .field,
            "filter_param_val"
        );
        assert!(
            AssetFilter::parse("availability_range", Some("07/05/2026~07/01/2026"), None)
                .unwrap_err()
                .problem
                .contains("before")
        );
        assert_eq!(
            AssetFilter::parse("group", Some("1"), Some("x"))
                .unwrap_err()
                .field,
            "sub_group_param_val"
        );
        assert_eq!(
            AssetFilter::parse("custom_filter_3", Some("4"), None)
                .unwrap_err()
                .field,
            "filter_param_val"
        );
        assert_eq!(
            AssetFilter::parse("custom_filter_x", None, None)
                .unwrap_err()
                .field,
            "status"
        );
    }
}
