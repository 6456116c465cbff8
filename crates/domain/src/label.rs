//! Labels: what a print template is for.

use crate::Vocabulary;

/// The records a label template prints (`template_type`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TemplateType {
    Asset,
    Member,
    Location,
}

impl Vocabulary for TemplateType {
    const ALL: &'static [Self] = &[
        TemplateType::Asset,
        TemplateType::Member,
        TemplateType::Location,
    ];

    fn as_str(self) -> &'static str {
        match self {
            TemplateType::Asset => "asset",
            TemplateType::Member => "member",
            TemplateType::Location => "location",
        }
    }
}

/// The most labels one request may ask for.
pub const MAX_LABELS: usize = 1000;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vocabulary::assert_words_read_back;

    #[test]
    fn words_read_back() {
        assert_words_read_back::<TemplateType>();
        assert_eq!(TemplateType::names(), "asset, member, location");
    }
}
