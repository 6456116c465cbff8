//! Items, as far as the catalog rules need them today: the kinds of item.

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

impl AssetType {
    pub const ALL: [AssetType; 3] = [
        AssetType::FixedAsset,
        AssetType::VolatileAsset,
        AssetType::StockAsset,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            AssetType::FixedAsset => "FixedAsset",
            AssetType::VolatileAsset => "VolatileAsset",
            AssetType::StockAsset => "StockAsset",
        }
    }

    pub fn parse(raw: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|t| t.as_str() == raw)
    }

    /// The names of every kind, for a message listing them.
    pub fn names() -> String {
        Self::ALL.map(Self::as_str).join(", ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_read_back() {
        for t in AssetType::ALL {
            assert_eq!(AssetType::parse(t.as_str()), Some(t));
        }
        assert_eq!(AssetType::parse("fixedasset"), None);
    }
}
