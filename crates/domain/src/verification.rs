//! Verification (audit) of possession: the answers a custodian may give, and the
//! statuses a verification goes through.

use crate::Vocabulary;

/// `audit[response]`. Left out, the possession counts as `Verified`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AuditResponse {
    Verified,
    NotInPossession,
    Damaged,
    Lost,
}

impl Vocabulary for AuditResponse {
    const ALL: &'static [Self] = &[
        AuditResponse::Verified,
        AuditResponse::NotInPossession,
        AuditResponse::Damaged,
        AuditResponse::Lost,
    ];

    fn as_str(self) -> &'static str {
        match self {
            AuditResponse::Verified => "Verified",
            AuditResponse::NotInPossession => "Not in possession",
            AuditResponse::Damaged => "Damaged",
            AuditResponse::Lost => "Lost",
        }
    }
}

impl AuditResponse {
    /// A response as a client types it: any case, underscores for spaces.
    pub fn parse_typed(raw: &str) -> Option<Self> {
        let norm = |s: &str| s.trim().to_ascii_lowercase().replace(['_', '-'], " ");
        let raw = norm(raw);
        Self::ALL.iter().copied().find(|r| norm(r.as_str()) == raw)
    }
}

/// Where a verification stands. A request starts `Pending`; the custodian's answer
/// makes it `Verified` (whatever the answer), a cancellation `Cancelled`. An answer
/// without a request is recorded `Verified` at once. `Verified` and `Cancelled` are
/// final: a new request starts a new verification.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VerificationStatus {
    Pending,
    Verified,
    Cancelled,
}

impl Vocabulary for VerificationStatus {
    const ALL: &'static [Self] = &[
        VerificationStatus::Pending,
        VerificationStatus::Verified,
        VerificationStatus::Cancelled,
    ];

    fn as_str(self) -> &'static str {
        match self {
            VerificationStatus::Pending => "pending",
            VerificationStatus::Verified => "verified",
            VerificationStatus::Cancelled => "cancelled",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statuses_read_back() {
        crate::vocabulary::assert_words_read_back::<VerificationStatus>();
    }

    #[test]
    fn responses_read_in_any_case() {
        crate::vocabulary::assert_words_read_back::<AuditResponse>();
        assert_eq!(
            AuditResponse::parse_typed("not_in_possession"),
            Some(AuditResponse::NotInPossession)
        );
        assert_eq!(
            AuditResponse::parse_typed("VERIFIED"),
            Some(AuditResponse::Verified)
        );
        assert_eq!(AuditResponse::parse_typed("maybe"), None);
    }
}
