//! Per-company number sequences (items, orders, locations). The upsert takes a row
//! lock (PostgreSQL) or runs under the write lock (SQLite), so two concurrent creates
//! never get the same number.

use crate::CompanyId;
use sea_query::Values;

use crate::{Sql, StoreError, Tx};

#[derive(Debug, Clone, Copy)]
pub enum Sequence {
    Items,
    Orders,
    Locations,
    /// Not a number handed out: bumping it serialises changes to a company's
    /// location tree, so two concurrent re-parentings cannot form a cycle.
    LocationTree,
    /// Likewise for the company's subgroup trees.
    SubGroupTree,
    /// Likewise for the defaults of the company's label templates, so two templates
    /// made the default at once take over one after the other.
    LabelTemplateDefaults,
    /// Bumped by every rename and deletion of an item (a creation takes the next
    /// `Items`): with `Items`, the version of the company's item names that a
    /// search's kept count holds for (`items::names_version`).
    ItemNames,
}

impl Sequence {
    fn key(self) -> &'static str {
        match self {
            Sequence::Items => "items",
            Sequence::Orders => "orders",
            Sequence::Locations => "locations",
            Sequence::LocationTree => "location_tree",
            Sequence::SubGroupTree => "sub_group_tree",
            Sequence::LabelTemplateDefaults => "label_template_defaults",
            Sequence::ItemNames => "item_names",
        }
    }
}

#[derive(crate::Row)]
struct Next {
    last_value: i64,
}

/// How many numbers a bulk transaction (`Tx::bulk`) takes at a time.
const BLOCK: i64 = 1000;

#[tracing::instrument(level = "debug", skip_all)]
pub async fn next(tx: &mut Tx, company: CompanyId, sequence: Sequence) -> Result<i64, StoreError> {
    let key = (company.0, sequence.key());
    if let Some(bulk) = tx.bulk_mut() {
        let number = match bulk.blocks.get_mut(&key).filter(|(n, l)| n <= l) {
            Some((next, _)) => {
                *next += 1;
                *next - 1
            }
            None => {
                // The counter's row stays locked until commit: no one else takes a
                // number before the unused ones are handed back.
                let stmt = Sql {
                    text: "INSERT INTO company_counters (company_id, kind, last_value) VALUES ($1, $2, $3) \
                           ON CONFLICT (company_id, kind) DO UPDATE SET last_value = company_counters.last_value + $3 \
                           RETURNING last_value",
                    values: Values(vec![company.0.into(), sequence.key().into(), BLOCK.into()]),
                };
                let row: Next = tx.one(&stmt).await?;
                let first = row.last_value - BLOCK + 1;
                if let Some(bulk) = tx.bulk_mut() {
                    bulk.blocks.insert(key, (first + 1, row.last_value));
                }
                first
            }
        };
        // At commit, the counter ends at the last number handed out.
        let stmt = Sql {
            text: "UPDATE company_counters SET last_value = $3 WHERE company_id = $1 AND kind = $2",
            values: Values(vec![company.0.into(), sequence.key().into(), number.into()]),
        };
        tx.at_commit(format!("counter {} {}", company.0, sequence.key()), &stmt);
        return Ok(number);
    }
    let stmt = Sql {
        text: "INSERT INTO company_counters (company_id, kind, last_value) VALUES ($1, $2, 1) \
               ON CONFLICT (company_id, kind) DO UPDATE SET last_value = company_counters.last_value + 1 \
               RETURNING last_value",
        values: Values(vec![company.0.into(), sequence.key().into()]),
    };
    let row: Next = tx.one(&stmt).await?;
    Ok(row.last_value)
}
