//! Custom fields: company-defined attributes of records, their types, the kinds of
//! record they apply to, and the rule a value must satisfy.

use rust_decimal::Decimal;
use std::collections::BTreeSet;
use std::str::FromStr;

use crate::Vocabulary;

/// What a custom field holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FieldType {
    Text,
    TextArea,
    Number,
    Date,
    Dropdown,
    Checkbox,
    Email,
    Url,
}

impl Vocabulary for FieldType {
    const ALL: &'static [Self] = &[
        FieldType::Text,
        FieldType::TextArea,
        FieldType::Number,
        FieldType::Date,
        FieldType::Dropdown,
        FieldType::Checkbox,
        FieldType::Email,
        FieldType::Url,
    ];

    fn as_str(self) -> &'static str {
        match self {
            FieldType::Text => "text",
            FieldType::TextArea => "text_area",
            FieldType::Number => "number",
            FieldType::Date => "date",
            FieldType::Dropdown => "dropdown",
            FieldType::Checkbox => "checkbox",
            FieldType::Email => "email",
            FieldType::Url => "url",
        }
    }
}

impl FieldType {
    /// Dropdown and checkbox fields choose among named options; the others take none.
    pub fn has_options(self) -> bool {
        matches!(self, FieldType::Dropdown | FieldType::Checkbox)
    }

    /// The option list a create (`creating`) or an update sends a field of this type
    /// (`None`: none sent): dropdown and checkbox fields are created with options and
    /// never left without; the others take none. `Err`: the problem with `options`.
    pub fn check_options(self, options: Option<&[String]>, creating: bool) -> Result<(), String> {
        match (options, self.has_options()) {
            (Some(_), false) => Err(format!(
                "are only for dropdown and checkbox fields, not {}",
                self.as_str()
            )),
            (None | Some([]), true) if creating => {
                Err("can't be blank for a dropdown or checkbox field".into())
            }
            (Some([]), true) => Err("can't be empty for a dropdown or checkbox field".into()),
            _ => Ok(()),
        }
    }

    /// A field keeps its type: the values already stored were checked against it.
    /// `Err`: the problem with `field_type` when an update sends `new`.
    pub fn check_kept(self, new: FieldType) -> Result<(), String> {
        if new == self {
            Ok(())
        } else {
            Err(format!(
                "can't be changed (it is {}); create a new field instead",
                self.as_str()
            ))
        }
    }
}

/// A kind of record a custom field can apply to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Target {
    FixedAssets,
    Inventory,
    AssetStock,
    Members,
    Vendors,
    Customers,
    Businesses,
    Contacts,
    Orders,
}

impl Vocabulary for Target {
    const ALL: &'static [Self] = &[
        Target::FixedAssets,
        Target::Inventory,
        Target::AssetStock,
        Target::Members,
        Target::Vendors,
        Target::Customers,
        Target::Businesses,
        Target::Contacts,
        Target::Orders,
    ];

    fn as_str(self) -> &'static str {
        match self {
            Target::FixedAssets => "fixed_assets",
            Target::Inventory => "inventory",
            Target::AssetStock => "asset_stock",
            Target::Members => "members",
            Target::Vendors => "vendors",
            Target::Customers => "customers",
            Target::Businesses => "businesses",
            Target::Contacts => "contacts",
            Target::Orders => "orders",
        }
    }
}

/// The kinds of record a field applies to: never empty.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Targets(BTreeSet<Target>);

impl Targets {
    pub fn new(targets: impl IntoIterator<Item = Target>) -> Option<Self> {
        let set: BTreeSet<Target> = targets.into_iter().collect();
        (!set.is_empty()).then_some(Targets(set))
    }

    /// Reads the stored comma-separated form; unknown entries are skipped.
    pub fn from_stored(raw: &str) -> Self {
        Targets(raw.split(',').filter_map(Target::parse_loosely).collect())
    }

    pub fn to_stored(&self) -> String {
        self.iter()
            .map(|t| t.as_str())
            .collect::<Vec<_>>()
            .join(",")
    }

    pub fn contains(&self, target: Target) -> bool {
        self.0.contains(&target)
    }

    pub fn iter(&self) -> impl Iterator<Item = Target> + '_ {
        self.0.iter().copied()
    }
}

/// How a field name is looked up: case-insensitive, with underscores standing for
/// spaces (the wire form `custom_attributes[Serial_Number]` names "Serial Number").
pub fn lookup_key(name: &str) -> String {
    name.trim()
        .replace('_', " ")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

/// One option of a dropdown or checkbox field.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FieldOption {
    pub id: i64,
    pub name: String,
}

/// Checks a value given for a field and returns the form it is stored in: numbers
/// and dates normalised, options by their name (a value may name an option or give
/// its id), checkbox choices joined by ", ".
pub fn normalise_value(
    field_type: FieldType,
    options: &[FieldOption],
    raw: &str,
) -> Result<String, String> {
    let value = raw.trim();
    match field_type {
        FieldType::Text | FieldType::TextArea => Ok(value.to_owned()),
        FieldType::Number => Decimal::from_str(value)
            .or_else(|_| Decimal::from_scientific(value))
            .map(|d| d.normalize().to_string())
            .map_err(|_| "must be a number".to_owned()),
        FieldType::Date => match crate::wire::parse_date(value) {
            Ok(d) => Ok(d.format("%Y-%m-%d").to_string()),
            Err(crate::wire::DateError::NotADate(_)) => {
                Err("must be a date (mm/dd/yyyy or yyyy-mm-dd)".to_owned())
            }
            Err(out_of_range) => Err(format!("must be a date: {out_of_range}")),
        },
        FieldType::Email => {
            if crate::wire::is_email(value) {
                Ok(value.to_owned())
            } else {
                Err("is not an e-mail address".to_owned())
            }
        }
        FieldType::Url => {
            let ok = (value.starts_with("http://") || value.starts_with("https://"))
                && value.len() > 8
                && !value.contains(char::is_whitespace);
            if ok {
                Ok(value.to_owned())
            } else {
                Err("must be an http:// or https:// address".to_owned())
            }
        }
        FieldType::Dropdown => find_option(options, value).map(|o| o.name.clone()),
        FieldType::Checkbox => {
            let mut chosen: Vec<&FieldOption> = Vec::new();
            for part in value.split(',').map(str::trim).filter(|p| !p.is_empty()) {
                let option = find_option(options, part)?;
                if !chosen.iter().any(|o| o.id == option.id) {
                    chosen.push(option);
                }
            }
            if chosen.is_empty() {
                return Err(option_problem(options));
            }
            // Options keep the field's order, whatever order they were sent in.
            chosen.sort_by_key(|o| options.iter().position(|x| x.id == o.id));
            Ok(chosen
                .iter()
                .map(|o| o.name.as_str())
                .collect::<Vec<_>>()
                .join(", "))
        }
    }
}

fn find_option<'a>(options: &'a [FieldOption], value: &str) -> Result<&'a FieldOption, String> {
    let by_id = value
        .parse::<i64>()
        .ok()
        .and_then(|id| options.iter().find(|o| o.id == id));
    by_id
        .or_else(|| options.iter().find(|o| o.name.eq_ignore_ascii_case(value)))
        .ok_or_else(|| option_problem(options))
}

fn option_problem(options: &[FieldOption]) -> String {
    let names: Vec<&str> = options.iter().map(|o| o.name.as_str()).collect();
    format!(
        "must be one of the field's options ({}), by name or id",
        names.join(", ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn opts() -> Vec<FieldOption> {
        vec![
            FieldOption {
                id: 7,
                name: "Red".into(),
            },
            FieldOption {
                id: 9,
                name: "Blue".into(),
            },
        ]
    }

    #[test]
    fn values_are_checked_and_normalised() {
        assert_eq!(
            normalise_value(FieldType::Number, &[], " 12.50 ").unwrap(),
            "12.5"
        );
        assert!(normalise_value(FieldType::Number, &[], "twelve").is_err());
        assert_eq!(
            normalise_value(FieldType::Date, &[], "03/04/2025").unwrap(),
            "2025-03-04"
        );
        assert!(normalise_value(FieldType::Date, &[], "2025-13-01").is_err());
        assert_eq!(
            normalise_value(FieldType::Dropdown, &opts(), "9").unwrap(),
            "Blue"
        );
        assert_eq!(
            normalise_value(FieldType::Dropdown, &opts(), "red").unwrap(),
            "Red"
        );
        assert!(normalise_value(FieldType::Dropdown, &opts(), "Green").is_err());
        assert_eq!(
            normalise_value(FieldType::Checkbox, &opts(), "Blue, 7, blue").unwrap(),
            "Red, Blue"
        );
        assert!(normalise_value(FieldType::Checkbox, &opts(), "Red, Green").is_err());
        assert!(normalise_value(FieldType::Email, &[], "a@b").is_err());
        assert!(normalise_value(FieldType::Url, &[], "ftp://x.y").is_err());
    }

    #[test]
    fn options_suit_the_type_and_the_type_stays() {
        let some = ["A".to_owned()];
        let dropdown = FieldType::Dropdown;
        assert!(dropdown.check_options(Some(&some), true).is_ok());
        assert!(
            dropdown.check_options(None, false).is_ok(),
            "kept on update"
        );
        assert!(
            dropdown
                .check_options(None, true)
                .unwrap_err()
                .contains("blank")
        );
        assert!(
            dropdown
                .check_options(Some(&[]), false)
                .unwrap_err()
                .contains("empty")
        );
        assert!(FieldType::Text.check_options(None, true).is_ok());
        assert!(
            FieldType::Text
                .check_options(Some(&some), false)
                .unwrap_err()
                .contains("only for")
        );
        assert!(FieldType::Text.check_kept(FieldType::Text).is_ok());
        assert!(FieldType::Text.check_kept(FieldType::Number).is_err());
    }

    #[test]
    fn names_and_targets() {
        assert_eq!(lookup_key(" Serial_Number "), "serial number");
        assert_eq!(lookup_key("Serial  number"), "serial number");
        assert_eq!(
            FieldType::parse_loosely("Text Area"),
            Some(FieldType::TextArea)
        );
        let t = Targets::new([Target::Vendors, Target::Members]).unwrap();
        assert_eq!(t.to_stored(), "members,vendors");
        assert_eq!(Targets::from_stored("members,vendors"), t);
        assert!(Targets::new([]).is_none());
    }
}
