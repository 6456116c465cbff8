//! Custom field values on the wire: read from `<resource>[custom_attributes][<name>]`
//! (underscores stand for spaces), checked against the company's fields for that kind
//! of record, and rendered back by field name.

use domain::Change;
use domain::Vocabulary;
use domain::custom_field::{Target, normalise_value};
use serde::ser::SerializeMap;
use std::collections::{BTreeMap, HashMap};
use store::CompanyId;
use store::Db;
use store::custom_fields::{self, FieldSet, FieldValues};

use crate::error::ApiError;
use crate::form::{Form, MAX_TEXT_CHARS};
use crate::input::Input;
use crate::views::Object;

/// The company's fields for `target`, loaded only when the request sends values.
pub async fn fields_for_input(
    db: &Db,
    company: CompanyId,
    target: Target,
    form: &Form<'_>,
    path: &str,
) -> Result<FieldSet, ApiError> {
    if form.params().map(path).is_empty() {
        Ok(FieldSet::default())
    } else {
        Ok(custom_fields::for_targets(db, company, &[target]).await?)
    }
}

/// A record that carries custom field values.
pub trait Attributed {
    /// The values as stored: a JSON object keyed by field id.
    fn stored_values(&self) -> &str;
}

/// The fields (of any of `targets`) needed to render `records`: none when no record
/// has values, so plain lists cost no extra query.
pub async fn fields_for_output<'a, R: Attributed + 'a>(
    db: &Db,
    company: CompanyId,
    targets: &[Target],
    records: impl IntoIterator<Item = &'a R>,
) -> Result<FieldSet, ApiError> {
    if records.into_iter().all(|r| r.stored_values() == "{}") {
        Ok(FieldSet::default())
    } else {
        Ok(custom_fields::for_targets(db, company, targets).await?)
    }
}

/// Reads the values under `path` (e.g. `user[custom_attributes]`): empty keeps,
/// `null` clears, anything else must suit the field's type and options.
pub fn read(form: &mut Form<'_>, path: &str, fields: &FieldSet, target: Target) -> FieldValues {
    form.check_map(path, "custom_attributes");
    let mut changes = BTreeMap::new();
    for (raw_name, value) in form.params().map(path) {
        let key = format!("custom_attributes[{raw_name}]");
        let Some(field) = fields.by_name(&raw_name) else {
            form.error(
                &key,
                format!(
                    "is not a custom field for {}; create it at /custom_fields.api first",
                    target.as_str()
                ),
            );
            continue;
        };
        if let Some(change) = value_change(form, &key, field, &value) {
            changes.insert(store::Id::new(field.id), change);
        }
    }
    changes
}

/// One sent value for `field`: empty keeps (`None`), `null` clears, anything else
/// must suit the field's type and options (else an error on `key`).
fn value_change(
    form: &mut Form<'_>,
    key: &str,
    field: &custom_fields::CustomField,
    value: &str,
) -> Option<Change<String>> {
    match value {
        "" => None,
        "null" => Some(Change::Clear),
        v if v.chars().count() > MAX_TEXT_CHARS => {
            form.error(
                key,
                format!("is too long (maximum is {MAX_TEXT_CHARS} characters)"),
            );
            None
        }
        v => match normalise_value(field.field_type, &field.options, v) {
            Ok(normalised) => Some(Change::Set(normalised)),
            Err(problem) => {
                form.error(key, problem);
                None
            }
        },
    }
}

/// The company's fields for `target`, then the values sent under
/// `<form's resource>[custom_attributes][<name>]`, their problems recorded on `form`
/// beside those of the record's typed fields.
pub async fn read_values(
    db: &Db,
    company: CompanyId,
    target: Target,
    form: &mut Form<'_>,
) -> Result<FieldValues, ApiError> {
    let path = form.path("custom_attributes");
    let fields = fields_for_input(db, company, target, form, &path).await?;
    Ok(read(form, &path, &fields, target))
}

/// The documentation of the map of custom field values a record's writes take
/// (`.form(resource, custom_attributes::FIELDS)`): its entries' names are the
/// company's, so they are no typed field.
pub const FIELDS: &[(&str, &str)] = &[(
    "custom_attributes][<field name>",
    "value of one of the company's custom fields for this kind of record, under the field's name (underscores stand for spaces); null clears, empty keeps",
)];

/// `include_custom_fields`, which a record's details and lists take.
#[derive(Input)]
pub struct IncludeQuery {
    /// true: each custom field's value is also a top-level key of the record (they are
    /// always under custom_attributes); false by default.
    pub include_custom_fields: Option<bool>,
}

impl IncludeQuery {
    pub fn include(&self) -> bool {
        self.include_custom_fields.unwrap_or(false)
    }
}

/// Reads values keyed by custom field id under `path` (the orders'
/// `item_custom_attribute_values[<id>]`): the field must be one of `fields`; a
/// dropdown takes an option id (or name), a checkbox a comma list of them.
pub async fn read_by_id(
    db: &Db,
    company: CompanyId,
    form: &mut Form<'_>,
    path: &str,
    targets: &[Target],
) -> Result<FieldValues, ApiError> {
    let mut changes = BTreeMap::new();
    if form.params().entries(path).is_empty() {
        return Ok(changes);
    }
    // Keys are field ids: `4`, `04` and `+4` are one field, named once.
    let sent = form.id_keyed(path, path, "a custom field id", |key| {
        format!("{path}[{key}]")
    });
    if sent.is_empty() {
        return Ok(changes);
    }
    let fields = custom_fields::for_targets(db, company, targets).await?;
    let by_id: HashMap<i64, &custom_fields::CustomField> =
        fields.0.iter().map(|f| (f.id, f)).collect();
    for entry in sent {
        let Some(field) = by_id.get(&entry.id) else {
            form.error(
                &entry.name,
                format!("{} is not the id of a custom field for items or orders (see /custom_fields.api)", entry.id),
            );
            continue;
        };
        let Some(value) = entry.value() else {
            form.error(&entry.name, "must be a value, not nested further");
            continue;
        };
        if let Some(change) = value_change(form, &entry.name, field, value) {
            changes.insert(store::Id::new(field.id), change);
        }
    }
    Ok(changes)
}

/// A record to render with its custom fields: the company's time zone, the fields'
/// definitions, and whether values are also top-level keys (`include_custom_fields`).
/// Each resource implements `Serialize` for its own record, ending with `write`.
pub struct WithFields<'a, T> {
    pub record: &'a T,
    pub tz: chrono_tz::Tz,
    pub fields: &'a FieldSet,
    pub include: bool,
}

impl<'a, T> WithFields<'a, T> {
    pub fn new(record: &'a T, tz: chrono_tz::Tz, fields: &'a FieldSet, include: bool) -> Self {
        WithFields {
            record,
            tz,
            fields,
            include,
        }
    }
}

/// Writes `custom_attributes` (by field name) as the record's last key and, with
/// `include_custom_fields`, each value as a top-level key before it unless the record
/// has that key already.
pub fn write<M: SerializeMap>(
    out: &mut Object<M>,
    fields: &FieldSet,
    stored: &str,
    include_custom_fields: bool,
) -> Result<(), M::Error> {
    let values = fields.named_values(stored);
    if include_custom_fields {
        for (name, value) in &values {
            if name != "custom_attributes" {
                out.extra(name, value)?;
            }
        }
    }
    out.entry("custom_attributes", &values)
}

/// For the document: what the keys of a record beyond its own hold, the values of
/// custom fields under their names (with `include_custom_fields`), always text. A
/// view whose serializer ends with [`write`] sets its schema's `additionalProperties`
/// to this, and documents `custom_attributes` as a map of text.
pub fn extra_keys() -> utoipa::openapi::schema::AdditionalProperties<utoipa::openapi::schema::Schema>
{
    use utoipa::openapi::schema::{AdditionalProperties, ObjectBuilder, Type};
    AdditionalProperties::RefOr(
        ObjectBuilder::new()
            .schema_type(Type::String)
            .description(Some(
                "A custom field's value, under the field's name (with include_custom_fields)",
            ))
            .into(),
    )
}

/// For the document: the `custom_attributes` map [`write`] puts last in a record, each
/// custom field's value (text) under the field's name. A shape's field
/// `custom_attributes: CustomAttributes` refers to it.
pub struct CustomAttributes;

impl utoipa::PartialSchema for CustomAttributes {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        use utoipa::openapi::schema::{AdditionalProperties, ObjectBuilder, Type};
        ObjectBuilder::new()
            .schema_type(Type::Object)
            .description(Some(
                "The record's custom field values, each under its field's name: those of the company's fields \
                 for this kind of record that the record has a value for",
            ))
            .additional_properties(Some(AdditionalProperties::RefOr(
                ObjectBuilder::new().schema_type(Type::String).into(),
            )))
            .into()
    }
}

impl utoipa::ToSchema for CustomAttributes {}

/// For the document: the keys of a record's shape beyond its derived fields, such as an
/// address block written into the record (`crate::address_block::document`).
pub trait Shape: utoipa::ToSchema {
    fn extend(_record: &mut utoipa::openapi::schema::Object) {}
}

/// For the document: a record whose serializer ends with [`write`], as `S` describes it.
/// `S` is a `#[derive(utoipa::ToSchema)]` struct used only for the document, named with
/// `#[schema(as = ...)]`, listing every key the serializer writes (with
/// `custom_attributes: CustomAttributes`); its schema takes the keys `S::extend` adds,
/// and allows other keys, custom field values ([`extra_keys`]). A route names it with
/// `.record::<custom_attributes::Keyed<S>>()`.
pub struct Keyed<S>(std::marker::PhantomData<S>);

impl<S: Shape> utoipa::PartialSchema for Keyed<S> {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        use utoipa::openapi::RefOr;
        use utoipa::openapi::schema::Schema;
        let mut schema = S::schema();
        if let RefOr::T(Schema::Object(object)) = &mut schema {
            S::extend(object);
            object.additional_properties = Some(Box::new(extra_keys()));
        }
        schema
    }
}

impl<S: Shape> utoipa::ToSchema for Keyed<S> {
    fn name() -> std::borrow::Cow<'static, str> {
        S::name()
    }

    fn schemas(
        schemas: &mut Vec<(
            String,
            utoipa::openapi::RefOr<utoipa::openapi::schema::Schema>,
        )>,
    ) {
        S::schemas(schemas);
    }
}
