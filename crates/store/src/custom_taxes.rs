//! Custom taxes: a name and a rate, applied to items (`item_custom_taxes`) and, with
//! the orders, to what is rented. The rate is kept in parts per million of the amount
//! (8.875 % is 88,750), exact.

use chrono::{DateTime, Utc};
use domain::{CompanyId, Name, Page};
use sea_query::Query;

use crate::{Db, PageOf, StoreError, change_log, now};

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct CustomTax {
    pub id: i64,
    pub name: String,
    pub rate_ppm: i64,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
}

const COLUMNS: [&str; 5] = ["id", "name", "rate_ppm", "created_at", "updated_at"];

#[tracing::instrument(level = "debug", skip_all)]
pub async fn create(
    db: &Db,
    company: CompanyId,
    name: Name,
    rate_ppm: i64,
) -> Result<CustomTax, StoreError> {
    let at = now();
    let stmt = Query::insert()
        .into_table("custom_taxes")
        .columns(["company_id", "name", "rate_ppm", "created_at", "updated_at"])
        .values_panic([
            company.0.into(),
            name.as_str().into(),
            rate_ppm.into(),
            at.into(),
            at.into(),
        ])
        .returning(Query::returning().columns(COLUMNS))
        .to_owned();
    let mut tx = db.begin().await?;
    let tax: CustomTax = tx.one(&stmt).await?;
    change_log::record(
        &mut tx,
        company,
        "custom_tax",
        tax.id,
        "created",
        serde_json::json!({"name": tax.name, "rate_ppm": rate_ppm}),
    )
    .await?;
    tx.commit().await?;
    Ok(tax)
}

#[tracing::instrument(level = "debug", skip_all)]
pub async fn list(
    db: &Db,
    company: CompanyId,
    page: Page,
) -> Result<PageOf<CustomTax>, StoreError> {
    let total = crate::lists::counts::whole(company, "custom_taxes");
    crate::paged(
        db,
        crate::scoped("custom_taxes", company),
        COLUMNS,
        page,
        total,
    )
    .await
}
