//! One extractor for every request's parameters: the query string and the body
//! (urlencoded, multipart or JSON, on any method) merged into one tree, the body
//! winning. Bracketed names nest (`a[b][c]`, `a[]`), percent-encoded brackets are
//! the same as literal ones, and an empty value counts as not given.
//!
//! Everything here is bounded and free of recursion, because its input is whatever
//! anyone sends: names nest at most [`MAX_DEPTH`] levels, a request carries at most
//! [`MAX_PARAMS`] parameters, a list is read with a cap of the caller's choosing, and
//! text holding control characters is refused before any resource sees it.

use axum::body::Bytes;
use axum::extract::{FromRequest, Multipart, Request};
use axum::http::header::CONTENT_TYPE;
use std::collections::BTreeMap;
use std::fmt;

use crate::error::ApiError;

/// Bodies larger than this are refused with 413.
pub const MAX_BODY_BYTES: usize = 2 * 1024 * 1024;

/// The deepest nesting read: a name with at most this many bracket levels
/// (`a[b]` is one), and JSON objects and arrays at most this deep inside the body's
/// object. Deeper is a 400.
pub const MAX_DEPTH: usize = 32;

/// The most parameters one request may carry, query string and body together (each
/// `name=value` pair, multipart field, or JSON value, object and array). More is a 400.
pub const MAX_PARAMS: usize = 10_000;

#[derive(Debug, Clone, PartialEq)]
pub enum Node {
    Value(String),
    List(Vec<Node>),
    Map(BTreeMap<String, Node>),
}

#[derive(Debug, Clone, Default)]
pub struct Params {
    root: BTreeMap<String, Node>,
    /// Parameters read so far, against [`MAX_PARAMS`].
    count: usize,
}

/// A list holding more entries than its reader accepts; the reader names the parameter.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ListTooLong {
    pub len: usize,
    pub max: usize,
}

impl ListTooLong {
    /// The one length check of every list a request carries: `Err` when `len` entries
    /// are more than `max`. Readers call it before looking at any entry.
    pub fn check(len: usize, max: usize) -> Result<(), ListTooLong> {
        if len > max {
            Err(ListTooLong { len, max })
        } else {
            Ok(())
        }
    }
}

impl fmt::Display for ListTooLong {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "has {} entries, over the limit of {} for one list",
            self.len, self.max
        )
    }
}

/// A list its reader cannot take: too long, or not a list of values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BadList {
    TooLong(ListTooLong),
    /// Sent as nested names (`a[b]=1`, a JSON object), or with such entries.
    Nested,
}

impl From<ListTooLong> for BadList {
    fn from(too_long: ListTooLong) -> Self {
        BadList::TooLong(too_long)
    }
}

impl fmt::Display for BadList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BadList::TooLong(too_long) => too_long.fmt(f),
            BadList::Nested => {
                f.write_str("must be a list of values or one comma list, not nested names")
            }
        }
    }
}

/// A name for messages: at most 60 characters of it, since a refused name may be huge.
fn shown(name: &str) -> String {
    let mut chars = name.chars();
    let head: String = chars.by_ref().take(60).collect();
    if chars.next().is_some() {
        format!("{head:?}...")
    } else {
        format!("{head:?}")
    }
}

fn too_deep(name: &str) -> ApiError {
    ApiError::BadRequest(format!(
        "Parameter {} is nested more than {MAX_DEPTH} levels deep (the nesting limit is {MAX_DEPTH}); flatten it.",
        shown(name)
    ))
}

fn too_many() -> ApiError {
    ApiError::BadRequest(format!(
        "The request has more than {MAX_PARAMS} parameters (the parameter limit is {MAX_PARAMS}); split it into several requests."
    ))
}

fn unbalanced(name: &str) -> ApiError {
    ApiError::BadRequest(format!(
        "Parameter name {} has unbalanced brackets: write nested names as a[b][c] and lists as a[].",
        shown(name)
    ))
}

/// Splits `a[b][]` into `["a", "b", ""]`. Brackets must pair up and nothing may
/// follow a closing bracket except another opening one; more than [`MAX_DEPTH`]
/// bracket levels are refused before the rest of the name is looked at.
fn segments(key: &str) -> Result<Vec<&str>, ApiError> {
    let (head, mut rest) = match key.find('[') {
        Some(i) => (&key[..i], &key[i..]),
        None => {
            if key.contains(']') {
                return Err(unbalanced(key));
            }
            return Ok(vec![key]);
        }
    };
    if head.is_empty() || head.contains(']') {
        return Err(unbalanced(key));
    }
    let mut out = vec![head];
    while !rest.is_empty() {
        if out.len() > MAX_DEPTH {
            return Err(too_deep(key));
        }
        let inner = rest.strip_prefix('[').ok_or_else(|| unbalanced(key))?;
        let close = inner.find(']').ok_or_else(|| unbalanced(key))?;
        let segment = &inner[..close];
        if segment.contains('[') {
            return Err(unbalanced(key));
        }
        out.push(segment);
        rest = &inner[close + 1..];
    }
    Ok(out)
}

/// Puts `value` at `path` (from [`segments`]), walking down one level at a time.
fn insert(root: &mut BTreeMap<String, Node>, path: &[&str], value: String) {
    let mut map = root;
    let mut at = 0;
    loop {
        let (first, rest) = (path[at], &path[at + 1..]);
        if rest.is_empty() {
            map.insert(first.to_owned(), Node::Value(value));
            return;
        }
        if rest[0].is_empty() {
            // `first[]...`: a list element.
            let entry = map
                .entry(first.to_owned())
                .or_insert_with(|| Node::List(Vec::new()));
            if !matches!(entry, Node::List(_)) {
                *entry = Node::List(Vec::new());
            }
            let Node::List(items) = entry else {
                unreachable!("made a list above")
            };
            let tail = &rest[1..];
            if tail.is_empty() {
                items.push(Node::Value(value));
                return;
            }
            // `a[][name]=x&a[][qty]=1`: start a new element when the key repeats.
            let start_new = match items.last() {
                Some(Node::Map(m)) => m.contains_key(tail[0]),
                _ => true,
            };
            if start_new {
                items.push(Node::Map(BTreeMap::new()));
            }
            let Some(Node::Map(element)) = items.last_mut() else {
                unreachable!("the last element is a map")
            };
            map = element;
            at += 2;
            continue;
        }
        let entry = map
            .entry(first.to_owned())
            .or_insert_with(|| Node::Map(BTreeMap::new()));
        if !matches!(entry, Node::Map(_)) {
            *entry = Node::Map(BTreeMap::new());
        }
        let Node::Map(inner) = entry else {
            unreachable!("made a map above")
        };
        map = inner;
        at += 1;
    }
}

/// An object or array of a JSON body being converted, with the key it goes under in
/// its parent (none for list elements and the body itself).
struct Open {
    key: Option<String>,
    container: Container,
}

enum Container {
    List(Vec<Node>, std::vec::IntoIter<serde_json::Value>),
    Map(BTreeMap<String, Node>, serde_json::map::IntoIter),
}

impl Open {
    fn new(
        key: Option<String>,
        value: serde_json::Value,
    ) -> Result<Open, (Option<String>, serde_json::Value)> {
        use serde_json::Value as J;
        let container = match value {
            J::Array(items) => Container::List(Vec::new(), items.into_iter()),
            J::Object(map) => Container::Map(BTreeMap::new(), map.into_iter()),
            scalar => return Err((key, scalar)),
        };
        Ok(Open { key, container })
    }

    fn next_child(&mut self) -> Option<(Option<String>, serde_json::Value)> {
        match &mut self.container {
            Container::List(_, rest) => rest.next().map(|v| (None, v)),
            Container::Map(_, rest) => rest.next().map(|(k, v)| (Some(k), v)),
        }
    }

    fn add(&mut self, key: Option<String>, node: Node) {
        match (&mut self.container, key) {
            (Container::List(items, _), _) => items.push(node),
            (Container::Map(map, _), Some(key)) => {
                map.insert(key, node);
            }
            (Container::Map(..), None) => unreachable!("map children have keys"),
        }
    }

    fn close(self) -> (Option<String>, Node) {
        let node = match self.container {
            Container::List(items, _) => Node::List(items),
            Container::Map(map, _) => Node::Map(map),
        };
        (self.key, node)
    }
}

/// A JSON scalar as text; `null` is not given.
fn scalar(value: serde_json::Value) -> Option<Node> {
    use serde_json::Value as J;
    match value {
        J::Null => None,
        J::Bool(b) => Some(Node::Value(b.to_string())),
        // JSON Schema's integer takes `2.0` as well as `2`: an integral number is
        // written as a whole one (up to 2^53, where a float still is exact).
        J::Number(n) => Some(Node::Value(match n.as_f64() {
            Some(f) if n.is_f64() && f.fract() == 0.0 && f.abs() < 9_007_199_254_740_992.0 => {
                format!("{}", f as i64)
            }
            _ => n.to_string(),
        })),
        J::String(s) => Some(Node::Value(s)),
        J::Array(_) | J::Object(_) => unreachable!("containers are opened, not converted"),
    }
}

/// Converts a JSON body's object into parameters with an explicit stack, counting
/// every value against `count` and refusing nesting past [`MAX_DEPTH`].
fn from_json(
    body: serde_json::Map<String, serde_json::Value>,
    count: &mut usize,
) -> Result<BTreeMap<String, Node>, ApiError> {
    let mut stack = vec![Open {
        key: None,
        container: Container::Map(BTreeMap::new(), body.into_iter()),
    }];
    loop {
        let top = stack
            .last_mut()
            .expect("the body's object stays until the end");
        match top.next_child() {
            Some((key, value)) => {
                *count += 1;
                if *count > MAX_PARAMS {
                    return Err(too_many());
                }
                match Open::new(key, value) {
                    Ok(open) => {
                        // The body's object is level 0, so its children's children are level 1 (`a[b]`).
                        if stack.len() > MAX_DEPTH {
                            return Err(too_deep(&open.key.unwrap_or_else(|| "[]".into())));
                        }
                        stack.push(open);
                    }
                    Err((key, value)) => {
                        if let Some(node) = scalar(value) {
                            top.add(key, node);
                        }
                    }
                }
            }
            None => {
                let done = stack.pop().expect("checked above");
                let (key, node) = done.close();
                match stack.last_mut() {
                    Some(parent) => parent.add(key, node),
                    None => {
                        let Node::Map(map) = node else {
                            unreachable!("the body is an object")
                        };
                        return Ok(map);
                    }
                }
            }
        }
    }
}

/// A multipart field's name as its sender wrote it: browsers and HTTP libraries
/// (WHATWG HTML's `multipart/form-data` encoding) send a name's line feed, carriage
/// return and double quote as `%0A`, `%0D` and `%22`.
fn part_name(sent: &str) -> String {
    if !sent.contains('%') {
        return sent.to_owned();
    }
    sent.replace("%0A", "\n")
        .replace("%0D", "\r")
        .replace("%22", "\"")
}

/// Control characters refused in text: all but tab, line feed and carriage return
/// (browsers send a text area's line breaks as CR LF).
fn forbidden(c: char) -> bool {
    c.is_control() && !matches!(c, '\t' | '\n' | '\r')
}

/// "contains a control character (U+0000) ..." for the first forbidden one in `text`.
pub(crate) fn control_problem(text: &str) -> Option<String> {
    text.chars().find(|c| forbidden(*c)).map(|c| {
        format!(
            "contains a control character (U+{:04X}); only tab, line feed and carriage return are allowed in text",
            u32::from(c)
        )
    })
}

impl Params {
    /// Counts one more parameter against [`MAX_PARAMS`].
    fn count_one(&mut self) -> Result<(), ApiError> {
        self.count += 1;
        if self.count > MAX_PARAMS {
            Err(too_many())
        } else {
            Ok(())
        }
    }

    /// Adds `key=value` pairs; later pairs win over earlier ones. Stops at the first
    /// pair past a limit, so a huge body is not read further.
    pub fn add_pairs(
        &mut self,
        pairs: impl IntoIterator<Item = (String, String)>,
    ) -> Result<(), ApiError> {
        for (key, value) in pairs {
            self.count_one()?;
            let path = segments(&key)?;
            insert(&mut self.root, &path, value);
        }
        Ok(())
    }

    pub fn from_query(query: &str) -> Result<Self, ApiError> {
        let mut p = Params::default();
        p.add_pairs(form_urlencoded::parse(query.as_bytes()).into_owned())?;
        Ok(p)
    }

    fn merge_json(&mut self, body: &[u8]) -> Result<(), ApiError> {
        let value: serde_json::Value = serde_json::from_slice(body).map_err(|e| {
            ApiError::BadRequest(format!(
                "The JSON body cannot be read ({e}); send one JSON object."
            ))
        })?;
        match value {
            serde_json::Value::Object(map) => {
                let map = from_json(map, &mut self.count)?;
                self.root.extend(map);
                Ok(())
            }
            _ => Err(ApiError::BadRequest(
                "The JSON body must be an object of parameters.".into(),
            )),
        }
    }

    /// Refuses, with a 422 naming each, the parameters whose name or text holds a
    /// control character other than tab, line feed and carriage return. Checked once
    /// for the whole request, so every reader of parameters, present or future,
    /// only ever sees clean text. A parameter is named as sent (`location[name]`),
    /// since no resource has read it yet.
    fn refuse_control_characters(&self) -> Result<(), ApiError> {
        let mut errors = crate::error::FieldErrors::new();
        // A name is refused at the key that holds the character (its entries are not
        // looked at), whatever it holds: a value, a list or nested names.
        let mut pending: Vec<(String, Option<&str>, &Node)> = self
            .root
            .iter()
            .map(|(k, v)| (k.clone(), Some(k.as_str()), v))
            .collect();
        while let Some((name, key, node)) = pending.pop() {
            let problem = key.and_then(control_problem).or_else(|| match node {
                Node::Value(text) => control_problem(text),
                _ => None,
            });
            if let Some(problem) = problem {
                errors.entry(name).or_default().push(problem);
                continue;
            }
            match node {
                Node::Value(_) => {}
                Node::List(items) => {
                    pending.extend(items.iter().map(|n| (format!("{name}[]"), None, n)));
                }
                Node::Map(map) => pending.extend(
                    map.iter()
                        .map(|(k, n)| (format!("{name}[{k}]"), Some(k.as_str()), n)),
                ),
            }
        }
        if errors.is_empty() {
            Ok(())
        } else {
            Err(ApiError::Invalid(errors))
        }
    }

    fn node(&self, path: &str) -> Option<&Node> {
        let segs = segments(path).ok()?;
        let mut node = self.root.get(segs[0])?;
        for s in &segs[1..] {
            node = match node {
                Node::Map(m) => m.get(*s)?,
                _ => return None,
            };
        }
        Some(node)
    }

    /// The value at `path` (e.g. `location[name]`), trimmed; `None` when absent or empty.
    pub fn get(&self, path: &str) -> Option<&str> {
        match self.node(path)? {
            Node::Value(v) if !v.trim().is_empty() => Some(v.trim()),
            _ => None,
        }
    }

    /// The one value sent as `path`, trimmed: `Ok(None)` when absent or empty, an
    /// error when it was sent more than once (`a=1&a=2`, `a[]=1`) or holds nested
    /// names (`a[b]=1`), which no single value reads.
    pub fn single(&self, path: &str) -> Result<Option<&str>, &'static str> {
        match self.node(path) {
            None => Ok(None),
            Some(Node::Value(v)) if v.trim().is_empty() => Ok(None),
            Some(Node::Value(v)) => Ok(Some(v.trim())),
            Some(Node::List(_)) => Err("must be sent once, as one value"),
            Some(Node::Map(_)) => Err("must be one value, not nested names"),
        }
    }

    /// True when `path` is not sent or names fields (`path[x]=...`), not a value or a
    /// list.
    pub fn holds_fields(&self, path: &str) -> bool {
        matches!(self.node(path), None | Some(Node::Map(_)))
    }

    /// True when the name was sent at all, even empty.
    pub fn contains(&self, path: &str) -> bool {
        self.node(path).is_some()
    }

    /// The values of a list (`a[]=1&a[]=2`), or of one comma-separated value, blanks
    /// skipped; refused when it holds more than `max` entries. Every list has a cap,
    /// since a comma list of a 2 MiB body holds a million entries.
    pub fn list(&self, path: &str, max: usize) -> Result<Vec<String>, BadList> {
        match self.node(path) {
            Some(Node::List(items)) => {
                let mut values = Vec::with_capacity(items.len());
                for item in items {
                    match item {
                        Node::Value(v) if v.trim().is_empty() => {}
                        Node::Value(v) => values.push(v.trim()),
                        Node::List(_) | Node::Map(_) => return Err(BadList::Nested),
                    }
                }
                ListTooLong::check(values.len(), max)?;
                Ok(values.into_iter().map(str::to_owned).collect())
            }
            Some(Node::Value(v)) => {
                let entries = || v.split(',').map(str::trim).filter(|s| !s.is_empty());
                ListTooLong::check(entries().count(), max)?;
                Ok(entries().map(str::to_owned).collect())
            }
            Some(Node::Map(_)) => Err(BadList::Nested),
            None => Ok(Vec::new()),
        }
    }

    /// The entries of the map at `path` (`bundle[items]` of `bundle[items][4]=2`), in
    /// the order of their keys as sent; none when absent or not a map.
    pub fn entries(&self, path: &str) -> Vec<(&str, &Node)> {
        match self.node(path) {
            Some(Node::Map(m)) => m.iter().map(|(k, v)| (k.as_str(), v)).collect(),
            _ => Vec::new(),
        }
    }

    /// The scalar entries of a map (`rates[Straight Line]=10`), including empty ones.
    pub fn map(&self, path: &str) -> Vec<(String, String)> {
        match self.node(path) {
            Some(Node::Map(m)) => m
                .iter()
                .filter_map(|(k, v)| match v {
                    Node::Value(s) => Some((k.clone(), s.trim().to_owned())),
                    _ => None,
                })
                .collect(),
            _ => Vec::new(),
        }
    }
}

fn media_type(req: &Request) -> String {
    req.headers()
        .get(CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .map(|v| {
            v.split(';')
                .next()
                .unwrap_or("")
                .trim()
                .to_ascii_lowercase()
        })
        .unwrap_or_default()
}

impl<S: Send + Sync> FromRequest<S> for Params {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        Params::read(req, state, None).await
    }
}

/// The first forbidden control character ([`forbidden`]) of UTF-8 text that comes in
/// chunks: C0 controls and DEL are one byte, C1 controls (U+0080 to U+009F) are 0xC2
/// then the code point's own byte, which may start the next chunk.
#[derive(Default)]
struct ControlScan {
    after_c2: bool,
}

impl ControlScan {
    fn feed(&mut self, chunk: &[u8]) -> Option<char> {
        for &b in chunk {
            if self.after_c2 && (0x80..=0x9F).contains(&b) {
                return Some(char::from(b));
            }
            self.after_c2 = b == 0xC2;
            if forbidden(char::from(b)) && b < 0x80 {
                return Some(char::from(b));
            }
        }
        None
    }
}

/// Where a multipart request's file part goes ([`Params::read`]): the part named
/// `name` is written to `to`, up to `max` bytes.
pub struct FilePart<'a> {
    pub name: &'a str,
    pub to: &'a mut tokio::fs::File,
    pub max: u64,
    /// Whether the part came, and its file name.
    pub received: Option<Option<String>>,
}

impl Params {
    /// The request's parameters; with `file`, a multipart body's part of that name is
    /// written where it says instead.
    pub async fn read<S: Send + Sync>(
        req: Request,
        state: &S,
        mut file: Option<&mut FilePart<'_>>,
    ) -> Result<Self, ApiError> {
        use tokio::io::AsyncWriteExt;
        let mut params = Params::from_query(req.uri().query().unwrap_or(""))?;
        let media = media_type(&req);
        if media == "multipart/form-data" {
            let mut multipart = Multipart::from_request(req, state).await.map_err(|e| {
                ApiError::BadRequest(format!(
                    "The multipart body cannot be read: {}.",
                    e.body_text()
                ))
            })?;
            while let Some(field) = multipart.next_field().await.map_err(|e| {
                ApiError::BadRequest(format!(
                    "The multipart body cannot be read: {}.",
                    e.body_text()
                ))
            })? {
                params.count_one()?;
                let Some(name) = field.name().map(part_name) else {
                    continue;
                };
                if let Some(part) = file.as_deref_mut().filter(|p| p.name == name) {
                    part.received = Some(field.file_name().map(str::to_owned));
                    // A part without a file name is a form field: text, as any other.
                    let mut scan = field.file_name().is_none().then(ControlScan::default);
                    let mut written = 0u64;
                    let mut field = field;
                    while let Some(chunk) = field.chunk().await.map_err(|e| {
                        ApiError::BadRequest(format!(
                            "The multipart body cannot be read: {}.",
                            e.body_text()
                        ))
                    })? {
                        if let Some(c) = scan.as_mut().and_then(|s| s.feed(&chunk)) {
                            let mut errors = crate::error::FieldErrors::new();
                            errors.insert(
                                name.clone(),
                                control_problem(&c.to_string()).into_iter().collect(),
                            );
                            return Err(ApiError::Invalid(errors));
                        }
                        written += chunk.len() as u64;
                        if written > part.max {
                            return Err(ApiError::TooLarge(format!(
                                "The file is larger than {} bytes.",
                                part.max
                            )));
                        }
                        part.to
                            .write_all(&chunk)
                            .await
                            .map_err(|e| ApiError::Internal(format!("spooling an upload: {e}")))?;
                    }
                    continue;
                }
                if field.file_name().is_some() {
                    continue; // files are not parameters
                }
                let text = field.text().await.map_err(|e| {
                    ApiError::BadRequest(format!(
                        "A multipart field cannot be read: {}.",
                        e.body_text()
                    ))
                })?;
                let path = segments(&name)?;
                insert(&mut params.root, &path, text);
            }
        } else {
            let body = axum::body::to_bytes(req.into_body(), MAX_BODY_BYTES)
                .await
                .map_err(|_| {
                    ApiError::TooLarge(format!("The body is larger than {MAX_BODY_BYTES} bytes."))
                })?;
            params.merge_body(&media, &body)?;
        }
        params.refuse_control_characters()?;
        Ok(params)
    }

    fn merge_body(&mut self, media: &str, body: &Bytes) -> Result<(), ApiError> {
        if body.iter().all(u8::is_ascii_whitespace) {
            return Ok(());
        }
        match media {
            "application/json" => self.merge_json(body),
            m if m.ends_with("+json") => self.merge_json(body),
            "" | "application/x-www-form-urlencoded" | "text/plain" => {
                self.add_pairs(form_urlencoded::parse(body).into_owned())
            }
            other => Err(ApiError::BadRequest(format!(
                "Content type {other:?} is not understood: send application/x-www-form-urlencoded, multipart/form-data or application/json."
            ))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nesting_and_encoded_brackets() {
        let p = Params::from_query("location%5Bname%5D=Depot&a[b][c]=1&t[]=1&t[]=2&e=&list=3,4")
            .unwrap();
        assert_eq!(p.get("location[name]"), Some("Depot"));
        assert_eq!(p.get("a[b][c]"), Some("1"));
        assert_eq!(p.list("t", 2).unwrap(), vec!["1", "2"]);
        assert_eq!(p.list("list", 2).unwrap(), vec!["3", "4"]);
        assert_eq!(p.get("e"), None);
        assert!(p.contains("e"));
    }

    #[test]
    fn body_wins_over_query() {
        let mut p = Params::from_query("a[b]=query&c=1").unwrap();
        p.merge_body(
            "application/x-www-form-urlencoded",
            &Bytes::from_static(b"a%5Bb%5D=body"),
        )
        .unwrap();
        assert_eq!(p.get("a[b]"), Some("body"));
        assert_eq!(p.get("c"), Some("1"));
        p.merge_body(
            "application/json",
            &Bytes::from_static(br#"{"c": 2, "d": {"e": true}}"#),
        )
        .unwrap();
        assert_eq!(p.get("c"), Some("2"));
        assert_eq!(p.get("d[e]"), Some("true"));
    }

    #[test]
    fn malformed_nesting_is_refused() {
        for bad in ["a[b=1", "a]b=1", "[a]=1", "a[b]c=1", "a[[b]]=1"] {
            assert!(Params::from_query(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn lists_of_maps() {
        let p = Params::from_query("r[][n]=a&r[][q]=1&r[][n]=b").unwrap();
        match p.node("r") {
            Some(Node::List(items)) => assert_eq!(items.len(), 2),
            other => panic!("{other:?}"),
        }
    }

    fn message(e: ApiError) -> String {
        match e {
            ApiError::BadRequest(m) => m,
            other => panic!("a 400 expected, got {other:?}"),
        }
    }

    #[test]
    fn nesting_is_capped_without_recursion() {
        let ok = format!("a{}=1", "[b]".repeat(MAX_DEPTH));
        let p = Params::from_query(&ok).unwrap();
        assert_eq!(p.get(&ok[..ok.len() - 2]), Some("1"));
        let deep = format!("a{}=1", "[b]".repeat(MAX_DEPTH + 1));
        assert!(message(Params::from_query(&deep).unwrap_err()).contains("nesting limit is 32"));
        // The body of the crash report: half a million levels, refused at once.
        let attack = format!("a{}=1", "[b]".repeat(500_000));
        let mut p = Params::default();
        let e = p
            .merge_body("application/x-www-form-urlencoded", &Bytes::from(attack))
            .unwrap_err();
        assert!(message(e).contains("nested more than 32 levels"));
    }

    #[test]
    fn lists_of_maps_nest_to_the_limit_too() {
        let ok = format!("a{}=1", "[][b]".repeat(MAX_DEPTH / 2));
        assert!(Params::from_query(&ok).is_ok());
        let deep = format!("a{}[c]=1", "[][b]".repeat(MAX_DEPTH / 2));
        assert!(Params::from_query(&deep).is_err());
    }

    #[test]
    fn parameter_count_is_capped() {
        let ok = vec!["x=1"; MAX_PARAMS].join("&");
        assert!(Params::from_query(&ok).is_ok());
        let over = format!("{ok}&y=2");
        assert!(
            message(Params::from_query(&over).unwrap_err()).contains("parameter limit is 10000")
        );
        // Query and body count together.
        let mut p = Params::from_query(&ok).unwrap();
        assert!(p.merge_body("", &Bytes::from_static(b"z=1")).is_err());
    }

    #[test]
    fn json_nesting_and_count_are_capped() {
        let nest = |levels: usize| {
            format!(
                "{{\"a\":{}1{}}}",
                "{\"b\":".repeat(levels),
                "}".repeat(levels)
            )
        };
        let mut p = Params::default();
        p.merge_body("application/json", &Bytes::from(nest(MAX_DEPTH)))
            .unwrap();
        let path = format!("a{}", "[b]".repeat(MAX_DEPTH));
        assert_eq!(p.get(&path), Some("1"));
        let e = Params::default()
            .merge_body("application/json", &Bytes::from(nest(MAX_DEPTH + 1)))
            .unwrap_err();
        assert!(message(e).contains("nesting limit"));
        let arrays = format!(
            "{{\"a\":{}1{}}}",
            "[".repeat(MAX_DEPTH + 1),
            "]".repeat(MAX_DEPTH + 1)
        );
        assert!(
            Params::default()
                .merge_body("application/json", &Bytes::from(arrays))
                .is_err()
        );
        let many = format!("{{\"a\":[{}]}}", vec!["1"; MAX_PARAMS].join(","));
        let e = Params::default()
            .merge_body("application/json", &Bytes::from(many))
            .unwrap_err();
        assert!(message(e).contains("parameter limit"));
    }

    #[test]
    fn integral_json_numbers_are_whole() {
        let mut p = Params::default();
        p.merge_json(br#"{"a": 2887.0, "b": -3.0, "c": 2.5, "d": 1e300, "e": 7}"#)
            .expect("a JSON object");
        assert_eq!(p.get("a"), Some("2887"));
        assert_eq!(p.get("b"), Some("-3"));
        assert_eq!(p.get("c"), Some("2.5"));
        assert_eq!(p.get("d"), Some("1e+300"));
        assert_eq!(p.get("e"), Some("7"));
    }

    #[test]
    fn json_converts_to_the_same_tree_as_a_form() {
        let mut from_json = Params::default();
        from_json
            .merge_body(
                "application/json",
                &Bytes::from_static(
                    br#"{"u": {"n": "x", "t": [1, 2], "z": null, "m": {"k": true}}, "e": []}"#,
                ),
            )
            .unwrap();
        let from_form = Params::from_query("u[n]=x&u[t][]=1&u[t][]=2&u[m][k]=true").unwrap();
        assert_eq!(from_json.root.get("u"), from_form.root.get("u"));
        assert_eq!(from_json.root.get("e"), Some(&Node::List(Vec::new())));
    }

    #[test]
    fn lists_are_capped_by_their_reader() {
        let p = Params::from_query("a[]=1&a[]=2&a[]=3&c=1,2,,3").unwrap();
        assert_eq!(p.list("a", 3).unwrap().len(), 3);
        let too_long = Err(BadList::TooLong(ListTooLong { len: 3, max: 2 }));
        assert_eq!(p.list("a", 2), too_long);
        assert_eq!(p.list("c", 2), too_long);
        assert_eq!(p.list("missing", 0), Ok(vec![]));
    }

    #[test]
    fn a_list_of_nested_names_is_no_list() {
        let p = Params::from_query("m[k]=1&l[][k]=1").unwrap();
        assert_eq!(p.list("m", 10), Err(BadList::Nested));
        assert_eq!(p.list("l", 10), Err(BadList::Nested));
        let mut json = Params::default();
        json.merge_json(br#"{"o": {}, "n": [1, null, "2"]}"#)
            .unwrap();
        assert_eq!(
            json.list("o", 10),
            Err(BadList::Nested),
            "an empty object too"
        );
        assert_eq!(json.list("n", 10), Ok(vec!["1".to_owned(), "2".to_owned()]));
    }

    #[test]
    fn multipart_names_are_read_as_written() {
        assert_eq!(part_name("a%0D%0Ab%22c"), "a\r\nb\"c");
        assert_eq!(part_name("user[name]"), "user[name]");
        assert_eq!(part_name("100%25"), "100%25", "no other escape");
    }

    fn refused(query: &str) -> Vec<String> {
        match Params::from_query(query)
            .unwrap()
            .refuse_control_characters()
        {
            Err(ApiError::Invalid(errors)) => errors.into_keys().collect(),
            other => panic!("{query}: a 422 expected, got {other:?}"),
        }
    }

    #[test]
    fn control_scan_finds_controls_across_chunks() {
        let first = |chunks: &[&[u8]]| {
            let mut scan = ControlScan::default();
            chunks.iter().find_map(|c| scan.feed(c))
        };
        assert_eq!(first(&["a,b\r\n\tc".as_bytes()]), None);
        assert_eq!(first(&["×ø é".as_bytes()]), None, "other two-byte letters");
        assert_eq!(first(&[b"a\x0cb"]), Some('\u{c}'));
        assert_eq!(first(&[b"a\x7f"]), Some('\u{7f}'));
        assert_eq!(first(&["×ø\u{9b}".as_bytes()]), Some('\u{9b}'));
        assert_eq!(
            first(&[b"a\xc2", b"\x85b"]),
            Some('\u{85}'),
            "split between chunks"
        );
        assert_eq!(first(&[b"a\xc2", b"\xa0b"]), None, "U+00A0 is a space");
    }

    #[test]
    fn control_characters_are_refused_naming_the_parameter() {
        assert_eq!(refused("location[name]=ab%00c"), vec!["location[name]"]);
        assert_eq!(
            refused("filter_val=%07&t[]=ok&t[]=a%1Bb"),
            vec!["filter_val", "t[]"]
        );
        assert_eq!(
            refused("u[custom_attributes][Se%01rial]=1"),
            vec!["u[custom_attributes][Se\u{1}rial]"]
        );
        assert_eq!(refused("d=%7F"), vec!["d"]);
        // In a name that holds no value: a key of an empty object deep in a JSON body.
        let mut json = Params::default();
        json.merge_json(br#"{"r": {"": {"a\u0017": [], "b": {}}}}"#)
            .unwrap();
        match json.refuse_control_characters() {
            Err(ApiError::Invalid(errors)) => {
                assert_eq!(errors.into_keys().collect::<Vec<_>>(), vec!["r[][a\u{17}]"]);
            }
            other => panic!("a 422 expected, got {other:?}"),
        }
        assert_eq!(refused("d=%C2%85"), vec!["d"], "C1 controls too");
        let fine = Params::from_query("d=line%0D%0Anext%09tab%0Aend&e=%C3%A5%E2%82%AC").unwrap();
        assert!(
            fine.refuse_control_characters().is_ok(),
            "tab, CR, LF and non-ASCII text are fine"
        );
    }
}
