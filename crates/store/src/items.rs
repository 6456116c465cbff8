//! Items (fixed assets, inventory, asset stock), as far as the catalog rules need them:
//! which group and subgroup they belong to. The assets issue builds the rest.

use domain::CompanyId;
use domain::Vocabulary;
use domain::item::AssetType;
use sea_query::{Expr, ExprTrait, SelectStatement};

use crate::counters::{self, Sequence};
use crate::{Assignments, Db, StoreError, change_log};

/// Records an item in a group (and subgroup). Used by tests until the assets
/// endpoints exist; returns its sequence number.
#[tracing::instrument(level = "debug", skip_all)]
pub async fn record(
    db: &Db,
    company: CompanyId,
    asset_type: &str,
    name: &str,
    group: i64,
    sub_group: Option<i64>,
) -> Result<i64, StoreError> {
    let Some(asset_type) = AssetType::parse(asset_type) else {
        return Err(StoreError::invalid(
            "asset_type",
            format!("must be one of {}", AssetType::names()),
        ));
    };
    let mut tx = db.begin().await?;
    let sequence_num = counters::next(&mut tx, company, Sequence::Items).await?;
    let at = crate::now();
    let mut row = Assignments::insert();
    row.set("company_id", company.0)
        .set("sequence_num", sequence_num)
        .set("asset_type", asset_type.as_str())
        .set("name", name)
        .set("group_id", group)
        .set("sub_group_id", sub_group)
        .set("created_at", at)
        .set("updated_at", at);
    tx.execute(&row.into_insert("items")).await?;
    change_log::record(
        &mut tx,
        company,
        "item",
        sequence_num,
        "created",
        serde_json::json!({"group_id": group}),
    )
    .await?;
    tx.commit().await?;
    Ok(sequence_num)
}

/// The items whose `column` (`group_id` or `sub_group_id`) is `id`.
pub(crate) fn in_column(company: CompanyId, column: &'static str, id: i64) -> SelectStatement {
    crate::scoped("items", company)
        .and_where(Expr::col(column).eq(id))
        .to_owned()
}
