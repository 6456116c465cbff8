//! Owner-console log-ins sent in the background of a run (`run --logins N`), to see
//! what a burst of password checks does to everything else the server answers: each
//! log-in runs argon2, which must not take the async workers from other requests.

use std::sync::Arc;

use anyhow::{Context, Result, bail};
use hyper::header::{COOKIE, HeaderValue, SET_COOKIE};
use tokio::task::JoinSet;
use tokio::time::Instant;

use crate::conn::{Conn, Target};

/// The owner account the background log-ins use (its password must be right, so each
/// log-in runs argon2 and none is throttled).
#[derive(Clone)]
pub struct Account {
    pub subdomain: String,
    pub email: String,
    pub password: String,
}

#[derive(Default, Debug)]
pub struct LoginTally {
    pub signed_in: u64,
    pub refused: u64,
    pub first_error: Option<String>,
}

/// One log-in: fetch the form's CSRF cookie, then post the credentials. A right
/// password answers 303 to Settings.
async fn log_in(conn: &mut Conn, account: &Account) -> Result<()> {
    let target = conn.target();
    let page = target.get(target.uri("/login")?);
    let reply = conn.call(page).await?;
    let csrf = reply
        .headers
        .get_all(SET_COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .find_map(|c| c.strip_prefix("rentrack_csrf="))
        .and_then(|c| c.split(';').next())
        .map(str::to_owned)
        .context("the log-in page set no rentrack_csrf cookie")?;
    let target = conn.target();
    let mut post = target.post_form(
        target.uri("/login")?,
        &[
            ("csrf_token", &csrf),
            ("subdomain", &account.subdomain),
            ("email", &account.email),
            ("password", &account.password),
        ],
    );
    post.headers_mut().insert(
        COOKIE,
        HeaderValue::from_str(&format!("rentrack_csrf={csrf}"))?,
    );
    let reply = conn.call(post).await?;
    if reply.status != 303 {
        bail!("log-in answered {}: {}", reply.status, reply.snippet());
    }
    Ok(())
}

/// Runs `workers` log-in loops until `until`.
pub async fn background(
    target: Arc<Target>,
    workers: usize,
    account: Account,
    until: Instant,
) -> LoginTally {
    let mut set = JoinSet::new();
    for _ in 0..workers {
        let target = target.clone();
        let account = account.clone();
        set.spawn(async move {
            let mut conn = Conn::new(target);
            let mut tally = LoginTally::default();
            while Instant::now() < until {
                match tokio::time::timeout_at(until, log_in(&mut conn, &account)).await {
                    Ok(Ok(())) => tally.signed_in += 1,
                    Ok(Err(e)) => {
                        tally.refused += 1;
                        tally.first_error.get_or_insert(format!("{e:#}"));
                        conn.reset();
                    }
                    Err(_) => break,
                }
            }
            tally
        });
    }
    let mut total = LoginTally::default();
    while let Some(Ok(t)) = set.join_next().await {
        total.signed_in += t.signed_in;
        total.refused += t.refused;
        if total.first_error.is_none() {
            total.first_error = t.first_error;
        }
    }
    total
}
