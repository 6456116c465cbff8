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
    /// Credit-card payments are taken and voided by the card processor, not the API.
    CreditCardPayment,
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

/// The state of an item or request forbids the action (409); the words name the state.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Conflict {
    /// An action of one kind of item (`wanted`) on another kind.
    WrongKind {
        number: i64,
        asset_type: crate::item::AssetType,
        wanted: crate::item::AssetType,
    },
    /// Other members' approved reservations need the units a sale or a stock check-out
    /// asks for.
    StockReserved {
        number: i64,
        /// Units reserved for the period by others.
        reserved: i64,
        on_hand: i64,
        /// The first of those reservations.
        member: String,
        from: chrono::NaiveDate,
        to: chrono::NaiveDate,
    },
    /// Units of an asset stock item are still checked out.
    StockCheckedOut {
        number: i64,
        quantity: i64,
    },
    Retired {
        number: i64,
    },
    /// Checked out already (`to`: the holder's name).
    CheckedOut {
        number: i64,
        to: String,
    },
    NotCheckedOut {
        number: i64,
    },
    NotRetired {
        number: i64,
    },
    /// A fixed asset is being serviced (its open service, and what is done).
    InService {
        number: i64,
        service: i64,
        service_type: String,
    },
    /// The service was completed already.
    ServiceCompleted {
        number: i64,
        service: i64,
    },
    /// An approved reservation of someone (`mine`: of the member checking out) stands
    /// in the way.
    Reserved {
        number: i64,
        member: String,
        from: chrono::NaiveDate,
        to: chrono::NaiveDate,
        mine: bool,
    },
    /// Approving would make the approved reservations of inventory or asset stock
    /// need more units on one day than the item has.
    StockOverbooked {
        number: i64,
        /// Units the request asks for.
        wanted: i64,
        /// Units the item has.
        units: i64,
        /// The most units other approved reservations need on one day of the request.
        reserved: i64,
    },
    /// The order's state does not allow changing these attributes.
    OrderFieldsLocked {
        number: i64,
        state: crate::order::OrderState,
        fields: Vec<crate::order::OrderField>,
    },
    /// The order's state does not allow the action (`action`: "rent out", "add items
    /// to", ...).
    OrderState {
        number: i64,
        state: crate::order::OrderState,
        action: &'static str,
    },
    /// What is promised of an item elsewhere leaves too little for a promise: at one
    /// moment of the period `promised` of its `units` are held, `wanted` more are asked;
    /// `held` is the first promise in the way at that moment (none when the item has
    /// fewer units than asked at all).
    Held {
        number: i64,
        name: String,
        wanted: i64,
        units: i64,
        promised: i64,
        held: Option<Box<crate::availability::Held>>,
    },
    /// An item on an order cannot be deleted.
    OnOrder {
        number: i64,
    },
    /// The payment was voided already.
    PaymentVoided {
        number: i64,
        id: i64,
    },
    /// A fixed asset rented out on an order comes back with the order's return, not a
    /// member's check-in; it cannot be checked out, extended or retired meanwhile.
    RentedOut {
        number: i64,
        order: i64,
    },
    /// Approving would overlap another approved reservation of the asset.
    ReservationOverlap {
        number: i64,
        other: i64,
        from: chrono::NaiveDate,
        to: chrono::NaiveDate,
    },
    /// The request has been decided already.
    ReservationDecided {
        id: i64,
        status: crate::reservation::ReservationStatus,
        decision: crate::reservation::Decision,
    },
    VerificationPending {
        number: i64,
    },
    NoPendingVerification {
        number: i64,
    },
    /// The company has as many webhook endpoints as it may.
    WebhookLimit {
        max: usize,
    },
}

/// What is wrong with one field of a write, as the store found it (HTTP 422). The
/// variants that need the interface's words (where to look a value up, what to send
/// instead) carry the facts; the HTTP layer words every one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Problem {
    /// The value names no record of `list` in this company (for custom filters, the
    /// filter's id).
    NotInCompany { list: Listed, value: String },
    /// The member is deactivated, so cannot be given or hold anything.
    InactiveMember { id: i64, name: String },
    /// Items on an order that were not marked for sale (their names, comma-separated).
    NotForSale { items: String },
    /// Inventory on an order line that never had a price to charge.
    NeverPriced { number: i64, name: String },
    /// Line items that are not open check-outs of stock item `number`.
    NotOpenCheckouts { number: i64, line_items: Vec<i64> },
    /// A bundle sent without any item.
    NoBundleItems,
    /// An item an order would rent out has no rental rate.
    NoRentalRate { number: i64, name: String },
    /// Coupons that are not valid on the order's day: inactive, or outside their
    /// validity (each "id (name)").
    CouponsNotValid {
        day: chrono::NaiveDate,
        coupons: Vec<String>,
    },
    /// A business name that names several businesses of the company.
    AmbiguousBusiness { name: String, count: usize },
    /// The business name names another business than the business id the order has.
    OtherBusiness { named: i64, given: i64 },
    /// No business chosen for a customer who is a contact of several (each "name (id)").
    SeveralBusinesses {
        customer: i64,
        businesses: Vec<String>,
    },
    /// The end of billing is not later than its start (the rent-out's, or the order's).
    BillingEndsBeforeStart,
    /// A partial return that names nothing to return.
    NothingToReturn,
    /// What a partial return names that is not out on order `order`.
    NotOut {
        order: i64,
        what: Out,
        entries: Vec<String>,
    },
    /// Items come back late with a late fee, and nothing says when the fee stops
    /// (each "#number (name)").
    LateWithoutEnd { items: Vec<String> },
    /// A fixed asset is reserved whole: a quantity other than 1 makes no sense.
    ReservedWhole { number: i64 },
    /// A moment out of order with another moment of the same write or record.
    OutOfOrder { must: Must, other: Moment },
    /// Several problems of one field (one per item a list names), said as one.
    Each(Vec<Problem>),
    /// A plain-language problem with no reference to the interface ("can't be blank",
    /// "is too long (maximum is 255 characters)").
    Plain(String),
}

/// How a moment must stand to another.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Must {
    BeLater,
    NotBeBefore,
    NotBeAfter,
}

/// The moments of an order or a booking another moment is checked against.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Moment {
    ExpectedCheckout,
    Due,
    BillFrom,
    /// The start of a booking's period.
    From,
}

/// What a partial return can name that must be out on the order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Out {
    FixedAssets,
    SubRentals,
    /// A line of asset stock, by its id.
    StockLine,
    Bundle,
}

/// The lists a value can be missing from, each of which the interface can point to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Listed {
    Listings,
    ActiveListings,
    RetireReasons,
    PaymentOptions,
    /// The label templates of one type (`assets`, `locations`, ...).
    LabelTemplates {
        template_type: String,
    },
    /// The custom filters of one kind of item.
    CustomFilters {
        assets_type: String,
    },
}

impl From<String> for Problem {
    fn from(said: String) -> Self {
        Problem::Plain(said)
    }
}

impl From<&str> for Problem {
    fn from(said: &str) -> Self {
        Problem::Plain(said.to_owned())
    }
}
