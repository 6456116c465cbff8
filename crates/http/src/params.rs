//! One extractor for every request's parameters: the query string and the body
//! (urlencoded, multipart or JSON, on any method) merged into one tree, the body
//! winning. Bracketed names nest (`a[b][c]`, `a[]`), percent-encoded brackets are
//! the same as literal ones, and an empty value counts as not given.

use axum::body::Bytes;
use axum::extract::{FromRequest, Multipart, Request};
use axum::http::header::CONTENT_TYPE;
use std::collections::BTreeMap;

use crate::error::ApiError;

/// Bodies larger than this are refused with 413.
pub const MAX_BODY_BYTES: usize = 2 * 1024 * 1024;

#[derive(Debug, Clone, PartialEq)]
pub enum Node {
    Value(String),
    List(Vec<Node>),
    Map(BTreeMap<String, Node>),
}

#[derive(Debug, Clone, Default)]
pub struct Params {
    root: BTreeMap<String, Node>,
}

/// Splits `a[b][]` into `["a", "b", ""]`. Brackets must pair up and nothing may
/// follow a closing bracket except another opening one.
fn segments(key: &str) -> Result<Vec<&str>, String> {
    let (head, mut rest) = match key.find('[') {
        Some(i) => (&key[..i], &key[i..]),
        None => {
            if key.contains(']') {
                return Err(key.to_owned());
            }
            return Ok(vec![key]);
        }
    };
    if head.is_empty() || head.contains(']') {
        return Err(key.to_owned());
    }
    let mut out = vec![head];
    while !rest.is_empty() {
        let inner = rest.strip_prefix('[').ok_or_else(|| key.to_owned())?;
        let close = inner.find(']').ok_or_else(|| key.to_owned())?;
        let segment = &inner[..close];
        if segment.contains('[') {
            return Err(key.to_owned());
        }
        out.push(segment);
        rest = &inner[close + 1..];
    }
    Ok(out)
}

fn insert(map: &mut BTreeMap<String, Node>, path: &[&str], value: String) {
    let (first, rest) = (path[0], &path[1..]);
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
            unreachable!()
        };
        let tail = &rest[1..];
        if tail.is_empty() {
            items.push(Node::Value(value));
        } else {
            // `a[][name]=x&a[][qty]=1`: start a new element when the key repeats.
            let start_new = match items.last() {
                Some(Node::Map(m)) => m.contains_key(tail[0]),
                _ => true,
            };
            if start_new {
                items.push(Node::Map(BTreeMap::new()));
            }
            if let Some(Node::Map(m)) = items.last_mut() {
                insert(m, tail, value);
            }
        }
        return;
    }
    let entry = map
        .entry(first.to_owned())
        .or_insert_with(|| Node::Map(BTreeMap::new()));
    if !matches!(entry, Node::Map(_)) {
        *entry = Node::Map(BTreeMap::new());
    }
    if let Node::Map(m) = entry {
        insert(m, rest, value);
    }
}

fn from_json(value: serde_json::Value) -> Option<Node> {
    use serde_json::Value as J;
    match value {
        J::Null => None,
        J::Bool(b) => Some(Node::Value(b.to_string())),
        J::Number(n) => Some(Node::Value(n.to_string())),
        J::String(s) => Some(Node::Value(s)),
        J::Array(items) => Some(Node::List(
            items.into_iter().filter_map(from_json).collect(),
        )),
        J::Object(map) => Some(Node::Map(
            map.into_iter()
                .filter_map(|(k, v)| from_json(v).map(|n| (k, n)))
                .collect(),
        )),
    }
}

impl Params {
    /// Adds `key=value` pairs; later pairs win over earlier ones.
    pub fn add_pairs<'a>(
        &mut self,
        pairs: impl IntoIterator<Item = (String, String)>,
    ) -> Result<(), ApiError> {
        for (key, value) in pairs {
            let path = segments(&key).map_err(|k| {
                ApiError::BadRequest(format!(
                    "Parameter name {k:?} has unbalanced brackets: write nested names as a[b][c] and lists as a[]."
                ))
            })?;
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
        match from_json(value) {
            Some(Node::Map(map)) => {
                self.root.extend(map);
                Ok(())
            }
            None => Ok(()),
            Some(_) => Err(ApiError::BadRequest(
                "The JSON body must be an object of parameters.".into(),
            )),
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

    /// True when the name was sent at all, even empty.
    pub fn contains(&self, path: &str) -> bool {
        self.node(path).is_some()
    }

    /// The values of a list (`a[]=1&a[]=2`), or of one comma-separated value.
    pub fn list(&self, path: &str) -> Vec<String> {
        match self.node(path) {
            Some(Node::List(items)) => items
                .iter()
                .filter_map(|n| match n {
                    Node::Value(v) if !v.trim().is_empty() => Some(v.trim().to_owned()),
                    _ => None,
                })
                .collect(),
            Some(Node::Value(v)) => v
                .split(',')
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(str::to_owned)
                .collect(),
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
        let mut params = Params::from_query(req.uri().query().unwrap_or(""))?;
        let media = media_type(&req);
        if media == "multipart/form-data" {
            let mut multipart = Multipart::from_request(req, state).await.map_err(|e| {
                ApiError::BadRequest(format!(
                    "The multipart body cannot be read: {}.",
                    e.body_text()
                ))
            })?;
            let mut pairs = Vec::new();
            while let Some(field) = multipart.next_field().await.map_err(|e| {
                ApiError::BadRequest(format!(
                    "The multipart body cannot be read: {}.",
                    e.body_text()
                ))
            })? {
                let Some(name) = field.name().map(str::to_owned) else {
                    continue;
                };
                if field.file_name().is_some() {
                    continue; // files are not parameters
                }
                let text = field.text().await.map_err(|e| {
                    ApiError::BadRequest(format!(
                        "A multipart field cannot be read: {}.",
                        e.body_text()
                    ))
                })?;
                pairs.push((name, text));
            }
            params.add_pairs(pairs)?;
            return Ok(params);
        }
        let body = axum::body::to_bytes(req.into_body(), MAX_BODY_BYTES)
            .await
            .map_err(|_| {
                ApiError::TooLarge(format!("The body is larger than {MAX_BODY_BYTES} bytes."))
            })?;
        params.merge_body(&media, &body)?;
        Ok(params)
    }
}

impl Params {
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
        assert_eq!(p.list("t"), vec!["1", "2"]);
        assert_eq!(p.list("list"), vec!["3", "4"]);
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
}
