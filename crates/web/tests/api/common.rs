//! `TestApp`: a fresh database (a SQLite file, or a PostgreSQL schema when
//! `TEST_POSTGRES_URL` is set), a company with an enabled API and a token, and
//! helpers to send real HTTP requests through the whole application.

use axum::Router;
use axum::body::Body;
use axum::http::{HeaderMap, Method, Request, StatusCode};
use domain::{Plan, Subdomain};
use http_body_util::BodyExt;
use serde_json::Value;
use store::Db;
use store::companies::{self, NewCompany};
use tower::ServiceExt;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Sqlite,
    Postgres,
}

/// Runs each named case on SQLite (`on_sqlite::<case>`) and on PostgreSQL
/// (`on_postgres::<case>`). The PostgreSQL cases are ignored unless asked for
/// (`cargo test -- --include-ignored`, with `TEST_POSTGRES_URL` set): a run without
/// PostgreSQL reports them ignored, never passed, and one that asks for them without
/// the variable fails.
#[macro_export]
macro_rules! both {
    ($($name:ident),* $(,)?) => {
        mod on_sqlite {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $name() { super::$name($crate::common::Kind::Sqlite).await }
            )*
        }
        mod on_postgres {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                #[ignore = "needs TEST_POSTGRES_URL"]
                async fn $name() { super::$name($crate::common::Kind::Postgres).await }
            )*
        }
    };
}

pub fn postgres_url() -> Option<String> {
    std::env::var("TEST_POSTGRES_URL")
        .ok()
        .filter(|s| !s.is_empty())
}

fn unique(prefix: &str) -> String {
    use rand::Rng;
    format!(
        "{prefix}{:012x}",
        rand::thread_rng().r#gen::<u64>() & 0xffff_ffff_ffff
    )
}

/// Where the SQLite test databases go. A database outlives its test (another app may
/// share it), so instead of deleting each one, the first test of a run clears what
/// earlier runs left more than an hour ago.
fn sqlite_dir() -> std::path::PathBuf {
    static DIR: std::sync::OnceLock<std::path::PathBuf> = std::sync::OnceLock::new();
    DIR.get_or_init(|| {
        let dir = std::env::temp_dir().join("rentrack-tests");
        let _ = std::fs::create_dir_all(&dir);
        let hour_ago = std::time::SystemTime::now() - std::time::Duration::from_secs(3600);
        for entry in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
            let old = entry
                .metadata()
                .and_then(|m| m.modified())
                .is_ok_and(|t| t < hour_ago);
            if old {
                let _ = std::fs::remove_file(entry.path());
            }
        }
        dir
    })
    .clone()
}

/// A fresh, migrated, empty database of the given kind.
pub async fn fresh_db(kind: Kind) -> (Db, String) {
    fresh_db_with(kind, &store::DbOptions::default()).await
}

/// A fresh database connected with the given timeouts and pool size.
pub async fn fresh_db_with(kind: Kind, options: &store::DbOptions) -> (Db, String) {
    // Every list query of the tests must be served by an index (debug builds).
    store::check_list_plans();
    let url = match kind {
        Kind::Sqlite => {
            let path = sqlite_dir().join(format!("{}.db", unique("rentrack-test-")));
            format!("sqlite://{}", path.display())
        }
        Kind::Postgres => {
            let base = postgres_url().expect("TEST_POSTGRES_URL");
            let schema = unique("t_");
            let admin = Db::connect(&base)
                .await
                .expect("connect to TEST_POSTGRES_URL");
            admin
                .read()
                .execute(&store::Sql {
                    text: leak(format!("CREATE SCHEMA {schema}")),
                    values: sea_query::Values(vec![]),
                })
                .await
                .expect("create schema");
            admin.close();
            let sep = if base.contains('?') { '&' } else { '?' };
            format!("{base}{sep}options=-c%20search_path%3D{schema}")
        }
    };
    let db = Db::connect_with(&url, options).await.expect("connect");
    db.migrate().await.expect("migrate");
    (db, url)
}

fn leak(s: String) -> &'static str {
    Box::leak(s.into_boxed_str())
}

pub struct TestApp {
    pub db: Db,
    pub db_url: String,
    pub router: Router,
    pub token: String,
    pub company: companies::Company,
}

pub struct Builder {
    kind: Kind,
    plan: Plan,
    enable_api: bool,
    config: web::Config,
    db: Option<(Db, String)>,
    subdomain: Option<String>,
}

impl Builder {
    pub fn plan(mut self, plan: Plan) -> Self {
        self.plan = plan;
        self
    }

    pub fn api_disabled(mut self) -> Self {
        self.enable_api = false;
        self
    }

    pub fn config(mut self, config: web::Config) -> Self {
        self.config = config;
        self
    }

    /// Another company on the same database as `other`.
    pub fn beside(mut self, other: &TestApp) -> Self {
        self.db = Some((other.db.clone(), other.db_url.clone()));
        self
    }

    /// A database of the test's own making (e.g. connected with short timeouts).
    pub fn database(mut self, db: Db, url: String) -> Self {
        self.db = Some((db, url));
        self
    }

    pub fn subdomain(mut self, s: &str) -> Self {
        self.subdomain = Some(s.to_owned());
        self
    }

    pub async fn build(self) -> TestApp {
        let (db, db_url) = match self.db {
            Some(pair) => pair,
            None => fresh_db(self.kind).await,
        };
        let subdomain = self.subdomain.unwrap_or_else(|| unique("co"));
        let new = NewCompany {
            name: format!("Company {subdomain}"),
            subdomain: Subdomain::parse(&subdomain).expect("valid subdomain"),
            plan: self.plan,
            owner_email: Some(format!("owner@{subdomain}.test")),
            owner_password: None,
            enable_api: true,
        };
        let (company, token) = companies::create(&db, new).await.expect("create company");
        let company = if self.enable_api {
            company
        } else {
            companies::set_api_enabled(&db, &company.subdomain, false)
                .await
                .expect("disable api")
        };
        let router = web::router(web::AppState::new(db.clone(), with_metrics(self.config)));
        TestApp {
            db,
            db_url,
            router,
            token: token.expect("token").0,
            company,
        }
    }
}

/// The token that reads `/metrics` in these tests ([`TestApp::metrics`]).
const METRICS_TOKEN: &str = "metrics-token-of-the-tests";

/// `config`, with `/metrics` readable with [`METRICS_TOKEN`] unless it says otherwise.
fn with_metrics(mut config: web::Config) -> web::Config {
    if !config.metrics.enabled() {
        config.metrics = web::metrics::Access::new(vec![], Some(METRICS_TOKEN));
    }
    config
}

impl TestApp {
    /// The text of `/metrics`.
    pub async fn metrics(&self) -> String {
        let bearer = format!("Bearer {METRICS_TOKEN}");
        let res = self
            .anonymous(Method::GET, "/metrics")
            .header("authorization", &bearer)
            .send()
            .await;
        res.expect(StatusCode::OK);
        res.text
    }

    /// Another instance of the server (its own memory: rate limits, remembered
    /// companies) on the same database, for the same company.
    pub fn another_instance(&self, config: web::Config) -> TestApp {
        TestApp {
            db: self.db.clone(),
            db_url: self.db_url.clone(),
            router: web::router(web::AppState::new(self.db.clone(), with_metrics(config))),
            token: self.token.clone(),
            company: self.company.clone(),
        }
    }

    pub fn builder(kind: Kind) -> Builder {
        Builder {
            kind,
            plan: Plan::Unlimited,
            enable_api: true,
            config: web::Config::default(),
            db: None,
            subdomain: None,
        }
    }

    pub async fn new(kind: Kind) -> TestApp {
        // `TEST_LOG=warn` (or any filter) shows the server's log, 500s' causes included.
        if let Ok(filter) = std::env::var("TEST_LOG") {
            let _ = tracing_subscriber::fmt()
                .with_env_filter(filter)
                .with_test_writer()
                .try_init();
        }
        Self::builder(kind).build().await
    }

    /// A request carrying this company's token in the `token` header.
    pub fn req(&self, method: Method, path: &str) -> Req<'_> {
        Req {
            app: self,
            method,
            path: path.to_owned(),
            headers: vec![("token".into(), self.token.clone())],
            body: None,
            peer: None,
        }
    }

    /// A request without any token.
    pub fn anonymous(&self, method: Method, path: &str) -> Req<'_> {
        Req {
            app: self,
            method,
            path: path.to_owned(),
            headers: vec![],
            body: None,
            peer: None,
        }
    }

    pub async fn get(&self, path: &str) -> Res {
        self.req(Method::GET, path).send().await
    }

    pub async fn post(&self, path: &str, form: &[(&str, &str)]) -> Res {
        self.req(Method::POST, path).form(form).send().await
    }

    pub async fn put(&self, path: &str, form: &[(&str, &str)]) -> Res {
        self.req(Method::PUT, path).form(form).send().await
    }

    pub async fn patch(&self, path: &str, form: &[(&str, &str)]) -> Res {
        self.req(Method::PATCH, path).form(form).send().await
    }

    pub async fn delete(&self, path: &str) -> Res {
        self.req(Method::DELETE, path).send().await
    }

    /// Creates a location and returns its id.
    pub async fn location(&self, name: &str, extra: &[(&str, &str)]) -> i64 {
        let mut form = vec![("location[name]", name)];
        form.extend_from_slice(extra);
        let res = self.post("/locations.api", &form).await;
        assert_eq!(res.status, StatusCode::OK, "{}", res.body);
        res.body["location"]["id"].as_i64().expect("id")
    }

    /// Creates a custom field and returns it (with its option ids).
    pub async fn custom_field(
        &self,
        name: &str,
        field_type: &str,
        applies_to: &[&str],
        options: &[&str],
    ) -> Value {
        let mut form = vec![
            ("custom_field[name]", name),
            ("custom_field[field_type]", field_type),
        ];
        form.extend(
            applies_to
                .iter()
                .map(|t| ("custom_field[applies_to][]", *t)),
        );
        form.extend(options.iter().map(|o| ("custom_field[options][]", *o)));
        let res = self.post("/custom_fields.api", &form).await;
        assert_eq!(res.status, StatusCode::OK, "{}", res.body);
        res.body["custom_field"].clone()
    }

    /// Creates a staff member with a login and returns its id.
    pub async fn member(
        &self,
        first: &str,
        last: &str,
        email: &str,
        extra: &[(&str, &str)],
    ) -> i64 {
        let mut form = vec![
            ("user[first_name]", first),
            ("user[last_name]", last),
            ("user[email]", email),
            ("user[role_id]", "2"),
        ];
        form.extend_from_slice(extra);
        let res = self.post("/members.api", &form).await;
        assert_eq!(res.status, StatusCode::OK, "{}", res.body);
        res.body["member"]["id"].as_i64().expect("id")
    }

    /// Creates a team and returns its id.
    pub async fn team(&self, name: &str) -> i64 {
        let res = self.post("/teams.api", &[("team[name]", name)]).await;
        assert_eq!(res.status, StatusCode::OK, "{}", res.body);
        res.body["team"]["id"].as_i64().expect("id")
    }

    /// Creates a customer and returns its id.
    pub async fn customer(&self, first: &str, last: &str, extra: &[(&str, &str)]) -> i64 {
        let mut form = vec![
            ("customer[first_name]", first),
            ("customer[last_name]", last),
        ];
        form.extend_from_slice(extra);
        let res = self.post("/customers.api", &form).await;
        assert_eq!(res.status, StatusCode::OK, "{}", res.body);
        res.body["customer"]["id"].as_i64().expect("id")
    }

    /// Creates a store listing and returns its id.
    pub async fn listing(&self, name: &str) -> i64 {
        let res = self.post("/listings.api", &[("listing[name]", name)]).await;
        assert_eq!(res.status, StatusCode::OK, "{}", res.body);
        res.body["listing"]["id"].as_i64().expect("id")
    }

    /// Creates a business and returns its id.
    pub async fn business(&self, name: &str, extra: &[(&str, &str)]) -> i64 {
        let mut form = vec![("business[name]", name)];
        form.extend_from_slice(extra);
        let res = self.post("/businesses.api", &form).await;
        assert_eq!(res.status, StatusCode::OK, "{}", res.body);
        res.body["business"]["id"].as_i64().expect("id")
    }

    /// Creates a business contact of `businesses` (a comma list) and returns its id.
    pub async fn contact(&self, last: &str, businesses: &str, extra: &[(&str, &str)]) -> i64 {
        let mut form = vec![("contact[last_name]", last), ("business_ids", businesses)];
        form.extend_from_slice(extra);
        let res = self.post("/contacts.api", &form).await;
        assert_eq!(res.status, StatusCode::OK, "{}", res.body);
        res.body["contact"]["id"].as_i64().expect("id")
    }

    /// Records an order through the store (the orders endpoints come later).
    pub async fn order(&self, customer: Option<i64>, business: Option<i64>, state: &str) {
        store::orders::record(
            &self.db,
            self.company.id,
            customer.map(store::Id::new),
            business.map(store::Id::new),
            state,
        )
        .await
        .expect("order recorded");
    }

    /// Creates a fixed asset in `group` and returns its number (sequence_num).
    pub async fn asset(&self, name: &str, group: i64, extra: &[(&str, &str)]) -> i64 {
        let group = group.to_string();
        let mut form = vec![
            ("fixed_asset[name]", name),
            ("fixed_asset[group_id]", group.as_str()),
            ("fixed_asset[purchased_on]", "01/15/2026"),
        ];
        form.extend_from_slice(extra);
        let res = self.post("/assets.api", &form).await;
        assert_eq!(res.status, StatusCode::OK, "{}", res.body);
        res.body["asset"]["sequence_num"]
            .as_i64()
            .expect("sequence_num")
    }

    /// Creates an inventory item (`path` `/inventory`, form `volatile_asset`) or an
    /// asset stock item (`/stock_assets`, `stock_asset`); returns its number.
    pub async fn stock_item(
        &self,
        path: &str,
        name: &str,
        group: i64,
        extra: &[(&str, &str)],
    ) -> i64 {
        let scope = if path == "/inventory" {
            "volatile_asset"
        } else {
            "stock_asset"
        };
        let group = group.to_string();
        let (name_key, group_key) = (format!("{scope}[name]"), format!("{scope}[group_id]"));
        let mut form = vec![
            (name_key.as_str(), name),
            (group_key.as_str(), group.as_str()),
        ];
        form.extend_from_slice(extra);
        let res = self.post(&format!("{path}.api"), &form).await;
        assert_eq!(res.status, StatusCode::OK, "{}", res.body);
        res.body["asset"]["sequence_num"]
            .as_i64()
            .expect("sequence_num")
    }

    /// Adds `quantity` units of item `number` (under `path`) at `location`.
    pub async fn add_stock(&self, path: &str, number: i64, quantity: i64, location: i64) -> Value {
        let (q, l) = (quantity.to_string(), location.to_string());
        let res = self
            .post(
                &format!("{path}/{number}/order.api"),
                &[
                    ("order_type", "Add Stock"),
                    ("line_item[quantity]", &q),
                    ("line_item[price]", "2.50"),
                    ("line_item[location_id]", &l),
                ],
            )
            .await;
        assert_eq!(res.status, StatusCode::OK, "{}", res.body);
        res.body["asset"].clone()
    }

    pub async fn group(&self, name: &str) -> i64 {
        let res = self.post("/groups.api", &[("group[name]", name)]).await;
        assert_eq!(res.status, StatusCode::OK, "{}", res.body);
        res.body["group"]["id"].as_i64().expect("id")
    }

    /// Creates a subgroup of `group` and returns its id.
    pub async fn sub_group(&self, group: i64, name: &str) -> i64 {
        let path = format!("/groups/{group}/sub_groups.api");
        let res = self.post(&path, &[("sub_group[name]", name)]).await;
        assert_eq!(res.status, StatusCode::OK, "{}", res.body);
        res.body["sub_group"]["id"].as_i64().expect("id")
    }

    /// A new retire reason's id, as a form value.
    pub async fn retire_reason(&self, name: &str) -> String {
        let res = self
            .post("/retire_reasons.api", &[("retire_reason[name]", name)])
            .await;
        assert_eq!(res.status, StatusCode::OK, "{}", res.body);
        res.body["retire_reason"]["id"]
            .as_i64()
            .expect("id")
            .to_string()
    }

    /// The status of reservation request `id` of item `n`, whatever it is.
    pub async fn reservation_status(&self, n: i64, id: i64) -> String {
        let list = self
            .get(&format!("/assets/{n}/reservation_requests.api?status=all"))
            .await
            .into_body(StatusCode::OK);
        list["reservation_requests"]
            .as_array()
            .expect("requests")
            .iter()
            .find(|r| r["id"] == id)
            .and_then(|r| r["status"].as_str())
            .expect("the request")
            .to_owned()
    }
}

pub struct Req<'a> {
    app: &'a TestApp,
    method: Method,
    path: String,
    headers: Vec<(String, String)>,
    body: Option<(String, Vec<u8>)>,
    peer: Option<std::net::SocketAddr>,
}

pub fn encode(form: &[(&str, &str)]) -> String {
    let mut s = form_urlencoded::Serializer::new(String::new());
    for (k, v) in form {
        s.append_pair(k, v);
    }
    s.finish()
}

impl Req<'_> {
    pub fn header(mut self, name: &str, value: &str) -> Self {
        self.headers.retain(|(n, _)| !n.eq_ignore_ascii_case(name));
        self.headers.push((name.to_owned(), value.to_owned()));
        self
    }

    /// The address the request comes from, as a served connection would report it.
    pub fn peer(mut self, addr: &str) -> Self {
        self.peer = Some(addr.parse().expect("ip:port"));
        self
    }

    pub fn form(mut self, form: &[(&str, &str)]) -> Self {
        self.body = Some((
            "application/x-www-form-urlencoded".into(),
            encode(form).into_bytes(),
        ));
        self
    }

    pub fn raw_body(mut self, content_type: &str, body: &str) -> Self {
        self.body = Some((content_type.to_owned(), body.as_bytes().to_vec()));
        self
    }

    pub fn json(mut self, value: Value) -> Self {
        self.body = Some(("application/json".into(), value.to_string().into_bytes()));
        self
    }

    pub async fn send(self) -> Res {
        let mut builder = Request::builder().method(self.method).uri(&self.path);
        for (k, v) in &self.headers {
            builder = builder.header(k, v);
        }
        let body = match self.body {
            Some((ct, bytes)) => {
                builder = builder.header("content-type", ct);
                Body::from(bytes)
            }
            None => Body::empty(),
        };
        let mut request = builder.body(body).unwrap();
        if let Some(peer) = self.peer {
            request
                .extensions_mut()
                .insert(axum::extract::ConnectInfo(peer));
        }
        let response = self.app.router.clone().oneshot(request).await.unwrap();
        let status = response.status();
        let headers = response.headers().clone();
        let bytes = response.into_body().collect().await.unwrap().to_bytes();
        let text = String::from_utf8_lossy(&bytes).to_string();
        let body = serde_json::from_slice(&bytes).unwrap_or(Value::String(text.clone()));
        Res {
            status,
            headers,
            body,
            text,
            bytes: bytes.to_vec(),
        }
    }
}

#[derive(Debug)]
pub struct Res {
    pub status: StatusCode,
    pub headers: HeaderMap,
    pub body: Value,
    pub text: String,
    /// The body as sent (a PDF, say).
    pub bytes: Vec<u8>,
}

impl Res {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).and_then(|v| v.to_str().ok())
    }

    /// Asserts the status, showing the body when it differs.
    #[track_caller]
    pub fn expect(&self, status: StatusCode) -> &Value {
        assert_eq!(self.status, status, "body: {}", self.text);
        &self.body
    }

    /// Asserts the status and takes the body.
    #[track_caller]
    pub fn into_body(self, status: StatusCode) -> Value {
        assert_eq!(self.status, status, "body: {}", self.text);
        self.body
    }

    /// Asserts a 422 whose `errors` name `field`.
    #[track_caller]
    pub fn expect_invalid(&self, field: &str) {
        assert_eq!(
            self.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "body: {}",
            self.text
        );
        assert!(
            self.body["errors"][field].is_array(),
            "errors should name {field}: {}",
            self.text
        );
        assert!(self.body["message"].is_string(), "{}", self.text);
    }
}

/// The ids of the records listed under `key`.
pub fn ids(body: &Value, key: &str) -> Vec<i64> {
    body[key]
        .as_array()
        .unwrap_or_else(|| panic!("no {key} in {body}"))
        .iter()
        .map(|c| c["id"].as_i64().unwrap())
        .collect()
}

/// The most units `holds` (first and last moments or days, compared as text in one
/// format; no last: for good) hold at one of their first moments.
pub fn busiest(holds: &[(String, Option<String>, i64)]) -> i64 {
    holds
        .iter()
        .map(|(start, _, _)| {
            holds
                .iter()
                .filter(|(from, to, _)| from <= start && to.as_ref().is_none_or(|t| start <= t))
                .map(|h| h.2)
                .sum::<i64>()
        })
        .max()
        .unwrap_or(0)
}

/// What a random sequence of steps did, and the rule each step keeps: done (2xx), or
/// refused (409, 422) changing nothing.
#[derive(Debug, Default)]
pub struct Tally {
    pub done: usize,
    pub refused: usize,
}

impl Tally {
    /// Step `step` answered `res`. When refused, `after` (what the step may have
    /// touched, read again; not read otherwise) must equal `before`.
    pub async fn step<S: PartialEq + std::fmt::Debug>(
        &mut self,
        step: &dyn std::fmt::Debug,
        res: &Res,
        before: &S,
        after: impl Future<Output = S>,
    ) {
        assert!(
            res.status.is_success()
                || res.status == StatusCode::CONFLICT
                || res.status == StatusCode::UNPROCESSABLE_ENTITY,
            "{step:?}: {} {}",
            res.status,
            res.text
        );
        if res.status.is_success() {
            self.done += 1;
        } else {
            self.refused += 1;
            assert_eq!(
                &after.await,
                before,
                "refused {step:?} changed something: {}",
                res.text
            );
        }
    }
}

/// `/openapi.json`, built and read once for the test binary.
pub fn openapi_document() -> &'static Value {
    static DOCUMENT: std::sync::OnceLock<Value> = std::sync::OnceLock::new();
    DOCUMENT.get_or_init(|| serde_json::from_str(&web::openapi_json()).expect("the document"))
}

/// `body`, a 200 answer of `method` on `path` (as the document writes it:
/// `/locations/{id}.api`), matches the schema `/openapi.json` gives it, references
/// resolved: every field named, of its type, and none the document does not list
/// where the record has a typed view.
pub fn assert_documented(path: &str, method: &str, body: &Value) {
    let mut root = openapi_document().clone();
    let pointer = format!(
        "#/paths/{}/{method}/responses/200/content/application~1json/schema",
        path.replace('~', "~0").replace('/', "~1")
    );
    assert!(
        root.pointer(&pointer[1..]).is_some(),
        "no 200 schema for {method} {path}"
    );
    // The document is the root, so `#/components/...` resolves; the check starts at
    // the operation's schema.
    root["$ref"] = Value::String(pointer.replace('{', "%7B").replace('}', "%7D"));
    let validator = jsonschema::validator_for(&root).expect("a valid schema");
    let errors: Vec<String> = validator
        .iter_errors(body)
        .map(|e| format!("{} at {}", e, e.instance_path))
        .collect();
    assert!(errors.is_empty(), "{method} {path}: {errors:#?}\n{body}");
}

/// Every key of `record` is a property `/openapi.json` lists for the schema `name`,
/// apart from `custom` (custom fields shown as keys of their own, which the schema's
/// `additionalProperties` describes): a view whose schema allows other keys still
/// documents every key of its own.
pub fn assert_keys_documented(name: &str, record: &Value, custom: &[&str]) {
    let properties = openapi_document()["components"]["schemas"][name]["properties"]
        .as_object()
        .unwrap_or_else(|| panic!("no schema {name} with properties"));
    let undocumented: Vec<&String> = record
        .as_object()
        .expect("a record")
        .keys()
        .filter(|k| !properties.contains_key(*k) && !custom.contains(&k.as_str()))
        .collect();
    assert!(
        undocumented.is_empty(),
        "{name}: {undocumented:?} not documented\n{record}"
    );
}
