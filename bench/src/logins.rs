//! Owner-console log-ins sent in the background of a run (`run --logins N`), to see
//! what a burst of password checks does to everything else the server answers: each
//! log-in runs argon2, which must not take the async workers from other requests.
//!
//! Every attempt names a new unknown owner of the company and comes, by
//! `X-Forwarded-For`, from a new address, so no log-in throttle applies and each one
//! really checks a password (the decoy hash; the answer is 401). Start the server with
//! `--trusted-proxy 127.0.0.1` so the forwarded address is believed.

use std::sync::Arc;

use anyhow::{Context, Result, bail};
use hyper::header::{COOKIE, HeaderValue, SET_COOKIE};
use tokio::task::JoinSet;
use tokio::time::Instant;

use crate::conn::{Conn, Target};

/// The company whose console the background log-ins try.
#[derive(Clone)]
pub struct Account {
    pub subdomain: String,
}

#[derive(Default, Debug)]
pub struct LoginTally {
    pub checked: u64,
    pub refused: u64,
    pub first_error: Option<String>,
}

/// One log-in as the `n`th unknown owner: fetch the form's CSRF cookie, then post the
/// credentials. The password is checked and found wrong: 401.
async fn log_in(conn: &mut Conn, account: &Account, n: u64) -> Result<()> {
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
    let email = format!("nobody-{n}@bench.test");
    let mut post = target.post_form(
        target.uri("/login")?,
        &[
            ("csrf_token", &csrf),
            ("subdomain", &account.subdomain),
            ("email", &email),
            ("password", "not-the-password"),
        ],
    );
    let headers = post.headers_mut();
    headers.insert(
        COOKIE,
        HeaderValue::from_str(&format!("rentrack_csrf={csrf}"))?,
    );
    let from = format!("10.{}.{}.{}", (n >> 16) & 255, (n >> 8) & 255, n & 255);
    headers.insert("x-forwarded-for", HeaderValue::from_str(&from)?);
    let reply = conn.call(post).await?;
    if reply.status != 401 {
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
    for w in 0..workers as u64 {
        let target = target.clone();
        let account = account.clone();
        set.spawn(async move {
            let mut conn = Conn::new(target);
            let mut tally = LoginTally::default();
            let mut n = w;
            while Instant::now() < until {
                n += workers as u64;
                match tokio::time::timeout_at(until, log_in(&mut conn, &account, n)).await {
                    Ok(Ok(())) => tally.checked += 1,
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
        total.checked += t.checked;
        total.refused += t.refused;
        if total.first_error.is_none() {
            total.first_error = t.first_error;
        }
    }
    total
}
