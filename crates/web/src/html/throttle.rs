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
