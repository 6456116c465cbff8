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
use crate::form::{Form, MAX_LIST_ENTRIES, MAX_TEXT_CHARS, parse_id};
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

/// `field` sent without `other` (both names within the form's resource; sent empty is
/// sent, `null` is not) is refused: false, with the problem in `form`. A field already
/// refused for its own value is not named twice.
pub fn needs(form: &mut Form<'_>, field: &str, other: &str) -> bool {
    let params = form.params();
    let sent = |name: &str| {
        let path = form.path(name);
        params.contains(&path) && params.get(&path) != Some("null")
    };
    if sent(field) && !sent(other) && !form.has_errors_for(field) {
        form.error(
            field,
            format!("can't be given without {}", form.path(other)),
        );
        return false;
    }
    true
}

/// Neither `field` nor `other` sent is refused: false, with the problem in `form`. A
/// list (`shape`) sent empty is sent (the empty list); a value sent blank is not.
/// `other` is a field of the same resource, or, after a `/`, a parameter outside it as
/// a form names it (`/business_ids[]` beside `contact[business_ids]`).
/// `empty_is_unsent`: a list sent empty is not sent either ([`Format::EMPTY_IS_UNSENT`]).
pub fn either(
    form: &mut Form<'_>,
    field: &str,
    other: &str,
    shape: Shape,
    empty_is_unsent: bool,
) -> bool {
    let params = form.params();
    let outside = other.strip_prefix('/').map(|o| o.trim_end_matches("[]"));
    let sent = |path: &str| match shape {
        // A list too long or nested is sent: its own problem names it.
        Shape::List if empty_is_unsent => params
            .list(path, MAX_LIST_ENTRIES)
            .map_or(true, |entries| !entries.is_empty()),
        Shape::List => params.contains(path),
        Shape::Scalar => !matches!(params.single(path), Ok(None)),
    };
    let (field_path, other_path) = (
        form.path(field),
        outside.map_or_else(|| form.path(other), str::to_owned),
    );
    if sent(&field_path) || sent(&other_path) {
        return true;
    }
    let message = match outside {
        Some(outside) => format!("can't be blank: send {field_path} and/or {outside}"),
        None => format!("can't be blank: send {field} and/or {other}"),
    };
    form.error(field, message);
    false
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
    /// The field of the same input it may be sent only with.
    pub needs: Option<&'static str>,
    /// The field of the same input to send if this one is left out.
    pub or: Option<&'static str>,
    /// A list sent empty is not sent ([`Format::EMPTY_IS_UNSENT`]).
    pub empty_is_unsent: bool,
}

impl FieldDoc {
    pub fn required<F: Format>(name: &'static str, description: &'static str) -> Self {
        FieldDoc {
            name,
            description,
            required: true,
            schema: without_controls(F::schema()),
            shape: F::SHAPE,
            needs: None,
            or: None,
            empty_is_unsent: F::EMPTY_IS_UNSENT,
        }
    }

    /// This or `other` must be sent (`#[input(or = "...")]`).
    pub fn or(self, other: &'static str) -> Self {
        FieldDoc {
            or: Some(other),
            ..self
        }
    }

    /// Sent only beside `other` (`#[input(needs = "...")]`).
    pub fn needing(self, other: &'static str) -> Self {
        FieldDoc {
            needs: Some(other),
            ..self
        }
    }

    pub fn optional<F: Format>(name: &'static str, description: &'static str) -> Self {
        FieldDoc {
            required: false,
            schema: or_empty(F::schema(), F::TAKES_EMPTY),
            ..Self::required::<F>(name, description)
        }
    }

    /// Left out keeps, `null` clears: the schema takes `null` beside the value.
    pub fn change<F: Format>(name: &'static str, description: &'static str) -> Self {
        let raw = F::schema();
        // A text of no pattern or word list takes "null" as it is.
        let any_text = raw["type"] == "string"
            && ["pattern", "enum", "format"]
                .iter()
                .all(|k| raw.get(k).is_none());
        let value = or_empty(raw, F::TAKES_EMPTY);
        let mut schema = if any_text && F::CLEARING == ["null"] {
            // "null" is a text like any other.
            value
        } else {
            // A clearing word that is a number (an id's `0`) is that number in JSON too.
            let mut branches = vec![value, json!({"type": "string", "enum": F::CLEARING})];
            branches.extend(
                F::CLEARING
                    .iter()
                    .filter_map(|w| w.parse::<i64>().ok())
                    .map(|n| json!({"type": "integer", "enum": [n]})),
            );
            json!({"anyOf": branches})
        };
        if schema.get("description").is_none() {
            schema["description"] = json!(format!(
                "Left out keeps the stored value; {} clears it",
                F::CLEARING.join(" or ")
            ));
        }
        FieldDoc {
            schema,
            ..Self::optional::<F>(name, description)
        }
    }
}

/// No parameter may hold a control character but tab, line feed and carriage return
/// (`Params`, a 422): a text's schema says so. (A pattern, since utoipa's schemas drop
/// `not`.)
pub const NO_CONTROLS: &str = r"^[^\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]*$";

/// A text of no rule but the control characters: a map's value.
pub fn any_text() -> Value {
    json!({"type": "string", "pattern": NO_CONTROLS})
}

/// The key of a map sent as `x[<key>]`: a number (`[1-9][0-9]{0,17}`) where the key
/// names a record by id or number, otherwise a name that holds no bracket (which would
/// nest it), quote, backslash or control character (`Params`). Unanchored, for a key
/// inside a parameter's name too.
pub fn map_key(numbered: bool) -> &'static str {
    if numbered {
        "[1-9][0-9]{0,17}"
    } else {
        r#"[^\[\]"\\\u0000-\u001F\u007F-\u009F]+"#
    }
}

/// A list's entries as documented: a blank entry is skipped (`Params::list`), so
/// `x[]=` sends an empty list; a list that must hold one entry or more takes none.
pub fn with_blank_entries(mut schema: Value) -> Value {
    if schema["type"] != "array" || schema["minItems"].as_u64().unwrap_or(0) > 0 {
        return schema;
    }
    if schema["maxItems"]
        .as_u64()
        .is_some_and(|max| max < MAX_LIST_ENTRIES as u64)
    {
        // Blank entries are not counted: the list, or blank entries alone.
        let blanks = json!({"type": "array", "items": blank(), "maxItems": MAX_LIST_ENTRIES});
        return json!({"anyOf": [schema, blanks]});
    }
    schema["items"] = json!({"anyOf": [schema["items"].take(), blank()]});
    schema
}

/// A decimal's schema: its text (`text`, whose description it takes), or a JSON number
/// from `minimum` to `maximum` in steps of `step`, which `Params` reads as its text
/// (`12.5` as "12.5"). `above_minimum`: the minimum itself is refused.
pub fn decimal(
    mut text: Value,
    minimum: f64,
    maximum: f64,
    step: f64,
    above_minimum: bool,
) -> Value {
    let description = text.as_object_mut().and_then(|t| t.remove("description"));
    let bound = if above_minimum {
        "exclusiveMinimum"
    } else {
        "minimum"
    };
    let number = json!({"type": "number", bound: minimum, "maximum": maximum, "multipleOf": step});
    let mut schema = json!({"anyOf": [text, number]});
    if let Some(description) = description {
        schema["description"] = description;
    }
    schema
}

/// A text of spaces only, or empty: a value not given once trimmed (`Params`).
pub fn blank() -> Value {
    json!({"type": "string", "pattern": format!("^[{SPACES}]*$")})
}

/// `pattern` (anchored, or none) for a text that is not spaces only: a required text
/// sent blank is not given.
pub fn not_blank(pattern: Option<&str>) -> String {
    let pattern = pattern.unwrap_or(NO_CONTROLS);
    let lookahead = controls_lookahead();
    let (head, rest) = match pattern.strip_prefix(&lookahead) {
        Some(rest) => (lookahead.as_str(), rest),
        None => ("^", pattern.strip_prefix('^').unwrap_or(pattern)),
    };
    format!("{head}{}{rest}", not_spaces_only())
}

/// The lookahead in front of a text's own pattern that refuses control characters
/// (`without_controls`).
fn controls_lookahead() -> String {
    format!("^(?={})", &NO_CONTROLS[1..])
}

/// The lookahead of a text that is not spaces only (`not_blank`).
fn not_spaces_only() -> String {
    format!("(?![{SPACES}]*$)")
}

/// What `trim` takes off but control characters (refused before any trimming): what
/// `\s` means in a pattern here. ECMAScript's `\s` holds U+000B, U+000C and U+FEFF,
/// and Python's (which generates the fuzzing's values) U+001C to U+001F too.
const SPACES: &str = r"\t\n\r \u00A0\u1680\u2000-\u200A\u2028\u2029\u202F\u205F\u3000";
pub const CONTROLS: &str = r"\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F";

/// `own` with `\s` and `\S` spelled out as [`SPACES`], and every negated class
/// leaving out the control characters too: the same texts once the lookahead of
/// [`without_controls`] applies, but a generator that reads the pattern no longer
/// makes texts that the lookahead throws away.
fn spelled_out(own: &str) -> String {
    let own = own.replace(r"[\s\S]", &format!("[^{CONTROLS}]"));
    let mut out = String::with_capacity(own.len() * 2);
    let mut class: Option<bool> = None; // inside a class: whether it is negated
    let mut chars = own.chars().peekable();
    while let Some(c) = chars.next() {
        match (c, class) {
            ('\\', _) => match (chars.next(), class) {
                (Some('s'), None) => out.push_str(&format!("[{SPACES}]")),
                (Some('s'), Some(_)) => out.push_str(SPACES),
                (Some('S'), None) => out.push_str(&format!("[^{SPACES}{CONTROLS}]")),
                (Some(next), _) => {
                    out.push('\\');
                    out.push(next);
                }
                (None, _) => out.push('\\'),
            },
            ('[', None) => {
                let negated = chars.peek() == Some(&'^');
                if negated {
                    chars.next();
                }
                out.push_str(if negated { "[^" } else { "[" });
                class = Some(negated);
            }
            (']', Some(negated)) => {
                if negated {
                    out.push_str(CONTROLS);
                }
                out.push(']');
                class = None;
            }
            _ => out.push(c),
        }
    }
    out
}

fn without_controls(mut schema: Value) -> Value {
    if let Some(alternatives) = schema.get_mut("anyOf").and_then(Value::as_array_mut) {
        for alternative in alternatives.iter_mut() {
            *alternative = without_controls(alternative.take());
        }
        return schema;
    }
    if schema["type"] == "array" && schema["items"]["type"] == "string" {
        let mut schema = schema;
        schema["items"] = without_controls(schema["items"].take());
        return schema;
    }
    if schema["type"] != "string" {
        return schema;
    }
    let mut schema = schema;
    let own = schema["pattern"].as_str().map(spelled_out);
    let pattern = match own.as_deref() {
        None => NO_CONTROLS.to_owned(),
        // One pattern, not an `allOf` of two (which client generators take for a new
        // type): the rule as a lookahead in front of the text's own pattern.
        Some(own) => match own.strip_prefix('^') {
            Some(anchored) => format!("{}{anchored}", controls_lookahead()),
            None => format!(r"{}[\s\S]*?(?:{own})", controls_lookahead()),
        },
    };
    schema["pattern"] = json!(pattern);
    schema
}

/// A value that may be left out may also be sent empty, which is the same
/// (`Params::get`): its schema takes the empty text beside the value.
fn or_empty(value: Value, takes_empty: bool) -> Value {
    let takes_empty = takes_empty
        || value["type"] == "string"
            && ["pattern", "enum", "format", "minLength"]
                .iter()
                .all(|k| value.get(k).is_none());
    if takes_empty || value["type"] == "array" {
        without_controls(value)
    } else {
        // Values come trimmed (`Params`): spaces only are empty too.
        json!({"anyOf": [without_controls(value), blank()]})
    }
}

/// How one value is read from the text sent, and documented.
pub trait Format {
    type Value;
    /// How it is sent.
    const SHAPE: Shape = Shape::Scalar;
    /// The words that clear a `Change` field.
    const CLEARING: &'static [&'static str] = &["null"];
    /// Its schema takes the empty text already.
    const TAKES_EMPTY: bool = false;
    /// A list sent empty, or with blank entries only, is not sent (as `read` answers),
    /// for the rule `or` too.
    const EMPTY_IS_UNSENT: bool = false;

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
    const TAKES_EMPTY: bool = false;
    fn parse(raw: &str) -> Result<Self::Value, String>;
    fn schema() -> Value;
    fn blank() -> String {
        "can't be blank".to_owned()
    }
}

impl<S: Scalar> Format for S {
    type Value = S::Value;
    const CLEARING: &'static [&'static str] = S::CLEARING;
    const TAKES_EMPTY: bool = S::TAKES_EMPTY;

    fn read(params: &Params, path: &str) -> Option<Result<Self::Value, String>> {
        match params.single(path) {
            Ok(raw) => raw.map(S::parse),
            Err(problem) => Some(Err(problem.to_owned())),
        }
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

    /// The value of a field when it was sent and is good, recording nothing: for a
    /// check that spans fields, run whatever else failed so the 422 names every
    /// problem.
    pub fn peek<F: Format>(&self, field: &str) -> Option<F::Value> {
        F::read(self.params(), &self.path(field))?.ok()
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

/// A value's schema in a JSON body, where `Params` reads a number or a boolean as its
/// text (`2` as "2", `true` as "true"): a free text, or a name long enough, also takes
/// them, a boolean takes `0` and `1`, a list `null` entries (dropped; one that must not
/// be empty holds another), and an id list
/// one id or a comma list. Texts of another pattern (a date, a word)
/// take no number or boolean (their text never fits).
pub fn in_json(mut schema: Value) -> Value {
    if let Some(alternatives) = schema.get_mut("anyOf").and_then(Value::as_array_mut) {
        let boolean = alternatives.iter().any(|a| a["type"] == "boolean");
        for alternative in alternatives.iter_mut() {
            *alternative = in_json(alternative.take());
        }
        if boolean {
            alternatives.push(json!({"type": "integer", "enum": [0, 1]}));
        }
        return schema;
    }
    if schema["type"] == "array" {
        // A `null` entry is dropped (`Params`).
        let mut items = schema["items"].take();
        match items.get_mut("anyOf").and_then(Value::as_array_mut) {
            Some(alternatives) => alternatives.push(json!({"type": "null"})),
            None => items = json!({"anyOf": [items, {"type": "null"}]}),
        }
        schema["items"] = items;
        if schema["minItems"].as_u64().unwrap_or(0) > 0 {
            // One entry or more once the `null`s are dropped.
            schema["contains"] = json!({"not": {"type": "null"}});
        }
    }
    let items = &schema["items"];
    if schema["type"] == "array" && items["anyOf"][0] == id_schema() {
        // An id list is also one id, or ids in one text separated by commas (`IdList`).
        let ids = format!("{ID}(?:,{ID})*", ID = map_key(true));
        let comma_list = if schema["minItems"].as_u64().unwrap_or(0) > 0 {
            format!("^{ids}$")
        } else {
            format!("^(?:{ids})?$")
        };
        return json!({"anyOf": [schema, id_schema(), {"type": "string", "pattern": comma_list}]});
    }
    if schema["type"] == "integer" {
        // A word list's texts too: `"1"` as `1`.
        if let Some(words) = schema["enum"].as_array() {
            let texts: Vec<String> = words.iter().map(Value::to_string).collect();
            return json!({"anyOf": [schema, {"type": "string", "enum": texts}]});
        }
        return schema;
    }
    if schema["type"] != "string" || schema.get("enum").is_some() || schema.get("format").is_some()
    {
        return schema;
    }
    // The longest text of a number or boolean: `-2.2250738585072014e-308`.
    const LONGEST: u64 = 24;
    if schema["maxLength"]
        .as_u64()
        .is_some_and(|max| max < LONGEST)
    {
        return schema;
    }
    // A required text's pattern also refuses spaces only (`not_blank`), as a name's does.
    let pattern = schema["pattern"]
        .as_str()
        .map(|p| p.replacen(&not_spaces_only(), "", 1));
    let pattern = pattern.as_deref();
    let name = |min| pattern == without_controls(name_schema(min))["pattern"].as_str();
    let scalars = if pattern.is_none_or(takes_any_word) || name(1) {
        json!(["string", "number", "boolean"])
    } else if name(domain::Name::MIN_CHARS) {
        // "true" and "false" are long enough, and numbers of three characters or more:
        // all but the whole numbers from -9 to 99.
        debug_assert_eq!(domain::Name::MIN_CHARS, 3);
        schema["not"] = json!({"type": "integer", "minimum": -9, "maximum": 99});
        json!(["string", "number", "boolean"])
    } else {
        return schema;
    };
    schema["type"] = scalars;
    schema
}

/// Whether a text's pattern takes any text of letters, digits, `.`, `+` and `-` (a
/// number's or a boolean's): the control characters' lookahead, maybe "not `null`",
/// then one class of characters left out that names control characters only.
fn takes_any_word(pattern: &str) -> bool {
    let rest = pattern
        .strip_prefix(&controls_lookahead())
        .unwrap_or(pattern);
    let rest = rest.strip_prefix(&not_spaces_only()).unwrap_or(rest);
    let rest = rest.strip_prefix("(?!null$)").unwrap_or(rest);
    let rest = rest.strip_prefix('^').unwrap_or(rest);
    rest.strip_prefix("[^")
        .and_then(|r| r.strip_suffix("]*$"))
        .is_some_and(|class| {
            let mut escapes = class.split(r"\u");
            escapes.next() == Some("")
                && escapes.all(|e| {
                    e.len() >= 4
                        && e[..4].chars().all(|c| c.is_ascii_hexdigit())
                        && e[4..].chars().all(|c| c == '-')
                })
        })
}

/// A latitude (`LIMIT` 90) or longitude (180): `domain::item::parse_coordinate`. A
/// number, or its text (what a form sends).
pub struct Coordinate<const LIMIT: u32>;

impl<const LIMIT: u32> Scalar for Coordinate<LIMIT> {
    type Value = String;

    fn parse(raw: &str) -> Result<String, String> {
        domain::item::parse_coordinate(raw, LIMIT)
    }

    fn schema() -> Value {
        // The whole numbers below the limit, with any fraction, or the limit itself.
        let below = match LIMIT {
            180 => r"1[0-7]\d|\d{1,2}",
            _ => r"[0-8]?\d",
        };
        json!({
            "anyOf": [
                {"type": "number", "minimum": -f64::from(LIMIT), "maximum": LIMIT},
                without_controls(json!({
                    "type": "string",
                    "pattern": format!(r"^\s*[+-]?0*(?:(?:{below})(?:\.\d+)?|{LIMIT}(?:\.0+)?)\s*$"),
                })),
            ],
            "description": format!("A decimal from -{LIMIT} to {LIMIT}; more than 10 decimal places are rounded"),
        })
    }
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
        // Each code in any case: `[Uu][Ss]`.
        let codes: Vec<String> = domain::country::CountryCode::ALL
            .iter()
            .map(|code| {
                code.chars()
                    .map(|c| format!("[{c}{}]", c.to_ascii_lowercase()))
                    .collect()
            })
            .collect();
        json!({
            "type": "string",
            "pattern": format!(r"^\s*(?:{})\s*$", codes.join("|")),
            "description": "A two-letter ISO 3166-1 country code, any case",
        })
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
        id_schema()
    }
}

/// An id's schema: a whole number from 1 that fits 64 bits (`parse_id`).
pub fn id_schema() -> Value {
    json!({"type": "integer", "minimum": 1, "maximum": i64::MAX})
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
    const TAKES_EMPTY: bool = true;

    fn parse(raw: &str) -> Result<bool, String> {
        domain::wire::parse_bool(raw).ok_or_else(|| "must be true or false".to_owned())
    }

    fn schema() -> Value {
        // A form sends every value as text, so the spellings are documented as text too.
        json!({
            "anyOf": [
                {"type": "boolean"},
                without_controls(json!({"type": "string", "pattern": r"^\s*(?:[Tt][Rr][Uu][Ee]|[Ff][Aa][Ll][Ss][Ee]|[01]|[Oo][Nn]|[Oo][Ff][Ff]|[Yy][Ee][Ss]|[Nn][Oo])?\s*$"}))
            ],
            "description": "true or false; also 1, on, yes and 0, off, no or empty, any case"
        })
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

/// A list's `page`, when it is the list's only parameter (flattened into the others).
#[derive(Input)]
pub struct PageQuery {
    /// The page, from 1 (the default).
    #[input(format = PageNumber)]
    pub page: Option<u32>,
}

impl PageQuery {
    pub fn page(&self, size: domain::PageSize) -> domain::Page {
        domain::Page::new(self.page.unwrap_or(1), size)
    }
}

/// A percent from 0 to 100 with at most four decimal places (`8.875`), as parts per
/// million (88750).
pub struct Percent;

impl Scalar for Percent {
    type Value = i64;

    fn parse(raw: &str) -> Result<i64, String> {
        use rust_decimal::Decimal;
        use rust_decimal::prelude::ToPrimitive;
        match raw.parse::<Decimal>() {
            Ok(d)
                if d >= Decimal::ZERO && d <= Decimal::from(100) && d.normalize().scale() <= 4 =>
            {
                (d * Decimal::from(10_000)).trunc().to_i64().ok_or_else(|| {
                    "must be a percent from 0 to 100 with at most 4 decimal places".to_owned()
                })
            }
            _ => Err("must be a percent from 0 to 100 with at most 4 decimal places".to_owned()),
        }
    }

    fn schema() -> Value {
        let text = json!({
            "type": "string",
            "pattern": r"^0*(?:100(?:\.0*)?|\d{1,2}(?:\.\d{0,4}0*)?)$",
            "description": "A percent from 0 to 100, at most 4 decimal places (8.875)",
        });
        decimal(text, 0.0, 100.0, 0.0001, false)
    }
}

/// Ids of records: repeated (`x[]=1&x[]=2`) or one comma list (`x=1,2`), at most
/// [`MAX_LIST_ENTRIES`], each a whole number from 1; repeats are dropped (the first
/// kept, in the order sent). Sent empty, it is an empty list.
pub struct IdList;

impl Format for IdList {
    type Value = Vec<i64>;
    const SHAPE: Shape = Shape::List;

    fn read(params: &Params, path: &str) -> Option<Result<Vec<i64>, String>> {
        if !params.contains(path) {
            return None;
        }
        Some(
            params
                .list(path, MAX_LIST_ENTRIES)
                .map_err(|bad| bad.to_string())
                .and_then(|raws| ids_of(&raws)),
        )
    }

    fn schema() -> Value {
        json!({
            "type": "array",
            // A list past `maxItems` of 19-digit ids outgrows the 64 KiB a URI may hold
            // (the `http` crate's limit): hyper answers it with a bodiless 414, which
            // every operation documents.
            "items": id_schema(),
            "maxItems": MAX_LIST_ENTRIES,
        })
    }
}

impl IdList {
    /// As [`IdList`] reads, but sent empty is not sent (a required list's own blank
    /// message names it).
    pub fn read_unless_empty(params: &Params, path: &str) -> Option<Result<Vec<i64>, String>> {
        Self::read(params, path).filter(|ids| !matches!(ids, Ok(ids) if ids.is_empty()))
    }
}

/// An [`IdList`] of one id or more: sent empty, it is refused.
pub struct SomeIds;

impl Format for SomeIds {
    type Value = Vec<i64>;
    const SHAPE: Shape = Shape::List;

    fn read(params: &Params, path: &str) -> Option<Result<Vec<i64>, String>> {
        IdList::read(params, path).map(|ids| {
            ids.and_then(|ids| {
                if ids.is_empty() {
                    Err("can't be empty: give one id or more".to_owned())
                } else {
                    Ok(ids)
                }
            })
        })
    }

    fn schema() -> Value {
        let mut schema = IdList::schema();
        schema["minItems"] = 1.into();
        schema
    }
}

/// Each of `raws` as an id, repeats dropped; every entry that is not one is named.
fn ids_of(raws: &[String]) -> Result<Vec<i64>, String> {
    let mut seen = std::collections::HashSet::with_capacity(raws.len());
    let mut ids = Vec::with_capacity(raws.len());
    let mut bad = Vec::new();
    for raw in raws {
        match parse_id(raw) {
            Some(id) => {
                if seen.insert(id) {
                    ids.push(id);
                }
            }
            None => bad.push(format!("{raw:?}")),
        }
    }
    if bad.is_empty() {
        Ok(ids)
    } else {
        Err(format!(
            "must hold ids (positive whole numbers), not {}",
            bad.join(", ")
        ))
    }
}

/// A day: `mm/dd/yyyy` (the spec's form) or `yyyy-mm-dd`, of the years 1900 to 9998.
impl Scalar for chrono::NaiveDate {
    type Value = chrono::NaiveDate;

    fn parse(raw: &str) -> Result<chrono::NaiveDate, String> {
        domain::wire::parse_date(raw).map_err(|e| e.to_string())
    }

    fn schema() -> Value {
        json!({
            "type": "string",
            "format": "date",
            "pattern": r"^(?:19\d\d|[2-8]\d{3}|9[0-8]\d\d|99[0-8]\d|999[0-8])-",
            "description": "A day of the years 1900 to 9998, yyyy-mm-dd; mm/dd/yyyy (the spec's form) is read too",
        })
    }
}

/// The largest amount a JSON number may give: twelve digits and two decimals.
pub const MOST_MONEY: f64 = 999_999_999_999.99;

/// An amount of money, not negative, with at most two decimal places (`12.50`), in
/// minor units (1250).
pub struct Amount;

impl Scalar for Amount {
    type Value = i64;

    fn parse(raw: &str) -> Result<i64, String> {
        domain::money::Money::parse(raw).map(|m| m.minor())
    }

    fn schema() -> Value {
        let text = json!({
            "type": "string",
            "pattern": r"^\s*\+?\d{1,12}(?:\.\d{0,2}0*)?\s*$",
            "description": "An amount such as 12.50: not negative, at most two decimal places",
        });
        decimal(text, 0.0, MOST_MONEY, 0.01, false)
    }
}

/// An e-mail address: something@something.tld, without spaces.
pub struct Email;

impl Scalar for Email {
    type Value = String;

    fn parse(raw: &str) -> Result<String, String> {
        String::parse(raw).and_then(|text| {
            if domain::wire::is_email(&text) {
                Ok(text)
            } else {
                Err("is not an e-mail address".to_owned())
            }
        })
    }

    fn schema() -> Value {
        json!({
            "type": "string",
            "pattern": r"^[^@\s]+@[^@\s.][^@\s]*\.[^@\s]*[^@\s.]$",
            "maxLength": MAX_TEXT_CHARS,
        })
    }
}

/// Text of at most [`domain::Name::MAX_CHARS`] characters that must hold something
/// (a person's first or last name); `null` is no value.
pub struct ShortText;

impl Scalar for ShortText {
    type Value = String;

    fn parse(raw: &str) -> Result<String, String> {
        if raw == "null" {
            Err("can't be blank".to_owned())
        } else if raw.chars().count() > domain::Name::MAX_CHARS {
            Err(format!(
                "is too long (maximum is {} characters)",
                domain::Name::MAX_CHARS
            ))
        } else {
            Ok(raw.to_owned())
        }
    }

    fn schema() -> Value {
        json!({
            "type": "string",
            "minLength": 1,
            "maxLength": domain::Name::MAX_CHARS,
            // Anything but the word null.
            // The text itself spelled out, so a generator makes its characters from the
            // pattern rather than filtering arbitrary ones.
            "pattern": r"^(?!null$)[\s\S]*$",
        })
    }
}

/// A time of day, `hh:mm` on the 24-hour clock.
pub struct TimeOfDay;

impl Scalar for TimeOfDay {
    type Value = chrono::NaiveTime;

    fn parse(raw: &str) -> Result<chrono::NaiveTime, String> {
        domain::wire::parse_time(raw).ok_or_else(|| "must be a time such as 14:30".to_owned())
    }

    fn schema() -> Value {
        json!({"type": "string", "pattern": r"^\s*([01]?\d|2[0-3]):[0-5]\d\s*$"})
    }
}

// Formats added for the families of one worker each go below, one section each, so
// their additions merge.

// Section D (members, customers, businesses, contacts, addresses, vendors).

/// Reads `T`, parameters at the top level (`skip_confirmation_email`, `business_ids`),
/// beside a resource's fields read with `form`: its problems are recorded on `form`,
/// so one 422 names them all.
pub fn read_top_level<T: Input>(form: &mut Form<'_>) -> Option<T> {
    let mut top = Form::new(form.params(), T::RESOURCE);
    let value = T::read(&mut top);
    if let Err(ApiError::Invalid(errors)) = top.finish() {
        for (field, problems) in errors {
            for problem in problems {
                form.error(&field, problem);
            }
        }
    }
    value
}

// End of section D.

// Section E (assets, verifications, stock, listings).

/// Reads `T` under its own resource (or at the top level) beside the input `form`
/// reads, and records `T`'s problems in `form`, each under `name(field)`: one 422 then
/// names the problems of both (`order_type` and `user[id]` beside `line_item[...]`).
pub fn read_beside<T: Input>(form: &mut Form<'_>, name: impl Fn(&str) -> String) -> Option<T> {
    let mut own = Form::new(form.params(), T::RESOURCE);
    let value = T::read(&mut own);
    match own.finish_with(value) {
        Ok(value) => Some(value),
        Err(ApiError::Invalid(problems)) => {
            for (field, problems) in problems {
                for problem in problems {
                    form.error(&name(&field), problem);
                }
            }
            None
        }
        // A reader that named no problem: the 500 of `finish_with`, for `form` too.
        Err(_) => None,
    }
}

/// A number of units of an item: a whole number from 1 to
/// [`domain::stock::Quantity::MAX`].
pub struct Units;

impl Scalar for Units {
    type Value = domain::stock::Quantity;

    fn parse(raw: &str) -> Result<domain::stock::Quantity, String> {
        domain::stock::Quantity::parse(raw)
    }

    fn schema() -> Value {
        json!({"type": "integer", "minimum": 1, "maximum": domain::stock::Quantity::MAX})
    }

    fn blank() -> String {
        "can't be blank: a whole number of units".to_owned()
    }
}

// End of section E.

// Section F (orders, groups, bundles, custom fields, reference data, settings, labels).

// End of section F.

#[cfg(test)]
mod tests {
    use super::*;

    /// `F`'s schema takes exactly the samples its parser takes: what the document
    /// promises is what the server does (the fuzzing in CI sends what the schema
    /// allows and expects it taken, and what it refuses and expects a 422). Where the
    /// server reads more than one spelling (dates as mm/dd/yyyy too), the schema gives
    /// the one a generated value can always use, and the samples stick to it.
    fn agree<F: Scalar>(samples: &[&str]) {
        // As documented: with the control characters' lookahead and `\s` spelled out.
        let schema = without_controls(F::schema());
        let validator = jsonschema::options()
            .should_validate_formats(true)
            .build(&schema)
            .expect("a valid schema");
        let numeric = F::schema()["type"] == "integer";
        for sample in samples {
            let parsed = F::parse(sample).is_ok();
            // A number is sent as text; the schema speaks of the number.
            let value = match sample.trim().parse::<i64>() {
                Ok(n) if numeric => json!(n),
                _ => json!(sample),
            };
            let valid = validator.is_valid(&value);
            assert_eq!(
                parsed, valid,
                "{sample:?}: parsed {parsed}, schema {valid} ({schema})"
            );
        }
    }

    #[test]
    fn names_are_documented_as_read() {
        let long = "x".repeat(255);
        let too_long = "x".repeat(256);
        let padded = format!("  {long}  ");
        let samples = [
            "ab",
            "abc",
            " ab ",
            "  abc  ",
            "a b",
            "a",
            "   ",
            "",
            "é€🙂",
            "\u{a0}ab\u{3000}",
            "\u{feff}ab",
            &long,
            &too_long,
            &padded,
        ];
        agree::<domain::Name>(&samples);
        agree::<AnyName>(&samples);
    }

    #[test]
    fn numbers_are_documented_as_read() {
        agree::<Percent>(&[
            "0", "8.875", "100", "100.0", "100.01", "101", "8.87500", "8.87501", "-1", "abc",
            "007", "5.",
        ]);
        agree::<Amount>(&[
            "0",
            "12.50",
            "12.5",
            "12.505",
            "-1",
            "999999999999.99",
            "12.500",
            "+3",
            "abc",
            // `trim` takes a no-break space off, not a byte order mark.
            "\u{a0}12.50",
            "\u{feff}12.50",
            "1\u{2003}",
        ]);
        agree::<RecordId>(&["1", "42", "0", "-3", "x"]);
        agree::<bool>(&[
            "true",
            "FALSE",
            " yes ",
            "On",
            "0",
            "1",
            "",
            "no",
            "maybe",
            "2",
            "truee",
            "\u{a0}yes",
        ]);
        agree::<PageNumber>(&["1", "2", "0", "-1", "x"]);
    }

    #[test]
    fn texts_are_documented_as_read() {
        agree::<Email>(&[
            "a@b.co",
            "a@b",
            "a b@c.de",
            "@b.co",
            "a@.b",
            "a@b.",
            "a@@b.co",
            "x.y+z@mail.example.org",
        ]);
        agree::<Country>(&["US", "us", "uS", "USA", "U", "1A", "ZZ"]);
        let long = "é".repeat(255);
        let too_long = "é".repeat(256);
        // Sent empty is not sent (`Params::get`), so "" never reaches a parser.
        agree::<ShortText>(&["Ann", "null", &long, &too_long]);
        let text = "🙂".repeat(MAX_TEXT_CHARS);
        let too_much = "🙂".repeat(MAX_TEXT_CHARS + 1);
        agree::<String>(&["null", &text, &too_much]);
        agree::<TimeOfDay>(&["09:30", "9:30", "23:59", "24:00", "12:60", "1230", "12:5"]);
        agree::<chrono::NaiveDate>(&[
            "2026-11-27",
            "1900-01-01",
            "1899-12-31",
            "9998-12-31",
            "9999-01-01",
            "2026-13-01",
            "nope",
        ]);
    }
}
