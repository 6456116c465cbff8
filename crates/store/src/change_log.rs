//! A history entry for every change to a company's records, written in the same
//! transaction as the change, with the webhook event it tells (`outbox::emit`).

use crate::CompanyId;
use chrono::{DateTime, Utc};
use domain::Page;
use sea_query::{Expr, ExprTrait, Order, Query};
use serde_json::Value as Json;

use crate::{StoreError, Tx, now};

#[tracing::instrument(level = "debug", skip_all)]
pub async fn record(
    tx: &mut Tx,
    company: CompanyId,
    subject_type: &str,
    subject_id: impl Into<i64>,
    action: &str,
    details: Json,
) -> Result<(), StoreError> {
    let subject_id: i64 = subject_id.into();
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
    tx.send(&stmt)?;
    crate::outbox::emit(tx, company, subject_type, subject_id, action, &details).await
}

#[derive(Debug, crate::Row)]
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
        .and_where(Expr::col("company_id").eq(company.0))
        .and_where(Expr::col("subject_type").eq(subject_type))
        .and_where(Expr::col("subject_id").eq(subject_id))
        .order_by("id", Order::Asc)
        .to_owned();
    db.read().all(&stmt).await
}

/// One entry of a record's history.
#[derive(Debug, Clone, crate::Row)]
pub struct HistoryEntry {
    pub id: i64,
    pub action: String,
    pub details: String,
    pub created_at: DateTime<Utc>,
}

/// A page of the history of record `subject_id` (of `subject_type`), newest first (two
/// statements: the count on the history's index, the page).
pub(crate) async fn page(
    tx: &mut Tx,
    company: CompanyId,
    subject_type: &str,
    subject_id: i64,
    p: Page,
) -> Result<crate::PageOf<HistoryEntry>, StoreError> {
    let entries = crate::scoped("change_log", company)
        .and_where(Expr::col("subject_type").eq(subject_type))
        .and_where(Expr::col("subject_id").eq(subject_id))
        .to_owned();
    let count = entries
        .clone()
        .expr_as(Expr::col("id").count(), "n")
        .to_owned();
    let total: crate::Count = tx.one(&count).await?;
    let rows = entries
        .clone()
        .columns(["id", "action", "details", "created_at"])
        .order_by("id", Order::Desc)
        .limit(p.limit())
        .offset(p.offset())
        .to_owned();
    let records: Vec<HistoryEntry> = tx.all(&rows).await?;
    Ok(crate::PageOf {
        records,
        total: u64::try_from(total.n).unwrap_or(0),
    })
}
