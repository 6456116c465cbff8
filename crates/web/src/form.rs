//! Reads a record's fields out of the parameters under their resource name
//! (`location[name]`), collecting every problem before answering, so one 422 names
//! every bad field.

use std::collections::hash_map::Entry;
use std::collections::{HashMap, HashSet};

use crate::error::FieldErrors;
use domain::country::CountryCode;
use domain::name::NameError;
use domain::wire::{parse_bool, parse_date};
use domain::{Change, Name, Vocabulary};

use crate::error::ApiError;
use crate::params::{ListTooLong, Node, Params};

/// How a name is checked: [`Name::parse`] or [`Name::parse_required`].
pub type NameRule = fn(&str) -> Result<Name, NameError>;

/// Free text longer than this is refused.
pub const MAX_TEXT_CHARS: usize = 2000;

/// The most entries one list parameter may send (`user[team_ids]`, `business_ids`,
/// `contact_ids`, `custom_field[applies_to]`, ...): well under the databases' limits
/// on bound parameters (32,766 on SQLite, 65,535 on PostgreSQL).
pub const MAX_LIST_ENTRIES: usize = 1000;

pub struct Form<'a> {
    params: &'a Params,
    resource: &'static str,
    errors: FieldErrors,
}

impl<'a> Form<'a> {
    pub fn new(params: &'a Params, resource: &'static str) -> Self {
        Form {
            params,
            resource,
            errors: FieldErrors::new(),
        }
    }

    /// The parameter's name as sent: `location[name]`, or `page` for a form of no
    /// resource.
    pub(crate) fn path(&self, field: &str) -> String {
        if self.resource.is_empty() {
            field.to_owned()
        } else {
            format!("{}[{}]", self.resource, field)
        }
    }

    fn raw(&self, field: &str) -> Option<&'a str> {
        self.params.get(&self.path(field))
    }

    pub fn error(&mut self, field: &str, problem: impl Into<String>) {
        self.errors
            .entry(field.to_owned())
            .or_default()
            .push(problem.into());
    }

    /// A required name, checked by `rule`: [`Name::parse`] (at least three
    /// characters: assets, groups, subgroups) or [`Name::parse_required`] (locations,
    /// vendors).
    pub fn name(&mut self, field: &str, rule: NameRule) -> Option<Name> {
        match self.raw(field) {
            None => {
                self.error(field, "can't be blank");
                None
            }
            Some(raw) => self.name_value(field, raw, rule),
        }
    }

    /// A name that may be left out (an update that keeps the stored one).
    pub fn optional_name(&mut self, field: &str, rule: NameRule) -> Option<Name> {
        let raw = self.raw(field)?;
        self.name_value(field, raw, rule)
    }

    fn name_value(&mut self, field: &str, raw: &str, rule: NameRule) -> Option<Name> {
        match rule(raw) {
            Ok(n) => Some(n),
            Err(e) => {
                self.error(field, e.to_string());
                None
            }
        }
    }

    /// Required text of at most 255 characters (names of people and reference data).
    pub fn required_text(&mut self, field: &str) -> Option<String> {
        match self.raw(field) {
            None | Some("null") => {
                self.error(field, "can't be blank");
                None
            }
            Some(v) if v.chars().count() > Name::MAX_CHARS => {
                self.error(
                    field,
                    format!("is too long (maximum is {} characters)", Name::MAX_CHARS),
                );
                None
            }
            Some(v) => Some(v.to_owned()),
        }
    }

    /// Text that may be left out but not cleared (an update keeping the stored value).
    pub fn optional_required_text(&mut self, field: &str) -> Option<String> {
        self.raw(field)?;
        self.required_text(field)
    }

    /// Optional free text: absent or empty keeps, `null` clears.
    pub fn text(&mut self, field: &str) -> Change<String> {
        match self.raw(field) {
            None => Change::Keep,
            Some("null") => Change::Clear,
            Some(v) if v.chars().count() > MAX_TEXT_CHARS => {
                self.error(
                    field,
                    format!("is too long (maximum is {MAX_TEXT_CHARS} characters)"),
                );
                Change::Keep
            }
            Some(v) => Change::Set(v.to_owned()),
        }
    }

    /// An optional e-mail address: something@something.
    pub fn email(&mut self, field: &str) -> Change<String> {
        let change = self.text(field);
        if let Change::Set(v) = &change
            && !domain::wire::is_email(v)
        {
            self.error(field, "is not an e-mail address");
            return Change::Keep;
        }
        change
    }

    /// An optional ISO 3166-1 two-letter country code, stored upper-case.
    pub fn country(&mut self, field: &str) -> Change<String> {
        match self.text(field) {
            Change::Set(v) => match CountryCode::parse(&v) {
                Some(code) => Change::Set(code.into_string()),
                None => {
                    self.error(
                        field,
                        "is not a two-letter country code (ISO 3166-1 alpha-2, e.g. US)",
                    );
                    Change::Keep
                }
            },
            other => other,
        }
    }

    /// An optional date (`mm/dd/yyyy` or `yyyy-mm-dd`) of the years
    /// [`domain::wire::FIRST_YEAR`] to [`domain::wire::LAST_YEAR`]: absent keeps, `null`
    /// clears.
    pub fn date(&mut self, field: &str) -> Change<chrono::NaiveDate> {
        match self.text(field) {
            Change::Set(raw) => match parse_date(&raw) {
                Ok(d) => Change::Set(d),
                Err(problem) => {
                    self.error(field, problem.to_string());
                    Change::Keep
                }
            },
            Change::Clear => Change::Clear,
            Change::Keep => Change::Keep,
        }
    }

    /// One word of the closed set `V`, read loosely (case, spaces and hyphens aside):
    /// `None` when left out, which is a problem when `required`.
    pub fn word<V: Vocabulary>(&mut self, field: &str, required: bool) -> Option<V> {
        match self.raw(field) {
            None => {
                if required {
                    self.error(field, format!("can't be blank: use one of {}", V::names()));
                }
                None
            }
            Some(raw) => {
                let word = V::parse_loosely(raw);
                if word.is_none() {
                    self.error(field, format!("must be one of {}", V::names()));
                }
                word
            }
        }
    }

    /// An optional positive id: absent keeps, `null` (or 0) clears.
    pub fn id(&mut self, field: &str) -> Change<i64> {
        match self.raw(field) {
            None => Change::Keep,
            Some("null") | Some("0") => Change::Clear,
            Some(v) => match parse_id(v) {
                Some(id) => Change::Set(id),
                None => {
                    self.error(field, "must be a positive whole number (an id)");
                    Change::Keep
                }
            },
        }
    }

    /// An optional boolean.
    pub fn boolean(&mut self, field: &str) -> Option<bool> {
        let raw = self.raw(field)?;
        match parse_bool(raw) {
            Some(b) => Some(b),
            None => {
                self.error(field, "must be true or false");
                None
            }
        }
    }

    /// A required id (e.g. `user[role_id]`).
    pub fn required_id(&mut self, field: &str) -> Option<i64> {
        match self.id(field) {
            Change::Set(id) => Some(id),
            Change::Keep if self.raw(field).is_some() => None,
            _ => {
                self.error(field, "can't be blank");
                None
            }
        }
    }

    /// A list of ids (`team_ids[]=1&team_ids[]=2` or `team_ids=1,2`): `None` when not
    /// sent, an empty list when sent empty (which clears).
    pub fn id_list(&mut self, field: &str) -> Option<Vec<i64>> {
        let path = self.path(field);
        if !self.params.contains(&path) {
            return None;
        }
        Some(self.ids_at(&path, field, "ids"))
    }

    /// The ids of the list parameter at `path`, reported as `field`: at most
    /// [`MAX_LIST_ENTRIES`], each a positive whole number, repeats dropped (the first
    /// one kept, in the order sent).
    pub fn ids_at(&mut self, path: &str, field: &str, what: &str) -> Vec<i64> {
        match self.params.list(path, MAX_LIST_ENTRIES) {
            Ok(raws) => self.ids_of(raws, field, what),
            Err(bad) => {
                self.error(field, bad.to_string());
                Vec::new()
            }
        }
    }

    /// As [`Form::ids_at`], and also one comma list in brackets (`[1,2]`), as
    /// `custom_tax_ids_to_add` is written.
    pub fn bracketed_ids_at(&mut self, path: &str, field: &str, what: &str) -> Vec<i64> {
        let inner = self
            .params
            .get(path)
            .and_then(|v| v.strip_prefix('['))
            .and_then(|v| v.strip_suffix(']'));
        let Some(inner) = inner else {
            return self.ids_at(path, field, what);
        };
        let raws: Vec<String> = inner
            .split(',')
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(str::to_owned)
            .collect();
        if let Err(too_long) = ListTooLong::check(raws.len(), MAX_LIST_ENTRIES) {
            self.error(field, too_long.to_string());
            return Vec::new();
        }
        self.ids_of(raws, field, what)
    }

    /// Each of `raws` as a positive id, repeats dropped (the first kept, in order).
    fn ids_of(&mut self, raws: Vec<String>, field: &str, what: &str) -> Vec<i64> {
        let mut seen = HashSet::with_capacity(raws.len());
        let mut ids = Vec::with_capacity(raws.len());
        for raw in raws {
            match parse_id(&raw) {
                Some(id) => {
                    if seen.insert(id) {
                        ids.push(id);
                    }
                }
                None => self.error(
                    field,
                    format!("must hold {what} (positive whole numbers), not {raw:?}"),
                ),
            }
        }
        ids
    }

    /// The entries of the map at `path` whose keys are ids of records
    /// (`stock_asset_with_quantity[<line id>]`, `bundle[items][<asset number>]`,
    /// `thresholds[<location id>]`): at most [`MAX_LIST_ENTRIES`] of them (else one
    /// problem on `field`, before any entry is read), each key a positive whole number
    /// read as a number, so `4`, `04` and `+4` name one record, and no record named
    /// twice. A key that is not `what` (e.g. "an order line item id") or repeats one
    /// is a problem on the parameter as sent, named by `name_of(key)`. Entries are in
    /// the order of their keys as sent, each record once.
    pub fn id_keyed(
        &mut self,
        path: &str,
        field: &str,
        what: &str,
        name_of: impl Fn(&str) -> String,
    ) -> Vec<Keyed<'a>> {
        self.check_map(path, field);
        let entries = self.params.entries(path);
        if let Err(too_long) = ListTooLong::check(entries.len(), MAX_LIST_ENTRIES) {
            self.error(field, too_long.to_string());
            return Vec::new();
        }
        let mut first: HashMap<i64, &str> = HashMap::with_capacity(entries.len());
        let mut keyed = Vec::with_capacity(entries.len());
        for (key, node) in entries {
            let name = name_of(key);
            let Some(id) = parse_id(key) else {
                self.error(
                    &name,
                    format!("{key:?} is not {what} (a positive whole number)"),
                );
                continue;
            };
            match first.entry(id) {
                Entry::Occupied(earlier) => {
                    let problem = format!(
                        "is the same key as {} (both read as {id}): send each once",
                        name_of(earlier.get())
                    );
                    self.error(&name, problem);
                }
                Entry::Vacant(slot) => {
                    slot.insert(key);
                    keyed.push(Keyed { id, name, node });
                }
            }
        }
        keyed
    }

    /// [`Form::id_keyed`] of a map named by itself (`sale_prices[<asset number>]`),
    /// by id: its problems are on `path` and on `path[<key as sent>]`.
    pub fn by_id(&mut self, path: &str, what: &str) -> HashMap<i64, Keyed<'a>> {
        self.id_keyed(path, path, what, |key| format!("{path}[{key}]"))
            .into_iter()
            .map(|k| (k.id, k))
            .collect()
    }

    /// A required number of units (`domain::stock::Quantity`).
    pub fn quantity(&mut self, field: &str) -> Option<domain::stock::Quantity> {
        match self.raw(field) {
            None => {
                self.error(field, "can't be blank: a whole number of units");
                None
            }
            Some(raw) => domain::stock::Quantity::parse(raw)
                .map_err(|p| self.error(field, p))
                .ok(),
        }
    }

    /// True once a problem has been recorded for `field`.
    pub fn has_errors_for(&self, field: &str) -> bool {
        self.errors.contains_key(field)
    }

    pub fn params(&self) -> &'a Params {
        self.params
    }

    /// Ends reading a typed input: the value, or a 422 naming every bad field. Every
    /// reader records a problem when it gives `None`, so a `None` without one is a fault
    /// of the reader (a 500, never a value half read).
    pub fn finish_with<T>(mut self, value: Option<T>) -> Result<T, ApiError> {
        self.check_resource();
        match (value, self.errors.is_empty()) {
            (Some(value), true) => Ok(value),
            (None, true) => Err(ApiError::Internal(format!(
                "reading {}: a field gave nothing and named no problem",
                self.resource
            ))),
            (_, false) => Err(ApiError::Invalid(self.errors)),
        }
    }

    /// The resource's name holds its fields (`business[name]=...`, `{"business":
    /// {...}}`): a value or a list sent in their place would leave them all unsent.
    fn check_resource(&mut self) {
        if !self.resource.is_empty() && !self.params.holds_fields(self.resource) {
            let problem = format!(
                "must hold the record's fields ({0}[<field>]=... or {{\"{0}\": {{...}}}}), not a value or a list",
                self.resource
            );
            self.error(self.resource, problem);
        }
    }

    /// An object of the resource that holds some of its fields
    /// (`fixed_asset[rental_price_attributes]`), sent as a value or a list, which would
    /// leave them all unsent: a problem under `field`.
    pub fn check_fields_at(&mut self, field: &str) {
        if !self.params.holds_fields(&self.path(field)) {
            let problem = format!(
                "must hold fields ({0}[<field>]=... or {{\"{0}\": {{...}}}}), not a value or a list",
                self.path(field)
            );
            self.error(field, problem);
        }
    }

    /// A map of the client's keys (`custom_attributes`, `depreciation_rates`) sent as a
    /// value or a list, which would leave every entry unsent: a problem under `field`.
    pub fn check_map(&mut self, path: &str, field: &str) {
        if !self.params.holds_fields(path) {
            self.error(
                field,
                format!(
                    "must be a map ({path}[<key>]=... or {{\"<key>\": ...}}), not a value or a list"
                ),
            );
        }
    }

    /// Ends reading: a 422 naming every bad field, or nothing.
    pub fn finish(mut self) -> Result<(), ApiError> {
        self.check_resource();
        if self.errors.is_empty() {
            Ok(())
        } else {
            Err(ApiError::Invalid(self.errors))
        }
    }
}

/// One entry of a map keyed by record ids ([`Form::id_keyed`]).
#[derive(Debug, Clone)]
pub struct Keyed<'p> {
    /// The record's id, whatever form the key was sent in.
    pub id: i64,
    /// The parameter as sent, for messages (`stock_asset_with_quantity[04]`).
    pub name: String,
    pub node: &'p Node,
}

impl<'p> Keyed<'p> {
    /// The entry's value, trimmed (empty when sent empty); `None` when it nests further.
    pub fn value(&self) -> Option<&'p str> {
        match self.node {
            Node::Value(v) => Some(v.trim()),
            _ => None,
        }
    }
}

/// A positive id; leading zeros and a `+` are allowed (`04` and `+4` are 4).
pub fn parse_id(raw: &str) -> Option<i64> {
    raw.trim().parse::<i64>().ok().filter(|n| *n > 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn problems(form: Form<'_>) -> Vec<(String, String)> {
        match form.finish() {
            Ok(()) => Vec::new(),
            Err(ApiError::Invalid(errors)) => errors
                .into_iter()
                .flat_map(|(k, ps)| ps.into_iter().map(move |p| (k.clone(), p)))
                .collect(),
            Err(other) => panic!("{other:?}"),
        }
    }

    #[test]
    fn id_keys_are_numbers_each_named_once() {
        let p = Params::from_query("q[4]=1&q[%2B7]=2&q[009]=3").unwrap();
        let mut form = Form::new(&p, "r");
        let mut ids: Vec<(i64, Option<&str>)> = form
            .by_id("q", "an id")
            .into_values()
            .map(|k| (k.id, k.value()))
            .collect();
        ids.sort_unstable();
        assert_eq!(ids, vec![(4, Some("1")), (7, Some("2")), (9, Some("3"))]);
        assert!(problems(form).is_empty());

        for twice in ["q[4]=1&q[04]=2", "q[4]=1&q[%2B4]=2", "q[4]=1&q[%204]=2"] {
            let p = Params::from_query(twice).unwrap();
            let mut form = Form::new(&p, "r");
            assert_eq!(form.by_id("q", "an id").len(), 1, "{twice}");
            let found = problems(form);
            assert_eq!(found.len(), 1, "{twice}: {found:?}");
            assert!(found[0].0.starts_with("q["), "{found:?}");
            assert!(found[0].1.contains("both read as 4"), "{found:?}");
        }

        let p = Params::from_query("q[x]=1&q[0]=1&q[-3]=1").unwrap();
        let mut form = Form::new(&p, "r");
        assert!(form.by_id("q", "an id").is_empty());
        let fields: Vec<String> = problems(form).into_iter().map(|f| f.0).collect();
        assert_eq!(fields, ["q[-3]", "q[0]", "q[x]"]);
    }

    #[test]
    fn id_maps_are_capped_before_any_key_is_read() {
        let query: Vec<String> = (0..=MAX_LIST_ENTRIES)
            .map(|i| format!("q[k{i}]=1"))
            .collect();
        let p = Params::from_query(&query.join("&")).unwrap();
        let mut form = Form::new(&p, "r");
        assert!(form.by_id("q", "an id").is_empty());
        let found = problems(form);
        assert_eq!(
            found,
            [(
                "q".to_owned(),
                "has 1001 entries, over the limit of 1000 for one list".to_owned()
            )]
        );
    }
}
