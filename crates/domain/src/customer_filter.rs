//! The `filter` / `filter_val` values of the customer, business, contact and person
//! lists, and the order-count comparison some of them take.

/// The number of an account's completed orders compared with a number: `>5`, `>= 5`,
/// `<2`, `<=2`, `=3` or a bare `3` (equal), or the comparison in words as the spec
/// writes it ("greater-than followed by a number"): `greater_than 5`, `greater than 5`,
/// `greater-than5`, `greater_than_or_equal_to 5`, `less_than 2`, `less_than_or_equal 2`,
/// `equal_to 3`, `equals 3`, and the short `gt`, `gte`, `lt`, `lte`, `eq` (any case).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Comparison {
    pub op: Op,
    pub value: i64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Op {
    Gt,
    Ge,
    Lt,
    Le,
    Eq,
}

/// The words of each comparison, longest first so that `greater than or equal to` is
/// not read as `greater than`; separators (`_`, `-`, spaces) are one space here.
const WORDS: &[(&str, Op)] = &[
    ("greater than or equal to", Op::Ge),
    ("greater than or equal", Op::Ge),
    ("less than or equal to", Op::Le),
    ("less than or equal", Op::Le),
    ("greater than", Op::Gt),
    ("less than", Op::Lt),
    ("equal to", Op::Eq),
    ("equals", Op::Eq),
    ("equal", Op::Eq),
    ("gte", Op::Ge),
    ("lte", Op::Le),
    ("gt", Op::Gt),
    ("lt", Op::Lt),
    ("eq", Op::Eq),
    (">=", Op::Ge),
    ("<=", Op::Le),
    (">", Op::Gt),
    ("<", Op::Lt),
    ("=", Op::Eq),
];

impl Comparison {
    pub fn parse(raw: &str) -> Option<Self> {
        let raw = raw.trim().to_lowercase();
        // The words run to their last letter; a sign after them belongs to the number.
        let run = raw
            .find(|c: char| !(c.is_ascii_alphabetic() || matches!(c, '_' | '-' | ' ')))
            .unwrap_or(raw.len());
        let end = raw[..run]
            .rfind(|c: char| c.is_ascii_alphabetic())
            .map_or(0, |i| i + 1);
        let (words, number) = raw.split_at(end);
        let words = words
            .replace(['_', '-'], " ")
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        let (op, rest) = match words.as_str() {
            "" => WORDS
                .iter()
                .find_map(|(sign, op)| number.trim().strip_prefix(sign).map(|r| (*op, r)))
                .unwrap_or((Op::Eq, number)),
            words => (
                WORDS.iter().find(|(w, _)| *w == words).map(|(_, op)| *op)?,
                number,
            ),
        };
        let value = rest.trim().parse::<i64>().ok().filter(|n| *n >= 0)?;
        Some(Comparison { op, value })
    }
}

/// Which records a person list (customers, contacts, or both) is narrowed to.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum PersonFilter {
    /// Active ones: what a list shows without a filter.
    Active,
    /// Active and inactive.
    All,
    Inactive,
    Email(String),
    Category(String),
    Taxed,
    NonTaxed,
    SubscribedEmails,
    NotSubscribedEmails,
    LoginEnabled,
    CheckedOutOrders,
    CompletedOrders(Comparison),
    /// Name contains the text, case aside.
    AccountName(String),
    /// Customers only (persons list).
    Customers,
    /// Business contacts only (persons list).
    BusinessContacts,
    /// Contacts named as the point of contact of some business address.
    PrimaryContactPerson,
    /// ... of a shipping address, of a billing address, of both.
    Shipping,
    Billing,
    Both,
}

/// Which list a filter is read for: each accepts its own set of values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PersonList {
    Customers,
    Contacts,
    Persons,
}

impl PersonList {
    pub fn values(self) -> &'static str {
        match self {
            PersonList::Customers => {
                "email, category, taxed, non_taxed, inactive_customers, subscribed_emails, not_subscribed_emails, checked_out_orders, completed_orders, account_name"
            }
            PersonList::Contacts => {
                "email, subscribed_emails, not_subscribed_emails, all, active_contacts, inactive_contacts, login_enabled, primary_contact_person, shipping, billing, both"
            }
            PersonList::Persons => {
                "email, subscribed_emails, not_subscribed_emails, all, taxed, non_taxed, active_contacts, non_business_contacts, business_contacts, login_enabled"
            }
        }
    }
}

/// `Err` names the parameter at fault and the problem.
pub type FilterError = (&'static str, String);

fn needs_value(filter: &str, value: Option<&str>, what: &str) -> Result<String, FilterError> {
    value.map(str::to_owned).ok_or((
        "filter_val",
        format!("is required with filter={filter}: give {what}"),
    ))
}

fn comparison(value: Option<&str>) -> Result<Comparison, FilterError> {
    let raw = value.ok_or((
        "filter_val",
        "is required with filter=completed_orders: give a comparison such as >5 or <2".to_owned(),
    ))?;
    Comparison::parse(raw).ok_or((
        "filter_val",
        format!("{raw:?} is not a comparison: use >N, >=N, <N, <=N or =N with a whole number N, or words such as greater_than N"),
    ))
}

impl PersonFilter {
    /// Reads `filter` (absent: the default, active records) and `filter_val` for `list`.
    pub fn parse(
        list: PersonList,
        filter: Option<&str>,
        value: Option<&str>,
    ) -> Result<Self, FilterError> {
        let value = value.map(str::trim).filter(|v| !v.is_empty());
        let Some(filter) = filter.map(str::trim) else {
            return match value {
                Some(_) => Err((
                    "filter",
                    format!(
                        "can't be blank with filter_val: use one of {}",
                        list.values()
                    ),
                )),
                None => Ok(PersonFilter::Active),
            };
        };
        use PersonFilter as F;
        use PersonList as L;
        let parsed = match (list, filter) {
            (_, "email") => F::Email(
                needs_value(filter, value, "the e-mail address (URL-encoded)")?.to_lowercase(),
            ),
            (_, "subscribed_emails") => F::SubscribedEmails,
            (_, "not_subscribed_emails") => F::NotSubscribedEmails,
            (L::Customers, "category") => F::Category(needs_value(filter, value, "the category")?),
            (L::Customers | L::Persons, "taxed") => F::Taxed,
            (L::Customers | L::Persons, "non_taxed") => F::NonTaxed,
            (L::Customers, "inactive_customers") => F::Inactive,
            (L::Customers, "checked_out_orders") => F::CheckedOutOrders,
            (L::Customers, "completed_orders") => F::CompletedOrders(comparison(value)?),
            (L::Customers, "account_name") => {
                F::AccountName(needs_value(filter, value, "part of the name")?)
            }
            (L::Contacts | L::Persons, "all") => F::All,
            (L::Contacts | L::Persons, "active_contacts") => F::Active,
            (L::Contacts | L::Persons, "login_enabled") => F::LoginEnabled,
            (L::Contacts, "inactive_contacts") => F::Inactive,
            (L::Contacts, "primary_contact_person") => F::PrimaryContactPerson,
            (L::Contacts, "shipping") => F::Shipping,
            (L::Contacts, "billing") => F::Billing,
            (L::Contacts, "both") => F::Both,
            (L::Persons, "non_business_contacts") => F::Customers,
            (L::Persons, "business_contacts") => F::BusinessContacts,
            _ => return Err(("filter", format!("must be one of {}", list.values()))),
        };
        Ok(parsed)
    }
}

/// Which businesses a list shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BusinessFilter {
    All,
    Active,
    Inactive,
    CheckedOutOrders,
    /// Businesses renting now: an order booked or checked out.
    ActiveCustomers,
    CompletedOrders(Comparison),
}

impl BusinessFilter {
    pub const VALUES: &'static str = "all, active_businesses, inactive_businesses, checked_out_orders, active_customers, completed_orders";

    pub fn parse(filter: Option<&str>, value: Option<&str>) -> Result<Self, FilterError> {
        let value = value.map(str::trim).filter(|v| !v.is_empty());
        Ok(match filter.map(str::trim) {
            None if value.is_some() => {
                return Err((
                    "filter",
                    format!(
                        "can't be blank with filter_val: use one of {}",
                        Self::VALUES
                    ),
                ));
            }
            None | Some("all") => BusinessFilter::All,
            Some("active_businesses") => BusinessFilter::Active,
            Some("inactive_businesses") => BusinessFilter::Inactive,
            Some("checked_out_orders") => BusinessFilter::CheckedOutOrders,
            Some("active_customers") => BusinessFilter::ActiveCustomers,
            Some("completed_orders") => BusinessFilter::CompletedOrders(comparison(value)?),
            Some(_) => return Err(("filter", format!("must be one of {}", Self::VALUES))),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comparisons() {
        assert_eq!(
            Comparison::parse(">5"),
            Some(Comparison {
                op: Op::Gt,
                value: 5
            })
        );
        assert_eq!(
            Comparison::parse(" <= 2"),
            Some(Comparison {
                op: Op::Le,
                value: 2
            })
        );
        assert_eq!(
            Comparison::parse("3"),
            Some(Comparison {
                op: Op::Eq,
                value: 3
            })
        );
        assert_eq!(Comparison::parse(">-1"), None);
        assert_eq!(Comparison::parse("lots"), None);
        assert_eq!(Comparison::parse(">"), None);
    }

    #[test]
    fn comparisons_in_signs_and_in_words() {
        let c = |op, value| Some(Comparison { op, value });
        for (raw, want) in [
            (">5", c(Op::Gt, 5)),
            (" >= 5 ", c(Op::Ge, 5)),
            ("<2", c(Op::Lt, 2)),
            ("<=2", c(Op::Le, 2)),
            ("=3", c(Op::Eq, 3)),
            ("3", c(Op::Eq, 3)),
            ("greater_than 5", c(Op::Gt, 5)),
            ("greater than 5", c(Op::Gt, 5)),
            ("Greater-Than5", c(Op::Gt, 5)),
            ("greater_than_or_equal_to 5", c(Op::Ge, 5)),
            ("greater_than_or_equal 5", c(Op::Ge, 5)),
            ("less_than 2", c(Op::Lt, 2)),
            ("less_than_or_equal_to 2", c(Op::Le, 2)),
            ("equal_to 3", c(Op::Eq, 3)),
            ("equals 3", c(Op::Eq, 3)),
            ("gt 1", c(Op::Gt, 1)),
            ("gte 1", c(Op::Ge, 1)),
            ("lt 1", c(Op::Lt, 1)),
            ("lte 1", c(Op::Le, 1)),
            ("eq 1", c(Op::Eq, 1)),
            ("greater_than", None),
            ("greater_than -1", None),
            ("more than 5", None),
            ("x", None),
            ("", None),
        ] {
            assert_eq!(Comparison::parse(raw), want, "{raw:?}");
        }
    }

    #[test]
    fn filters_per_list() {
        use PersonList::*;
        assert_eq!(
            PersonFilter::parse(Customers, None, None),
            Ok(PersonFilter::Active)
        );
        assert_eq!(
            PersonFilter::parse(Customers, Some("email"), Some("A@B.C")),
            Ok(PersonFilter::Email("a@b.c".into()))
        );
        assert_eq!(
            PersonFilter::parse(Customers, Some("all"), None)
                .unwrap_err()
                .0,
            "filter"
        );
        assert_eq!(
            PersonFilter::parse(Contacts, Some("all"), None),
            Ok(PersonFilter::All)
        );
        assert_eq!(
            PersonFilter::parse(Customers, Some("completed_orders"), Some("x"))
                .unwrap_err()
                .0,
            "filter_val"
        );
        assert_eq!(
            PersonFilter::parse(Persons, Some("business_contacts"), None),
            Ok(PersonFilter::BusinessContacts)
        );
        assert_eq!(
            BusinessFilter::parse(Some("completed_orders"), Some(">2")),
            Ok(BusinessFilter::CompletedOrders(Comparison {
                op: Op::Gt,
                value: 2
            }))
        );
        assert_eq!(
            BusinessFilter::parse(None, Some("x")).unwrap_err().0,
            "filter"
        );
    }
}
