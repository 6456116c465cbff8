//! Typed record ids. `Id<kind::Location>` is a location's id and `Number<kind::Item>`
//! an item's running number in its company (items and orders are addressed by
//! `sequence_num`): the compiler keeps a group's id from going where a location's is
//! wanted, and a lookup that finds nothing says which kind it missed
//! (`id.missing()` is `StoreError::NotFound(Kind::Location)`), so the interface words
//! every 404 from one mapping of [`Kind`].

use std::fmt;
use std::hash::{Hash, Hasher};
use std::marker::PhantomData;

use crate::StoreError;

/// A kind of record a request can name and miss.
pub trait Named: Send + Sync + 'static {
    const KIND: Kind;
}

macro_rules! kinds {
    ($($(#[$doc:meta])* $kind:ident),* $(,)?) => {
        /// The kinds of record a lookup can miss.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum Kind {
            $($(#[$doc])* $kind,)*
        }

        /// One type per [`Kind`], the parameter of [`Id`] and [`Number`].
        pub mod kind {
            $(
                $(#[$doc])*
                #[derive(Debug)]
                pub struct $kind;
                impl super::Named for $kind {
                    const KIND: super::Kind = super::Kind::$kind;
                }
            )*
        }
    };
}

kinds!(
    Company,
    Location,
    Group,
    SubGroup,
    Vendor,
    Member,
    Customer,
    Business,
    Contact,
    CustomField,
    CustomRole,
    Team,
    RetireReason,
    /// A member's, customer's or business's address.
    Address,
    /// A default address of its owner (none set, or no such owner).
    DefaultAddress,
    ReservationRequest,
    CustomTax,
    Coupon,
    GroupTax,
    PaymentHistory,
    Bundle,
    Listing,
    /// A template of printed labels.
    LabelTemplate,
    Service,
    /// A verification (audit) of a fixed asset.
    Verification,
    /// A fixed asset, inventory or asset stock: one numbering shared by all three.
    Item,
    Order,
    /// An endpoint that receives webhook events.
    Webhook,
    /// An event's delivery to a webhook endpoint.
    WebhookDelivery,
    /// A CSV import and its outcome.
    Import,
);

/// The id of a `K`.
pub struct Id<K>(i64, PhantomData<fn() -> K>);

/// The company's running number (`sequence_num`) of a `K`: an item or an order.
pub struct Number<K>(i64, PhantomData<fn() -> K>);

macro_rules! typed {
    ($name:ident) => {
        impl<K> $name<K> {
            /// The raw value as the interface read it: whether a record has it is the
            /// store's to say.
            pub const fn new(raw: i64) -> Self {
                $name(raw, PhantomData)
            }

            pub const fn get(self) -> i64 {
                self.0
            }

            /// Each raw value of a list the interface read, as this kind's.
            pub fn each(raw: impl IntoIterator<Item = i64>) -> Vec<Self> {
                raw.into_iter().map(Self::new).collect()
            }

            /// The raw values of `typed`, for a statement's `IN` list.
            pub fn raw(typed: &[Self]) -> Vec<i64> {
                typed.iter().map(|t| t.0).collect()
            }
        }

        impl<K: Named> $name<K> {
            /// The error of a lookup of this that found nothing.
            pub fn missing(self) -> StoreError {
                StoreError::NotFound(K::KIND)
            }
        }

        impl<K> Clone for $name<K> {
            fn clone(&self) -> Self {
                *self
            }
        }
        impl<K> Copy for $name<K> {}
        impl<K> PartialEq for $name<K> {
            fn eq(&self, other: &Self) -> bool {
                self.0 == other.0
            }
        }
        impl<K> Eq for $name<K> {}
        impl<K> PartialOrd for $name<K> {
            fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
                Some(self.cmp(other))
            }
        }
        impl<K> Ord for $name<K> {
            fn cmp(&self, other: &Self) -> std::cmp::Ordering {
                self.0.cmp(&other.0)
            }
        }
        impl<K> Hash for $name<K> {
            fn hash<H: Hasher>(&self, state: &mut H) {
                self.0.hash(state)
            }
        }
        impl<K> fmt::Debug for $name<K> {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "{}({})", stringify!($name), self.0)
            }
        }
        impl<K> fmt::Display for $name<K> {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                self.0.fmt(f)
            }
        }
        impl<K> serde::Serialize for $name<K> {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_i64(self.0)
            }
        }
        impl<K> From<$name<K>> for i64 {
            fn from(typed: $name<K>) -> i64 {
                typed.0
            }
        }

        impl<K> From<$name<K>> for sea_query::Value {
            fn from(id: $name<K>) -> Self {
                id.0.into()
            }
        }
        impl<K> sea_query::value::Nullable for $name<K> {
            fn null() -> sea_query::Value {
                sea_query::Value::BigInt(None)
            }
        }
    };
}

typed!(Id);
typed!(Number);
