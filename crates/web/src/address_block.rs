//! The one reader and renderer of the address block that persons, businesses and
//! members carry on their own record (`store::address_block`).

use std::marker::PhantomData;

use domain::Change;
use serde::ser::SerializeMap;
use store::address_block::AddressBlock;

use crate::form::Form;
use crate::input::{Country, FieldDoc, Input};
use crate::views::Object;

/// How a kind of record spells the block's fields: [`AddressBlock::NAMES`] (persons,
/// businesses) or [`AddressBlock::MEMBER_NAMES`] (members, whose zip code is `zipcode`).
pub trait Spelling {
    const NAMES: AddressBlock<&'static str>;
}

/// The block as persons and businesses spell it.
pub struct Standard;

impl Spelling for Standard {
    const NAMES: AddressBlock<&'static str> = AddressBlock::NAMES;
}

/// The block as members spell it (`zipcode`).
pub struct Member;

impl Spelling for Member {
    const NAMES: AddressBlock<&'static str> = AddressBlock::MEMBER_NAMES;
}

/// The block's fields as a typed input, flattened into a record's
/// (`#[input(flatten)] address_block: AddressInput<Standard>`): each is text that may
/// be left out (kept) or sent as `null` (cleared); the country a two-letter code.
pub struct AddressInput<S>(pub AddressBlock<Change<String>>, PhantomData<S>);

impl<S> AddressInput<S> {
    pub fn into_block(self) -> AddressBlock<Change<String>> {
        self.0
    }
}

/// What each field of the block is, for the document.
const INPUT_DESCRIPTIONS: AddressBlock<&str> = AddressBlock {
    address_name: "The address's own name.",
    address: "The street address, first line.",
    address_line_2: "The street address, second line.",
    city: "The city.",
    state: "The state or region, kept as given.",
    zip_code: "The postal code.",
    country: "Two-letter ISO 3166-1 alpha-2 code, any case; stored upper-case.",
    phone_number: "The phone number.",
    fax: "The fax number.",
};

impl<S: Spelling> Input for AddressInput<S> {
    // Flattened into a record's fields, whose resource they are read under.
    const RESOURCE: &'static str = "";

    fn read(form: &mut Form<'_>) -> Option<Self> {
        let names = S::NAMES;
        let address_name = form.change::<String>(names.address_name);
        let address = form.change::<String>(names.address);
        let address_line_2 = form.change::<String>(names.address_line_2);
        let city = form.change::<String>(names.city);
        let state = form.change::<String>(names.state);
        let zip_code = form.change::<String>(names.zip_code);
        let country = form.change::<Country>(names.country);
        let phone_number = form.change::<String>(names.phone_number);
        let fax = form.change::<String>(names.fax);
        Some(AddressInput(
            AddressBlock {
                address_name: address_name?,
                address: address?,
                address_line_2: address_line_2?,
                city: city?,
                state: state?,
                zip_code: zip_code?,
                country: country?,
                phone_number: phone_number?,
                fax: fax?,
            },
            PhantomData,
        ))
    }

    fn document(fields: &mut Vec<FieldDoc>) {
        let names = S::NAMES;
        for (name, description) in names.zip(&INPUT_DESCRIPTIONS).into_array() {
            fields.push(if name == names.country {
                FieldDoc::change::<Country>(name, description)
            } else {
                FieldDoc::change::<String>(name, description)
            });
        }
    }
}

/// Writes the block's fields into a record's object, named as `names` spells them.
pub fn write<M: SerializeMap>(
    out: &mut Object<M>,
    names: AddressBlock<&'static str>,
    block: &AddressBlock<Option<String>>,
) -> Result<(), M::Error> {
    for (name, value) in names.zip(block).into_array() {
        out.entry(name, value)?;
    }
    Ok(())
}

/// For the document: the block's nine keys, named as `names` spells them, added to the
/// schema of a record that writes them with [`write`] (they are the record's own keys,
/// not a nested object). Each is text or `null`, never left out.
pub fn document(record: &mut utoipa::openapi::schema::Object, names: AddressBlock<&'static str>) {
    use utoipa::openapi::schema::{ObjectBuilder, SchemaType, Type};
    let descriptions = AddressBlock {
        address_name: "The address's own name.",
        address: "The street address, first line.",
        address_line_2: "The street address, second line.",
        city: "The city.",
        state: "The state or region, as given.",
        zip_code: "The postal code.",
        country: "Two-letter ISO 3166-1 alpha-2 code, upper-case.",
        phone_number: "The phone number.",
        fax: "The fax number.",
    };
    for (name, description) in names.zip(&descriptions).into_array() {
        let text = ObjectBuilder::new()
            .schema_type(SchemaType::from_iter([Type::String, Type::Null]))
            .description(Some(*description));
        record.properties.insert(name.to_owned(), text.into());
    }
}
