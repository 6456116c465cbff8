//! Orders (baskets): the states an order moves through (`basket_state`, shown as
//! `order_state`), the moves between them, and which attributes an update may change
//! in each state.
//!
//! ```text
//!   drafted ──book──▶ booked ──cancel booking──▶ drafted
//!   web_order ─book─▶ booked
//!   drafted | web_order | booked ──rent out──▶ checked_out (completed at once when the
//!                                              order holds only inventory)
//!   checked_out ──return some──▶ checked_out
//!   checked_out ──return the rest──▶ returned (balance due) or completed (nothing owed)
//!   returned ──payments cover the balance──▶ completed ──void──▶ void
//!   drafted | web_order | booked ──sell──▶ sold
//!   drafted | web_order | booked ──cancel──▶ cancelled
//! ```

use crate::Vocabulary;
use crate::item::AssetType;

/// Whether the units of an order's line leave for good when the order goes out (sold:
/// marked for sale, or inventory, which is always sold) rather than coming back.
pub fn sold_line(kind: AssetType, for_sale: bool) -> bool {
    for_sale || kind == AssetType::VolatileAsset
}

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
    /// The name shown to people (`order_state`).
    pub fn display_name(self) -> &'static str {
        match self {
            OrderState::Drafted => "Draft",
            OrderState::WebOrder => "Web Order",
            OrderState::Booked => "Booked",
            OrderState::CheckedOut => "Rented Out",
            OrderState::Returned => "Returned",
            OrderState::Completed => "Completed",
            OrderState::Void => "Void",
            OrderState::Sold => "Sold",
            OrderState::Cancelled => "Cancelled",
        }
    }

    /// A state named by its `basket_state` word or its display name, loosely (case,
    /// spaces), and by `checkin_payment_pending`, the hosted service's other name of
    /// `returned`.
    pub fn parse_any(raw: &str) -> Option<Self> {
        let key = |w: &str| w.trim().to_ascii_lowercase().replace([' ', '-'], "_");
        let wanted = key(raw);
        if wanted == "checkin_payment_pending" {
            return Some(OrderState::Returned);
        }
        Self::ALL
            .iter()
            .copied()
            .find(|s| s.as_str() == wanted || key(s.display_name()) == wanted)
    }

    /// Whether the order is still being put together: items may be added.
    pub fn is_open_for_items(self) -> bool {
        matches!(
            self,
            OrderState::Drafted | OrderState::WebOrder | OrderState::Booked
        )
    }

    /// The attributes an update may change in this state (the spec's table).
    pub fn changeable(self) -> &'static [OrderField] {
        use OrderField as F;
        match self {
            OrderState::Drafted | OrderState::WebOrder => &[
                F::IdentificationNumber,
                F::ExpectedCheckoutDate,
                F::DueDate,
                F::BillFrom,
                F::BillTo,
                F::LocationId,
                F::CustomerId,
                F::OrderDiscount,
                F::AssignedToId,
                F::Description,
                F::InvoiceHeading,
                F::PickUpLocationId,
                F::ShippingAddressId,
                F::UserListingName,
                F::Business,
                F::PickUpAddressId,
                F::Delivery,
                F::CustomAttributes,
            ],
            OrderState::Booked | OrderState::Returned => &[
                F::IdentificationNumber,
                F::AssignedToId,
                F::Description,
                F::InvoiceHeading,
                F::PickUpLocationId,
                F::ShippingAddressId,
            ],
            OrderState::CheckedOut => &[
                F::IdentificationNumber,
                F::DueDate,
                F::BillTo,
                F::AssignedToId,
                F::Description,
                F::InvoiceHeading,
                F::PickUpLocationId,
                F::ShippingAddressId,
            ],
            OrderState::Completed | OrderState::Void => {
                &[F::IdentificationNumber, F::Description, F::InvoiceHeading]
            }
            OrderState::Sold | OrderState::Cancelled => &[],
        }
    }

    /// The state `action` takes an order in this state to, or `None` when the move is
    /// not open to it.
    pub fn next(self, action: OrderAction) -> Option<OrderState> {
        use OrderAction as A;
        use OrderState as S;
        let before_rent = matches!(self, S::Drafted | S::WebOrder | S::Booked);
        match (action, self) {
            (A::Book, S::Drafted | S::WebOrder) => Some(S::Booked),
            (A::CancelBooking, S::Booked) => Some(S::Drafted),
            (A::RentOut { only_inventory }, _) if before_rent => Some(if only_inventory {
                S::Completed
            } else {
                S::CheckedOut
            }),
            (A::Return { all_back, owed }, S::CheckedOut) => Some(match (all_back, owed) {
                (false, _) => S::CheckedOut,
                (true, true) => S::Returned,
                (true, false) => S::Completed,
            }),
            (A::Settle, S::Returned) => Some(S::Completed),
            (A::Void, S::Completed) => Some(S::Void),
            (A::Sell | A::Cancel, _) if before_rent => Some(match action {
                A::Sell => S::Sold,
                _ => S::Cancelled,
            }),
            _ => None,
        }
    }
}

/// What is done to an order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OrderAction {
    /// Book it for its period (`reservation.api`).
    Book,
    /// Take the booking back (`cancel_reservation.api`).
    CancelBooking,
    /// Rent it out (`checkout.api`); an order of inventory only is done at once.
    RentOut {
        only_inventory: bool,
    },
    /// Return some or all of what is out (`checkin.api`); whether anything is still
    /// owed once all is back.
    Return {
        all_back: bool,
        owed: bool,
    },
    /// Payments cover what a returned order owes.
    Settle,
    Void,
    /// Sell everything on it (`sale_order.api`).
    Sell,
    Cancel,
}

impl OrderAction {
    /// The words of a refusal: "book", "rent out", ...
    pub fn describe(self) -> &'static str {
        match self {
            OrderAction::Book => "book",
            OrderAction::CancelBooking => "cancel the booking of",
            OrderAction::RentOut { .. } => "rent out",
            OrderAction::Return { .. } => "return",
            OrderAction::Settle => "settle",
            OrderAction::Void => "void",
            OrderAction::Sell => "sell",
            OrderAction::Cancel => "cancel",
        }
    }
}

/// An attribute of an order that an update may change, depending on the state.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OrderField {
    IdentificationNumber,
    ExpectedCheckoutDate,
    DueDate,
    BillFrom,
    BillTo,
    LocationId,
    CustomerId,
    OrderDiscount,
    AssignedToId,
    Description,
    InvoiceHeading,
    PickUpLocationId,
    ShippingAddressId,
    UserListingName,
    /// `business_id` / `business_name`: travel with the customer.
    Business,
    PickUpAddressId,
    /// `basket[location_for_delivery]`, `basket[location_for_pickup]`.
    Delivery,
    CustomAttributes,
}

impl Vocabulary for OrderField {
    const ALL: &'static [Self] = &[
        OrderField::IdentificationNumber,
        OrderField::ExpectedCheckoutDate,
        OrderField::DueDate,
        OrderField::BillFrom,
        OrderField::BillTo,
        OrderField::LocationId,
        OrderField::CustomerId,
        OrderField::OrderDiscount,
        OrderField::AssignedToId,
        OrderField::Description,
        OrderField::InvoiceHeading,
        OrderField::PickUpLocationId,
        OrderField::ShippingAddressId,
        OrderField::UserListingName,
        OrderField::Business,
        OrderField::PickUpAddressId,
        OrderField::Delivery,
        OrderField::CustomAttributes,
    ];

    fn as_str(self) -> &'static str {
        match self {
            OrderField::IdentificationNumber => "identification_number",
            OrderField::ExpectedCheckoutDate => "expected_checkout_date",
            OrderField::DueDate => "due_date",
            OrderField::BillFrom => "bill_from",
            OrderField::BillTo => "bill_to",
            OrderField::LocationId => "location_id",
            OrderField::CustomerId => "customer_id",
            OrderField::OrderDiscount => "order_discount",
            OrderField::AssignedToId => "assigned_to_id",
            OrderField::Description => "description",
            OrderField::InvoiceHeading => "invoice_heading",
            OrderField::PickUpLocationId => "pick_up_location_id",
            OrderField::ShippingAddressId => "shipping_address_id",
            OrderField::UserListingName => "user_listing_name",
            OrderField::Business => "business_id",
            OrderField::PickUpAddressId => "pick_up_address_id",
            OrderField::Delivery => "location_for_delivery",
            OrderField::CustomAttributes => "custom_attributes",
        }
    }
}

impl OrderField {
    /// Whether changing it can change what the order costs: the billed period (check-out,
    /// due moment, billing), the order discount, and who pays (a customer or business
    /// may pay no tax). The others are words, places and people around the order.
    pub fn prices(self) -> bool {
        matches!(
            self,
            OrderField::ExpectedCheckoutDate
                | OrderField::DueDate
                | OrderField::BillFrom
                | OrderField::BillTo
                | OrderField::CustomerId
                | OrderField::OrderDiscount
                | OrderField::Business
        )
    }
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
        crate::vocabulary::assert_words_read_back::<OrderField>();
        assert!(OrderState::OPEN.iter().all(|s| OrderState::ALL.contains(s)));
        for s in OrderState::ALL {
            assert_eq!(OrderState::parse_any(s.display_name()), Some(*s));
            assert_eq!(OrderState::parse_any(s.as_str()), Some(*s));
        }
        assert_eq!(
            OrderState::parse_any("checkin_payment_pending"),
            Some(OrderState::Returned)
        );
        assert_eq!(
            OrderState::parse_any(" rented out "),
            Some(OrderState::CheckedOut)
        );
    }

    #[test]
    fn moves() {
        use OrderAction as A;
        use OrderState as S;
        let rent = A::RentOut {
            only_inventory: false,
        };
        assert_eq!(S::Drafted.next(A::Book), Some(S::Booked));
        assert_eq!(S::WebOrder.next(A::Book), Some(S::Booked));
        assert_eq!(S::Booked.next(A::Book), None);
        assert_eq!(S::Booked.next(A::CancelBooking), Some(S::Drafted));
        assert_eq!(S::Drafted.next(A::CancelBooking), None);
        for s in [S::Drafted, S::WebOrder, S::Booked] {
            assert_eq!(s.next(rent), Some(S::CheckedOut));
            assert_eq!(
                s.next(A::RentOut {
                    only_inventory: true
                }),
                Some(S::Completed)
            );
            assert_eq!(s.next(A::Sell), Some(S::Sold));
            assert_eq!(s.next(A::Cancel), Some(S::Cancelled));
        }
        let back = |all_back, owed| A::Return { all_back, owed };
        assert_eq!(S::CheckedOut.next(back(false, true)), Some(S::CheckedOut));
        assert_eq!(S::CheckedOut.next(back(true, true)), Some(S::Returned));
        assert_eq!(S::CheckedOut.next(back(true, false)), Some(S::Completed));
        assert_eq!(S::Returned.next(A::Settle), Some(S::Completed));
        assert_eq!(S::Completed.next(A::Void), Some(S::Void));
        // Everything else is refused.
        let actions = [
            A::Book,
            A::CancelBooking,
            rent,
            back(true, true),
            A::Settle,
            A::Void,
            A::Sell,
            A::Cancel,
        ];
        let allowed = actions
            .iter()
            .flat_map(|a| S::ALL.iter().filter(move |s| s.next(*a).is_some()))
            .count();
        // book 2, cancel booking 1, rent out 3, return 1, settle 1, void 1, sell 3, cancel 3
        assert_eq!(allowed, 15);
        for s in [
            S::CheckedOut,
            S::Returned,
            S::Completed,
            S::Void,
            S::Sold,
            S::Cancelled,
        ] {
            assert_eq!(s.next(A::Cancel), None);
            assert_eq!(s.next(rent), None);
        }
    }

    #[test]
    fn changeable_attributes_follow_the_table() {
        use OrderField as F;
        use OrderState as S;
        assert!(S::Drafted.changeable().contains(&F::CustomerId));
        assert!(!S::Booked.changeable().contains(&F::DueDate));
        assert!(S::CheckedOut.changeable().contains(&F::DueDate));
        assert!(S::CheckedOut.changeable().contains(&F::BillTo));
        assert!(!S::CheckedOut.changeable().contains(&F::BillFrom));
        assert_eq!(S::Completed.changeable().len(), 3);
        assert_eq!(S::Booked.changeable(), S::Returned.changeable());
        assert!(S::Cancelled.changeable().is_empty());
    }

    #[test]
    fn fields_that_price_the_order() {
        let pricing: Vec<&str> = OrderField::ALL
            .iter()
            .filter(|f| f.prices())
            .map(|f| f.as_str())
            .collect();
        assert_eq!(
            pricing,
            [
                "expected_checkout_date",
                "due_date",
                "bill_from",
                "bill_to",
                "customer_id",
                "order_discount",
                "business_id"
            ]
        );
    }
}
