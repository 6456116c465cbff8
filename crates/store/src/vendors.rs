//! Vendors (suppliers), with custom field values.

use chrono::{DateTime, Utc};
use domain::{Change, CompanyId, Name, Page};
use sea_query::{Expr, ExprTrait, LockType, Query, SelectStatement};
use std::collections::BTreeMap;

use crate::custom_fields::merge_values;
use crate::{Assignments, Db, PageOf, StoreError, change_log, now};

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct Vendor {
    pub id: i64,
    pub name: String,
    pub description: Option<String>,
    pub website: Option<String>,
    pub address: Option<String>,
    pub contact_person_name: Option<String>,
    pub email: Option<String>,
    pub phone_number: Option<String>,
    pub fax: Option<String>,
    /// JSON object keyed by custom field id.
    pub custom_attributes: String,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
}

const COLUMNS: [&str; 12] = [
    "id",
    "name",
    "description",
    "website",
    "address",
    "contact_person_name",
    "email",
    "phone_number",
    "fax",
    "custom_attributes",
    "created_at",
    "updated_at",
];

pub const TEXT_FIELDS: [&str; 7] = [
    "description",
    "website",
    "address",
    "contact_person_name",
    "email",
    "phone_number",
    "fax",
];

#[derive(Debug, Clone)]
pub struct VendorInput {
    pub name: Option<Name>,
    /// One change per entry of `TEXT_FIELDS`, in that order.
    pub text: [Change<String>; 7],
    /// Values to set (or clear) by custom field id; others are kept.
    pub custom_attributes: BTreeMap<i64, Change<String>>,
}

fn scoped(company: CompanyId) -> SelectStatement {
    crate::scoped("vendors", company)
}

pub async fn find(db: &Db, company: CompanyId, id: i64) -> Result<Vendor, StoreError> {
    let stmt = scoped(company)
        .columns(COLUMNS)
        .and_where(Expr::col("id").eq(id))
        .to_owned();
    db.read().optional(&stmt).await?.ok_or(StoreError::NotFound)
}

pub async fn list(db: &Db, company: CompanyId, page: Page) -> Result<PageOf<Vendor>, StoreError> {
    let total = crate::lists::counts::whole(company, "vendors");
    crate::paged(db, scoped(company), COLUMNS, page, total).await
}

/// `name` is required here; the HTTP layer has already said so.
pub async fn create(
    db: &Db,
    company: CompanyId,
    name: Name,
    input: VendorInput,
) -> Result<Vendor, StoreError> {
    let at = now();
    let mut row = Assignments::insert();
    row.set("company_id", company.0)
        .set("name", name.as_str())
        .set(
            "custom_attributes",
            merge_values("{}", &input.custom_attributes),
        )
        .set("created_at", at)
        .set("updated_at", at)
        .changes(&TEXT_FIELDS, &input.text);
    let stmt = row
        .into_insert("vendors")
        .returning(Query::returning().columns(COLUMNS))
        .to_owned();
    let mut tx = db.begin().await?;
    let vendor: Vendor = tx.one(&stmt).await?;
    change_log::record(
        &mut tx,
        company,
        "vendor",
        vendor.id,
        "created",
        serde_json::json!({"name": vendor.name}),
    )
    .await?;
    tx.commit().await?;
    Ok(vendor)
}

pub async fn update(
    db: &Db,
    company: CompanyId,
    id: i64,
    input: VendorInput,
) -> Result<Vendor, StoreError> {
    let mut tx = db.begin().await?;
    let select = scoped(company)
        .columns(COLUMNS)
        .and_where(Expr::col("id").eq(id))
        .lock(LockType::Update)
        .to_owned();
    let before: Vendor = tx.optional(&select).await?.ok_or(StoreError::NotFound)?;
    let mut row = Assignments::update();
    if let Some(name) = &input.name {
        row.set("name", name.as_str());
    }
    row.changes(&TEXT_FIELDS, &input.text);
    if !input.custom_attributes.is_empty() {
        row.set(
            "custom_attributes",
            merge_values(&before.custom_attributes, &input.custom_attributes),
        );
    }
    let stmt = row
        .into_update("vendors", company, id)
        .returning(Query::returning().columns(COLUMNS))
        .to_owned();
    let vendor: Vendor = tx.one(&stmt).await?;
    change_log::record(
        &mut tx,
        company,
        "vendor",
        id,
        "updated",
        serde_json::json!({"name": [before.name, vendor.name.clone()]}),
    )
    .await?;
    tx.commit().await?;
    Ok(vendor)
}
