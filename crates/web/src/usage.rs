//! Counts API requests per company and UTC day for the settings page. Counts gather
//! in memory and are added to the database at most every few seconds, by whichever
//! request notices they are due, so serving a request never waits on a write and
//! every instance's share ends up in the same total.

use chrono::{NaiveDate, Utc};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use store::CompanyId;
use store::Db;

const FLUSH_EVERY: Duration = Duration::from_secs(5);

type Counts = HashMap<(CompanyId, NaiveDate), i64>;

pub struct Usage {
    /// Shared with the flush under way, which hands back what it could not write.
    counts: Arc<Mutex<Counts>>,
    /// Held by the flush under way: one at a time, so the flush at shutdown writes
    /// after the one a request started, and what that one hands back.
    writing: Arc<tokio::sync::Mutex<()>>,
    last_flush: Mutex<Instant>,
}

impl Default for Usage {
    fn default() -> Self {
        Usage {
            counts: Arc::new(Mutex::new(HashMap::new())),
            writing: Arc::new(tokio::sync::Mutex::new(())),
            last_flush: Mutex::new(Instant::now()),
        }
    }
}

impl Usage {
    /// Counts one served request; starts a flush in the background when one is due.
    pub fn record(&self, db: &Db, company: CompanyId) {
        let today = Utc::now().date_naive();
        *self
            .counts
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .entry((company, today))
            .or_insert(0) += 1;
        let due = {
            let mut last = self.last_flush.lock().unwrap_or_else(|e| e.into_inner());
            let due = last.elapsed() >= FLUSH_EVERY;
            if due {
                *last = Instant::now();
            }
            due
        };
        if due && let Ok(runtime) = tokio::runtime::Handle::try_current() {
            let (db, counts, writing) = (
                db.clone(),
                Arc::clone(&self.counts),
                Arc::clone(&self.writing),
            );
            runtime.spawn(async move {
                if let Err(e) = flush(&counts, &writing, &db).await {
                    tracing::warn!(error = %e, "could not record API usage yet");
                }
            });
        }
    }

    /// Writes what this instance has counted and not yet written (at shutdown).
    pub async fn flush(&self, db: &Db) -> Result<(), store::StoreError> {
        flush(&self.counts, &self.writing, db).await
    }

    /// Writes what this instance has counted, then reads the company's total today.
    pub async fn today(&self, db: &Db, company: CompanyId) -> Result<i64, store::StoreError> {
        self.flush(db).await?;
        store::console::usage(db, company, Utc::now().date_naive()).await
    }
}

/// Adds what `counts` holds to the database; what the database refuses goes back into
/// `counts` for the next flush (a SQLite import holds the write lock for a while): a
/// count is never lost to a busy database.
async fn flush(
    counts: &Mutex<Counts>,
    writing: &tokio::sync::Mutex<()>,
    db: &Db,
) -> Result<(), store::StoreError> {
    let _turn = writing.lock().await;
    let pending = std::mem::take(&mut *counts.lock().unwrap_or_else(|e| e.into_inner()));
    let written = store::console::add_usage(db, &pending).await;
    if written.is_err() {
        let mut counts = counts.lock().unwrap_or_else(|e| e.into_inner());
        for (key, n) in pending {
            *counts.entry(key).or_insert(0) += n;
        }
    }
    written
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A flush the database refuses hands its counts back, for the next flush.
    #[tokio::test]
    async fn counts_a_refused_flush_held_are_kept() {
        let db = Db::connect("sqlite::memory:").await.expect("connects");
        db.migrate().await.expect("migrates");
        let new = store::companies::NewCompany {
            name: "Usage".into(),
            subdomain: domain::Subdomain::parse("usage").expect("a subdomain"),
            plan: domain::Plan::Unlimited,
            owner_email: None,
            owner_password: None,
            enable_api: false,
        };
        let (company, _) = store::companies::create(&db, new).await.expect("creates");
        let usage = Usage::default();
        usage.record(&db, company.id);
        // The database goes away, and a flush is due.
        db.close();
        *usage.last_flush.lock().unwrap() = Instant::now() - FLUSH_EVERY;
        usage.record(&db, company.id);
        let today = Utc::now().date_naive();
        for _ in 0..200 {
            let kept = usage
                .counts
                .lock()
                .unwrap()
                .get(&(company.id, today))
                .copied();
            if kept == Some(2) {
                return;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        panic!("the counts were lost: {:?}", usage.counts.lock().unwrap());
    }
}
