//! Marking one record active or inactive: the write and its change log entry.

use crate::CompanyId;

use crate::{Assignments, StoreError, Tx, change_log};

/// Sets `active` on the record `id` of `table` (whose `active` is `was`) and logs it
/// under `subject` as "activated" or "deactivated"; when nothing changes, nothing is
/// written or logged.
pub(crate) async fn set_active(
    tx: &mut Tx,
    company: CompanyId,
    (table, subject): (&'static str, &str),
    id: i64,
    was: bool,
    active: bool,
) -> Result<(), StoreError> {
    if was == active {
        return Ok(());
    }
    let mut row = Assignments::update();
    row.set("active", active);
    tx.execute(&row.into_update(table, company, id)).await?;
    let action = if active { "activated" } else { "deactivated" };
    change_log::record(tx, company, subject, id, action, serde_json::json!({})).await
}
