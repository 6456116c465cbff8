//! The API's route table: each route is registered once, with its documentation, so
//! the router and `/openapi.json` cannot drift apart.

use axum::Router;
use axum::handler::Handler;
use axum::routing::MethodRouter;
use serde_json::json;
use utoipa::openapi::header::{Header, HeaderBuilder};
use utoipa::openapi::path::{
    HttpMethod, Operation, OperationBuilder, Parameter, ParameterBuilder, ParameterIn,
    ParameterStyle,
};
use utoipa::openapi::request_body::{RequestBody, RequestBodyBuilder};
use utoipa::openapi::security::{ApiKey, ApiKeyValue, SecurityRequirement, SecurityScheme};
use utoipa::openapi::{
    ComponentsBuilder, ContentBuilder, InfoBuilder, OpenApiBuilder, Paths, Ref, RefOr, Required,
    Response, ResponseBuilder, Schema,
};

use crate::input::{FieldDoc, Format, Input, Shape as InputShape};
use crate::routing::API_PREFIX;
use crate::state::AppState;

/// What `/openapi.json` says about one route.
pub struct Doc {
    tag: &'static str,
    summary: &'static str,
    params: Vec<Param>,
    one: Option<String>,
    /// The top-level keys of a body that is neither a record nor a list.
    fields: Vec<(String, &'static str)>,
    page: Option<String>,
    list: Option<String>,
    /// The typed view of the record it answers, when the route names one.
    view: Option<View>,
    /// The typed view of a page's records, where they differ from `view` (a list of
    /// summaries beside a create answering the whole record).
    page_view: Option<View>,
    /// The typed view of the whole 200 body, for an answer that is no record, page or
    /// list of one.
    body: Option<View>,
    /// The media types of a 200 body that is a file streamed (an export), not JSON.
    streams: &'static [&'static str],
}

/// A record's typed view: the name of its schema among the document's components, and
/// the schemas that takes (its own first, then those its fields refer to).
struct View {
    name: String,
    schemas: Vec<(String, RefOr<Schema>)>,
}

impl View {
    fn of<V: utoipa::ToSchema>() -> Self {
        let name = V::name().into_owned();
        // The view is all the record shows: a key it does not list is a fault, unless
        // its schema says what other keys hold (custom fields shown as keys).
        let mut own = V::schema();
        if let RefOr::T(Schema::Object(object)) = &mut own
            && object.additional_properties.is_none()
        {
            object.additional_properties = Some(Box::new(
                utoipa::openapi::schema::AdditionalProperties::FreeForm(false),
            ));
        }
        let mut schemas = vec![(name.clone(), own)];
        V::schemas(&mut schemas);
        View { name, schemas }
    }

    fn reference(&self) -> serde_json::Value {
        json!({"$ref": format!("#/components/schemas/{}", self.name)})
    }
}

/// A documented parameter: a field of the record being written (`location[name]`,
/// sent by writes only) or a parameter every method of the route reads.
struct Param {
    name: String,
    description: String,
    write_only: bool,
    /// Read by GET alone where the route has a GET (`Doc::params`).
    get_only: bool,
    /// The schema and rules of the typed field or map entry.
    typed: Typed,
}

struct Typed {
    required: bool,
    schema: serde_json::Value,
    /// The parameter it may be sent only with (`#[input(needs = "...")]`), named as
    /// sent.
    needs: Option<String>,
    /// The parameter to send if this one is left out (`#[input(or = "...")]`).
    or: Option<String>,
    /// A list sent empty is not sent (`Format::EMPTY_IS_UNSENT`).
    empty_is_unsent: bool,
}

impl Param {
    fn of_input<I: Input>(write_only: bool) -> Vec<Param> {
        let fields = I::fields();
        // A field's name as sent: a list's with its `[]`; after a `/`, a parameter
        // outside the resource, named as sent (`input::either`).
        let sent = |name: &str| {
            if let Some(outside) = name.strip_prefix('/') {
                return outside.to_owned();
            }
            let nested = match I::RESOURCE {
                "" => name.to_owned(),
                resource => format!("{resource}[{name}]"),
            };
            match fields.iter().find(|f| f.name == name).map(|f| f.shape) {
                Some(InputShape::List) => format!("{nested}[]"),
                _ => nested,
            }
        };
        fields
            .iter()
            .map(|f| Param {
                name: sent(f.name),
                description: f.description.to_owned(),
                write_only,
                get_only: false,
                typed: Typed {
                    required: f.required,
                    schema: f.schema.clone(),
                    needs: f.needs.map(sent),
                    or: f.or.map(sent),
                    empty_is_unsent: f.empty_is_unsent,
                },
            })
            .collect()
    }

    /// Required as its type says (on the methods that read it).
    fn required(&self) -> bool {
        self.typed.required
    }
}

impl Doc {
    pub fn new(tag: &'static str, summary: &'static str) -> Self {
        Doc {
            tag,
            summary,
            params: Vec::new(),
            one: None,
            page: None,
            list: None,
            fields: Vec::new(),
            view: None,
            page_view: None,
            body: None,
            streams: &[],
        }
    }

    /// The record the route answers (`returns`, `returns_page`, `returns_list`) is
    /// serialized from `V`: the document shows every field of it, with types and
    /// nullability, from the same definition.
    pub fn record<V: utoipa::ToSchema>(mut self) -> Self {
        self.view = Some(View::of::<V>());
        self
    }

    /// The records of the page GET answers (`returns_page`) are serialized from `V`,
    /// not from the record the route's other methods answer (`record`).
    pub fn page_record<V: utoipa::ToSchema>(mut self) -> Self {
        self.page_view = Some(View::of::<V>());
        self
    }

    /// The whole 200 body is serialized from `B`: an answer that is no record, page or
    /// list of records (`{"location_id": 1, "quantities_by_asset_ids": {...}}`).
    pub fn answers<B: utoipa::ToSchema>(mut self) -> Self {
        self.body = Some(View::of::<B>());
        self
    }

    /// The 200 body is a file in one of `media_types` (an export), streamed: no JSON.
    pub fn streams(mut self, media_types: &'static [&'static str]) -> Self {
        self.streams = media_types;
        self
    }

    /// Maps of custom field values under the resource name
    /// (`user[custom_attributes][<field name>]`; `""`: at the top, `cust_attr[<name>]`),
    /// read by the route's writes: texts, since each field's kind is the company's;
    /// `null` clears one.
    pub fn custom_values(self, resource: &str, maps: &[(&str, &'static str)]) -> Self {
        maps.iter().fold(self, |doc, (map, description)| {
            let name = match resource {
                "" => (*map).to_owned(),
                resource => format!("{resource}[{map}]"),
            };
            doc.clearing_map::<String>(&name, description)
        })
    }

    /// The fields of `I`, read by the route's writes (POST, PUT, PATCH): their names,
    /// schemas and whether they must be sent come from the type that parses them.
    pub fn input<I: Input>(mut self) -> Self {
        self.params.extend(Param::of_input::<I>(true));
        self
    }

    /// The parameters of `I`, read by the route's GET (a list's filters, a record's
    /// details flags), or by every method of a route that has no GET (an action's
    /// options).
    pub fn params<I: Input>(mut self) -> Self {
        self.params
            .extend(Param::of_input::<I>(false).into_iter().map(|p| Param {
                get_only: true,
                ..p
            }));
        self
    }

    /// A map of the client's keys (`bundle_with_quantity[<bundle id>]`) whose entries are
    /// each a value of `F`, a body's fields of the route's writes.
    pub fn map<F: Format>(self, name: &str, description: &'static str) -> Self {
        self.map_entries(
            name,
            description,
            FieldDoc::required::<F>("", description),
            false,
        )
    }

    /// As [`Doc::map`], for a map of one entry or more (`bundle[items][<asset number>]`).
    pub fn required_map<F: Format>(self, name: &str, description: &'static str) -> Self {
        self.map_entries(
            name,
            description,
            FieldDoc::required::<F>("", description),
            true,
        )
    }

    /// As [`Doc::map`], for a map whose entries may be sent empty, which is none
    /// (`depreciation_rates[<method name>]`).
    pub fn optional_map<F: Format>(self, name: &str, description: &'static str) -> Self {
        self.map_entries(
            name,
            description,
            FieldDoc::optional::<F>("", description),
            false,
        )
    }

    /// As [`Doc::map`], for a map whose entries also take `null` or empty, which removes
    /// one (`thresholds[<location id>]`).
    pub fn clearing_map<F: Format>(self, name: &str, description: &'static str) -> Self {
        self.map_entries(
            name,
            description,
            FieldDoc::change::<F>("", description),
            false,
        )
    }

    fn map_entries(
        mut self,
        name: &str,
        description: &'static str,
        value: FieldDoc,
        required: bool,
    ) -> Self {
        self.params.push(Param {
            name: name.to_owned(),
            description: description.to_owned(),
            write_only: true,
            get_only: false,
            typed: Typed {
                required,
                schema: value.schema,
                needs: None,
                or: None,
                empty_is_unsent: false,
            },
        });
        self
    }

    /// The route answers `{"<singular>": {...}}` (on a route that also lists, its
    /// methods other than GET do).
    pub fn returns(mut self, singular: &str) -> Self {
        self.one = Some(singular.to_owned());
        self
    }

    /// GET answers a page: `{"<plural>": [...], "total_pages": n, "current_page": n}`.
    pub fn returns_page(mut self, plural: &str) -> Self {
        self.page = Some(plural.to_owned());
        self
    }

    /// The route answers an object with these top-level keys, each of its JSON type
    /// ("string", "integer", ...): a body that is no record and no list, such as a
    /// quantity.
    pub fn returns_fields(mut self, fields: &[(&str, &'static str)]) -> Self {
        self.fields = fields.iter().map(|(f, t)| ((*f).to_owned(), *t)).collect();
        self
    }

    /// The route answers `{"<plural>": [...]}` with no paging, beside other keys its
    /// summary names.
    pub fn returns_list(mut self, plural: &str) -> Self {
        self.list = Some(plural.to_owned());
        self
    }
}

struct Documented {
    path: String,
    methods: Vec<HttpMethod>,
    doc: Doc,
}

pub struct Api {
    router: Router<AppState>,
    documented: Vec<Documented>,
}

impl Default for Api {
    fn default() -> Self {
        Api {
            router: Router::new(),
            documented: Vec::new(),
        }
    }
}

/// The methods of one path. Built like axum's `MethodRouter` (`get(list).post(create)`),
/// but an update is registered with `put_or_patch`, which answers both: the hosted
/// service routes updates and state actions like a Rails application, and its clients
/// send either. There is no way to register PUT or PATCH alone, so no route can forget
/// one of them, and the methods documented are exactly the methods served.
pub struct Methods {
    router: MethodRouter<AppState>,
    methods: Vec<HttpMethod>,
}

/// A path answering GET with `handler`.
pub fn get<H: Handler<T, AppState>, T: 'static>(handler: H) -> Methods {
    Methods::new().get(handler)
}

/// A path answering POST with `handler`.
pub fn post<H: Handler<T, AppState>, T: 'static>(handler: H) -> Methods {
    Methods::new().post(handler)
}

/// A path answering PUT and PATCH alike with `handler` (an update or a state action).
pub fn put_or_patch<H: Handler<T, AppState>, T: 'static>(handler: H) -> Methods {
    Methods::new().put_or_patch(handler)
}

impl Methods {
    fn new() -> Self {
        Methods {
            router: MethodRouter::new(),
            methods: Vec::new(),
        }
    }

    pub fn get<H: Handler<T, AppState>, T: 'static>(mut self, handler: H) -> Self {
        self.router = self.router.get(handler);
        self.methods.push(HttpMethod::Get);
        self
    }

    pub fn post<H: Handler<T, AppState>, T: 'static>(mut self, handler: H) -> Self {
        self.router = self.router.post(handler);
        self.methods.push(HttpMethod::Post);
        self
    }

    /// An update or a state action: PUT and PATCH run the same handler.
    pub fn put_or_patch<H: Handler<T, AppState>, T: 'static>(mut self, handler: H) -> Self {
        self.router = self.router.put(handler.clone()).patch(handler);
        self.methods.extend([HttpMethod::Put, HttpMethod::Patch]);
        self
    }

    /// Bodies up to `bytes` (an upload), rather than [`crate::params::MAX_BODY_BYTES`].
    pub fn body_limit(mut self, bytes: usize) -> Self {
        self.router = self
            .router
            .layer(axum::extract::DefaultBodyLimit::max(bytes));
        self
    }

    pub fn delete<H: Handler<T, AppState>, T: 'static>(mut self, handler: H) -> Self {
        self.router = self.router.delete(handler);
        self.methods.push(HttpMethod::Delete);
        self
    }
}

impl Api {
    /// Registers `path` (without `.api`) for `methods`.
    pub fn route(mut self, path: &str, methods: Methods, doc: Doc) -> Self {
        self.documented.push(Documented {
            path: format!("{path}.api"),
            methods: methods.methods,
            doc,
        });
        self.router = self
            .router
            .route(&format!("{API_PREFIX}{path}"), methods.router);
        self
    }

    /// The router, and the OpenAPI document as JSON.
    pub fn into_parts(self) -> (Router<AppState>, serde_json::Value) {
        let openapi = document(&self.documented);
        (self.router, openapi)
    }
}

/// Statuses every API operation may answer, each with the error body; 409 is added for
/// every method but GET. 405 answers a method a path does not take, so it belongs to no operation and
/// is described in the document's introduction.
const ERRORS: &[(&str, &str)] = &[
    (
        "400",
        "The request cannot be read: a malformed body, unbalanced brackets in a parameter name, an unknown content type, or a parameter limit passed",
    ),
    (
        "401",
        "Token missing, unknown, regenerated away, or for another company's host",
    ),
    (
        "403",
        "The company's API is disabled, or the action is refused for this record",
    ),
    (
        "404",
        "No such record in this company: the message names its kind (`No such vendor in this company`)",
    ),
    ("413", "The body is larger than 2 MiB"),
    ("422", "Validation failed; `errors` names each field"),
    (
        "429",
        "Rate limit exceeded; retry after `Retry-After` seconds",
    ),
    (
        "503",
        "The database is busy or unavailable; retry after `Retry-After` seconds",
    ),
];

const CONFLICT: &str = "The record's state forbids the action (the message names it), or a record it refers to changed while the request ran";

fn schema(value: serde_json::Value) -> RefOr<Schema> {
    match serde_json::from_value(value.clone()) {
        Ok(schema) => schema,
        Err(e) => panic!(
            "not a schema utoipa reads ({e}): {}",
            smallest_unread(&value)
        ),
    }
}

/// The smallest part of `value` that utoipa does not read as a schema.
fn smallest_unread(value: &serde_json::Value) -> serde_json::Value {
    let reads = |v: &serde_json::Value| serde_json::from_value::<RefOr<Schema>>(v.clone()).is_ok();
    let mut children: Vec<&serde_json::Value> = Vec::new();
    if let Some(o) = value.as_object() {
        for (k, v) in o {
            match k.as_str() {
                "properties" => children.extend(v.as_object().into_iter().flat_map(|p| p.values())),
                "anyOf" | "allOf" | "oneOf" => children.extend(v.as_array().into_iter().flatten()),
                "items" | "additionalProperties" => children.push(v),
                _ => {}
            }
        }
    }
    match children.into_iter().find(|c| c.is_object() && !reads(c)) {
        Some(child) => smallest_unread(child),
        None => value.clone(),
    }
}

fn json_content(value: serde_json::Value) -> utoipa::openapi::Content {
    ContentBuilder::new().schema(Some(schema(value))).build()
}

/// `{"message": "...", "errors": {"field": ["problem"]}}`, `errors` on 422 only.
fn error_schema() -> RefOr<Schema> {
    schema(json!({
        "type": "object",
        "required": ["message"],
        "properties": {
            "message": {"type": "string", "description": "What went wrong and what to do about it"},
            "errors": {
                "type": "object",
                "description": "On 422: each field at fault (without the resource prefix) and its problems",
                "additionalProperties": {"type": "array", "items": {"type": "string"}}
            }
        }
    }))
}

fn error_response(status: &str, description: &str) -> Response {
    let mut response = ResponseBuilder::new().description(description).content(
        "application/json",
        ContentBuilder::new()
            .schema(Some(Ref::from_schema_name("Error")))
            .build(),
    );
    if status == "429" || status == "503" {
        response = response.header("Retry-After", retry_after());
    }
    response.build()
}

fn retry_after() -> Header {
    HeaderBuilder::new()
        .schema(schema(json!({"type": "integer", "minimum": 0})))
        .description(Some("Whole seconds to wait before retrying"))
        .build()
}

/// The 200 answer of `method` on a route: JSON, or a file streamed.
fn success_response(doc: &Doc, method: &HttpMethod) -> ResponseBuilder {
    if !doc.streams.is_empty() {
        return doc.streams.iter().fold(
            ResponseBuilder::new().description("The file, streamed, as the summary says"),
            |response, media_type| {
                response.content(*media_type, json_content(json!({"type": "string"})))
            },
        );
    }
    ResponseBuilder::new()
        .description("The record, the page or the outcome, as the summary says")
        .content(
            "application/json",
            json_content(success_schema(doc, method)),
        )
}

/// The 200 body of `method` on a route.
fn success_schema(doc: &Doc, method: &HttpMethod) -> serde_json::Value {
    // A record with a typed view is its schema; of the others, the `id` is an integer
    // (saying so lets clients, and schemathesis's links, follow a created record to its
    // own paths).
    if let Some(body) = &doc.body {
        return body.reference();
    }
    let record = match &doc.view {
        Some(view) => view.reference(),
        None => json!({"type": "object", "properties": {"id": {"type": "integer", "minimum": 1}}}),
    };
    // A route documented only as a page (`/members/{id}/checked_out_items`, which the
    // spec sends as PUT) answers the page whatever the method.
    if let Some(plural) = &doc.page
        && (matches!(method, HttpMethod::Get) || doc.one.is_none())
    {
        let record = doc.page_view.as_ref().map_or(record, View::reference);
        return json!({
            "type": "object",
            "required": [plural, "total_pages", "current_page"],
            "properties": {
                plural: {"type": "array", "items": record},
                "total_pages": {"type": "integer", "minimum": 0},
                "current_page": {"type": "integer", "minimum": 1}
            }
        });
    }
    if let Some(singular) = &doc.one {
        return json!({"type": "object", "required": [singular], "properties": {singular: record}});
    }
    if let Some(plural) = &doc.list {
        return json!({"type": "object", "required": [plural], "properties": {plural: {"type": "array", "items": record}}});
    }
    if !doc.fields.is_empty() {
        let required: Vec<&String> = doc.fields.iter().map(|(f, _)| f).collect();
        let properties: serde_json::Map<String, serde_json::Value> = doc
            .fields
            .iter()
            .map(|(f, t)| (f.clone(), json!({"type": t})))
            .collect();
        return json!({"type": "object", "required": required, "properties": properties});
    }
    json!({"type": "object"})
}

/// The shape of a parameter, from the wire's naming conventions.
enum Shape {
    /// `x[]`: repeated `x[]=...`.
    List,
    /// `x[<key>]`: any number of `x[key]=value` pairs; holds `x`.
    Map(String),
    Scalar,
}

/// A parameter's schema as sent: a list's (`x[]`, blank entries skipped), a map's
/// (`x[<key>]...`: an object of its keys, each holding the typed value), or the value's.
fn value_schema(p: &Param) -> (Shape, serde_json::Value) {
    let typed = &p.typed;
    if let Some(map) = MapName::of(&p.name) {
        let mut value = typed.schema.clone();
        for field in map.fields.iter().rev() {
            value = json!({"type": "object", "properties": {*field: value}, "additionalProperties": false});
        }
        let key = json!({"type": "string", "pattern": format!("^{}$", crate::input::map_key(map.numbered))});
        return (
            Shape::Map(map.map.to_owned()),
            json!({"type": "object", "propertyNames": key, "additionalProperties": value}),
        );
    }
    if p.name.ends_with("[]") {
        (
            Shape::List,
            crate::input::with_blank_entries(typed.schema.clone()),
        )
    } else {
        (Shape::Scalar, typed.schema.clone())
    }
}

/// A map's parameter as documented: `stock_assets_values[<n>][quantity]` is the map
/// `stock_assets_values`, keyed by numbers, of objects with a `quantity`.
struct MapName<'a> {
    map: &'a str,
    numbered: bool,
    fields: Vec<&'a str>,
}

impl<'a> MapName<'a> {
    fn of(name: &'a str) -> Option<Self> {
        let (map, after) = name.split_once("[<")?;
        let (key, rest) = after.split_once('>').unwrap_or((after, ""));
        Some(MapName {
            map,
            numbered: key == "n" || key.ends_with(" id") || key.ends_with(" number"),
            fields: rest.split(['[', ']']).filter(|s| !s.is_empty()).collect(),
        })
    }

    /// The pattern of the flat names a form sends (`vendor[custom_attributes][Serial]`),
    /// unanchored.
    fn form_pattern(&self) -> String {
        let mut pattern = format!(
            "{}\\[{}\\]",
            regex_syntax::escape(self.map),
            crate::input::map_key(self.numbered)
        );
        for field in &self.fields {
            pattern.push_str(&format!("\\[{}\\]", regex_syntax::escape(field)));
        }
        pattern
    }
}

/// The names a form may send: its fields' and maps', and any other well-formed name
/// (`a`, `a[b]`, `a[]`, or none), which the server ignores, unless it would clash with a field
/// (`Params` refuses a name that is both a value and a parent: `user` or
/// `user[first_name][x]` beside `user[first_name]`). A multipart part's name holds no
/// backslash either.
fn form_names(fields: &[&str], maps: &[(&str, String)], multipart: bool) -> String {
    // A multipart name arrives as written but for a backslash, which is no escape
    // there (its line breaks and quotes come as `%0A`, `%0D`, `%22`: `Params`).
    let not_in_name = if multipart {
        format!(r"\[\]\\{}", crate::input::CONTROLS)
    } else {
        format!(r"\[\]{}", crate::input::CONTROLS)
    };
    let escaped = |name: &str| regex_syntax::escape(name);
    // Whole names a field or a map's entry holds.
    let taken: Vec<String> = fields
        .iter()
        .map(|f| escaped(f))
        .chain(maps.iter().map(|(_, entry)| entry.clone()))
        .collect();
    // The parents of those names (`user`, `user[custom_attributes]`, and `a` of `a[]`).
    let mut parents: Vec<String> = fields
        .iter()
        .copied()
        .chain(maps.iter().map(|(map, _)| *map))
        .flat_map(|name| {
            name.match_indices('[')
                .map(|(at, _)| escaped(&name[..at]))
                .collect::<Vec<_>>()
        })
        .chain(maps.iter().map(|(map, _)| escaped(map)))
        .collect();
    parents.sort();
    parents.dedup();
    let taken = taken.join("|");
    // An empty name is ignored too.
    let mut pattern = format!("^(?:{taken})?$|^");
    if !taken.is_empty() {
        pattern.push_str(&format!("(?!(?:{taken})\\[)"));
    }
    if !parents.is_empty() {
        pattern.push_str(&format!("(?!(?:{})(?:\\[\\]|$))", parents.join("|")));
    }
    // At most MAX_DEPTH brackets (`Params`).
    pattern.push_str(&format!(
        "[^{not_in_name}]+(?:\\[[^{not_in_name}]*\\]){{0,{}}}$",
        crate::params::MAX_DEPTH
    ));
    pattern
}

/// Two fields of one map (`x[<n>][quantity]`, `x[<n>][location_id]`) are one map of
/// objects with both.
fn merge_maps(into: &mut serde_json::Value, other: &serde_json::Value) {
    if let (Some(mine), Some(theirs)) = (
        into["additionalProperties"]["properties"].as_object_mut(),
        other["additionalProperties"]["properties"].as_object(),
    ) {
        for (k, v) in theirs {
            mine.entry(k.clone()).or_insert_with(|| v.clone());
        }
    }
}

/// A required text must hold something: an empty value counts as not given (so does a
/// blank one, which the 422 names).
fn non_blank(mut schema: serde_json::Value) -> serde_json::Value {
    if schema["type"] == "string" {
        schema["minLength"] = json!(1);
        schema["pattern"] = json!(crate::input::not_blank(schema["pattern"].as_str()));
    }
    schema
}

fn with_description(mut schema: serde_json::Value, description: &str) -> serde_json::Value {
    if !description.is_empty() {
        schema["description"] = json!(description);
    }
    schema
}

/// JSON's `null` is a key left out (`Params`): an object of a JSON body that need not
/// be sent (`{"location": null}`) may be `null`.
fn nullable_objects(schema: &mut serde_json::Value) {
    let required = schema["required"].as_array().cloned().unwrap_or_default();
    let Some(properties) = schema.get_mut("properties").and_then(|p| p.as_object_mut()) else {
        return;
    };
    for (name, property) in properties {
        if property["type"] == "object" {
            nullable_objects(property);
            if !required.contains(&json!(name)) {
                property["type"] = json!(["object", "null"]);
            }
        }
    }
}

/// `"required": []` says nothing; leave it out.
fn drop_empty_required(schema: &mut serde_json::Value) {
    if let Some(object) = schema.as_object_mut() {
        if object
            .get("required")
            .and_then(|r| r.as_array())
            .is_some_and(|r| r.is_empty())
        {
            object.remove("required");
        }
        if let Some(properties) = object.get_mut("properties").and_then(|p| p.as_object_mut()) {
            properties.values_mut().for_each(drop_empty_required);
        }
    }
}

/// `p` as a query parameter; a map's schema is `map`, which holds the fields of every
/// parameter of the map (`merge_maps`).
fn parameter(p: &Param, map: Option<&serde_json::Value>) -> Parameter {
    let (shape, value) = value_schema(p);
    let value = map.cloned().unwrap_or(value);
    let value = if p.required() {
        non_blank(value)
    } else {
        value
    };
    let (name, style) = match shape {
        Shape::List => (p.name.clone(), Some(ParameterStyle::Form)),
        Shape::Map(map) => (map, Some(ParameterStyle::DeepObject)),
        Shape::Scalar => (p.name.clone(), None),
    };
    let mut parameter = ParameterBuilder::new()
        .name(name)
        .parameter_in(ParameterIn::Query)
        .required(if p.required() {
            Required::True
        } else {
            Required::False
        })
        .schema(Some(schema(value)));
    if matches!(style, Some(ParameterStyle::DeepObject)) {
        // Which of the map's fields this is.
        parameter = parameter.description(Some(format!("{}: {}", p.name, p.description)));
    } else if !p.description.is_empty() {
        parameter = parameter.description(Some(&p.description));
    }
    if let Some(style) = style {
        parameter = parameter.style(Some(style)).explode(Some(true));
    }
    parameter.build()
}

/// The record's fields of a write, as a body: a form names them flat
/// (`location[name]=...`, `vendor[custom_attributes][Serial]=...`), JSON nests them
/// (`{"location": {"name": ...}}`).
fn request_body(
    fields: &[&Param],
    beside: &[(String, serde_json::Value)],
) -> (RequestBody, Bodies) {
    // JSON's other keys are ignored whatever they hold (a form's other names:
    // `form_names`). The operation's query parameters may come in the body too, as
    // they are documented there, and the body's win (`Params`).
    let mut form = json!({"type": "object", "properties": {}, "required": []});
    let mut nested = json_object();
    for (name, schema) in beside {
        form["properties"][name] = schema.clone();
        let path = segments(name);
        let mut node = &mut nested;
        for segment in &path[..path.len() - 1] {
            let child = &mut node["properties"][*segment];
            if child.is_null() {
                *child = json_object();
            }
            node = child;
        }
        // JSON's `null` is a key left out.
        node["properties"][path[path.len() - 1]] =
            json!({"anyOf": [crate::input::in_json(schema.clone()), {"type": "null"}]});
    }
    let mut form_maps: Vec<(&str, String)> = Vec::new();
    let mut map_descriptions: Vec<String> = Vec::new();
    for p in fields {
        let (shape, value) = value_schema(p);
        let required = p.required();
        let value = with_description(
            if required { non_blank(value) } else { value },
            &p.description,
        );
        let path = match &shape {
            Shape::Map(map) => segments(map),
            _ => segments(&p.name),
        };
        match &shape {
            Shape::Map(map) => {
                // Its keys (`vendor[custom_attributes][Serial]`) cannot be listed: a
                // pattern names them, and types each entry's value.
                if let Some(m) = MapName::of(&p.name) {
                    let entry = p.typed.schema.clone();
                    let names = format!("^{}$", m.form_pattern());
                    if required {
                        // One entry or more: not every name misses the pattern.
                        debug_assert!(form.get("not").is_none(), "one required map per form");
                        form["not"] = json!({"propertyNames": {"not": {"pattern": names}}});
                    }
                    form["patternProperties"][names] = with_description(entry, &p.description);
                    form_maps.push((m.map, m.form_pattern()));
                }
                map_descriptions.push(format!("{map}[<key>]: {}", p.description));
            }
            _ => {
                form["properties"][&p.name] = value.clone();
                if required {
                    form["required"]
                        .as_array_mut()
                        .expect("an array")
                        .push(json!(p.name));
                }
            }
        }
        let mut node = &mut nested;
        for (depth, segment) in path.iter().enumerate() {
            if required
                && !node["required"]
                    .as_array()
                    .is_some_and(|r| r.contains(&json!(segment)))
            {
                node["required"]
                    .as_array_mut()
                    .expect("an array")
                    .push(json!(segment));
            }
            if depth + 1 == path.len() {
                let value = crate::input::in_json(value.clone());
                let slot = &mut node["properties"][*segment];
                if matches!(shape, Shape::Map(_)) && !slot.is_null() {
                    merge_maps(slot, &value);
                } else if required || matches!(shape, Shape::Map(_)) {
                    *slot = value.clone();
                    if required && matches!(shape, Shape::Map(_)) {
                        // A required map holds one entry or more.
                        slot["minProperties"] = json!(1);
                    }
                } else {
                    // JSON's `null` is a field left out (`Params`).
                    *slot = json!({"anyOf": [value, {"type": "null"}]});
                }
            } else {
                let child = &mut node["properties"][*segment];
                if child.is_null() {
                    *child = json_object();
                }
                node = child;
            }
        }
    }
    // Rules between two fields, in the form (flat names) and at the JSON object that
    // holds both.
    for p in fields {
        let typed = &p.typed;
        // A list sent empty is sent, unless its format says not; a value sent blank is
        // not (`input::either`).
        let or = Rule::Or {
            blank_is_unsent: !p.name.ends_with("[]") || typed.empty_is_unsent,
        };
        let rules = [(&typed.needs, Rule::Needs), (&typed.or, or)];
        for (other, rule) in rules {
            let Some(other) = other.as_deref() else {
                continue;
            };
            rule.state(&mut form, &[&p.name], &[other]);
            // At the object that holds both (`basket` for `basket[payment_time]` and
            // `basket[payment_date]`; the body for `user[id]` and `user_id`).
            let (path, other_path) = (segments(&p.name), segments(other));
            let common = path
                .iter()
                .zip(&other_path)
                .take_while(|(a, b)| a == b)
                .count()
                .min(path.len() - 1)
                .min(other_path.len() - 1);
            let mut node = &mut nested;
            for segment in &path[..common] {
                node = &mut node["properties"][*segment];
            }
            rule.state(node, &path[common..], &other_path[common..]);
        }
    }
    // Other names: a map's entries, or names the route does not read. A name sent
    // twice is a list here: the last one is taken (`Params`).
    // A form sends numbers and booleans as their text, as it does a field's.
    let mut text = crate::input::any_text();
    text["type"] = json!(["string", "number", "boolean"]);
    let mut other = json!({"anyOf": [text, {"type": "array", "items": text}]});
    if !map_descriptions.is_empty() {
        other["description"] = json!(map_descriptions.join("; "));
    }
    form["additionalProperties"] = other;
    let listed: Vec<&str> = form["properties"]
        .as_object()
        .into_iter()
        .flat_map(|fields| fields.keys())
        .map(String::as_str)
        .collect();
    let names = |multipart| json!({"type": "string", "pattern": form_names(&listed, &form_maps, multipart)});
    let (urlencoded, multipart) = (names(false), names(true));
    let mut multipart_form = form.clone();
    form["propertyNames"] = urlencoded;
    multipart_form["propertyNames"] = multipart;
    // Required when a field is, or one of two (`Rule::Or`), so a request without one is
    // no valid request.
    let required = fields.iter().any(|p| p.required() || p.typed.or.is_some());
    let body = RequestBodyBuilder::new()
        .required(Some(if required {
            Required::True
        } else {
            Required::False
        }))
        .description(Some(
            "The record's fields, as a form (urlencoded or multipart) or as JSON; the query string may carry them too, \
             and the body wins.",
        ))
        .content("application/x-www-form-urlencoded", ContentBuilder::new().build())
        .content("multipart/form-data", ContentBuilder::new().build())
        .content("application/json", ContentBuilder::new().build());
    let mut bodies = [
        ("application/x-www-form-urlencoded", form),
        ("multipart/form-data", multipart_form),
        ("application/json", nested),
    ];
    nullable_objects(&mut bodies[2].1);
    for (_, schema) in &mut bodies {
        drop_empty_required(schema);
    }
    (body.build(), bodies)
}

/// A rule between two fields of one object of a body. `null`, in JSON or as text, is
/// not sent (`input::needs`, `input::either`).
#[derive(Clone, Copy)]
enum Rule {
    /// The field is sent only beside the other (a time beside its day).
    Needs,
    /// The field or the other is sent.
    Or { blank_is_unsent: bool },
}

impl Rule {
    /// States the rule in `object` between the field at `field` and the one at `other`,
    /// paths of keys from `object` (one key each in a form).
    fn state(self, object: &mut serde_json::Value, field: &[&str], other: &[&str]) {
        let unsent = match self {
            Rule::Or {
                blank_is_unsent: true,
            } => {
                // A list of blank or `null` entries is empty (`Params::list`).
                let blank = crate::input::blank();
                let empty = json!({"type": "array", "items": {"anyOf": [blank, {"type": "null"}]}});
                json!({"anyOf": [{"enum": [null, "null"]}, blank, empty]})
            }
            _ => json!({"enum": [null, "null"]}),
        };
        // The field at `path` is sent and not `null`.
        fn sent(path: &[&str], unsent: &serde_json::Value) -> serde_json::Value {
            match path {
                [name] => json!({"required": [name], "properties": {*name: {"not": unsent}}}),
                [name, rest @ ..] => {
                    // An object (`null` is an object left out).
                    let mut inner = sent(rest, unsent);
                    inner["type"] = json!("object");
                    json!({"required": [name], "properties": {*name: inner}})
                }
                [] => json!({}),
            }
        }
        match self {
            Rule::Needs => {
                // A field's rule at the object that holds it (a time beside its day).
                let [name] = field else {
                    unreachable!("`needs` names a field of the same object: {field:?}")
                };
                let other_sent = sent(other, &unsent);
                object["dependentSchemas"][*name] =
                    json!({"anyOf": [{"properties": {*name: unsent}}, other_sent]});
            }
            Rule::Or { .. } => {
                debug_assert!(object.get("anyOf").is_none(), "one `or` rule per object");
                object["anyOf"] = json!([sent(field, &unsent), sent(other, &unsent)]);
            }
        }
    }
}

/// The keys of a JSON body that hold the parameter `name` sent in a form
/// (`basket[payment_date]`, `ids[]`): `["basket", "payment_date"]`, `["ids"]`.
fn segments(name: &str) -> Vec<&str> {
    name.trim_end_matches("[]")
        .split('[')
        .map(|s| s.trim_end_matches(']'))
        .collect()
}

/// An object of a JSON body: its fields, and other keys, which are ignored.
fn json_object() -> serde_json::Value {
    json!({
        "type": "object",
        "properties": {},
        "required": [],
        "propertyNames": {"pattern": crate::input::NO_CONTROLS},
        "additionalProperties": {"$ref": "#/components/schemas/Ignored"},
    })
}

/// What a key of a JSON body that no operation reads may hold: anything JSON, whose
/// texts and keys hold no control character but tab and line breaks (`Params`).
fn ignored_schema() -> serde_json::Value {
    let ignored = json!({"$ref": "#/components/schemas/Ignored"});
    json!({
        "description": "A key the operation does not read: ignored, whatever it holds",
        "anyOf": [
            {"type": ["null", "boolean", "number"]},
            {"type": "string", "pattern": crate::input::NO_CONTROLS},
            {"type": "array", "items": ignored},
            {
                "type": "object",
                "propertyNames": {"pattern": crate::input::NO_CONTROLS},
                "additionalProperties": ignored,
            },
        ],
    })
}

/// A request body's schema for each media type, put into the document as written
/// (`document`): utoipa's schema types would drop the keywords a rule between fields
/// takes (`dependentRequired`, `anyOf` of `required`, `not`).
type Bodies = [(&'static str, serde_json::Value); 3];

fn operation(route: &Documented, method: &HttpMethod) -> (Operation, Option<Bodies>) {
    let mut op = OperationBuilder::new()
        .tag(route.doc.tag)
        .summary(Some(route.doc.summary))
        .description(Some(
            "Send the company token in the `token` header. Parameters may be sent in the query string or the body \
             (form, multipart or JSON); the body wins.",
        ))
        .response("200", success_response(&route.doc, method));
    for (status, _) in ERRORS {
        op = op.response(*status, Ref::from_response_name(*status));
    }
    if *method != HttpMethod::Get {
        op = op.response("409", Ref::from_response_name("409"));
    }
    op = op.response("414", Ref::from_response_name("414"));
    for segment in route.path.split('/') {
        if let Some(name) = segment.strip_prefix('{').and_then(|s| s.split('}').next()) {
            op = op.parameter(
                ParameterBuilder::new()
                    .name(name)
                    .parameter_in(ParameterIn::Path)
                    .required(Required::True)
                    .description(Some(if name == "sequence_num" {
                        "the record's number (sequence_num), not its id; anything but a whole number from 1 is no such record (404)"
                    } else {
                        "an id; anything but a whole number from 1 is no such record (404)"
                    }))
                    .schema(Some(schema(
                        json!({"type": "integer", "format": "int64", "minimum": 1}),
                    ))),
            );
        }
    }
    // The fields of one map (`stock_assets_values[<n>][quantity]`, `...[location_id]`)
    // are one deepObject parameter: a name appears once in an operation.
    let mut query: Vec<Parameter> = Vec::new();
    let has_get = route.methods.contains(&HttpMethod::Get);
    let read =
        |p: &&Param| !p.write_only && (!p.get_only || !has_get || *method == HttpMethod::Get);
    let mut maps: Vec<(String, serde_json::Value)> = Vec::new();
    for p in route.doc.params.iter().filter(read) {
        if let (Shape::Map(name), value) = value_schema(p) {
            match maps.iter_mut().find(|(n, _)| *n == name) {
                Some((_, map)) => merge_maps(map, &value),
                None => maps.push((name, value)),
            }
        }
    }
    for p in route.doc.params.iter().filter(read) {
        let map = MapName::of(&p.name)
            .and_then(|m| maps.iter().find(|(n, _)| n == m.map))
            .map(|(_, value)| value);
        let next = parameter(p, map);
        match query.iter_mut().find(|q| q.name == next.name) {
            // Each field of a map describes itself (`parameter`).
            Some(same) => {
                let first = same.description.take().unwrap_or_default();
                let more = next.description.unwrap_or_default();
                same.description = Some(format!("{first}; {more}"));
            }
            None => query.push(next),
        }
    }
    // The body may carry them too (`Params` merges it over the query string).
    let beside: Vec<(String, serde_json::Value)> = query
        .iter()
        .map(|q| {
            let schema = serde_json::to_value(&q.schema).unwrap_or_else(|_| json!({}));
            (q.name.clone(), schema)
        })
        .collect();
    for p in query {
        op = op.parameter(p);
    }
    let fields: Vec<&Param> = route.doc.params.iter().filter(|p| p.write_only).collect();
    let mut bodies = None;
    if !fields.is_empty()
        && matches!(
            method,
            HttpMethod::Post | HttpMethod::Put | HttpMethod::Patch
        )
    {
        let (body, schemas) = request_body(&fields, &beside);
        op = op.request_body(Some(body));
        bodies = Some(schemas);
    }
    (op.build(), bodies)
}

fn document(routes: &[Documented]) -> serde_json::Value {
    let mut paths = Paths::new();
    let mut bodies = Vec::new();
    for route in routes {
        for method in &route.methods {
            let (op, schemas) = operation(route, method);
            paths.add_path_operation(route.path.clone(), vec![method.clone()], op);
            if let Some(schemas) = schemas {
                bodies.push((route.path.as_str(), method_name(method), schemas));
            }
        }
    }
    let status = |values: &[&str]| {
        json!({"type": "object", "required": ["status"], "properties": {
            "status": {"type": "string", "enum": values},
        }})
    };
    let mut ready = status(&["ready"]);
    ready["required"] = json!(["status", "database"]);
    ready["properties"]["database"] = json!({"type": "string", "enum": ["ok", "busy"]});
    let probes = [
        (
            "/healthz",
            "Liveness and database check (no token)",
            "The database answers",
            Some((
                "The database does not answer",
                &["database unavailable"][..],
            )),
            status(&["ok"]),
        ),
        (
            "/livez",
            "The process answers (no token); asks nothing of the database",
            "The process answers",
            None,
            status(&["alive"]),
        ),
        (
            "/readyz",
            "Ready for requests (no token): the database answers within 2 s (`database`: \
             `busy` when it answers that it is busy, still ready), and the server is not \
             shutting down",
            "Ready",
            Some((
                "Shutting down (`stopping`), or the database does not answer in 2 s",
                &["stopping", "database unavailable"][..],
            )),
            ready,
        ),
    ];
    for (path, summary, ok, unavailable, schema) in probes {
        let mut op = OperationBuilder::new()
            .tag("Operations")
            .summary(Some(summary))
            .securities(Some(Vec::<SecurityRequirement>::new()))
            .response(
                "200",
                ResponseBuilder::new()
                    .description(ok)
                    .content("application/json", json_content(schema)),
            );
        if let Some((unavailable, statuses)) = unavailable {
            op = op.response(
                "503",
                ResponseBuilder::new()
                    .description(unavailable)
                    .content("application/json", json_content(status(statuses)))
                    .header("Retry-After", retry_after()),
            );
        }
        paths.add_path_operation(path, vec![HttpMethod::Get], op.build());
    }
    let mut components = ComponentsBuilder::new().schema("Error", error_schema());
    let views = routes
        .iter()
        .flat_map(|r| r.doc.view.iter().chain(&r.doc.page_view).chain(&r.doc.body));
    for (name, schema) in views.flat_map(|v| v.schemas.iter()) {
        components = components.schema(name.clone(), schema.clone());
    }
    components = components.security_scheme(
        "token",
        SecurityScheme::ApiKey(ApiKey::Header(ApiKeyValue::with_description(
            "token",
            "The company's API token",
        ))),
    );
    let mut statuses: Vec<(&str, &str)> = ERRORS.to_vec();
    statuses.push(("409", CONFLICT));
    for (status, description) in statuses {
        components = components.response(status, error_response(status, description));
    }
    // Answered by hyper before any handler, with no body: a URI can hold 64 KiB.
    components = components.response(
        "414",
        ResponseBuilder::new()
            .description(
                "The URI is longer than 64 KiB (a long query string): send the parameters in the body",
            )
            .build(),
    );
    let openapi = OpenApiBuilder::new()
        .info(
            InfoBuilder::new()
                .title("rentrack")
                .version(env!("CARGO_PKG_VERSION"))
                .description(Some(
                    "Equipment rental and asset tracking. Every API path ends in `.api`. Every failure is JSON: \
                     `{\"message\": ..., \"errors\": {field: [problem]}}`. A method a path does not take is a 405. \
                     See docs/api.md for the conventions.",
                ))
                .build(),
        )
        .paths(paths)
        .components(Some(components.build()))
        .security(Some([SecurityRequirement::new("token", Vec::<String>::new())]))
        .build();
    let mut document = serde_json::to_value(openapi).expect("the document serializes");
    document["components"]["schemas"]["Ignored"] = ignored_schema();
    for (path, method, schemas) in bodies {
        for (media, schema) in schemas {
            document["paths"][path][method]["requestBody"]["content"][media]["schema"] = schema;
        }
    }
    document
}

/// The key of `method` among a path's operations.
fn method_name(method: &HttpMethod) -> &'static str {
    match method {
        HttpMethod::Get => "get",
        HttpMethod::Post => "post",
        HttpMethod::Put => "put",
        HttpMethod::Patch => "patch",
        HttpMethod::Delete => "delete",
        HttpMethod::Head => "head",
        HttpMethod::Options => "options",
        HttpMethod::Trace => "trace",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A form's names as documented are the names `Params` reads without a clash.
    #[test]
    fn form_names_are_documented_as_read() {
        let maps = [(
            "user[custom_attributes]",
            MapName::of("user[custom_attributes][<field name>]")
                .expect("a map")
                .form_pattern(),
        )];
        let fields = ["user[first_name]", "user[team_ids][]", "asset_ids[]"];
        let check = |multipart: bool, name: &str, expected: bool| {
            let schema =
                json!({"type": "string", "pattern": form_names(&fields, &maps, multipart)});
            let valid = jsonschema::is_valid(&schema, &json!(name));
            assert_eq!(valid, expected, "{name:?} (multipart: {multipart})");
        };
        for multipart in [false, true] {
            for name in [
                "user[first_name]",
                "user[team_ids][]",
                "asset_ids[]",
                "user[custom_attributes][Serial no]",
                "utf8",
                "commit[x]",
                "user[other]",
                "a[][b]",
                "",
            ] {
                check(multipart, name, true);
            }
            for name in [
                "user",
                "user[]",
                "user[first_name][x]",
                "user[custom_attributes]",
                "user[custom_attributes][]",
                "user[custom_attributes][a][b]",
                "asset_ids",
                "a]",
                "a[",
                "a[b",
                "x\u{1}",
            ] {
                check(multipart, name, false);
            }
        }
        let deep = |levels: usize| format!("a{}", "[b]".repeat(levels));
        check(false, &deep(crate::params::MAX_DEPTH), true);
        check(false, &deep(crate::params::MAX_DEPTH + 1), false);
        check(false, "a\"b\\c\td", true);
        // Sent as `%22`, `%0A` and `%0D` (WHATWG's encoding, which `Params` undoes); a
        // backslash is no escape in a multipart name.
        check(true, "a\"b\r\nc\td", true);
        check(true, "a\\b", false);
    }
}
