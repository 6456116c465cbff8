//! The engine: connections, statements, rows, errors and migrations for SQLite and
//! PostgreSQL, and nothing of any resource family. Statements are written once with
//! sea-query and rendered for the backend in use. SQLite runs through rusqlite
//! (`sqlite`); PostgreSQL through tokio-postgres alone (`postgres`: transactions on a
//! deadpool pool; `pipelined`: statements outside transactions on shared connections).
//! Rows are read through `#[derive(Row)]` (`LiteRow` and `PgRecord`), errors mapped into
//! `DbError`, migrations applied by `migrate`.

pub mod backup;
mod error;
pub(crate) mod migrate;
pub(crate) mod paging;
pub(crate) mod pg_rows;
mod pipelined;
mod postgres;
pub(crate) mod sqlite;

use sea_query::{PostgresQueryBuilder, QueryStatementWriter, SqliteQueryBuilder, Values};
use std::str::FromStr;
use std::sync::Arc;
use std::time::Duration;

pub(crate) use error::unique_key_name;
pub use error::{DbError, DbErrorKind};
pub use migrate::MigrateError;

use crate::{CompanyId, StoreError};
use pg_rows::PgRecord;
use pipelined::PgReads;
use postgres::{PgConn, PgPool};
use sqlite::{LiteOptions, LitePool, LiteRow};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Backend {
    Sqlite,
    Postgres,
}

/// When a SQLite commit counts as done. `Full` (the default) syncs the write-ahead
/// log to disk at every commit, so an acknowledged write survives a power loss or an
/// operating-system crash. `Normal` syncs only at checkpoints: commits are faster, and
/// still survive a crash of the process, but the last ones before a power loss may be
/// lost. PostgreSQL has its own setting (`synchronous_commit`) and ignores this one.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum SqliteSync {
    #[default]
    Full,
    Normal,
}

impl FromStr for SqliteSync {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "full" => Ok(SqliteSync::Full),
            "normal" => Ok(SqliteSync::Normal),
            other => Err(format!(
                "unknown SQLite synchronous setting {other:?}: use full or normal"
            )),
        }
    }
}

/// A statement ready for either backend.
pub trait Statement {
    fn render(&self, backend: Backend) -> (String, Values);
}

impl<T: QueryStatementWriter> Statement for T {
    fn render(&self, backend: Backend) -> (String, Values) {
        match backend {
            Backend::Sqlite => self.build(SqliteQueryBuilder),
            Backend::Postgres => self.build(PostgresQueryBuilder),
        }
    }
}

/// Hand-written SQL that reads the same on both backends, with `$1`, `$2`, ...
/// placeholders (SQLite accepts the numbered form too). Used where sea-query has no
/// builder, such as recursive common table expressions.
pub struct Sql {
    pub text: &'static str,
    pub values: Values,
}

impl Statement for Sql {
    fn render(&self, _backend: Backend) -> (String, Values) {
        (self.text.to_owned(), self.values.clone())
    }
}

/// A row of any columns, each as its text (`None`: NULL), in the statement's order:
/// for statements whose columns are known only when they run (a company's move). On
/// PostgreSQL the statement gives every column as text; on SQLite an integer or real
/// reads as its digits and a blob as lower-case hex.
#[derive(Debug, Clone, PartialEq)]
pub struct Loose(pub Vec<Option<String>>);

/// A row type readable from both backends: `#[derive(Row)]`.
pub trait Record: PgRecord + LiteRow + Send {}
impl<T> Record for T where T: PgRecord + LiteRow + Send {}

#[derive(Clone, Debug)]
enum Pool {
    Sqlite(LitePool),
    /// Transactions take a connection of the pool; other statements are pipelined on
    /// the shared connections (`pipelined`), or take the pool's when there are none.
    Postgres(PgPool, Option<Arc<PgReads>>),
}

/// What [`Db::ping`] found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Health {
    /// The database answered.
    Answered,
    /// The database is there but busy: the pool's connections all in use past its
    /// wait, or the server refusing more clients.
    Busy,
}

/// How long a request may wait on the database before it is told to come back later
/// (503). Each wait ends well inside the HTTP request timeout (30 s), so a busy or
/// absent database gives a 503 and never a 504 or a stalled worker.
#[derive(Debug, Clone)]
pub struct DbOptions {
    /// Waiting for a free connection from the pool (also covers connecting to an
    /// unreachable PostgreSQL).
    pub acquire_timeout: Duration,
    /// SQLite: waiting for another writer's lock.
    pub busy_timeout: Duration,
    /// PostgreSQL: the longest one statement may run, lock waits included.
    pub statement_timeout: Duration,
    /// Connections in the pool; `None` for the backend's default (16 SQLite;
    /// PostgreSQL: `postgres_pool_default`).
    pub max_connections: Option<u32>,
    /// SQLite: how commits reach the disk (FULL unless traded away).
    pub sqlite_synchronous: SqliteSync,
    /// A statement that runs longer is logged as a warning (target `store::statement`) with
    /// its SQL text (placeholders only, never the values) and its time, inside the
    /// request's span, so a slow request's log names the slow query.
    pub slow_statement: Duration,
}

impl Default for DbOptions {
    fn default() -> Self {
        DbOptions {
            acquire_timeout: Duration::from_secs(5),
            busy_timeout: Duration::from_secs(5),
            statement_timeout: Duration::from_secs(10),
            max_connections: None,
            sqlite_synchronous: SqliteSync::default(),
            slow_statement: Duration::from_millis(250),
        }
    }
}

/// The database: a pool for one of the two backends.
#[derive(Clone, Debug)]
pub struct Db {
    pool: Pool,
    /// The last total read of each counted list (see `paging`).
    pub(crate) last_totals: Arc<paging::LastTotals>,
    /// The counts of lists kept while what they count does not change (see `paging`).
    pub(crate) kept_counts: Arc<paging::KeptCounts>,
    /// Signalled when a transaction that wrote webhook events commits (`outbox`).
    outbox: Arc<tokio::sync::Notify>,
    /// Event bodies this process rendered and has not written yet, by event id, with
    /// when each was kept: `outbox` keeps and reads them, a delivery claim writes them.
    pub(crate) rendered:
        Arc<std::sync::Mutex<std::collections::HashMap<i64, (std::time::Instant, String)>>>,
    /// PostgreSQL: the turns of item writes (`begin_turns`).
    turns: Option<Arc<[Arc<tokio::sync::Mutex<()>>]>>,
}

/// The turns `Db::begin_turns` takes on PostgreSQL, an item's by its company and number:
/// two items rarely share one (then their writes take turns too, which costs a wait,
/// never a wrong answer).
const ITEM_TURNS: usize = 4096;

/// One transaction. Dropped without `commit`, it rolls back: a refused request
/// leaves nothing behind.
pub struct Tx {
    inner: TxInner,
    /// Signalled at commit when the transaction wrote webhook events.
    outbox: Option<Arc<tokio::sync::Notify>>,
    wrote_events: bool,
    /// The items' turns `Db::begin_turns` waited for, let go after the commit.
    turns: Vec<tokio::sync::OwnedMutexGuard<()>>,
    /// Set by [`Tx::bulk`]; boxed, as most transactions have none.
    bulk: Option<Box<Bulk>>,
    /// A company's active webhook endpoints (id, events), read with the transaction's
    /// first lock (`outbox::lock_with_endpoints`) or else at its first event of that
    /// company (`outbox::emit`): its events go to the endpoints active then, in one
    /// read instead of one an event. Boxed, as most transactions write no event.
    pub(crate) endpoints: Option<Box<Endpoints>>,
}

/// A company and its active webhook endpoints (id, events): [`Tx`]'s `endpoints`.
pub(crate) type Endpoints = (CompanyId, Vec<(i64, String)>);

/// The reads of [`Tx::read_together`], whose rows are taken one read after the other.
pub struct Together(Reads);

enum Reads {
    /// Each read, run when its rows are asked for.
    Sqlite(std::collections::VecDeque<(String, Values)>),
    /// Each read's rows, answered.
    Postgres(std::collections::VecDeque<Vec<tokio_postgres::Row>>),
}

impl Together {
    /// The rows of the next read. Panics past the last read, or with the transaction of
    /// another database: a caller takes each of its own reads once.
    pub fn next<T: Record>(&mut self, tx: &mut Tx) -> Result<Vec<T>, StoreError> {
        match (&mut self.0, &mut tx.inner) {
            (Reads::Sqlite(reads), TxInner::Sqlite { conn, .. }) => {
                let (sql, values) = reads.pop_front().expect("a read for each ask");
                Ok(conn.rows(&sql, &values, None)?)
            }
            (Reads::Postgres(answers), TxInner::Postgres(_)) => Ok(pipelined::records(
                &answers.pop_front().expect("a read for each ask"),
            )?),
            _ => unreachable!("reads together are taken in their own transaction"),
        }
    }
}

/// What a bulk transaction ([`Tx::bulk`]) keeps until its commit.
#[derive(Default)]
pub(crate) struct Bulk {
    /// Per company and sequence (`counters`), the next number of the block it took
    /// and the block's last.
    pub(crate) blocks: std::collections::HashMap<(i64, &'static str), (i64, i64)>,
    /// Statements run at commit, in key order ([`Tx::at_commit`]).
    at_commit: std::collections::BTreeMap<String, (String, Values)>,
    /// Records a check found (company, table, id): the rows of an import name the same
    /// few again and again (their group, their location), and nothing it found is
    /// deleted before it ends (`has`, in lib.rs).
    pub(crate) found: std::collections::HashSet<(i64, &'static str, i64)>,
    /// Values of one column of a table's rows, by id, written at commit
    /// ([`Tx::write_at_commit`]).
    deferred: std::collections::BTreeMap<
        (&'static str, &'static str),
        std::collections::BTreeMap<i64, String>,
    >,
}

/// The rows a statement of [`Tx::write_at_commit`] writes (two values each, within
/// SQLite's 32,766 variables).
const DEFERRED_ROWS: usize = 8_000;

enum TxInner {
    /// A connection with a transaction open; `writes` when it holds the write lock.
    Sqlite { conn: sqlite::Conn, writes: bool },
    /// Boxed: a pooled connection is larger than the rest of a `Tx`.
    Postgres(Box<PgConn>),
}

/// The segments SQLite's name index (FTS5, `items_search`) may hold before
/// `Db::optimize` merges them into one. A search probes every segment for each of its
/// trigrams: at a million assets, a search matching 25 answered 11,283 and 11,583
/// times a second with the 8 segments an import left, 13,913 and 13,284 with one
/// (docs/performance.md). Writes add a segment a transaction and FTS5 merges them
/// four at a time, so a few small ones come back between merges.
const SEARCH_SEGMENTS: i64 = 4;

/// The pages one step of that merge writes (FTS5's `merge` command): a step holds the
/// write connection for tens of milliseconds (the index of a million names, about
/// 12,000 pages, merged whole in 0.7 s), and writes queued meanwhile go between steps.
const MERGE_PAGES: i64 = 500;

/// The most steps of that merge a call of `Db::optimize` takes; a merge not done by
/// then goes on at the next call.
const MERGE_STEPS: usize = 100;

/// Merges the name index's segments into one, a step at a time, when it holds more
/// than `SEARCH_SEGMENTS`, or goes on with a merge an earlier call began.
async fn merge_search_index(p: &LitePool) -> Result<(), StoreError> {
    let none = Values(Vec::new());
    let (segments,): (i64,) = p
        .acquire()
        .await?
        .one("SELECT count(DISTINCT segid) FROM items_search_idx", &none)?;
    // One segment: nothing to merge, and no merge begun (its inputs would still count).
    if segments <= 1 {
        return Ok(());
    }
    // Negative: every segment, whatever its level, is merged (FTS5's incremental
    // `optimize`); positive: a merge already begun goes on, and four segments of one
    // level are merged (FTS5's `usermerge`), else nothing is written.
    let pages = if segments > SEARCH_SEGMENTS {
        -MERGE_PAGES
    } else {
        MERGE_PAGES
    };
    let merge = format!("INSERT INTO items_search (items_search, rank) VALUES ('merge', {pages})");
    for _ in 0..MERGE_STEPS {
        let writer = p.acquire_writer().await?.settled().await?;
        let before = writer.total_changes();
        writer.batch(&merge)?;
        // FTS5's documented test: fewer than two rows written, nothing was left to merge.
        if writer.total_changes() - before < 2 {
            break;
        }
    }
    Ok(())
}

/// Reads outside a transaction go straight to the pool (SQLite) or to the shared
/// connections (PostgreSQL).
pub struct Reader<'a> {
    db: &'a Db,
}

/// No row where one was required.
pub(crate) fn no_row() -> StoreError {
    StoreError::Database(DbError::new(
        DbErrorKind::NoRow,
        "the statement read no row",
    ))
}

impl Reader<'_> {
    /// Up to `limit` rows of `stmt` (all when `None`).
    async fn rows<T: Record>(
        &self,
        stmt: &impl Statement,
        limit: Option<usize>,
    ) -> Result<Vec<T>, StoreError> {
        match &self.db.pool {
            Pool::Sqlite(p) => {
                let (sql, values) = stmt.render(Backend::Sqlite);
                Ok(p.acquire().await?.rows(&sql, &values, limit)?)
            }
            Pool::Postgres(_, Some(reads)) => Ok(pipelined::records(&reads.rows(stmt).await?)?),
            Pool::Postgres(p, None) => {
                let (sql, values) = stmt.render(Backend::Postgres);
                Ok(pipelined::records(
                    &p.get().await?.rows(&sql, &values).await?,
                )?)
            }
        }
    }

    pub async fn all<T: Record>(&mut self, stmt: &impl Statement) -> Result<Vec<T>, StoreError> {
        self.rows(stmt, None).await
    }

    pub async fn optional<T: Record>(
        &mut self,
        stmt: &impl Statement,
    ) -> Result<Option<T>, StoreError> {
        Ok(self.rows(stmt, Some(1)).await?.into_iter().next())
    }

    pub async fn one<T: Record>(&mut self, stmt: &impl Statement) -> Result<T, StoreError> {
        self.optional(stmt).await?.ok_or_else(no_row)
    }

    /// Runs a statement and returns the number of rows it touched.
    pub async fn execute(&mut self, stmt: &impl Statement) -> Result<u64, StoreError> {
        match &self.db.pool {
            Pool::Sqlite(p) => {
                let (sql, values) = stmt.render(Backend::Sqlite);
                Ok(p.acquire_writer()
                    .await?
                    .settled()
                    .await?
                    .execute(&sql, &values)?)
            }
            Pool::Postgres(_, Some(reads)) => Ok(reads.execute(stmt).await?),
            Pool::Postgres(p, None) => {
                let (sql, values) = stmt.render(Backend::Postgres);
                Ok(p.get().await?.execute(&sql, &values).await?)
            }
        }
    }

    pub fn backend(&self) -> Backend {
        self.db.backend()
    }
}

impl Tx {
    /// Up to `limit` rows of `stmt` (all when `None`).
    async fn rows<T: Record>(
        &mut self,
        stmt: &impl Statement,
        limit: Option<usize>,
    ) -> Result<Vec<T>, StoreError> {
        match &mut self.inner {
            TxInner::Sqlite { conn, .. } => {
                let (sql, values) = stmt.render(Backend::Sqlite);
                Ok(conn.rows(&sql, &values, limit)?)
            }
            TxInner::Postgres(conn) => {
                let (sql, values) = stmt.render(Backend::Postgres);
                Ok(pipelined::records(&conn.rows(&sql, &values).await?)?)
            }
        }
    }

    pub async fn all<T: Record>(&mut self, stmt: &impl Statement) -> Result<Vec<T>, StoreError> {
        self.rows(stmt, None).await
    }

    pub async fn optional<T: Record>(
        &mut self,
        stmt: &impl Statement,
    ) -> Result<Option<T>, StoreError> {
        Ok(self.rows(stmt, Some(1)).await?.into_iter().next())
    }

    pub async fn one<T: Record>(&mut self, stmt: &impl Statement) -> Result<T, StoreError> {
        self.optional(stmt).await?.ok_or_else(no_row)
    }

    /// Reads `reads` together: on PostgreSQL all sent in one pipeline, one round trip
    /// (with the writes sent ahead); SQLite, in this process, reads each when
    /// [`Together::next`] asks for it. Their rows are taken in the order given. A write
    /// that answers rows (`RETURNING`) can be one of them, and the reads after it see
    /// it; on SQLite it runs only when asked for, so its rows are asked for first. No
    /// reads make no round trip: the writes sent ahead wait for the next statement.
    pub async fn read_together(
        &mut self,
        reads: &[&(dyn Statement + Sync)],
    ) -> Result<Together, StoreError> {
        match &mut self.inner {
            TxInner::Sqlite { .. } => Ok(Together(Reads::Sqlite(
                reads.iter().map(|r| r.render(Backend::Sqlite)).collect(),
            ))),
            TxInner::Postgres(_) if reads.is_empty() => {
                Ok(Together(Reads::Postgres(Default::default())))
            }
            TxInner::Postgres(conn) => {
                let rendered: Vec<(String, Values)> =
                    reads.iter().map(|r| r.render(Backend::Postgres)).collect();
                Ok(Together(Reads::Postgres(
                    conn.rows_together(&rendered).await?.into(),
                )))
            }
        }
    }

    /// Runs a statement and returns the number of rows it touched.
    pub async fn execute(&mut self, stmt: &impl Statement) -> Result<u64, StoreError> {
        match &mut self.inner {
            TxInner::Sqlite { conn, .. } => {
                let (sql, values) = stmt.render(Backend::Sqlite);
                Ok(conn.execute(&sql, &values)?)
            }
            TxInner::Postgres(conn) => {
                let (sql, values) = stmt.render(Backend::Postgres);
                Ok(conn.execute(&sql, &values).await?)
            }
        }
    }

    /// Runs the write `stmt`, whose count of rows touched nothing needs: on PostgreSQL
    /// it goes out with the transaction's next statement waited for (or its commit),
    /// in one round trip with it, and an error it meets is that statement's; SQLite,
    /// in this process, runs it at once. For writes whose refusals were checked
    /// before (a history entry, a total): a caller that words the error of its next
    /// statement would word this one's too. [`Tx::flush`] waits for them.
    pub fn send(&mut self, stmt: &impl Statement) -> Result<(), StoreError> {
        match &mut self.inner {
            TxInner::Sqlite { conn, .. } => {
                let (sql, values) = stmt.render(Backend::Sqlite);
                conn.execute(&sql, &values)?;
            }
            TxInner::Postgres(conn) => {
                let (sql, values) = stmt.render(Backend::Postgres);
                conn.send(sql, values);
            }
        }
        Ok(())
    }

    pub fn backend(&self) -> Backend {
        match self.inner {
            TxInner::Sqlite { .. } => Backend::Sqlite,
            TxInner::Postgres(_) => Backend::Postgres,
        }
    }

    /// Makes this a bulk transaction, one that writes thousands of rows (an import):
    /// numbers come from blocks taken a thousand at a time (`counters`), and on
    /// PostgreSQL the list counters are added once, at commit (migration 0023), instead
    /// of row by row, which costs the square of the rows there. What it defers is
    /// settled by [`Tx::commit`], and dropped with the rest by a rollback.
    pub async fn bulk(&mut self) -> Result<(), StoreError> {
        if self.bulk.is_some() {
            return Ok(());
        }
        if let TxInner::Sqlite { conn, .. } = &mut self.inner {
            conn.bulk_cache()?;
        }
        if let TxInner::Postgres(conn) = &mut self.inner {
            let none = Values(Vec::new());
            conn.execute(
                "CREATE TEMP TABLE IF NOT EXISTS pending_list_counts \
                 (company_id BIGINT NOT NULL, list TEXT NOT NULL, delta BIGINT NOT NULL) ON COMMIT DROP",
                &none,
            )
            .await?;
            // The counters' triggers wait for the commit (migration 0025); a bulk
            // transaction's append to `pending_list_counts` at once instead, which its
            // settling sums (the counts of any row written before this one go to
            // `list_counts` now).
            conn.execute("SET CONSTRAINTS ALL IMMEDIATE", &none).await?;
            conn.execute("SET LOCAL rentrack.deferred_counts = 'on'", &none)
                .await?;
        }
        self.bulk = Some(Box::default());
        Ok(())
    }

    /// Whether the transaction can still run statements. On PostgreSQL a failed
    /// statement ends its transaction (every later one fails until the rollback);
    /// SQLite's goes on. An import asks after a failed row, to know whether its later
    /// rows can still be checked. (A savepoint a row would keep it going, at the cost
    /// of a subtransaction a row: past 64 of them every other session's snapshot reads
    /// `pg_subtrans`, which slows the whole server while a large import runs.)
    pub async fn usable(&mut self) -> bool {
        match &mut self.inner {
            TxInner::Sqlite { .. } => true,
            TxInner::Postgres(conn) => conn.batch("SELECT 1").await.is_ok(),
        }
    }

    pub(crate) fn bulk_mut(&mut self) -> Option<&mut Bulk> {
        self.bulk.as_deref_mut()
    }

    /// Runs `stmt` when a bulk transaction commits, in place of any statement given
    /// before under `key` (so the last word wins: `counters` hands back what its blocks
    /// did not use). Nothing outside a bulk transaction.
    pub(crate) fn at_commit(&mut self, key: String, stmt: &impl Statement) {
        let backend = self.backend();
        if let Some(bulk) = self.bulk.as_mut() {
            bulk.at_commit.insert(key, stmt.render(backend));
        }
    }

    /// Whether this is a bulk transaction on SQLite, whose writes of an FTS5 index wait
    /// for its commit ([`Tx::write_at_commit`]).
    pub(crate) fn defers_indexed_text(&self) -> bool {
        self.bulk.is_some() && self.backend() == Backend::Sqlite
    }

    /// Sets `column` of the row `id` of `table` to `value` when a bulk transaction on
    /// SQLite commits, with the other rows' values in a few statements (the last value
    /// given for a row wins). For a column an FTS5 index reads through triggers: FTS5
    /// writes its pending index out at every statement's savepoint, so a row a
    /// statement merged the index a row at a time, and an import of 1,000,000 assets
    /// slowed to 180 rows a second (docs/performance.md, "Search"). Only where
    /// [`Tx::defers_indexed_text`].
    pub(crate) fn write_at_commit(
        &mut self,
        table: &'static str,
        column: &'static str,
        id: i64,
        value: String,
    ) {
        debug_assert!(self.defers_indexed_text());
        if let Some(bulk) = self.bulk.as_mut() {
            bulk.deferred
                .entry((table, column))
                .or_default()
                .insert(id, value);
        }
    }

    /// Settles what a bulk transaction deferred, in its transaction.
    async fn settle(&mut self) -> Result<(), StoreError> {
        let Some(bulk) = self.bulk.take() else {
            return Ok(());
        };
        for ((table, column), rows) in &bulk.deferred {
            let rows: Vec<(&i64, &String)> = rows.iter().collect();
            for chunk in rows.chunks(DEFERRED_ROWS) {
                let tuples = vec!["(?, ?)"; chunk.len()].join(", ");
                let sql = format!(
                    r#"UPDATE "{table}" SET "{column}" = "v"."column2" FROM (VALUES {tuples}) AS "v" WHERE "{table}"."id" = "v"."column1""#
                );
                let values = Values(
                    chunk
                        .iter()
                        .flat_map(|(id, value)| [(**id).into(), value.as_str().into()])
                        .collect(),
                );
                if let TxInner::Sqlite { conn, .. } = &self.inner {
                    conn.execute(&sql, &values)?;
                }
            }
        }
        for (sql, values) in bulk.at_commit.values() {
            match &mut self.inner {
                TxInner::Sqlite { conn, .. } => drop(conn.execute(sql, values)?),
                TxInner::Postgres(conn) => drop(conn.execute(sql, values).await?),
            }
        }
        if let TxInner::Postgres(conn) = &mut self.inner {
            // In key order, as `list_count_move` locks counters, so as not to deadlock.
            conn.execute(
                "INSERT INTO list_counts (company_id, list, shard, n) \
                 SELECT company_id, list, pg_backend_pid() % 16, sum(delta) FROM pending_list_counts \
                 GROUP BY company_id, list ORDER BY company_id, list \
                 ON CONFLICT (company_id, list, shard) DO UPDATE SET n = list_counts.n + EXCLUDED.n",
                &Values(Vec::new()),
            )
            .await?;
        }
        Ok(())
    }

    /// Marks the transaction as one that wrote webhook events: its commit wakes this
    /// instance's delivery (`Db::outbox_signal`).
    pub(crate) fn wrote_events(&mut self) {
        self.wrote_events = true;
    }

    pub async fn commit(self) -> Result<(), StoreError> {
        self.commit_after::<(i64,)>(None).await.map(drop)
    }

    /// Waits for the writes [`Tx::send`] sent ahead: their errors now (an import's
    /// row, to be told of its own). Nothing to wait for on SQLite.
    pub async fn flush(&mut self) -> Result<(), StoreError> {
        if let TxInner::Postgres(conn) = &mut self.inner {
            conn.flush().await?;
        }
        Ok(())
    }

    /// Reads the one row of `stmt` as the transaction's last statement and commits,
    /// in one round trip on PostgreSQL: what a write answers with, read back. The row
    /// is made a record after the commit: one that cannot be (a fault of the code,
    /// as a missing column) is an error of a write that was committed.
    pub async fn commit_reading<T: Record>(self, stmt: &impl Statement) -> Result<T, StoreError> {
        let last = stmt.render(self.backend());
        let rows = self.commit_after(Some(last)).await?;
        rows.into_iter().next().ok_or_else(no_row)
    }

    /// Commits, after reading `last` when given (its first row, when it has one).
    async fn commit_after<T: Record>(
        mut self,
        last: Option<(String, Values)>,
    ) -> Result<Vec<T>, StoreError> {
        self.settle().await?;
        let wake = self.outbox.filter(|_| self.wrote_events);
        let read = match self.inner {
            TxInner::Sqlite { conn, writes } => {
                let read = match last {
                    Some((sql, values)) => conn.rows(&sql, &values, Some(1))?,
                    None => Vec::new(),
                };
                if writes {
                    // A write reaches the disk at its commit: off the request's thread.
                    conn.commit_write().await?;
                } else {
                    conn.batch("COMMIT")?;
                }
                read
            }
            TxInner::Postgres(conn) => match last {
                Some((sql, values)) => {
                    pipelined::records(&conn.commit_reading(&sql, &values).await?)?
                }
                None => {
                    conn.commit().await?;
                    Vec::new()
                }
            },
        };
        if let Some(wake) = wake {
            wake.notify_one();
        }
        Ok(read)
    }
}

/// Logs a statement at debug level, and as a warning when it ran longer than the
/// slow-statement bound (target `store::statement`).
pub(crate) fn log_statement(sql: &str, started: std::time::Instant, slow: Duration) {
    let elapsed = started.elapsed();
    if elapsed >= slow {
        tracing::warn!(
            target: "store::statement",
            statement = sql,
            elapsed = ?elapsed,
            elapsed_secs = elapsed.as_secs_f64(),
            slow_threshold = ?slow,
            "slow statement: execution time exceeded alert threshold"
        );
    } else {
        tracing::debug!(target: "store::statement", statement = sql, elapsed = ?elapsed, "statement");
    }
}

/// PostgreSQL connections a process keeps by default: four per core of this machine,
/// from 4 to 32. Each is a server process, and on a small machine they compete with
/// the server and with each other for the cores: with 2 cores, 32 connections served
/// PostgreSQL's location details at 17,500 to 23,700 req/s and asset details at 12,200
/// to 16,100, 8 connections 20,400 to 25,600 and 15,200 to 19,300 (alternating runs,
/// 64 requests at once; bench/README.md).
fn postgres_pool_default() -> u32 {
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    u32::try_from(cores.saturating_mul(4)).map_or(32, |n| n.clamp(4, 32))
}

/// Of `connections`, those shared by the statements outside transactions (`pipelined`):
/// one per core of this machine, at most half of them (none of 1, which stays the
/// pool's). Each is one PostgreSQL process, so more than the cores would compete for
/// them; the rest are the pool's, one a transaction.
fn postgres_shared(connections: u32) -> u32 {
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    u32::try_from(cores).map_or(connections / 2, |cores| cores.min(connections / 2))
}

impl Db {
    /// `sqlite://path` (created if missing), `sqlite::memory:`, or `postgres://...`,
    /// with the default timeouts and pool sizes; SQLite commits with `synchronous=FULL`.
    pub async fn connect(url: &str) -> Result<Db, StoreError> {
        Db::connect_with(url, &DbOptions::default()).await
    }

    /// As `connect`, with the given timeouts, pool size and SQLite synchronous setting.
    pub async fn connect_with(url: &str, options: &DbOptions) -> Result<Db, StoreError> {
        let pool = if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            // The statement timeout ends a query stuck on a lock or a runaway plan with an
            // error the HTTP layer answers as 503, well before the request timeout.
            let config = postgres::config(url, options.statement_timeout, options.acquire_timeout)
                .map_err(|e| {
                    StoreError::Config(format!("unreadable PostgreSQL URL {:?}: {e}", redact(url)))
                })?;
            let connections = options
                .max_connections
                .unwrap_or_else(postgres_pool_default);
            let shared = postgres_shared(connections);
            let reads = PgReads::new(
                config.clone(),
                shared,
                options.acquire_timeout,
                options.slow_statement,
            )
            .map(Arc::new);
            let pool = PgPool::new(
                config,
                connections - shared,
                options.acquire_timeout,
                options.slow_statement,
            )?;
            // Connecting now, so a wrong URL or an absent database shows at start.
            drop(pool.get().await?);
            Pool::Postgres(pool, reads)
        } else if url.starts_with("sqlite:") {
            Pool::Sqlite(LitePool::open(
                url,
                LiteOptions {
                    max_connections: options.max_connections.unwrap_or(16),
                    acquire_timeout: options.acquire_timeout,
                    busy_timeout: options.busy_timeout,
                    synchronous: match options.sqlite_synchronous {
                        SqliteSync::Full => "FULL",
                        SqliteSync::Normal => "NORMAL",
                    },
                    slow_statement: options.slow_statement,
                },
            )?)
        } else {
            return Err(StoreError::Config(format!(
                "unsupported database URL {:?}: use sqlite://PATH or postgres://...",
                redact(url)
            )));
        };
        let turns = matches!(pool, Pool::Postgres(..)).then(|| {
            (0..ITEM_TURNS)
                .map(|_| Arc::new(tokio::sync::Mutex::new(())))
                .collect()
        });
        Ok(Db {
            pool,
            last_totals: Default::default(),
            kept_counts: Default::default(),
            outbox: Default::default(),
            rendered: Default::default(),
            turns,
        })
    }

    pub fn backend(&self) -> Backend {
        match self.pool {
            Pool::Sqlite(_) => Backend::Sqlite,
            Pool::Postgres(..) => Backend::Postgres,
        }
    }

    /// Brings the schema up to date (`migrate`). On PostgreSQL the migrations run
    /// without the statement timeout meant for requests: building an index on a large
    /// table may take longer, and must not fail half-way at start-up; instances starting
    /// together take turns on an advisory lock.
    pub async fn migrate(&self) -> Result<(), StoreError> {
        self.migrate_until(None).await
    }

    /// The migrations this binary knows and the database lacks (version, description),
    /// in order, changing nothing; refused as `migrate` refuses a database a newer
    /// rentrack migrated or whose applied text has changed.
    pub async fn pending_migrations(&self) -> Result<Vec<(i64, &'static str)>, StoreError> {
        Ok(match &self.pool {
            Pool::Sqlite(p) => migrate::check(migrate::Target::Sqlite(&p.acquire().await?)).await?,
            Pool::Postgres(p, _) => {
                migrate::check(migrate::Target::Postgres(&mut p.get().await?)).await?
            }
        })
    }

    /// As `migrate`, applying only the migrations up to version `until` when given (a
    /// test of a migration first writes the data it finds).
    #[doc(hidden)]
    pub async fn migrate_until(&self, until: Option<i64>) -> Result<(), StoreError> {
        match &self.pool {
            Pool::Sqlite(p) => {
                migrate::run(
                    migrate::Target::Sqlite(&p.acquire_writer().await?.settled().await?),
                    until,
                )
                .await?
            }
            Pool::Postgres(p, _) => {
                let mut conn = p.get().await?;
                conn.batch("SET statement_timeout = 0; SELECT pg_advisory_lock(7263548170001)")
                    .await?;
                let migrated = migrate::run(migrate::Target::Postgres(&mut conn), until).await;
                // Back to the connection's own timeout before it returns to the pool.
                conn.batch("SELECT pg_advisory_unlock(7263548170001); RESET statement_timeout")
                    .await?;
                migrated?;
            }
        }
        Ok(())
    }

    /// Refreshes SQLite's table statistics where they are missing or stale, so the
    /// query planner picks the selective index (an e-mail lookup among 100,000
    /// customers, say) rather than the first that fits, and merges the name search's
    /// index when it has grown into many segments (`merge_search_index`). Cheap when
    /// nothing changed; `serve` runs it at start and every minute. PostgreSQL's
    /// autovacuum does this itself, so there it does nothing.
    pub async fn optimize(&self) -> Result<(), StoreError> {
        if let Pool::Sqlite(p) = &self.pool {
            p.acquire_writer()
                .await?
                .settled()
                .await?
                .batch("PRAGMA analysis_limit = 1000; PRAGMA optimize = 0x10002;")?;
            merge_search_index(p).await?;
        }
        Ok(())
    }

    /// The synchronous setting SQLite's connections run with (`off`, `normal`, `full` or
    /// `extra`), read from a live connection; `None` on PostgreSQL.
    pub async fn sqlite_synchronous(&self) -> Result<Option<&'static str>, StoreError> {
        let Pool::Sqlite(p) = &self.pool else {
            return Ok(None);
        };
        let (level,): (i64,) = p
            .acquire()
            .await?
            .one("PRAGMA synchronous", &Values(Vec::new()))?;
        Ok(Some(match level {
            0 => "off",
            1 => "normal",
            2 => "full",
            _ => "extra",
        }))
    }

    pub fn read(&self) -> Reader<'_> {
        Reader { db: self }
    }

    /// Starts a write transaction. On SQLite it waits for this process's other writers
    /// (`LitePool::acquire_writer`) and then takes the write lock at once (`BEGIN
    /// IMMEDIATE`), so it never fails with "database is locked" upgrading from a read.
    pub async fn begin(&self) -> Result<Tx, StoreError> {
        let inner = match &self.pool {
            Pool::Sqlite(p) => {
                let conn = p.acquire_writer().await?.begin_write().await?;
                TxInner::Sqlite { conn, writes: true }
            }
            Pool::Postgres(p, _) => {
                let mut conn = p.get().await?;
                conn.begin("BEGIN");
                TxInner::Postgres(Box::new(conn))
            }
        };
        Ok(Tx {
            inner,
            outbox: Some(self.outbox.clone()),
            wrote_events: false,
            turns: Vec::new(),
            bulk: None,
            endpoints: None,
        })
    }

    /// Starts a write transaction after waiting, on PostgreSQL, for the turns of
    /// `(company, key)` for each of `keys` in this process (an item's writes, by its
    /// number), first come first served and holding no connection; the turns are let go
    /// after the commit. Several are taken in one order (of the turns, each once), so two
    /// writers of overlapping items cannot wait for each other. On SQLite writes take
    /// turns already (`begin`).
    pub(crate) async fn begin_turns(
        &self,
        company: CompanyId,
        keys: &[i64],
    ) -> Result<Tx, StoreError> {
        let mut taken = Vec::new();
        if let Some(turns) = &self.turns {
            let mut slots: Vec<usize> = keys
                .iter()
                .map(|&key| {
                    let key = (company.0 as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15)
                        ^ (key as u64).wrapping_mul(0xc2b2_ae3d_27d4_eb4f);
                    (key >> 32) as usize % turns.len()
                })
                .collect();
            slots.sort_unstable();
            slots.dedup();
            for slot in slots {
                taken.push(turns[slot].clone().lock_owned().await);
            }
        }
        let mut tx = self.begin().await?;
        tx.turns = taken;
        Ok(tx)
    }

    /// Whether writes of items take turns in this process before a connection
    /// (`begin_turns`; PostgreSQL): what a writer that must read which items it changes
    /// before taking their turns asks first.
    pub(crate) fn takes_turns(&self) -> bool {
        self.turns.is_some()
    }

    /// Notified each time a transaction of this process that wrote webhook events
    /// commits: what the delivery worker waits on between its polls.
    pub fn outbox_signal(&self) -> Arc<tokio::sync::Notify> {
        self.outbox.clone()
    }

    /// Starts a read-only transaction whose reads all see one snapshot of the data
    /// (SQLite: a deferred transaction in WAL mode; PostgreSQL: repeatable read), so a
    /// count and the page read after it agree even while others write.
    pub async fn begin_read(&self) -> Result<Tx, StoreError> {
        let inner = match &self.pool {
            Pool::Sqlite(p) => {
                let conn = p.acquire().await?;
                conn.batch("BEGIN")?;
                TxInner::Sqlite {
                    conn,
                    writes: false,
                }
            }
            Pool::Postgres(p, _) => {
                let mut conn = p.get().await?;
                conn.begin("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY");
                TxInner::Postgres(Box::new(conn))
            }
        };
        Ok(Tx {
            inner,
            outbox: None,
            wrote_events: false,
            turns: Vec::new(),
            bulk: None,
            endpoints: None,
        })
    }

    /// Whether the database answers (`/readyz`): on SQLite a read of the schema on a
    /// connection of its own, so that a pool whose connections are all in use does not
    /// make it wait; on PostgreSQL a `SELECT 1` the way every read goes. A database that
    /// answers it is busy (a full pool past its wait, too many clients) answers.
    pub async fn ping(&self) -> Result<Health, StoreError> {
        let answer = match &self.pool {
            Pool::Sqlite(p) => p.ping().await.map_err(StoreError::from),
            Pool::Postgres(..) => {
                let stmt = Sql {
                    text: "SELECT 1",
                    values: Values(vec![]),
                };
                self.read().one::<(i32,)>(&stmt).await.map(drop)
            }
        };
        match answer {
            Ok(()) => Ok(Health::Answered),
            Err(StoreError::Database(e)) if e.kind == DbErrorKind::Busy => Ok(Health::Busy),
            Err(e) => Err(e),
        }
    }

    /// Closes the pool's connections: idle ones now, those in use when they come back.
    pub fn close(&self) {
        match &self.pool {
            Pool::Sqlite(p) => p.close(),
            Pool::Postgres(p, reads) => {
                if let Some(reads) = reads {
                    reads.close();
                }
                p.close();
            }
        }
    }

    /// Column name, normalised type and nullability of every table, for the schema
    /// agreement test and `rentrack migrate --check`.
    pub async fn describe_schema(&self) -> Result<Vec<(String, String, String, bool)>, StoreError> {
        let mut cols = self.columns().await?;
        for c in &mut cols {
            c.2 = normalise_type(&c.2).to_owned();
            // SQLite's rowid alias is nullable in the catalogue but never null in fact.
            if c.1 == "id" {
                c.3 = false;
            }
        }
        cols.sort();
        Ok(cols)
    }

    /// Table, column name, declared type (upper case) and nullability of every column,
    /// in each table's order.
    pub async fn columns(&self) -> Result<Vec<(String, String, String, bool)>, StoreError> {
        let cols: Vec<(String, String, String, bool)> = match &self.pool {
            Pool::Sqlite(p) => p.acquire().await?.all(
                "SELECT m.name, c.name, upper(c.type), c.\"notnull\" = 0 OR (c.pk > 0 AND upper(c.type) = 'INTEGER') \
                 FROM sqlite_master m JOIN pragma_table_info(m.name) c \
                 WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite_%' AND m.name NOT LIKE '\\_%' ESCAPE '\\' \
                 AND m.name IN (SELECT name FROM pragma_table_list WHERE schema = 'main' AND type = 'table') \
                 ORDER BY m.name, c.cid",
                &Values(Vec::new()),
            )?,
            Pool::Postgres(p, _) => pipelined::records(
                &p.get()
                    .await?
                    .rows(
                        "SELECT table_name::text, column_name::text, upper(data_type::text), is_nullable = 'YES' \
                         FROM information_schema.columns \
                         WHERE table_schema = current_schema() AND table_name NOT LIKE '\\_%' \
                         ORDER BY table_name, ordinal_position",
                        &Values(Vec::new()),
                    )
                    .await?,
            )?,
        };
        Ok(cols)
    }
}

fn normalise_type(t: &str) -> &'static str {
    match t {
        "INTEGER" | "BIGINT" => "integer",
        "TEXT" => "text",
        "BOOLEAN" => "boolean",
        "TIMESTAMP" | "TIMESTAMP WITH TIME ZONE" => "timestamp",
        "DATE" => "date",
        "BLOB" | "BYTEA" => "bytes",
        _ => "other",
    }
}

/// A database URL without its password, for messages and logs.
pub fn redact(url: &str) -> String {
    match (url.find("://"), url.rfind('@')) {
        (Some(scheme), Some(at)) if at > scheme => {
            let userinfo = &url[scheme + 3..at];
            match userinfo.split_once(':') {
                Some((user, _)) => format!("{}{}:***{}", &url[..scheme + 3], user, &url[at..]),
                None => url.to_owned(),
            }
        }
        _ => url.to_owned(),
    }
}
