//! The rate-limit rule as a pure function over a company's window state, so the
//! in-process limiter and the database limiter apply exactly the same rule.
//!
//! Fixed windows aligned to multiples of the window length. A refused request is
//! never counted as served. A request made while the company is blocked (an early
//! retry) restarts the wait it was told, so the new `Retry-After` is never shorter
//! than the one given before; but a block never lasts past the end of the window it
//! began in plus `PENALTY_SECS`, so a client retrying early for ever is not blocked for
//! ever. Windows only move forward: a request stamped earlier than the current window
//! (another instance's clock a little behind) counts in the current window instead of
//! resetting it.

/// How far past its window's end an early retry may push a block.
pub const PENALTY_SECS: i64 = 60;

/// What is remembered per company. Times are Unix seconds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct WindowState {
    pub window_start: i64,
    pub used: i64,
    pub blocked_until: i64,
    pub block_secs: i64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Decision {
    Allowed { limit: u32, remaining: u32 },
    Refused { limit: u32, retry_after_secs: u32 },
}

pub fn decide(
    state: WindowState,
    now: i64,
    requests: u32,
    window_secs: u32,
) -> (WindowState, Decision) {
    let window = i64::from(window_secs.max(1));
    let current_start = now - now.rem_euclid(window);
    let mut next = state;

    if state.blocked_until > now {
        // An early retry: the full wait starts again, up to the cap.
        let cap = state.window_start + window + PENALTY_SECS;
        next.blocked_until = (now + state.block_secs).min(cap).max(state.blocked_until);
        let retry = next.blocked_until - now;
        return (
            next,
            Decision::Refused {
                limit: requests,
                retry_after_secs: secs(retry),
            },
        );
    }
    if current_start > state.window_start {
        next.window_start = current_start;
        next.used = 0;
    }
    let current_start = next.window_start;
    if next.used >= i64::from(requests) {
        let wait = (current_start + window - now).max(1);
        next.blocked_until = now + wait;
        next.block_secs = wait;
        return (
            next,
            Decision::Refused {
                limit: requests,
                retry_after_secs: secs(wait),
            },
        );
    }
    next.used += 1;
    let remaining = i64::from(requests) - next.used;
    (
        next,
        Decision::Allowed {
            limit: requests,
            remaining: secs(remaining),
        },
    )
}

fn secs(n: i64) -> u32 {
    u32::try_from(n.max(0)).unwrap_or(u32::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_block_ends_at_its_window_end_plus_the_penalty_however_often_retried() {
        let day = 86_400;
        let start = 1_700_006_400 - 1_700_006_400 % day;
        let mut s = WindowState::default();
        let (n, _) = decide(s, start + 10, 1, day as u32);
        s = n;
        // Blocked two hours in; then a retry every hour, each early.
        let (n, d) = decide(s, start + 7_200, 1, day as u32);
        assert!(
            matches!(d, Decision::Refused { retry_after_secs, .. } if i64::from(retry_after_secs) == day - 7_200)
        );
        s = n;
        let mut t = start + 7_200;
        let mut last_retry = i64::MAX;
        loop {
            t += 3_600;
            let (n, d) = decide(s, t, 1, day as u32);
            s = n;
            match d {
                Decision::Refused {
                    retry_after_secs, ..
                } => {
                    let until = t + i64::from(retry_after_secs);
                    assert!(
                        until <= start + day + PENALTY_SECS,
                        "blocked past the cap: {until}"
                    );
                    assert!(
                        t + i64::from(retry_after_secs) >= last_retry.min(until),
                        "never shorter than promised"
                    );
                    last_retry = until;
                }
                Decision::Allowed { .. } => break,
            }
            assert!(t < start + 3 * day, "blocked for ever");
        }
        assert!(
            t <= start + day + PENALTY_SECS + 3_600,
            "served again right after the cap: {}",
            t - start
        );
    }

    #[test]
    fn an_early_retry_never_shortens_the_wait_it_was_told() {
        let mut s = WindowState::default();
        let start = 6_000;
        let (n, _) = decide(s, start, 1, 60);
        s = n;
        let (n, d) = decide(s, start + 50, 1, 60);
        assert_eq!(
            d,
            Decision::Refused {
                limit: 1,
                retry_after_secs: 10
            }
        );
        s = n;
        // Retried just before each deadline: it only moves later, and stops at the cap.
        let mut promised = start + 60;
        while promised < start + 60 + PENALTY_SECS {
            let t = promised - 1;
            let (n, d) = decide(s, t, 1, 60);
            s = n;
            let Decision::Refused {
                retry_after_secs, ..
            } = d
            else {
                panic!("served while blocked at {t}")
            };
            let until = t + i64::from(retry_after_secs);
            assert!(
                until >= promised,
                "at {t} told {until}, earlier than {promised}"
            );
            assert!(until <= start + 60 + PENALTY_SECS);
            promised = until;
        }
        let (_, d) = decide(s, promised, 1, 60);
        assert!(
            matches!(d, Decision::Allowed { .. }),
            "served once the capped block ends"
        );
    }

    #[test]
    fn a_window_never_moves_backward() {
        let start = 60_000;
        let mut s = WindowState::default();
        // An instance with a good clock serves 2 of 3 in the window starting at `start`.
        for _ in 0..2 {
            let (n, _) = decide(s, start + 1, 3, 60);
            s = n;
        }
        // Another instance's clock is 5 s behind, in the previous window: it must not
        // reset the count.
        let (n, d) = decide(s, start - 4, 3, 60);
        assert_eq!(
            d,
            Decision::Allowed {
                limit: 3,
                remaining: 0
            }
        );
        assert_eq!(n.window_start, start);
        s = n;
        let (_, d) = decide(s, start - 3, 3, 60);
        assert!(
            matches!(d, Decision::Refused { .. }),
            "the limit holds across the skew"
        );
    }

    #[test]
    fn counts_then_refuses_then_resets() {
        let mut s = WindowState::default();
        let now = 1_000_020; // 20 s into a 60 s window starting at 1_000_020 - 20 % 60...
        let start = now - now % 60;
        for i in 0..3 {
            let (n, d) = decide(s, now, 3, 60);
            assert_eq!(
                d,
                Decision::Allowed {
                    limit: 3,
                    remaining: 2 - i
                }
            );
            s = n;
        }
        let (n, d) = decide(s, now, 3, 60);
        let wait = (start + 60 - now) as u32;
        assert_eq!(
            d,
            Decision::Refused {
                limit: 3,
                retry_after_secs: wait
            }
        );
        s = n;
        // Early retry five seconds later: told to wait the full time again.
        let (n, d) = decide(s, now + 5, 3, 60);
        assert_eq!(
            d,
            Decision::Refused {
                limit: 3,
                retry_after_secs: wait
            }
        );
        assert_eq!(n.used, 3, "refusals are not counted as served");
        s = n;
        // After waiting as told, the next window serves again.
        let later = n.blocked_until;
        let (_, d) = decide(s, later, 3, 60);
        assert_eq!(
            d,
            Decision::Allowed {
                limit: 3,
                remaining: 2
            }
        );
    }
}
