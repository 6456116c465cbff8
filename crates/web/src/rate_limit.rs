//! Per-company rate limiting, in this process or in the database, and per client
//! address (label links, which carry no API token) in this process. All apply the
//! same rule (`domain::rate_limit::decide`).

use domain::RateLimitPolicy;
use domain::rate_limit::{Decision, WindowState, decide};
use std::collections::HashMap;
use std::sync::Mutex;
use store::CompanyId;
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

/// Windows per client address, kept in this process: for routes outside the API that
/// have no company token to count against (`/labels/<token>.pdf`).
pub struct AddressLimiter {
    policy: RateLimitPolicy,
    windows: Mutex<HashMap<String, WindowState>>,
}

/// Addresses remembered before windows that have ended are dropped.
const ADDRESSES_KEPT: usize = 10_000;

impl AddressLimiter {
    pub fn new(policy: RateLimitPolicy) -> Self {
        AddressLimiter {
            policy,
            windows: Mutex::new(HashMap::new()),
        }
    }

    /// Counts one request from `address`, or refuses it.
    pub fn check(&self, address: &str) -> Decision {
        let RateLimitPolicy::Limited {
            requests,
            window_secs,
        } = self.policy
        else {
            return Decision::Allowed {
                limit: UNLIMITED,
                remaining: UNLIMITED,
            };
        };
        let now = chrono::Utc::now().timestamp();
        let mut windows = self.windows.lock().unwrap_or_else(|e| e.into_inner());
        if windows.len() >= ADDRESSES_KEPT && !windows.contains_key(address) {
            // A window that has ended and blocks nobody decides nothing any more.
            let window = i64::from(window_secs.max(1));
            windows.retain(|_, w| w.window_start + window > now || w.blocked_until > now);
        }
        let state = windows.entry(address.to_owned()).or_default();
        let (next, decision) = decide(*state, now, requests, window_secs);
        *state = next;
        decision
    }
}
