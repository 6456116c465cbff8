use std::fmt;

/// A record name: trimmed, never empty, at most 255 characters. Assets, groups and
/// subgroups need at least three ([`Name::parse`], the spec's rule for them); other
/// names, such as a location's or a vendor's, are only required
/// ([`Name::parse_required`]): "HQ" and "3M" are names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Name(String);

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NameError {
    #[error("can't be blank")]
    Blank,
    #[error("is too short (minimum is 3 characters)")]
    TooShort,
    #[error("is too long (maximum is 255 characters)")]
    TooLong,
}

impl Name {
    pub const MIN_CHARS: usize = 3;
    pub const MAX_CHARS: usize = 255;

    /// A name of at least [`Name::MIN_CHARS`] characters (assets, groups, subgroups).
    pub fn parse(raw: &str) -> Result<Self, NameError> {
        Self::parse_at_least(raw, Self::MIN_CHARS)
    }

    /// A name of any length from one character (locations, vendors).
    pub fn parse_required(raw: &str) -> Result<Self, NameError> {
        Self::parse_at_least(raw, 1)
    }

    fn parse_at_least(raw: &str, min: usize) -> Result<Self, NameError> {
        let trimmed = raw.trim();
        let chars = trimmed.chars().count();
        if chars == 0 {
            Err(NameError::Blank)
        } else if chars < min {
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

/// A name as a search compares it: each character in lower case by Unicode's mapping,
/// one character at a time (so a word's letters fold as they do inside a name), and
/// the final sigma as a sigma. The same text on every database, whatever its collation.
pub fn folded(name: &str) -> String {
    name.chars()
        .flat_map(char::to_lowercase)
        .map(|c| if c == 'ς' { 'σ' } else { c })
        .collect()
}

/// The words of a name search, folded as names are, each once, in order: a name
/// matches when it holds every one.
pub fn search_words(text: &str) -> Vec<String> {
    let mut words: Vec<String> = text.split_whitespace().map(folded).collect();
    words.sort();
    words.dedup();
    words
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

    #[test]
    fn required_names_may_be_short_but_not_blank() {
        assert_eq!(Name::parse_required(" HQ ").unwrap().as_str(), "HQ");
        assert_eq!(Name::parse_required("3M").unwrap().as_str(), "3M");
        assert_eq!(Name::parse_required("x").unwrap().as_str(), "x");
        assert_eq!(Name::parse_required("  "), Err(NameError::Blank));
        assert_eq!(
            Name::parse_required(&"x".repeat(256)),
            Err(NameError::TooLong)
        );
        assert_eq!(Name::parse(""), Err(NameError::Blank));
    }

    #[test]
    fn searches_fold_letter_by_letter() {
        assert_eq!(folded("Makita DRILL"), "makita drill");
        assert_eq!(folded("ДРЕЛЬ Bosch"), "дрель bosch");
        // The final sigma folds as a sigma, so a word's end matches inside a name.
        assert_eq!(folded("ΟΔΟΣ"), folded("οδοσ"));
        assert_eq!(folded("οδος"), "οδοσ");
        // Scripts without case are kept as they are.
        assert_eq!(folded("電動ドリル"), "電動ドリル");
        assert_eq!(
            search_words("  Drill  drill BOSCH "),
            vec!["bosch".to_owned(), "drill".to_owned()]
        );
        assert!(search_words(" \t ").is_empty());
    }
}
