//! Company-wide settings other operations consult: currency, and whether
//! reactivating a retired asset needs a location.

/// ISO 4217 codes of currencies in use. Kept sorted for binary search.
pub const CURRENCIES: &[&str] = &[
    "AED", "AFN", "ALL", "AMD", "ANG", "AOA", "ARS", "AUD", "AWG", "AZN", "BAM", "BBD", "BDT",
    "BGN", "BHD", "BIF", "BMD", "BND", "BOB", "BRL", "BSD", "BTN", "BWP", "BYN", "BZD", "CAD",
    "CDF", "CHF", "CLP", "CNY", "COP", "CRC", "CUP", "CVE", "CZK", "DJF", "DKK", "DOP", "DZD",
    "EGP", "ERN", "ETB", "EUR", "FJD", "FKP", "GBP", "GEL", "GHS", "GIP", "GMD", "GNF", "GTQ",
    "GYD", "HKD", "HNL", "HTG", "HUF", "IDR", "ILS", "INR", "IQD", "IRR", "ISK", "JMD", "JOD",
    "JPY", "KES", "KGS", "KHR", "KMF", "KPW", "KRW", "KWD", "KYD", "KZT", "LAK", "LBP", "LKR",
    "LRD", "LSL", "LYD", "MAD", "MDL", "MGA", "MKD", "MMK", "MNT", "MOP", "MRU", "MUR", "MVR",
    "MWK", "MXN", "MYR", "MZN", "NAD", "NGN", "NIO", "NOK", "NPR", "NZD", "OMR", "PAB", "PEN",
    "PGK", "PHP", "PKR", "PLN", "PYG", "QAR", "RON", "RSD", "RUB", "RWF", "SAR", "SBD", "SCR",
    "SDG", "SEK", "SGD", "SHP", "SLE", "SOS", "SRD", "SSP", "STN", "SVC", "SYP", "SZL", "THB",
    "TJS", "TMT", "TND", "TOP", "TRY", "TTD", "TWD", "TZS", "UAH", "UGX", "USD", "UYU", "UZS",
    "VES", "VND", "VUV", "WST", "XAF", "XCD", "XOF", "XPF", "YER", "ZAR", "ZMW", "ZWL",
];

/// A currency code (ISO 4217), stored upper-case.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Currency(String);

impl Currency {
    pub fn parse(raw: &str) -> Option<Self> {
        let code = raw.trim().to_ascii_uppercase();
        CURRENCIES
            .binary_search(&code.as_str())
            .ok()
            .map(|_| Currency(code))
    }

    pub fn usd() -> Self {
        Currency("USD".into())
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// Whether reactivating a retired asset needs a location.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ActivationLocation {
    Required,
    Optional,
    NotNeeded,
}

impl ActivationLocation {
    pub const NAMES: &'static str = "required, optional, not_needed";

    pub fn parse(raw: &str) -> Option<Self> {
        match raw
            .trim()
            .to_ascii_lowercase()
            .replace([' ', '-'], "_")
            .as_str()
        {
            "required" => Some(ActivationLocation::Required),
            "optional" => Some(ActivationLocation::Optional),
            "not_needed" => Some(ActivationLocation::NotNeeded),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            ActivationLocation::Required => "required",
            ActivationLocation::Optional => "optional",
            ActivationLocation::NotNeeded => "not_needed",
        }
    }
}

impl crate::Vocabulary for ActivationLocation {
    const ALL: &'static [Self] = &[
        ActivationLocation::Required,
        ActivationLocation::Optional,
        ActivationLocation::NotNeeded,
    ];

    fn as_str(self) -> &'static str {
        ActivationLocation::as_str(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn currencies_are_sorted_and_checked() {
        assert!(CURRENCIES.windows(2).all(|w| w[0] < w[1]));
        assert_eq!(Currency::parse("eur").unwrap().as_str(), "EUR");
        assert!(Currency::parse("EURO").is_none());
        assert!(Currency::parse("XYZ").is_none());
    }

    #[test]
    fn activation_location_values() {
        assert_eq!(
            ActivationLocation::parse("Not Needed"),
            Some(ActivationLocation::NotNeeded)
        );
        assert_eq!(ActivationLocation::parse("sometimes"), None);
    }
}
