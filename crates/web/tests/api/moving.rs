//! A company moved to another database (`rentrack export`, `rentrack import-company`):
//! every record reads the same through the API there, apart from the ids the target
//! gives; nothing is written when the move is refused.

use std::collections::HashMap;

use crate::common::{Kind, TestApp, postgres_url};
use crate::imports::import;
use crate::order_payments::pre_pay;
use crate::order_rentals::{full_draft, rent_out, shop, take_back};
use crate::orders::{day, draft};
use axum::http::StatusCode;
use serde_json::Value;

both!(
    a_company_moves_to_the_other_database_unchanged,
    a_refused_move_writes_nothing,
    copies_going_in_at_once_keep_the_token_once,
);

/// A folder of the test's own.
fn folder() -> std::path::PathBuf {
    let n: u64 = rand::random();
    std::env::temp_dir().join(format!("rentrack-move-{n:016x}"))
}

/// The database a company of `kind` moves to: the other one when PostgreSQL is there.
fn other(kind: Kind) -> Kind {
    match kind {
        Kind::Postgres => Kind::Sqlite,
        Kind::Sqlite if postgres_url().is_some() => Kind::Postgres,
        Kind::Sqlite => Kind::Sqlite,
    }
}

/// A company that has done some of everything: places, groups, items with custom
/// values and stock, people, orders rented out, returned and paid, a pre-payment.
async fn seed(app: &TestApp) -> Vec<i64> {
    let s = shop(app).await;
    app.location(
        "Back shelf",
        &[("location[parent_id]", &s.store.to_string())],
    )
    .await;
    let group = app.group("Sound").await;
    app.sub_group(group, "Speakers").await;
    app.custom_field("Serial", "text", &["fixed_assets"], &[])
        .await;
    app.custom_field("Size", "dropdown", &["customers"], &["S", "L"])
        .await;
    let mic = app
        .asset(
            "Mic",
            group,
            &[
                ("cust_attr[Serial]", "SN-1"),
                ("fixed_asset[rental_price_attributes][daily]", "4"),
            ],
        )
        .await;
    // More vendors than a move reads at once, and ids past 1000 (which sort before
    // 999 as text).
    let mut vendors = String::from("name,email\n");
    for n in 0..2_100 {
        vendors.push_str(&format!("Vendor {n},v{n}@example.com\n"));
    }
    let done = import(app, "vendors", &vendors, &[]).await;
    assert_eq!(done["created"], 2_100, "{done}");
    let team = app.team("Crew").await.to_string();
    app.member(
        "Dana",
        "Lopez",
        "dana@example.com",
        &[("user[team_ids]", &team)],
    )
    .await;
    app.customer("Bo", "Big", &[("customer[custom_attributes][Size]", "L")])
        .await;
    let business = app.business("Bolt Co", &[]).await;
    app.contact("Reyes", &business.to_string(), &[]).await;
    let done = full_draft(app, &s).await;
    rent_out(
        app,
        done,
        &[("use_current_datetime", "true"), ("return_date", &day(1))],
    )
    .await
    .expect(StatusCode::OK);
    take_back(
        app,
        done,
        &[
            ("use_current_datetime", "true"),
            ("basket[cash_paid]", "20"),
        ],
    )
    .await
    .expect(StatusCode::OK);
    let waiting = draft(app, s.ann, &mic.to_string(), &[]).await;
    pre_pay(
        app,
        waiting,
        &[
            ("basket[pre_paid_amount]", "10"),
            ("basket[payment_method_name]", "cash"),
        ],
    )
    .await
    .expect(StatusCode::OK);
    vec![s.tent, s.cables, s.batteries, mic, done, waiting]
}

/// What the API shows of the company: every list, and each seeded record with its
/// history, by number (kept by a move).
fn views(numbers: &[i64]) -> Vec<String> {
    let [tent, cables, batteries, mic, done, waiting] = numbers else {
        panic!("seeded {numbers:?}");
    };
    let mut paths: Vec<String> = [
        "/company_settings.api",
        "/locations/get_line_item_locations.api",
        "/assets.api?include_custom_fields=true",
        "/inventory.api",
        "/stock_assets.api",
        "/assets/vendors.api?include_custom_fields=true",
        "/assets/vendors.api?page=84",
        "/assets/classification_view.api",
        "/groups/get_sub_groups.api",
        "/custom_fields.api",
        "/members.api?filter=status&filter_val=all&include_custom_fields=true",
        "/teams.api",
        "/customers.api?include_custom_fields=true",
        "/businesses.api",
        "/contacts.api",
        "/baskets.api",
        "/payment_options.api",
    ]
    .map(str::to_owned)
    .to_vec();
    for n in [tent, mic] {
        paths.push(format!("/assets/{n}.api?include_custom_fields=true"));
        paths.push(format!("/assets/{n}/history_paginate.api"));
    }
    paths.push(format!("/stock_assets/{cables}/history.api"));
    paths.push(format!("/inventory/{batteries}/history.api"));
    for n in [done, waiting] {
        paths.push(format!("/baskets/{n}.api"));
        paths.push(format!("/baskets/{n}/history.api"));
    }
    paths
}

/// Ids seen on each side, by the key that holds them: one id of the source is always
/// the same id of the target, and no two are one.
#[derive(Default)]
struct Ids {
    there: HashMap<(String, i64), i64>,
    back: HashMap<(String, i64), i64>,
}

impl Ids {
    fn pair(&mut self, key: &str, from: &Value, to: &Value, at: &str) {
        let (Some(a), Some(b)) = (from.as_i64(), to.as_i64()) else {
            assert_eq!(from, to, "{at}: ids of another shape");
            return;
        };
        let seen = *self.there.entry((key.to_owned(), a)).or_insert(b);
        assert_eq!(seen, b, "{at}: {key} {a} is {seen} and {b} in the target");
        let seen = *self.back.entry((key.to_owned(), b)).or_insert(a);
        assert_eq!(
            seen, a,
            "{at}: {key} {b} of the target is two ids of the source"
        );
    }
}

fn is_id(key: &str) -> bool {
    key == "id" || key.ends_with("_id") || key.ends_with("_ids")
}

/// `from` and `to` hold the same, apart from ids ([`Ids`]); `owner` is the key the
/// value is under, which names what an `id` is of.
fn same(from: &Value, to: &Value, owner: &str, at: &str, ids: &mut Ids) {
    match (from, to) {
        (Value::Object(a), Value::Object(b)) => {
            let (mut ka, mut kb): (Vec<&String>, Vec<&String>) =
                (a.keys().collect(), b.keys().collect());
            ka.sort();
            kb.sort();
            assert_eq!(ka, kb, "{at}: other keys");
            for (key, value) in a {
                let at = format!("{at}.{key}");
                if is_id(key) {
                    let family = if key == "id" {
                        format!("{owner}.id")
                    } else {
                        key.clone()
                    };
                    match (value, &b[key]) {
                        (Value::Array(x), Value::Array(y)) if x.len() == y.len() => {
                            for (x, y) in x.iter().zip(y) {
                                ids.pair(&family, x, y, &at);
                            }
                        }
                        (x, y) => ids.pair(&family, x, y, &at),
                    }
                } else {
                    same(value, &b[key], key, &at, ids);
                }
            }
        }
        (Value::Array(a), Value::Array(b)) => {
            assert_eq!(a.len(), b.len(), "{at}: another length");
            for (i, (x, y)) in a.iter().zip(b).enumerate() {
                same(x, y, owner, &format!("{at}[{i}]"), ids);
            }
        }
        (a, b) => assert_eq!(a, b, "{at}"),
    }
}

async fn a_company_moves_to_the_other_database_unchanged(kind: Kind) {
    let from = TestApp::new(kind).await;
    let numbers = seed(&from).await;
    let dir = folder();
    let manifest = web::moving::export(&from.db, &from.company, &dir)
        .await
        .expect("exports");
    assert_eq!(manifest["tables"]["orders"], 2, "{manifest}");
    assert_eq!(manifest["tables"]["payment_histories"], 2, "{manifest}");
    // Each kind an import reads, as its export gives it.
    assert_eq!(
        manifest["csv"].as_array().map(Vec::len),
        Some(11),
        "{manifest}"
    );
    let vendors = std::fs::read_to_string(dir.join("csv/vendors.csv")).expect("a CSV");
    assert_eq!(vendors.lines().count(), 2_101);
    assert_eq!(
        vendors,
        from.get("/exports/vendors.api").await.text,
        "the CSV is the export's"
    );
    // The target has a company already: every id moves.
    let target = TestApp::new(other(kind)).await;
    let written = web::moving::import(&target.db, &dir, "moved")
        .await
        .expect("imports");
    assert_eq!(written["tables"], manifest["tables"], "{written}");
    // The token moved with the company.
    assert!(written["token"].is_null(), "{written}");
    let company = store::companies::find_by_subdomain(&target.db, "moved")
        .await
        .expect("the company is there");
    assert_eq!(company.time_zone, from.company.time_zone);
    // The token moved with it.
    let to = TestApp {
        db: target.db.clone(),
        db_url: target.db_url.clone(),
        router: target.router.clone(),
        token: from.token.clone(),
        company,
    };
    let mut ids = Ids::default();
    for path in views(&numbers) {
        let mut a = from.get(&path).await.into_body(StatusCode::OK);
        let b = to.get(&path).await.into_body(StatusCode::OK);
        if let Some(settings) = a.get_mut("company_settings") {
            // What the move was asked to change.
            settings["subdomain"] = "moved".into();
        }
        same(&a, &b, "", &path, &mut ids);
    }
    // The other company of the target is untouched, and the same export goes in
    // again under another name.
    assert_eq!(
        target.get("/baskets.api").await.into_body(StatusCode::OK)["baskets"],
        Value::Array(vec![])
    );
    // Beside itself, a copy gets a token of its own: the first keeps the export's.
    let again = web::moving::import(&target.db, &dir, "moved-again")
        .await
        .expect("imports again");
    let token = again["token"].as_str().expect("a new token").to_owned();
    let copy = TestApp {
        token,
        company: store::companies::find_by_subdomain(&target.db, "moved-again")
            .await
            .expect("the copy is there"),
        ..to
    };
    let path = format!("/baskets/{}.api", numbers[4]);
    let mine = copy.get(&path).await.into_body(StatusCode::OK);
    let theirs = from.get(&path).await.into_body(StatusCode::OK);
    same(&theirs, &mine, "", &path, &mut Ids::default());
    let _ = std::fs::remove_dir_all(&dir);
}

async fn a_refused_move_writes_nothing(kind: Kind) {
    let from = TestApp::new(kind).await;
    seed(&from).await;
    let dir = folder();
    web::moving::export(&from.db, &from.company, &dir)
        .await
        .expect("exports");
    // Into a folder not empty: refused.
    let twice = web::moving::export(&from.db, &from.company, &dir).await;
    assert!(twice.unwrap_err().to_string().contains("not empty"));
    let target = TestApp::new(other(kind)).await;
    let count =
        |db: store::Db| async move { store::companies::list(&db).await.expect("lists").len() };
    let before = count(target.db.clone()).await;
    // A subdomain taken.
    let taken = web::moving::import(&target.db, &dir, &target.company.subdomain).await;
    assert!(taken.unwrap_err().to_string().contains("is taken"));
    // A table cut short: the rows before it are not kept either.
    let items = dir.join("tables").join("order_line_items.jsonl");
    let text = std::fs::read_to_string(&items).unwrap();
    let first = text.lines().next().unwrap().to_owned();
    std::fs::write(&items, format!("{first}\n")).unwrap();
    let cut = web::moving::import(&target.db, &dir, "cut").await;
    assert!(
        cut.unwrap_err()
            .to_string()
            .contains("order_line_items.jsonl holds 1 rows")
    );
    // A line that is no JSON.
    std::fs::write(&items, "{\n").unwrap();
    let broken = web::moving::import(&target.db, &dir, "broken").await;
    assert!(
        broken
            .unwrap_err()
            .to_string()
            .contains("not a JSON object")
    );
    // Another schema.
    let manifest = dir.join("manifest.json");
    let mut m: Value = serde_json::from_slice(&std::fs::read(&manifest).unwrap()).unwrap();
    m["schema"] = 1.into();
    std::fs::write(&manifest, m.to_string()).unwrap();
    let old = web::moving::import(&target.db, &dir, "old").await;
    assert!(
        old.unwrap_err()
            .to_string()
            .contains("same version of rentrack")
    );
    assert_eq!(count(target.db.clone()).await, before);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Copies of one export imported at once into a database where its token is free: one
/// keeps the token, every other gets a new one of its own, none fails (on PostgreSQL
/// each found the token free and all but the first failed on the unique key).
async fn copies_going_in_at_once_keep_the_token_once(kind: Kind) {
    let from = TestApp::new(kind).await;
    let group = from.group("Sound").await;
    from.asset("Mic", group, &[]).await;
    let dir = folder();
    web::moving::export(&from.db, &from.company, &dir)
        .await
        .expect("exports");
    let target = TestApp::new(other(kind)).await;
    let copies = (0..6).map(|i| {
        let (db, dir) = (target.db.clone(), dir.clone());
        tokio::spawn(async move { web::moving::import(&db, &dir, &format!("copy{i}")).await })
    });
    let mut tokens = Vec::new();
    for (i, copy) in futures_util::future::join_all(copies)
        .await
        .into_iter()
        .enumerate()
    {
        let written = copy.expect("runs").expect("imports");
        tokens.push((i, written["token"].as_str().map(str::to_owned)));
    }
    let kept = tokens.iter().filter(|(_, t)| t.is_none()).count();
    // The export's token is free in the target (a database of its own): one keeps it.
    assert_eq!(kept, 1, "{tokens:?}");
    let mut seen = std::collections::HashSet::new();
    for (i, token) in tokens {
        let Some(token) = token else { continue };
        assert!(seen.insert(token.clone()), "each new token its own");
        let copy = TestApp {
            db: target.db.clone(),
            db_url: target.db_url.clone(),
            router: target.router.clone(),
            token,
            company: store::companies::find_by_subdomain(&target.db, &format!("copy{i}"))
                .await
                .expect("the copy is there"),
        };
        let assets = copy.get("/assets.api").await.into_body(StatusCode::OK);
        assert_eq!(assets["assets"][0]["name"], "Mic", "{assets}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
