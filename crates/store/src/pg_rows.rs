//! Columns of a PostgreSQL row found by name for `#[derive(records::PgRow)]`.
//!
//! sqlx's `Row::try_get(name)` hashes the name into the statement's map of names and
//! checks the column's type against the field's at every call: a fifth of the server's
//! CPU for a page of 25 assets (44 columns each). A record reads its fields in the order
//! its statement selects them, so here a column is looked for first right after the one
//! the last lookup on this thread found (one comparison of names), and the whole row is
//! searched only when that is not it. Release builds then decode without the type
//! check; debug builds (the tests) keep it, so a field whose type does not match its
//! column fails there as it would through sqlx.
//!
//! The statements outside transactions (`pg_reads`) read tokio-postgres rows instead:
//! `PgRecord` is the same derive's reading of those, field by field through `PgColumn`,
//! with the same lookup of names. tokio-postgres checks every column's type.

use std::cell::Cell;

use sqlx::postgres::PgRow;
use sqlx::{Column as _, Decode, Postgres, Row as _, Type};

thread_local! {
    /// The column after the last one found on this thread.
    static NEXT: Cell<usize> = const { Cell::new(0) };
}

/// The column `name` of `row`, decoded.
pub(crate) fn column<'r, T>(row: &'r PgRow, name: &str) -> Result<T, sqlx::Error>
where
    T: Decode<'r, Postgres> + Type<Postgres>,
{
    let index = index(row, name).ok_or_else(|| sqlx::Error::ColumnNotFound(name.to_owned()))?;
    at(row, index)
}

/// The column `name` of `row`, or `T::default()` when the statement has no such column.
pub(crate) fn column_or_default<'r, T>(row: &'r PgRow, name: &str) -> Result<T, sqlx::Error>
where
    T: Decode<'r, Postgres> + Type<Postgres> + Default,
{
    index(row, name).map_or_else(|| Ok(T::default()), |index| at(row, index))
}

fn at<'r, T>(row: &'r PgRow, index: usize) -> Result<T, sqlx::Error>
where
    T: Decode<'r, Postgres> + Type<Postgres>,
{
    if cfg!(debug_assertions) {
        row.try_get(index)
    } else {
        row.try_get_unchecked(index)
    }
}

/// Where `row` has the column `name` (exactly, as sqlx finds it).
fn index(row: &PgRow, name: &str) -> Option<usize> {
    position(row.columns(), |c| c.name(), name)
}

/// Where `columns` has the one named `name`, looked for first after the last found.
fn position<C>(columns: &[C], name_of: impl Fn(&C) -> &str, name: &str) -> Option<usize> {
    let next = NEXT.get();
    let found = if columns.get(next).is_some_and(|c| name_of(c) == name) {
        next
    } else {
        columns.iter().position(|c| name_of(c) == name)?
    };
    NEXT.set(found + 1);
    Some(found)
}

/// A record read from a tokio-postgres row: `#[derive(PgRow)]`.
pub trait PgRecord: Sized {
    fn from_pg(row: &tokio_postgres::Row) -> Result<Self, sqlx::Error>;
}

/// A field's type as tokio-postgres reads it: `Raw` is decoded from the column, then
/// made the field.
pub trait PgColumn: Sized {
    type Raw: for<'a> tokio_postgres::types::FromSql<'a>;

    fn from_raw(raw: Self::Raw) -> Result<Self, BoxError>;
}

/// What a column's decoding fails with.
pub(crate) type BoxError = Box<dyn std::error::Error + Send + Sync>;

macro_rules! as_read {
    ($($t:ty),+) => {$(
        impl PgColumn for $t {
            type Raw = $t;

            fn from_raw(raw: $t) -> Result<Self, BoxError> {
                Ok(raw)
            }
        }
    )+};
}

as_read!(
    i64,
    i32,
    bool,
    String,
    Vec<u8>,
    chrono::NaiveDate,
    chrono::DateTime<chrono::Utc>,
    chrono::DateTime<chrono::FixedOffset>
);

impl<T: PgColumn> PgColumn for Option<T> {
    type Raw = Option<T::Raw>;

    fn from_raw(raw: Self::Raw) -> Result<Self, BoxError> {
        raw.map(T::from_raw).transpose()
    }
}

impl PgColumn for domain::ids::CompanyId {
    type Raw = i64;

    fn from_raw(raw: i64) -> Result<Self, BoxError> {
        Ok(domain::ids::CompanyId(raw))
    }
}

/// The column `name` of a tokio-postgres `row`, decoded.
pub(crate) fn pg_column<T: PgColumn>(
    row: &tokio_postgres::Row,
    name: &str,
) -> Result<T, sqlx::Error> {
    let index = position(row.columns(), |c| c.name(), name)
        .ok_or_else(|| sqlx::Error::ColumnNotFound(name.to_owned()))?;
    pg_at(row, index)
}

/// The column `name` of a tokio-postgres `row`, or `T::default()` when the statement
/// has no such column.
pub(crate) fn pg_column_or_default<T: PgColumn + Default>(
    row: &tokio_postgres::Row,
    name: &str,
) -> Result<T, sqlx::Error> {
    position(row.columns(), |c| c.name(), name)
        .map_or_else(|| Ok(T::default()), |index| pg_at(row, index))
}

fn pg_at<T: PgColumn>(row: &tokio_postgres::Row, index: usize) -> Result<T, sqlx::Error> {
    let decode_error = |source: BoxError| sqlx::Error::ColumnDecode {
        index: row.columns()[index].name().to_owned(),
        source,
    };
    let raw = row
        .try_get::<_, T::Raw>(index)
        .map_err(|e| decode_error(Box::new(e)))?;
    T::from_raw(raw).map_err(decode_error)
}

/// Tuples read their columns in order: `(i64,)` for `SELECT count(*) ...`.
macro_rules! tuples {
    ($(($($name:ident $index:tt),+))+) => {$(
        impl<$($name: PgColumn),+> PgRecord for ($($name,)+) {
            fn from_pg(row: &tokio_postgres::Row) -> Result<Self, sqlx::Error> {
                Ok(($(pg_at::<$name>(row, $index)?,)+))
            }
        }
    )+};
}

tuples! {
    (A 0)
    (A 0, B 1)
    (A 0, B 1, C 2)
    (A 0, B 1, C 2, D 3)
    (A 0, B 1, C 2, D 3, E 4)
    (A 0, B 1, C 2, D 3, E 4, F 5)
}

#[cfg(test)]
mod tests {
    use super::*;
    use sqlx::Connection as _;

    /// Reads `a` on rows whose `kind` is 1 and `b` on the others, and `missing` (no
    /// such column) as 0: the lookups differ from row to row.
    #[derive(Debug, PartialEq)]
    struct Picked(i64, i64);

    impl<'r> sqlx::FromRow<'r, PgRow> for Picked {
        fn from_row(row: &'r PgRow) -> Result<Self, sqlx::Error> {
            let kind: i64 = column(row, "kind")?;
            let value = if kind == 1 {
                column(row, "a")?
            } else {
                column(row, "b")?
            };
            Ok(Picked(value, column_or_default(row, "missing")?))
        }
    }

    #[tokio::test]
    async fn rows_whose_lookups_differ_read_their_own_columns() {
        let Ok(url) = std::env::var("TEST_POSTGRES_URL") else {
            eprintln!("TEST_POSTGRES_URL not set: PostgreSQL rows not read");
            return;
        };
        let mut conn = sqlx::PgConnection::connect(&url).await.expect("connects");
        let read: Vec<Picked> = sqlx::query_as(
            "SELECT 1::bigint AS kind, 10::bigint AS a, 20::bigint AS b \
             UNION ALL SELECT 2, 11, 21 UNION ALL SELECT 1, 12, 22 UNION ALL SELECT 2, 13, 23",
        )
        .fetch_all(&mut conn)
        .await
        .expect("reads");
        assert_eq!(
            read,
            [Picked(10, 0), Picked(21, 0), Picked(12, 0), Picked(23, 0)]
        );
        let row = sqlx::query("SELECT 1::bigint AS kind")
            .fetch_one(&mut conn)
            .await
            .expect("reads");
        let absent = column::<i64>(&row, "nothing").expect_err("no such column");
        assert!(matches!(absent, sqlx::Error::ColumnNotFound(name) if name == "nothing"));
    }
}
