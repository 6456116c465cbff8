use rust_decimal::Decimal;
use std::collections::BTreeMap;
use std::str::FromStr;

/// How a group's assets depreciate. The spec's default is useful life in months.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DepreciationMode {
    UsefulLife,
    Percentage,
}

impl DepreciationMode {
    pub fn as_str(self) -> &'static str {
        match self {
            DepreciationMode::UsefulLife => "Useful Life",
            DepreciationMode::Percentage => "Percentage",
        }
    }

    pub fn parse(raw: &str) -> Option<Self> {
        match raw.trim().to_ascii_lowercase().as_str() {
            "useful life" | "useful_life" => Some(DepreciationMode::UsefulLife),
            "percentage" => Some(DepreciationMode::Percentage),
            _ => None,
        }
    }

    /// A rate is a whole number of months (1 to 1200) under useful life, and a
    /// percentage per year above 0 and at most 100 under percentage mode.
    pub fn parse_rate(self, raw: &str) -> Result<Decimal, String> {
        let value = Decimal::from_str(raw.trim()).map_err(|_| "is not a number".to_owned())?;
        match self {
            DepreciationMode::UsefulLife => {
                if value.fract().is_zero() && value >= Decimal::ONE && value <= Decimal::from(1200)
                {
                    Ok(value.normalize())
                } else {
                    Err("must be a whole number of months from 1 to 1200".into())
                }
            }
            DepreciationMode::Percentage => {
                if value > Decimal::ZERO && value <= Decimal::ONE_HUNDRED {
                    Ok(value.normalize())
                } else {
                    Err("must be a percentage greater than 0 and at most 100".into())
                }
            }
        }
    }
}

impl DepreciationMode {
    /// A group switching to this mode without new rates keeps its stored ones (method
    /// name and rate), so each must fit this mode. `Err`: the problem with
    /// `depreciation_rates`.
    pub fn check_kept_rates<'a>(
        self,
        stored: impl IntoIterator<Item = (&'a str, &'a str)>,
    ) -> Result<(), String> {
        for (method, rate) in stored {
            if let Err(problem) = self.parse_rate(rate) {
                return Err(format!(
                    "{method} = {rate} does not fit mode {}: {problem}; send depreciation_rates for the new mode",
                    self.as_str()
                ));
            }
        }
        Ok(())
    }
}

/// Rates keyed by depreciation method name, kept in name order.
pub type DepreciationRates = BTreeMap<String, Decimal>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kept_rates_must_fit_a_new_mode() {
        let months = DepreciationMode::UsefulLife;
        assert!(months.check_kept_rates([("Straight Line", "48")]).is_ok());
        let problem = months
            .check_kept_rates([("Straight Line", "48"), ("Sum of Years", "12.5")])
            .unwrap_err();
        assert!(
            problem.starts_with("Sum of Years = 12.5 does not fit mode Useful Life"),
            "{problem}"
        );
    }

    #[test]
    fn rates_follow_the_mode() {
        assert!(DepreciationMode::UsefulLife.parse_rate("36").is_ok());
        assert!(DepreciationMode::UsefulLife.parse_rate("36.5").is_err());
        assert!(DepreciationMode::Percentage.parse_rate("12.5").is_ok());
        assert!(DepreciationMode::Percentage.parse_rate("101").is_err());
        assert!(DepreciationMode::Percentage.parse_rate("0").is_err());
        assert_eq!(
            DepreciationMode::parse("useful life"),
            Some(DepreciationMode::UsefulLife)
        );
    }
}
