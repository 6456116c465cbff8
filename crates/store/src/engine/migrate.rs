//! Brings a database's schema up to date: the migrations of its folder
//! (`migrations/sqlite` or `migrations/postgres`, embedded by `build.rs`) not yet
//! applied run in version order, each in a transaction of its own with its row in
//! `_rentrack_migrations` (version, description, SHA-256 of the text). A migration whose
//! first line is `-- no-transaction` (one that rebuilds SQLite tables with foreign keys
//! off) manages its own. Refused: a database holding a version this binary does not
//! know (a newer rentrack migrated it) or one whose applied text has changed.
//!
//! Databases migrated by rentrack before 0.2 kept their bookkeeping in sqlx's
//! `_sqlx_migrations`: on the first run it is adopted (each applied version checked
//! against its SHA-384, as sqlx recorded it) and dropped, in one transaction.

use std::collections::HashMap;

use sea_query::{Value, Values};
use sha2::{Digest, Sha256, Sha384};

use super::Backend;
use super::error::DbError;
use super::postgres::PgConn;
use super::sqlite;

/// One migration: `NNNN_description.sql`.
#[derive(Debug)]
pub(crate) struct Migration {
    pub(crate) version: i64,
    pub(crate) description: &'static str,
    pub(crate) sql: &'static str,
}

include!(concat!(env!("OUT_DIR"), "/migrations.rs"));

/// Why the schema could not be brought up to date.
#[derive(Debug, thiserror::Error)]
pub enum MigrateError {
    #[error(
        "the database has migration {0}, which this rentrack does not know: a newer version migrated it"
    )]
    Unknown(i64),
    #[error("migration {0} was applied with another text than this rentrack's")]
    Changed(i64),
    #[error("migration {0} failed half-way under an earlier version: restore a backup")]
    Dirty(i64),
    #[error("migration {version} failed: {source}")]
    Failed { version: i64, source: DbError },
    #[error(transparent)]
    Database(#[from] DbError),
}

impl Migration {
    fn checksum(&self) -> String {
        hex::encode(Sha256::digest(self.sql))
    }

    fn in_transaction(&self) -> bool {
        !self.sql.starts_with("-- no-transaction")
    }
}

const TABLE: &str = "CREATE TABLE IF NOT EXISTS _rentrack_migrations (
    version BIGINT PRIMARY KEY,
    description TEXT NOT NULL,
    checksum TEXT NOT NULL,
    applied_at TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP
)";

const RECORD: &str =
    "INSERT INTO _rentrack_migrations (version, description, checksum) VALUES ($1, $2, $3)";

/// A connection migrations run on.
pub(crate) enum Target<'a> {
    Sqlite(&'a sqlite::Conn),
    Postgres(&'a mut PgConn),
}

impl Target<'_> {
    fn backend(&self) -> Backend {
        match self {
            Target::Sqlite(_) => Backend::Sqlite,
            Target::Postgres(_) => Backend::Postgres,
        }
    }

    async fn batch(&mut self, sql: &str) -> Result<(), DbError> {
        match self {
            Target::Sqlite(conn) => conn.batch(sql),
            Target::Postgres(conn) => conn.batch(sql).await,
        }
    }

    async fn execute(&mut self, text: &'static str, values: Vec<Value>) -> Result<u64, DbError> {
        let values = Values(values);
        match self {
            Target::Sqlite(conn) => conn.execute(text, &values),
            Target::Postgres(conn) => conn.execute(text, &values).await,
        }
    }

    async fn all<T: super::Record>(&mut self, text: &'static str) -> Result<Vec<T>, DbError> {
        let values = Values(Vec::new());
        match self {
            Target::Sqlite(conn) => conn.all(text, &values),
            Target::Postgres(conn) => super::pipelined::records(&conn.rows(text, &values).await?),
        }
    }

    fn known(&self) -> &'static [Migration] {
        match self {
            Target::Sqlite(_) => SQLITE,
            Target::Postgres(_) => POSTGRES,
        }
    }
}

/// Applies the migrations `target` lacks, those up to version `until` when given.
pub(crate) async fn run(mut target: Target<'_>, until: Option<i64>) -> Result<(), MigrateError> {
    target.batch(TABLE).await?;
    let known = target.known();
    adopt_sqlx(&mut target, known).await?;
    let applied = applied(&mut target).await?;
    let wanted = pending(known, &applied)?
        .into_iter()
        .filter(|m| until.is_none_or(|last| m.version <= last));
    for migration in wanted {
        apply(&mut target, migration)
            .await
            .map_err(|source| MigrateError::Failed {
                version: migration.version,
                source,
            })?;
    }
    Ok(())
}

/// The migrations `target` lacks, in order, written nowhere (`rentrack migrate --check`):
/// all of them when it holds no migration table. Refused as `run` refuses.
pub(crate) async fn check(
    mut target: Target<'_>,
) -> Result<Vec<(i64, &'static str)>, MigrateError> {
    let known = target.known();
    let applied = if has_table(&mut target, Bookkeeping::Ours).await? {
        applied(&mut target).await?
    } else {
        HashMap::new()
    };
    Ok(pending(known, &applied)?
        .into_iter()
        .map(|m| (m.version, m.description))
        .collect())
}

/// The versions `target` records as applied, with their checksums.
async fn applied(target: &mut Target<'_>) -> Result<HashMap<i64, String>, DbError> {
    Ok(target
        .all::<(i64, String)>("SELECT version, checksum FROM _rentrack_migrations")
        .await?
        .into_iter()
        .collect())
}

/// The tables that record applied migrations: ours, and sqlx's before it.
enum Bookkeeping {
    Ours,
    Sqlx,
}

/// Whether the database (on PostgreSQL: the current schema) holds `table`.
async fn has_table(target: &mut Target<'_>, table: Bookkeeping) -> Result<bool, DbError> {
    let exists = match (target.backend(), table) {
        (Backend::Sqlite, Bookkeeping::Ours) => {
            "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = '_rentrack_migrations'"
        }
        (Backend::Sqlite, Bookkeeping::Sqlx) => {
            "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = '_sqlx_migrations'"
        }
        (Backend::Postgres, Bookkeeping::Ours) => {
            "SELECT count(*) FROM pg_tables WHERE schemaname = current_schema() AND tablename = '_rentrack_migrations'"
        }
        (Backend::Postgres, Bookkeeping::Sqlx) => {
            "SELECT count(*) FROM pg_tables WHERE schemaname = current_schema() AND tablename = '_sqlx_migrations'"
        }
    };
    let (tables,): (i64,) = target.all(exists).await?.pop().unwrap_or((0,));
    Ok(tables > 0)
}

/// The migrations of `known` not yet `applied`, in order; refused when `applied` holds
/// an unknown version or another text of a known one.
fn pending<'m>(
    known: &'m [Migration],
    applied: &HashMap<i64, String>,
) -> Result<Vec<&'m Migration>, MigrateError> {
    if let Some(version) = applied
        .keys()
        .filter(|v| !known.iter().any(|m| m.version == **v))
        .min()
    {
        return Err(MigrateError::Unknown(*version));
    }
    let mut pending = Vec::new();
    for migration in known {
        match applied.get(&migration.version) {
            Some(checksum) if *checksum != migration.checksum() => {
                return Err(MigrateError::Changed(migration.version));
            }
            Some(_) => {}
            None => pending.push(migration),
        }
    }
    Ok(pending)
}

/// Notes `migration` as applied.
async fn record(target: &mut Target<'_>, migration: &Migration) -> Result<u64, DbError> {
    let values = vec![
        migration.version.into(),
        migration.description.into(),
        migration.checksum().into(),
    ];
    target.execute(RECORD, values).await
}

async fn apply(target: &mut Target<'_>, migration: &Migration) -> Result<(), DbError> {
    if !migration.in_transaction() {
        target.batch(migration.sql).await?;
        record(target, migration).await?;
        return Ok(());
    }
    target.batch(begin(target.backend())).await?;
    let applied = async {
        target.batch(migration.sql).await?;
        if migration.version == FOLD_NAMES {
            fold_names(target).await?;
        }
        record(target, migration).await?;
        target.batch("COMMIT").await
    }
    .await;
    if applied.is_err() {
        // The error is the migration's; a failed rollback changes nothing more.
        let _ = target.batch("ROLLBACK").await;
    }
    applied
}

/// The migration that adds `items.search_name`, whose values rentrack computes.
const FOLD_NAMES: i64 = 24;

/// Each item's `search_name`, folded by rentrack (`domain::name::folded`: SQL's
/// `lower` differs between the databases and their collations), in the transaction of
/// the migration that adds the column, 1,000 at a time.
async fn fold_names(target: &mut Target<'_>) -> Result<(), DbError> {
    loop {
        let rows: Vec<(i64, String)> = target
            .all("SELECT id, name FROM items WHERE search_name IS NULL ORDER BY id LIMIT 1000")
            .await?;
        if rows.is_empty() {
            return Ok(());
        }
        for (id, name) in rows {
            let values = vec![domain::name::folded(&name).into(), id.into()];
            target
                .execute("UPDATE items SET search_name = $1 WHERE id = $2", values)
                .await?;
        }
    }
}

fn begin(backend: Backend) -> &'static str {
    match backend {
        Backend::Sqlite => "BEGIN IMMEDIATE",
        Backend::Postgres => "BEGIN",
    }
}

/// Takes over sqlx's bookkeeping, if the database has it and ours is empty.
async fn adopt_sqlx(target: &mut Target<'_>, known: &[Migration]) -> Result<(), MigrateError> {
    let sqlx = has_table(target, Bookkeeping::Sqlx).await?;
    let (ours,): (i64,) = target
        .all("SELECT count(*) FROM _rentrack_migrations")
        .await?
        .pop()
        .unwrap_or((0,));
    if !sqlx || ours > 0 {
        return Ok(());
    }
    let rows: Vec<(i64, Vec<u8>, bool)> = target
        .all("SELECT version, checksum, success FROM _sqlx_migrations ORDER BY version")
        .await?;
    for (version, checksum, success) in &rows {
        let Some(migration) = known.iter().find(|m| m.version == *version) else {
            return Err(MigrateError::Unknown(*version));
        };
        if !success {
            return Err(MigrateError::Dirty(*version));
        }
        if Sha384::digest(migration.sql)[..] != checksum[..] {
            return Err(MigrateError::Changed(*version));
        }
    }
    target.batch(begin(target.backend())).await?;
    let adopted = async {
        for (version, ..) in &rows {
            let migration = known
                .iter()
                .find(|m| m.version == *version)
                .expect("checked above");
            record(target, migration).await?;
        }
        target.batch("DROP TABLE _sqlx_migrations").await?;
        target.batch("COMMIT").await
    }
    .await;
    if adopted.is_err() {
        let _ = target.batch("ROLLBACK").await;
    }
    Ok(adopted?)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn migration(version: i64, sql: &'static str) -> Migration {
        Migration {
            version,
            description: "test",
            sql,
        }
    }

    #[test]
    fn pending_keeps_order_and_refuses_unknown_or_changed_versions() {
        let known = [migration(1, "a"), migration(2, "b"), migration(3, "c")];
        let mut applied = HashMap::new();
        applied.insert(1, known[0].checksum());
        let versions: Vec<i64> = pending(&known, &applied)
            .expect("pending")
            .iter()
            .map(|m| m.version)
            .collect();
        assert_eq!(versions, [2, 3]);
        applied.insert(2, "other".into());
        assert!(matches!(
            pending(&known, &applied),
            Err(MigrateError::Changed(2))
        ));
        applied.remove(&2);
        applied.insert(9, "x".into());
        assert!(matches!(
            pending(&known, &applied),
            Err(MigrateError::Unknown(9))
        ));
    }

    #[test]
    fn both_folders_hold_the_same_versions() {
        let versions = |all: &[Migration]| all.iter().map(|m| m.version).collect::<Vec<_>>();
        assert_eq!(versions(SQLITE), versions(POSTGRES));
        assert!(!SQLITE.is_empty());
    }

    #[test]
    fn a_migration_marked_so_runs_outside_a_transaction() {
        assert!(!migration(1, "-- no-transaction\nPRAGMA x;").in_transaction());
        assert!(migration(1, "-- a comment\nCREATE TABLE t (a INTEGER);").in_transaction());
    }
}
