//! Payment options: the ways a company takes payment (`basket[payment_method_name]`
//! names one), each of a kind. Every company has Cash, Check and Credit Card from the
//! start ([`DEFAULT_OPTIONS`]).

use crate::Vocabulary;

/// What kind of payment an option takes. Credit-card payments cannot be charged or
/// voided through the API (the spec), so orders look at the kind, not the name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PaymentKind {
    Cash,
    Check,
    CreditCard,
    Other,
}

impl Vocabulary for PaymentKind {
    const ALL: &'static [Self] = &[
        PaymentKind::Cash,
        PaymentKind::Check,
        PaymentKind::CreditCard,
        PaymentKind::Other,
    ];

    fn as_str(self) -> &'static str {
        match self {
            PaymentKind::Cash => "cash",
            PaymentKind::Check => "check",
            PaymentKind::CreditCard => "credit_card",
            PaymentKind::Other => "other",
        }
    }
}

/// The options every company starts with, in this order.
pub const DEFAULT_OPTIONS: [(&str, PaymentKind); 3] = [
    ("Cash", PaymentKind::Cash),
    ("Check", PaymentKind::Check),
    ("Credit Card", PaymentKind::CreditCard),
];

/// What two names of one payment option share: the name trimmed and lower-cased
/// ("Credit Card", " credit card " and "CREDIT CARD" are one option).
pub fn name_key(name: &str) -> String {
    name.trim().to_lowercase()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vocabulary::assert_words_read_back;

    #[test]
    fn words_read_back() {
        assert_words_read_back::<PaymentKind>();
        assert_eq!(PaymentKind::names(), "cash, check, credit_card, other");
        assert_eq!(
            PaymentKind::parse_loosely("Credit Card"),
            Some(PaymentKind::CreditCard)
        );
    }

    #[test]
    fn names_match_whatever_their_case() {
        assert_eq!(name_key(" Credit Card "), name_key("CREDIT CARD"));
        assert_eq!(name_key("Ärzte-Konto"), "ärzte-konto");
        assert_ne!(name_key("Check"), name_key("Cheque"));
        for (name, _) in DEFAULT_OPTIONS {
            assert_eq!(name_key(name), name.to_lowercase());
        }
    }
}
