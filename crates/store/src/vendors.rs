//! Vendors (suppliers), with custom field values.

use crate::CompanyId;
use crate::ids::{Id, Kind, kind};
use chrono::{DateTime, Utc};
use domain::{Change, Name, Page};
use sea_query::{Expr, ExprTrait, LockType, Query, SelectStatement};

use crate::custom_fields::merge_values;
use crate::{Assignments, Db, PageOf, StoreError, Tx, change_log, now};

#[derive(Debug, Clone, crate::Row)]
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

#[derive(Debug, Clone, Default)]
pub struct VendorInput {
    /// Required on create, which takes it apart; an update keeps the stored one when
    /// `None`.
    pub name: Option<Name>,
    pub description: Change<String>,
    pub website: Change<String>,
    pub address: Change<String>,
    pub contact_person_name: Change<String>,
    pub email: Change<String>,
    pub phone_number: Change<String>,
    pub fax: Change<String>,
    /// Values to set (or clear) by custom field id; others are kept.
    pub custom_attributes: crate::custom_fields::FieldValues,
}

/// Writes the fields of `input` a create and an update write alike: the one place a
/// field of `VendorInput` meets its column.
fn assign(row: &mut Assignments, input: &VendorInput) {
    let VendorInput {
        name,
        description,
        website,
        address,
        contact_person_name,
        email,
        phone_number,
        fax,
        // Merged with the stored values by the caller.
        custom_attributes: _,
    } = input;
    if let Some(name) = name {
        row.set("name", name.as_str());
    }
    row.change("description", description)
        .change("website", website)
        .change("address", address)
        .change("contact_person_name", contact_person_name)
        .change("email", email)
        .change("phone_number", phone_number)
        .change("fax", fax);
}

fn scoped(company: CompanyId) -> SelectStatement {
    crate::scoped("vendors", company)
}

#[tracing::instrument(level = "debug", skip_all)]
pub async fn find(db: &Db, company: CompanyId, id: Id<kind::Vendor>) -> Result<Vendor, StoreError> {
    let stmt = scoped(company)
        .columns(COLUMNS)
        .and_where(Expr::col("id").eq(id))
        .to_owned();
    db.read()
        .optional(&stmt)
        .await?
        .ok_or(StoreError::NotFound(Kind::Vendor))
}

#[tracing::instrument(level = "debug", skip_all)]
pub async fn list(db: &Db, company: CompanyId, page: Page) -> Result<PageOf<Vendor>, StoreError> {
    let total = crate::Total::whole(company, "vendors");
    crate::paged(db, scoped(company), COLUMNS, page, total).await
}

/// The company's vendors after vendor `after`, by id, at most `limit`: an export's batch.
pub async fn after(
    db: &Db,
    company: CompanyId,
    after: i64,
    limit: u64,
) -> Result<Vec<Vendor>, StoreError> {
    let (_, rows) = crate::with_columns(scoped(company), COLUMNS);
    crate::after(db, rows, "id", after, limit).await
}

/// `name` is required here; the HTTP layer has already said so.
#[tracing::instrument(level = "debug", skip_all)]
pub async fn create(
    db: &Db,
    company: CompanyId,
    name: Name,
    input: VendorInput,
) -> Result<Vendor, StoreError> {
    let mut tx = db.begin().await?;
    let vendor = create_in(&mut tx, company, name, input).await?;
    tx.commit().await?;
    Ok(vendor)
}

/// [`create`], in a transaction of the caller's (an import's).
pub async fn create_in(
    tx: &mut Tx,
    company: CompanyId,
    name: Name,
    input: VendorInput,
) -> Result<Vendor, StoreError> {
    let input = VendorInput {
        name: Some(name),
        ..input
    };
    let at = now();
    let mut row = Assignments::insert();
    row.set("company_id", company.0)
        .set(
            "custom_attributes",
            merge_values("{}", &input.custom_attributes),
        )
        .set("created_at", at)
        .set("updated_at", at);
    assign(&mut row, &input);
    let stmt = row
        .into_insert("vendors")
        .returning(Query::returning().columns(COLUMNS))
        .to_owned();
    let vendor: Vendor = tx.one(&stmt).await?;
    change_log::record(
        tx,
        company,
        "vendor",
        vendor.id,
        "created",
        serde_json::json!({"name": vendor.name}),
    )
    .await?;
    Ok(vendor)
}

#[tracing::instrument(level = "debug", skip_all)]
pub async fn update(
    db: &Db,
    company: CompanyId,
    id: Id<kind::Vendor>,
    input: VendorInput,
) -> Result<Vendor, StoreError> {
    let mut tx = db.begin().await?;
    let vendor = update_in(&mut tx, company, id, input).await?;
    tx.commit().await?;
    Ok(vendor)
}

/// [`update`], in a transaction of the caller's (an import's).
pub async fn update_in(
    tx: &mut Tx,
    company: CompanyId,
    id: Id<kind::Vendor>,
    input: VendorInput,
) -> Result<Vendor, StoreError> {
    let select = scoped(company)
        .columns(COLUMNS)
        .and_where(Expr::col("id").eq(id))
        .lock(LockType::Update)
        .to_owned();
    let before: Vendor = tx
        .optional(&select)
        .await?
        .ok_or(StoreError::NotFound(Kind::Vendor))?;
    let mut row = Assignments::update();
    assign(&mut row, &input);
    if !input.custom_attributes.is_empty() {
        row.set(
            "custom_attributes",
            merge_values(&before.custom_attributes, &input.custom_attributes),
        );
    }
    let stmt = row
        .into_update("vendors", company, id.get())
        .returning(Query::returning().columns(COLUMNS))
        .to_owned();
    let vendor: Vendor = tx.one(&stmt).await?;
    change_log::record(
        tx,
        company,
        "vendor",
        id.get(),
        "updated",
        serde_json::json!({"name": [before.name, vendor.name.clone()]}),
    )
    .await?;
    Ok(vendor)
}
