//! Counts API requests per company and UTC day for the settings page. Counts gather
//! in memory and are added to the database at most every few seconds, by whichever
//! request notices they are due, so serving a request never waits on a write and
//! every instance's share ends up in the same total.

use chrono::{NaiveDate, Utc};
use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};
use store::CompanyId;
use store::Db;

const FLUSH_EVERY: Duration = Duration::from_secs(5);

pub struct Usage {
    counts: Mutex<HashMap<(CompanyId, NaiveDate), i64>>,
    last_flush: Mutex<Instant>,
}

impl Default for Usage {
    fn default() -> Self {
        Usage {
            counts: Mutex::new(HashMap::new()),
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
            let pending = self.take();
            let db = db.clone();
            runtime.spawn(async move {
                if let Err(e) = store::console::add_usage(&db, &pending).await {
                    tracing::warn!(error = %e, "could not record API usage");
                }
            });
        }
    }

    fn take(&self) -> HashMap<(CompanyId, NaiveDate), i64> {
        std::mem::take(&mut *self.counts.lock().unwrap_or_else(|e| e.into_inner()))
    }

    /// Writes what this instance has counted, then reads the company's total today.
    pub async fn today(&self, db: &Db, company: CompanyId) -> Result<i64, store::StoreError> {
        let pending = self.take();
        store::console::add_usage(db, &pending).await?;
        store::console::usage(db, company, Utc::now().date_naive()).await
    }
}
