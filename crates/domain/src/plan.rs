use std::fmt;
use std::str::FromStr;

/// A company's plan. It sets the default rate limit; an operator may override the
/// limit per company.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Plan {
    Trial,
    Paid,
    Unlimited,
}

impl Plan {
    pub fn as_str(self) -> &'static str {
        match self {
            Plan::Trial => "trial",
            Plan::Paid => "paid",
            Plan::Unlimited => "unlimited",
        }
    }

    pub fn default_policy(self) -> RateLimitPolicy {
        match self {
            Plan::Trial => RateLimitPolicy::Limited {
                requests: 1000,
                window_secs: 86_400,
            },
            Plan::Paid => RateLimitPolicy::Limited {
                requests: 60,
                window_secs: 60,
            },
            Plan::Unlimited => RateLimitPolicy::Unlimited,
        }
    }
}

impl fmt::Display for Plan {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Plan {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "trial" => Ok(Plan::Trial),
            "paid" => Ok(Plan::Paid),
            "unlimited" => Ok(Plan::Unlimited),
            other => Err(format!(
                "unknown plan {other:?}: use trial, paid or unlimited"
            )),
        }
    }
}

/// How many requests a company may make per fixed window.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RateLimitPolicy {
    Unlimited,
    Limited { requests: u32, window_secs: u32 },
}

impl RateLimitPolicy {
    /// Stored as two nullable columns: no request count means unlimited.
    pub fn from_columns(requests: Option<i64>, window_secs: Option<i64>) -> Self {
        match (requests, window_secs) {
            (Some(r), Some(w)) if r >= 0 && w > 0 => RateLimitPolicy::Limited {
                requests: u32::try_from(r).unwrap_or(u32::MAX),
                window_secs: u32::try_from(w).unwrap_or(u32::MAX),
            },
            _ => RateLimitPolicy::Unlimited,
        }
    }

    pub fn to_columns(self) -> (Option<i64>, Option<i64>) {
        match self {
            RateLimitPolicy::Unlimited => (None, None),
            RateLimitPolicy::Limited {
                requests,
                window_secs,
            } => (Some(i64::from(requests)), Some(i64::from(window_secs))),
        }
    }
}
