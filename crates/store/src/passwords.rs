//! Owner passwords: argon2 hashing and checking, off the async workers. Each run takes
//! tens of milliseconds of CPU, so it runs on tokio's blocking pool, and at most
//! `PERMITS` run at once: a burst of log-ins or sign-ups waits its turn instead of
//! taking every core from the requests of other tenants.

use argon2::Argon2;
use argon2::password_hash::{
    PasswordHash, PasswordHasher, PasswordVerifier, SaltString, rand_core::OsRng,
};
use std::sync::OnceLock;
use tokio::sync::Semaphore;

use crate::StoreError;

/// How many hashes may run at once: one core fewer than the machine has (at least one),
/// so the async workers always keep a core.
fn permits() -> &'static Semaphore {
    static PERMITS: OnceLock<Semaphore> = OnceLock::new();
    PERMITS.get_or_init(|| {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        Semaphore::new(cores.saturating_sub(1).max(1))
    })
}

/// Runs `work` on the blocking pool once a permit is free.
async fn off_the_runtime<T: Send + 'static>(
    work: impl FnOnce() -> T + Send + 'static,
) -> Result<T, StoreError> {
    let _permit = permits()
        .acquire()
        .await
        .map_err(|e| StoreError::Config(format!("password hashing stopped: {e}")))?;
    tokio::task::spawn_blocking(work)
        .await
        .map_err(|e| StoreError::Config(format!("password hashing failed: {e}")))
}

fn hash_now(password: &str) -> Result<String, StoreError> {
    let salt = SaltString::generate(&mut OsRng);
    Argon2::default()
        .hash_password(password.as_bytes(), &salt)
        .map(|h| h.to_string())
        .map_err(|e| StoreError::Config(format!("cannot hash password: {e}")))
}

/// A fixed hash checked when the account does not exist, so an unknown e-mail costs
/// the same time as a wrong password.
fn decoy_hash() -> &'static str {
    static DECOY: OnceLock<String> = OnceLock::new();
    DECOY.get_or_init(|| hash_now("not-a-real-password").unwrap_or_default())
}

/// The argon2 hash of `password`, in PHC string form.
#[tracing::instrument(level = "debug", skip_all)]
pub async fn hash(password: &str) -> Result<String, StoreError> {
    let password = password.to_owned();
    off_the_runtime(move || hash_now(&password)).await?
}

/// True when `password` matches `hash`. Without a hash (no such account) a decoy is
/// checked, which takes the same time and never matches.
#[tracing::instrument(level = "debug", skip_all)]
pub async fn verify(password: &str, hash: Option<String>) -> Result<bool, StoreError> {
    let password = password.to_owned();
    off_the_runtime(move || {
        let matches = |hash: &str| {
            PasswordHash::new(hash).is_ok_and(|parsed| {
                Argon2::default()
                    .verify_password(password.as_bytes(), &parsed)
                    .is_ok()
            })
        };
        match hash {
            Some(h) => matches(&h),
            None => {
                matches(decoy_hash());
                false
            }
        }
    })
    .await
}
