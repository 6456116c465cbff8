//! A history entry for every change to a company's records, written in the same
//! transaction as the change (and the place a later outbox event will be written).

use domain::CompanyId;
use sea_query::{ExprTrait, Query};
use serde_json::Value as Json;

use crate::{StoreError, Tx, now};

#[tracing::instrument(level = "debug", skip_all)]
pub async fn record(
    tx: &mut Tx,
    company: CompanyId,
    subject_type: &str,
    subject_id: i64,
    action: &str,
    details: Json,
) -> Result<(), StoreError> {
    let stmt = Query::insert()
        .into_table("change_log")
        .columns([
            "company_id",
            "subject_type",
            "subject_id",
            "action",
            "details",
            "created_at",
        ])
        .values_panic([
            company.0.into(),
            subject_type.into(),
            subject_id.into(),
            action.into(),
            details.to_string().into(),
            now().into(),
        ])
        .to_owned();
    tx.execute(&stmt).await?;
    Ok(())
}

#[derive(Debug, sqlx::FromRow)]
pub struct Entry {
    pub action: String,
    pub details: String,
}

/// Entries for one record, oldest first.
#[tracing::instrument(level = "debug", skip_all)]
pub async fn for_subject(
    db: &crate::Db,
    company: CompanyId,
    subject_type: &str,
    subject_id: i64,
) -> Result<Vec<Entry>, StoreError> {
    let stmt = Query::select()
        .columns(["action", "details"])
        .from("change_log")
        .and_where(sea_query::Expr::col("company_id").eq(company.0))
        .and_where(sea_query::Expr::col("subject_type").eq(subject_type))
        .and_where(sea_query::Expr::col("subject_id").eq(subject_id))
        .order_by("id", sea_query::Order::Asc)
        .to_owned();
    db.read().all(&stmt).await
}
