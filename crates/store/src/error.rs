use std::collections::BTreeMap;

/// What the store reports. The HTTP layer maps each kind to the contract's status.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("not found")]
    NotFound,
    /// The action is refused for this record, whatever its state (HTTP 403).
    #[error("{0}")]
    Forbidden(String),
    /// The record's state forbids the change (HTTP 409).
    #[error("{0}")]
    Conflict(String),
    /// Field-level problems found while writing, e.g. an unknown parent id (HTTP 422).
    #[error("validation failed")]
    Invalid(FieldErrors),
    #[error("configuration: {0}")]
    Config(String),
    #[error(transparent)]
    Database(#[from] sqlx::Error),
    #[error(transparent)]
    Migration(#[from] sqlx::migrate::MigrateError),
}

/// Problems per field, in the order the contract renders them.
pub type FieldErrors = BTreeMap<String, Vec<String>>;

impl StoreError {
    pub fn invalid(field: &str, problem: impl Into<String>) -> Self {
        let mut errors = FieldErrors::new();
        errors.insert(field.to_owned(), vec![problem.into()]);
        StoreError::Invalid(errors)
    }

    /// True when a foreign key refused the change: a record still in use, or one
    /// that disappeared while the request ran.
    pub fn is_foreign_key_violation(&self) -> bool {
        matches!(self, StoreError::Database(sqlx::Error::Database(e)) if e.is_foreign_key_violation())
    }

    /// True for a unique-constraint violation, which callers turn into a 422.
    pub fn is_unique_violation(&self) -> bool {
        matches!(self, StoreError::Database(sqlx::Error::Database(e)) if e.is_unique_violation())
    }
}
