//! Why a change is refused whatever the request's fields say (HTTP 403 and 409): the
//! record is the company owner's, or other records still use it. The store finds out
//! and answers one of these; the HTTP layer words it.

/// An action no request may take on the record (403).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Forbidden {
    /// The company owner's details are the console's to change, not the API's.
    OwnerDetails,
    /// The company owner stays active.
    OwnerDeactivation,
}

/// A record that other records still use, so it cannot be deleted yet (409).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InUse {
    pub record: Record,
    /// Its name, as its list shows it.
    pub name: String,
    pub by: Users,
}

/// The kinds of record a delete can find still in use.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Record {
    Group,
    Subgroup,
    CustomRole,
    Team,
    RetireReason,
    Customer,
    Contact,
}

/// What still uses the record, and how many of them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Users {
    /// Subgroups of a group, or the child subgroups of a subgroup.
    Subgroups(i64),
    Items(i64),
    /// Members given a custom role.
    Members(i64),
    /// Orders of a customer or contact that are not yet completed, void, sold or
    /// cancelled (`OrderState::OPEN`).
    OpenOrders(i64),
    /// Records the database found referring to it, not counted.
    Records,
}
