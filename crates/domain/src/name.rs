use std::fmt;

/// A record name: trimmed, at least three characters (the spec's rule for assets,
/// groups, subgroups, locations and vendors), at most 255.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Name(String);

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NameError {
    #[error("is too short (minimum is 3 characters)")]
    TooShort,
    #[error("is too long (maximum is 255 characters)")]
    TooLong,
}

impl Name {
    pub const MIN_CHARS: usize = 3;
    pub const MAX_CHARS: usize = 255;

    pub fn parse(raw: &str) -> Result<Self, NameError> {
        let trimmed = raw.trim();
        let chars = trimmed.chars().count();
        if chars < Self::MIN_CHARS {
            Err(NameError::TooShort)
        } else if chars > Self::MAX_CHARS {
            Err(NameError::TooLong)
        } else {
            Ok(Name(trimmed.to_owned()))
        }
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    pub fn into_string(self) -> String {
        self.0
    }
}

impl fmt::Display for Name {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_characters_not_bytes() {
        assert!(Name::parse("åäö").is_ok());
        assert_eq!(Name::parse(" ab "), Err(NameError::TooShort));
        assert_eq!(Name::parse(&"x".repeat(256)), Err(NameError::TooLong));
        assert_eq!(Name::parse("  Depot  ").unwrap().as_str(), "Depot");
    }
}
