//! The answer's JSON, written by a serializer of our own into the answer's buffer: the
//! same bytes serde_json writes (tested against it), but a text with nothing to escape
//! (nearly every key and value) is found so eight bytes at a time and copied whole,
//! where serde_json looks each byte up in its escape table and branches on it; and the
//! keys that are the program's own text (a struct's fields, `StaticKey`) are written
//! without being looked at. On a page of 25 assets serde_json's escaping and the map
//! entries around it were about a tenth of the server's CPU (perf).
//!
//! Numbers, bytes and escapes of unusual characters are left to serde_json itself, so
//! they come out exactly as before.

use serde::ser::{self, Error as _, Serialize};

type Error = serde_json::Error;
type Result<T = ()> = std::result::Result<T, Error>;

/// `value` as JSON, appended to `out`.
pub fn write(out: &mut Vec<u8>, value: &(impl Serialize + ?Sized)) -> Result {
    value.serialize(Json(out))
}

/// Whether `text` holds a byte JSON must escape: a control character, `"` or `\`.
/// Eight bytes at a time (most keys and values are shorter than 16), the last ones
/// padded with spaces; non-ASCII bytes are written as they are.
fn needs_escape(text: &[u8]) -> bool {
    let mut words = text.chunks_exact(8);
    if words.any(|w| word_needs_escape(u64::from_le_bytes(w.try_into().expect("8 bytes")))) {
        return true;
    }
    let rest = words.remainder();
    let mut last = [b' '; 8];
    last[..rest.len()].copy_from_slice(rest);
    word_needs_escape(u64::from_le_bytes(last))
}

/// Whether any byte of `w` is below 0x20, `"` or `\` (the bit tricks of "Bit Twiddling
/// Hacks": `x - 0x01.. & !x & 0x80..` is not zero exactly when some byte of `x` is zero,
/// and `x - n*0x01..` likewise when some byte is below `n`, for `n` up to 128).
fn word_needs_escape(w: u64) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let below = |x: u64, n: u8| x.wrapping_sub(ONES * u64::from(n)) & !x & HIGH;
    let equal = |x: u64, c: u8| below(x ^ (ONES * u64::from(c)), 1);
    below(w, 0x20) | equal(w, b'"') | equal(w, b'\\') != 0
}

/// `text` as a JSON string.
fn string(out: &mut Vec<u8>, text: &str) -> Result {
    if needs_escape(text.as_bytes()) {
        // serde_json's own escapes (`\n`, `\u001f`, ...).
        return ser::Serializer::serialize_str(&mut serde_json::Serializer::new(out), text);
    }
    verbatim(out, text);
    Ok(())
}

/// `text` in quotes, as it is: it holds nothing to escape.
fn verbatim(out: &mut Vec<u8>, text: &str) {
    out.reserve(text.len() + 2);
    out.push(b'"');
    out.extend_from_slice(text.as_bytes());
    out.push(b'"');
}

/// Text of the program's own (a struct's field name, a `StaticKey`) in quotes, not
/// looked at for escapes (but in debug builds).
fn own(out: &mut Vec<u8>, text: &str) {
    debug_assert!(!needs_escape(text.as_bytes()), "{text:?} needs escaping");
    verbatim(out, text);
}

/// The serializer: every value appended to the buffer it holds.
struct Json<'a>(&'a mut Vec<u8>);

impl Json<'_> {
    /// serde_json's serializer on the same buffer, for what it writes as we would.
    fn plain(&mut self) -> serde_json::Serializer<&mut Vec<u8>> {
        serde_json::Serializer::new(&mut *self.0)
    }
}

macro_rules! plain {
    ($($method:ident($type:ty)),+ $(,)?) => {$(
        fn $method(mut self, v: $type) -> Result {
            ser::Serializer::$method(&mut self.plain(), v)
        }
    )+};
}

impl<'a> ser::Serializer for Json<'a> {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = Compound<'a>;
    type SerializeTuple = Compound<'a>;
    type SerializeTupleStruct = Compound<'a>;
    type SerializeTupleVariant = Compound<'a>;
    type SerializeMap = Compound<'a>;
    type SerializeStruct = Compound<'a>;
    type SerializeStructVariant = Compound<'a>;

    plain! {
        serialize_bool(bool), serialize_i8(i8), serialize_i16(i16), serialize_i32(i32),
        serialize_i64(i64), serialize_i128(i128), serialize_u8(u8), serialize_u16(u16),
        serialize_u32(u32), serialize_u64(u64), serialize_u128(u128), serialize_f32(f32),
        serialize_f64(f64), serialize_bytes(&[u8]),
    }

    fn serialize_char(self, v: char) -> Result {
        string(self.0, v.encode_utf8(&mut [0; 4]))
    }

    fn serialize_str(self, v: &str) -> Result {
        string(self.0, v)
    }

    fn serialize_none(self) -> Result {
        self.serialize_unit()
    }

    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result {
        value.serialize(self)
    }

    fn serialize_unit(self) -> Result {
        self.0.extend_from_slice(b"null");
        Ok(())
    }

    fn serialize_unit_struct(self, _name: &'static str) -> Result {
        self.serialize_unit()
    }

    fn serialize_unit_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
    ) -> Result {
        string(self.0, variant)
    }

    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        value: &T,
    ) -> Result {
        value.serialize(self)
    }

    /// `{"<variant>":<value>}`, as serde_json writes an externally tagged variant.
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        value: &T,
    ) -> Result {
        tag(self.0, variant)?;
        value.serialize(Json(&mut *self.0))?;
        self.0.push(b'}');
        Ok(())
    }

    fn serialize_seq(self, _len: Option<usize>) -> Result<Compound<'a>> {
        Ok(Compound::open(self.0, b"[", b"]"))
    }

    fn serialize_tuple(self, len: usize) -> Result<Compound<'a>> {
        self.serialize_seq(Some(len))
    }

    fn serialize_tuple_struct(self, _name: &'static str, len: usize) -> Result<Compound<'a>> {
        self.serialize_seq(Some(len))
    }

    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        _len: usize,
    ) -> Result<Compound<'a>> {
        tag(self.0, variant)?;
        Ok(Compound::open(self.0, b"[", b"]}"))
    }

    fn serialize_map(self, _len: Option<usize>) -> Result<Compound<'a>> {
        Ok(Compound::open(self.0, b"{", b"}"))
    }

    fn serialize_struct(self, _name: &'static str, len: usize) -> Result<Compound<'a>> {
        self.serialize_map(Some(len))
    }

    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        _len: usize,
    ) -> Result<Compound<'a>> {
        tag(self.0, variant)?;
        Ok(Compound::open(self.0, b"{", b"}}"))
    }
}

/// `{"<variant>":`, which opens an externally tagged variant as serde_json writes it.
fn tag(out: &mut Vec<u8>, variant: &str) -> Result {
    out.push(b'{');
    string(out, variant)?;
    out.push(b':');
    Ok(())
}

/// An array's elements or an object's entries, each after a comma but the first;
/// `close` ends it.
struct Compound<'a> {
    out: &'a mut Vec<u8>,
    first: bool,
    close: &'static [u8],
}

impl<'a> Compound<'a> {
    fn open(out: &'a mut Vec<u8>, open: &[u8], close: &'static [u8]) -> Self {
        out.extend_from_slice(open);
        Compound {
            out,
            first: true,
            close,
        }
    }

    fn comma(&mut self) {
        if !std::mem::take(&mut self.first) {
            self.out.push(b',');
        }
    }

    fn element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result {
        self.comma();
        value.serialize(Json(&mut *self.out))
    }

    /// A field name of the program's own (a struct's): written as it is, with its colon.
    fn field<T: Serialize + ?Sized>(&mut self, key: &'static str, value: &T) -> Result {
        self.comma();
        own(self.out, key);
        self.out.push(b':');
        value.serialize(Json(&mut *self.out))
    }

    fn close(self) {
        self.out.extend_from_slice(self.close);
    }
}

/// The traits of arrays (`element`) and structs (`field`), each ended by `close`.
macro_rules! compound {
    ($($trait:ident::$method:ident => $write:ident($($key:ident: $type:ty)?)),+ $(,)?) => {$(
        impl ser::$trait for Compound<'_> {
            type Ok = ();
            type Error = Error;
            fn $method<T: Serialize + ?Sized>(&mut self, $($key: $type,)? value: &T) -> Result {
                self.$write($($key,)? value)
            }
            fn end(self) -> Result {
                self.close();
                Ok(())
            }
        }
    )+};
}

compound!(
    SerializeSeq::serialize_element => element(),
    SerializeTuple::serialize_element => element(),
    SerializeTupleStruct::serialize_field => element(),
    SerializeTupleVariant::serialize_field => element(),
    SerializeStruct::serialize_field => field(key: &'static str),
    SerializeStructVariant::serialize_field => field(key: &'static str),
);

impl ser::SerializeMap for Compound<'_> {
    type Ok = ();
    type Error = Error;

    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result {
        self.comma();
        key.serialize(Key {
            out: &mut *self.out,
            raw: false,
        })
    }

    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result {
        self.out.push(b':');
        value.serialize(Json(&mut *self.out))
    }

    fn end(self) -> Result {
        self.close();
        Ok(())
    }
}

/// A key of the program's own text (`views::Object::entry`): written as it is, without
/// being looked at for escapes, when it reaches this serializer as a map's key; any
/// other serializer (serde_json's) sees the text itself.
pub struct StaticKey(pub &'static str);

impl StaticKey {
    const NAME: &'static str = "rentrack::json::StaticKey";
}

impl Serialize for StaticKey {
    fn serialize<S: ser::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        s.serialize_newtype_struct(Self::NAME, self.0)
    }
}

/// A map's key: text or a character as a JSON string; a number or a boolean in
/// quotes, as serde_json writes them; anything else refused, as serde_json refuses it.
struct Key<'a> {
    out: &'a mut Vec<u8>,
    /// The text of a `StaticKey`, written without being looked at.
    raw: bool,
}

impl Key<'_> {
    /// `v` as its plain JSON text, in quotes.
    fn quoted(self, v: impl Serialize) -> Result {
        self.out.push(b'"');
        v.serialize(Json(&mut *self.out))?;
        self.out.push(b'"');
        Ok(())
    }
}

fn not_a_key() -> Error {
    Error::custom("key must be a string")
}

fn not_finite() -> Error {
    Error::custom("float key must be finite (got NaN or +/-inf)")
}

macro_rules! quoted {
    ($($method:ident($type:ty)),+ $(,)?) => {$(
        fn $method(self, v: $type) -> Result {
            self.quoted(v)
        }
    )+};
}

macro_rules! refused {
    ($($method:ident($($type:ty),*)),+ $(,)?) => {$(
        fn $method(self, $(_: $type),*) -> Result {
            Err(not_a_key())
        }
    )+};
}

impl ser::Serializer for Key<'_> {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = ser::Impossible<(), Error>;
    type SerializeTuple = ser::Impossible<(), Error>;
    type SerializeTupleStruct = ser::Impossible<(), Error>;
    type SerializeTupleVariant = ser::Impossible<(), Error>;
    type SerializeMap = ser::Impossible<(), Error>;
    type SerializeStruct = ser::Impossible<(), Error>;
    type SerializeStructVariant = ser::Impossible<(), Error>;

    quoted! {
        serialize_bool(bool), serialize_i8(i8), serialize_i16(i16), serialize_i32(i32),
        serialize_i64(i64), serialize_i128(i128), serialize_u8(u8), serialize_u16(u16),
        serialize_u32(u32), serialize_u64(u64), serialize_u128(u128),
    }

    refused! {
        serialize_bytes(&[u8]), serialize_none(), serialize_unit(),
        serialize_unit_struct(&'static str),
    }

    /// serde_json quotes finite floats and refuses the others.
    fn serialize_f32(self, v: f32) -> Result {
        if v.is_finite() {
            self.quoted(v)
        } else {
            Err(not_finite())
        }
    }

    fn serialize_f64(self, v: f64) -> Result {
        if v.is_finite() {
            self.quoted(v)
        } else {
            Err(not_finite())
        }
    }

    fn serialize_char(self, v: char) -> Result {
        string(self.out, v.encode_utf8(&mut [0; 4]))
    }

    fn serialize_str(self, v: &str) -> Result {
        if !self.raw {
            return string(self.out, v);
        }
        own(self.out, v);
        Ok(())
    }

    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result {
        value.serialize(self)
    }

    fn serialize_unit_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
    ) -> Result {
        string(self.out, variant)
    }

    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        name: &'static str,
        value: &T,
    ) -> Result {
        if name == StaticKey::NAME {
            return value.serialize(Key {
                out: self.out,
                raw: true,
            });
        }
        value.serialize(self)
    }

    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        _index: u32,
        _variant: &'static str,
        _value: &T,
    ) -> Result {
        Err(not_a_key())
    }

    fn serialize_seq(self, _len: Option<usize>) -> Result<Self::SerializeSeq> {
        Err(not_a_key())
    }

    fn serialize_tuple(self, _len: usize) -> Result<Self::SerializeTuple> {
        Err(not_a_key())
    }

    fn serialize_tuple_struct(
        self,
        _name: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeTupleStruct> {
        Err(not_a_key())
    }

    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _index: u32,
        _variant: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeTupleVariant> {
        Err(not_a_key())
    }

    fn serialize_map(self, _len: Option<usize>) -> Result<Self::SerializeMap> {
        Err(not_a_key())
    }

    fn serialize_struct(self, _name: &'static str, _len: usize) -> Result<Self::SerializeStruct> {
        Err(not_a_key())
    }

    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _index: u32,
        _variant: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeStructVariant> {
        Err(not_a_key())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use serde::Serialize;
    use serde_json::{Value, json};
    use std::collections::BTreeMap;

    fn ours(value: &(impl Serialize + ?Sized)) -> Result<Vec<u8>> {
        let mut out = Vec::new();
        write(&mut out, value).map(|()| out)
    }

    fn same(value: &(impl Serialize + ?Sized)) {
        let theirs = serde_json::to_vec(value).expect("serde_json writes it");
        let ours = ours(value).expect("we write it");
        assert_eq!(
            String::from_utf8_lossy(&ours),
            String::from_utf8_lossy(&theirs)
        );
    }

    #[derive(Serialize)]
    enum Shape {
        Unit,
        Newtype(i32),
        Tuple(i32, &'static str),
        Struct { a: Option<u8>, b: Vec<f64> },
    }

    #[derive(Serialize)]
    struct Record {
        id: i64,
        name: &'static str,
        none: Option<String>,
        unit: (),
        shapes: Vec<Shape>,
        tuple: (u8, char, bool),
        #[serde(flatten)]
        extra: BTreeMap<String, Value>,
        bytes: &'static [u8],
        nan: f64,
    }

    #[test]
    fn every_kind_of_value_as_serde_json_writes_it() {
        same(&Record {
            id: -7,
            name: "tab\tquote\" back\\ nul\u{0} del\u{7f} é 漢 🚀",
            none: None,
            unit: (),
            shapes: vec![
                Shape::Unit,
                Shape::Newtype(3),
                Shape::Tuple(1, "x"),
                Shape::Struct {
                    a: Some(2),
                    b: vec![0.1, -2.5e300, 1.0],
                },
            ],
            tuple: (255, '"', true),
            extra: [(
                "flattened \n key".to_owned(),
                json!({"a": [1, {}], "b": []}),
            )]
            .into(),
            bytes: b"\x00\xff",
            nan: f64::NAN,
        });
        same(&json!([null, u64::MAX, i64::MIN, 1.5, "", {}, [], {"": ""}]));
        same(&BTreeMap::from([(1i64, "one"), (-2, "minus two")]));
        same(&BTreeMap::from([(true, 1)]));
        same(&BTreeMap::from([('c', 1)]));
        same(&[Some(1u128), None]);
    }

    #[test]
    fn keys_that_are_not_text_are_refused_as_serde_json_refuses_them() {
        for key in [vec![1], vec![]] {
            let map = BTreeMap::from([(key, 1)]);
            assert!(serde_json::to_vec(&map).is_err());
            assert!(ours(&map).is_err());
        }
        same(&BTreeMap::from([(Some(1), 1)]));
        let map = BTreeMap::from([(None::<i32>, 1)]);
        assert!(serde_json::to_vec(&map).is_err());
        assert!(ours(&map).is_err());
    }

    #[test]
    fn every_byte_that_needs_escaping_is_found_wherever_it_is() {
        for len in 0..20 {
            for at in 0..len {
                for byte in 0..=255u8 {
                    let mut text = vec![b'a'; len];
                    text[at] = byte;
                    let expected = byte < 0x20 || byte == b'"' || byte == b'\\';
                    assert_eq!(needs_escape(&text), expected, "{byte:#x} at {at} of {len}");
                }
            }
        }
        assert!(!needs_escape(b""));
        assert!(!needs_escape("ÿ漢🚀\u{7f}".as_bytes()));
    }

    #[test]
    fn a_static_key_is_its_text() {
        struct Entry;
        impl Serialize for Entry {
            fn serialize<S: ser::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
                let mut map = s.serialize_map(None)?;
                ser::SerializeMap::serialize_entry(&mut map, &StaticKey("custom_tax_ids"), &1)?;
                ser::SerializeMap::end(map)
            }
        }
        assert_eq!(ours(&Entry).expect("writes"), br#"{"custom_tax_ids":1}"#);
        same(&Entry);
    }

    fn values() -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::from),
            any::<i64>().prop_map(Value::from),
            any::<u64>().prop_map(Value::from),
            any::<f64>().prop_map(Value::from),
            any::<String>().prop_map(Value::from),
            "[\\x00-\\x7f]{0,40}".prop_map(Value::from),
        ];
        leaf.prop_recursive(4, 64, 8, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..8).prop_map(Value::Array),
                prop::collection::btree_map(any::<String>(), inner, 0..8)
                    .prop_map(|m| Value::Object(m.into_iter().collect())),
            ]
        })
    }

    proptest! {
        #[test]
        fn any_text_is_escaped_as_serde_json_escapes_it(text in any::<String>(), ascii in "[\\x00-\\x7f]{0,200}") {
            same(&text);
            same(&ascii);
        }

        #[test]
        fn any_document_is_written_as_serde_json_writes_it(value in values()) {
            same(&value);
        }
    }
}
