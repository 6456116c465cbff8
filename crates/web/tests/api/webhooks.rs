//! Webhooks: the endpoints' records, and deliveries to a real HTTP receiver on
//! loopback, each verified by an independent implementation of Standard Webhooks (the
//! `standardwebhooks` crate).

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::http::{HeaderMap, StatusCode};
use serde_json::Value;

use crate::common::{Kind, TestApp, assert_documented};

both!(
    endpoints_are_created_read_updated_and_deleted,
    bad_input_is_refused_and_creates_nothing,
    private_targets_are_refused_unless_allowed,
    private_targets_are_refused_at_delivery_too,
    one_assets_events_arrive_signed_and_in_order,
    each_records_events_keep_their_order_among_others,
    a_refused_change_sends_nothing,
    endpoints_receive_only_what_they_subscribe_to,
    a_failed_delivery_is_retried_with_the_same_id_and_body,
    gone_disables_the_endpoint_until_it_is_enabled,
    a_rotated_secret_signs_beside_the_new_one,
    a_delivery_is_sent_again_on_request,
    another_companys_endpoints_do_not_exist,
    stock_under_its_minimum_and_retired_reservations_are_told,
    delivered_events_are_pruned_and_undelivered_ones_kept,
    retry_after_is_honoured_within_bounds_and_redirects_are_not_followed,
    sub_records_events_carry_the_sub_record,
    settings_and_catalogue_changes_are_told,
    five_days_of_failures_disable_the_endpoint,
    a_slow_receiver_times_out_and_is_retried,
    an_endless_answer_is_read_only_to_its_cap,
    endpoints_sent_to_at_once_are_bounded,
    an_imports_rows_send_their_events,
);

/// What the receiver got: one request.
#[derive(Clone, Debug)]
struct Received {
    headers: HeaderMap,
    body: String,
}

impl Received {
    fn json(&self) -> Value {
        serde_json::from_str(&self.body).expect("a JSON body")
    }

    fn header(&self, name: &str) -> &str {
        self.headers
            .get(name)
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default()
    }
}

/// An answer of the receiver: a status and headers (`Retry-After`, `Location`).
type Answer = (u16, Vec<(&'static str, &'static str)>);

/// How a [`Receiver`] answers.
#[derive(Clone, Copy)]
enum Manner {
    /// At once: the answers it is given in turn, then 200.
    Prompt,
    /// The same, after this long.
    After(Duration),
    /// A 500 whose body never ends.
    Endless,
}

/// Requests being answered at once, across the receivers that share it, and the most
/// there were.
#[derive(Clone, Default)]
struct Gauge(Arc<Mutex<(usize, usize)>>);

impl Gauge {
    fn most(&self) -> usize {
        self.0.lock().unwrap().1
    }
}

/// Counts a request being answered while it lives.
struct Busy(Gauge);

impl Busy {
    fn new(gauge: &Gauge) -> Busy {
        let mut g = gauge.0.lock().unwrap();
        g.0 += 1;
        g.1 = g.1.max(g.0);
        Busy(gauge.clone())
    }
}

impl Drop for Busy {
    fn drop(&mut self) {
        self.0.0.lock().unwrap().0 -= 1;
    }
}

/// An HTTP server on loopback that records every request and answers in its manner.
struct Receiver {
    addr: std::net::SocketAddr,
    got: Arc<Mutex<Vec<Received>>>,
    answers: Arc<Mutex<VecDeque<Answer>>>,
    /// When the sender stopped reading an endless answer.
    hung_up: Arc<Mutex<Option<std::time::Instant>>>,
}

impl Receiver {
    async fn start() -> Receiver {
        Receiver::answering(Manner::Prompt, Gauge::default()).await
    }

    async fn answering(manner: Manner, gauge: Gauge) -> Receiver {
        let got: Arc<Mutex<Vec<Received>>> = Arc::default();
        let answers: Arc<Mutex<VecDeque<Answer>>> = Arc::default();
        let hung_up: Arc<Mutex<Option<std::time::Instant>>> = Arc::default();
        let app = axum::Router::new().fallback({
            let (got, answers, hung_up) = (got.clone(), answers.clone(), hung_up.clone());
            move |headers: HeaderMap, body: String| {
                let (got, answers, hung_up) = (got.clone(), answers.clone(), hung_up.clone());
                let busy = Busy::new(&gauge);
                async move {
                    got.lock().unwrap().push(Received { headers, body });
                    if let Manner::After(wait) = manner {
                        tokio::time::sleep(wait).await;
                    }
                    drop(busy);
                    if matches!(manner, Manner::Endless) {
                        return endless(hung_up);
                    }
                    let (status, headers) = answers
                        .lock()
                        .unwrap()
                        .pop_front()
                        .unwrap_or((200, Vec::new()));
                    let mut answer = axum::response::Response::new(axum::body::Body::empty());
                    *answer.status_mut() = StatusCode::from_u16(status).unwrap();
                    for (name, value) in headers {
                        answer.headers_mut().insert(name, value.parse().unwrap());
                    }
                    answer
                }
            }
        });
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        tokio::spawn(async move { axum::serve(listener, app).await });
        Receiver {
            addr,
            got,
            answers,
            hung_up,
        }
    }

    fn url(&self) -> String {
        format!("http://{}/hooks", self.addr)
    }

    fn answer(&self, statuses: &[u16]) {
        self.answers
            .lock()
            .unwrap()
            .extend(statuses.iter().map(|s| (*s, Vec::new())));
    }

    fn answer_with(&self, status: u16, headers: Vec<(&'static str, &'static str)>) {
        self.answers.lock().unwrap().push_back((status, headers));
    }

    fn received(&self) -> Vec<Received> {
        self.got.lock().unwrap().clone()
    }

    /// Waits (up to `within`) until at least `n` requests came, and answers them all.
    async fn wait_for(&self, n: usize, within: Duration) -> Vec<Received> {
        let start = std::time::Instant::now();
        loop {
            let got = self.received();
            if got.len() >= n {
                return got;
            }
            assert!(
                start.elapsed() < within,
                "{} of {n} deliveries within {within:?}: {got:?}",
                got.len()
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }
}

/// A 500 of `x`s without end; notes in `hung_up` when the sender stops reading it.
fn endless(hung_up: Arc<Mutex<Option<std::time::Instant>>>) -> axum::response::Response {
    struct Noted(Arc<Mutex<Option<std::time::Instant>>>);
    impl Drop for Noted {
        fn drop(&mut self) {
            *self.0.lock().unwrap() = Some(std::time::Instant::now());
        }
    }
    let noted = Noted(hung_up);
    let chunk = bytes::Bytes::from(vec![b'x'; 16 * 1024]);
    let stream = futures_util::stream::repeat_with(move || {
        let _ = &noted;
        Ok::<_, std::convert::Infallible>(chunk.clone())
    });
    let mut answer = axum::response::Response::new(axum::body::Body::from_stream(stream));
    *answer.status_mut() = StatusCode::INTERNAL_SERVER_ERROR;
    answer
}

fn allowing_private() -> web::Config {
    sending(web::delivery::Settings {
        allow_private: true,
        ..Default::default()
    })
}

fn sending(webhooks: web::delivery::Settings) -> web::Config {
    web::Config {
        webhooks,
        ..Default::default()
    }
}

/// A company whose server sends webhooks to loopback, with its delivery worker.
async fn delivering(kind: Kind) -> TestApp {
    delivering_with(kind, allowing_private()).await
}

/// The same, its server configured by `config`.
async fn delivering_with(kind: Kind, config: web::Config) -> TestApp {
    let app = TestApp::builder(kind).config(config.clone()).build().await;
    web::delivery::spawn(web::AppState::new(app.db.clone(), config)).unwrap();
    app
}

/// Creates an endpoint; answers its id and secret.
async fn endpoint(app: &TestApp, url: &str, events: &str) -> (i64, String) {
    let res = app
        .post(
            "/webhooks.api",
            &[("webhook[url]", url), ("webhook[events]", events)],
        )
        .await;
    let w = res.into_body(StatusCode::OK)["webhook"].clone();
    (
        w["id"].as_i64().unwrap(),
        w["secret"].as_str().unwrap().to_owned(),
    )
}

/// Asserts the 404 of a `what` the company does not have.
#[track_caller]
fn not_found(res: &crate::common::Res, what: &str) {
    assert_eq!(res.status, StatusCode::NOT_FOUND, "{}", res.text);
    assert_eq!(
        res.body["message"],
        format!("No such {what} in this company. Check the id.")
    );
}

fn verify(secret: &str, got: &Received) -> Result<(), String> {
    standardwebhooks::Webhook::new(secret)
        .map_err(|e| e.to_string())?
        .verify(got.body.as_bytes(), &got.headers)
        .map_err(|e| e.to_string())
}

async fn member(app: &TestApp) -> i64 {
    app.member("Ann", "Tester", "ann@example.com", &[]).await
}

/// Checks asset `n` out to `member` and back in.
async fn out_and_in(app: &TestApp, n: i64, member: i64) {
    app.put(&format!("/assets/{n}/checkout.api?user_id={member}"), &[])
        .await
        .into_body(StatusCode::OK);
    app.put(&format!("/assets/{n}/checkin.api"), &[])
        .await
        .into_body(StatusCode::OK);
}

async fn endpoints_are_created_read_updated_and_deleted(kind: Kind) {
    let app = TestApp::builder(kind)
        .config(allowing_private())
        .build()
        .await;
    let res = app
        .post(
            "/webhooks.api",
            &[
                ("webhook[url]", "http://127.0.0.1:9/in"),
                ("webhook[events]", " asset.checked_out, order.* "),
                ("webhook[description]", "Front desk"),
            ],
        )
        .await;
    let created = res.into_body(StatusCode::OK);
    assert_documented("/webhooks.api", "post", &created);
    let w = &created["webhook"];
    let id = w["id"].as_i64().unwrap();
    assert_eq!(w["url"], "http://127.0.0.1:9/in");
    assert_eq!(
        w["events"],
        serde_json::json!(["asset.checked_out", "order.*"])
    );
    assert_eq!(w["description"], "Front desk");
    assert_eq!(w["active"], true);
    let secret = w["secret"].as_str().unwrap();
    let key = domain::webhook::secret_key(secret).unwrap();
    assert!(secret.starts_with("whsec_") && key.len() >= 24, "{secret}");
    // The secret is shown once.
    let shown = app
        .get(&format!("/webhooks/{id}.api"))
        .await
        .into_body(StatusCode::OK);
    assert_documented("/webhooks/{id}.api", "get", &shown);
    assert!(shown["webhook"].get("secret").is_none(), "{shown}");
    // Update keeps what is left out.
    let res = app
        .patch(&format!("/webhooks/{id}.api"), &[("webhook[events]", "*")])
        .await;
    let updated = res.into_body(StatusCode::OK)["webhook"].clone();
    assert_eq!(updated["events"], serde_json::json!(["*"]));
    assert_eq!(updated["description"], "Front desk");
    assert!(updated.get("secret").is_none());
    let res = app
        .put(
            &format!("/webhooks/{id}.api"),
            &[
                ("webhook[active]", "false"),
                ("webhook[description]", "null"),
            ],
        )
        .await;
    let updated = res.into_body(StatusCode::OK)["webhook"].clone();
    assert_eq!(updated["active"], false);
    assert_eq!(updated["description"], Value::Null);
    // The list (paged as every list is: paging.rs).
    for i in 0..19 {
        let url = format!("http://127.0.0.1:9/{i}");
        endpoint(&app, &url, "*").await;
    }
    let page = app.get("/webhooks.api").await.into_body(StatusCode::OK);
    assert_documented("/webhooks.api", "get", &page);
    assert_eq!(page["webhooks"].as_array().unwrap().len(), 20);
    assert_eq!(page["total_pages"], 1);
    assert!(page["webhooks"][0].get("secret").is_none());
    assert_eq!(page["webhooks"][0]["id"], id);
    let res = app
        .get("/webhooks.api?page=2")
        .await
        .into_body(StatusCode::OK);
    assert_eq!(res["webhooks"], serde_json::json!([]));
    let deleted = app.delete(&format!("/webhooks/{id}.api")).await;
    deleted.into_body(StatusCode::OK);
    let gone = app.get(&format!("/webhooks/{id}.api")).await;
    not_found(&gone, "webhook");
}

async fn bad_input_is_refused_and_creates_nothing(kind: Kind) {
    let app = TestApp::builder(kind)
        .config(allowing_private())
        .build()
        .await;
    let res = app.post("/webhooks.api", &[]).await;
    res.expect_invalid("url");
    res.expect_invalid("events");
    let long = format!("https://example.com/{}", "a".repeat(2100));
    for (url, events, field, words) in [
        ("ftp://example.com/x", "*", "url", "https://"),
        ("not a url", "*", "url", "not a URL"),
        (long.as_str(), "*", "url", "too long"),
        (
            "http://127.0.0.1:9/",
            "asset.exploded, nothing.*",
            "events",
            "asset.exploded, nothing.*",
        ),
        ("http://127.0.0.1:9/", " , ", "events", "can't be blank"),
    ] {
        let res = app
            .post(
                "/webhooks.api",
                &[("webhook[url]", url), ("webhook[events]", events)],
            )
            .await;
        res.expect_invalid(field);
        assert!(res.text.contains(words), "{url} {events}: {}", res.text);
    }
    let many = vec!["asset.created"; 101].join(",");
    let res = app
        .post(
            "/webhooks.api",
            &[
                ("webhook[url]", "http://127.0.0.1:9/"),
                ("webhook[events]", &many),
            ],
        )
        .await;
    res.expect_invalid("events");
    let list = app.get("/webhooks.api").await.into_body(StatusCode::OK);
    assert_eq!(list["webhooks"], serde_json::json!([]));
    // At most fifty endpoints a company.
    for i in 0..50 {
        endpoint(&app, &format!("http://127.0.0.1:9/{i}"), "*").await;
    }
    let res = app
        .post(
            "/webhooks.api",
            &[
                ("webhook[url]", "http://127.0.0.1:9/51"),
                ("webhook[events]", "*"),
            ],
        )
        .await;
    let body = res.into_body(StatusCode::CONFLICT);
    assert!(
        body.to_string().contains("at most 50 webhook endpoints"),
        "{body}"
    );
}

async fn private_targets_are_refused_unless_allowed(kind: Kind) {
    // The default server: only https, only public addresses.
    let app = TestApp::new(kind).await;
    for (url, words) in [
        ("http://example.com/hook", "https://"),
        ("https://127.0.0.1/hook", "127.0.0.1"),
        ("https://[::1]:8443/hook", "::1"),
        (
            "https://169.254.169.254/latest/meta-data",
            "169.254.169.254",
        ),
        ("https://10.0.0.7/", "10.0.0.7"),
        ("https://localhost:8443/hook", "localhost"),
    ] {
        let res = app
            .post(
                "/webhooks.api",
                &[("webhook[url]", url), ("webhook[events]", "*")],
            )
            .await;
        res.expect_invalid("url");
        assert!(res.text.contains(words), "{url}: {}", res.text);
    }
    let list = app.get("/webhooks.api").await.into_body(StatusCode::OK);
    assert_eq!(list["webhooks"], serde_json::json!([]));
}

async fn private_targets_are_refused_at_delivery_too(kind: Kind) {
    // Created where private targets were allowed; delivered by a worker that refuses
    // them (as after a DNS change, the address is checked again at each attempt).
    let app = TestApp::builder(kind)
        .config(allowing_private())
        .build()
        .await;
    web::delivery::spawn(web::AppState::new(app.db.clone(), web::Config::default())).unwrap();
    let receiver = Receiver::start().await;
    let (id, _) = endpoint(&app, &receiver.url(), "*").await;
    app.post(&format!("/webhooks/{id}/test.api"), &[])
        .await
        .into_body(StatusCode::OK);
    let log = wait_for_attempt(&app, id).await;
    let error = log["deliveries"][0]["last_error"].as_str().unwrap();
    assert!(error.contains("127.0.0.1"), "{error}");
    assert!(receiver.received().is_empty());
}

/// The delivery log once its newest delivery was attempted.
async fn wait_for_attempt(app: &TestApp, id: i64) -> Value {
    for _ in 0..500 {
        let log = app
            .get(&format!("/webhooks/{id}/deliveries.api"))
            .await
            .into_body(StatusCode::OK);
        if log["deliveries"][0]["attempts"].as_i64() >= Some(1) {
            return log;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    panic!("no attempt");
}

async fn one_assets_events_arrive_signed_and_in_order(kind: Kind) {
    let app = delivering(kind).await;
    let receiver = Receiver::start().await;
    let (id, secret) = endpoint(&app, &receiver.url(), "asset.*").await;
    let path = format!("/webhooks/{id}.api");
    let before = app.get(&path).await.into_body(StatusCode::OK)["webhook"].clone();
    // Past the second `updated_at` is written to.
    tokio::time::sleep(Duration::from_millis(1100)).await;
    let group = app.group("Cameras").await;
    let n = app.asset("Camera", group, &[]).await;
    let ann = member(&app).await;
    out_and_in(&app, n, ann).await;
    let got = receiver.wait_for(3, Duration::from_secs(20)).await;
    // Delivering changes the log, not the endpoint.
    wait_for_attempt(&app, id).await;
    let after = app.get(&path).await.into_body(StatusCode::OK)["webhook"].clone();
    assert_eq!(after["updated_at"], before["updated_at"]);
    let types: Vec<String> = got
        .iter()
        .map(|r| r.json()["type"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(
        types,
        ["asset.created", "asset.checked_out", "asset.checked_in"]
    );
    let mut ids = std::collections::HashSet::new();
    for r in &got {
        verify(&secret, r).unwrap_or_else(|e| panic!("{e}: {r:?}"));
        assert!(ids.insert(r.header("webhook-id").to_owned()));
        assert!(r.header("webhook-id").starts_with("msg_"));
        assert_eq!(r.header("content-type"), "application/json");
        assert!(r.header("user-agent").starts_with("rentrack-webhooks/"));
        let body = r.json();
        let stamp = body["timestamp"].as_str().unwrap();
        assert!(
            chrono::DateTime::parse_from_rfc3339(stamp).is_ok(),
            "{stamp}"
        );
        assert_eq!(body["data"]["sequence_num"], n);
    }
    // `data` is the record as the API answers it.
    let asset = app
        .get(&format!("/assets/{n}.api"))
        .await
        .into_body(StatusCode::OK);
    assert_eq!(got[2].json()["data"], asset["asset"]);
    assert_eq!(got[1].json()["data"]["state"], "checked_out");
    // A tampered body does not verify.
    let mut forged = got[0].clone();
    forged.body = forged.body.replace("Camera", "Camerb");
    assert!(verify(&secret, &forged).is_err());
}

/// Ten assets changed at once: the worker sends different assets' events side by
/// side, each asset's in the order of its changes.
async fn each_records_events_keep_their_order_among_others(kind: Kind) {
    let app = delivering(kind).await;
    let receiver = Receiver::start().await;
    endpoint(&app, &receiver.url(), "asset.*").await;
    let group = app.group("Cameras").await;
    let ann = member(&app).await;
    let work = (0..10).map(|i| {
        let app = &app;
        async move {
            let n = app.asset(&format!("Camera {i}"), group, &[]).await;
            for _ in 0..2 {
                out_and_in(app, n, ann).await;
            }
            n
        }
    });
    let numbers = futures_util::future::join_all(work).await;
    // Delivery is at least once: a send that timed out on a loaded machine is sent
    // again with the same `webhook-id`, which a receiver drops. The order is of the
    // distinct events.
    let start = std::time::Instant::now();
    let got = loop {
        let mut seen = std::collections::HashSet::new();
        let distinct: Vec<Value> = receiver
            .received()
            .iter()
            .filter(|r| seen.insert(r.header("webhook-id").to_owned()))
            .map(Received::json)
            .collect();
        if distinct.len() >= 50 {
            break distinct;
        }
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "{} of 50 events",
            distinct.len()
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    };
    for n in numbers {
        let types: Vec<&str> = got
            .iter()
            .filter(|b| b["data"]["sequence_num"] == n)
            .map(|b| b["type"].as_str().unwrap())
            .collect();
        assert_eq!(
            types,
            [
                "asset.created",
                "asset.checked_out",
                "asset.checked_in",
                "asset.checked_out",
                "asset.checked_in"
            ],
            "asset #{n}"
        );
    }
}

async fn a_refused_change_sends_nothing(kind: Kind) {
    let app = delivering(kind).await;
    let receiver = Receiver::start().await;
    let group = app.group("Cameras").await;
    let n = app.asset("Camera", group, &[]).await;
    let (id, _) = endpoint(&app, &receiver.url(), "*").await;
    // Refused: no member (422), then not checked out (409).
    app.put(&format!("/assets/{n}/checkout.api?user_id=99999"), &[])
        .await
        .into_body(StatusCode::UNPROCESSABLE_ENTITY);
    app.put(&format!("/assets/{n}/checkin.api"), &[])
        .await
        .into_body(StatusCode::CONFLICT);
    // Then one change that commits.
    app.put(&format!("/assets/{n}.api"), &[("asset[name]", "Camera 2")])
        .await
        .into_body(StatusCode::OK);
    let got = receiver.wait_for(1, Duration::from_secs(20)).await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(receiver.received().len(), 1, "{got:?}");
    assert_eq!(got[0].json()["type"], "asset.updated");
    let log = app
        .get(&format!("/webhooks/{id}/deliveries.api"))
        .await
        .into_body(StatusCode::OK);
    assert_documented("/webhooks/{id}/deliveries.api", "get", &log);
    assert_eq!(log["deliveries"].as_array().unwrap().len(), 1);
}

async fn endpoints_receive_only_what_they_subscribe_to(kind: Kind) {
    let app = delivering(kind).await;
    let (orders, locations) = (Receiver::start().await, Receiver::start().await);
    endpoint(&app, &orders.url(), "member.created").await;
    endpoint(&app, &locations.url(), "location.*").await;
    let studio = app.location("Studio", &[]).await;
    member(&app).await;
    app.put(&format!("/locations/{studio}/deactivate.api"), &[])
        .await
        .into_body(StatusCode::OK);
    let got = locations.wait_for(2, Duration::from_secs(20)).await;
    let types: Vec<Value> = got.iter().map(|r| r.json()["type"].clone()).collect();
    assert_eq!(types, ["location.created", "location.deactivated"]);
    assert_eq!(got[1].json()["data"]["status"], "inactive");
    let members = orders.wait_for(1, Duration::from_secs(20)).await;
    assert_eq!(members[0].json()["type"], "member.created");
    assert_eq!(members.len(), 1, "{members:?}");
}

async fn a_failed_delivery_is_retried_with_the_same_id_and_body(kind: Kind) {
    let app = delivering(kind).await;
    let receiver = Receiver::start().await;
    receiver.answer(&[500]);
    let (id, secret) = endpoint(&app, &receiver.url(), "*").await;
    let queued = app
        .post(&format!("/webhooks/{id}/test.api"), &[])
        .await
        .into_body(StatusCode::OK);
    assert_documented("/webhooks/{id}/test.api", "post", &queued);
    assert_eq!(queued["delivery"]["type"], "webhook.test");
    // The first attempt at once; the second after the schedule's five seconds.
    let got = receiver.wait_for(1, Duration::from_secs(10)).await;
    let log = wait_for_attempt(&app, id).await;
    assert_eq!(log["deliveries"][0]["last_status"], 500);
    assert!(!log["deliveries"][0]["next_attempt_at"].is_null());
    let got2 = receiver.wait_for(2, Duration::from_secs(20)).await;
    assert_eq!(got[0].header("webhook-id"), got2[1].header("webhook-id"));
    assert_eq!(got[0].body, got2[1].body);
    verify(&secret, &got2[1]).unwrap();
    assert_eq!(got2[1].json()["data"]["id"], id);
    for _ in 0..100 {
        let log = app
            .get(&format!("/webhooks/{id}/deliveries.api"))
            .await
            .into_body(StatusCode::OK);
        let d = &log["deliveries"][0];
        if !d["delivered_at"].is_null() {
            assert_eq!(d["attempts"], 2);
            assert_eq!(d["last_status"], 200);
            assert!(d["next_attempt_at"].is_null());
            return;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    panic!("not marked delivered");
}

async fn gone_disables_the_endpoint_until_it_is_enabled(kind: Kind) {
    let app = delivering(kind).await;
    let receiver = Receiver::start().await;
    receiver.answer(&[410]);
    let (id, _) = endpoint(&app, &receiver.url(), "location.*").await;
    app.location("Studio", &[]).await;
    receiver.wait_for(1, Duration::from_secs(10)).await;
    let mut webhook = Value::Null;
    for _ in 0..100 {
        webhook = app
            .get(&format!("/webhooks/{id}.api"))
            .await
            .into_body(StatusCode::OK)["webhook"]
            .clone();
        if webhook["active"] == false {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(webhook["active"], false);
    assert!(webhook["disabled_reason"].as_str().unwrap().contains("410"));
    // Disabled: a change is not sent.
    app.location("Store room", &[]).await;
    tokio::time::sleep(Duration::from_millis(1500)).await;
    assert_eq!(receiver.received().len(), 1);
    // Enabled again: the undelivered event goes out.
    let res = app
        .put(
            &format!("/webhooks/{id}.api"),
            &[("webhook[active]", "true")],
        )
        .await;
    let enabled = res.into_body(StatusCode::OK)["webhook"].clone();
    assert_eq!(enabled["disabled_reason"], Value::Null);
    let got = receiver.wait_for(2, Duration::from_secs(10)).await;
    assert_eq!(got[1].json()["type"], "location.created");
    assert_eq!(got[1].json()["data"]["name"], "Studio");
    assert_eq!(got[0].header("webhook-id"), got[1].header("webhook-id"));
}

async fn a_rotated_secret_signs_beside_the_new_one(kind: Kind) {
    let app = delivering(kind).await;
    let receiver = Receiver::start().await;
    let (id, old) = endpoint(&app, &receiver.url(), "*").await;
    let res = app
        .post(&format!("/webhooks/{id}/rotate_secret.api"), &[])
        .await;
    let rotated = res.into_body(StatusCode::OK);
    assert_documented("/webhooks/{id}/rotate_secret.api", "post", &rotated);
    let new = rotated["webhook"]["secret"].as_str().unwrap().to_owned();
    assert_ne!(old, new);
    app.post(&format!("/webhooks/{id}/test.api"), &[])
        .await
        .into_body(StatusCode::OK);
    let got = receiver.wait_for(1, Duration::from_secs(10)).await;
    assert_eq!(got[0].header("webhook-signature").split(' ').count(), 2);
    verify(&old, &got[0]).unwrap();
    verify(&new, &got[0]).unwrap();
    let stranger = domain::webhook::secret_text(&[7u8; 32]);
    assert!(verify(&stranger, &got[0]).is_err());
}

async fn a_delivery_is_sent_again_on_request(kind: Kind) {
    let app = delivering(kind).await;
    let receiver = Receiver::start().await;
    let (id, _) = endpoint(&app, &receiver.url(), "*").await;
    let queued = app
        .post(&format!("/webhooks/{id}/test.api"), &[])
        .await
        .into_body(StatusCode::OK);
    let delivery = queued["delivery"]["id"].as_i64().unwrap();
    receiver.wait_for(1, Duration::from_secs(10)).await;
    let res = app
        .post(
            &format!("/webhooks/{id}/deliveries/{delivery}/retry.api"),
            &[],
        )
        .await;
    let again = res.into_body(StatusCode::OK);
    assert_documented(
        "/webhooks/{webhook_id}/deliveries/{id}/retry.api",
        "post",
        &again,
    );
    let got = receiver.wait_for(2, Duration::from_secs(10)).await;
    assert_eq!(got[0].header("webhook-id"), got[1].header("webhook-id"));
    assert_eq!(got[0].body, got[1].body);
    let res = app
        .post(&format!("/webhooks/{id}/deliveries/999999/retry.api"), &[])
        .await;
    not_found(&res, "webhook delivery");
}

/// Several instances share one PostgreSQL database (on SQLite one process delivers).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs TEST_POSTGRES_URL"]
async fn two_instances_deliver_each_event_once_on_postgres() {
    let app = TestApp::builder(Kind::Postgres)
        .config(allowing_private())
        .build()
        .await;
    // Two instances, each with its own connections to the database.
    for _ in 0..2 {
        let db = store::Db::connect(&app.db_url).await.unwrap();
        web::delivery::spawn(web::AppState::new(db, allowing_private())).unwrap();
    }
    let receiver = Receiver::start().await;
    let (_, secret) = endpoint(&app, &receiver.url(), "location.created").await;
    let requests = (0..30).map(|i| {
        let app = &app;
        async move { app.location(&format!("Room {i}"), &[]).await }
    });
    futures_util::future::join_all(requests).await;
    let got = receiver.wait_for(30, Duration::from_secs(30)).await;
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let got_all = receiver.received();
    assert_eq!(got_all.len(), 30, "{got:?}");
    let ids: std::collections::HashSet<&str> =
        got_all.iter().map(|r| r.header("webhook-id")).collect();
    assert_eq!(ids.len(), 30);
    for r in &got_all {
        verify(&secret, r).unwrap();
    }
}

async fn another_companys_endpoints_do_not_exist(kind: Kind) {
    let app = TestApp::builder(kind)
        .config(allowing_private())
        .build()
        .await;
    let other = TestApp::builder(kind)
        .config(allowing_private())
        .beside(&app)
        .build()
        .await;
    let (id, _) = endpoint(&app, "http://127.0.0.1:9/", "*").await;
    let queued = app
        .post(&format!("/webhooks/{id}/test.api"), &[])
        .await
        .into_body(StatusCode::OK);
    let delivery = queued["delivery"]["id"].as_i64().unwrap();
    for res in [
        other.get(&format!("/webhooks/{id}.api")).await,
        other
            .put(
                &format!("/webhooks/{id}.api"),
                &[("webhook[active]", "false")],
            )
            .await,
        other.delete(&format!("/webhooks/{id}.api")).await,
        other
            .post(&format!("/webhooks/{id}/rotate_secret.api"), &[])
            .await,
        other.post(&format!("/webhooks/{id}/test.api"), &[]).await,
        other.get(&format!("/webhooks/{id}/deliveries.api")).await,
        other
            .post(
                &format!("/webhooks/{id}/deliveries/{delivery}/retry.api"),
                &[],
            )
            .await,
    ] {
        not_found(&res, "webhook");
    }
    assert_eq!(
        other.get("/webhooks.api").await.into_body(StatusCode::OK)["webhooks"],
        serde_json::json!([])
    );
    // The owner's endpoint is untouched.
    let mine = app
        .get(&format!("/webhooks/{id}.api"))
        .await
        .into_body(StatusCode::OK);
    assert_eq!(mine["webhook"]["active"], true);
}

async fn stock_under_its_minimum_and_retired_reservations_are_told(kind: Kind) {
    let app = delivering(kind).await;
    let receiver = Receiver::start().await;
    let group = app.group("Cables").await;
    let depot = app.location("Depot", &[]).await;
    let n = app
        .stock_item("/inventory", "Gaffer tape", group, &[])
        .await;
    app.add_stock("/inventory", n, 10, depot).await;
    app.put(
        &format!("/inventory/{n}/location_based_thresholds.api"),
        &[(format!("thresholds[{depot}]").as_str(), "5")],
    )
    .await
    .into_body(StatusCode::OK);
    endpoint(
        &app,
        &receiver.url(),
        "stock.threshold_crossed,reservation.*,asset.retired",
    )
    .await;
    let sell = |quantity: &'static str| {
        let depot = depot.to_string();
        let app = &app;
        async move {
            app.post(
                &format!("/inventory/{n}/order.api"),
                &[
                    ("order_type", "New Sale"),
                    ("line_item[quantity]", quantity),
                    ("line_item[price]", "5.00"),
                    ("line_item[location_id]", depot.as_str()),
                ],
            )
            .await
            .into_body(StatusCode::OK)
        }
    };
    // 10 -> 6: still at or above 5; 6 -> 4: under it (told once); 4 -> 3: under already.
    sell("4").await;
    sell("2").await;
    sell("1").await;
    let got = receiver.wait_for(1, Duration::from_secs(20)).await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(receiver.received().len(), 1, "{got:?}");
    let crossed = got[0].json();
    assert_eq!(crossed["type"], "stock.threshold_crossed");
    assert_eq!(crossed["data"]["sequence_num"], n);
    assert_eq!(crossed["data"]["net_quantity"], 4);
    // A fixed asset's reservation, removed by its retirement.
    let camera = app.asset("Camera", group, &[]).await;
    let ann = member(&app).await;
    let res = app
        .post(
            &format!("/assets/{camera}/reservation_requests.api"),
            &[
                ("reservation_request[from]", "01/10/2099"),
                ("reservation_request[to]", "01/12/2099"),
                ("user[id]", ann.to_string().as_str()),
            ],
        )
        .await;
    res.into_body(StatusCode::OK);
    let reason = app.retire_reason("Broken").await;
    app.put(
        &format!("/assets/{camera}/retire.api"),
        &[
            ("fixed_asset[retired_on]", "01/01/2026"),
            ("fixed_asset[retire_reason_id]", reason.as_str()),
        ],
    )
    .await
    .into_body(StatusCode::OK);
    let got = receiver.wait_for(4, Duration::from_secs(20)).await;
    let types: Vec<Value> = got[1..].iter().map(|r| r.json()["type"].clone()).collect();
    assert_eq!(
        types,
        [
            "reservation.created",
            "reservation.removed",
            "asset.retired"
        ]
    );
    assert_eq!(got[2].json()["data"]["sequence_num"], camera);
    // A reservation's events carry the reservation, as the API answers it.
    let (created, removed) = (got[1].json(), got[2].json());
    assert_eq!(created["data"]["status"], "pending");
    assert_eq!(removed["data"]["status"], "removed");
    assert_eq!(created["data"]["id"], removed["data"]["id"]);
    let id = removed["data"]["id"].as_i64().unwrap();
    let shown = app
        .get(&format!("/assets/{camera}/reservation_requests/{id}.api"))
        .await
        .into_body(StatusCode::OK);
    assert_eq!(removed["data"], shown["reservation_request"]);
    assert_documented(
        "/assets/{sequence_num}/reservation_requests/{id}.api",
        "get",
        &shown,
    );
}

#[test]
fn the_guide_names_every_event_type() {
    let guide = include_str!("../../../../docs/api.md");
    let events = &guide[guide.find("### Events").expect("the events section")..];
    for t in domain::webhook::EVENT_TYPES {
        assert!(
            events.contains(&format!("`{t}`")),
            "docs/api.md does not name `{t}`"
        );
    }
}

/// The bodies `receiver` got, waiting for `n` of them, in order of arrival.
async fn bodies(receiver: &Receiver, n: usize) -> Vec<Value> {
    let got = receiver.wait_for(n, Duration::from_secs(20)).await;
    got.iter().map(Received::json).collect()
}

async fn sub_records_events_carry_the_sub_record(kind: Kind) {
    let app = delivering(kind).await;
    let receiver = Receiver::start().await;
    endpoint(&app, &receiver.url(), "verification.*,payment.*").await;
    let group = app.group("Cameras").await;
    let n = app.asset("Camera", group, &[]).await;
    let ann = member(&app).await;
    app.put(&format!("/assets/{n}/checkout.api?user_id={ann}"), &[])
        .await
        .into_body(StatusCode::OK);
    let asked = app
        .post(&format!("/assets/{n}/verification_requests.api"), &[])
        .await
        .into_body(StatusCode::OK)["verification"]
        .clone();
    let got = bodies(&receiver, 1).await;
    assert_eq!(got[0]["type"], "verification.requested");
    assert_eq!(got[0]["data"], asked);
    let id = asked["id"].as_i64().unwrap();
    let shown = app
        .get(&format!("/assets/{n}/verifications/{id}.api"))
        .await
        .into_body(StatusCode::OK);
    assert_eq!(shown["verification"], asked);
    assert_documented(
        "/assets/{sequence_num}/verifications/{id}.api",
        "get",
        &shown,
    );
    // Another asset's number, or another id, is a 404.
    let other = app.asset("Tripod", group, &[]).await;
    let res = app
        .get(&format!("/assets/{other}/verifications/{id}.api"))
        .await;
    not_found(&res, "verification");
    // A payment: the entry of the order's payment_histories, naming its order.
    let customer = app.customer("Bo", "Buyer", &[]).await.to_string();
    let order = app
        .post(
            "/baskets.api",
            &[("basket[customer_id]", customer.as_str())],
        )
        .await
        .into_body(StatusCode::OK)["basket"]["sequence_num"]
        .as_i64()
        .unwrap();
    let paid = app
        .patch(
            &format!("/baskets/{order}/charge_pre_payment.api"),
            &[
                ("basket[pre_paid_amount]", "12.50"),
                ("basket[payment_method_name]", "Cash"),
            ],
        )
        .await
        .into_body(StatusCode::OK);
    let entry = paid["basket"]["payment_histories"][0].clone();
    let got = bodies(&receiver, 2).await;
    assert_eq!(got[1]["type"], "payment.received");
    let mut expected = entry.clone();
    expected["basket_sequence_num"] = order.into();
    assert_eq!(got[1]["data"], expected);
    assert_eq!(got[1]["data"]["amount"], "12.50");
}

async fn settings_and_catalogue_changes_are_told(kind: Kind) {
    let app = delivering(kind).await;
    let receiver = Receiver::start().await;
    endpoint(
        &app,
        &receiver.url(),
        "listing.*,sub_group.*,address.*,custom_tax.*,custom_role.*,company_settings.*",
    )
    .await;
    let listing = app.listing("Spring sale").await;
    let group = app.group("Cameras").await;
    let sub = app.sub_group(group, "DSLR").await;
    app.put(
        &format!("/groups/{group}/sub_groups/{sub}.api"),
        &[("sub_group[name]", "Mirrorless")],
    )
    .await
    .into_body(StatusCode::OK);
    let ann = member(&app).await;
    app.post(
        &format!("/users/{ann}/shipping_addresses.api"),
        &[
            ("shipping_address[name]", "Home"),
            ("shipping_address[street1]", "1 Main St"),
            ("shipping_address[street2]", ""),
        ],
    )
    .await
    .into_body(StatusCode::OK);
    app.post(
        "/custom_taxes.api",
        &[("custom_tax[name]", "VAT"), ("custom_tax[rate]", "8.875")],
    )
    .await
    .into_body(StatusCode::OK);
    let role = app
        .post("/custom_roles.api", &[("custom_role[name]", "Crew")])
        .await
        .into_body(StatusCode::OK)["custom_role"]["id"]
        .as_i64()
        .unwrap();
    app.delete(&format!("/custom_roles/{role}.api"))
        .await
        .into_body(StatusCode::OK);
    // Different records' events may arrive in any order (and within one millisecond, so
    // their timestamps cannot order them); one record's arrive in order.
    let got = bodies(&receiver, 7).await;
    let types: Vec<&str> = got.iter().map(|b| b["type"].as_str().unwrap()).collect();
    let at = |kind: &str| {
        types
            .iter()
            .position(|t| *t == kind)
            .unwrap_or_else(|| panic!("no {kind} among {types:?}"))
    };
    let mut sorted = types.clone();
    sorted.sort_unstable();
    assert_eq!(
        sorted,
        [
            "address.created",
            "custom_role.created",
            "custom_role.deleted",
            "custom_tax.created",
            "listing.created",
            "sub_group.created",
            "sub_group.updated",
        ]
    );
    assert!(
        at("sub_group.created") < at("sub_group.updated"),
        "{types:?}"
    );
    assert!(
        at("custom_role.created") < at("custom_role.deleted"),
        "{types:?}"
    );
    let event = |kind: &str| &got[at(kind)];
    let shown = |path: String, key: &'static str| {
        let app = &app;
        async move { app.get(&path).await.into_body(StatusCode::OK)[key].clone() }
    };
    assert_eq!(
        event("listing.created")["data"],
        shown(format!("/listings/{listing}.api"), "listing").await
    );
    assert_eq!(
        event("sub_group.updated")["data"],
        shown(format!("/groups/{group}/sub_groups/{sub}.api"), "sub_group").await
    );
    assert_eq!(event("sub_group.updated")["data"]["name"], "Mirrorless");
    let address = event("address.created")["data"]["id"].as_i64().unwrap();
    assert_eq!(
        event("address.created")["data"],
        shown(
            format!("/users/{ann}/shipping_addresses/{address}.api"),
            "shipping_address"
        )
        .await
    );
    // Without a GET of one record, what its history kept; a deleted one, the same.
    assert_eq!(event("custom_tax.created")["data"]["name"], "VAT");
    assert_eq!(event("custom_tax.created")["data"]["rate"], "8.875");
    assert_eq!(event("custom_role.deleted")["data"]["id"], role);
    assert_eq!(event("custom_role.deleted")["data"]["name"], "Crew");
    // The settings as the change left them, the new time zone too.
    app.patch(
        "/company_settings.api",
        &[("company_settings[time_zone]", "Europe/Paris")],
    )
    .await
    .into_body(StatusCode::OK);
    let settings = &bodies(&receiver, 8).await[7];
    assert_eq!(settings["type"], "company_settings.updated");
    assert_eq!(
        settings["data"],
        shown("/company_settings.api".into(), "company_settings").await
    );
    assert_eq!(settings["data"]["time_zone"], "Europe/Paris");
}

async fn delivered_events_are_pruned_and_undelivered_ones_kept(kind: Kind) {
    let app = delivering(kind).await;
    let receiver = Receiver::start().await;
    let (good, _) = endpoint(&app, &receiver.url(), "*").await;
    // Nothing listens on port 9 of loopback: its delivery fails and waits for a retry.
    let (bad, _) = endpoint(&app, "http://127.0.0.1:9/", "*").await;
    for id in [good, bad] {
        app.post(&format!("/webhooks/{id}/test.api"), &[])
            .await
            .into_body(StatusCode::OK);
    }
    receiver.wait_for(1, Duration::from_secs(10)).await;
    let log = wait_for_attempt(&app, bad).await;
    assert!(log["deliveries"][0]["delivered_at"].is_null());
    for _ in 0..100 {
        let log = app
            .get(&format!("/webhooks/{good}/deliveries.api"))
            .await
            .into_body(StatusCode::OK);
        if !log["deliveries"][0]["delivered_at"].is_null() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    // Within the retention nothing goes; past it, the delivered event goes.
    let kept = store::webhooks::prune(&app.db, store::now() - chrono::Duration::days(1), 1000)
        .await
        .unwrap();
    assert_eq!(kept, 0);
    let pruned = store::webhooks::prune(&app.db, store::now() + chrono::Duration::days(1), 1000)
        .await
        .unwrap();
    assert_eq!(pruned, 1);
    let good_log = app
        .get(&format!("/webhooks/{good}/deliveries.api"))
        .await
        .into_body(StatusCode::OK);
    assert_eq!(good_log["deliveries"], serde_json::json!([]));
    let bad_log = app
        .get(&format!("/webhooks/{bad}/deliveries.api"))
        .await
        .into_body(StatusCode::OK);
    assert_eq!(bad_log["deliveries"].as_array().unwrap().len(), 1);
}

/// The seconds from a delivery's creation to its next attempt, as its log shows them.
fn wait_of(delivery: &Value) -> i64 {
    let at = |key: &str| {
        chrono::NaiveDateTime::parse_from_str(delivery[key].as_str().unwrap(), "%Y-%m-%d %H:%M:%S")
            .unwrap()
    };
    (at("next_attempt_at") - at("created_at")).num_seconds()
}

async fn retry_after_is_honoured_within_bounds_and_redirects_are_not_followed(kind: Kind) {
    let app = delivering(kind).await;
    let receiver = Receiver::start().await;
    let (id, _) = endpoint(&app, &receiver.url(), "*").await;
    // The schedule's first wait is 5 s; a 429's Retry-After of an hour replaces it.
    receiver.answer_with(429, vec![("retry-after", "3600")]);
    app.post(&format!("/webhooks/{id}/test.api"), &[])
        .await
        .into_body(StatusCode::OK);
    let first = wait_for_attempt(&app, id).await["deliveries"][0].clone();
    assert_eq!(first["last_status"], 429);
    assert!((3600..3610).contains(&wait_of(&first)), "{first}");
    // A 503's Retry-After of a year is bounded by 10 hours.
    receiver.answer_with(503, vec![("retry-after", "31536000")]);
    app.post(&format!("/webhooks/{id}/test.api"), &[])
        .await
        .into_body(StatusCode::OK);
    let second = wait_for_attempt(&app, id).await["deliveries"][0].clone();
    assert_eq!(second["last_status"], 503);
    assert!((36_000..36_010).contains(&wait_of(&second)), "{second}");
    // A redirect is an answer like any other: not followed, retried on the schedule.
    receiver.answer_with(302, vec![("location", "/elsewhere")]);
    app.post(&format!("/webhooks/{id}/test.api"), &[])
        .await
        .into_body(StatusCode::OK);
    let third = wait_for_attempt(&app, id).await["deliveries"][0].clone();
    assert_eq!(third["last_status"], 302);
    assert!((5..10).contains(&wait_of(&third)), "{third}");
    tokio::time::sleep(Duration::from_millis(300)).await;
    let paths: Vec<String> = receiver
        .received()
        .iter()
        .map(|r| r.header("host").to_owned())
        .collect();
    assert_eq!(paths.len(), 3, "the redirect was followed: {paths:?}");
}

/// Dates the start of endpoint `id`'s run of failures `days` ago, as time passing would.
async fn failing_for(app: &TestApp, id: i64, days: i64) {
    use sea_query::{Expr, ExprTrait, Query};
    let since = chrono::Utc::now() - chrono::Duration::days(days);
    let stmt = Query::update()
        .table("webhooks")
        .value("failing_since", since)
        .and_where(Expr::col("id").eq(id))
        .and_where(Expr::col("company_id").eq(app.company.id.get()))
        .to_owned();
    app.db.read().execute(&stmt).await.unwrap();
}

async fn webhook(app: &TestApp, id: i64) -> Value {
    app.get(&format!("/webhooks/{id}.api"))
        .await
        .into_body(StatusCode::OK)["webhook"]
        .clone()
}

async fn five_days_of_failures_disable_the_endpoint(kind: Kind) {
    let app = delivering(kind).await;
    let (long, short) = (Receiver::start().await, Receiver::start().await);
    // Every attempt fails, retries (5 s later) too.
    long.answer(&[500; 10]);
    short.answer(&[500; 10]);
    let (old, _) = endpoint(&app, &long.url(), "location.*").await;
    let (young, _) = endpoint(&app, &short.url(), "location.*").await;
    // Their runs of failures began six and four days ago.
    failing_for(&app, old, 6).await;
    failing_for(&app, young, 4).await;
    let began = webhook(&app, young).await["failing_since"].clone();
    assert!(began.is_string(), "{began}");
    app.location("Studio", &[]).await;
    // The endpoint is written in the attempt's transaction.
    let log = wait_for_attempt(&app, old).await;
    assert_eq!(log["deliveries"][0]["last_status"], 500);
    let disabled = webhook(&app, old).await;
    assert_eq!(disabled["active"], false);
    assert_eq!(
        disabled["disabled_reason"],
        "deliveries failed for five days"
    );
    // Four days of failures: one more failure, and the run goes on from where it began.
    let log = wait_for_attempt(&app, young).await;
    assert_eq!(log["deliveries"][0]["last_status"], 500);
    assert!(log["deliveries"][0]["next_attempt_at"].is_string());
    let failing = webhook(&app, young).await;
    assert_eq!(failing["active"], true);
    assert_eq!(failing["disabled_reason"], Value::Null);
    assert_eq!(failing["failing_since"], began);
}

async fn a_slow_receiver_times_out_and_is_retried(kind: Kind) {
    let config = sending(web::delivery::Settings {
        allow_private: true,
        timeout: Duration::from_secs(1),
        ..Default::default()
    });
    let app = delivering_with(kind, config).await;
    let receiver =
        Receiver::answering(Manner::After(Duration::from_secs(3)), Gauge::default()).await;
    let (id, _) = endpoint(&app, &receiver.url(), "location.*").await;
    app.location("Studio", &[]).await;
    let log = wait_for_attempt(&app, id).await;
    let delivery = &log["deliveries"][0];
    assert_eq!(delivery["last_error"], "no answer within 1 s");
    assert_eq!(delivery["last_status"], Value::Null);
    assert_eq!(delivery["delivered_at"], Value::Null);
    // A failure like any other: due again on the schedule, and the run of failures begun.
    assert!(delivery["next_attempt_at"].is_string(), "{delivery}");
    assert!(webhook(&app, id).await["failing_since"].is_string());
}

async fn an_endless_answer_is_read_only_to_its_cap(kind: Kind) {
    // The timeout (10 s) would end the attempt too, but much later.
    let app = delivering(kind).await;
    let receiver = Receiver::answering(Manner::Endless, Gauge::default()).await;
    let (id, _) = endpoint(&app, &receiver.url(), "location.*").await;
    app.location("Studio", &[]).await;
    receiver.wait_for(1, Duration::from_secs(10)).await;
    let asked = std::time::Instant::now();
    let within = Duration::from_secs(5);
    let delivery = loop {
        let log = app
            .get(&format!("/webhooks/{id}/deliveries.api"))
            .await
            .into_body(StatusCode::OK);
        if log["deliveries"][0]["attempts"] == 1 {
            break log["deliveries"][0].clone();
        }
        assert!(asked.elapsed() < within, "the attempt still reads: {log}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    };
    assert_eq!(delivery["last_status"], 500);
    // Of what was read, the first 200 characters are logged.
    assert_eq!(
        delivery["last_error"],
        format!("answered 500 Internal Server Error: {}", "x".repeat(200))
    );
    // The sender hung up.
    while receiver.hung_up.lock().unwrap().is_none() {
        assert!(asked.elapsed() < within, "the sender still reads");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

async fn endpoints_sent_to_at_once_are_bounded(kind: Kind) {
    let config = sending(web::delivery::Settings {
        allow_private: true,
        in_flight: 2,
        ..Default::default()
    });
    let app = delivering_with(kind, config).await;
    // Three endpoints, each answering after a second.
    let gauge = Gauge::default();
    let mut receivers = Vec::new();
    for _ in 0..3 {
        let receiver =
            Receiver::answering(Manner::After(Duration::from_secs(1)), gauge.clone()).await;
        endpoint(&app, &receiver.url(), "location.*").await;
        receivers.push(receiver);
    }
    app.location("Studio", &[]).await;
    for receiver in &receivers {
        receiver.wait_for(1, Duration::from_secs(20)).await;
    }
    // Two at once, the third when one of them is done.
    assert_eq!(gauge.most(), 2);
}

async fn an_imports_rows_send_their_events(kind: Kind) {
    let app = delivering(kind).await;
    let (vendors, assets) = (Receiver::start().await, Receiver::start().await);
    endpoint(&app, &vendors.url(), "vendor.created").await;
    endpoint(&app, &assets.url(), "asset.created").await;
    // One transaction for every row: each still sends its own event, to the
    // endpoints subscribed to it only.
    let done = crate::imports::import(&app, "vendors", "name\nAcme\nBolt\nCrane\n", &[]).await;
    assert_eq!(done["created"], 3, "{done}");
    let got = vendors.wait_for(3, Duration::from_secs(20)).await;
    let mut names: Vec<Value> = got
        .iter()
        .map(|r| r.json()["data"]["name"].clone())
        .collect();
    names.sort_by_key(|n| n.to_string());
    assert_eq!(names, ["Acme", "Bolt", "Crane"]);
    let file = "name,group,purchased_on\nCamera,Video,01/15/2026\nTripod,Video,01/15/2026\n";
    let done = crate::imports::import(
        &app,
        "fixed_assets",
        file,
        &[("import[create_missing]", "true")],
    )
    .await;
    assert_eq!(done["created"], 2, "{done}");
    let got = assets.wait_for(2, Duration::from_secs(20)).await;
    assert!(
        got.iter().all(|r| r.json()["type"] == "asset.created"),
        "{got:?}"
    );
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(vendors.received().len(), 3);
    assert_eq!(assets.received().len(), 2);
}
