//! Addresses of members, customers and businesses. Each owner has at most one default
//! address (a business one per address type: shipping, billing, other); the first
//! address of an owner (of a type) becomes the default. Changes to one owner's
//! addresses lock the owner's row, so racing requests never leave two defaults.

use crate::CompanyId;
use crate::ids::{Id, Kind, kind};
use chrono::{DateTime, Utc};
use domain::{Change, Page};
use sea_query::{Expr, ExprTrait, LockType, Query, SelectStatement};

use crate::{Assignments, Db, PageOf, StoreError, Tx, change_log};

/// Whose addresses: the id is the owner's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Owner {
    Member(Id<kind::Member>),
    Customer(Id<kind::Customer>),
    Business(Id<kind::Business>),
}

impl From<Id<kind::Member>> for Owner {
    fn from(id: Id<kind::Member>) -> Self {
        Owner::Member(id)
    }
}

impl From<Id<kind::Customer>> for Owner {
    fn from(id: Id<kind::Customer>) -> Self {
        Owner::Customer(id)
    }
}

impl From<Id<kind::Business>> for Owner {
    fn from(id: Id<kind::Business>) -> Self {
        Owner::Business(id)
    }
}

/// The kinds of business address.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AddressType {
    Shipping,
    Billing,
    Other,
}

impl AddressType {
    pub const NAMES: &'static str = "shipping, billing, other";

    pub fn parse(raw: &str) -> Option<Self> {
        match raw.trim().to_ascii_lowercase().as_str() {
            "shipping" => Some(AddressType::Shipping),
            "billing" => Some(AddressType::Billing),
            "other" => Some(AddressType::Other),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            AddressType::Shipping => "shipping",
            AddressType::Billing => "billing",
            AddressType::Other => "other",
        }
    }
}

impl Owner {
    fn table(self) -> &'static str {
        match self {
            Owner::Member(_) => "member_addresses",
            Owner::Customer(_) => "customer_addresses",
            Owner::Business(_) => "business_addresses",
        }
    }

    fn column(self) -> &'static str {
        match self {
            Owner::Member(_) => "member_id",
            Owner::Customer(_) => "customer_id",
            Owner::Business(_) => "business_id",
        }
    }

    fn id(self) -> i64 {
        match self {
            Owner::Member(id) => id.get(),
            Owner::Customer(id) => id.get(),
            Owner::Business(id) => id.get(),
        }
    }

    /// The error of an owner that is not there.
    fn missing(self) -> StoreError {
        match self {
            Owner::Member(id) => id.missing(),
            Owner::Customer(id) => id.missing(),
            Owner::Business(id) => id.missing(),
        }
    }

    /// The select that finds the owner itself (a customer that is not deleted).
    fn owner_row(self, company: CompanyId) -> SelectStatement {
        let mut stmt = match self {
            Owner::Member(_) => crate::scoped("members", company),
            Owner::Customer(_) => crate::persons::live(company, crate::persons::Kind::Customer),
            Owner::Business(_) => crate::scoped("businesses", company),
        };
        stmt.column("id")
            .and_where(Expr::col("id").eq(self.id()))
            .to_owned()
    }

    /// Columns this owner's table has besides the common ones.
    fn extra_columns(self) -> &'static [&'static str] {
        match self {
            Owner::Member(_) => &[],
            Owner::Customer(_) => &["billing_address"],
            Owner::Business(_) => &["address_type", "contact_id"],
        }
    }
}

#[derive(Debug, Clone, crate::Row)]
pub struct Address {
    pub id: i64,
    pub owner_id: i64,
    pub name: Option<String>,
    pub street1: String,
    pub street2: Option<String>,
    pub city: Option<String>,
    pub state: Option<String>,
    pub zipcode: Option<String>,
    pub country: Option<String>,
    pub longi: Option<String>,
    pub lati: Option<String>,
    pub email: Option<String>,
    pub phone_number: Option<String>,
    pub active: bool,
    pub is_default: bool,
    pub created_by_id: Option<i64>,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
    /// Customer addresses only.
    #[row(default)]
    pub billing_address: Option<bool>,
    /// Business addresses only.
    #[row(default)]
    pub address_type: Option<String>,
    #[row(default)]
    pub contact_id: Option<i64>,
}

const COLUMNS: [&str; 17] = [
    "id",
    "name",
    "street1",
    "street2",
    "city",
    "state",
    "zipcode",
    "country",
    "longi",
    "lati",
    "email",
    "phone_number",
    "active",
    "is_default",
    "created_by_id",
    "created_at",
    "updated_at",
];

#[derive(Debug, Clone, Default)]
pub struct AddressInput {
    /// Required on create.
    pub street1: Option<String>,
    pub name: Change<String>,
    pub street2: Change<String>,
    pub city: Change<String>,
    pub state: Change<String>,
    pub zipcode: Change<String>,
    pub country: Change<String>,
    pub longi: Change<String>,
    pub lati: Change<String>,
    pub email: Change<String>,
    pub phone_number: Change<String>,
    pub active: Option<bool>,
    /// `Some(true)` makes this the owner's only default (of its type); `Some(false)`
    /// unsets it.
    pub default_address: Option<bool>,
    pub created_by_id: Option<i64>,
    /// Customer addresses.
    pub billing_address: Option<bool>,
    /// Business addresses; shipping when not given on create.
    pub address_type: Option<AddressType>,
    /// Business addresses: a contact of the business.
    pub contact_id: Change<i64>,
}

/// Writes the fields of `input` a create and an update write alike: the one place a
/// field of `AddressInput` meets its column.
fn assign(row: &mut Assignments, owner: Owner, input: &AddressInput) {
    let AddressInput {
        street1,
        name,
        street2,
        city,
        state,
        zipcode,
        country,
        longi,
        lati,
        email,
        phone_number,
        active,
        // Decided by the caller, which knows the owner's other addresses.
        default_address: _,
        // Written on create only.
        created_by_id: _,
        billing_address,
        address_type,
        contact_id,
    } = input;
    row.given("street1", street1)
        .change("name", name)
        .change("street2", street2)
        .change("city", city)
        .change("state", state)
        .change("zipcode", zipcode)
        .change("country", country)
        .change("longi", longi)
        .change("lati", lati)
        .change("email", email)
        .change("phone_number", phone_number)
        .given("active", active);
    match owner {
        Owner::Member(_) => {}
        Owner::Customer(_) => {
            row.given("billing_address", billing_address);
        }
        Owner::Business(_) => {
            row.given("address_type", &address_type.map(AddressType::as_str))
                .change("contact_id", contact_id);
        }
    }
}

fn select(company: CompanyId, owner: Owner) -> SelectStatement {
    crate::scoped(owner.table(), company)
        .columns(COLUMNS)
        .columns(owner.extra_columns().iter().copied())
        .expr_as(Expr::col(owner.column()), "owner_id")
        .and_where(Expr::col(owner.column()).eq(owner.id()))
        .to_owned()
}

/// Lists an owner's addresses; an unknown owner is a 404, not an empty list.
#[tracing::instrument(level = "debug", skip_all)]
pub async fn list(
    db: &Db,
    company: CompanyId,
    owner: Owner,
    page: Page,
) -> Result<PageOf<Address>, StoreError> {
    let mut read = db.read();
    if read
        .optional::<(i64,)>(&owner.owner_row(company))
        .await?
        .is_none()
    {
        return Err(owner.missing());
    }
    let base = crate::scoped(owner.table(), company)
        .and_where(Expr::col(owner.column()).eq(owner.id()))
        .to_owned();
    let rows = select(company, owner)
        .order_by("id", sea_query::Order::Asc)
        .to_owned();
    crate::page_of(db, &base, rows, "id", page, crate::Total::Filtered).await
}

#[tracing::instrument(level = "debug", skip_all)]
pub async fn find(
    db: &Db,
    company: CompanyId,
    owner: Owner,
    id: Id<kind::Address>,
) -> Result<Address, StoreError> {
    let stmt = select(company, owner)
        .and_where(Expr::col("id").eq(id))
        .to_owned();
    db.read().optional(&stmt).await?.ok_or(id.missing())
}

/// The owner's default address (of `address_type`, for a business).
#[tracing::instrument(level = "debug", skip_all)]
pub async fn default_address(
    db: &Db,
    company: CompanyId,
    owner: Owner,
    address_type: Option<AddressType>,
) -> Result<Address, StoreError> {
    db.read()
        .optional(&default_of(company, owner, address_type))
        .await?
        .ok_or(StoreError::NotFound(Kind::DefaultAddress))
}

fn default_of(
    company: CompanyId,
    owner: Owner,
    address_type: Option<AddressType>,
) -> SelectStatement {
    let mut stmt = select(company, owner)
        .and_where(Expr::col("is_default").eq(crate::constant(true)))
        .to_owned();
    if let Some(t) = address_type {
        stmt.and_where(Expr::col("address_type").eq(t.as_str()));
    }
    stmt
}

async fn clear_default(
    tx: &mut Tx,
    company: CompanyId,
    owner: Owner,
    address_type: Option<AddressType>,
) -> Result<(), StoreError> {
    let mut stmt = Query::update()
        .table(owner.table())
        .values([("is_default", Expr::val(false))])
        .and_where(Expr::col("company_id").eq(company.0))
        .and_where(Expr::col(owner.column()).eq(owner.id()))
        .and_where(Expr::col("is_default").eq(crate::constant(true)))
        .to_owned();
    if let Some(t) = address_type {
        stmt.and_where(Expr::col("address_type").eq(t.as_str()));
    }
    tx.execute(&stmt).await?;
    Ok(())
}

/// Checks the references an address makes: its recorder is a member, and a business
/// address's contact is a contact of that business.
async fn check_references(
    tx: &mut Tx,
    company: CompanyId,
    owner: Owner,
    input: &AddressInput,
) -> Result<(), StoreError> {
    if let Some(id) = input.created_by_id
        && !crate::members::exists(tx, company, Id::new(id)).await?
    {
        return Err(StoreError::invalid(
            "created_by_id",
            format!("is not a member of this company: no member with id {id}"),
        ));
    }
    if let (Owner::Business(business), Change::Set(contact)) = (owner, &input.contact_id) {
        let stmt = crate::scoped("business_contacts", company)
            .column("contact_id")
            .and_where(Expr::col("business_id").eq(business))
            .and_where(Expr::col("contact_id").eq(*contact))
            .to_owned();
        if tx.optional::<(i64,)>(&stmt).await?.is_none() {
            return Err(StoreError::invalid(
                "contact_id",
                format!(
                    "is not a contact of this business: no contact with id {contact} belongs to it"
                ),
            ));
        }
    }
    Ok(())
}

/// Locks the owner's row for the rest of the transaction; `NotFound` if absent.
async fn lock_owner(tx: &mut Tx, company: CompanyId, owner: Owner) -> Result<(), StoreError> {
    let stmt = owner.owner_row(company).lock(LockType::Update).to_owned();
    tx.optional::<(i64,)>(&stmt)
        .await?
        .map(|_| ())
        .ok_or(owner.missing())
}

fn subject(owner: Owner) -> &'static str {
    match owner {
        Owner::Member(_) => "member_address",
        Owner::Customer(_) => "customer_address",
        Owner::Business(_) => "business_address",
    }
}

#[tracing::instrument(level = "debug", skip_all)]
pub async fn create(
    db: &Db,
    company: CompanyId,
    owner: Owner,
    input: AddressInput,
) -> Result<Address, StoreError> {
    if input.street1.is_none() {
        return Err(StoreError::invalid("street1", "can't be blank"));
    }
    let address_type = match owner {
        Owner::Business(_) => Some(input.address_type.unwrap_or(AddressType::Shipping)),
        _ => None,
    };
    let input = AddressInput {
        active: Some(input.active.unwrap_or(true)),
        billing_address: Some(input.billing_address.unwrap_or(false)),
        address_type,
        ..input
    };
    let mut tx = db.begin().await?;
    lock_owner(&mut tx, company, owner).await?;
    check_references(&mut tx, company, owner, &input).await?;
    let has_default = tx
        .optional::<Address>(&default_of(company, owner, address_type))
        .await?
        .is_some();
    let is_default = match input.default_address {
        Some(true) => {
            clear_default(&mut tx, company, owner, address_type).await?;
            true
        }
        Some(false) => false,
        None => !has_default,
    };
    let at = crate::now();
    let mut row = Assignments::insert();
    row.set("company_id", company.0)
        .set(owner.column(), owner.id())
        .set("is_default", is_default)
        .set("created_by_id", input.created_by_id)
        .set("created_at", at)
        .set("updated_at", at);
    assign(&mut row, owner, &input);
    let (id,): (i64,) = tx
        .one(
            &row.into_insert(owner.table())
                .returning(Query::returning().column("id"))
                .to_owned(),
        )
        .await?;
    change_log::record(
        &mut tx,
        company,
        subject(owner),
        id,
        "created",
        serde_json::json!({"owner_id": owner.id(), "default": is_default}),
    )
    .await?;
    let address: Address = tx
        .one(
            &select(company, owner)
                .and_where(Expr::col("id").eq(id))
                .to_owned(),
        )
        .await?;
    tx.commit().await?;
    Ok(address)
}

#[tracing::instrument(level = "debug", skip_all)]
pub async fn update(
    db: &Db,
    company: CompanyId,
    owner: Owner,
    id: Id<kind::Address>,
    input: AddressInput,
) -> Result<Address, StoreError> {
    let mut tx = db.begin().await?;
    lock_owner(&mut tx, company, owner).await?;
    let before: Address = tx
        .optional(
            &select(company, owner)
                .and_where(Expr::col("id").eq(id))
                .to_owned(),
        )
        .await?
        .ok_or(id.missing())?;
    check_references(&mut tx, company, owner, &input).await?;
    let stored_type = before.address_type.as_deref().and_then(AddressType::parse);
    let address_type = input.address_type.or(stored_type);
    let mut row = Assignments::update();
    assign(&mut row, owner, &input);
    // Moving a default address to another type leaves it the default only if that
    // type has none; `default_address` decides otherwise.
    let default = match input.default_address {
        Some(d) => Some(d),
        None if before.is_default && address_type != stored_type => Some(false),
        None => None,
    };
    if let Some(default) = default {
        if default {
            clear_default(&mut tx, company, owner, address_type).await?;
        }
        row.set("is_default", default);
    }
    tx.execute(&row.into_update(owner.table(), company, id.get()))
        .await?;
    change_log::record(
        &mut tx,
        company,
        subject(owner),
        id.get(),
        "updated",
        serde_json::json!({"owner_id": owner.id()}),
    )
    .await?;
    let address: Address = tx
        .one(
            &select(company, owner)
                .and_where(Expr::col("id").eq(id))
                .to_owned(),
        )
        .await?;
    tx.commit().await?;
    Ok(address)
}
