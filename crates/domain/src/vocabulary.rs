//! Closed sets of values the API names by words (`checked_out`, `FixedAsset`,
//! `text_area`): each set lists its values and their words once, and reading a word
//! back and listing the words in a message come from here.

/// A closed set of values, each named by a word.
pub trait Vocabulary: Copy + PartialEq + Sized + 'static {
    /// Every value, in the order messages list them.
    const ALL: &'static [Self];

    /// The value's word.
    fn as_str(self) -> &'static str;

    /// The value `raw` names, exactly (a stored word).
    fn parse(raw: &str) -> Option<Self> {
        Self::ALL.iter().copied().find(|v| v.as_str() == raw)
    }

    /// The value `raw` names with case, surrounding spaces, and spaces or hyphens for
    /// underscores aside (a word a client typed).
    fn parse_loosely(raw: &str) -> Option<Self> {
        Self::parse(&raw.trim().to_ascii_lowercase().replace([' ', '-'], "_"))
    }

    /// Every value's word, for a message listing them: `a, b, c`.
    fn names() -> String {
        let words: Vec<&str> = Self::ALL.iter().map(|v| v.as_str()).collect();
        words.join(", ")
    }
}

/// Checks that every word of `V` reads back as its value: for each vocabulary's tests.
#[cfg(test)]
pub(crate) fn assert_words_read_back<V: Vocabulary + std::fmt::Debug>() {
    for v in V::ALL {
        assert_eq!(V::parse(v.as_str()), Some(*v));
    }
    assert_eq!(V::parse("no such word"), None);
}

/// Whether a record is in use: `active` or `inactive` (a location's `status`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Activity {
    Active,
    Inactive,
}

impl Vocabulary for Activity {
    const ALL: &'static [Self] = &[Activity::Active, Activity::Inactive];

    fn as_str(self) -> &'static str {
        match self {
            Activity::Active => "active",
            Activity::Inactive => "inactive",
        }
    }
}
