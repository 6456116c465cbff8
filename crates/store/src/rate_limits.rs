//! The shared rate limiter: one row per company, read and written under a row lock
//! inside one transaction, so several server instances on one PostgreSQL database
//! enforce one limit per company, on the database's clock.

use crate::CompanyId;
use domain::rate_limit::{Decision, WindowState, decide};
use sea_query::Values;

use crate::{Backend, Db, Sql, StoreError};

#[derive(crate::Row)]
struct Row {
    window_start: i64,
    used: i64,
    blocked_until: i64,
    block_secs: i64,
}

/// Takes one request of `company`'s window. The time is the database's, read in the
/// same transaction, so instances whose clocks differ share one notion of the window.
#[tracing::instrument(level = "debug", skip_all)]
pub async fn take(
    db: &Db,
    company: CompanyId,
    requests: u32,
    window_secs: u32,
) -> Result<Decision, StoreError> {
    let mut tx = db.begin().await?;
    let ensure = Sql {
        text: "INSERT INTO rate_limit_windows (company_id, window_start, used, blocked_until, block_secs) \
               VALUES ($1, 0, 0, 0, 0) ON CONFLICT (company_id) DO NOTHING",
        values: Values(vec![company.0.into()]),
    };
    tx.execute(&ensure).await?;
    let select = Sql {
        text: match tx.backend() {
            Backend::Postgres => {
                "SELECT window_start, used, blocked_until, block_secs FROM rate_limit_windows \
                 WHERE company_id = $1 FOR UPDATE"
            }
            // The transaction already holds SQLite's write lock.
            Backend::Sqlite => {
                "SELECT window_start, used, blocked_until, block_secs FROM rate_limit_windows WHERE company_id = $1"
            }
        },
        values: Values(vec![company.0.into()]),
    };
    let row: Row = tx.one(&select).await?;
    let clock = Sql {
        text: match tx.backend() {
            Backend::Postgres => "SELECT CAST(EXTRACT(EPOCH FROM clock_timestamp()) AS BIGINT)",
            Backend::Sqlite => "SELECT CAST(strftime('%s', 'now') AS INTEGER)",
        },
        values: Values(vec![]),
    };
    let (now,): (i64,) = tx.one(&clock).await?;
    let state = WindowState {
        window_start: row.window_start,
        used: row.used,
        blocked_until: row.blocked_until,
        block_secs: row.block_secs,
    };
    let (next, decision) = decide(state, now, requests, window_secs);
    if next != state {
        let update = Sql {
            text: "UPDATE rate_limit_windows SET window_start = $2, used = $3, blocked_until = $4, block_secs = $5 \
                   WHERE company_id = $1",
            values: Values(vec![
                company.0.into(),
                next.window_start.into(),
                next.used.into(),
                next.blocked_until.into(),
                next.block_secs.into(),
            ]),
        };
        tx.execute(&update).await?;
    }
    tx.commit().await?;
    Ok(decision)
}
