//! Orders, as far as the customer and business rules need them today: the states an
//! order moves through (`basket_state`) and which of them still involve the customer.

use crate::Vocabulary;

/// The state of an order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OrderState {
    Drafted,
    WebOrder,
    Booked,
    CheckedOut,
    Returned,
    Completed,
    Void,
    Sold,
    Cancelled,
}

impl OrderState {
    /// The states in which an order still involves its customer: not yet completed,
    /// void, sold or cancelled. A customer with such an order cannot be deleted.
    pub const OPEN: [OrderState; 5] = [
        OrderState::Drafted,
        OrderState::WebOrder,
        OrderState::Booked,
        OrderState::CheckedOut,
        OrderState::Returned,
    ];
}

impl Vocabulary for OrderState {
    /// In the order an order moves through them.
    const ALL: &'static [Self] = &[
        OrderState::Drafted,
        OrderState::WebOrder,
        OrderState::Booked,
        OrderState::CheckedOut,
        OrderState::Returned,
        OrderState::Completed,
        OrderState::Void,
        OrderState::Sold,
        OrderState::Cancelled,
    ];

    fn as_str(self) -> &'static str {
        match self {
            OrderState::Drafted => "drafted",
            OrderState::WebOrder => "web_order",
            OrderState::Booked => "booked",
            OrderState::CheckedOut => "checked_out",
            OrderState::Returned => "returned",
            OrderState::Completed => "completed",
            OrderState::Void => "void",
            OrderState::Sold => "sold",
            OrderState::Cancelled => "cancelled",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_read_back() {
        crate::vocabulary::assert_words_read_back::<OrderState>();
        assert!(OrderState::OPEN.iter().all(|s| OrderState::ALL.contains(s)));
    }
}
