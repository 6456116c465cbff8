//! The unique keys a write can run into, each with the field error (HTTP 422) it is
//! answered with: the one place a unique violation becomes a message. Writes need no
//! handling of their own, since `StoreError::from` looks the broken key up here; a new
//! unique key that clients can run into gets its row in `KEYS`.

use crate::StoreError;
use crate::engine::{DbError, DbErrorKind, unique_key_name};

/// Columns of a table that no two rows share, and what a write that would make two
/// rows share them is told.
struct UniqueKey {
    table: &'static str,
    columns: &'static [&'static str],
    field: &'static str,
    problem: &'static str,
}

const TAKEN: &str = "has already been taken";

const KEYS: &[UniqueKey] = &[
    UniqueKey {
        table: "companies",
        columns: &["subdomain"],
        field: "subdomain",
        problem: TAKEN,
    },
    UniqueKey {
        table: "members",
        columns: &["company_id", "email"],
        field: "email",
        problem: "has already been taken by another member of this company",
    },
    UniqueKey {
        table: "custom_fields",
        columns: &["company_id", "lookup_key"],
        field: "name",
        problem: "has already been taken (names differing only in case, spaces or underscores count as the same)",
    },
    UniqueKey {
        table: "custom_roles",
        columns: &["company_id", "name"],
        field: "name",
        problem: TAKEN,
    },
    UniqueKey {
        table: "teams",
        columns: &["company_id", "name"],
        field: "name",
        problem: TAKEN,
    },
    UniqueKey {
        table: "retire_reasons",
        columns: &["company_id", "name"],
        field: "name",
        problem: TAKEN,
    },
    UniqueKey {
        table: "custom_taxes",
        columns: &["company_id", "name"],
        field: "name",
        problem: TAKEN,
    },
    UniqueKey {
        table: "coupons",
        columns: &["company_id", "name"],
        field: "name",
        problem: TAKEN,
    },
    UniqueKey {
        table: "listings",
        columns: &["company_id", "name"],
        field: "name",
        problem: "has already been taken by another listing of this company",
    },
    UniqueKey {
        table: "bundles",
        columns: &["company_id", "name"],
        field: "name",
        problem: TAKEN,
    },
    UniqueKey {
        table: "group_taxes",
        columns: &["company_id", "name"],
        field: "name",
        problem: TAKEN,
    },
    UniqueKey {
        table: "payment_options",
        columns: &["company_id", "name_key"],
        field: "name",
        problem: "has already been taken (names differing only in case count as the same)",
    },
    UniqueKey {
        table: "custom_filters",
        columns: &["company_id", "assets_type", "name"],
        field: "name",
        problem: TAKEN,
    },
];

/// The field error standing for `e` when it is a violation of one of `KEYS`.
pub(crate) fn field_error(e: &DbError) -> Option<StoreError> {
    let DbErrorKind::UniqueKey { constraint } = &e.kind else {
        return None;
    };
    KEYS.iter()
        .find(|key| unique_key_name(key.table, key.columns) == *constraint)
        .map(|key| StoreError::invalid(key.field, key.problem))
}
