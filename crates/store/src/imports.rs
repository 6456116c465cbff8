//! CSV imports (a rentrack extension): each import's state and outcome. The rows an
//! import names are written by their families' `create_in` and `update_in`, in one
//! transaction the importer holds; see docs/import.md.

use std::time::Duration;

use chrono::{DateTime, Utc};
use domain::{Page, Vocabulary};
use sea_query::{Expr, ExprTrait, Query};

use crate::CompanyId;
use crate::ids::{Id, kind};
use crate::{Assignments, Db, PageOf, StoreError, Tx, now};

/// An import's errors kept beside it: the first this many bad rows (`errors_total`
/// counts them all).
pub const MAX_ERRORS: usize = 1_000;

/// How often a running import shows it is alive; one silent for
/// [`ABANDONED_AFTER`] lost its instance.
pub const HEARTBEAT: Duration = Duration::from_secs(30);

/// See [`HEARTBEAT`].
pub const ABANDONED_AFTER: Duration = Duration::from_secs(5 * 60);

/// Where an import is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum State {
    /// Received, waiting for its turn.
    Queued,
    /// Its rows are being read and written.
    Running,
    /// Every row was good: written (or, on a dry run, found writable).
    Done,
    /// Nothing was written: bad rows (`errors`) or a failure (`message`).
    Failed,
}

impl Vocabulary for State {
    const ALL: &'static [Self] = &[State::Queued, State::Running, State::Done, State::Failed];

    fn as_str(self) -> &'static str {
        match self {
            State::Queued => "queued",
            State::Running => "running",
            State::Done => "done",
            State::Failed => "failed",
        }
    }
}

#[derive(Debug, Clone, crate::Row)]
pub struct Import {
    pub id: i64,
    /// The kind of records (`vendors`, `locations`, ...), as the request named it.
    pub kind: String,
    pub dry_run: bool,
    /// A [`State`]'s word.
    pub state: String,
    pub file_name: Option<String>,
    pub rows_total: i64,
    pub rows_done: i64,
    pub created: i64,
    pub updated: i64,
    /// A JSON list of `{row, column, value, message}`, at most [`MAX_ERRORS`].
    pub errors: String,
    pub errors_total: i64,
    /// Why an import failed other than by bad rows.
    pub message: Option<String>,
    pub finished_at: Option<DateTime<Utc>>,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
}

const COLUMNS: [&str; 15] = [
    "id",
    "kind",
    "dry_run",
    "state",
    "file_name",
    "rows_total",
    "rows_done",
    "created",
    "updated",
    "errors",
    "errors_total",
    "message",
    "finished_at",
    "created_at",
    "updated_at",
];

/// How an import ended.
#[derive(Debug, Clone)]
pub struct Outcome {
    /// [`State::Done`] or [`State::Failed`].
    pub state: State,
    pub rows_total: i64,
    pub created: i64,
    pub updated: i64,
    /// A JSON list, at most [`MAX_ERRORS`] entries.
    pub errors: String,
    pub errors_total: i64,
    pub message: Option<String>,
}

fn scoped(company: CompanyId) -> sea_query::SelectStatement {
    crate::scoped("imports", company)
}

/// A new import, queued.
#[tracing::instrument(level = "debug", skip_all)]
pub async fn create(
    db: &Db,
    company: CompanyId,
    kind: &str,
    dry_run: bool,
    file_name: Option<&str>,
) -> Result<Import, StoreError> {
    let at = now();
    let mut row = Assignments::insert();
    row.set("company_id", company.0)
        .set("kind", kind)
        .set("dry_run", dry_run)
        .set("state", State::Queued.as_str())
        .set("file_name", file_name.map(str::to_owned))
        .set("rows_total", 0i64)
        .set("rows_done", 0i64)
        .set("created", 0i64)
        .set("updated", 0i64)
        .set("errors", "[]")
        .set("errors_total", 0i64)
        .set("heartbeat_at", at)
        .set("created_at", at)
        .set("updated_at", at);
    let stmt = row
        .into_insert("imports")
        .returning(Query::returning().columns(COLUMNS))
        .to_owned();
    let mut tx = db.begin().await?;
    let import: Import = tx.one(&stmt).await?;
    tx.commit().await?;
    Ok(import)
}

#[tracing::instrument(level = "debug", skip_all)]
pub async fn find(db: &Db, company: CompanyId, id: Id<kind::Import>) -> Result<Import, StoreError> {
    let stmt = scoped(company)
        .columns(COLUMNS)
        .and_where(Expr::col("id").eq(id))
        .to_owned();
    db.read().optional(&stmt).await?.ok_or(id.missing())
}

/// The company's imports, oldest first.
#[tracing::instrument(level = "debug", skip_all)]
pub async fn list(db: &Db, company: CompanyId, page: Page) -> Result<PageOf<Import>, StoreError> {
    let total = crate::Total::whole(company, "imports");
    crate::paged(db, scoped(company), COLUMNS, page, total).await
}

/// A running import's progress, which also shows it alive. An import that has ended
/// stays as it ended: on SQLite a heartbeat waits for the write turn the import's own
/// transaction holds, and one that got it after the import's end set a done import
/// back to running, which the sweep then failed as abandoned (`fail_abandoned`).
#[tracing::instrument(level = "debug", skip_all)]
pub async fn progress(
    db: &Db,
    company: CompanyId,
    id: i64,
    rows_done: i64,
) -> Result<(), StoreError> {
    let at = now();
    let stmt = Query::update()
        .table("imports")
        .value("state", State::Running.as_str())
        .value("rows_done", rows_done)
        .value("heartbeat_at", at)
        .value("updated_at", at)
        .and_where(Expr::col("company_id").eq(company.0))
        .and_where(Expr::col("id").eq(id))
        .and_where(Expr::col("state").is_in([State::Queued.as_str(), State::Running.as_str()]))
        .to_owned();
    let mut tx = db.begin().await?;
    tx.execute(&stmt).await?;
    tx.commit().await
}

/// Writes how an import ended.
#[tracing::instrument(level = "debug", skip_all)]
pub async fn finish(
    db: &Db,
    company: CompanyId,
    id: i64,
    outcome: Outcome,
) -> Result<(), StoreError> {
    let mut tx = db.begin().await?;
    finish_in(&mut tx, company, id, outcome).await?;
    tx.commit().await
}

/// [`finish`] in the import's own transaction, so its rows and its end are written
/// together.
pub async fn finish_in(
    tx: &mut Tx,
    company: CompanyId,
    id: i64,
    outcome: Outcome,
) -> Result<(), StoreError> {
    let at = now();
    let Outcome {
        state,
        rows_total,
        created,
        updated,
        errors,
        errors_total,
        message,
    } = outcome;
    let stmt = Query::update()
        .table("imports")
        .value("state", state.as_str())
        .value("rows_total", rows_total)
        .value("rows_done", rows_total)
        .value("created", created)
        .value("updated", updated)
        .value("errors", errors)
        .value("errors_total", errors_total)
        .value("message", message)
        .value("heartbeat_at", at)
        .value("finished_at", at)
        .value("updated_at", at)
        .and_where(Expr::col("company_id").eq(company.0))
        .and_where(Expr::col("id").eq(id))
        .to_owned();
    tx.execute(&stmt).await?;
    Ok(())
}

/// Fails every unfinished import (of any company) but those of `running` whose
/// instance has shown no sign of life since `before`: it stopped, and its transaction
/// with it. Answers how many.
#[tracing::instrument(level = "debug", skip_all)]
pub async fn fail_abandoned(
    db: &Db,
    before: DateTime<Utc>,
    running: &[i64],
) -> Result<u64, StoreError> {
    let at = now();
    let stmt = Query::update()
        .table("imports")
        .value("state", State::Failed.as_str())
        .value(
            "message",
            "the server stopped during the import; nothing was written: send the file again",
        )
        .value("finished_at", at)
        .value("updated_at", at)
        .and_where(Expr::col("state").is_in([State::Queued.as_str(), State::Running.as_str()]))
        .and_where(Expr::col("heartbeat_at").lt(before))
        .and_where(Expr::col("id").is_not_in(running.iter().copied()))
        .to_owned();
    let mut tx = db.begin().await?;
    let n = tx.execute(&stmt).await?;
    tx.commit().await?;
    Ok(n)
}
