//! Members' (shipping) addresses. A member has at most one default address; the
//! first address a member gets becomes the default.

use chrono::{DateTime, Utc};
use domain::{Change, CompanyId, Page};
use sea_query::{Expr, ExprTrait, Query, SelectStatement};

use crate::{change_log, Assignments, now, Db, PageOf, StoreError, Tx};

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct Address {
    pub id: i64,
    pub member_id: i64,
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
}

const COLUMNS: [&str; 18] = [
    "id",
    "member_id",
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

/// Optional text fields, in the order of `AddressInput::text`.
pub const TEXT_FIELDS: [&str; 10] = ["name", "street2", "city", "state", "zipcode", "country", "longi", "lati", "email", "phone_number"];

#[derive(Debug, Clone, Default)]
pub struct AddressInput {
    /// Required on create.
    pub street1: Option<String>,
    pub text: [Change<String>; 10],
    pub active: Option<bool>,
    /// `Some(true)` makes this the member's only default; `Some(false)` unsets it.
    pub default_address: Option<bool>,
    pub created_by_id: Option<i64>,
}

fn scoped(company: CompanyId, member: i64) -> SelectStatement {
    crate::scoped("member_addresses", company).and_where(Expr::col("member_id").eq(member)).to_owned()
}

/// Lists a member's addresses; an unknown member is a 404, not an empty list.
pub async fn list(db: &Db, company: CompanyId, member: i64, page: Page) -> Result<PageOf<Address>, StoreError> {
    let mut read = db.read();
    let exists = crate::scoped("members", company).column("id").and_where(Expr::col("id").eq(member)).to_owned();
    if read.optional::<(i64,)>(&exists).await?.is_none() {
        return Err(StoreError::NotFound);
    }
    drop(read);
    crate::paged(db, scoped(company, member), COLUMNS, page).await
}

pub async fn find(db: &Db, company: CompanyId, member: i64, id: i64) -> Result<Address, StoreError> {
    let stmt = scoped(company, member).columns(COLUMNS).and_where(Expr::col("id").eq(id)).to_owned();
    db.read().optional(&stmt).await?.ok_or(StoreError::NotFound)
}

pub async fn default_address(db: &Db, company: CompanyId, member: i64) -> Result<Address, StoreError> {
    let stmt = scoped(company, member).columns(COLUMNS).and_where(Expr::col("is_default").eq(true)).to_owned();
    db.read().optional(&stmt).await?.ok_or(StoreError::NotFound)
}

async fn clear_default(tx: &mut Tx, company: CompanyId, member: i64) -> Result<(), StoreError> {
    let stmt = Query::update()
        .table("member_addresses")
        .values([("is_default", Expr::val(false))])
        .and_where(Expr::col("company_id").eq(company.0))
        .and_where(Expr::col("member_id").eq(member))
        .and_where(Expr::col("is_default").eq(true))
        .to_owned();
    tx.execute(&stmt).await?;
    Ok(())
}

async fn check_creator(tx: &mut Tx, company: CompanyId, creator: Option<i64>) -> Result<(), StoreError> {
    match creator {
        Some(id) if !crate::members::exists(tx, company, id).await? => {
            Err(StoreError::invalid("created_by_id", format!("is not a member of this company: no member with id {id}")))
        }
        _ => Ok(()),
    }
}

pub async fn create(db: &Db, company: CompanyId, member: i64, input: AddressInput) -> Result<Address, StoreError> {
    let Some(street1) = input.street1 else {
        return Err(StoreError::invalid("street1", "can't be blank"));
    };
    let mut tx = db.begin().await?;
    crate::members::lock(&mut tx, company, member).await?;
    check_creator(&mut tx, company, input.created_by_id).await?;
    let has_default = {
        let stmt = scoped(company, member).column("id").and_where(Expr::col("is_default").eq(true)).to_owned();
        tx.optional::<(i64,)>(&stmt).await?.is_some()
    };
    let is_default = match input.default_address {
        Some(true) => {
            clear_default(&mut tx, company, member).await?;
            true
        }
        Some(false) => false,
        None => !has_default,
    };
    let at = now();
    let mut row = Assignments::insert();
    row.set("company_id", company.0)
        .set("member_id", member)
        .set("street1", street1)
        .set("active", input.active.unwrap_or(true))
        .set("is_default", is_default)
        .set("created_by_id", input.created_by_id)
        .set("created_at", at)
        .set("updated_at", at)
        .changes(&TEXT_FIELDS, &input.text);
    let stmt = row.into_insert("member_addresses").returning(Query::returning().columns(COLUMNS)).to_owned();
    let address: Address = tx.one(&stmt).await?;
    change_log::record(&mut tx, company, "member_address", address.id, "created", serde_json::json!({"member_id": member, "default": is_default})).await?;
    tx.commit().await?;
    Ok(address)
}

pub async fn update(db: &Db, company: CompanyId, member: i64, id: i64, input: AddressInput) -> Result<Address, StoreError> {
    let mut tx = db.begin().await?;
    crate::members::lock(&mut tx, company, member).await?;
    let select = scoped(company, member).columns(COLUMNS).and_where(Expr::col("id").eq(id)).to_owned();
    let _: Address = tx.optional(&select).await?.ok_or(StoreError::NotFound)?;
    let mut row = Assignments::update();
    if let Some(street1) = &input.street1 {
        row.set("street1", street1.clone());
    }
    row.changes(&TEXT_FIELDS, &input.text);
    if let Some(active) = input.active {
        row.set("active", active);
    }
    if let Some(default) = input.default_address {
        if default {
            clear_default(&mut tx, company, member).await?;
        }
        row.set("is_default", default);
    }
    let stmt = row.into_update("member_addresses", company, id).returning(Query::returning().columns(COLUMNS)).to_owned();
    let address: Address = tx.one(&stmt).await?;
    change_log::record(&mut tx, company, "member_address", id, "updated", serde_json::json!({"member_id": member, "default": address.is_default})).await?;
    tx.commit().await?;
    Ok(address)
}
