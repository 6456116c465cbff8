//! Orders, as far as the customer and business filters need them: who an order is
//! for and its state. The orders issue builds the rest on this table.

use domain::CompanyId;
use domain::Vocabulary;
use domain::order::OrderState;

use crate::{Assignments, Db, StoreError, change_log, counters};
use counters::Sequence;

/// Records an order for a customer or contact (and optionally a business) in a given
/// state. Used by tests and the benchmark seed until the orders endpoints exist.
#[tracing::instrument(level = "debug", skip_all)]
pub async fn record(
    db: &Db,
    company: CompanyId,
    customer: Option<i64>,
    business: Option<i64>,
    state: &str,
) -> Result<i64, StoreError> {
    let Some(state) = OrderState::parse(state) else {
        return Err(StoreError::invalid(
            "basket_state",
            format!("must be one of {}", OrderState::names()),
        ));
    };
    let mut tx = db.begin().await?;
    let sequence_num = counters::next(&mut tx, company, Sequence::Orders).await?;
    let at = crate::now();
    let mut row = Assignments::insert();
    row.set("company_id", company.0)
        .set("sequence_num", sequence_num)
        .set("customer_id", customer)
        .set("business_id", business)
        .set("basket_state", state.as_str())
        .set("created_at", at)
        .set("updated_at", at);
    let (id,): (i64,) = tx
        .one(
            &row.into_insert("orders")
                .returning(sea_query::Query::returning().column("id"))
                .to_owned(),
        )
        .await?;
    change_log::record(
        &mut tx,
        company,
        "order",
        id,
        "created",
        serde_json::json!({"basket_state": state.as_str()}),
    )
    .await?;
    tx.commit().await?;
    Ok(id)
}
