//! PostgreSQL statements outside transactions, pipelined on a few shared connections
//! (tokio-postgres), where sqlx gives each statement a pooled connection of its own.
//!
//! On sqlx every statement is a round trip that wakes one PostgreSQL process for one
//! statement: on 2 cores the switches between the server, the kernel and those processes
//! were a third of the server's samples under load. Here the statements of concurrent
//! requests go out on the same connection one after the other, without waiting for each
//! other's answers, and PostgreSQL reads and answers them in batches. A server answering
//! `SELECT $1 + 1` through a pool of 8 sqlx connections served 18,200 req/s on this
//! machine, through one or two shared tokio-postgres connections 34,000 to 52,000
//! (ARCHITECTURE.md has the figures of rentrack's own requests).
//!
//! Transactions keep their own pooled connection (sqlx): a transaction's statements must
//! not mix with other requests'. Each connection keeps its prepared statements by text
//! (at most `STATEMENTS`), prepared with the parameter types of the values as sqlx does,
//! so the same text means the same on either path. A statement goes to the connection
//! with the fewest statements in flight, so one slow statement holds up few others.
//! A connection that dies is opened again by the next statement that needs it; the
//! statements that were on it fail with a 503, as on a lost pooled connection.

use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError, RwLock};
use std::time::{Duration, Instant};

use sea_query::{OptionEnum, Value, Values};
use tokio_postgres::types::{IsNull, ToSql, Type, to_sql_checked};
use tokio_postgres::{Client, NoTls, Row, Statement};

use crate::Backend;
use crate::error::DriverError;
use crate::pg_rows::{BoxError, PgRecord};

/// Prepared statements a connection keeps; past that it starts afresh (the list pages'
/// texts carry their window, so a busy server sees a few hundred texts).
const STATEMENTS: usize = 512;

/// How often a shared connection drops the plans PostgreSQL keeps for its prepared
/// statements (`DISCARD PLANS`; the statements stay prepared). After five executions
/// PostgreSQL may keep a statement's generic plan for as long as the connection lives,
/// planned with what the tables held then. Seeding members through the API, the member
/// read-back on shared connections opened when the table was empty grew slower with
/// every thousand members (2 ms at 9,000, 50 ms at 40,000; at 60 a second, 90,000 in,
/// where reopened connections answered 13,000 a second); with the plans dropped every
/// 30 s it stayed at 1 ms. A plan is then at most that old, for five plannings of
/// each statement every 30 s.
const REPLAN: Duration = Duration::from_secs(30);

pub(crate) struct PgReads {
    config: tokio_postgres::Config,
    slots: Box<[Slot]>,
    /// How long a statement may wait for its connection to open.
    connect_timeout: Duration,
    /// A statement that takes longer is logged as a warning.
    slow_statement: Duration,
    /// How often a connection drops the plans it keeps for its statements (`REPLAN`).
    replan_every: Duration,
}

impl std::fmt::Debug for PgReads {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PgReads")
            .field("connections", &self.slots.len())
            .finish_non_exhaustive()
    }
}

#[derive(Default)]
struct Slot {
    live: RwLock<Option<Arc<Connection>>>,
    /// Held while the slot's connection is being opened, so one statement opens it.
    opening: tokio::sync::Mutex<()>,
    /// Statements sent on this slot and not yet answered.
    in_flight: AtomicUsize,
}

struct Connection {
    client: Client,
    statements: Mutex<HashMap<Box<str>, Statement>>,
    /// When its plans were last dropped (or it opened).
    planned: Mutex<Instant>,
}

/// Counts a statement in flight on its slot until dropped.
struct InFlight<'a>(&'a Slot);

impl Drop for InFlight<'_> {
    fn drop(&mut self) {
        self.0.in_flight.fetch_sub(1, Ordering::Relaxed);
    }
}

impl PgReads {
    /// `connections` to `url` (opened when first used); `None` when there are none or
    /// tokio-postgres does not read this URL, and statements keep to sqlx's pool.
    pub(crate) fn new(
        url: &str,
        connections: u32,
        statement_timeout: Duration,
        connect_timeout: Duration,
        slow_statement: Duration,
    ) -> Option<PgReads> {
        if connections == 0 {
            return None;
        }
        let mut config: tokio_postgres::Config = match url.parse() {
            Ok(config) => config,
            Err(e) => {
                tracing::warn!(
                    "the database URL is not one tokio-postgres reads ({e}); statements outside transactions take a pooled connection each"
                );
                return None;
            }
        };
        let timeout = format!("-c statement_timeout={}", statement_timeout.as_millis());
        let options = match config.get_options() {
            Some(given) => format!("{given} {timeout}"),
            None => timeout,
        };
        config.options(options).connect_timeout(connect_timeout);
        Some(PgReads {
            config,
            slots: (0..connections).map(|_| Slot::default()).collect(),
            connect_timeout,
            slow_statement,
            replan_every: REPLAN,
        })
    }

    /// The rows `stmt` reads.
    pub(crate) async fn rows(&self, stmt: &impl crate::Statement) -> Result<Vec<Row>, sqlx::Error> {
        use futures_util::TryStreamExt;
        let (sql, sea_query_sqlx::SqlxValues(values)) = stmt.render(Backend::Postgres);
        self.run(&sql, &values, async |client, statement| {
            let params = values.0.iter().map(Param);
            client
                .query_raw(statement, params)
                .await?
                .try_collect()
                .await
        })
        .await
    }

    /// Runs `stmt` and returns the number of rows it touched.
    pub(crate) async fn execute(&self, stmt: &impl crate::Statement) -> Result<u64, sqlx::Error> {
        let (sql, sea_query_sqlx::SqlxValues(values)) = stmt.render(Backend::Postgres);
        self.run(&sql, &values, async |client, statement| {
            client
                .execute_raw(statement, values.0.iter().map(Param))
                .await
        })
        .await
    }

    /// `sql` prepared on the least busy connection, then run there by `run`; logged if
    /// slow.
    async fn run<T>(
        &self,
        sql: &str,
        values: &Values,
        run: impl AsyncFnOnce(&Client, &Statement) -> Result<T, tokio_postgres::Error>,
    ) -> Result<T, sqlx::Error> {
        let started = Instant::now();
        let (slot, _in_flight) = self.slot();
        let connection = self.connection(slot).await?;
        if connection.replan_due(self.replan_every) {
            connection
                .client
                .batch_execute("DISCARD PLANS")
                .await
                .map_err(error)?;
        }
        let statement = connection.statement(sql, values).await?;
        let done = run(&connection.client, &statement).await.map_err(error);
        crate::db::log_statement(sql, started, self.slow_statement);
        done
    }

    /// Drops the connections; statements after this open them again.
    pub(crate) fn close(&self) {
        for slot in &*self.slots {
            *slot.live.write().unwrap_or_else(PoisonError::into_inner) = None;
        }
    }

    /// The slot with the fewest statements in flight, counted until the guard drops.
    fn slot(&self) -> (&Slot, InFlight<'_>) {
        let slot = self
            .slots
            .iter()
            .min_by_key(|s| s.in_flight.load(Ordering::Relaxed))
            .expect("at least one connection");
        slot.in_flight.fetch_add(1, Ordering::Relaxed);
        (slot, InFlight(slot))
    }

    /// The slot's open connection, opened if it has none or the one it had is closed.
    async fn connection(&self, slot: &Slot) -> Result<Arc<Connection>, sqlx::Error> {
        if let Some(live) = slot.live() {
            return Ok(live);
        }
        let _opening = tokio::time::timeout(self.connect_timeout, slot.opening.lock())
            .await
            .map_err(|_| sqlx::Error::PoolTimedOut)?;
        if let Some(live) = slot.live() {
            return Ok(live);
        }
        let (client, connection) =
            tokio::time::timeout(self.connect_timeout, self.config.connect(NoTls))
                .await
                .map_err(|_| sqlx::Error::PoolTimedOut)?
                .map_err(error)?;
        tokio::spawn(async move {
            if let Err(e) = connection.await {
                tracing::warn!("a shared PostgreSQL connection ended: {e}");
            }
        });
        let live = Arc::new(Connection {
            client,
            statements: Mutex::default(),
            planned: Mutex::new(Instant::now()),
        });
        *slot.live.write().unwrap_or_else(PoisonError::into_inner) = Some(live.clone());
        Ok(live)
    }
}

impl Slot {
    /// The slot's connection if it is open.
    fn live(&self) -> Option<Arc<Connection>> {
        let live = self.live.read().unwrap_or_else(PoisonError::into_inner);
        live.as_ref().filter(|c| !c.client.is_closed()).cloned()
    }
}

impl Connection {
    /// Whether its plans were dropped longer than `every` ago; if so, they count as
    /// dropped now and the caller drops them.
    fn replan_due(&self, every: Duration) -> bool {
        let mut planned = self.planned.lock().unwrap_or_else(PoisonError::into_inner);
        let due = planned.elapsed() >= every;
        if due {
            *planned = Instant::now();
        }
        due
    }

    /// The statement prepared for `sql` with the types of `values`, prepared now if this
    /// connection has not yet.
    async fn statement(&self, sql: &str, values: &Values) -> Result<Statement, sqlx::Error> {
        let kept = self
            .statements
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .get(sql)
            .cloned();
        if let Some(kept) = kept.filter(|s| typed_as(s, values)) {
            return Ok(kept);
        }
        let types: Vec<Type> = values.0.iter().map(type_of).collect();
        let prepared = self
            .client
            .prepare_typed(sql, &types)
            .await
            .map_err(error)?;
        let mut kept = self
            .statements
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        if kept.len() >= STATEMENTS {
            kept.clear();
        }
        kept.insert(sql.into(), prepared.clone());
        Ok(prepared)
    }
}

/// Whether `statement` was prepared for parameters of the types of `values`.
fn typed_as(statement: &Statement, values: &Values) -> bool {
    let params = statement.params();
    params.len() == values.0.len() && params.iter().zip(&values.0).all(|(t, v)| *t == type_of(v))
}

/// The records of `rows`.
pub(crate) fn records<T: PgRecord>(rows: &[Row]) -> Result<Vec<T>, sqlx::Error> {
    rows.iter().map(T::from_pg).collect()
}

/// The PostgreSQL type sqlx binds a sea-query value as.
fn type_of(value: &Value) -> Type {
    match value {
        Value::Bool(_) => Type::BOOL,
        Value::TinyInt(_) => Type::CHAR,
        Value::SmallInt(_) | Value::TinyUnsigned(_) => Type::INT2,
        Value::Int(_) | Value::SmallUnsigned(_) => Type::INT4,
        Value::BigInt(_) | Value::Unsigned(_) | Value::BigUnsigned(_) => Type::INT8,
        Value::Float(_) => Type::FLOAT4,
        Value::Double(_) => Type::FLOAT8,
        Value::Bytes(_) => Type::BYTEA,
        Value::ChronoDate(_) => Type::DATE,
        Value::ChronoTime(_) => Type::TIME,
        Value::ChronoDateTime(_) => Type::TIMESTAMP,
        Value::ChronoDateTimeUtc(_)
        | Value::ChronoDateTimeLocal(_)
        | Value::ChronoDateTimeWithTimeZone(_) => Type::TIMESTAMPTZ,
        Value::String(_) | Value::Char(_) | Value::Enum(_) => Type::TEXT,
    }
}

/// A sea-query value bound as sqlx binds it (`type_of`).
#[derive(Debug)]
struct Param<'a>(&'a Value);

impl ToSql for Param<'_> {
    fn to_sql(&self, ty: &Type, out: &mut bytes::BytesMut) -> Result<IsNull, BoxError> {
        match self.0 {
            Value::Bool(v) => v.to_sql(ty, out),
            Value::TinyInt(v) => v.to_sql(ty, out),
            Value::SmallInt(v) => v.to_sql(ty, out),
            Value::Int(v) => v.to_sql(ty, out),
            Value::BigInt(v) => v.to_sql(ty, out),
            Value::TinyUnsigned(v) => v.map(i16::from).to_sql(ty, out),
            Value::SmallUnsigned(v) => v.map(i32::from).to_sql(ty, out),
            Value::Unsigned(v) => v.map(i64::from).to_sql(ty, out),
            Value::BigUnsigned(v) => v.map(i64::try_from).transpose()?.to_sql(ty, out),
            Value::Float(v) => v.to_sql(ty, out),
            Value::Double(v) => v.to_sql(ty, out),
            Value::String(v) => v.as_deref().to_sql(ty, out),
            Value::Char(v) => v.map(String::from).to_sql(ty, out),
            Value::Enum(OptionEnum::Some(e)) => e.value.as_ref().to_sql(ty, out),
            Value::Enum(OptionEnum::None(_)) => Ok(IsNull::Yes),
            Value::Bytes(v) => v.as_deref().to_sql(ty, out),
            Value::ChronoDate(v) => v.to_sql(ty, out),
            Value::ChronoTime(v) => v.to_sql(ty, out),
            Value::ChronoDateTime(v) => v.to_sql(ty, out),
            Value::ChronoDateTimeUtc(v) => v.to_sql(ty, out),
            Value::ChronoDateTimeLocal(v) => v.to_sql(ty, out),
            Value::ChronoDateTimeWithTimeZone(v) => v.to_sql(ty, out),
        }
    }

    /// The statement was prepared with this value's type (`type_of`).
    fn accepts(_: &Type) -> bool {
        true
    }

    to_sql_checked!();
}

/// A tokio-postgres error as the `sqlx::Error` sqlx's PostgreSQL driver would have
/// given, so `StoreError` tells a busy database, a broken unique key or a lost
/// connection the same way on both paths.
pub(crate) fn error(e: tokio_postgres::Error) -> sqlx::Error {
    if let Some(db) = e.as_db_error() {
        return sqlx::Error::Database(Box::new(DriverError {
            backend: Backend::Postgres,
            message: db.message().to_owned(),
            code: Some(db.code().code().to_owned()),
            constraint: db.constraint().map(str::to_owned),
        }));
    }
    if e.is_closed() {
        return sqlx::Error::Io(std::io::Error::new(
            std::io::ErrorKind::ConnectionAborted,
            e.to_string(),
        ));
    }
    let io = std::error::Error::source(&e).and_then(|s| s.downcast_ref::<std::io::Error>());
    match io {
        Some(io) => sqlx::Error::Io(std::io::Error::new(io.kind(), e.to_string())),
        None => sqlx::Error::Protocol(e.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Sql, StoreError};
    use chrono::{NaiveDate, TimeZone, Utc};
    use sqlx::Connection as _;

    fn url() -> Option<String> {
        let url = std::env::var("TEST_POSTGRES_URL").ok();
        if url.is_none() {
            eprintln!("TEST_POSTGRES_URL not set: shared PostgreSQL connections not tried");
        }
        url
    }

    fn shared(url: &str, connections: u32, statement_timeout: Duration) -> Arc<PgReads> {
        Arc::new(
            PgReads::new(
                url,
                connections,
                statement_timeout,
                Duration::from_secs(5),
                Duration::from_secs(5),
            )
            .expect("tokio-postgres reads the test URL"),
        )
    }

    /// `text` with `values`, as hand-written SQL.
    fn sql(text: &'static str, values: Vec<Value>) -> Sql {
        Sql {
            text,
            values: Values(values),
        }
    }

    async fn one<T: PgRecord>(
        reads: &PgReads,
        text: &'static str,
        values: Vec<Value>,
    ) -> Result<T, sqlx::Error> {
        let rows = reads.rows(&sql(text, values)).await?;
        Ok(records::<T>(&rows)?.remove(0))
    }

    /// Hundreds of statements in flight at once on one connection: each gets its own
    /// rows back.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn statements_pipelined_on_one_connection_read_their_own_rows() {
        let Some(url) = url() else { return };
        let reads = shared(&url, 1, Duration::from_secs(10));
        let mut running = tokio::task::JoinSet::new();
        for n in 0..400i64 {
            let reads = reads.clone();
            running.spawn(async move {
                let (doubled, text): (i64, String) = one(
                    &reads,
                    "SELECT $1 * 2, $2 || '!'",
                    vec![n.into(), format!("n{n}").into()],
                )
                .await
                .expect("reads");
                assert_eq!((doubled, text), (n * 2, format!("n{n}!")));
            });
        }
        while let Some(done) = running.join_next().await {
            done.expect("every statement read its own row");
        }
        assert_eq!(reads.slots[0].in_flight.load(Ordering::Relaxed), 0);
    }

    /// Values are bound with the types sqlx gives them: PostgreSQL sees the same
    /// parameter types and reads the same values through either path.
    #[tokio::test]
    async fn values_bind_as_through_sqlx() {
        let Some(url) = url() else { return };
        let reads = shared(&url, 1, Duration::from_secs(10));
        let mut sqlx_conn = sqlx::PgConnection::connect(&url).await.expect("connects");
        let at = Utc.with_ymd_and_hms(2026, 11, 26, 4, 30, 15).unwrap();
        let values: Vec<Value> = vec![
            true.into(),
            7i16.into(),
            (-8i32).into(),
            9_000_000_000i64.into(),
            7u8.into(),
            8u16.into(),
            9u32.into(),
            10u64.into(),
            1.5f32.into(),
            2.25f64.into(),
            "text, ünïcode".into(),
            'c'.into(),
            vec![0u8, 255].into(),
            NaiveDate::from_ymd_opt(2026, 2, 28).unwrap().into(),
            at.naive_utc().time().into(),
            at.naive_utc().into(),
            at.into(),
            at.fixed_offset().into(),
            Value::String(None),
            Value::BigInt(None),
        ];
        for value in values {
            let sql = "SELECT pg_typeof($1)::text || ' ' || coalesce($1::text, 'null')";
            let (shared,): (String,) = one(&reads, sql, vec![value.clone()]).await.expect("binds");
            let (through_sqlx,): (String,) =
                sqlx::query_as_with(sql, sea_query_sqlx::SqlxValues(Values(vec![value.clone()])))
                    // sqlx keeps statements by text alone: the types differ from value
                    // to value here.
                    .persistent(false)
                    .fetch_one(&mut sqlx_conn)
                    .await
                    .unwrap_or_else(|e| panic!("{value:?}: {e}"));
            assert_eq!(shared, through_sqlx, "{value:?}");
        }
    }

    /// One text bound with values of other types is prepared again for them, not run as
    /// the statement prepared for the first.
    #[tokio::test]
    async fn a_text_bound_with_other_types_is_prepared_for_them() {
        let Some(url) = url() else { return };
        let reads = shared(&url, 1, Duration::from_secs(10));
        let sql = "SELECT pg_typeof($1)::text";
        let (first,): (String,) = one(&reads, sql, vec![1i64.into()]).await.unwrap();
        let (second,): (String,) = one(&reads, sql, vec!["1".into()]).await.unwrap();
        let (again,): (String,) = one(&reads, sql, vec![2i64.into()]).await.unwrap();
        assert_eq!([first, second, again], ["bigint", "text", "bigint"]);
    }

    /// A shared connection drops its kept plans (`DISCARD PLANS`) once `replan_every`
    /// has passed since it last did, before the next statement; its statements stay
    /// prepared and run on.
    #[tokio::test]
    async fn kept_plans_are_dropped_after_the_interval() {
        let Some(url) = url() else { return };
        let mut reads = PgReads::new(
            &url,
            1,
            Duration::from_secs(10),
            Duration::from_secs(5),
            Duration::from_secs(5),
        )
        .expect("tokio-postgres reads the test URL");
        reads.replan_every = Duration::from_millis(300);
        let statement = "SELECT count(*) FROM pg_class WHERE oid = $1";
        let planned = |reads: &PgReads| {
            let live = reads.slots[0].live().expect("open");
            *live.planned.lock().unwrap()
        };
        for _ in 0..8 {
            let _: (i64,) = one(&reads, statement, vec![1259i64.into()]).await.unwrap();
        }
        let opened = planned(&reads);
        tokio::time::sleep(Duration::from_millis(400)).await;
        let (n,): (i64,) = one(&reads, statement, vec![1259i64.into()]).await.unwrap();
        assert_eq!(n, 1);
        let dropped = planned(&reads);
        assert!(
            dropped > opened,
            "the plans were dropped before the statement"
        );
        let (n,): (i64,) = one(&reads, statement, vec![1259i64.into()]).await.unwrap();
        assert_eq!(
            (n, planned(&reads)),
            (1, dropped),
            "not again within the interval"
        );
    }

    /// A statement past the statement timeout is cancelled and reads as a busy database
    /// (503), and the connection serves the next one.
    #[tokio::test]
    async fn a_statement_past_the_timeout_is_unavailable() {
        let Some(url) = url() else { return };
        let reads = shared(&url, 1, Duration::from_millis(100));
        let e = reads
            .rows(&sql("SELECT pg_sleep(2)", vec![]))
            .await
            .expect_err("cancelled");
        assert!(StoreError::from(e).is_unavailable());
        let (n,): (i64,) = one(&reads, "SELECT $1", vec![5i64.into()]).await.unwrap();
        assert_eq!(n, 5);
    }

    /// The database drops a shared connection: the statements on it fail as a busy
    /// database, and the next one opens a new connection.
    #[tokio::test]
    async fn a_lost_connection_is_opened_again() {
        let Some(url) = url() else { return };
        let reads = shared(&url, 1, Duration::from_secs(10));
        let (first,): (i32,) = one(&reads, "SELECT pg_backend_pid()", vec![])
            .await
            .unwrap();
        let mut other = sqlx::PgConnection::connect(&url).await.expect("connects");
        sqlx::query("SELECT pg_terminate_backend($1)")
            .bind(first)
            .execute(&mut other)
            .await
            .expect("terminates");
        let mut failed = 0;
        let second = loop {
            match one::<(i32,)>(&reads, "SELECT pg_backend_pid()", vec![]).await {
                Ok((pid,)) => break pid,
                Err(e) => {
                    assert!(StoreError::from(e).is_unavailable());
                    failed += 1;
                    assert!(failed < 3, "the connection was not opened again");
                }
            }
        };
        assert_ne!(first, second);
    }

    /// PostgreSQL's errors read as sqlx's: a broken unique key names its constraint, a
    /// division by zero is not a busy database.
    #[tokio::test]
    async fn database_errors_read_as_through_sqlx() {
        let Some(url) = url() else { return };
        let reads = shared(&url, 1, Duration::from_secs(10));
        reads
            .execute(&sql(
                "CREATE TEMPORARY TABLE shared_keys (k bigint UNIQUE)",
                vec![],
            ))
            .await
            .unwrap();
        let insert = sql("INSERT INTO shared_keys (k) VALUES ($1)", vec![1i64.into()]);
        assert_eq!(reads.execute(&insert).await.unwrap(), 1);
        let Err(sqlx::Error::Database(e)) = reads.execute(&insert).await else {
            panic!("a second insert of the key breaks it");
        };
        assert!(e.is_unique_violation());
        assert_eq!(e.constraint(), Some("shared_keys_k_key"));
        let e = reads
            .rows(&sql("SELECT 1 / 0", vec![]))
            .await
            .expect_err("refused");
        assert!(!StoreError::from(e).is_unavailable());
    }
}
