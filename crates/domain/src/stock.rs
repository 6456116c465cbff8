//! Inventory and asset stock: quantities, the kinds of stock movement (`order_type`),
//! the statuses of a stock check-out, and when an item is low on stock.

use crate::Vocabulary;
use crate::item::AssetType;

/// A number of units moved at once: a whole number from 1 to [`Quantity::MAX`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Quantity(i64);

impl Quantity {
    /// More than any shop holds of one item, and far from overflowing a sum.
    pub const MAX: i64 = 1_000_000_000;

    pub fn parse(raw: &str) -> Result<Self, String> {
        let raw = raw.trim();
        match raw.parse::<i64>() {
            Ok(n) => Self::new(n),
            Err(_) => Err(format!("must be a whole number of units, not {raw:?}")),
        }
    }

    pub fn new(n: i64) -> Result<Self, String> {
        if (1..=Self::MAX).contains(&n) {
            Ok(Quantity(n))
        } else {
            Err(format!(
                "must be a whole number from 1 to {}, not {n}",
                Self::MAX
            ))
        }
    }

    pub fn get(self) -> i64 {
        self.0
    }
}

/// A movement of stock, as `order_type` names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OrderType {
    AddStock,
    NewSale,
    Transfer,
    Checkout,
    Checkin,
}

impl Vocabulary for OrderType {
    const ALL: &'static [Self] = &[
        OrderType::AddStock,
        OrderType::NewSale,
        OrderType::Transfer,
        OrderType::Checkout,
        OrderType::Checkin,
    ];

    fn as_str(self) -> &'static str {
        match self {
            OrderType::AddStock => "Add Stock",
            OrderType::NewSale => "New Sale",
            OrderType::Transfer => "Transfer",
            OrderType::Checkout => "checkout",
            OrderType::Checkin => "checkin",
        }
    }
}

impl OrderType {
    /// What `POST /<kind>/<n>/order.api` takes for an item of `kind`.
    pub fn orders_of(kind: AssetType) -> &'static [OrderType] {
        match kind {
            AssetType::VolatileAsset => &[OrderType::AddStock, OrderType::NewSale],
            AssetType::StockAsset => &[OrderType::AddStock, OrderType::Checkout],
            AssetType::FixedAsset => &[],
        }
    }

    /// Reads `order_type` for an item of `kind`, case and spaces aside
    /// (`add stock`, `Add_Stock`, `new sale`, `Checkout`).
    pub fn parse_for(kind: AssetType, raw: &str) -> Result<Self, String> {
        let key = |s: &str| s.trim().to_ascii_lowercase().replace(['_', ' ', '-'], "");
        let wanted = key(raw);
        let allowed = Self::orders_of(kind);
        allowed
            .iter()
            .copied()
            .find(|o| key(o.as_str()) == wanted)
            .ok_or_else(|| {
                let words: Vec<&str> = allowed.iter().map(|o| o.as_str()).collect();
                format!("must be {}, not {raw:?}", words.join(" or "))
            })
    }
}

/// Which open check-outs of a stock item `get_current_checkouts` shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CheckoutStatus {
    /// Every open check-out (the default).
    All,
    /// Due back before now.
    Overdue,
    /// Due back today, in the company's time zone.
    DueToday,
    /// Not due yet, or without an end.
    OnTime,
}

impl Vocabulary for CheckoutStatus {
    const ALL: &'static [Self] = &[
        CheckoutStatus::All,
        CheckoutStatus::Overdue,
        CheckoutStatus::DueToday,
        CheckoutStatus::OnTime,
    ];

    fn as_str(self) -> &'static str {
        match self {
            CheckoutStatus::All => "all",
            CheckoutStatus::Overdue => "overdue",
            CheckoutStatus::DueToday => "due_today",
            CheckoutStatus::OnTime => "on_time",
        }
    }
}

/// An item is low on stock at a location when it holds fewer units there than the
/// location's minimum.
pub fn is_low(on_hand: i64, minimum: i64) -> bool {
    on_hand < minimum
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vocabulary::assert_words_read_back;

    #[test]
    fn quantities_are_whole_positive_and_bounded() {
        assert_eq!(Quantity::parse(" 12 ").map(Quantity::get), Ok(12));
        assert!(Quantity::parse("0").unwrap_err().contains("from 1"));
        assert!(Quantity::parse("-3").is_err());
        assert!(Quantity::parse("1.5").unwrap_err().contains("whole number"));
        assert!(Quantity::parse("1000000001").is_err());
        assert!(Quantity::parse("99999999999999999999999").is_err());
        assert_eq!(
            Quantity::parse("1000000000").map(Quantity::get),
            Ok(Quantity::MAX)
        );
    }

    #[test]
    fn order_types_depend_on_the_kind() {
        assert_words_read_back::<OrderType>();
        assert_words_read_back::<CheckoutStatus>();
        assert_eq!(
            OrderType::parse_for(AssetType::VolatileAsset, "add stock"),
            Ok(OrderType::AddStock)
        );
        assert_eq!(
            OrderType::parse_for(AssetType::VolatileAsset, "New_Sale"),
            Ok(OrderType::NewSale)
        );
        assert_eq!(
            OrderType::parse_for(AssetType::StockAsset, "Checkout"),
            Ok(OrderType::Checkout)
        );
        let e = OrderType::parse_for(AssetType::StockAsset, "New Sale").unwrap_err();
        assert!(e.contains("Add Stock or checkout"), "{e}");
        assert!(OrderType::parse_for(AssetType::VolatileAsset, "checkout").is_err());
        assert!(OrderType::parse_for(AssetType::FixedAsset, "Add Stock").is_err());
    }

    #[test]
    fn low_means_below_the_minimum() {
        assert!(is_low(2, 3));
        assert!(!is_low(3, 3));
        assert!(!is_low(0, 0));
    }
}
