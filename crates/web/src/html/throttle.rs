//! How many failed log-ins and sign-ups are allowed, and the message when they are not.

use store::console::{self, Throttle};

use crate::state::AppState;

/// Failed log-ins allowed per account, and per client address, in 15 minutes.
pub(crate) const ACCOUNT_THROTTLE: Throttle = Throttle {
    limit: 5,
    window_secs: 900,
};

/// Sign-ups allowed per client address in an hour.
pub(crate) const SIGNUP_THROTTLE: Throttle = Throttle {
    limit: 10,
    window_secs: 3600,
};

pub(crate) const ADDRESS_THROTTLE: Throttle = Throttle {
    limit: 20,
    window_secs: 900,
};

/// Takes one attempt of a log-in's account key and of its client address before the
/// password is checked, so parallel guesses cannot all pass the limit. Over either
/// limit, both are given back and the answer is the seconds to wait. Attempts that
/// check no password, or the right one ([`logged_in`]), are given back too, so what
/// counts is failed checks.
pub(crate) async fn take_log_in(
    state: &AppState,
    account: &str,
    address: &str,
) -> Result<Option<i64>, store::StoreError> {
    let mut wait = None;
    for (key, throttle) in [(account, &ACCOUNT_THROTTLE), (address, &ADDRESS_THROTTLE)] {
        if let Some(w) = console::take_attempt(state.db(), key, throttle).await? {
            wait = wait.max(Some(w));
        }
    }
    if wait.is_some() {
        give_back(state, &[account, address]).await?;
    }
    Ok(wait)
}

/// The right password: the account's failures are forgotten and the address's attempt
/// given back.
pub(crate) async fn logged_in(
    state: &AppState,
    account: &str,
    address: &str,
) -> Result<(), store::StoreError> {
    console::clear_failures(state.db(), account).await?;
    give_back(state, &[address]).await
}

pub(crate) async fn give_back(state: &AppState, keys: &[&str]) -> Result<(), store::StoreError> {
    for key in keys {
        console::give_back(state.db(), key).await?;
    }
    Ok(())
}

/// "Too many failed log-ins. Try again in 15 minutes."
pub(crate) fn too_many(wait_secs: i64, what: &str) -> String {
    let minutes = (wait_secs + 59) / 60;
    format!(
        "Too many {what}. Try again in {minutes} minute{}.",
        if minutes == 1 { "" } else { "s" }
    )
}
