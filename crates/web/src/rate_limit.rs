//! Per-company rate limiting, in this process or in the database. Both apply the
//! same rule (`domain::rate_limit::decide`).

use domain::rate_limit::{Decision, WindowState, decide};
use domain::{CompanyId, RateLimitPolicy};
use std::collections::HashMap;
use std::sync::Mutex;
use store::{Db, StoreError};

pub enum Limiter {
    InProcess(Mutex<HashMap<CompanyId, WindowState>>),
    Shared,
}

/// What an unlimited company is told: integer headers keep clients that parse them working.
pub const UNLIMITED: u32 = i32::MAX as u32;

impl Limiter {
    pub fn in_process() -> Self {
        Limiter::InProcess(Mutex::new(HashMap::new()))
    }

    pub fn shared() -> Self {
        Limiter::Shared
    }

    pub async fn check(
        &self,
        db: &Db,
        company: CompanyId,
        policy: RateLimitPolicy,
    ) -> Result<Decision, StoreError> {
        let RateLimitPolicy::Limited {
            requests,
            window_secs,
        } = policy
        else {
            return Ok(Decision::Allowed {
                limit: UNLIMITED,
                remaining: UNLIMITED,
            });
        };
        match self {
            Limiter::InProcess(windows) => {
                let now = chrono::Utc::now().timestamp();
                let mut windows = windows.lock().unwrap_or_else(|e| e.into_inner());
                let state = windows.entry(company).or_default();
                let (next, decision) = decide(*state, now, requests, window_secs);
                *state = next;
                Ok(decision)
            }
            Limiter::Shared => {
                // The database's clock: instances whose clocks differ agree on the window.
                store::rate_limits::take(db, company, requests, window_secs).await
            }
        }
    }
}
