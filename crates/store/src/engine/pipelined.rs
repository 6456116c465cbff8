//! PostgreSQL statements outside transactions, pipelined on a few shared connections,
//! where a pool gives each statement a connection of its own.
//!
//! Through a pool every statement is a round trip that wakes one PostgreSQL process for
//! one statement: on 2 cores the switches between the server, the kernel and those
//! processes were a third of the server's samples under load. Here the statements of
//! concurrent requests go out on the same connection one after the other, without
//! waiting for each other's answers, and PostgreSQL reads and answers them in batches.
//! A server answering `SELECT $1 + 1` through a pool of 8 connections served 18,200
//! req/s on this machine, through one or two shared connections 34,000 to 52,000
//! (docs/performance.md has the figures of rentrack's own requests).
//!
//! Transactions keep a pooled connection of their own (`postgres`): a transaction's
//! statements must not mix with other requests'. Each connection keeps its prepared
//! statements by text (at most `STATEMENTS`), prepared with the parameter types of the
//! values (`type_of`), as the pool's are. A statement goes to the connection with the
//! fewest statements in flight, so one slow statement holds up few others. A connection
//! that dies is opened again by the next statement that needs it; the statements that
//! were on it fail with a 503, as on a lost pooled connection.

use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError, RwLock};
use std::time::{Duration, Instant};

use sea_query::Values;
use tokio_postgres::types::Type;
use tokio_postgres::{Client, NoTls, Row, Statement};

use super::Backend;
use super::error::{DbError, DbErrorKind};
use super::postgres::{Param, REPLAN, STATEMENTS, error, type_of};

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
    /// `connections` to the database of `config` (opened when first used); `None`
    /// when there are none, and statements take a pooled connection each.
    pub(crate) fn new(
        config: tokio_postgres::Config,
        connections: u32,
        connect_timeout: Duration,
        slow_statement: Duration,
    ) -> Option<PgReads> {
        (connections > 0).then(|| PgReads {
            config,
            slots: (0..connections).map(|_| Slot::default()).collect(),
            connect_timeout,
            slow_statement,
            replan_every: REPLAN,
        })
    }

    /// The rows `stmt` reads.
    pub(crate) async fn rows(&self, stmt: &impl super::Statement) -> Result<Vec<Row>, DbError> {
        use futures_util::TryStreamExt;
        let (sql, values) = stmt.render(Backend::Postgres);
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
    pub(crate) async fn execute(&self, stmt: &impl super::Statement) -> Result<u64, DbError> {
        let (sql, values) = stmt.render(Backend::Postgres);
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
    ) -> Result<T, DbError> {
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
        super::log_statement(sql, started, self.slow_statement);
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
    async fn connection(&self, slot: &Slot) -> Result<Arc<Connection>, DbError> {
        if let Some(live) = slot.live() {
            return Ok(live);
        }
        let _opening = tokio::time::timeout(self.connect_timeout, slot.opening.lock())
            .await
            .map_err(|_| timed_out())?;
        if let Some(live) = slot.live() {
            return Ok(live);
        }
        let (client, connection) =
            tokio::time::timeout(self.connect_timeout, self.config.connect(NoTls))
                .await
                .map_err(|_| timed_out())?
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
    async fn statement(&self, sql: &str, values: &Values) -> Result<Statement, DbError> {
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
pub(crate) fn records<T: super::pg_rows::PgRecord>(rows: &[Row]) -> Result<Vec<T>, DbError> {
    rows.iter().map(T::from_pg).collect()
}

/// No connection opened in time.
fn timed_out() -> DbError {
    DbError::new(
        DbErrorKind::Busy,
        "no shared PostgreSQL connection opened in time",
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Sql;
    use crate::engine::pg_rows::PgRecord;
    use chrono::{NaiveDate, TimeZone, Utc};
    use sea_query::Value;

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
                test_config(url, statement_timeout),
                connections,
                Duration::from_secs(5),
                Duration::from_secs(5),
            )
            .expect("at least one connection"),
        )
    }

    fn test_config(url: &str, statement_timeout: Duration) -> tokio_postgres::Config {
        let mut config =
            super::super::postgres::config(url, statement_timeout, Duration::from_secs(5))
                .expect("tokio-postgres reads the test URL");
        let options = format!("{} -c TimeZone=UTC", config.get_options().unwrap_or(""));
        config.options(options);
        config
    }

    /// A connection of the test's own, outside the shared ones.
    async fn other_connection(url: &str) -> Client {
        let (client, connection) = tokio_postgres::connect(url, NoTls).await.expect("connects");
        tokio::spawn(connection);
        client
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
    ) -> Result<T, DbError> {
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

    /// Each kind of sea-query value is bound as the PostgreSQL type `type_of` names and
    /// reads back as written.
    #[tokio::test]
    async fn values_bind_as_their_types() {
        let Some(url) = url() else { return };
        let reads = shared(&url, 1, Duration::from_secs(10));
        let at = Utc.with_ymd_and_hms(2026, 11, 26, 4, 30, 15).unwrap();
        let values: Vec<(Value, &str)> = vec![
            (true.into(), "boolean true"),
            (7i16.into(), "smallint 7"),
            ((-8i32).into(), "integer -8"),
            (9_000_000_000i64.into(), "bigint 9000000000"),
            (7u8.into(), "smallint 7"),
            (8u16.into(), "integer 8"),
            (9u32.into(), "bigint 9"),
            (10u64.into(), "bigint 10"),
            (1.5f32.into(), "real 1.5"),
            (2.25f64.into(), "double precision 2.25"),
            ("text, ünïcode".into(), "text text, ünïcode"),
            ('c'.into(), "text c"),
            (vec![0u8, 255].into(), "bytea \\x00ff"),
            (
                NaiveDate::from_ymd_opt(2026, 2, 28).unwrap().into(),
                "date 2026-02-28",
            ),
            (
                at.naive_utc().time().into(),
                "time without time zone 04:30:15",
            ),
            (
                at.naive_utc().into(),
                "timestamp without time zone 2026-11-26 04:30:15",
            ),
            (at.into(), "timestamp with time zone 2026-11-26 04:30:15+00"),
            (
                at.fixed_offset().into(),
                "timestamp with time zone 2026-11-26 04:30:15+00",
            ),
            (Value::String(None), "text null"),
            (Value::BigInt(None), "bigint null"),
        ];
        let shown = "SELECT pg_typeof($1)::text || ' ' || coalesce($1::text, 'null')";
        for (value, expected) in values {
            let (read,): (String,) = one(&reads, shown, vec![value.clone()])
                .await
                .unwrap_or_else(|e| panic!("{value:?}: {e}"));
            assert_eq!(read, expected, "{value:?}");
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

    /// Every connection plans each statement once, for any values
    /// (`postgres::config`).
    #[tokio::test]
    async fn connections_keep_one_plan_per_statement() {
        let Some(url) = url() else { return };
        let reads = shared(&url, 1, Duration::from_secs(10));
        let (mode,): (String,) = one(&reads, "SELECT current_setting('plan_cache_mode')", vec![])
            .await
            .unwrap();
        assert_eq!(mode, "force_generic_plan");
    }

    /// A shared connection drops its kept plans (`DISCARD PLANS`) once `replan_every`
    /// has passed since it last did, before the next statement; its statements stay
    /// prepared and run on.
    #[tokio::test]
    async fn kept_plans_are_dropped_after_the_interval() {
        let Some(url) = url() else { return };
        let mut reads = PgReads::new(
            test_config(&url, Duration::from_secs(10)),
            1,
            Duration::from_secs(5),
            Duration::from_secs(5),
        )
        .expect("at least one connection");
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
        assert!(e.is_unavailable(), "{e}");
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
        let other = other_connection(&url).await;
        other
            .execute("SELECT pg_terminate_backend($1)", &[&first])
            .await
            .expect("terminates");
        let mut failed = 0;
        let second = loop {
            match one::<(i32,)>(&reads, "SELECT pg_backend_pid()", vec![]).await {
                Ok((pid,)) => break pid,
                Err(e) => {
                    assert!(e.is_unavailable(), "{e}");
                    failed += 1;
                    assert!(failed < 3, "the connection was not opened again");
                }
            }
        };
        assert_ne!(first, second);
    }

    /// PostgreSQL's errors read by their kind: a broken unique key names its
    /// constraint, a division by zero is not a busy database.
    #[tokio::test]
    async fn database_errors_read_by_their_kind() {
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
        let e = reads
            .execute(&insert)
            .await
            .expect_err("a second insert breaks the key");
        assert_eq!(
            e.kind,
            DbErrorKind::UniqueKey {
                constraint: "shared_keys_k_key".into()
            }
        );
        let e = reads
            .rows(&sql("SELECT 1 / 0", vec![]))
            .await
            .expect_err("refused");
        assert_eq!(e.kind, DbErrorKind::Other, "{e}");
    }
}
