//! The PostgreSQL path, on tokio-postgres alone: transactions take a connection of a
//! deadpool pool each; statements outside transactions are pipelined on a few shared
//! connections (`pipelined`), or take a pooled connection when there are none. Both
//! bind sea-query's values the same way (`Param`, typed by `type_of`) and map errors
//! the same way (`error`).

use std::time::{Duration, Instant};

use deadpool::managed::{Metrics, RecycleResult};
use deadpool_postgres::{ClientWrapper, Manager, ManagerConfig, RecyclingMethod, Runtime};
use futures_util::TryStreamExt;
use sea_query::{OptionEnum, Value, Values};
use tokio_postgres::types::{IsNull, ToSql, Type, to_sql_checked};
use tokio_postgres::{NoTls, Row};

use super::error::{DbError, DbErrorKind};
use super::pg_rows::BoxError;

/// Prepared statements a pooled connection keeps; past that it starts afresh (the list
/// pages' texts carry their window, so a busy server sees a few hundred texts).
pub(crate) const STATEMENTS: usize = 512;

/// A pooled connection idle for longer is pinged before it is handed out (HikariCP's
/// bound): one used more recently was working that recently, and skipping the round
/// trip of its ping is a fifth more requests a second over a Unix socket. A connection
/// the database dropped within the bound fails its request with a 503.
const IDLE_PING: Duration = Duration::from_millis(500);

/// How often a connection drops the plans PostgreSQL keeps for its prepared statements
/// (`DISCARD PLANS`; the statements stay prepared). A statement's generic plan is kept
/// for as long as the connection lives, planned with what the tables held then.
/// Seeding members through the API, the member read-back on shared connections opened
/// when the table was empty grew slower with every thousand members (2 ms at 9,000,
/// 50 ms at 40,000; at 60 a second, 90,000 in, where reopened connections answered
/// 13,000 a second); with the plans dropped every 30 s it stayed at 1 ms. A plan is
/// then at most that old, for a planning of each statement every 30 s. Shared
/// connections (`pipelined`) drop theirs before a statement, pooled ones when they are
/// handed out.
pub(crate) const REPLAN: Duration = Duration::from_secs(30);

/// deadpool-postgres's manager, whose recycling drops a closed connection, pings one
/// idle past `IDLE_PING`, and drops the plans of one that has lived into another
/// `REPLAN` period since it was last handed out.
struct Pinging(Manager);

impl deadpool::managed::Manager for Pinging {
    type Type = ClientWrapper;
    type Error = tokio_postgres::Error;

    async fn create(&self) -> Result<ClientWrapper, tokio_postgres::Error> {
        self.0.create().await
    }

    async fn recycle(
        &self,
        client: &mut ClientWrapper,
        metrics: &Metrics,
    ) -> RecycleResult<tokio_postgres::Error> {
        self.0.recycle(client, metrics).await?;
        if replan_due(metrics.age(), metrics.last_used()) {
            client.batch_execute("DISCARD PLANS").await?;
        } else if metrics.last_used() >= IDLE_PING {
            client.simple_query("").await?;
        }
        Ok(())
    }

    fn detach(&self, client: &mut ClientWrapper) {
        self.0.detach(client);
    }
}

/// Whether a pooled connection `age` old, last handed out `idle` ago, has lived into
/// another `REPLAN` period since.
fn replan_due(age: Duration, idle: Duration) -> bool {
    let period = |t: Duration| t.as_secs() / REPLAN.as_secs();
    period(age) > period(age.saturating_sub(idle))
}

type Object = deadpool::managed::Object<Pinging>;

/// The pool transactions take their connections from.
#[derive(Clone)]
pub(crate) struct PgPool {
    pool: deadpool::managed::Pool<Pinging>,
    slow_statement: Duration,
}

impl std::fmt::Debug for PgPool {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PgPool")
            .field("max_size", &self.pool.status().max_size)
            .finish_non_exhaustive()
    }
}

impl PgPool {
    /// At most `connections` to `config`, each waited for at most `acquire_timeout`.
    pub(crate) fn new(
        config: tokio_postgres::Config,
        connections: u32,
        acquire_timeout: Duration,
        slow_statement: Duration,
    ) -> Result<PgPool, DbError> {
        let manager = Pinging(Manager::from_config(
            config,
            NoTls,
            ManagerConfig {
                // A connection the database closed is noticed by its connection task
                // and not handed out again; one idle past `IDLE_PING` is pinged too.
                recycling_method: RecyclingMethod::Fast,
            },
        ));
        let pool = deadpool::managed::Pool::builder(manager)
            .max_size(usize::try_from(connections).unwrap_or(usize::MAX).max(1))
            .wait_timeout(Some(acquire_timeout))
            .create_timeout(Some(acquire_timeout))
            .recycle_timeout(Some(acquire_timeout))
            .runtime(Runtime::Tokio1)
            .build()
            .map_err(|e| DbError::new(DbErrorKind::Other, e.to_string()))?;
        Ok(PgPool {
            pool,
            slow_statement,
        })
    }

    /// A connection of the pool, waiting at most the acquire timeout.
    pub(crate) async fn get(&self) -> Result<PgConn, DbError> {
        use deadpool::managed::PoolError;
        let client = self.pool.get().await.map_err(|e| match e {
            PoolError::Backend(e) => error(e),
            PoolError::Closed => DbError::new(DbErrorKind::ConnectionLost, "the pool is closed"),
            PoolError::Timeout(_) => DbError::new(
                DbErrorKind::Busy,
                "no PostgreSQL connection was free in time",
            ),
            other => DbError::new(DbErrorKind::ConnectionLost, other.to_string()),
        })?;
        Ok(PgConn {
            client: Some(client),
            slow_statement: self.slow_statement,
            open: false,
            queued: Vec::new(),
            broken: false,
        })
    }

    pub(crate) fn close(&self) {
        self.pool.close();
    }
}

/// One pooled connection; with a transaction open when `open`, which is rolled back
/// if it is dropped without `commit`.
///
/// A transaction's statements go out in pipelines: its `BEGIN`, and the writes queued
/// with `send` (whose answers nothing waits for), are sent with the next statement that
/// is waited for, one after the other without waiting for each other's answers, and
/// PostgreSQL reads and answers them at one wake-up instead of one each. A check-out
/// made eleven round trips; the commit takes the last read with it too
/// (`commit_reading`).
pub(crate) struct PgConn {
    client: Option<Object>,
    slow_statement: Duration,
    open: bool,
    /// Sent ahead of the next statement waited for.
    queued: Vec<Step<String, Values>>,
    /// A statement could not be prepared before its transaction's `BEGIN` went out:
    /// every later statement fails, as PostgreSQL fails those after an error in a
    /// transaction (else they would run outside one).
    broken: bool,
}

/// A statement of a pipeline: the transaction's `BEGIN ...`, a text run as it is, a
/// read, a write whose rows touched are counted, or the `COMMIT`.
enum Step<S, V> {
    Begin(S),
    Batch(S),
    Rows(S, V),
    Execute(S, V),
    Commit,
}

/// A step sent, its answer to come.
type Answering<'a> =
    std::pin::Pin<Box<dyn Future<Output = Result<Answer, tokio_postgres::Error>> + Send + 'a>>;

/// What a step answered.
enum Answer {
    Ran,
    Rows(Vec<Row>),
    Touched(u64),
}

impl<S: AsRef<str>> Step<S, Values> {
    fn as_ref(&self) -> Step<&str, &Values> {
        match self {
            Step::Begin(sql) => Step::Begin(sql.as_ref()),
            Step::Batch(sql) => Step::Batch(sql.as_ref()),
            Step::Rows(sql, values) => Step::Rows(sql.as_ref(), values),
            Step::Execute(sql, values) => Step::Execute(sql.as_ref(), values),
            Step::Commit => Step::Commit,
        }
    }
}

impl<'a> Step<&'a str, &'a Values> {
    fn sql(&self) -> &'a str {
        match self {
            Step::Begin(sql) | Step::Batch(sql) | Step::Rows(sql, _) | Step::Execute(sql, _) => sql,
            Step::Commit => "COMMIT",
        }
    }
}

impl Answer {
    fn rows(self) -> Vec<Row> {
        match self {
            Answer::Rows(rows) => rows,
            Answer::Ran | Answer::Touched(_) => Vec::new(),
        }
    }

    fn touched(self) -> u64 {
        match self {
            Answer::Touched(n) => n,
            Answer::Ran | Answer::Rows(_) => 0,
        }
    }
}

impl PgConn {
    fn client(&self) -> &Object {
        self.client
            .as_ref()
            .expect("a pooled connection is present until dropped")
    }

    /// Runs `sql` (statements without values, such as `SELECT 1`) as it is.
    pub(crate) async fn batch(&mut self, sql: &str) -> Result<(), DbError> {
        self.pipeline([Step::Batch(sql)]).await.map(drop)
    }

    /// Opens a transaction with `begin` (a `BEGIN ...`), sent with its first statement.
    pub(crate) fn begin(&mut self, begin: &str) {
        self.queued.push(Step::Begin(begin.to_owned()));
    }

    /// Commits the transaction `begin` opened. Once its `COMMIT` is sent, PostgreSQL
    /// ends the transaction, committed or not; failed or cancelled before that, the
    /// drop rolls it back.
    pub(crate) async fn commit(mut self) -> Result<(), DbError> {
        self.pipeline([Step::Commit]).await.map(drop)
    }

    /// The rows `sql` reads with `values` as the transaction's last statement, and the
    /// commit, in one pipeline.
    pub(crate) async fn commit_reading(
        mut self,
        sql: &str,
        values: &Values,
    ) -> Result<Vec<Row>, DbError> {
        let [read, _] = self
            .pipeline([Step::Rows(sql, values), Step::Commit])
            .await?;
        Ok(read.rows())
    }

    /// Sends the writes sent ahead (`send`) and waits for them: their errors, now.
    pub(crate) async fn flush(&mut self) -> Result<(), DbError> {
        if self.queued.is_empty() {
            return Ok(());
        }
        self.pipeline([]).await.map(drop)
    }

    /// The rows `sql` reads with `values`.
    pub(crate) async fn rows(&mut self, sql: &str, values: &Values) -> Result<Vec<Row>, DbError> {
        let [read] = self.pipeline([Step::Rows(sql, values)]).await?;
        Ok(read.rows())
    }

    /// Runs `sql` with `values`; the number of rows it touched.
    pub(crate) async fn execute(&mut self, sql: &str, values: &Values) -> Result<u64, DbError> {
        let [written] = self.pipeline([Step::Execute(sql, values)]).await?;
        Ok(written.touched())
    }

    /// Queues the write `sql` with `values`, to be sent with the next statement waited
    /// for; an error it meets is that statement's.
    pub(crate) fn send(&mut self, sql: String, values: Values) {
        self.queued.push(Step::Execute(sql, values));
    }

    /// Sends the queued statements and then `last`, each without waiting for the
    /// answers of those before it, and answers `last`'s; the first error, in order, is
    /// the pipeline's (PostgreSQL refuses the statements after it in the transaction).
    async fn pipeline<const N: usize>(
        &mut self,
        last: [Step<&str, &Values>; N],
    ) -> Result<[Answer; N], DbError> {
        let answers = self.pipeline_all(Vec::from(last)).await?;
        Ok(answers
            .try_into()
            .unwrap_or_else(|_| unreachable!("one answer for each of the last steps")))
    }

    /// The rows each of `reads` reads, all sent in one pipeline (with the statements
    /// sent ahead before them).
    pub(crate) async fn rows_together(
        &mut self,
        reads: &[(String, Values)],
    ) -> Result<Vec<Vec<Row>>, DbError> {
        let steps = reads
            .iter()
            .map(|(sql, values)| Step::Rows(sql.as_str(), values))
            .collect();
        Ok(self
            .pipeline_all(steps)
            .await?
            .into_iter()
            .map(Answer::rows)
            .collect())
    }

    /// [`PgConn::pipeline`], for any number of last steps.
    async fn pipeline_all(
        &mut self,
        last: Vec<Step<&str, &Values>>,
    ) -> Result<Vec<Answer>, DbError> {
        let n = last.len();
        if self.broken {
            return Err(DbError::new(
                DbErrorKind::Other,
                "the transaction failed at an earlier statement",
            ));
        }
        let queued = std::mem::take(&mut self.queued);
        let begins = queued.iter().any(|q| matches!(q, Step::Begin(_)));
        let steps: Vec<Step<&str, &Values>> = queued.iter().map(Step::as_ref).chain(last).collect();
        // Prepared first: a statement's first use is a round trip of its own, which
        // must not come between the pipeline's statements.
        let mut statements = Vec::with_capacity(steps.len());
        for step in &steps {
            statements.push(match step {
                Step::Begin(_) | Step::Batch(_) | Step::Commit => None,
                Step::Rows(sql, values) | Step::Execute(sql, values) => {
                    match self.prepared(sql, values).await {
                        Ok(statement) => Some(statement),
                        Err(e) => {
                            self.broken = begins;
                            return Err(e);
                        }
                    }
                }
            });
        }
        if begins {
            // Its BEGIN goes out now: a drop from here on rolls back.
            self.open = true;
        }
        let started = Instant::now();
        // The field, not `client()`, so that `open` can change while it is borrowed.
        let client = self
            .client
            .as_ref()
            .expect("a pooled connection is present until dropped");
        let mut sent = Vec::with_capacity(steps.len());
        for (step, statement) in steps.iter().zip(&statements) {
            let answer: Answering<'_> = match (step, statement) {
                (Step::Rows(_, values), Some(statement)) => Box::pin(async move {
                    let rows = client.query_raw(statement, values.0.iter().map(Param));
                    Ok(Answer::Rows(rows.await?.try_collect().await?))
                }),
                (Step::Execute(_, values), Some(statement)) => Box::pin(async move {
                    let touched = client.execute_raw(statement, values.0.iter().map(Param));
                    Ok(Answer::Touched(touched.await?))
                }),
                (step, _) => {
                    let sql = step.sql();
                    Box::pin(async move { client.batch_execute(sql).await.map(|()| Answer::Ran) })
                }
            };
            let mut answer = Box::pin(futures_util::future::maybe_done(answer));
            // Polled once, it sends its statement (tokio-postgres queues a request
            // at its first poll) and goes on without its answer.
            let _ = futures_util::future::poll_immediate(answer.as_mut()).await;
            // Failed at once, it was not sent (its values could not be encoded): what
            // comes after it, the commit among them, is not sent either.
            let unsent = matches!(answer.as_mut().output_mut(), Some(Err(_)));
            sent.push(answer);
            if unsent {
                break;
            }
            if matches!(step, Step::Commit) {
                // PostgreSQL ends the transaction at its COMMIT, committed or not.
                self.open = false;
            }
        }
        let mut answers = Vec::with_capacity(n);
        let mut failed = None;
        let first_of_last = steps.len() - n;
        for (i, (mut answer, step)) in sent.into_iter().zip(&steps).enumerate() {
            answer.as_mut().await;
            let answered = answer
                .as_mut()
                .take_output()
                .expect("an answer awaited is there")
                .map_err(error);
            if matches!(step, Step::Rows(..) | Step::Execute(..)) {
                super::log_statement(step.sql(), started, self.slow_statement);
            }
            match answered {
                Err(e) => {
                    failed.get_or_insert(e);
                }
                Ok(answer) if i >= first_of_last => answers.push(answer),
                Ok(_) => {}
            }
        }
        match failed {
            Some(e) => Err(e),
            None => Ok(answers),
        }
    }

    /// `sql` prepared for the types of `values`, kept by the connection.
    async fn prepared(
        &self,
        sql: &str,
        values: &Values,
    ) -> Result<tokio_postgres::Statement, DbError> {
        let client = self.client();
        if client.statement_cache.size() >= STATEMENTS {
            client.statement_cache.clear();
        }
        let types: Vec<Type> = values.0.iter().map(type_of).collect();
        client
            .prepare_typed_cached(sql, &types)
            .await
            .map_err(error)
    }
}

impl Drop for PgConn {
    /// A transaction left open is rolled back before its connection goes back to the
    /// pool; a connection that cannot be rolled back is closed.
    fn drop(&mut self) {
        let Some(client) = self.client.take() else {
            return;
        };
        if !self.open {
            return;
        }
        match tokio::runtime::Handle::try_current() {
            Ok(runtime) => {
                runtime.spawn(async move {
                    if client.batch_execute("ROLLBACK").await.is_err() {
                        drop(Object::take(client));
                    }
                });
            }
            Err(_) => drop(Object::take(client)),
        }
    }
}

/// The PostgreSQL type a sea-query value is bound as: a statement's text and these
/// types are the key of its prepared statement on every path.
pub(crate) fn type_of(value: &Value) -> Type {
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

/// A sea-query value bound as the type `type_of` gives it.
#[derive(Debug)]
pub(crate) struct Param<'a>(pub(crate) &'a Value);

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

/// A tokio-postgres error in the engine's terms, by SQLSTATE: unique key 23505, foreign
/// key 23503; busy: insufficient resources (53), operator intervention (57: the
/// statement timeout's cancel, a shutdown), lock not available, serialization failure,
/// deadlock; connection exceptions (08) and a closed connection are lost connections.
pub(crate) fn error(e: tokio_postgres::Error) -> DbError {
    if let Some(db) = e.as_db_error() {
        let code = db.code().code();
        let kind = match code {
            "23505" => DbErrorKind::UniqueKey {
                constraint: db.constraint().unwrap_or_default().to_owned(),
            },
            "23503" => DbErrorKind::ForeignKey,
            "57P01" | "57P02" | "57P03" => DbErrorKind::ConnectionLost,
            "55P03" | "40001" | "40P01" => DbErrorKind::Busy,
            c if c.starts_with("08") => DbErrorKind::ConnectionLost,
            c if c.starts_with("53") || c.starts_with("57") => DbErrorKind::Busy,
            _ => DbErrorKind::Other,
        };
        return DbError::new(kind, format!("{} ({code})", db.message()));
    }
    let io = std::error::Error::source(&e).is_some_and(|s| s.is::<std::io::Error>());
    if e.is_closed() || io {
        return DbError::new(DbErrorKind::ConnectionLost, e.to_string());
    }
    DbError::new(DbErrorKind::Other, e.to_string())
}

/// The tokio-postgres configuration of `url`, each connection's statements bounded by
/// `statement_timeout` and its connecting by `connect_timeout`, and planned once per
/// connection (`plan_cache_mode = force_generic_plan`).
///
/// rentrack's statements are built for one plan that serves every company: each
/// filter on an index led by the company, LIMIT and OFFSET literal, a search's
/// candidates from an index that holds the company (docs/performance.md, "PostgreSQL at
/// the million"). Left to choose, PostgreSQL planned the asset list's first page for
/// its values at every run for a company of a million assets (its custom plan looked
/// cheaper than the generic one by an estimate that does not count planning): 0.4 ms
/// of planning for 0.12 ms of work, 4,300 pages a second where the generic plan, the
/// same walk of the company's index, answers 10,500 to 12,200.
pub(crate) fn config(
    url: &str,
    statement_timeout: Duration,
    connect_timeout: Duration,
) -> Result<tokio_postgres::Config, String> {
    let mut config: tokio_postgres::Config = url.parse().map_err(|e| format!("{e}"))?;
    let ours = format!(
        "-c statement_timeout={} -c plan_cache_mode=force_generic_plan",
        statement_timeout.as_millis()
    );
    let options = match config.get_options() {
        Some(given) => format!("{given} {ours}"),
        None => ours,
    };
    config.options(options).connect_timeout(connect_timeout);
    Ok(config)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A pooled connection drops its plans once per `REPLAN` period it lives into, when
    /// it is next handed out, however long it idled.
    #[test]
    fn pooled_plans_are_dropped_once_a_period() {
        let s = Duration::from_secs;
        assert!(!replan_due(s(29), s(29)), "still in its first period");
        assert!(replan_due(s(31), s(2)), "handed out at 29 s, again at 31 s");
        assert!(
            !replan_due(s(59), s(28)),
            "handed out at 31 s, again at 59 s"
        );
        assert!(replan_due(s(95), s(60)), "idle across two periods: once");
        assert!(!replan_due(s(95), s(0)));
    }
}
