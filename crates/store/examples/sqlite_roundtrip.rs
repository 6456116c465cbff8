//! What one read costs through the store's SQLite path, against a plain prepared
//! statement (docs/performance.md, "The SQLite driver", has the figures that moved
//! the store off sqlx's SQLite driver).
//!
//! `cargo run --release -p store --example sqlite_roundtrip [seconds] [tasks]`
//!
//! On a fresh SQLite file with one company and 1,000 locations, `tasks` (64)
//! concurrent tasks on a 2-thread tokio runtime read a location by id for `seconds` (5)
//! each way, and the example prints reads a second:
//! - `store`: `store::locations::find`, what a location's details do (the engine's
//!   SQLite pool: the statement runs on the task's own thread);
//! - `blocking`: the same SELECT as a cached prepared statement through rusqlite, on
//!   tokio's blocking pool, one connection per pool thread;
//! - `direct`: that statement in a loop on one thread, no async at all (the ceiling).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use domain::{Change, Name, Plan, Subdomain};
use store::Db;
use store::companies::{self, NewCompany};
use store::locations::{self, LocationFields};

const SELECT: &str = "SELECT id, sequence_num, parent_id, name, description, street1, street2, \
    city, state, zipcode, country, active, created_at, updated_at FROM locations \
    WHERE company_id = ?1 AND id = ?2";

type Row = (i64, i64, Option<i64>, String, Option<String>);

fn read(conn: &rusqlite::Connection, company: i64, id: i64) -> Row {
    let mut stmt = conn.prepare_cached(SELECT).expect("prepares");
    stmt.query_row((company, id), |r| {
        Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?))
    })
    .expect("the location")
}

thread_local! {
    static CONN: std::cell::RefCell<Option<rusqlite::Connection>> = const { std::cell::RefCell::new(None) };
}

fn main() {
    let mut args = std::env::args().skip(1);
    let seconds: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(5);
    let tasks: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(64);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("a runtime");
    let dir = std::env::temp_dir().join(format!("rentrack-roundtrip-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a scratch directory");
    let path = dir.join("roundtrip.db");
    let url = format!("sqlite://{}", path.display());
    let (db, company, ids) = runtime.block_on(async {
        let db = Db::connect(&url).await.expect("connects");
        db.migrate().await.expect("migrates");
        let (company, _) = companies::create(
            &db,
            NewCompany {
                name: "Roundtrip".into(),
                subdomain: Subdomain::parse("roundtrip").expect("a subdomain"),
                plan: Plan::Unlimited,
                owner_email: None,
                owner_password: None,
                enable_api: false,
            },
        )
        .await
        .expect("a company");
        let mut ids = Vec::new();
        for i in 0..1000 {
            let fields = LocationFields {
                description: Change::Set(format!("shelf {i}")),
                ..Default::default()
            };
            let name = Name::parse_required(&format!("Location {i}")).expect("a name");
            ids.push(
                locations::create(&db, company.id, name, fields)
                    .await
                    .expect("a location")
                    .id,
            );
        }
        (db, company.id, Arc::new(ids))
    });
    let company_raw = company.get();
    let window = Duration::from_secs(seconds);

    let store_rate = runtime.block_on(timed(tasks, window, {
        let (db, ids) = (db.clone(), ids.clone());
        move |n| {
            let (db, ids) = (db.clone(), ids.clone());
            async move {
                locations::find(&db, company, store::Id::new(ids[n % ids.len()]))
                    .await
                    .expect("found");
            }
        }
    }));

    let blocking_rate = runtime.block_on(timed(tasks, window, {
        let (path, ids) = (path.clone(), ids.clone());
        move |n| {
            let (path, id) = (path.clone(), ids[n % ids.len()]);
            async move {
                tokio::task::spawn_blocking(move || {
                    CONN.with(|c| {
                        let mut c = c.borrow_mut();
                        let conn = c.get_or_insert_with(|| {
                            rusqlite::Connection::open(&path).expect("opens")
                        });
                        read(conn, company_raw, id)
                    })
                })
                .await
                .expect("joins");
            }
        }
    }));

    let conn = rusqlite::Connection::open(&path).expect("opens");
    let started = Instant::now();
    let mut n = 0usize;
    while started.elapsed() < window {
        read(&conn, company_raw, ids[n % ids.len()]);
        n += 1;
    }
    let direct_rate = n as f64 / started.elapsed().as_secs_f64();

    println!(
        "{{\"bench\":\"sqlite_roundtrip\",\"tasks\":{tasks},\"seconds\":{seconds},\"store_per_s\":{store_rate:.0},\"blocking_per_s\":{blocking_rate:.0},\"direct_per_s\":{direct_rate:.0}}}"
    );
    eprintln!(
        "reads a second: store {store_rate:.0}, rusqlite on the blocking pool {blocking_rate:.0}, rusqlite on one thread {direct_rate:.0}"
    );
    drop(conn);
    db.close();
    let _ = std::fs::remove_dir_all(&dir);
}

/// Reads a second of `tasks` tasks each calling `one(n)` in a loop for `window`.
async fn timed<F, Fut>(tasks: usize, window: Duration, one: F) -> f64
where
    F: Fn(usize) -> Fut + Clone + Send + 'static,
    Fut: Future<Output = ()> + Send,
{
    let done = Arc::new(AtomicU64::new(0));
    let stop = Arc::new(AtomicBool::new(false));
    let started = Instant::now();
    let handles: Vec<_> = (0..tasks)
        .map(|t| {
            let (one, done, stop) = (one.clone(), done.clone(), stop.clone());
            tokio::spawn(async move {
                let mut n = t * 7;
                while !stop.load(Ordering::Relaxed) {
                    one(n).await;
                    done.fetch_add(1, Ordering::Relaxed);
                    n += 1;
                }
            })
        })
        .collect();
    tokio::time::sleep(window).await;
    stop.store(true, Ordering::Relaxed);
    let elapsed = started.elapsed().as_secs_f64();
    let reads = done.load(Ordering::Relaxed);
    for h in handles {
        h.await.expect("joins");
    }
    reads as f64 / elapsed
}
