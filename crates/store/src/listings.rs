//! Store listings (a rentrack extension): the shops of a company that an order is
//! placed through (`user_listing_name`) and that members belong to
//! (`user[user_listing_id]`). A name is unique in the company; a listing is
//! deactivated, never deleted, so the orders that name it keep a real one. Renaming a
//! listing renames it on its orders in the same transaction.

use crate::CompanyId;
use crate::ids::{Id, Kind, kind};
use chrono::{DateTime, Utc};
use domain::{Change, Page};
use sea_query::{Expr, ExprTrait, LockType, Query};

use crate::{Assignments, Db, PageOf, StoreError, Tx, activation, change_log, now};

#[derive(Debug, Clone, crate::Row)]
pub struct Listing {
    pub id: i64,
    pub name: String,
    pub description: Option<String>,
    pub active: bool,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
}

const COLUMNS: [&str; 6] = [
    "id",
    "name",
    "description",
    "active",
    "created_at",
    "updated_at",
];

/// What a create or an update carries: the name is required on create and cannot be
/// cleared (the HTTP layer says so).
#[derive(Debug, Clone, Default)]
pub struct ListingInput {
    pub name: Option<String>,
    pub description: Change<String>,
}

/// A page of the company's listings, by id: all of them, or the active or inactive
/// ones.
#[tracing::instrument(level = "debug", skip_all)]
pub async fn list(
    db: &Db,
    company: CompanyId,
    active: Option<bool>,
    page: Page,
) -> Result<PageOf<Listing>, StoreError> {
    let mut select = crate::scoped("listings", company);
    if let Some(a) = active {
        select.and_where(Expr::col("active").eq(a));
    }
    crate::paged(
        db,
        select,
        COLUMNS,
        page,
        crate::Total::by_status(company, active, COUNTED),
    )
    .await
}

#[tracing::instrument(level = "debug", skip_all)]
pub async fn find(
    db: &Db,
    company: CompanyId,
    id: Id<kind::Listing>,
) -> Result<Listing, StoreError> {
    let stmt = crate::scoped("listings", company)
        .columns(COLUMNS)
        .and_where(Expr::col("id").eq(id))
        .to_owned();
    db.read()
        .optional(&stmt)
        .await?
        .ok_or(StoreError::NotFound(Kind::Listing))
}

async fn locked(
    tx: &mut Tx,
    company: CompanyId,
    id: Id<kind::Listing>,
) -> Result<Listing, StoreError> {
    let stmt = crate::scoped("listings", company)
        .columns(COLUMNS)
        .and_where(Expr::col("id").eq(id))
        .lock(LockType::Update)
        .to_owned();
    tx.optional(&stmt)
        .await?
        .ok_or(StoreError::NotFound(Kind::Listing))
}

#[tracing::instrument(level = "debug", skip_all)]
pub async fn create(
    db: &Db,
    company: CompanyId,
    input: ListingInput,
) -> Result<Listing, StoreError> {
    let Some(name) = input.name else {
        return Err(StoreError::invalid("name", "can't be blank"));
    };
    let at = now();
    let mut row = Assignments::insert();
    row.set("company_id", company.0)
        .set("name", name.as_str())
        .change("description", &input.description)
        .set("active", true)
        .set("created_at", at)
        .set("updated_at", at);
    let mut tx = db.begin().await?;
    let (id,): (i64,) = tx
        .one(
            &row.into_insert("listings")
                .returning(Query::returning().column("id"))
                .to_owned(),
        )
        .await?;
    change_log::record(
        &mut tx,
        company,
        "listing",
        id,
        "created",
        serde_json::json!({"name": name}),
    )
    .await?;
    let listing = locked(&mut tx, company, Id::new(id)).await?;
    tx.commit().await?;
    Ok(listing)
}

/// Changes a listing; a new name is the name of its orders too, in the same
/// transaction.
#[tracing::instrument(level = "debug", skip_all)]
pub async fn update(
    db: &Db,
    company: CompanyId,
    id: Id<kind::Listing>,
    input: ListingInput,
) -> Result<Listing, StoreError> {
    let mut tx = db.begin().await?;
    let before = locked(&mut tx, company, id).await?;
    let mut row = Assignments::update();
    row.given("name", &input.name)
        .change("description", &input.description);
    tx.execute(&row.into_update("listings", company, id.get()))
        .await?;
    if let Some(name) = input.name.as_ref().filter(|n| **n != before.name) {
        let orders = Query::update()
            .table("orders")
            .value("user_listing_name", name.as_str())
            .and_where(Expr::col("company_id").eq(company.0))
            .and_where(Expr::col("user_listing_name").eq(before.name.as_str()))
            .to_owned();
        tx.execute(&orders).await?;
    }
    change_log::record(
        &mut tx,
        company,
        "listing",
        id.get(),
        "updated",
        serde_json::json!({"name": input.name, "was": before.name}),
    )
    .await?;
    let listing = locked(&mut tx, company, id).await?;
    tx.commit().await?;
    Ok(listing)
}

/// Marks a listing active or inactive; an inactive one takes no new orders or
/// members.
#[tracing::instrument(level = "debug", skip_all)]
pub async fn set_active(
    db: &Db,
    company: CompanyId,
    id: Id<kind::Listing>,
    active: bool,
) -> Result<Listing, StoreError> {
    let mut tx = db.begin().await?;
    let before = locked(&mut tx, company, id).await?;
    activation::set_active(
        &mut tx,
        company,
        ("listings", "listing"),
        id.get(),
        before.active,
        active,
    )
    .await?;
    let listing = locked(&mut tx, company, id).await?;
    tx.commit().await?;
    Ok(listing)
}

/// Whether `name` is an active listing of the company (an order's
/// `user_listing_name`).
pub(crate) async fn is_active_name(
    tx: &mut Tx,
    company: CompanyId,
    name: &str,
) -> Result<bool, StoreError> {
    let stmt = crate::scoped("listings", company)
        .column("id")
        .and_where(Expr::col("name").eq(name))
        .and_where(Expr::col("active").eq(true))
        .to_owned();
    Ok(tx.optional::<(i64,)>(&stmt).await?.is_some())
}

/// The listing whose id `raw` is (a member's `user_listing_id`, the asset filters'
/// listing), if it can be one.
fn by_id(company: CompanyId, raw: &str) -> Option<sea_query::SelectStatement> {
    let id = raw.trim().parse::<i64>().ok().filter(|n| *n > 0)?;
    Some(
        crate::scoped("listings", company)
            .column("id")
            .and_where(Expr::col("id").eq(id))
            .to_owned(),
    )
}

/// Whether `raw` is the id of a listing of the company, read in `tx`.
pub(crate) async fn is_listing_id(
    tx: &mut Tx,
    company: CompanyId,
    raw: &str,
) -> Result<bool, StoreError> {
    match by_id(company, raw) {
        Some(stmt) => Ok(tx.optional::<(i64,)>(&stmt).await?.is_some()),
        None => Ok(false),
    }
}

/// Whether `raw` is the id of a listing of the company.
pub(crate) async fn is_listing_id_in(
    db: &Db,
    company: CompanyId,
    raw: &str,
) -> Result<bool, StoreError> {
    match by_id(company, raw) {
        Some(stmt) => Ok(db.read().optional::<(i64,)>(&stmt).await?.is_some()),
        None => Ok(false),
    }
}

/// The partitions of `list_counts` listings are counted in (migration 0017's trigger).
pub(crate) const COUNTED: crate::ByStatus = crate::ByStatus {
    active: "listings:active",
    inactive: "listings:inactive",
};
