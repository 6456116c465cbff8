use crate::engine::{DbError, DbErrorKind, MigrateError};
use domain::refusal::{Conflict, Forbidden, InUse, Problem};
use std::collections::BTreeMap;

/// What the store reports. The HTTP layer maps each kind to the contract's status.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// No such record of this kind in the company (HTTP 404).
    #[error("no such {0:?}")]
    NotFound(crate::ids::Kind),
    /// The action is refused for this record, whatever its state (HTTP 403).
    #[error("refused: {0:?}")]
    Forbidden(Forbidden),
    /// Other records still use the record a delete names (HTTP 409).
    #[error("in use: {0:?}")]
    InUse(InUse),
    /// The record's state forbids the action (HTTP 409).
    #[error("conflict: {0:?}")]
    Conflict(Conflict),
    /// Field-level problems found while writing, e.g. an unknown parent id (HTTP 422).
    #[error("validation failed")]
    Invalid(FieldErrors),
    #[error("configuration: {0}")]
    Config(String),
    #[error(transparent)]
    Database(DbError),
    #[error(transparent)]
    Migration(#[from] MigrateError),
}

/// Problems per field; the HTTP layer names each field and words each problem.
pub type FieldErrors = BTreeMap<Field, Vec<Problem>>;

/// The part of a write a problem is about.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum Field {
    /// A field of the record, by the name the record gives it (`name`, `location_id`).
    Named(String),
    /// A partial return's entry for the order line (of asset stock) with this id.
    ReturnedLine(i64),
    /// A partial return's entry for the bundle with this id.
    ReturnedBundle(i64),
}

impl From<&str> for Field {
    fn from(name: &str) -> Self {
        Field::Named(name.to_owned())
    }
}

impl From<String> for Field {
    fn from(name: String) -> Self {
        Field::Named(name)
    }
}

impl StoreError {
    pub fn invalid(field: impl Into<Field>, problem: impl Into<Problem>) -> Self {
        let mut errors = FieldErrors::new();
        errors.insert(field.into(), vec![problem.into()]);
        StoreError::Invalid(errors)
    }

    /// True when a foreign key refused the change: a record still in use, or one
    /// that disappeared while the request ran.
    pub fn is_foreign_key_violation(&self) -> bool {
        matches!(self, StoreError::Database(e) if e.kind == DbErrorKind::ForeignKey)
    }

    /// True when the database is busy, overloaded or out of reach, so the same request
    /// may succeed a moment later (HTTP 503 with Retry-After).
    pub fn is_unavailable(&self) -> bool {
        match self {
            StoreError::Database(e) => e.is_unavailable(),
            StoreError::Migration(MigrateError::Database(e)) => e.is_unavailable(),
            _ => false,
        }
    }
}

impl From<DbError> for StoreError {
    /// A write that breaks one of the unique keys clients can run into is the field
    /// error `unique_keys` gives it; any other database error is kept as it is.
    fn from(e: DbError) -> Self {
        crate::unique_keys::field_error(&e).unwrap_or(StoreError::Database(e))
    }
}
