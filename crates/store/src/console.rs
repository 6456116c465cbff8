//! What the owner console needs: checking an owner's password, sessions kept in the
//! database (so any instance can serve them), log-in throttling, and daily API usage.

use crate::CompanyId;
use crate::ids::{Id, kind};
use chrono::{DateTime, Duration, NaiveDate, Utc};
use sea_query::{Expr, ExprTrait, Query};
use std::collections::HashMap;

use crate::companies::{self, Company, hash_token};
use crate::tokens::random_token;
use crate::{Db, Sql, StoreError};

/// How long a session lasts without signing in again.
pub const SESSION_DAYS: i64 = 14;

/// A signed-in owner.
#[derive(Debug, Clone)]
pub struct Session {
    pub company: Company,
    pub owner_id: Id<kind::Member>,
    pub owner_email: String,
    pub csrf_token: String,
}

#[derive(crate::Row)]
struct OwnerRow {
    id: i64,
    password_hash: Option<String>,
}

async fn find_owner(
    db: &Db,
    company: CompanyId,
    email: &str,
) -> Result<Option<OwnerRow>, StoreError> {
    let stmt = crate::scoped("owners", company)
        .columns(["id", "password_hash"])
        .and_where(Expr::col("email").eq(email.trim().to_lowercase()))
        .to_owned();
    db.read().optional(&stmt).await
}

/// The id of the company's owner with this e-mail (e.g. right after sign-up created it).
#[tracing::instrument(level = "debug", skip_all)]
pub async fn owner_id(
    db: &Db,
    company: CompanyId,
    email: &str,
) -> Result<Option<Id<kind::Member>>, StoreError> {
    Ok(find_owner(db, company, email).await?.map(|o| Id::new(o.id)))
}

/// The owner of company `subdomain` with this e-mail and password, if they match.
#[tracing::instrument(level = "debug", skip_all)]
pub async fn check_password(
    db: &Db,
    subdomain: &str,
    email: &str,
    password: &str,
) -> Result<Option<(Company, Id<kind::Member>)>, StoreError> {
    let company = match companies::find_by_subdomain(db, subdomain).await {
        Ok(c) => Some(c),
        Err(StoreError::NotFound(_)) => None,
        Err(e) => return Err(e),
    };
    let owner = match &company {
        Some(c) => find_owner(db, c.id, email).await?,
        None => None,
    };
    let hash = owner.as_ref().and_then(|o| o.password_hash.clone());
    let matches = crate::passwords::verify(password, hash).await?;
    Ok(match (company, owner) {
        (Some(c), Some(o)) if matches => Some((c, Id::new(o.id))),
        _ => None,
    })
}

/// Starts a session; returns the cookie token (only its hash is stored).
#[tracing::instrument(level = "debug", skip_all)]
pub async fn start_session(
    db: &Db,
    company: CompanyId,
    owner_id: Id<kind::Member>,
) -> Result<String, StoreError> {
    start_in(db, &OWNERS, company, owner_id.get()).await
}

/// A table of log-in sessions: whose they are, and what the change log calls them.
pub(crate) struct Sessions {
    pub(crate) table: &'static str,
    pub(crate) who: &'static str,
    pub(crate) subject: &'static str,
}

const OWNERS: Sessions = Sessions {
    table: "sessions",
    who: "owner_id",
    subject: "owner",
};

/// A new session of `who` in `sessions`, for [`SESSION_DAYS`], with its CSRF token,
/// and its "signed_in" entry; returns the cookie token (only its hash is stored).
pub(crate) async fn start_in(
    db: &Db,
    sessions: &Sessions,
    company: CompanyId,
    who: i64,
) -> Result<String, StoreError> {
    let token = random_token();
    let now = crate::now();
    let stmt = Query::insert()
        .into_table(sessions.table)
        .columns([
            "token_hash",
            "company_id",
            sessions.who,
            "csrf_token",
            "created_at",
            "expires_at",
        ])
        .values_panic([
            hash_token(&token).into(),
            company.0.into(),
            who.into(),
            random_token().into(),
            now.into(),
            (now + Duration::days(SESSION_DAYS)).into(),
        ])
        .to_owned();
    let mut tx = db.begin().await?;
    tx.execute(&stmt).await?;
    crate::change_log::record(
        &mut tx,
        company,
        sessions.subject,
        who,
        "signed_in",
        serde_json::json!({}),
    )
    .await?;
    tx.commit().await?;
    Ok(token)
}

/// Ends the session of `token` in `table`.
pub(crate) async fn end_in(db: &Db, table: &'static str, token: &str) -> Result<(), StoreError> {
    let stmt = Query::delete()
        .from_table(table)
        .and_where(Expr::col("token_hash").eq(hash_token(token)))
        .to_owned();
    let mut tx = db.begin().await?;
    tx.execute(&stmt).await?;
    tx.commit().await
}

#[derive(crate::Row)]
struct SessionRow {
    company_id: i64,
    owner_id: i64,
    csrf_token: String,
    expires_at: DateTime<Utc>,
    email: String,
}

/// The live session a cookie token names.
#[tracing::instrument(level = "debug", skip_all)]
pub async fn session(db: &Db, token: &str) -> Result<Option<Session>, StoreError> {
    let stmt = Query::select()
        .columns([
            ("sessions", "company_id"),
            ("sessions", "owner_id"),
            ("sessions", "csrf_token"),
            ("sessions", "expires_at"),
        ])
        .column(("owners", "email"))
        .from("sessions")
        .inner_join(
            "owners",
            Expr::col(("owners", "company_id"))
                .equals(("sessions", "company_id"))
                .and(Expr::col(("owners", "id")).equals(("sessions", "owner_id"))),
        )
        .and_where(Expr::col(("sessions", "token_hash")).eq(hash_token(token)))
        .to_owned();
    let Some(row): Option<SessionRow> = db.read().optional(&stmt).await? else {
        return Ok(None);
    };
    if row.expires_at <= Utc::now() {
        return Ok(None);
    }
    let company = companies::find(db, CompanyId(row.company_id)).await?;
    Ok(Some(Session {
        company,
        owner_id: Id::new(row.owner_id),
        owner_email: row.email,
        csrf_token: row.csrf_token,
    }))
}

#[tracing::instrument(level = "debug", skip_all)]
pub async fn end_session(db: &Db, token: &str) -> Result<(), StoreError> {
    end_in(db, OWNERS.table, token).await
}

/// Log-in throttling: at most `limit` failures per key in a window of `window_secs`.
pub struct Throttle {
    pub limit: i64,
    pub window_secs: i64,
}

/// Takes one attempt of `key` before the password is checked, in one atomic upsert (a
/// stale window restarts at this attempt), so parallel guesses cannot all pass a count
/// read before any of them is recorded. Answers the seconds until `key` may try again
/// when this attempt is over the limit; the caller then gives it back (`give_back`),
/// as it also does when the password was right, so the count is the failed checks.
#[tracing::instrument(level = "debug", skip_all)]
pub async fn take_attempt(
    db: &Db,
    key: &str,
    throttle: &Throttle,
) -> Result<Option<i64>, StoreError> {
    let now = Utc::now().timestamp();
    let stmt = Sql {
        text: "INSERT INTO login_attempts (throttle_key, window_start, failures) VALUES ($1, $2, 1) \
               ON CONFLICT (throttle_key) DO UPDATE SET \
               failures = CASE WHEN login_attempts.window_start + $3 <= $2 THEN 1 ELSE login_attempts.failures + 1 END, \
               window_start = CASE WHEN login_attempts.window_start + $3 <= $2 THEN $2 ELSE login_attempts.window_start END \
               RETURNING window_start, failures",
        values: sea_query::Values(vec![key.into(), now.into(), throttle.window_secs.into()]),
    };
    // Writes in a transaction: on SQLite the wait for the write lock is then off the
    // runtime's threads (`Db::begin`).
    let mut tx = db.begin().await?;
    let (start, attempts): (i64, i64) = tx.one(&stmt).await?;
    tx.commit().await?;
    Ok((attempts > throttle.limit).then(|| Ord::max(start + throttle.window_secs - now, 1)))
}

/// Gives back an attempt taken by `take_attempt` that was not a failed password check.
#[tracing::instrument(level = "debug", skip_all)]
pub async fn give_back(db: &Db, key: &str) -> Result<(), StoreError> {
    let stmt = Sql {
        text: "UPDATE login_attempts SET failures = CASE WHEN failures > 0 THEN failures - 1 ELSE 0 END \
               WHERE throttle_key = $1",
        values: sea_query::Values(vec![key.into()]),
    };
    let mut tx = db.begin().await?;
    tx.execute(&stmt).await?;
    tx.commit().await
}

/// The longest window a `Throttle` may have; rows older than this are purged.
pub const MAX_THROTTLE_WINDOW_SECS: i64 = 86_400;

/// Deletes expired sessions and throttle rows whose window has long passed; returns
/// how many of each. `serve` runs it every few minutes.
#[tracing::instrument(level = "debug", skip_all)]
pub async fn purge_expired(db: &Db) -> Result<(u64, u64), StoreError> {
    let sessions = Query::delete()
        .from_table("sessions")
        .and_where(Expr::col("expires_at").lte(crate::now()))
        .to_owned();
    let attempts = Query::delete()
        .from_table("login_attempts")
        .and_where(Expr::col("window_start").lt(Utc::now().timestamp() - MAX_THROTTLE_WINDOW_SECS))
        .to_owned();
    let mut read = db.read();
    Ok((
        read.execute(&sessions).await?,
        read.execute(&attempts).await?,
    ))
}

/// Forgets the failures of `key` (after a successful log-in).
#[tracing::instrument(level = "debug", skip_all)]
pub async fn clear_failures(db: &Db, key: &str) -> Result<(), StoreError> {
    let stmt = Query::delete()
        .from_table("login_attempts")
        .and_where(Expr::col("throttle_key").eq(key))
        .to_owned();
    let mut tx = db.begin().await?;
    tx.execute(&stmt).await?;
    tx.commit().await
}

/// Adds counted API requests per company and day.
#[tracing::instrument(level = "debug", skip_all)]
pub async fn add_usage(
    db: &Db,
    counts: &HashMap<(CompanyId, NaiveDate), i64>,
) -> Result<(), StoreError> {
    if counts.is_empty() {
        return Ok(());
    }
    let mut tx = db.begin().await?;
    for ((company, day), n) in counts {
        let stmt = Sql {
            text: "INSERT INTO api_usage (company_id, day, requests) VALUES ($1, $2, $3) \
                   ON CONFLICT (company_id, day) DO UPDATE SET requests = api_usage.requests + $3",
            values: sea_query::Values(vec![
                company.0.into(),
                day.format("%Y-%m-%d").to_string().into(),
                (*n).into(),
            ]),
        };
        tx.execute(&stmt).await?;
    }
    tx.commit().await
}

/// API requests counted for `company` on `day` (UTC), as flushed so far.
#[tracing::instrument(level = "debug", skip_all)]
pub async fn usage(db: &Db, company: CompanyId, day: NaiveDate) -> Result<i64, StoreError> {
    let stmt = crate::scoped("api_usage", company)
        .column("requests")
        .and_where(Expr::col("day").eq(day.format("%Y-%m-%d").to_string()))
        .to_owned();
    Ok(db
        .read()
        .optional::<(i64,)>(&stmt)
        .await?
        .map(|r| r.0)
        .unwrap_or(0))
}
