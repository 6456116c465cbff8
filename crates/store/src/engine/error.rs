//! What a database driver reports, in one shape for both: each driver maps its own
//! errors into `DbError` (`sqlite::error`, `postgres::error`), and the rest of the store
//! reads only the kind.

use std::fmt;

/// A failed statement, connection or row, as the engine reports it.
#[derive(Debug, Clone)]
pub struct DbError {
    pub kind: DbErrorKind,
    /// The driver's own words, for the log; never shown to a user.
    message: String,
}

/// What went wrong, in the terms the store acts on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DbErrorKind {
    /// A unique key refused the write. `constraint` is PostgreSQL's name for it; for
    /// SQLite, which names columns rather than constraints, the name PostgreSQL gives
    /// an unnamed `UNIQUE (a, b)` of table `t`: `t_a_b_key`.
    UniqueKey { constraint: String },
    /// A foreign key refused the write: a record still in use, or one that disappeared
    /// while the request ran.
    ForeignKey,
    /// The database is busy: no free connection in time, a lock held past the busy or
    /// statement timeout, too many clients, a serialization failure or deadlock. The
    /// same request may succeed a moment later.
    Busy,
    /// The connection was lost, refused or closed (a shutdown among them).
    ConnectionLost,
    /// A statement that must read one row read none.
    NoRow,
    /// Anything else: a bug or a broken stored value, not the user's doing.
    Other,
}

impl DbError {
    pub(crate) fn new(kind: DbErrorKind, message: impl Into<String>) -> DbError {
        DbError {
            kind,
            message: message.into(),
        }
    }

    /// A stored value that does not read as its type.
    pub(crate) fn decode(message: impl Into<String>) -> DbError {
        DbError::new(DbErrorKind::Other, message)
    }

    /// Whether the same request may succeed a moment later (HTTP 503).
    pub fn is_unavailable(&self) -> bool {
        matches!(self.kind, DbErrorKind::Busy | DbErrorKind::ConnectionLost)
    }
}

impl fmt::Display for DbError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            DbErrorKind::UniqueKey { constraint } => {
                write!(f, "unique key {constraint}: {}", self.message)
            }
            DbErrorKind::ForeignKey => write!(f, "foreign key: {}", self.message),
            DbErrorKind::Busy => write!(f, "database busy: {}", self.message),
            DbErrorKind::ConnectionLost => write!(f, "connection lost: {}", self.message),
            DbErrorKind::NoRow => write!(f, "no row: {}", self.message),
            DbErrorKind::Other => f.write_str(&self.message),
        }
    }
}

impl std::error::Error for DbError {}

/// The name PostgreSQL gives an unnamed unique key on `columns` of `table`.
pub(crate) fn unique_key_name(table: &str, columns: &[&str]) -> String {
    format!("{table}_{}_key", columns.join("_"))
}
