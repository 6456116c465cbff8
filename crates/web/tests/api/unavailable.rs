//! A busy or absent database is a 503 with `Retry-After`, never a 500, and the wait
//! for it ends well before the request timeout.

use crate::common::{Kind, TestApp, fresh_db_with};
use axum::http::StatusCode;
use std::net::SocketAddr;
use std::time::{Duration, Instant};
use store::{Db, DbOptions};

fn short(options: DbOptions) -> DbOptions {
    DbOptions {
        acquire_timeout: Duration::from_millis(300),
        busy_timeout: Duration::from_millis(300),
        ..options
    }
}

#[track_caller]
fn expect_unavailable(res: &crate::common::Res) {
    assert_eq!(res.status, StatusCode::SERVICE_UNAVAILABLE, "{}", res.text);
    assert_eq!(res.header("retry-after"), Some("2"), "{:?}", res.headers);
    assert!(
        res.body["message"]
            .as_str()
            .is_some_and(|m| m.contains("Retry-After")),
        "{}",
        res.text
    );
}

async fn app_with(kind: Kind, options: DbOptions) -> TestApp {
    let (db, url) = fresh_db_with(kind, &options).await;
    TestApp::builder(kind).database(db, url).build().await
}

/// Every connection of the pool is taken (here by one long transaction in a pool of one;
/// on SQLite, whose writes have a connection of their own, by a long read and a long
/// write): the request gives up after the acquire timeout with a 503, and is served
/// once a connection is free again.
async fn exhausted_pool(kind: Kind) {
    let app = app_with(
        kind,
        short(DbOptions {
            max_connections: Some(1),
            ..DbOptions::default()
        }),
    )
    .await;
    app.location("Depot", &[]).await;
    let mut held = vec![app.db.begin().await.unwrap()];
    if kind == Kind::Sqlite {
        held.push(app.db.begin_read().await.unwrap());
    }
    let started = Instant::now();
    let res = app.get("/locations/get_line_item_locations.api").await;
    expect_unavailable(&res);
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "gave up after {:?}",
        started.elapsed()
    );
    refused_create_writes_nothing(&app, held).await;
}

/// A create while `held` keeps every pooled connection gets 503; once `held` is
/// dropped, the list shows the one location made before and nothing of the create.
async fn refused_create_writes_nothing(app: &TestApp, held: Vec<store::Tx>) {
    let res = app
        .post("/locations.api", &[("location[name]", "Yard")])
        .await;
    expect_unavailable(&res);
    drop(held);
    let res = app.get("/locations/get_line_item_locations.api").await;
    assert_eq!(
        res.expect(StatusCode::OK)["locations"]
            .as_array()
            .map(Vec::len),
        Some(1),
        "the refused create wrote nothing"
    );
}

both!(exhausted_pool);

/// On PostgreSQL, of two connections one is shared by the statements outside
/// transactions (pipelined): with the other held by a long transaction, reads are still
/// answered, and a write, which needs a connection of its own, waits out the acquire
/// timeout (503) and leaves nothing.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs TEST_POSTGRES_URL"]
async fn postgres_reads_go_on_while_every_pooled_connection_is_taken() {
    let options = short(DbOptions {
        max_connections: Some(2),
        ..DbOptions::default()
    });
    let app = app_with(Kind::Postgres, options).await;
    app.location("Depot", &[]).await;
    let held = vec![app.db.begin().await.unwrap()];
    for _ in 0..20 {
        let res = app.get("/locations/get_line_item_locations.api").await;
        assert_eq!(
            res.expect(StatusCode::OK)["locations"]
                .as_array()
                .map(Vec::len),
            Some(1)
        );
    }
    refused_create_writes_nothing(&app, held).await;
}

/// Another writer holds SQLite's write lock past the busy timeout: writes get 503,
/// reads go on (WAL), and nothing of the refused write is left.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn busy_sqlite_write_is_503() {
    let app = app_with(Kind::Sqlite, short(DbOptions::default())).await;
    let other = Db::connect(&app.db_url).await.unwrap();
    let lock = other.begin().await.unwrap();
    let res = app
        .post("/locations.api", &[("location[name]", "Yard")])
        .await;
    expect_unavailable(&res);
    app.get("/locations/get_line_item_locations.api")
        .await
        .expect(StatusCode::OK);
    drop(lock);
    let res = app.get("/locations/get_line_item_locations.api").await;
    assert_eq!(
        res.expect(StatusCode::OK)["locations"]
            .as_array()
            .unwrap()
            .len(),
        0
    );
    app.location("Yard", &[]).await;
}

/// A statement that waits on a row lock longer than PostgreSQL's statement timeout is
/// cancelled and answered 503; the update is not half-applied.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs TEST_POSTGRES_URL"]
async fn postgres_statement_timeout_is_503() {
    // Long enough that the test's own setup never meets it on a loaded machine.
    let options = DbOptions {
        statement_timeout: Duration::from_secs(1),
        ..DbOptions::default()
    };
    let app = app_with(Kind::Postgres, options).await;
    let id = app.location("Depot", &[]).await;
    let other = Db::connect(&app.db_url).await.unwrap();
    let mut lock = other.begin().await.unwrap();
    let select = store::Sql {
        text: "SELECT id FROM locations WHERE id = $1 FOR UPDATE",
        values: sea_query::Values(vec![id.into()]),
    };
    let _: Vec<(i64,)> = lock.all(&select).await.unwrap();
    let started = Instant::now();
    let res = app
        .put(
            &format!("/locations/{id}.api"),
            &[("location[name]", "Renamed")],
        )
        .await;
    expect_unavailable(&res);
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "gave up after {:?}",
        started.elapsed()
    );
    drop(lock);
    let res = app.get(&format!("/locations/{id}.api")).await;
    assert_eq!(res.expect(StatusCode::OK)["location"]["name"], "Depot");
}

/// Forwards TCP connections to `target` until stopped; stopping closes the listener and
/// every forwarded connection, as if the database host went away.
struct Proxy {
    addr: SocketAddr,
    stop: tokio::sync::watch::Sender<bool>,
}

async fn proxy(target: String) -> Proxy {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let (stop, stopped) = tokio::sync::watch::channel(false);
    let mut accept_stopped = stopped.clone();
    tokio::spawn(async move {
        loop {
            let (mut client, _) = tokio::select! {
                accepted = listener.accept() => match accepted { Ok(c) => c, Err(_) => return },
                _ = accept_stopped.changed() => return,
            };
            let target = target.clone();
            let mut conn_stopped = stopped.clone();
            tokio::spawn(async move {
                let Ok(mut server) = tokio::net::TcpStream::connect(target).await else {
                    return;
                };
                tokio::select! {
                    _ = tokio::io::copy_bidirectional(&mut client, &mut server) => {}
                    _ = conn_stopped.changed() => {}
                }
            });
        }
    });
    Proxy { addr, stop }
}

/// `postgres://user@host:port/db?x` with its host and port replaced.
fn through(url: &str, addr: SocketAddr) -> String {
    let (scheme, rest) = url.split_once("://").unwrap();
    let (userinfo, rest) = match rest.rsplit_once('@') {
        Some((u, r)) => (format!("{u}@"), r),
        None => (String::new(), rest),
    };
    let path = rest.find(['/', '?']).map_or("", |i| &rest[i..]);
    format!("{scheme}://{userinfo}{addr}{path}")
}

fn host_port(url: &str) -> String {
    let rest = url.split_once("://").unwrap().1;
    let rest = rest.rsplit_once('@').map_or(rest, |(_, r)| r);
    let authority = rest.split(['/', '?']).next().unwrap();
    if authority.contains(':') {
        authority.to_owned()
    } else {
        format!("{authority}:5432")
    }
}

/// PostgreSQL goes out of reach while the server runs: requests (and `/healthz`) get
/// 503 within the acquire timeout instead of a 500 or a stall.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs TEST_POSTGRES_URL"]
async fn unreachable_postgres_is_503() {
    let (_, url) = crate::common::fresh_db(Kind::Postgres).await;
    let proxy = proxy(host_port(&url)).await;
    let db = Db::connect_with(&through(&url, proxy.addr), &short(DbOptions::default()))
        .await
        .unwrap();
    let app = TestApp::builder(Kind::Postgres)
        .database(db, url.clone())
        .build()
        .await;
    app.location("Depot", &[]).await;
    proxy.stop.send(true).unwrap();
    let started = Instant::now();
    expect_unavailable(&app.get("/locations/get_line_item_locations.api").await);
    expect_unavailable(
        &app.post("/locations.api", &[("location[name]", "Yard")])
            .await,
    );
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "gave up after {:?}",
        started.elapsed()
    );
    let health = app.anonymous(http::Method::GET, "/healthz").send().await;
    assert_eq!(
        health.status,
        StatusCode::SERVICE_UNAVAILABLE,
        "{}",
        health.text
    );
    assert_eq!(health.header("retry-after"), Some("2"));
}
