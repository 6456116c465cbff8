use crate::Backend;
use domain::refusal::{Conflict, Forbidden, InUse};
use std::collections::BTreeMap;

/// What the store reports. The HTTP layer maps each kind to the contract's status.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("not found")]
    NotFound,
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
    Database(sqlx::Error),
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

    /// True when the database is busy, overloaded or out of reach, so the same request
    /// may succeed a moment later (HTTP 503 with Retry-After): no free connection in
    /// time, a lost or refused connection, SQLite's lock held past the busy timeout,
    /// PostgreSQL's statement timeout, a shutdown, too many clients, or a
    /// serialization failure or deadlock that a retry resolves.
    pub fn is_unavailable(&self) -> bool {
        let StoreError::Database(e) = self else {
            return false;
        };
        match e {
            sqlx::Error::PoolTimedOut
            | sqlx::Error::PoolClosed
            | sqlx::Error::Io(_)
            | sqlx::Error::WorkerCrashed => true,
            sqlx::Error::Tls(_) => true,
            sqlx::Error::Database(db) => {
                if let Some(pg) = db.try_downcast_ref::<sqlx::postgres::PgDatabaseError>() {
                    transient_postgres_error(pg.code())
                } else {
                    db.try_downcast_ref::<DriverError>()
                        .is_some_and(DriverError::transient)
                }
            }
            _ => false,
        }
    }
}

/// SQLSTATE: connection exceptions (08), insufficient resources (53), operator
/// intervention (57: query canceled by the statement timeout, shutdowns), lock not
/// available, serialization failure, deadlock.
fn transient_postgres_error(code: &str) -> bool {
    ["08", "53", "57"]
        .iter()
        .any(|class| code.starts_with(class))
        || matches!(code, "55P03" | "40001" | "40P01")
}

/// A database error read through the store's own drivers (rusqlite for SQLite,
/// tokio-postgres for PostgreSQL's shared connections) in the shape sqlx's drivers give
/// theirs, so unique keys, foreign keys and busy-means-503 read the same whichever
/// driver ran the statement.
#[derive(Debug)]
pub(crate) struct DriverError {
    pub(crate) backend: Backend,
    pub(crate) message: String,
    /// PostgreSQL's SQLSTATE; SQLite's extended result code.
    pub(crate) code: Option<String>,
    pub(crate) constraint: Option<String>,
}

impl DriverError {
    /// Whether the same statement may succeed a moment later (`is_unavailable`).
    fn transient(&self) -> bool {
        let Some(code) = &self.code else {
            return false;
        };
        match self.backend {
            Backend::Postgres => transient_postgres_error(code),
            // SQLITE_BUSY 5, SQLITE_LOCKED 6, with their extended codes.
            Backend::Sqlite => code.parse::<i32>().is_ok_and(|n| matches!(n & 0xff, 5 | 6)),
        }
    }
}

impl std::fmt::Display for DriverError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for DriverError {}

impl sqlx::error::DatabaseError for DriverError {
    fn message(&self) -> &str {
        &self.message
    }

    fn code(&self) -> Option<std::borrow::Cow<'_, str>> {
        self.code.as_deref().map(Into::into)
    }

    fn constraint(&self) -> Option<&str> {
        self.constraint.as_deref()
    }

    fn as_error(&self) -> &(dyn std::error::Error + Send + Sync + 'static) {
        self
    }

    fn as_error_mut(&mut self) -> &mut (dyn std::error::Error + Send + Sync + 'static) {
        self
    }

    fn into_error(self: Box<Self>) -> Box<dyn std::error::Error + Send + Sync + 'static> {
        self
    }

    fn kind(&self) -> sqlx::error::ErrorKind {
        use sqlx::error::ErrorKind;
        // PostgreSQL's SQLSTATEs; SQLite's SQLITE_CONSTRAINT_UNIQUE, _PRIMARYKEY,
        // _FOREIGNKEY, _NOTNULL, _CHECK.
        match (self.backend, self.code.as_deref()) {
            (Backend::Postgres, Some("23505")) | (Backend::Sqlite, Some("2067" | "1555")) => {
                ErrorKind::UniqueViolation
            }
            (Backend::Postgres, Some("23503")) | (Backend::Sqlite, Some("787")) => {
                ErrorKind::ForeignKeyViolation
            }
            (Backend::Postgres, Some("23502")) | (Backend::Sqlite, Some("1299")) => {
                ErrorKind::NotNullViolation
            }
            (Backend::Postgres, Some("23514")) | (Backend::Sqlite, Some("275")) => {
                ErrorKind::CheckViolation
            }
            _ => ErrorKind::Other,
        }
    }
}

impl From<sqlx::Error> for StoreError {
    /// A write that breaks one of the unique keys clients can run into is the field
    /// error `unique_keys` gives it; any other database error is kept as it is.
    fn from(e: sqlx::Error) -> Self {
        crate::unique_keys::field_error(&e).unwrap_or(StoreError::Database(e))
    }
}
