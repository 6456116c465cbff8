//! Custom taxes: a name and a rate, applied to items (`item_custom_taxes`) and, with
//! the orders, to what is rented. The rate is kept in parts per million of the amount
//! (8.875 % is 88,750), exact.

use crate::CompanyId;
use crate::ids::{Id, kind};
use chrono::{DateTime, Utc};
use domain::{Name, Page};
use sea_query::{Expr, ExprTrait, Query};

use crate::{Db, PageOf, StoreError, Tx, change_log, now};

#[derive(Debug, Clone, crate::Row)]
pub struct CustomTax {
    pub id: i64,
    pub name: String,
    pub rate_ppm: i64,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
}

const COLUMNS: [&str; 5] = ["id", "name", "rate_ppm", "created_at", "updated_at"];

impl CustomTax {
    /// The tax as order pricing takes it.
    pub fn to_pricing(&self) -> domain::pricing::Tax {
        domain::pricing::Tax {
            id: self.id,
            name: self.name.clone(),
            rate: rate(self.rate_ppm),
        }
    }
}

/// A stored rate in parts per million as a `TaxRate`: never negative (the table's
/// CHECK), and any rate that is not negative is one.
pub(crate) fn rate(ppm: i64) -> domain::pricing::TaxRate {
    domain::pricing::TaxRate::from_ppm(std::cmp::max(ppm, 0))
        .unwrap_or_else(|_| unreachable!("not negative"))
}

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
        serde_json::json!({
            "name": tax.name,
            "rate": rate(rate_ppm).get().normalize().to_string(),
            "rate_ppm": rate_ppm,
        }),
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
    let total = crate::Total::whole(company, "custom_taxes");
    crate::paged(
        db,
        crate::scoped("custom_taxes", company),
        COLUMNS,
        page,
        total,
    )
    .await
}

/// The company's custom taxes `ids` (`custom_tax_id` of an order), in the order given,
/// each once: one statement. An id that is not a custom tax of the company is a 422 on
/// `custom_tax_id` naming every such id.
#[tracing::instrument(level = "debug", skip_all)]
pub async fn for_order(
    tx: &mut Tx,
    company: CompanyId,
    ids: &[Id<kind::CustomTax>],
) -> Result<Vec<CustomTax>, StoreError> {
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    let stmt = crate::scoped("custom_taxes", company)
        .columns(COLUMNS)
        .and_where(Expr::col("id").is_in(ids.to_vec()))
        .to_owned();
    let found: Vec<CustomTax> = tx.all(&stmt).await?;
    crate::in_order_of(ids, found, |t| t.id, "custom_tax_id", "custom tax")
}
