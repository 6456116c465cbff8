//! The company of a token, remembered per instance for at most [`Config::company_ttl`]
//! (1 s by default), keyed by the token's SHA-256: the one query every API request
//! made before its own (the token's company) is then made about once a second per
//! token, whatever the load.
//!
//! The bound: a regenerated token, a disabled API, a plan, rate limit or setting
//! changed by another instance (or the CLI) takes effect here within `company_ttl`.
//! A change made through this instance (the console, company settings) forgets every
//! entry at once, so it takes effect on the next request here. Only tokens that named
//! a company are remembered (an unknown token is looked up every time, as before), and
//! the map is emptied when it would hold more than [`MAX_ENTRIES`] tokens.
//!
//! [`Config::company_ttl`]: crate::state::Config::company_ttl

use std::collections::HashMap;
use std::sync::RwLock;
use std::time::{Duration, Instant};

use store::companies::{self, Company};
use store::{Db, StoreError};

/// The most tokens remembered at once.
pub const MAX_ENTRIES: usize = 100_000;

pub struct CompanyCache {
    ttl: Duration,
    entries: RwLock<HashMap<String, (Company, Instant)>>,
}

impl CompanyCache {
    pub fn new(ttl: Duration) -> Self {
        CompanyCache {
            ttl,
            entries: RwLock::new(HashMap::new()),
        }
    }

    /// The company whose token is `token`, from memory if it was read less than the
    /// TTL ago, else from the database.
    pub async fn company(&self, db: &Db, token: &str) -> Result<Option<Company>, StoreError> {
        let hash = companies::hash_token(token);
        if !self.ttl.is_zero()
            && let Some((company, at)) = self.read().get(&hash)
            && at.elapsed() < self.ttl
        {
            return Ok(Some(company.clone()));
        }
        let found = companies::authenticate_hashed(db, &hash).await?;
        if !self.ttl.is_zero() {
            let mut entries = self.write();
            match &found {
                Some(company) => {
                    if entries.len() >= MAX_ENTRIES {
                        entries.clear();
                    }
                    entries.insert(hash, (company.clone(), Instant::now()));
                }
                None => {
                    entries.remove(&hash);
                }
            }
        }
        Ok(found)
    }

    /// Forgets every company: after a change made through this instance.
    pub fn forget_all(&self) {
        self.write().clear();
    }

    fn read(&self) -> std::sync::RwLockReadGuard<'_, HashMap<String, (Company, Instant)>> {
        self.entries
            .read()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    fn write(&self) -> std::sync::RwLockWriteGuard<'_, HashMap<String, (Company, Instant)>> {
        self.entries
            .write()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}
