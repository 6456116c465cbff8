//! Records read from PostgreSQL rows (tokio-postgres) for `#[derive(records::Row)]`,
//! each field through `PgColumn`, its column found by name. tokio-postgres checks every
//! column's type against the field's.
//!
//! A record reads its fields in the order its statement selects them, so a column is
//! looked for first right after the one the last lookup on this thread found (one
//! comparison of names), and the whole row is searched only when that is not it.

use std::cell::Cell;

use super::error::DbError;

thread_local! {
    /// The column after the last one found on this thread.
    static NEXT: Cell<usize> = const { Cell::new(0) };
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

/// A record read from a tokio-postgres row: `#[derive(Row)]`.
pub trait PgRecord: Sized {
    fn from_pg(row: &tokio_postgres::Row) -> Result<Self, DbError>;
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

impl PgColumn for crate::CompanyId {
    type Raw = i64;

    fn from_raw(raw: i64) -> Result<Self, BoxError> {
        Ok(crate::CompanyId(raw))
    }
}

/// The column `name` of a tokio-postgres `row`, decoded.
pub(crate) fn column<T: PgColumn>(row: &tokio_postgres::Row, name: &str) -> Result<T, DbError> {
    let index = position(row.columns(), |c| c.name(), name)
        .ok_or_else(|| DbError::decode(format!("the statement has no column {name}")))?;
    at(row, index)
}

/// The column `name` of a tokio-postgres `row`, or `T::default()` when the statement
/// has no such column.
pub(crate) fn column_or_default<T: PgColumn + Default>(
    row: &tokio_postgres::Row,
    name: &str,
) -> Result<T, DbError> {
    position(row.columns(), |c| c.name(), name)
        .map_or_else(|| Ok(T::default()), |index| at(row, index))
}

fn at<T: PgColumn>(row: &tokio_postgres::Row, index: usize) -> Result<T, DbError> {
    let decode_error = |source: BoxError| {
        DbError::decode(format!(
            "column {} does not read as its field: {source}",
            row.columns()[index].name()
        ))
    };
    let raw = row
        .try_get::<_, T::Raw>(index)
        .map_err(|e| decode_error(Box::new(e)))?;
    T::from_raw(raw).map_err(decode_error)
}

impl PgRecord for super::Loose {
    fn from_pg(row: &tokio_postgres::Row) -> Result<Self, DbError> {
        (0..row.len())
            .map(|i| at::<Option<String>>(row, i))
            .collect::<Result<_, _>>()
            .map(super::Loose)
    }
}

/// Tuples read their columns in order: `(i64,)` for `SELECT count(*) ...`.
macro_rules! tuples {
    ($(($($name:ident $index:tt),+))+) => {$(
        impl<$($name: PgColumn),+> PgRecord for ($($name,)+) {
            fn from_pg(row: &tokio_postgres::Row) -> Result<Self, DbError> {
                Ok(($(at::<$name>(row, $index)?,)+))
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

    /// Reads `a` on rows whose `kind` is 1 and `b` on the others, and `missing` (no
    /// such column) as 0: the lookups differ from row to row.
    #[derive(Debug, PartialEq)]
    struct Picked(i64, i64);

    impl PgRecord for Picked {
        fn from_pg(row: &tokio_postgres::Row) -> Result<Self, DbError> {
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
        let (client, connection) = tokio_postgres::connect(&url, tokio_postgres::NoTls)
            .await
            .expect("connects");
        tokio::spawn(connection);
        let rows = client
            .query(
                "SELECT 1::bigint AS kind, 10::bigint AS a, 20::bigint AS b \
                 UNION ALL SELECT 2, 11, 21 UNION ALL SELECT 1, 12, 22 UNION ALL SELECT 2, 13, 23",
                &[],
            )
            .await
            .expect("reads");
        let read: Vec<Picked> = rows
            .iter()
            .map(Picked::from_pg)
            .collect::<Result<_, _>>()
            .expect("decodes");
        assert_eq!(
            read,
            [Picked(10, 0), Picked(21, 0), Picked(12, 0), Picked(23, 0)]
        );
        let absent = column::<i64>(&rows[0], "nothing").expect_err("no such column");
        assert!(absent.to_string().contains("nothing"), "{absent}");
        let mistyped = column::<String>(&rows[0], "a").expect_err("a bigint is no text");
        assert!(mistyped.to_string().contains("column a"), "{mistyped}");
    }
}
