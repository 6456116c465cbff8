//! Members: the people of a company, their roles, and how member lists are filtered.

use crate::customer_filter::FilterError;

/// A member's role: the two built-in ones, or one of the company's custom roles.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    Administrator,
    Staff,
    Custom(i64),
}

impl Role {
    pub const ADMINISTRATOR_ID: i64 = 1;
    pub const STAFF_ID: i64 = 2;

    /// `1` administrator, `2` staff, any other positive id a custom role (whose
    /// existence the store checks).
    pub fn from_id(id: i64) -> Option<Role> {
        match id {
            Self::ADMINISTRATOR_ID => Some(Role::Administrator),
            Self::STAFF_ID => Some(Role::Staff),
            n if n > 2 => Some(Role::Custom(n)),
            _ => None,
        }
    }

    pub fn id(self) -> i64 {
        match self {
            Role::Administrator => Self::ADMINISTRATOR_ID,
            Role::Staff => Self::STAFF_ID,
            Role::Custom(id) => id,
        }
    }

    pub fn custom_role_id(self) -> Option<i64> {
        match self {
            Role::Custom(id) => Some(id),
            _ => None,
        }
    }

    pub fn builtin_name(self) -> Option<&'static str> {
        match self {
            Role::Administrator => Some("Administrator"),
            Role::Staff => Some("Staff"),
            Role::Custom(_) => None,
        }
    }
}

/// The `status` values of the member list filter.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum StatusFilter {
    Active,
    Inactive,
    Login,
    NonLogin,
    All,
}

impl StatusFilter {
    pub fn parse(raw: &str) -> Option<Self> {
        match raw.trim().to_ascii_lowercase().as_str() {
            "active" => Some(StatusFilter::Active),
            "inactive" => Some(StatusFilter::Inactive),
            "login" => Some(StatusFilter::Login),
            "non_login" | "non-login" | "nonlogin" => Some(StatusFilter::NonLogin),
            "all" => Some(StatusFilter::All),
            _ => None,
        }
    }
}

/// What a member list is narrowed to (`filter` and `filter_val`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MemberFilter {
    Email(String),
    EmployeeId(String),
    Status(StatusFilter),
    /// Every word in the first name, last name or e-mail, case aside (not in the
    /// hosted service's interface: the staff pages' member search).
    Name(String),
}

/// The most characters of a name search that are looked for.
pub const MAX_NAME_SEARCH: usize = 100;

impl MemberFilter {
    pub const NAMES: &'static str = "email, employee_identification_number, status, name";
    pub const STATUS_VALUES: &'static str = "active, inactive, login, non_login, all";

    /// Reads `filter` (absent: every member) and `filter_val`.
    pub fn parse(filter: Option<&str>, value: Option<&str>) -> Result<Self, FilterError> {
        let value = value.map(str::trim).filter(|v| !v.is_empty());
        let Some(filter) = filter else {
            return match value {
                Some(_) => Err((
                    "filter",
                    format!("can't be blank with filter_val: use one of {}", Self::NAMES),
                )),
                None => Ok(MemberFilter::Status(StatusFilter::All)),
            };
        };
        match filter.trim() {
            "email" => value
                .map(|v| MemberFilter::Email(v.to_lowercase()))
                .ok_or(("filter_val", "is required with filter=email".into())),
            "employee_identification_number" | "employee_id" => value
                .map(|v| MemberFilter::EmployeeId(v.to_owned()))
                .ok_or((
                    "filter_val",
                    "is required with filter=employee_identification_number".into(),
                )),
            "name" => value
                .map(|v| MemberFilter::Name(v.chars().take(MAX_NAME_SEARCH).collect()))
                .ok_or(("filter_val", "is required with filter=name".into())),
            "status" => match value {
                None => Ok(MemberFilter::Status(StatusFilter::All)),
                Some(v) => StatusFilter::parse(v).map(MemberFilter::Status).ok_or((
                    "filter_val",
                    format!("must be one of {}", Self::STATUS_VALUES),
                )),
            },
            _ => Err(("filter", format!("must be one of {}", Self::NAMES))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roles_by_id() {
        assert_eq!(Role::from_id(1), Some(Role::Administrator));
        assert_eq!(Role::from_id(2), Some(Role::Staff));
        assert_eq!(Role::from_id(7), Some(Role::Custom(7)));
        assert_eq!(Role::from_id(0), None);
        assert_eq!(Role::Custom(7).id(), 7);
    }

    #[test]
    fn filters() {
        assert_eq!(
            MemberFilter::parse(Some("email"), Some("A@B.test")),
            Ok(MemberFilter::Email("a@b.test".into()))
        );
        assert_eq!(
            MemberFilter::parse(Some("status"), Some("non_login")),
            Ok(MemberFilter::Status(StatusFilter::NonLogin))
        );
        assert_eq!(
            MemberFilter::parse(Some("status"), Some("gone"))
                .unwrap_err()
                .0,
            "filter_val"
        );
        assert_eq!(
            MemberFilter::parse(Some("email"), None).unwrap_err().0,
            "filter_val"
        );
        assert_eq!(
            MemberFilter::parse(Some("colour"), Some("x"))
                .unwrap_err()
                .0,
            "filter"
        );
        assert_eq!(
            MemberFilter::parse(None, None),
            Ok(MemberFilter::Status(StatusFilter::All))
        );
        assert_eq!(
            MemberFilter::parse(None, Some("active")).unwrap_err().0,
            "filter"
        );
    }
}
