//! The one reader and renderer of the address block that persons, businesses and
//! members carry on their own record (`store::address_block`).

use domain::Change;
use serde::ser::SerializeMap;
use store::address_block::AddressBlock;

use crate::form::Form;
use crate::views::Object;

/// Reads the block's fields, named as `names` spells them, under the form's resource.
pub fn read(
    form: &mut Form<'_>,
    names: AddressBlock<&'static str>,
) -> AddressBlock<Change<String>> {
    AddressBlock {
        address_name: form.text(names.address_name),
        address: form.text(names.address),
        address_line_2: form.text(names.address_line_2),
        city: form.text(names.city),
        state: form.text(names.state),
        zip_code: form.text(names.zip_code),
        country: form.country(names.country),
        phone_number: form.text(names.phone_number),
        fax: form.text(names.fax),
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
