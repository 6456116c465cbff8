//! Typed inputs: one struct per request is its parser and its OpenAPI description.
//!
//! `#[derive(Input)]` (crate `input-derive`) reads each field of the struct from the
//! parameters with its [`Format`], recording every problem in one [`Form`] so a single
//! 422 names them all, and lists the same fields, with their schemas and whether they
//! must be sent, for `/openapi.json` ([`crate::api::Doc::input`]). Whether a field must
//! be sent is its type: `T` is required, `Option<T>` may be left out, `Change<T>` may be
//! left out (keep) or sent as `null` (clear).

use serde_json::{Value, json};

use crate::error::ApiError;
use crate::form::{Form, MAX_TEXT_CHARS, parse_id};
use crate::params::Params;

pub use input_derive::Input;

/// A request's parameters as one typed value.
pub trait Input: Sized {
    /// The name the fields nest under (`location` for `location[name]`); empty for
    /// parameters at the top level (`page`, `user_id`).
    const RESOURCE: &'static str;

    /// Reads every field into `form`: `None` when any of them has a problem, which
    /// `form` then holds.
    fn read(form: &mut Form<'_>) -> Option<Self>;

    /// The fields, for the document.
    fn document(fields: &mut Vec<FieldDoc>);

    /// The input of the request, or one 422 naming every problem.
    fn parse(params: &Params) -> Result<Self, ApiError> {
        let mut form = Form::new(params, Self::RESOURCE);
        let value = Self::read(&mut form);
        form.finish_with(value)
    }

    /// The documented fields.
    fn fields() -> Vec<FieldDoc> {
        let mut fields = Vec::new();
        Self::document(&mut fields);
        fields
    }
}

/// How a parameter is sent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    /// One value.
    Scalar,
    /// Repeated `x[]=...` (or a comma list).
    List,
}

/// One field as `/openapi.json` shows it.
#[derive(Debug, Clone)]
pub struct FieldDoc {
    /// The name within the resource (`name` of `location[name]`).
    pub name: &'static str,
    pub description: &'static str,
    /// Must be sent.
    pub required: bool,
    /// The JSON Schema of a value sent.
    pub schema: Value,
    pub shape: Shape,
}

impl FieldDoc {
    pub fn required<F: Format>(name: &'static str, description: &'static str) -> Self {
        FieldDoc {
            name,
            description,
            required: true,
            schema: F::schema(),
            shape: F::SHAPE,
        }
    }

    pub fn optional<F: Format>(name: &'static str, description: &'static str) -> Self {
        FieldDoc {
            required: false,
            ..Self::required::<F>(name, description)
        }
    }

    /// Left out keeps, `null` clears: the schema takes `null` beside the value.
    pub fn change<F: Format>(name: &'static str, description: &'static str) -> Self {
        let value = F::schema();
        FieldDoc {
            schema: json!({"anyOf": [value, {"type": "string", "enum": F::CLEARING}]}),
            ..Self::optional::<F>(name, description)
        }
    }
}

/// How one value is read from the text sent, and documented.
pub trait Format {
    type Value;
    /// How it is sent.
    const SHAPE: Shape = Shape::Scalar;
    /// The words that clear a `Change` field.
    const CLEARING: &'static [&'static str] = &["null"];

    /// The value at `path`: `None` when not sent.
    fn read(params: &Params, path: &str) -> Option<Result<Self::Value, String>>;

    /// The JSON Schema of a value as sent.
    fn schema() -> Value;

    /// The problem of a required field left out.
    fn blank() -> String {
        "can't be blank".to_owned()
    }
}

/// A format of one text value.
pub trait Scalar {
    type Value;
    const CLEARING: &'static [&'static str] = &["null"];
    fn parse(raw: &str) -> Result<Self::Value, String>;
    fn schema() -> Value;
    fn blank() -> String {
        "can't be blank".to_owned()
    }
}

impl<S: Scalar> Format for S {
    type Value = S::Value;
    const CLEARING: &'static [&'static str] = S::CLEARING;

    fn read(params: &Params, path: &str) -> Option<Result<Self::Value, String>> {
        params.get(path).map(S::parse)
    }

    fn schema() -> Value {
        S::schema()
    }

    fn blank() -> String {
        S::blank()
    }
}

impl Form<'_> {
    /// A field that must be sent.
    pub fn required<F: Format>(&mut self, field: &str) -> Option<F::Value> {
        match F::read(self.params(), &self.path(field)) {
            None => {
                self.error(field, F::blank());
                None
            }
            Some(read) => self.take(field, read),
        }
    }

    /// A field that may be left out: `Some(None)` when it is.
    pub fn optional<F: Format>(&mut self, field: &str) -> Option<Option<F::Value>> {
        match F::read(self.params(), &self.path(field)) {
            None => Some(None),
            Some(read) => self.take(field, read).map(Some),
        }
    }

    /// A field that may be left out (keep) or cleared (`null`).
    pub fn change<F: Format>(&mut self, field: &str) -> Option<domain::Change<F::Value>> {
        let path = self.path(field);
        if self
            .params()
            .get(&path)
            .is_some_and(|raw| F::CLEARING.contains(&raw))
        {
            return Some(domain::Change::Clear);
        }
        match F::read(self.params(), &path) {
            None => Some(domain::Change::Keep),
            Some(read) => self.take(field, read).map(domain::Change::Set),
        }
    }

    fn take<T>(&mut self, field: &str, read: Result<T, String>) -> Option<T> {
        read.map_err(|problem| self.error(field, problem)).ok()
    }
}

/// Free text of at most [`MAX_TEXT_CHARS`] characters.
impl Scalar for String {
    type Value = String;

    fn parse(raw: &str) -> Result<String, String> {
        if raw.chars().count() > MAX_TEXT_CHARS {
            Err(format!(
                "is too long (maximum is {MAX_TEXT_CHARS} characters)"
            ))
        } else {
            Ok(raw.to_owned())
        }
    }

    fn schema() -> Value {
        json!({"type": "string", "maxLength": MAX_TEXT_CHARS})
    }
}

/// A name of at least [`domain::Name::MIN_CHARS`] characters once trimmed (assets,
/// groups, subgroups).
impl Scalar for domain::Name {
    type Value = domain::Name;

    fn parse(raw: &str) -> Result<domain::Name, String> {
        domain::Name::parse(raw).map_err(|e| e.to_string())
    }

    fn schema() -> Value {
        name_schema(domain::Name::MIN_CHARS)
    }
}

/// A name of one character or more once trimmed (locations, vendors).
pub struct AnyName;

impl Scalar for AnyName {
    type Value = domain::Name;

    fn parse(raw: &str) -> Result<domain::Name, String> {
        domain::Name::parse_required(raw).map_err(|e| e.to_string())
    }

    fn schema() -> Value {
        name_schema(1)
    }
}

/// Between `min` and [`domain::Name::MAX_CHARS`] characters once the spaces around it
/// are trimmed.
fn name_schema(min: usize) -> Value {
    let max = domain::Name::MAX_CHARS;
    let inner = if min <= 1 {
        format!(r"\S(?:[\s\S]{{0,{}}}\S)?", max - 2)
    } else {
        format!(r"\S[\s\S]{{{},{}}}\S", min - 2, max - 2)
    };
    json!({
        "type": "string",
        "pattern": format!(r"^\s*{inner}\s*$"),
        "description": format!("{min} to {max} characters, spaces around it aside"),
    })
}

/// A two-letter ISO 3166-1 country code, any case; stored upper-case.
pub struct Country;

impl Scalar for Country {
    type Value = String;

    fn parse(raw: &str) -> Result<String, String> {
        domain::country::CountryCode::parse(raw)
            .map(|code| code.into_string())
            .ok_or_else(|| {
                "is not a two-letter country code (ISO 3166-1 alpha-2, e.g. US)".to_owned()
            })
    }

    fn schema() -> Value {
        json!({"type": "string", "pattern": "^[A-Za-z]{2}$"})
    }
}

/// The id of another record: a whole number from 1 (`04` and `+4` are 4). `0`, like
/// `null`, clears a `Change` of it.
pub struct RecordId;

impl Scalar for RecordId {
    type Value = i64;
    const CLEARING: &'static [&'static str] = &["null", "0"];

    fn parse(raw: &str) -> Result<i64, String> {
        parse_id(raw).ok_or_else(|| "must be a positive whole number (an id)".to_owned())
    }

    fn schema() -> Value {
        json!({"type": "integer", "minimum": 1})
    }
}

/// One word of the closed set `V`, read loosely (case, spaces and hyphens aside).
pub struct Word<V>(std::marker::PhantomData<V>);

impl<V: domain::Vocabulary> Scalar for Word<V> {
    type Value = V;

    fn parse(raw: &str) -> Result<V, String> {
        V::parse_loosely(raw).ok_or_else(|| format!("must be one of {}", V::names()))
    }

    fn schema() -> Value {
        let words: Vec<&str> = V::ALL.iter().map(|v| v.as_str()).collect();
        json!({"type": "string", "enum": words})
    }

    fn blank() -> String {
        format!("can't be blank: use one of {}", V::names())
    }
}

/// `true` or `false`; also `1`, `on`, `yes` and `0`, `off`, `no` or empty, any case.
impl Scalar for bool {
    type Value = bool;

    fn parse(raw: &str) -> Result<bool, String> {
        domain::wire::parse_bool(raw).ok_or_else(|| "must be true or false".to_owned())
    }

    fn schema() -> Value {
        json!({"type": "boolean", "description": "true or false; also 1, on, yes and 0, off, no or empty, any case"})
    }
}

/// The `page` of a list: a whole number from 1.
pub struct PageNumber;

impl Scalar for PageNumber {
    type Value = u32;

    fn parse(raw: &str) -> Result<u32, String> {
        match raw.parse::<u32>() {
            Ok(n) if n >= 1 => Ok(n),
            _ => Err("must be a whole number from 1".to_owned()),
        }
    }

    fn schema() -> Value {
        json!({"type": "integer", "minimum": 1, "maximum": u32::MAX})
    }
}
