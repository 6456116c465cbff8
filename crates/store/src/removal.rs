//! Deleting a record unless other records still use it: the check each delete makes
//! for each kind of user, and the delete itself with its change log entry.

use crate::CompanyId;
use crate::ids::{Id, Named};
use domain::refusal::InUse;
use sea_query::{Expr, ExprTrait, Query, SelectStatement};

use crate::{Count, StoreError, Tx, change_log};

/// Refuses (409) while `users`, a select of a company's rows that refer to the record,
/// finds any: `in_use` says which record, given how many use it.
pub(crate) async fn refuse_if_used(
    tx: &mut Tx,
    mut users: SelectStatement,
    in_use: impl FnOnce(i64) -> InUse,
) -> Result<(), StoreError> {
    let count = users.expr_as(Expr::col("id").count(), "n").to_owned();
    let n: Count = tx.one(&count).await?;
    if n.n > 0 {
        Err(StoreError::InUse(in_use(n.n)))
    } else {
        Ok(())
    }
}

/// Deletes the record `id` of `table` and logs it as `subject` with its name;
/// `NotFound` when there is no such record.
pub(crate) async fn delete<K: Named>(
    tx: &mut Tx,
    company: CompanyId,
    table: &'static str,
    id: Id<K>,
    subject: &str,
    name: &str,
) -> Result<(), StoreError> {
    let stmt = Query::delete()
        .from_table(table)
        .and_where(Expr::col("company_id").eq(company.0))
        .and_where(Expr::col("id").eq(id))
        .to_owned();
    if tx.execute(&stmt).await? == 0 {
        return Err(id.missing());
    }
    change_log::record(
        tx,
        company,
        subject,
        id.get(),
        "deleted",
        serde_json::json!({"name": name}),
    )
    .await
}
