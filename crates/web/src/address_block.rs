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
