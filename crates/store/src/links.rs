//! The ids a record links to through a join table (a member's teams, an item's custom
//! taxes), read in the record's own row: a correlated subquery aggregates them into one
//! text column ("3,8,21"; "" for none), so a record or a page of them costs no second
//! statement. The join table's primary key (company, owner, other) answers the
//! subquery from the index alone, on both databases. The ids are put in ascending order
//! as they are read, not by the aggregate: an ordered aggregate made SQLite open a
//! sorter for every row of a page. A company with no link in the join table at all
//! (no team, no custom tax) skips the subquery for every row: whether it has any is a
//! subquery of the company alone, which both databases compute once per statement.

use crate::CompanyId;
use sea_query::{Expr, ExprTrait, Query};
use serde::{Serialize, Serializer};

/// The linked ids of one record, ascending.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Linked(Vec<i64>);

impl Linked {
    /// The ids from the aggregated column's text, ascending.
    fn parse(text: &str) -> Result<Linked, String> {
        if text.is_empty() {
            return Ok(Linked::default());
        }
        let mut ids = text
            .split(',')
            .map(|id| {
                id.parse()
                    .map_err(|_| format!("invalid linked id {id:?} in {text:?}"))
            })
            .collect::<Result<Vec<i64>, _>>()?;
        ids.sort_unstable();
        Ok(Linked(ids))
    }
}

impl Serialize for Linked {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(serializer)
    }
}

/// The column of `owner_table`'s rows (of `company`) holding the ids linked through
/// `table` (`owner_column` names the owner's id, `other_column` the linked id); select
/// it with `expr_as(.., name)` and read it as a `Linked`. It binds `company` once.
pub(crate) fn linked(
    owner_table: &'static str,
    table: &'static str,
    (owner_column, other_column): (&'static str, &'static str),
    company: CompanyId,
) -> Expr {
    // Names only, all of them the store's own constants: nothing of a request's enters
    // this text. `string_agg` is in PostgreSQL and in SQLite since 3.44 (the bundled one
    // is newer).
    let ids = Expr::cust(format!(
        r#"COALESCE((SELECT string_agg(CAST("l"."{other_column}" AS TEXT), ',') FROM "{table}" AS "l" WHERE "l"."company_id" = "{owner_table}"."company_id" AND "l"."{owner_column}" = "{owner_table}"."id"), '')"#
    ));
    let any = Query::select()
        .expr(Expr::cust("1"))
        .from_as(table, "any")
        .and_where(Expr::col(("any", "company_id")).eq(company.0))
        .take();
    Expr::case(Expr::exists(any), ids)
        .finally(Expr::cust("''"))
        .into()
}

impl crate::engine::pg_rows::PgColumn for Linked {
    type Raw = String;

    fn from_raw(raw: String) -> Result<Self, crate::engine::pg_rows::BoxError> {
        Ok(Linked::parse(&raw)?)
    }
}

impl crate::engine::sqlite::Column for Linked {
    fn decode(value: rusqlite::types::ValueRef<'_>) -> Result<Self, rusqlite::types::FromSqlError> {
        let text = crate::engine::sqlite::text(value)?;
        Linked::parse(text).map_err(|e| rusqlite::types::FromSqlError::Other(e.into()))
    }
}

#[cfg(test)]
mod tests {
    use super::Linked;

    #[test]
    fn reads_the_aggregated_text() {
        assert_eq!(Linked::parse("").unwrap().0, Vec::<i64>::new());
        assert_eq!(Linked::parse("7").unwrap().0, [7]);
        assert_eq!(Linked::parse("3,8,21").unwrap().0, [3, 8, 21]);
        assert_eq!(Linked::parse("21,3,8").unwrap().0, [3, 8, 21]);
        assert!(Linked::parse("3,,8").is_err());
        assert!(Linked::parse("3,x").is_err());
    }
}
