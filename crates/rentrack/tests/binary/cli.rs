//! Black-box tests of the `rentrack` binary: the company and token commands, `demo`,
//! `serve` over TLS, graceful shutdown on SIGTERM, and what the request log holds.
//! Each test runs the built binary on a fresh SQLite file; the command tests also run
//! on PostgreSQL (a fresh schema), and the PostgreSQL ones are ignored unless asked for
//! (`cargo test -- --include-ignored` with `TEST_POSTGRES_URL` set).

use crate::common::{BIN, Server, rand_suffix, scratch_dir, sqlite_url};
use serde_json::Value;
use std::io::Read;
use std::process::{Command, Output, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, Instant};
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};
use tokio::net::TcpStream;

/// A URL for a fresh, empty schema in the test PostgreSQL database (its search_path
/// names the schema), which the binary then migrates like any new database.
fn postgres_url() -> String {
    let base = std::env::var("TEST_POSTGRES_URL").expect("TEST_POSTGRES_URL is set");
    let schema = format!("t_cli_{}_{}", std::process::id(), rand_suffix());
    let sep = if base.contains('?') { '&' } else { '?' };
    let url = format!("{base}{sep}options=-c%20search_path%3D{schema}");
    let text: &'static str = Box::leak(format!("CREATE SCHEMA {schema}").into_boxed_str());
    on_test_postgres(async |db| {
        db.read()
            .execute(&store::Sql {
                text,
                values: sea_query::Values(vec![]),
            })
            .await
            .unwrap();
    });
    url
}

/// Runs `f` on the database `TEST_POSTGRES_URL` names (set: the caller checked).
fn on_test_postgres<T>(f: impl AsyncFnOnce(&store::Db) -> T) -> T {
    let base = std::env::var("TEST_POSTGRES_URL").expect("TEST_POSTGRES_URL is set");
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        let db = store::Db::connect(&base)
            .await
            .expect("connect to TEST_POSTGRES_URL");
        let out = f(&db).await;
        db.close();
        out
    })
}

/// A server on the test PostgreSQL with a pool of `pool` connections (`None`: the
/// default pool), the token of an unlimited company, and the application name its
/// connections carry, so they can be told apart from every other test's on the same
/// PostgreSQL.
fn named_postgres_server(purpose: &str, pool: Option<&str>) -> (Server, String, String) {
    let url = postgres_url();
    let name = format!("rentrack_{purpose}_{}", rand_suffix());
    let url = format!("{url}&application_name={name}");
    let token = unlimited_company(&url);
    let server = match pool {
        Some(pool) => Server::start(&url, &["serve", "--db-pool", pool]),
        None => Server::start(&url, &["serve"]),
    };
    (server, token, name)
}

/// The statuses of `n` member lists asked for at once.
/// `n` requests at once, their statuses: reads of the member list and creates of a
/// location in turn, so that on PostgreSQL both the connections shared by reads and the
/// pool's (one a transaction) are used.
fn requests_at_once(server: &Server, token: &str, n: usize) -> Vec<u16> {
    let port = server.port();
    std::thread::scope(|s| {
        let waiting: Vec<_> = (0..n)
            .map(|i| {
                s.spawn(move || {
                    if i % 2 == 0 {
                        get(port, "/members.api", &[("token", token)]).0
                    } else {
                        let body = format!("location%5Bname%5D=At+once+{i}+{}", std::process::id());
                        try_post_form(port, "/locations.api", token, &body).map_or(0, |r| r.0)
                    }
                })
            })
            .collect();
        waiting.into_iter().map(|t| t.join().unwrap()).collect()
    })
}

/// The number `text` counts on the test PostgreSQL, given an application name as `$1`.
fn of_application(text: &'static str, name: &str) -> i64 {
    let (n,): (i64,) = on_test_postgres(async |db| {
        db.read()
            .one(&store::Sql {
                text,
                values: sea_query::Values(vec![name.into()]),
            })
            .await
            .unwrap()
    });
    n
}

/// Each case on SQLite, and on PostgreSQL when asked for (ignored otherwise: `cargo
/// test -- --include-ignored` with `TEST_POSTGRES_URL` set).
macro_rules! both {
    ($($name:ident),* $(,)?) => {
        mod on_sqlite {
            $(
                #[test]
                fn $name() { super::$name(super::sqlite_url()) }
            )*
        }
        mod on_postgres {
            $(
                #[test]
                #[ignore = "needs TEST_POSTGRES_URL"]
                fn $name() { super::$name(super::postgres_url()) }
            )*
        }
    };
}

both!(
    company_create_prints_the_company_and_token_once,
    plan_rate_limit_and_api_switch_commands_change_the_company,
    token_regenerate_stops_the_old_token_within_the_company_cache_bound,
    owner_set_password_lets_the_owner_log_in_to_the_console,
    acknowledged_creates_survive_sigkill,
    webhook_events_of_acknowledged_changes_survive_sigkill,
    labels_revoke_ends_every_open_label_link,
    import_writes_a_file_all_or_nothing_and_tables_the_bad_rows,
    livez_readyz_and_healthcheck_answer_without_a_token,
    migrate_check_says_whether_the_database_is_behind_and_changes_nothing,
    staff_invite_prints_a_link_with_which_the_member_sets_a_password,
);

fn rentrack(db: &str, args: &[&str]) -> Output {
    Command::new(BIN)
        .args(args)
        .arg("--database-url")
        .arg(db)
        .env_remove("RENTRACK_DATABASE_URL")
        .output()
        .expect("run rentrack")
}

/// Runs a command that must succeed and print one JSON object per line.
fn json_lines(db: &str, args: &[&str]) -> Vec<Value> {
    let out = rentrack(db, args);
    assert!(
        out.status.success(),
        "rentrack {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect()
}

fn json(db: &str, args: &[&str]) -> Value {
    let mut lines = json_lines(db, args);
    assert_eq!(lines.len(), 1, "one JSON object expected");
    lines.remove(0)
}

fn fails(db: &str, args: &[&str], message: &str) {
    let out = rentrack(db, args);
    assert!(!out.status.success(), "rentrack {args:?} should fail");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains(message),
        "stderr {stderr:?} should mention {message:?}"
    );
}

/// One HTTP/1.1 exchange over any stream; returns the status and the body.
async fn exchange<S: AsyncRead + AsyncWrite + Unpin>(
    mut stream: S,
    request: &str,
) -> (u16, String) {
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut raw = Vec::new();
    let _ = stream.read_to_end(&mut raw).await;
    parse_response(&raw)
}

fn parse_response(raw: &[u8]) -> (u16, String) {
    let text = String::from_utf8_lossy(raw);
    let status = text
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("no HTTP response in {text:?}"));
    let body = text
        .split_once("\r\n\r\n")
        .map(|(_, b)| b.to_owned())
        .unwrap_or_default();
    (status, body)
}

fn get_request(path: &str, headers: &[(&str, &str)]) -> String {
    let mut req = format!("GET {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n");
    for (k, v) in headers {
        req.push_str(&format!("{k}: {v}\r\n"));
    }
    req + "\r\n"
}

fn get(port: u16, path: &str, headers: &[(&str, &str)]) -> (u16, String) {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        let stream = TcpStream::connect(("127.0.0.1", port)).await.unwrap();
        exchange(stream, &get_request(path, headers)).await
    })
}

/// Creates company `acme` on the unlimited plan with the API on; returns its token.
fn unlimited_company(db: &str) -> String {
    let created = json(
        db,
        &[
            "company",
            "create",
            "--name",
            "Acme Rentals",
            "--subdomain",
            "acme",
            "--plan",
            "unlimited",
            "--enable-api",
        ],
    );
    created["token"].as_str().expect("a token").to_owned()
}

fn company_create_prints_the_company_and_token_once(db: String) {
    {
        let created = json(
            &db,
            &[
                "company",
                "create",
                "--name",
                "Acme Rentals",
                "--subdomain",
                "acme",
                "--plan",
                "paid",
                "--owner-email",
                "boss@acme.test",
                "--enable-api",
            ],
        );
        assert!(created["company_id"].as_i64().unwrap() > 0);
        assert_eq!(created["subdomain"], "acme");
        assert_eq!(created["plan"], "paid");
        let token = created["token"].as_str().expect("token with --enable-api");
        assert!(token.len() >= 32);

        let quiet = json(
            &db,
            &[
                "company",
                "create",
                "--name",
                "Quiet Co",
                "--subdomain",
                "quiet",
            ],
        );
        assert_eq!(quiet["plan"], "trial", "trial is the default plan");
        assert!(
            quiet.get("token").is_none(),
            "no token without --enable-api"
        );

        fails(
            &db,
            &[
                "company",
                "create",
                "--name",
                "Again",
                "--subdomain",
                "acme",
            ],
            "subdomain",
        );
        fails(
            &db,
            &[
                "company",
                "create",
                "--name",
                "Bad",
                "--subdomain",
                "Not Valid!",
            ],
            "subdomain",
        );
        fails(
            &db,
            &[
                "company",
                "create",
                "--name",
                "Bad",
                "--subdomain",
                "bad",
                "--plan",
                "gold",
            ],
            "gold",
        );

        let list = json_lines(&db, &["company", "list"]);
        assert_eq!(list.len(), 2);
        let acme = list.iter().find(|c| c["subdomain"] == "acme").unwrap();
        assert_eq!(acme["name"], "Acme Rentals");
        assert_eq!(acme["api_enabled"], true);
        assert_eq!(acme["rate_limit"]["requests"], 60);
        assert_eq!(acme["rate_limit"]["window_secs"], 60);
        assert!(
            list.iter().all(|c| c.get("token").is_none()),
            "list never shows a token"
        );
    }
}

fn plan_rate_limit_and_api_switch_commands_change_the_company(db: String) {
    {
        json(
            &db,
            &[
                "company",
                "create",
                "--name",
                "Acme Rentals",
                "--subdomain",
                "acme",
            ],
        );
        let paid = json(
            &db,
            &[
                "company",
                "set-plan",
                "--subdomain",
                "acme",
                "--plan",
                "paid",
            ],
        );
        assert_eq!(paid["plan"], "paid");
        assert_eq!(paid["rate_limit"]["requests"], 60);

        let custom = json(
            &db,
            &[
                "company",
                "set-rate-limit",
                "--subdomain",
                "acme",
                "--requests",
                "5",
                "--window-secs",
                "10",
            ],
        );
        assert_eq!(custom["rate_limit"]["requests"], 5);
        assert_eq!(custom["rate_limit"]["window_secs"], 10);
        let unlimited = json(
            &db,
            &[
                "company",
                "set-rate-limit",
                "--subdomain",
                "acme",
                "--unlimited",
            ],
        );
        assert_eq!(unlimited["rate_limit"]["requests"], Value::Null);

        let enabled = json(&db, &["company", "enable-api", "--subdomain", "acme"]);
        assert_eq!(enabled["api_enabled"], true);
        assert!(
            enabled["token"].is_string(),
            "the first enable issues a token"
        );
        let again = json(&db, &["company", "enable-api", "--subdomain", "acme"]);
        assert!(
            again.get("token").is_none(),
            "an existing token is kept and not shown again"
        );
        let disabled = json(&db, &["company", "disable-api", "--subdomain", "acme"]);
        assert_eq!(disabled["api_enabled"], false);

        fails(
            &db,
            &[
                "company",
                "set-plan",
                "--subdomain",
                "nobody",
                "--plan",
                "paid",
            ],
            "no company",
        );
        fails(
            &db,
            &["company", "enable-api", "--subdomain", "nobody"],
            "no company",
        );
        fails(
            &db,
            &["token", "regenerate", "--subdomain", "nobody"],
            "no company",
        );
        assert_eq!(json(&db, &["migrate"])["migrated"], true);
    }
}

fn token_regenerate_stops_the_old_token_within_the_company_cache_bound(db: String) {
    {
        let old = unlimited_company(&db);
        // One server remembering a token's company for the default second, one not at all.
        let cached = Server::start(&db, &["serve"]);
        let uncached = Server::start(&db, &["serve", "--company-ttl-ms", "0"]);
        let path = "/locations/get_line_item_locations.api";
        for server in [&cached, &uncached] {
            assert_eq!(get(server.port(), path, &[("token", &old)]).0, 200);
        }
        let new = json(&db, &["token", "regenerate", "--subdomain", "acme"])["token"]
            .as_str()
            .unwrap()
            .to_owned();
        assert_ne!(new, old);
        let regenerated = Instant::now();
        let (status, body) = get(uncached.port(), path, &[("token", &old)]);
        assert_eq!(status, 401, "without the cache, at once: {body}");
        assert!(
            serde_json::from_str::<Value>(&body).is_ok(),
            "a JSON error: {body}"
        );
        // With it, within the second (and a margin for a slow machine).
        loop {
            let (status, _) = get(cached.port(), path, &[("token", &old)]);
            if status == 401 {
                break;
            }
            assert_eq!(status, 200);
            assert!(
                regenerated.elapsed() < Duration::from_millis(1500),
                "the old token still works after the bound"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        for server in [&cached, &uncached] {
            assert_eq!(get(server.port(), path, &[("token", &new)]).0, 200);
        }
    }
}

fn owner_set_password_lets_the_owner_log_in_to_the_console(db: String) {
    use std::io::Write;
    {
        json(
            &db,
            &[
                "company",
                "create",
                "--name",
                "Acme Rentals",
                "--subdomain",
                "acme",
                "--owner-email",
                "boss@acme.test",
            ],
        );
        let set = |email: &str, password: &str| {
            let mut child = Command::new(BIN)
                .args([
                    "owner",
                    "set-password",
                    "--subdomain",
                    "acme",
                    "--email",
                    email,
                    "--database-url",
                    &db,
                ])
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap();
            child
                .stdin
                .take()
                .unwrap()
                .write_all(format!("{password}\n").as_bytes())
                .unwrap();
            child.wait_with_output().unwrap()
        };
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        let check = |email: &str, password: &str| {
            rt.block_on(async {
                let store = store::Db::connect(&db).await.unwrap();
                let ok = store::console::check_password(&store, "acme", email, password)
                    .await
                    .unwrap()
                    .is_some();
                store.close();
                ok
            })
        };
        assert!(
            !check("boss@acme.test", "correct-horse-battery"),
            "an owner made by the CLI has no password yet"
        );
        let out = set("Boss@Acme.test", "correct-horse-battery");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let printed: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(
            printed,
            serde_json::json!({"subdomain": "acme", "email": "boss@acme.test"})
        );
        assert!(check("boss@acme.test", "correct-horse-battery"));
        assert!(!check("boss@acme.test", "wrong-password-here"));
        // The password is never an argument, and a short one is refused.
        let out = set("boss@acme.test", "short");
        assert!(
            !out.status.success() && String::from_utf8_lossy(&out.stderr).contains("at least 10")
        );
        assert!(
            check("boss@acme.test", "correct-horse-battery"),
            "a refused change keeps the old password"
        );
        // A second owner e-mail is added as an owner and listed as an administrator.
        assert!(
            set("partner@acme.test", "another-long-password")
                .status
                .success()
        );
        assert!(check("partner@acme.test", "another-long-password"));
        // A member who is not an owner cannot be made one this way.
        rt.block_on(async {
            let store = store::Db::connect(&db).await.unwrap();
            let company = store::companies::find_by_subdomain(&store, "acme")
                .await
                .unwrap();
            let input = store::members::MemberInput {
                email: domain::Change::Set("crew@acme.test".into()),
                first_name: Some("Crew".into()),
                last_name: Some("Member".into()),
                role: Some(domain::member::Role::Staff),
                ..Default::default()
            };
            store::members::create(&store, company.id, input)
                .await
                .unwrap();
            store.close();
        });
        let out = set("crew@acme.test", "a-long-enough-password");
        assert!(!out.status.success());
        assert!(
            String::from_utf8_lossy(&out.stderr)
                .contains("is already a member of this company who is not its owner"),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(!check("crew@acme.test", "a-long-enough-password"));
        fails(
            &db,
            &[
                "owner",
                "set-password",
                "--subdomain",
                "nobody",
                "--email",
                "a@b.test",
            ],
            "no company",
        );
    }
}

#[test]
fn demo_prints_a_working_token_and_serves_sample_data() {
    let db = sqlite_url();
    let mut server = Server::start(&db, &["demo"]);
    server.read_stdout_until("Sam (staff):");
    let printed = server.stdout.join("");
    // Invitation links to the staff pages, for an administrator and a staff member.
    for (line, name) in [("Dana (administrator):", "Dana"), ("Sam (staff):", "Sam")] {
        let link = printed
            .lines()
            .find_map(|l| l.trim().strip_prefix(line))
            .unwrap_or_else(|| panic!("no {line} in {printed}"))
            .trim();
        let path = link.strip_prefix(&server.base_url).expect("a link here");
        let (status, body) = get(server.port(), path, &[]);
        assert_eq!(status, 200, "{body}");
        assert!(body.contains(&format!("Welcome, {name}")), "{body}");
    }
    assert!(printed.contains(&server.base_url), "{printed}");
    let token = printed
        .lines()
        .find_map(|l| l.trim().strip_prefix("token: "))
        .expect("a token line")
        .to_owned();

    let (status, body) = get(
        server.port(),
        "/locations/get_line_item_locations.api",
        &[("token", &token)],
    );
    assert_eq!(status, 200, "{body}");
    let body: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(
        body["locations"].as_array().unwrap().len(),
        4,
        "demo locations: {body}"
    );
    let (status, body) = get(
        server.port(),
        "/assets/classification_view.api",
        &[("token", &token)],
    );
    assert_eq!(status, 200);
    assert!(body.contains("Cameras"), "demo groups: {body}");
    let (status, body) = get(
        server.port(),
        "/members.api?include_custom_fields=true",
        &[("token", &token)],
    );
    assert_eq!(status, 200, "{body}");
    let body: Value = serde_json::from_str(&body).unwrap();
    let members = body["members"].as_array().unwrap();
    assert_eq!(members.len(), 4, "the owner and three demo members: {body}");
    assert_eq!(members[3]["role_name"], "Technician");
    assert_eq!(members[3]["Badge Number"], "103");
    // Rental customers, a business with its contact, and an address of each kind of owner.
    for (path, key, count) in [
        ("/customers.api", "customers", 2),
        ("/businesses.api", "businesses", 1),
        ("/contacts.api", "contacts", 1),
        ("/users/2/shipping_addresses.api", "shipping_addresses", 1),
        (
            "/customers/1/shipping_addresses.api",
            "shipping_addresses",
            1,
        ),
        (
            "/businesses/1/shipping_addresses.api",
            "shipping_addresses",
            1,
        ),
    ] {
        let (status, body) = get(server.port(), path, &[("token", &token)]);
        assert_eq!(status, 200, "{path}: {body}");
        let body: Value = serde_json::from_str(&body).unwrap();
        assert_eq!(body[key].as_array().unwrap().len(), count, "{path}: {body}");
    }
    drop(server);

    // A second start keeps the data and issues a fresh token; the old one stops working.
    let mut server = Server::start(&db, &["demo"]);
    server.read_stdout_until("try:");
    let printed = server.stdout.join("");
    let second = printed
        .lines()
        .find_map(|l| l.trim().strip_prefix("token: "))
        .unwrap()
        .to_owned();
    assert_ne!(second, token);
    assert_eq!(
        get(server.port(), "/assets/vendors.api", &[("token", &token)]).0,
        401
    );
    let (status, body) = get(
        server.port(),
        "/locations/get_line_item_locations.api",
        &[("token", &second)],
    );
    assert_eq!(status, 200);
    let body: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(
        body["locations"].as_array().unwrap().len(),
        4,
        "the demo data is seeded once"
    );
}

#[test]
fn serve_speaks_https_with_the_given_certificate() {
    let dir = scratch_dir();
    let certified = rcgen::generate_simple_self_signed(vec!["localhost".to_owned()]).unwrap();
    std::fs::write(dir.join("cert.pem"), certified.cert.pem()).unwrap();
    std::fs::write(dir.join("key.pem"), certified.key_pair.serialize_pem()).unwrap();
    let db = format!("sqlite://{}", dir.join("rentrack.db").display());
    // The key named by RENTRACK_TLS_KEY_FILE, as a container's secret would be.
    let server = Server::start_with_env(
        &db,
        &[
            "serve",
            "--tls-cert",
            dir.join("cert.pem").to_str().unwrap(),
        ],
        &[(
            "RENTRACK_TLS_KEY_FILE",
            dir.join("key.pem").to_str().unwrap(),
        )],
    );
    assert!(
        server.base_url.starts_with("https://"),
        "{}",
        server.base_url
    );
    // The health check asks the server's own address over https.
    let listen = format!("127.0.0.1:{}", server.port());
    let cert = dir.join("cert.pem");
    let ready = healthcheck(
        &[],
        &[
            ("RENTRACK_LISTEN", &listen),
            ("RENTRACK_TLS_CERT", cert.to_str().unwrap()),
        ],
    );
    assert!(ready.status.success(), "{ready:?}");

    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let (status, body) = rt.block_on(async {
        let mut roots = rustls::RootCertStore::empty();
        roots.add(certified.cert.der().clone()).unwrap();
        let provider = Arc::new(rustls::crypto::ring::default_provider());
        let config = rustls::ClientConfig::builder_with_provider(provider)
            .with_safe_default_protocol_versions()
            .unwrap()
            .with_root_certificates(roots)
            .with_no_client_auth();
        let connector = tokio_rustls::TlsConnector::from(Arc::new(config));
        let tcp = TcpStream::connect(("127.0.0.1", server.port()))
            .await
            .unwrap();
        let name = rustls::pki_types::ServerName::try_from("localhost").unwrap();
        let tls = connector
            .connect(name, tcp)
            .await
            .expect("TLS handshake with the served certificate");
        exchange(tls, &get_request("/healthz", &[])).await
    });
    assert_eq!(status, 200, "{body}");

    // Plain HTTP on the TLS port gets no HTTP answer.
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let raw = rt.block_on(async {
        let mut tcp = TcpStream::connect(("127.0.0.1", server.port()))
            .await
            .unwrap();
        tcp.write_all(get_request("/healthz", &[]).as_bytes())
            .await
            .unwrap();
        let mut raw = Vec::new();
        let _ = tokio::time::timeout(Duration::from_secs(5), tcp.read_to_end(&mut raw)).await;
        raw
    });
    assert!(!String::from_utf8_lossy(&raw).starts_with("HTTP/1.1 200"));

    fails(
        &db,
        &[
            "serve",
            "--tls-cert",
            dir.join("cert.pem").to_str().unwrap(),
        ],
        "--tls-key",
    );
}

/// One form POST over a fresh connection; returns the status and the body.
fn post_form(port: u16, path: &str, headers: &[(&str, &str)], body: &str) -> (u16, String) {
    send_form(port, "POST", path, headers, body)
}

/// As [`post_form`], by `method`.
fn send_form(
    port: u16,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: &str,
) -> (u16, String) {
    let mut req = format!(
        "{method} {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: {}\r\n",
        body.len()
    );
    for (k, v) in headers {
        req.push_str(&format!("{k}: {v}\r\n"));
    }
    let request = req + "\r\n" + body;
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        let stream = TcpStream::connect(("127.0.0.1", port)).await.unwrap();
        exchange(stream, &request).await
    })
}

/// The crash report: `a` + `[b]` x 500,000 + `=1` posted to the console's log-in or
/// to an API path overflowed a worker's stack and killed the process, so every
/// tenant was down. Now it is a 400 naming the limit and the server answers on.
/// A webhook receiver on loopback that answers each request 200 after `delay`, and
/// keeps the bodies it was sent.
fn slow_receiver(delay: Duration) -> (u16, Arc<std::sync::Mutex<Vec<String>>>) {
    let (port, _, bodies) = receiver(move || std::thread::sleep(delay));
    (port, bodies)
}

/// A webhook receiver on loopback that counts each request as it arrives, answers it
/// 200 once `before_answer` returns, and keeps the bodies it answered.
fn receiver(
    before_answer: impl Fn() + Send + Sync + 'static,
) -> (u16, Arc<AtomicU32>, Arc<std::sync::Mutex<Vec<String>>>) {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let arrived = Arc::new(AtomicU32::new(0));
    let bodies: Arc<std::sync::Mutex<Vec<String>>> = Arc::default();
    let (counted, kept) = (arrived.clone(), bodies.clone());
    let before_answer = Arc::new(before_answer);
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { continue };
            let (counted, kept) = (counted.clone(), kept.clone());
            let before_answer = before_answer.clone();
            std::thread::spawn(move || {
                use std::io::{BufRead, BufReader, Write};
                let mut reader = BufReader::new(stream.try_clone().unwrap());
                loop {
                    let mut length = 0usize;
                    let mut line = String::new();
                    loop {
                        line.clear();
                        if reader.read_line(&mut line).unwrap_or(0) == 0 {
                            return;
                        }
                        if line == "\r\n" {
                            break;
                        }
                        if let Some((k, v)) = line.split_once(':')
                            && k.eq_ignore_ascii_case("content-length")
                        {
                            length = v.trim().parse().unwrap();
                        }
                    }
                    let mut body = vec![0; length];
                    reader.read_exact(&mut body).unwrap();
                    counted.fetch_add(1, Ordering::SeqCst);
                    before_answer();
                    kept.lock().unwrap().push(String::from_utf8(body).unwrap());
                    if stream
                        .write_all(b"HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n")
                        .is_err()
                    {
                        return;
                    }
                }
            });
        }
    });
    (port, arrived, bodies)
}

/// One record's events go out one after another; SIGTERM during one of them lets it
/// finish and starts no other. After a restart the rest arrive, in order.
#[test]
fn sigterm_lets_the_delivery_under_way_end_and_starts_no_other() {
    let db = sqlite_url();
    let token = unlimited_company(&db);
    // Each request is answered when the test sends a release (all, once it is dropped).
    let (release, gate) = std::sync::mpsc::channel::<()>();
    let gate = std::sync::Mutex::new(gate);
    let (receiver, arrived, bodies) = receiver(move || {
        let _ = gate.lock().unwrap().recv();
    });
    let arrived_at = |n: u32| {
        let deadline = Instant::now() + Duration::from_secs(30);
        while arrived.load(Ordering::SeqCst) < n {
            assert!(Instant::now() < deadline, "event {n} did not go out");
            std::thread::sleep(Duration::from_millis(5));
        }
    };
    let serve = ["serve", "--webhook-allow-private"];
    let mut server = Server::start(&db, &serve);
    let port = server.port();
    let auth = [("token", token.as_str())];
    let form = format!(
        "webhook%5Burl%5D=http%3A%2F%2F127.0.0.1%3A{receiver}%2Fin&webhook%5Bevents%5D=location.%2A"
    );
    assert_eq!(post_form(port, "/webhooks.api", &auth, &form).0, 200);
    let (status, body) = post_form(port, "/locations.api", &auth, "location%5Bname%5D=Depot");
    assert_eq!(status, 200, "{body}");
    let id = serde_json::from_str::<Value>(&body).unwrap()["location"]["id"].clone();
    // While the receiver holds the created event, four more are made: the next claim
    // takes them together, in one lane.
    arrived_at(1);
    for n in 0..4 {
        let step = if n % 2 == 0 { "deactivate" } else { "activate" };
        let path = format!("/locations/{id}/{step}.api");
        let (status, body) = send_form(port, "PUT", &path, &auth, "");
        assert_eq!(status, 200, "{body}");
    }
    release.send(()).unwrap();
    arrived_at(2);
    server.send_sigterm();
    let deadline = Instant::now() + Duration::from_secs(30);
    while !server.log().iter().any(|l| l.contains("shutting down")) {
        assert!(Instant::now() < deadline, "no shutdown after SIGTERM");
        std::thread::sleep(Duration::from_millis(5));
    }
    release.send(()).unwrap();
    let status = server.wait();
    assert!(status.success(), "clean exit after SIGTERM: {status:?}");
    assert_eq!(
        bodies.lock().unwrap().len(),
        2,
        "the one under way was answered"
    );
    assert_eq!(
        arrived.load(Ordering::SeqCst),
        2,
        "none started after SIGTERM"
    );
    drop(server);

    drop(release);
    let _server = Server::start(&db, &serve);
    let deadline = Instant::now() + Duration::from_secs(30);
    while bodies.lock().unwrap().len() < 5 {
        assert!(
            Instant::now() < deadline,
            "the rest did not arrive after a restart"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    let types: Vec<String> = bodies
        .lock()
        .unwrap()
        .iter()
        .map(|b| {
            serde_json::from_str::<Value>(b).unwrap()["type"]
                .as_str()
                .unwrap()
                .to_owned()
        })
        .collect();
    assert_eq!(
        types,
        [
            "location.created",
            "location.deactivated",
            "location.activated",
            "location.deactivated",
            "location.activated"
        ]
    );
}

/// Locations are created by eight clients while their events go to a slow receiver, so
/// events wait in the outbox; the server is killed (SIGKILL) mid-way. After a restart
/// the event of every acknowledged create arrives (at least once).
fn webhook_events_of_acknowledged_changes_survive_sigkill(db: String) {
    const TOTAL: u32 = 600;
    const KILL_AFTER: usize = 250;
    let token = unlimited_company(&db);
    let (receiver, bodies) = slow_receiver(Duration::from_millis(15));
    let serve = ["serve", "--webhook-allow-private"];
    let mut server = Server::start(&db, &serve);
    let port = server.port();
    let form = format!(
        "webhook%5Burl%5D=http%3A%2F%2F127.0.0.1%3A{receiver}%2Fin&webhook%5Bevents%5D=location.created"
    );
    let (status, body) = post_form(port, "/webhooks.api", &[("token", &token)], &form);
    assert_eq!(status, 200, "{body}");
    let next = Arc::new(AtomicU32::new(0));
    let acknowledged = Arc::new(std::sync::Mutex::new(Vec::<String>::new()));
    let clients: Vec<_> = (0..8)
        .map(|_| {
            let (next, acknowledged, token) = (next.clone(), acknowledged.clone(), token.clone());
            std::thread::spawn(move || {
                loop {
                    let n = next.fetch_add(1, Ordering::Relaxed);
                    if n >= TOTAL {
                        return;
                    }
                    let name = format!("Hook Site {n:04}");
                    let body = format!("location%5Bname%5D={}", name.replace(' ', "+"));
                    match try_post_form(port, "/locations.api", &token, &body) {
                        Ok((200, response)) => {
                            if serde_json::from_str::<Value>(&response).is_ok() {
                                acknowledged.lock().unwrap().push(name);
                            } else {
                                return;
                            }
                        }
                        Ok((status, response)) => panic!("create answered {status}: {response}"),
                        Err(_) => return,
                    }
                }
            })
        })
        .collect();
    let deadline = Instant::now() + Duration::from_secs(120);
    while acknowledged.lock().unwrap().len() < KILL_AFTER {
        assert!(
            Instant::now() < deadline,
            "creates were not acknowledged in time"
        );
        std::thread::sleep(Duration::from_millis(1));
    }
    server.child.kill().unwrap(); // SIGKILL
    server.child.wait().unwrap();
    for client in clients {
        client.join().expect("a client failed");
    }
    drop(server);
    let acknowledged = acknowledged.lock().unwrap().clone();
    let before = bodies.lock().unwrap().len();
    assert!(
        before < acknowledged.len(),
        "every event was delivered before the kill ({before} of {}): nothing was left to test",
        acknowledged.len()
    );
    let _server = Server::start(&db, &serve);
    // The killed instance's hold on the endpoint lasts up to 30 s.
    let deadline = Instant::now() + Duration::from_secs(90);
    loop {
        let names: std::collections::HashSet<String> = bodies
            .lock()
            .unwrap()
            .iter()
            .filter_map(|b| serde_json::from_str::<Value>(b).ok())
            .filter_map(|v| v["data"]["name"].as_str().map(str::to_owned))
            .collect();
        let missing: Vec<&String> = acknowledged
            .iter()
            .filter(|n| !names.contains(*n))
            .collect();
        if missing.is_empty() {
            eprintln!(
                "{} acknowledged, {before} delivered before the kill, all delivered after",
                acknowledged.len()
            );
            return;
        }
        assert!(
            Instant::now() < deadline,
            "{} of {} acknowledged creates never reached the receiver: {missing:?}",
            missing.len(),
            acknowledged.len()
        );
        std::thread::sleep(Duration::from_millis(200));
    }
}

#[test]
fn deeply_nested_parameters_are_refused_and_the_server_lives_on() {
    let db = sqlite_url();
    let token = unlimited_company(&db);
    let mut server = Server::start(&db, &["serve"]);
    let port = server.port();
    let attack = format!("a{}=1", "[b]".repeat(500_000));
    for (path, headers) in [
        ("/login", vec![]),
        ("/locations.api", vec![("token", token.as_str())]),
    ] {
        let started = Instant::now();
        let (status, body) = post_form(port, path, &headers, &attack);
        assert_eq!(status, 400, "{path}: {body}");
        assert!(body.contains("nesting limit is 32"), "{path}: {body}");
        eprintln!("{path}: refused in {:?}", started.elapsed());
        let (status, body) = get(port, "/healthz", &[]);
        assert_eq!(status, 200, "the server still answers after {path}: {body}");
        assert!(
            server.child.try_wait().unwrap().is_none(),
            "the server is still running after {path}"
        );
    }
}

#[test]
fn sigterm_lets_the_request_in_flight_finish_then_exits_cleanly() {
    let db = sqlite_url();
    let token = unlimited_company(&db);
    let mut server = Server::start(&db, &["serve"]);
    let port = server.port();

    // Send the headers and half the body, so the request is in flight when SIGTERM arrives.
    let body = "location%5Bname%5D=Night+Depot";
    let head = format!(
        "POST /locations.api HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\ntoken: {token}\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: {}\r\n\r\n",
        body.len()
    );
    let mut stream = std::net::TcpStream::connect(("127.0.0.1", port)).unwrap();
    use std::io::Write;
    stream.write_all(head.as_bytes()).unwrap();
    stream.write_all(&body.as_bytes()[..20]).unwrap();
    // And half of a readiness check's head, on a connection of its own.
    let mut ready = std::net::TcpStream::connect(("127.0.0.1", port)).unwrap();
    ready
        .write_all(b"GET /readyz HTTP/1.1\r\nHost: localhost\r\n")
        .unwrap();
    std::thread::sleep(Duration::from_millis(300));

    let pid = server.child.id();
    let waiter = std::thread::spawn(move || {
        Command::new("kill")
            .args(["-TERM", &pid.to_string()])
            .status()
            .unwrap()
    });
    assert!(waiter.join().unwrap().success());
    std::thread::sleep(Duration::from_millis(300));
    assert!(
        server.child.try_wait().unwrap().is_none(),
        "the server waits for the request in flight"
    );
    assert!(
        std::net::TcpStream::connect(("127.0.0.1", port))
            .map(|mut s| {
                let _ = s.write_all(get_request("/healthz", &[]).as_bytes());
                let mut raw = Vec::new();
                let _ = s.set_read_timeout(Some(Duration::from_secs(5)));
                let _ = s.read_to_end(&mut raw);
                raw.is_empty()
            })
            .unwrap_or(true),
        "no new requests are served while shutting down"
    );

    // A load balancer asking while the server stops is told to send nothing more.
    ready.write_all(b"Connection: close\r\n\r\n").unwrap();
    let mut raw = Vec::new();
    ready.read_to_end(&mut raw).unwrap();
    let (status, response) = parse_response(&raw);
    assert_eq!(
        (status, response.as_str()),
        (503, r#"{"status":"stopping"}"#)
    );

    stream.write_all(&body.as_bytes()[20..]).unwrap();
    let mut raw = Vec::new();
    stream.read_to_end(&mut raw).unwrap();
    let (status, response) = parse_response(&raw);
    assert_eq!(status, 200, "{response}");
    assert!(response.contains("Night Depot"));

    let status = server.terminate();
    assert!(status.success(), "clean exit after SIGTERM: {status:?}");
    assert!(server.log().iter().any(|l| l.contains("shutting down")));
    // The request is in the company's usage, though the counts' next write was seconds
    // away: they are written at shutdown.
    assert_eq!(
        rows_of::<(i64,)>(&db, "SELECT requests FROM api_usage"),
        vec![(1,)]
    );
}

/// `rentrack healthcheck` with `args` and the environment `env`.
fn healthcheck(args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut command = Command::new(BIN);
    command.arg("healthcheck").args(args);
    for var in [
        "RENTRACK_LISTEN",
        "RENTRACK_TLS_CERT",
        "RENTRACK_HEALTHCHECK_URL",
    ] {
        command.env_remove(var);
    }
    command.envs(env.iter().copied()).output().unwrap()
}

fn livez_readyz_and_healthcheck_answer_without_a_token(db: String) {
    let server = Server::start(&db, &["serve"]);
    let port = server.port();
    let (status, body) = get(port, "/livez", &[]);
    assert_eq!((status, body.as_str()), (200, r#"{"status":"alive"}"#));
    let (status, body) = get(port, "/readyz", &[]);
    assert_eq!(
        (status, body.as_str()),
        (200, r#"{"database":"ok","status":"ready"}"#)
    );

    let url = format!("http://127.0.0.1:{port}");
    let ready = healthcheck(&["--url", &url], &[]);
    assert!(ready.status.success(), "{ready:?}");
    assert!(String::from_utf8_lossy(&ready.stdout).contains("ready"));
    // Without --url: the address `serve` listens on, an unspecified one asked on loopback.
    let listen = format!("0.0.0.0:{port}");
    let ready = healthcheck(&[], &[("RENTRACK_LISTEN", &listen)]);
    assert!(ready.status.success(), "{ready:?}");
    drop(server);

    let gone = healthcheck(&["--url", &url, "--timeout-secs", "2"], &[]);
    assert_eq!(gone.status.code(), Some(1), "{gone:?}");
    let said = String::from_utf8_lossy(&gone.stderr);
    assert!(said.contains("/readyz does not answer"), "{said}");
}

#[test]
fn secrets_come_from_the_files_their_file_variables_name_and_metrics_are_off_by_default() {
    let db = sqlite_url();
    let _ = unlimited_company(&db);
    let dir = scratch_dir();
    let url_file = dir.join("database-url");
    std::fs::write(&url_file, format!("{db}\n")).unwrap();
    let companies = |env: &[(&str, &std::path::Path)], url: Option<&str>| {
        let mut command = Command::new(BIN);
        command
            .args(["company", "list"])
            .env_remove("RENTRACK_DATABASE_URL")
            .env_remove("RENTRACK_DATABASE_URL_FILE");
        if let Some(url) = url {
            command.env("RENTRACK_DATABASE_URL", url);
        }
        command.envs(env.iter().copied()).output().unwrap()
    };
    let listed = companies(&[("RENTRACK_DATABASE_URL_FILE", &url_file)], None);
    assert!(listed.status.success(), "{listed:?}");
    assert!(String::from_utf8_lossy(&listed.stdout).contains("\"plan\":\"unlimited\""));

    let both = companies(&[("RENTRACK_DATABASE_URL_FILE", &url_file)], Some(&db));
    assert_eq!(both.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&both.stderr)
            .contains("set RENTRACK_DATABASE_URL or RENTRACK_DATABASE_URL_FILE, not both"),
        "{both:?}"
    );
    let missing = dir.join("no-such-file");
    let unread = companies(&[("RENTRACK_DATABASE_URL_FILE", &missing)], None);
    assert_eq!(unread.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&unread.stderr).contains("cannot read RENTRACK_DATABASE_URL_FILE"),
        "{unread:?}"
    );
    let help = Command::new(BIN)
        .args(["serve", "--help"])
        .env("RENTRACK_DATABASE_URL_FILE", &missing)
        .output()
        .unwrap();
    assert!(help.status.success(), "--help answers: {help:?}");
    assert!(String::from_utf8_lossy(&help.stdout).contains("--database-url"));

    fails(
        &db,
        &["serve", "--metrics-token", "too-short"],
        "at least 16 characters",
    );
    let plain = Server::start(&db, &["serve"]);
    assert_eq!(
        get(plain.port(), "/metrics", &[]).0,
        404,
        "off unless enabled"
    );
    drop(plain);

    let token_file = dir.join("metrics-token");
    std::fs::write(&token_file, "a-metrics-secret\n").unwrap();
    let token_path = token_file.to_str().unwrap();
    let server = Server::start_with_env(
        &db,
        &["serve"],
        &[("RENTRACK_METRICS_TOKEN_FILE", token_path)],
    );
    let port = server.port();
    let (status, body) = get(
        port,
        "/metrics",
        &[("Authorization", "Bearer a-metrics-secret")],
    );
    assert_eq!(status, 200, "{body}");
    assert!(body.contains("rentrack_http_requests_total"));
    assert_eq!(get(port, "/metrics", &[]).0, 403);

    // --help names the variables, never their values.
    let help = Command::new(BIN)
        .args(["serve", "--help"])
        .env(
            "RENTRACK_DATABASE_URL",
            "postgres://user:a-db-password@host/db",
        )
        .env("RENTRACK_METRICS_TOKEN_FILE", &token_file)
        .output()
        .unwrap();
    let help = String::from_utf8_lossy(&help.stdout);
    assert!(help.contains("RENTRACK_METRICS_TOKEN"), "{help}");
    assert!(
        !help.contains("a-db-password") && !help.contains("a-metrics-secret"),
        "{help}"
    );
}

/// The rows of `text` in the database at `url`, read directly.
fn rows_of<T: store::Record>(url: &str, text: &'static str) -> Vec<T> {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        let db = store::Db::connect(url).await.unwrap();
        let values = sea_query::Values(vec![]);
        let rows = db.read().all(&store::Sql { text, values }).await.unwrap();
        db.close();
        rows
    })
}

/// The names of the locations of the database at `url`.
fn location_names(url: &str) -> Vec<String> {
    rows_of::<(String,)>(url, "SELECT name FROM locations")
        .into_iter()
        .map(|(name,)| name)
        .collect()
}

#[test]
fn a_backup_taken_during_a_burst_of_writes_restores_every_write_acknowledged_before_it() {
    let db = sqlite_url();
    let token = unlimited_company(&db);
    let mut server = Server::start(&db, &["serve"]);
    let port = server.port();
    let dir = scratch_dir();
    let backup = dir.join("backup.db");
    let backup_path = backup.to_str().unwrap();

    let stop = std::sync::atomic::AtomicBool::new(false);
    let acknowledged = std::sync::Mutex::new(Vec::new());
    let (started, backed_up) = std::thread::scope(|s| {
        for writer in 0..4 {
            let (stop, acknowledged, token) = (&stop, &acknowledged, &token);
            s.spawn(move || {
                for i in 0.. {
                    if stop.load(Ordering::Relaxed) {
                        break;
                    }
                    let name = format!("Burst {writer}-{i}");
                    let body = format!("location%5Bname%5D={}", name.replace(' ', "+"));
                    if let Ok((200, _)) = try_post_form(port, "/locations.api", token, &body) {
                        acknowledged.lock().unwrap().push((Instant::now(), name));
                    }
                }
            });
        }
        std::thread::sleep(Duration::from_millis(700));
        let started = Instant::now();
        let backed_up = rentrack(&db, &["backup", "--to", backup_path]);
        std::thread::sleep(Duration::from_millis(300));
        stop.store(true, Ordering::Relaxed);
        (started, backed_up)
    });
    assert!(backed_up.status.success(), "{backed_up:?}");
    let said: Value = serde_json::from_slice(&backed_up.stdout).unwrap();
    assert!(said["bytes"].as_u64().unwrap() > 0 && said["migration"].as_i64().unwrap() > 20);
    assert!(!dir.join("backup.db.partial").exists());
    let acknowledged = acknowledged.into_inner().unwrap();
    let before: Vec<&String> = acknowledged
        .iter()
        .filter(|(at, _)| *at < started)
        .map(|(_, name)| name)
        .collect();
    assert!(
        before.len() > 20 && acknowledged.len() > before.len(),
        "writes went on before and during the backup: {} and {}",
        before.len(),
        acknowledged.len()
    );
    // A second backup to the same file is refused: nothing is overwritten. So is one
    // whose `.partial` another backup holds.
    let again = rentrack(&db, &["backup", "--to", backup_path]);
    assert!(!again.status.success());
    assert!(String::from_utf8_lossy(&again.stderr).contains("already exists"));
    let other = dir.join("other.db");
    std::fs::write(dir.join("other.db.partial"), b"").unwrap();
    let busy = rentrack(&db, &["backup", "--to", other.to_str().unwrap()]);
    assert!(!busy.status.success());
    assert!(
        String::from_utf8_lossy(&busy.stderr).contains("under way"),
        "{busy:?}"
    );
    assert!(!other.exists());

    // Restored into a new file: every write acknowledged before the backup began.
    let restored = format!("sqlite://{}", dir.join("restored.db").display());
    let out = rentrack(&restored, &["restore", "--from", backup_path]);
    assert!(out.status.success(), "{out:?}");
    let names = location_names(&restored);
    for name in &before {
        assert!(
            names.contains(name),
            "{name} was acknowledged before the backup"
        );
    }

    // Not over the database a server is running on; then, stopped, it is.
    let refused = rentrack(&db, &["restore", "--from", backup_path]);
    assert!(!refused.status.success());
    assert!(
        String::from_utf8_lossy(&refused.stderr).contains("a rentrack server is running on"),
        "{refused:?}"
    );
    assert!(location_names(&db).len() >= acknowledged.len());
    assert!(server.terminate().success());
    let out = rentrack(&db, &["restore", "--from", backup_path]);
    assert!(out.status.success(), "{out:?}");
    let mut now = location_names(&db);
    now.sort();
    let mut backed = names;
    backed.sort();
    assert_eq!(now, backed, "the database is the backup's");
    let server = Server::start(&db, &["serve"]);
    assert_eq!(get(server.port(), "/readyz", &[]).0, 200);

    // Neither a PostgreSQL URL nor a file that is not a rentrack database.
    let garbage = dir.join("garbage.db");
    std::fs::write(&garbage, "not a database").unwrap();
    let out = rentrack(&restored, &["restore", "--from", garbage.to_str().unwrap()]);
    assert!(!out.status.success());
    let out = rentrack(
        "postgres://postgres@127.0.0.1:1/none",
        &["backup", "--to", dir.join("pg.db").to_str().unwrap()],
    );
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("pg_dump"),
        "{out:?}"
    );
}

#[test]
fn a_server_tells_systemd_when_it_is_ready_and_when_it_stops() {
    let dir = scratch_dir();
    let socket_path = dir.join("notify.sock");
    let socket = std::os::unix::net::UnixDatagram::bind(&socket_path).unwrap();
    socket
        .set_read_timeout(Some(Duration::from_secs(30)))
        .unwrap();
    let mut server = Server::start_with_env(
        &sqlite_url(),
        &["serve"],
        &[("NOTIFY_SOCKET", socket_path.to_str().unwrap())],
    );
    let mut message = [0u8; 512];
    let n = socket.recv(&mut message).unwrap();
    let said = String::from_utf8_lossy(&message[..n]).into_owned();
    assert!(said.lines().any(|l| l == "READY=1"), "{said}");
    assert!(
        said.contains(&format!("STATUS=listening on {}", server.base_url)),
        "{said}"
    );
    assert!(server.terminate().success());
    let n = socket.recv(&mut message).unwrap();
    assert_eq!(String::from_utf8_lossy(&message[..n]).trim(), "STOPPING=1");
}

/// `rentrack serve 2>&1 | head -1`: the reader of its output goes away, and the server
/// still answers, and still stops on SIGTERM (its log lines, and the demo's welcome,
/// are dropped).
#[test]
fn sigterm_stops_a_server_whose_output_pipe_is_closed() {
    for command in ["serve", "demo"] {
        stops_with_its_output_pipe_closed(command);
    }
}

fn stops_with_its_output_pipe_closed(command: &str) {
    use std::io::BufRead;
    let child = Command::new(BIN)
        .args([command, "--listen", "127.0.0.1:0", "--database-url"])
        .arg(sqlite_url())
        .env("RENTRACK_LOG", "info")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start rentrack");
    // Killed if an assertion fails before it stops.
    struct Reaped(std::process::Child);
    impl Drop for Reaped {
        fn drop(&mut self) {
            let _ = self.0.kill();
            let _ = self.0.wait();
        }
    }
    let mut child = Reaped(child);
    let child = &mut child.0;
    let mut err = std::io::BufReader::new(child.stderr.take().unwrap());
    let mut line = String::new();
    let address = loop {
        line.clear();
        assert!(err.read_line(&mut line).unwrap() > 0, "{command} stopped");
        if let Ok(v) = serde_json::from_str::<Value>(&line)
            && let Some(address) = v["address"].as_str()
        {
            break address.to_owned();
        }
    };
    // Both pipes closed, possibly before the welcome on stdout is written.
    drop(err);
    drop(child.stdout.take());
    let port: u16 = address.rsplit(':').next().unwrap().parse().unwrap();
    for _ in 0..3 {
        // Each request writes a log line to the closed pipe.
        assert_eq!(get(port, "/livez", &[]).0, 200, "{command}");
    }
    assert!(
        Command::new("kill")
            .args(["-TERM", &child.id().to_string()])
            .status()
            .unwrap()
            .success()
    );
    let deadline = Instant::now() + Duration::from_secs(30);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("{command} did not stop after SIGTERM");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    assert!(
        status.success(),
        "{command}: clean exit after SIGTERM: {status:?}"
    );
}

#[test]
fn readyz_says_not_ready_when_the_database_file_is_gone_and_healthcheck_fails() {
    let db = sqlite_url();
    let server = Server::start(&db, &["serve"]);
    let port = server.port();
    assert_eq!(get(port, "/readyz", &[]).0, 200);
    let path = db.strip_prefix("sqlite://").unwrap();
    std::fs::rename(path, format!("{path}.moved")).unwrap();
    let (status, body) = get(port, "/readyz", &[]);
    assert_eq!(
        (status, body.as_str()),
        (503, r#"{"status":"database unavailable"}"#)
    );
    let url = format!("http://127.0.0.1:{port}");
    let failed = healthcheck(&["--url", &url], &[]);
    assert_eq!(failed.status.code(), Some(1), "{failed:?}");
    let said = String::from_utf8_lossy(&failed.stderr);
    assert!(said.contains("503"), "{said}");
    assert!(
        !std::path::Path::new(path).exists(),
        "asking does not create an empty database in its place"
    );
    // The process itself still answers.
    assert_eq!(get(port, "/livez", &[]).0, 200);
}

#[test]
fn sigterm_lets_a_request_whose_client_went_away_finish_its_write() {
    let db = sqlite_url();
    let token = unlimited_company(&db);
    let mut server = Server::start(&db, &["serve"]);
    let port = server.port();

    // Another connection's write transaction holds SQLite's write lock, so the request's
    // write waits for it (within the busy timeout, 5 s) until the test lets it go.
    let (held, is_held) = std::sync::mpsc::channel();
    let (release, released) = std::sync::mpsc::channel::<()>();
    let holder = std::thread::spawn({
        let db = db.clone();
        move || {
            let rt = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .unwrap();
            rt.block_on(async {
                let store = store::Db::connect(&db).await.unwrap();
                let tx = store.begin().await.unwrap();
                held.send(()).unwrap();
                let _ = tokio::task::spawn_blocking(move || released.recv()).await;
                drop(tx);
                store.close();
            });
        }
    });
    is_held.recv().unwrap();

    // The whole request, and then its client goes away while it waits for the lock.
    let body = "location%5Bname%5D=Orphan+Depot";
    let request = format!(
        "POST /locations.api HTTP/1.1\r\nHost: localhost\r\ntoken: {token}\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    let mut stream = std::net::TcpStream::connect(("127.0.0.1", port)).unwrap();
    use std::io::Write;
    stream.write_all(request.as_bytes()).unwrap();
    std::thread::sleep(Duration::from_millis(300));
    drop(stream);
    std::thread::sleep(Duration::from_millis(200));

    server.send_sigterm();
    std::thread::sleep(Duration::from_millis(700));
    assert!(
        server.child.try_wait().unwrap().is_none(),
        "the server waits for the request whose client went away"
    );
    release.send(()).unwrap();
    holder.join().unwrap();
    let status = server.terminate();
    assert!(status.success(), "clean exit after SIGTERM: {status:?}");

    let log = server.log();
    let lines: Vec<Value> = log
        .iter()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .collect();
    let answered: Vec<&Value> = lines
        .iter()
        .filter(|l| l["method"] == "POST" && l.get("status").is_some())
        .collect();
    assert!(
        answered.len() == 1 && answered[0]["status"] == 200,
        "the request is answered 200, though no one reads it: {log:#?}"
    );
    assert!(
        lines.iter().all(|l| l["level"] != "ERROR"),
        "no error while shutting down: {log:#?}"
    );
    let server = Server::start(&db, &["serve"]);
    let (status, listed) = get(
        server.port(),
        "/locations/get_line_item_locations.api",
        &[("token", &token)],
    );
    assert_eq!(status, 200, "{listed}");
    assert!(
        listed.contains("Orphan Depot"),
        "the write was finished: {listed}"
    );
}

#[test]
fn the_log_has_one_line_per_request_and_never_the_token() {
    let db = sqlite_url();
    let token = unlimited_company(&db);
    let mut server = Server::start(&db, &["serve"]);
    let port = server.port();
    let bearer = format!("Bearer {token}");
    assert_eq!(
        get(port, "/assets/vendors.api", &[("token", &token)]).0,
        200
    );
    assert_eq!(
        get(port, "/assets/vendors.api", &[("Authorization", &bearer)]).0,
        200
    );
    assert_eq!(
        get(port, &format!("/assets/vendors.api?token={token}"), &[]).0,
        200
    );
    assert_eq!(
        get(port, &format!("/vendors/999.api?token={token}&x=1"), &[]).0,
        404
    );
    assert_eq!(
        get(
            port,
            "/assets/vendors.api",
            &[("token", "wrong-token-value")]
        )
        .0,
        401
    );
    server.terminate();

    let log = server.log();
    assert!(
        log.iter().all(|l| !l.contains(&token)),
        "the token appears in the log: {log:#?}"
    );
    assert!(
        log.iter().all(|l| !l.contains("wrong-token-value")),
        "a presented token appears in the log"
    );
    let requests: Vec<Value> = log
        .iter()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter(|v| v.get("status").is_some())
        .collect();
    assert_eq!(requests.len(), 5, "one line per request: {log:#?}");
    for line in &requests {
        for field in ["route", "status", "latency_us", "request_id"] {
            assert!(line.get(field).is_some(), "{field} missing from {line}");
        }
    }
    assert!(
        requests
            .iter()
            .filter(|l| l["status"] == 200)
            .all(|l| l["company"].is_number() || l["company"].is_string()),
        "{requests:?}"
    );
}

#[test]
fn a_slow_statement_is_logged_with_its_sql_inside_the_request_and_store_call_spans() {
    let db = sqlite_url();
    let token = unlimited_company(&db);
    // 0 ms: every statement counts as slow, so the test does not depend on timing.
    // `store=debug` adds the span of each store call.
    let mut server = Server::start_with_env(
        &db,
        &["serve", "--slow-statement-ms", "0"],
        &[("RENTRACK_LOG", "info,store=debug")],
    );
    let port = server.port();
    let request = get(
        port,
        "/assets/vendors.api",
        &[("token", &token), ("X-Request-Id", "trace-slow-1")],
    );
    assert_eq!(request.0, 200);
    server.terminate();

    let log = server.log();
    assert!(log.iter().all(|l| !l.contains(&token)), "{log:#?}");
    let slow: Vec<Value> = log
        .iter()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter(|v| v["target"] == "store::statement" && v["level"] == "WARN")
        .filter(|v| {
            v["spans"]
                .as_array()
                .is_some_and(|spans| spans.iter().any(|s| s["request_id"] == "trace-slow-1"))
        })
        .collect();
    assert!(
        slow.iter()
            .any(|v| v.to_string().contains("vendors") && v.to_string().contains("elapsed")),
        "no slow-statement line naming the vendors query in the request's span: {log:#?}"
    );
    // The vendors page query runs inside the store call that made it.
    assert!(
        slow.iter().any(|v| {
            let names: Vec<&str> = v["spans"]
                .as_array()
                .unwrap()
                .iter()
                .filter_map(|s| s["name"].as_str())
                .collect();
            names == ["request", "list"] && v.to_string().contains("FROM \\\"vendors\\\"")
        }),
        "no slow statement inside the request's and store::vendors::list's spans: {slow:#?}"
    );
}

/// The "listening" log line.
fn listening_line(server: &Server) -> Value {
    let log = server.log();
    log.iter()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .find(|v| v["address"].is_string())
        .expect("a listening line")
}

#[test]
fn sqlite_syncs_every_commit_unless_told_otherwise() {
    let db = sqlite_url();
    let server = Server::start(&db, &["serve"]);
    assert_eq!(
        listening_line(&server)["sqlite_synchronous"],
        "full",
        "FULL is the default"
    );
    drop(server);
    let server = Server::start(&db, &["serve", "--sqlite-synchronous", "normal"]);
    assert_eq!(listening_line(&server)["sqlite_synchronous"], "normal");
    drop(server);
    let server = Server::start_with_env(
        &db,
        &["serve"],
        &[("RENTRACK_SQLITE_SYNCHRONOUS", "normal")],
    );
    assert_eq!(
        listening_line(&server)["sqlite_synchronous"],
        "normal",
        "the environment variable is read"
    );
    drop(server);
    fails(
        &db,
        &["serve", "--sqlite-synchronous", "off"],
        "use full or normal",
    );
    fails(
        &db,
        &["migrate", "--sqlite-synchronous", "sometimes"],
        "use full or normal",
    );
}

fn migrate_check_says_whether_the_database_is_behind_and_changes_nothing(db: String) {
    if let Some(path) = db.strip_prefix("sqlite://") {
        // No file: refused, and none made.
        let missing = rentrack(&db, &["migrate", "--check"]);
        assert_eq!(missing.status.code(), Some(1), "{missing:?}");
        assert!(String::from_utf8_lossy(&missing.stderr).contains("there is no database at"));
        assert!(!std::path::Path::new(path).exists());
        // An empty file is an empty database.
        std::fs::write(path, b"").unwrap();
    }
    let behind = rentrack(&db, &["migrate", "--check"]);
    assert_eq!(behind.status.code(), Some(1), "{behind:?}");
    let said: Value = serde_json::from_slice(&behind.stdout).unwrap();
    assert_eq!(said["up_to_date"], false);
    let pending = said["pending"].as_array().unwrap();
    assert!(pending.len() > 20, "every migration is pending: {said}");
    assert_eq!(pending[0]["version"], 1);
    assert!(String::from_utf8_lossy(&behind.stderr).contains("run `rentrack migrate`"));
    // Nothing was written: asked again, the same answer.
    let again = rentrack(&db, &["migrate", "--check"]);
    assert_eq!(
        serde_json::from_slice::<Value>(&again.stdout).unwrap(),
        said
    );

    assert_eq!(json(&db, &["migrate"])["migrated"], true);
    let current = json(&db, &["migrate", "--check"]);
    assert_eq!(
        current,
        serde_json::json!({"up_to_date": true, "pending": []})
    );
}

#[test]
#[ignore = "needs TEST_POSTGRES_URL"]
fn three_instances_starting_at_once_migrate_a_new_database_once() {
    let url = postgres_url();
    let servers: Vec<Server> = std::thread::scope(|s| {
        let starting: Vec<_> = (0..3)
            .map(|_| s.spawn(|| Server::start(&url, &["serve"])))
            .collect();
        starting.into_iter().map(|t| t.join().unwrap()).collect()
    });
    for server in &servers {
        assert_eq!(get(server.port(), "/readyz", &[]).0, 200);
    }
    let current = json(&url, &["migrate", "--check"]);
    assert_eq!(current["up_to_date"], true);
    // Each migration applied once, by one of them: the others found it done.
    let applied = rows_of::<(i64, i64)>(
        &url,
        "SELECT count(*), count(DISTINCT version) FROM _rentrack_migrations",
    )[0];
    assert_eq!(applied.0, applied.1);
    assert!(applied.0 > 20, "{applied:?}");
}

#[test]
#[ignore = "needs TEST_POSTGRES_URL"]
fn postgres_ignores_the_sqlite_synchronous_setting() {
    let server = Server::start(
        &postgres_url(),
        &["serve", "--sqlite-synchronous", "normal"],
    );
    assert!(
        listening_line(&server).get("sqlite_synchronous").is_none(),
        "PostgreSQL ignores the setting"
    );
}

/// One form POST over a new connection; an error when the server is gone.
fn try_post_form(port: u16, path: &str, token: &str, body: &str) -> std::io::Result<(u16, String)> {
    use std::io::Write;
    let mut stream = std::net::TcpStream::connect(("127.0.0.1", port))?;
    stream.set_read_timeout(Some(Duration::from_secs(30)))?;
    let request = format!(
        "POST {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\ntoken: {token}\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes())?;
    let mut raw = Vec::new();
    stream.read_to_end(&mut raw)?;
    if !raw.starts_with(b"HTTP/1.1 ") {
        return Err(std::io::Error::new(
            std::io::ErrorKind::UnexpectedEof,
            "no HTTP response",
        ));
    }
    Ok(parse_response(&raw))
}

/// Every location of the company, as id to name, read page by page.
fn all_locations(port: u16, token: &str) -> std::collections::HashMap<i64, String> {
    let mut found = std::collections::HashMap::new();
    for page in 1.. {
        let (status, body) = get(
            port,
            &format!("/locations/get_line_item_locations.api?page={page}"),
            &[("token", token)],
        );
        assert_eq!(status, 200, "{body}");
        let body: Value = serde_json::from_str(&body).unwrap();
        for l in body["locations"].as_array().unwrap() {
            found.insert(
                l["id"].as_i64().unwrap(),
                l["name"].as_str().unwrap().to_owned(),
            );
        }
        if page >= body["total_pages"].as_i64().unwrap() {
            break;
        }
    }
    found
}

/// Eight clients create up to 1,000 locations; the server is killed with SIGKILL once
/// 400 are acknowledged, mid-stream. After a restart, every acknowledged location is
/// there with its name, and creating goes on. On SQLite with both synchronous
/// settings (a process crash loses nothing under either; only FULL also covers a
/// power loss, which cannot be staged here), and on PostgreSQL.
fn acknowledged_creates_survive_sigkill(db: String) {
    const TOTAL: u32 = 1000;
    const KILL_AFTER: usize = 400;
    let runs = match db.starts_with("sqlite") {
        true => vec![(db.clone(), "full"), (sqlite_url(), "normal")],
        false => vec![(db, "full")],
    };
    for (db, synchronous) in runs {
        let token = unlimited_company(&db);
        let mut server = Server::start(&db, &["serve", "--sqlite-synchronous", synchronous]);
        let port = server.port();
        let next = Arc::new(AtomicU32::new(0));
        let acknowledged = Arc::new(std::sync::Mutex::new(Vec::<(i64, String)>::new()));
        let clients: Vec<_> = (0..8)
            .map(|_| {
                let (next, acknowledged, token) =
                    (next.clone(), acknowledged.clone(), token.clone());
                std::thread::spawn(move || {
                    loop {
                        let n = next.fetch_add(1, Ordering::Relaxed);
                        if n >= TOTAL {
                            return;
                        }
                        let name = format!("Crash Site {n:04}");
                        let body = format!("location%5Bname%5D={}", name.replace(' ', "+"));
                        match try_post_form(port, "/locations.api", &token, &body) {
                            Ok((200, response)) => {
                                // An answer cut short by the kill is no acknowledgment.
                                let Ok(response) = serde_json::from_str::<Value>(&response) else {
                                    return;
                                };
                                assert_eq!(response["location"]["name"], name.as_str());
                                acknowledged
                                    .lock()
                                    .unwrap()
                                    .push((response["location"]["id"].as_i64().unwrap(), name));
                            }
                            Ok((status, response)) => {
                                panic!("create answered {status}: {response}")
                            }
                            // The server was killed: this request and the rest go unacknowledged.
                            Err(_) => return,
                        }
                    }
                })
            })
            .collect();
        let deadline = Instant::now() + Duration::from_secs(120);
        while acknowledged.lock().unwrap().len() < KILL_AFTER {
            assert!(
                Instant::now() < deadline,
                "{KILL_AFTER} creates were not acknowledged within 2 minutes"
            );
            std::thread::sleep(Duration::from_millis(1));
        }
        server.child.kill().unwrap(); // SIGKILL
        server.child.wait().unwrap();
        for client in clients {
            client.join().expect("a client failed");
        }
        let acknowledged = acknowledged.lock().unwrap().clone();
        assert!(
            acknowledged.len() < TOTAL as usize,
            "the server was killed before all creates were sent ({synchronous})"
        );
        drop(server);

        let server = Server::start(&db, &["serve", "--sqlite-synchronous", synchronous]);
        let found = all_locations(server.port(), &token);
        let lost: Vec<_> = acknowledged
            .iter()
            .filter(|(id, name)| found.get(id) != Some(name))
            .collect();
        assert!(
            lost.is_empty(),
            "{} of {} acknowledged creates lost ({synchronous}): {lost:?}",
            lost.len(),
            acknowledged.len()
        );
        let (status, body) = try_post_form(
            server.port(),
            "/locations.api",
            &token,
            "location%5Bname%5D=After+Restart",
        )
        .unwrap();
        assert_eq!(status, 200, "creating goes on after the restart: {body}");
    }
}

#[test]
fn db_pool_must_be_in_range() {
    fails(
        &sqlite_url(),
        &["serve", "--db-pool", "0"],
        "0 is not in 1..=10000",
    );
}

#[test]
#[ignore = "needs TEST_POSTGRES_URL"]
fn db_pool_bounds_the_postgres_connections_a_server_opens() {
    let (mut server, token, name) = named_postgres_server("pool", Some("2"));
    // 32 requests at once: without the bound, the pool would open a connection for
    // each write that finds none free. The bound counts the connection reads share.
    let statuses = requests_at_once(&server, &token, 32);
    assert!(statuses.iter().all(|s| *s == 200), "{statuses:?}");
    let open = of_application(
        "SELECT count(*) FROM pg_stat_activity WHERE application_name = $1",
        &name,
    );
    assert!((1..=2).contains(&open), "{open} connections open");
    server.terminate();
}

#[test]
#[ignore = "needs TEST_POSTGRES_URL"]
fn the_default_postgres_pool_is_four_connections_a_core() {
    let (mut server, token, name) = named_postgres_server("default_pool", None);
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    let bound = i64::try_from(cores * 4).unwrap().clamp(4, 32);
    // 64 requests at once, more than any default: the pool opens a connection for each
    // write that finds none free, up to its bound less the connections reads share
    // (one a core).
    let shared = i64::try_from(cores).unwrap().min(bound / 2);
    let statuses = requests_at_once(&server, &token, 64);
    assert!(statuses.iter().all(|s| *s == 200), "{statuses:?}");
    let open = of_application(
        "SELECT count(*) FROM pg_stat_activity WHERE application_name = $1",
        &name,
    );
    assert!(
        (shared + 1..=bound).contains(&open),
        "{open} connections open, {shared} shared and at most {bound} in all expected"
    );
    server.terminate();
}

#[test]
#[ignore = "needs TEST_POSTGRES_URL"]
fn pooled_postgres_connections_the_database_dropped_are_replaced() {
    let (mut server, token, name) = named_postgres_server("dropped", Some("4"));
    let burst = || requests_at_once(&server, &token, 8);
    assert!(burst().iter().all(|s| *s == 200));
    // What a database restart does to the pool: every connection it holds is gone.
    let dropped = of_application(
        "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE application_name = $1",
        &name,
    );
    assert!(dropped >= 1, "the server held no connection");
    // A connection idle for longer than the bound (500 ms) is pinged before use and
    // replaced when the ping fails, so no request sees the dropped ones.
    std::thread::sleep(Duration::from_millis(700));
    let statuses = burst();
    assert!(statuses.iter().all(|s| *s == 200), "{statuses:?}");
    server.terminate();
}

fn labels_revoke_ends_every_open_label_link(db: String) {
    let token = unlimited_company(&db);
    let server = Server::start(&db, &["serve"]);
    let auth = [("token", token.as_str())];
    let (status, body) = post_form(
        server.port(),
        "/locations.api",
        &auth,
        "location%5Bname%5D=Store",
    );
    assert_eq!(status, 200, "{body}");
    let location = serde_json::from_str::<Value>(&body).unwrap()["location"]["id"].to_string();
    let (status, body) = post_form(
        server.port(),
        "/qrcode/locations.api",
        &auth,
        &format!("location_id={location}"),
    );
    assert_eq!(status, 200, "{body}");
    let url = serde_json::from_str::<Value>(&body).unwrap()["url"]
        .as_str()
        .unwrap()
        .to_owned();
    let link = url.strip_prefix("http://localhost").unwrap();
    assert_eq!(get(server.port(), link, &[]).0, 200);

    let out = json(&db, &["labels", "revoke", "--subdomain", "acme"]);
    assert_eq!(out, serde_json::json!({"subdomain": "acme", "revoked": 1}));
    let (status, body) = get(server.port(), link, &[]);
    assert_eq!(status, 404, "{body}");
    assert!(
        serde_json::from_str::<Value>(&body).is_ok_and(|b| b["message"].is_string()),
        "a JSON error: {body}"
    );
    let out = json(&db, &["labels", "revoke", "--subdomain", "acme"]);
    assert_eq!(out["revoked"], 0, "nothing left open");
    fails(
        &db,
        &["labels", "revoke", "--subdomain", "nobody"],
        "no company with subdomain",
    );
}

fn import_writes_a_file_all_or_nothing_and_tables_the_bad_rows(db: String) {
    let token = unlimited_company(&db);
    let dir = scratch_dir();
    let write = |name: &str, text: &str| {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        path.display().to_string()
    };
    let import = |file: &str, more: &[&str]| {
        let mut args = vec!["import", "--subdomain", "acme", "--kind", "vendors"];
        args.extend_from_slice(more);
        args.push(file);
        rentrack(&db, &args)
    };
    let columns = ["--columns", "Vendor Name=name,E-mail=email"];
    // A bad file: exit 1, every bad row in a table on standard error, nothing written.
    let bad = write(
        "bad.csv",
        "Vendor Name,E-mail\nAcme,a@acme.example\n,b@x.example\nBolt,not-mail\n",
    );
    let out = import(&bad, &columns);
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("row\tcolumn\tvalue\tmessage\n3\tVendor Name\t\tcan't be blank\n4\tE-mail\tnot-mail\tis not an e-mail address\n"),
        "{stderr}"
    );
    assert!(
        stderr.contains("2 of 3 rows are bad; nothing was written"),
        "{stderr}"
    );
    let printed: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(printed["import"]["state"], "failed");
    assert_eq!(printed["import"]["errors_total"], 2);
    // A good one: a dry run writes nothing, the import writes every row.
    let good = write(
        "good.csv",
        "Vendor Name,E-mail\nAcme,a@acme.example\nBolt,b@bolt.example\n",
    );
    let mut dry = columns.to_vec();
    dry.push("--dry-run");
    let out = import(&good, &dry);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let printed: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(printed["import"]["dry_run"], true);
    assert_eq!(printed["import"]["created"], 2);
    let out = import(&good, &columns);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let printed: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(printed["import"]["state"], "done");
    assert_eq!(printed["import"]["file_name"], "good.csv");
    let mut server = Server::start(&db, &["serve"]);
    let (status, body) = get(server.port(), "/assets/vendors.api", &[("token", &token)]);
    assert_eq!(status, 200, "{body}");
    let vendors = serde_json::from_str::<Value>(&body).unwrap()["vendors"].clone();
    assert_eq!(vendors.as_array().unwrap().len(), 2, "{body}");
    // The import shows in the API's list, as one started there would.
    let (_, body) = get(server.port(), "/imports.api", &[("token", &token)]);
    let listed = serde_json::from_str::<Value>(&body).unwrap()["imports"].clone();
    assert_eq!(listed.as_array().unwrap().len(), 3, "{body}");
    server.terminate();
    // Refused before anything starts.
    fails(
        &db,
        &[
            "import",
            "--subdomain",
            "acme",
            "--kind",
            "spaceships",
            &good,
        ],
        "--kind must be one of vendors, locations, fixed_assets",
    );
    fails(
        &db,
        &[
            "import",
            "--subdomain",
            "acme",
            "--kind",
            "locations",
            "--columns",
            "a=colour",
            &good,
        ],
        "is no column of locations",
    );
    fails(
        &db,
        &[
            "import",
            "--subdomain",
            "acme",
            "--kind",
            "vendors",
            "--columns",
            "nofield",
            &good,
        ],
        "header=field",
    );
    fails(
        &db,
        &[
            "import",
            "--subdomain",
            "acme",
            "--kind",
            "vendors",
            "/nonexistent/x.csv",
        ],
        "cannot read /nonexistent/x.csv",
    );
}

fn staff_invite_prints_a_link_with_which_the_member_sets_a_password(db: String) {
    let token = unlimited_company(&db);
    let server = Server::start(&db, &["serve"]);
    let (status, body) = post_form(
        server.port(),
        "/members.api",
        &[("token", &token)],
        "user[first_name]=Sam&user[last_name]=Okafor&user[email]=sam%40acme.test&user[role_id]=2",
    );
    assert_eq!(status, 200, "{body}");
    let invited = json(
        &db,
        &[
            "staff",
            "invite",
            "--subdomain",
            "acme",
            "--email",
            "SAM@acme.test",
        ],
    );
    assert_eq!(invited["subdomain"], "acme");
    assert_eq!(invited["email"], "sam@acme.test");
    let path = invited["path"].as_str().unwrap();
    assert!(
        path.starts_with("/staff/invitations/") && path.len() == 19 + 64,
        "{path}"
    );
    assert!(invited["expires_at"].as_str().unwrap().contains('T'));
    let (status, body) = get(server.port(), path, &[]);
    assert_eq!(status, 200, "{body}");
    assert!(body.contains("Welcome, Sam"), "{body}");
    // A second link replaces the first.
    let again = json(
        &db,
        &[
            "staff",
            "invite",
            "--subdomain",
            "acme",
            "--email",
            "sam@acme.test",
        ],
    );
    assert_ne!(again["path"], invited["path"]);
    assert_eq!(get(server.port(), path, &[]).0, 404);
    fails(
        &db,
        &[
            "staff",
            "invite",
            "--subdomain",
            "acme",
            "--email",
            "nobody@acme.test",
        ],
        "no member of acme has the e-mail nobody@acme.test",
    );
    fails(
        &db,
        &[
            "staff",
            "invite",
            "--subdomain",
            "nope",
            "--email",
            "sam@acme.test",
        ],
        "nope",
    );
    // Invitations by e-mail need a sender and an SMTP URL lettre reads.
    fails(
        &db,
        &["serve", "--smtp-url", "smtp://localhost"],
        "--smtp-from",
    );
    fails(
        &db,
        &[
            "serve",
            "--smtp-url",
            "ftp://localhost",
            "--smtp-from",
            "a@acme.test",
            "--listen",
            "127.0.0.1:0",
        ],
        "--smtp-url is not an SMTP URL",
    );
}
