//! Tenant-scoped queries and transactions for SQLite and PostgreSQL. Every query on
//! company data takes the company id.

mod db;
mod error;

pub mod change_log;
pub mod companies;
pub mod counters;
pub mod custom_fields;
pub mod groups;
pub mod locations;
pub mod member_addresses;
pub mod members;
pub mod rate_limits;
pub mod reference_data;
pub mod sub_groups;
pub mod vendors;

pub use db::{redact, Backend, Db, Reader, Record, Sql, Statement, Tx};
pub use error::{FieldErrors, StoreError};

use chrono::{DateTime, Utc};

/// Timestamps are stored in UTC with microsecond precision, the finer of the two
/// backends' common resolution, so a value reads back exactly as written.
pub fn now() -> DateTime<Utc> {
    let t = Utc::now();
    DateTime::from_timestamp_micros(t.timestamp_micros()).unwrap_or(t)
}

/// One page of records and the total count for `total_pages`.
#[derive(Debug)]
pub struct PageOf<T> {
    pub records: Vec<T>,
    pub total: u64,
}

#[derive(sqlx::FromRow)]
pub(crate) struct Count {
    pub(crate) n: i64,
}

/// A page of a company-scoped select, ordered by id, and the count behind it: two
/// queries, whatever the page.
pub(crate) async fn paged<T: Record, C: sea_query::IntoColumnRef>(
    db: &Db,
    mut base: sea_query::SelectStatement,
    columns: impl IntoIterator<Item = C>,
    page: domain::Page,
) -> Result<PageOf<T>, StoreError> {
    use sea_query::{Expr, ExprTrait, Order};
    let count = base.clone().expr_as(Expr::col("id").count(), "n").to_owned();
    let rows = base.columns(columns).order_by("id", Order::Asc).limit(page.limit()).offset(page.offset()).to_owned();
    let mut read = db.read();
    let total: Count = read.one(&count).await?;
    let records = read.all(&rows).await?;
    Ok(PageOf { records, total: u64::try_from(total.n).unwrap_or(0) })
}

/// Turns an optional-field change into the value an UPDATE sets, if any.
pub(crate) fn change_value<T>(change: &domain::Change<T>) -> Option<sea_query::Value>
where
    T: Clone + Into<sea_query::Value> + sea_query::Nullable,
{
    match change {
        domain::Change::Keep => None,
        domain::Change::Set(v) => Some(v.clone().into()),
        domain::Change::Clear => Some(Option::<T>::None.into()),
    }
}

/// A select on one of a company's tables, already scoped to the company.
pub(crate) fn scoped(table: &'static str, company: domain::CompanyId) -> sea_query::SelectStatement {
    use sea_query::{Expr, ExprTrait, Query};
    Query::select().from(table).and_where(Expr::col("company_id").eq(company.0)).to_owned()
}
