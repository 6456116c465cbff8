//! One storage type over SQLite and PostgreSQL. Statements are written once with
//! sea-query and rendered for the backend in use. PostgreSQL's transactions run through
//! sqlx and read rows through `sqlx::FromRow`; its statements outside transactions are
//! pipelined on shared tokio-postgres connections (`pg_reads`) and read rows through
//! `PgRecord`. SQLite runs through rusqlite (`lite`) and reads them through `LiteRow`.
//! All three are derived on every record type.

use log::LevelFilter;
use sea_query::{PostgresQueryBuilder, SqliteQueryBuilder, Values};
use sea_query_sqlx::{SqlxBinder, SqlxValues};
use sqlx::postgres::{PgConnectOptions, PgPoolOptions, PgRow};
use sqlx::{AssertSqlSafe, ConnectOptions, FromRow, PgPool, Postgres, Transaction};
use std::str::FromStr;
use std::time::Duration;

use crate::StoreError;
use crate::lite::{self, LiteOptions, LitePool, LiteRow};
use crate::pg_reads::{self, PgReads};
use crate::pg_rows::PgRecord;
use std::sync::Arc;

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
    fn render(&self, backend: Backend) -> (String, SqlxValues);
}

impl<T: SqlxBinder> Statement for T {
    fn render(&self, backend: Backend) -> (String, SqlxValues) {
        match backend {
            Backend::Sqlite => self.build_sqlx(SqliteQueryBuilder),
            Backend::Postgres => self.build_sqlx(PostgresQueryBuilder),
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
    fn render(&self, _backend: Backend) -> (String, SqlxValues) {
        (self.text.to_owned(), SqlxValues(self.values.clone()))
    }
}

/// A row type readable from both backends: `#[derive(PgRow, LiteRow)]`.
pub trait Record: for<'r> FromRow<'r, PgRow> + PgRecord + LiteRow + Send + Unpin {}
impl<T> Record for T where T: for<'r> FromRow<'r, PgRow> + PgRecord + LiteRow + Send + Unpin {}

#[derive(Clone, Debug)]
enum Pool {
    Sqlite(LitePool),
    /// Transactions take a connection of the pool; other statements are pipelined on
    /// the shared connections (`pg_reads`), or take the pool's too when tokio-postgres
    /// does not read the URL.
    Postgres(PgPool, Option<Arc<PgReads>>),
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
    /// A statement that runs longer is logged as a warning (target `sqlx::query`) with
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
    /// The last total read of each counted list (see `lists`).
    pub(crate) last_totals: Arc<crate::lists::LastTotals>,
}

/// One transaction. Dropped without `commit`, it rolls back: a refused request
/// leaves nothing behind.
pub struct Tx {
    inner: TxInner,
}

enum TxInner {
    /// A connection with a transaction open; `writes` when it holds the write lock.
    Sqlite {
        conn: lite::Conn,
        writes: bool,
    },
    Postgres(Transaction<'static, Postgres>),
}

macro_rules! run {
    ($exec:expr, $stmt:expr, $method:ident) => {{
        let (sql, values) = $stmt.render(Backend::Postgres);
        sqlx::query_as_with(AssertSqlSafe(sql), values)
            .$method($exec)
            .await
            .map_err(StoreError::from)
    }};
}

macro_rules! exec {
    ($exec:expr, $stmt:expr) => {{
        let (sql, values) = $stmt.render(Backend::Postgres);
        sqlx::query_with(AssertSqlSafe(sql), values)
            .execute($exec)
            .await
            .map(|r| r.rows_affected())
            .map_err(StoreError::from)
    }};
}

macro_rules! lite {
    ($conn:expr, $stmt:expr, $method:ident) => {{
        let (sql, values) = $stmt.render(Backend::Sqlite);
        $conn.$method(&sql, &values.0).map_err(StoreError::from)
    }};
}

/// The same four operations on a pool and on a transaction.
macro_rules! operations {
    ($self:ident, $sqlite:pat => $sq:expr, $postgres:pat => $pg:expr) => {
        pub async fn all<T: Record>(&mut $self, stmt: &impl Statement) -> Result<Vec<T>, StoreError> {
            match $self.target() {
                $sqlite => lite!($sq, stmt, all),
                $postgres => run!($pg, stmt, fetch_all),
            }
        }

        pub async fn optional<T: Record>(&mut $self, stmt: &impl Statement) -> Result<Option<T>, StoreError> {
            match $self.target() {
                $sqlite => lite!($sq, stmt, optional),
                $postgres => run!($pg, stmt, fetch_optional),
            }
        }

        pub async fn one<T: Record>(&mut $self, stmt: &impl Statement) -> Result<T, StoreError> {
            match $self.target() {
                $sqlite => lite!($sq, stmt, one),
                $postgres => run!($pg, stmt, fetch_one),
            }
        }

        /// Runs a statement and returns the number of rows it touched.
        pub async fn execute(&mut $self, stmt: &impl Statement) -> Result<u64, StoreError> {
            match $self.target() {
                $sqlite => lite!($sq, stmt, execute),
                $postgres => exec!($pg, stmt),
            }
        }
    };
}

enum TxRef<'a> {
    Sqlite(&'a lite::Conn),
    Postgres(&'a mut Transaction<'static, Postgres>),
}

/// Reads outside a transaction go straight to the pool (SQLite) or to the shared
/// connections (PostgreSQL).
pub struct Reader<'a> {
    db: &'a Db,
}

impl<'a> Reader<'a> {
    pub async fn all<T: Record>(&mut self, stmt: &impl Statement) -> Result<Vec<T>, StoreError> {
        match &self.db.pool {
            Pool::Sqlite(p) => lite!(p.acquire().await?, stmt, all),
            Pool::Postgres(_, Some(reads)) => Ok(pg_reads::records(&reads.rows(stmt).await?)?),
            Pool::Postgres(p, None) => run!(p, stmt, fetch_all),
        }
    }

    pub async fn optional<T: Record>(
        &mut self,
        stmt: &impl Statement,
    ) -> Result<Option<T>, StoreError> {
        match &self.db.pool {
            Pool::Sqlite(p) => lite!(p.acquire().await?, stmt, optional),
            Pool::Postgres(_, Some(reads)) => Ok(reads
                .rows(stmt)
                .await?
                .first()
                .map(T::from_pg)
                .transpose()?),
            Pool::Postgres(p, None) => run!(p, stmt, fetch_optional),
        }
    }

    pub async fn one<T: Record>(&mut self, stmt: &impl Statement) -> Result<T, StoreError> {
        match &self.db.pool {
            Pool::Sqlite(p) => lite!(p.acquire().await?, stmt, one),
            Pool::Postgres(_, Some(reads)) => {
                let rows = reads.rows(stmt).await?;
                let first = rows.first().ok_or(sqlx::Error::RowNotFound)?;
                Ok(T::from_pg(first)?)
            }
            Pool::Postgres(p, None) => run!(p, stmt, fetch_one),
        }
    }

    /// Runs a statement and returns the number of rows it touched.
    pub async fn execute(&mut self, stmt: &impl Statement) -> Result<u64, StoreError> {
        match &self.db.pool {
            Pool::Sqlite(p) => lite!(p.acquire().await?, stmt, execute),
            Pool::Postgres(_, Some(reads)) => Ok(reads.execute(stmt).await?),
            Pool::Postgres(p, None) => exec!(p, stmt),
        }
    }

    pub fn backend(&self) -> Backend {
        self.db.backend()
    }
}

impl Tx {
    fn target(&mut self) -> TxRef<'_> {
        match &mut self.inner {
            TxInner::Sqlite { conn, .. } => TxRef::Sqlite(conn),
            TxInner::Postgres(t) => TxRef::Postgres(t),
        }
    }

    operations!(self, TxRef::Sqlite(c) => c, TxRef::Postgres(t) => &mut **t);

    pub fn backend(&self) -> Backend {
        match self.inner {
            TxInner::Sqlite { .. } => Backend::Sqlite,
            TxInner::Postgres(_) => Backend::Postgres,
        }
    }

    pub async fn commit(self) -> Result<(), StoreError> {
        match self.inner {
            // A write reaches the disk at its commit: off the request's thread.
            TxInner::Sqlite { conn, writes: true } => conn.batch_blocking("COMMIT").await.1?,
            TxInner::Sqlite {
                conn,
                writes: false,
            } => conn.batch("COMMIT")?,
            TxInner::Postgres(t) => t.commit().await?,
        }
        Ok(())
    }
}

/// Logs a statement the store's own drivers ran (`lite`, `pg_reads`) at debug level, and
/// as a warning when it ran longer than the slow-statement bound (target `sqlx::query`,
/// as sqlx's statements are).
pub(crate) fn log_statement(sql: &str, started: std::time::Instant, slow: Duration) {
    let elapsed = started.elapsed();
    if elapsed >= slow {
        tracing::warn!(
            target: "sqlx::query",
            statement = sql,
            elapsed = ?elapsed,
            elapsed_secs = elapsed.as_secs_f64(),
            slow_threshold = ?slow,
            "slow statement: execution time exceeded alert threshold"
        );
    } else {
        tracing::debug!(target: "sqlx::query", statement = sql, elapsed = ?elapsed, "statement");
    }
}

/// A pooled PostgreSQL connection idle for longer is pinged before it is handed out
/// (HikariCP's bound): one used more recently was working that recently, and skipping
/// the round trip of its ping is a fifth more requests a second over a Unix socket.
/// A connection the database dropped within the bound fails its request with a 503.
const IDLE_PING: Duration = Duration::from_millis(500);

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

/// Of `connections`, those shared by the statements outside transactions (`pg_reads`):
/// one per core of this machine, at most half of them (none of 1, which stays the
/// pool's). Each is one PostgreSQL process, so more than the cores would compete for
/// them; the rest are the pool's, one a transaction.
fn postgres_shared(connections: u32) -> u32 {
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    u32::try_from(cores).map_or(connections / 2, |cores| cores.min(connections / 2))
}

static SQLITE_MIGRATIONS: sqlx::migrate::Migrator = sqlx::migrate!("./migrations/sqlite");
static POSTGRES_MIGRATIONS: sqlx::migrate::Migrator = sqlx::migrate!("./migrations/postgres");

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
            let timeout_ms = options.statement_timeout.as_millis().to_string();
            let connect = PgConnectOptions::from_str(url)?
                .options([("statement_timeout", timeout_ms.as_str())])
                .log_slow_statements(LevelFilter::Warn, options.slow_statement);
            let connections = options
                .max_connections
                .unwrap_or_else(postgres_pool_default);
            let shared = postgres_shared(connections);
            let reads = PgReads::new(
                url,
                shared,
                options.statement_timeout,
                options.acquire_timeout,
                options.slow_statement,
            )
            .map(Arc::new);
            // Without shared connections (none asked for, or a URL tokio-postgres does
            // not read), the pool serves every statement.
            let pooled = if reads.is_some() {
                connections - shared
            } else {
                connections
            };
            Pool::Postgres(
                PgPoolOptions::new()
                    .max_connections(pooled)
                    .acquire_timeout(options.acquire_timeout)
                    .test_before_acquire(false)
                    .before_acquire(|conn, meta| {
                        Box::pin(async move {
                            if meta.idle_for >= IDLE_PING {
                                sqlx::Connection::ping(conn).await?;
                            }
                            Ok(true)
                        })
                    })
                    .connect_with(connect)
                    .await?,
                reads,
            )
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
        Ok(Db {
            pool,
            last_totals: Default::default(),
        })
    }

    pub fn backend(&self) -> Backend {
        match self.pool {
            Pool::Sqlite(_) => Backend::Sqlite,
            Pool::Postgres(..) => Backend::Postgres,
        }
    }

    /// Brings the schema up to date. On PostgreSQL the migrations run without the
    /// statement timeout meant for requests: building an index on a large table may
    /// take longer, and must not fail half-way at start-up.
    pub async fn migrate(&self) -> Result<(), StoreError> {
        match &self.pool {
            Pool::Sqlite(p) => lite::migrate(&p.acquire().await?, &SQLITE_MIGRATIONS)?,
            Pool::Postgres(p, _) => {
                let mut conn = p.acquire().await?;
                sqlx::query("SET statement_timeout = 0")
                    .execute(&mut *conn)
                    .await?;
                let migrated = POSTGRES_MIGRATIONS.run(&mut *conn).await;
                // Back to the connection's own timeout before it returns to the pool.
                sqlx::query("RESET statement_timeout")
                    .execute(&mut *conn)
                    .await?;
                migrated?;
            }
        }
        Ok(())
    }

    /// Refreshes SQLite's table statistics where they are missing or stale, so the
    /// query planner picks the selective index (an e-mail lookup among 100,000
    /// customers, say) rather than the first that fits. Cheap when nothing changed;
    /// `serve` runs it at start and every minute. PostgreSQL's autovacuum does this
    /// itself, so there it does nothing.
    pub async fn optimize(&self) -> Result<(), StoreError> {
        if let Pool::Sqlite(p) = &self.pool {
            p.acquire()
                .await?
                .batch("PRAGMA analysis_limit = 1000; PRAGMA optimize = 0x10002;")?;
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

    /// Starts a write transaction. On SQLite it takes the write lock at once
    /// (`BEGIN IMMEDIATE`), so concurrent writers queue on the busy timeout instead of
    /// failing with "database is locked" when they upgrade from a read.
    pub async fn begin(&self) -> Result<Tx, StoreError> {
        let inner = match &self.pool {
            Pool::Sqlite(p) => {
                let (conn, begun) = p.acquire().await?.batch_blocking("BEGIN IMMEDIATE").await;
                begun?;
                TxInner::Sqlite { conn, writes: true }
            }
            Pool::Postgres(p, _) => TxInner::Postgres(p.begin().await?),
        };
        Ok(Tx { inner })
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
            Pool::Postgres(p, _) => TxInner::Postgres(
                p.begin_with("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
                    .await?,
            ),
        };
        Ok(Tx { inner })
    }

    pub async fn close(&self) {
        match &self.pool {
            Pool::Sqlite(p) => p.close(),
            Pool::Postgres(p, reads) => {
                if let Some(reads) = reads {
                    reads.close();
                }
                p.close().await;
            }
        }
    }

    /// Column name, normalised type and nullability of every table, for the schema
    /// agreement test and `rentrack migrate --check`.
    pub async fn describe_schema(&self) -> Result<Vec<(String, String, String, bool)>, StoreError> {
        let mut cols: Vec<(String, String, String, bool)> = match &self.pool {
            Pool::Sqlite(p) => p.acquire().await?.all(
                "SELECT m.name, c.name, upper(c.type), c.\"notnull\" = 0 OR (c.pk > 0 AND upper(c.type) = 'INTEGER') \
                 FROM sqlite_master m JOIN pragma_table_info(m.name) c \
                 WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite_%' AND m.name NOT LIKE '_sqlx%'",
                &Values(Vec::new()),
            )?,
            Pool::Postgres(p, _) => sqlx::query_as::<_, (String, String, String, bool)>(
                "SELECT table_name::text, column_name::text, upper(data_type::text), is_nullable = 'YES' \
                 FROM information_schema.columns \
                 WHERE table_schema = current_schema() AND table_name NOT LIKE '_sqlx%'",
            )
            .fetch_all(p)
            .await?,
        };
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
