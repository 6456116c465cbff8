//! Orders, as far as the customer and business rules need them today: the states an
//! order moves through (`basket_state`) and which of them still involve the customer.

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
    /// Every state, in the order an order moves through them.
    pub const ALL: [OrderState; 9] = [
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

    /// The states in which an order still involves its customer: not yet completed,
    /// void, sold or cancelled. A customer with such an order cannot be deleted.
    pub const OPEN: [OrderState; 5] = [
        OrderState::Drafted,
        OrderState::WebOrder,
        OrderState::Booked,
        OrderState::CheckedOut,
        OrderState::Returned,
    ];

    pub fn as_str(self) -> &'static str {
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

    pub fn parse(raw: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|s| s.as_str() == raw)
    }

    /// The names of every state, for a message listing them.
    pub fn names() -> String {
        Self::ALL.map(Self::as_str).join(", ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_read_back() {
        for state in OrderState::ALL {
            assert_eq!(OrderState::parse(state.as_str()), Some(state));
        }
        assert_eq!(OrderState::parse("shipped"), None);
        assert!(OrderState::OPEN.iter().all(|s| OrderState::ALL.contains(s)));
    }
}
