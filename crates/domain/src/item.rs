//! Items, as far as the catalog rules need them today: the kinds of item.

use crate::Vocabulary;

/// The kind of an item, as `asset_type` names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AssetType {
    /// A fixed asset, tracked one by one.
    FixedAsset,
    /// Inventory that is used up.
    VolatileAsset,
    /// Stock kept in quantities.
    StockAsset,
}

impl Vocabulary for AssetType {
    const ALL: &'static [Self] = &[
        AssetType::FixedAsset,
        AssetType::VolatileAsset,
        AssetType::StockAsset,
    ];

    fn as_str(self) -> &'static str {
        match self {
            AssetType::FixedAsset => "FixedAsset",
            AssetType::VolatileAsset => "VolatileAsset",
            AssetType::StockAsset => "StockAsset",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_read_back() {
        crate::vocabulary::assert_words_read_back::<AssetType>();
        assert_eq!(
            AssetType::parse("fixedasset"),
            None,
            "exact: the database checks it"
        );
    }
}
