//! Verification (audit) of possession: the answers a custodian may give.

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

#[cfg(test)]
mod tests {
    use super::*;

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
