//! The rate-limit rule as a pure function over a company's window state, so the
//! in-process limiter and the database limiter apply exactly the same rule.
//!
//! Fixed windows aligned to multiples of the window length. A refused request is
//! never counted as served. A request made while the company is blocked (an early
//! retry) restarts the wait it was told, so the new `Retry-After` is never shorter
//! than the one given before.

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
        // An early retry: the full wait starts again.
        next.blocked_until = now + state.block_secs;
        let retry = next.blocked_until - now;
        return (
            next,
            Decision::Refused {
                limit: requests,
                retry_after_secs: secs(retry),
            },
        );
    }
    if state.window_start != current_start {
        next.window_start = current_start;
        next.used = 0;
    }
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
