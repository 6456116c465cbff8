//! The postal address and phone numbers that persons, businesses and members carry on
//! their own record (their address books are `addresses`): one struct, so the nine
//! fields are named once, read once and written once.

use sea_query::{Expr, SelectStatement};

/// The block's fields: text (`Option<String>`) as stored, or each field's change
/// (`Change<String>`) in a create or an update.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, crate::Row)]
pub struct AddressBlock<T> {
    pub address_name: T,
    pub address: T,
    pub address_line_2: T,
    pub city: T,
    pub state: T,
    pub zip_code: T,
    pub country: T,
    pub phone_number: T,
    pub fax: T,
}

impl AddressBlock<&'static str> {
    /// The fields' names, as the API and the columns of persons and businesses spell
    /// them.
    pub const NAMES: Self = AddressBlock {
        address_name: "address_name",
        address: "address",
        address_line_2: "address_line_2",
        city: "city",
        state: "state",
        zip_code: "zip_code",
        country: "country",
        phone_number: "phone_number",
        fax: "fax",
    };

    /// Members spell the zip code `zipcode`, in the API and in their table.
    pub const MEMBER_NAMES: Self = AddressBlock {
        zip_code: "zipcode",
        ..Self::NAMES
    };

    /// Adds the block's columns (spelled as `self` spells them) of `table` to
    /// `select`, each under its field's name, as `AddressBlock`'s `FromRow` reads them.
    pub(crate) fn select_into(self, select: &mut SelectStatement, table: &'static str) {
        for (field, column) in Self::NAMES.zip(&self).into_array() {
            select.expr_as(Expr::col((table, *column)), field);
        }
    }
}

impl<T> AddressBlock<T> {
    /// Each field paired with the same field of `other`.
    pub fn zip<U>(self, other: &AddressBlock<U>) -> AddressBlock<(T, &U)> {
        AddressBlock {
            address_name: (self.address_name, &other.address_name),
            address: (self.address, &other.address),
            address_line_2: (self.address_line_2, &other.address_line_2),
            city: (self.city, &other.city),
            state: (self.state, &other.state),
            zip_code: (self.zip_code, &other.zip_code),
            country: (self.country, &other.country),
            phone_number: (self.phone_number, &other.phone_number),
            fax: (self.fax, &other.fax),
        }
    }

    /// The fields one after the other, for going through them all (zipped with a
    /// block of names, so each value goes with its own name).
    pub fn into_array(self) -> [T; 9] {
        let AddressBlock {
            address_name,
            address,
            address_line_2,
            city,
            state,
            zip_code,
            country,
            phone_number,
            fax,
        } = self;
        [
            address_name,
            address,
            address_line_2,
            city,
            state,
            zip_code,
            country,
            phone_number,
            fax,
        ]
    }
}
