use crate::common::{Kind, TestApp, assert_documented};
use axum::http::{Method, StatusCode};
use serde_json::Value;
use store::checkouts::{self, Checkout, MemberRef};

both!(
    request_makes_a_pending_verification_once,
    request_on_an_available_asset_is_refused,
    verify_without_response_is_verified_and_keeps_condition_and_notes,
    verify_closes_the_pending_request,
    verify_refuses_bad_input_and_changes_nothing,
    verify_or_cancel_by_someone_else_is_refused,
    cancel_needs_a_pending_request,
    cancel_by_put_and_patch,
    mass_forms_are_all_or_nothing,
    mass_forms_write_every_asset,
    verification_status_of_several_assets,
    another_company_sees_no_asset,
    simultaneous_requests_make_one_verification,
    a_check_in_cancels_the_pending_request_and_a_refused_one_keeps_it,
);

/// A fixed asset of the company (in a group of its own), not checked out; returns its
/// number.
async fn asset(app: &TestApp) -> i64 {
    static GROUPS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
    let n = GROUPS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let group = app.group(&format!("Cameras {n}")).await;
    store::items::record(
        &app.db,
        app.company.id,
        "FixedAsset",
        "Camera",
        store::Id::new(group),
        None,
    )
    .await
    .expect("asset recorded")
}

/// A fixed asset checked out to `member`; returns its number.
async fn out_to(app: &TestApp, member: i64) -> i64 {
    let number = asset(app).await;
    checkouts::check_out(
        &app.db,
        app.company.id,
        store::Number::new(number),
        Checkout {
            member: MemberRef::Id(store::Id::new(member)),
            due: None,
            location: None,
            comments: None,
            values: Default::default(),
            override_conflicting: false,
            override_mine: true,
        },
        &store::items::Clock::new(chrono::Utc::now(), chrono_tz::UTC),
    )
    .await
    .expect("checked out");
    number
}

async fn jane(app: &TestApp) -> i64 {
    app.member("Jane", "Doe", "jane@example.test", &[]).await
}

async fn john(app: &TestApp) -> i64 {
    app.member("John", "Roe", "john@example.test", &[]).await
}

/// The `verification_status` entries of `seqs`.
async fn statuses(app: &TestApp, seqs: &str) -> Vec<Value> {
    let res = app
        .get(&format!("/assets/verification_status.api?seqs={seqs}"))
        .await;
    assert_documented(
        "/assets/verification_status.api",
        "get",
        res.expect(StatusCode::OK),
    );
    res.expect(StatusCode::OK)["verification_status"]
        .as_array()
        .expect("list")
        .clone()
}

async fn status_of(app: &TestApp, number: i64) -> Value {
    statuses(app, &number.to_string()).await.remove(0)
}

/// The actions of the asset's history, oldest first.
async fn history(app: &TestApp, number: i64) -> Vec<String> {
    entries(app, number)
        .await
        .into_iter()
        .map(|e| e.action)
        .collect()
}

/// The asset's history, oldest first.
async fn entries(app: &TestApp, number: i64) -> Vec<store::change_log::Entry> {
    let today = store::items::Today(chrono::Utc::now().date_naive());
    let item = store::items::find(&app.db, app.company.id, store::Number::new(number), today)
        .await
        .expect("asset");
    store::change_log::for_subject(&app.db, app.company.id, "item", item.item.id)
        .await
        .expect("history")
}

fn request_path(n: i64) -> String {
    format!("/assets/{n}/verification_requests.api")
}

fn verify_path(n: i64) -> String {
    format!("/assets/{n}/verify_possession.api")
}

fn cancel_path(n: i64) -> String {
    format!("/assets/{n}/cancel_verification.api")
}

async fn request_makes_a_pending_verification_once(kind: Kind) {
    let app = TestApp::new(kind).await;
    let member = jane(&app).await;
    let n = out_to(&app, member).await;
    let res = app
        .post(&request_path(n), &[("audit[notes]", "Quarterly audit")])
        .await;
    assert_documented(
        "/assets/{sequence_num}/verification_requests.api",
        "post",
        res.expect(StatusCode::OK),
    );
    let v = res.expect(StatusCode::OK)["verification"].clone();
    assert!(v["id"].as_i64().is_some(), "{v}");
    assert_eq!(v["sequence_num"], n);
    assert_eq!(v["status"], "pending");
    assert_eq!(v["user_id"], member);
    assert_eq!(v["notes"], "Quarterly audit");
    assert_eq!(v["response"], Value::Null);
    assert_eq!(v["responded_at"], Value::Null);
    let requested = v["requested_at"].as_str().expect("requested_at");
    assert_eq!(requested.len(), "2024-01-01 00:00:00".len(), "{requested}");
    assert!(
        history(&app, n)
            .await
            .contains(&"verification_requested".to_owned())
    );

    let again = app.post(&request_path(n), &[]).await;
    again.expect(StatusCode::CONFLICT);
    assert_eq!(
        again.body["message"],
        format!(
            "Asset #{n} already has a pending verification request; wait for the answer or cancel it first."
        )
    );
    let s = status_of(&app, n).await;
    assert_eq!(s["status"], "pending");
    assert_eq!(s["id"], v["id"]);
}

async fn request_on_an_available_asset_is_refused(kind: Kind) {
    let app = TestApp::new(kind).await;
    let n = asset(&app).await;
    for path in [request_path(n), verify_path(n)] {
        let res = app.post(&path, &[]).await;
        res.expect(StatusCode::CONFLICT);
        assert_eq!(
            res.body["message"],
            format!("Asset #{n} is not checked out (it is available, in service or retired).")
        );
    }
    assert_eq!(status_of(&app, n).await["status"], Value::Null);
    // An item that is not a fixed asset is refused too.
    let group = app.group("Paper").await;
    let stock = store::items::record(
        &app.db,
        app.company.id,
        "VolatileAsset",
        "Paper",
        store::Id::new(group),
        None,
    )
    .await
    .unwrap();
    let res = app.post(&request_path(stock), &[]).await;
    res.expect(StatusCode::CONFLICT);
    assert!(
        res.body["message"]
            .as_str()
            .unwrap()
            .contains("not a fixed asset"),
        "{}",
        res.text
    );
}

async fn verify_without_response_is_verified_and_keeps_condition_and_notes(kind: Kind) {
    let app = TestApp::new(kind).await;
    let member = jane(&app).await;
    let n = out_to(&app, member).await;
    let res = app
        .post(
            &verify_path(n),
            &[
                ("audit[condition]", "Scratched lens"),
                ("audit[notes]", "Seen at the desk"),
            ],
        )
        .await;
    assert_documented(
        "/assets/{sequence_num}/verify_possession.api",
        "post",
        res.expect(StatusCode::OK),
    );
    let v = res.expect(StatusCode::OK)["verification"].clone();
    assert_eq!(v["status"], "verified");
    assert_eq!(v["response"], "Verified");
    assert_eq!(v["condition"], "Scratched lens");
    assert_eq!(v["notes"], "Seen at the desk");
    assert_eq!(v["user_id"], member);
    assert_eq!(v["requested_at"], Value::Null);
    assert!(v["responded_at"].is_string(), "{v}");
    assert_eq!(status_of(&app, n).await, v);
    assert!(history(&app, n).await.contains(&"verified".to_owned()));

    // Typed in any case, underscores for spaces, with the custodian named.
    let res = app
        .post(
            &verify_path(n),
            &[
                ("audit[response]", "not_in_POSSESSION"),
                ("user_id", &member.to_string()),
            ],
        )
        .await;
    let again = res.expect(StatusCode::OK)["verification"].clone();
    assert_eq!(again["response"], "Not in possession");
    assert_ne!(again["id"], v["id"]);
}

async fn verify_closes_the_pending_request(kind: Kind) {
    let app = TestApp::new(kind).await;
    let member = jane(&app).await;
    let n = out_to(&app, member).await;
    let requested = app
        .post(&request_path(n), &[("audit[notes]", "Please check")])
        .await
        .expect(StatusCode::OK)["verification"]
        .clone();
    let res = app
        .post(
            &verify_path(n),
            &[
                ("audit[response]", "Damaged"),
                ("audit[condition]", "Cracked"),
            ],
        )
        .await;
    let v = res.expect(StatusCode::OK)["verification"].clone();
    assert_eq!(v["id"], requested["id"]);
    assert_eq!(v["status"], "verified");
    assert_eq!(v["response"], "Damaged");
    assert_eq!(v["condition"], "Cracked");
    // Notes left out keep the request's.
    assert_eq!(v["notes"], "Please check");
    assert_eq!(v["requested_at"], requested["requested_at"]);
    assert!(v["responded_at"].is_string());
    // Nothing pending any more: a new request is allowed, a cancel is not.
    app.put(&cancel_path(n), &[])
        .await
        .expect(StatusCode::CONFLICT);
    app.post(&request_path(n), &[]).await.expect(StatusCode::OK);
}

async fn verify_refuses_bad_input_and_changes_nothing(kind: Kind) {
    let app = TestApp::new(kind).await;
    let member = jane(&app).await;
    let n = out_to(&app, member).await;
    app.post(&request_path(n), &[]).await.expect(StatusCode::OK);
    let res = app
        .post(
            &verify_path(n),
            &[("audit[response]", "Maybe"), ("user_id", "abc")],
        )
        .await;
    res.expect_invalid("response");
    res.expect_invalid("user_id");
    let problem = res.body["errors"]["response"][0].as_str().unwrap();
    for word in [
        "Verified",
        "Not in possession",
        "Damaged",
        "Lost",
        "\"Maybe\"",
    ] {
        assert!(problem.contains(word), "{word} missing: {problem}");
    }
    let s = status_of(&app, n).await;
    assert_eq!(s["status"], "pending");
    assert_eq!(s["response"], Value::Null);
    assert!(!history(&app, n).await.contains(&"verified".to_owned()));
}

async fn verify_or_cancel_by_someone_else_is_refused(kind: Kind) {
    let app = TestApp::new(kind).await;
    let member = jane(&app).await;
    let other = john(&app).await;
    let n = out_to(&app, member).await;
    app.post(&request_path(n), &[]).await.expect(StatusCode::OK);
    let other_id = other.to_string();
    let res = app
        .post(&verify_path(n), &[("user_id", other_id.as_str())])
        .await;
    res.expect_invalid("user_id");
    assert_eq!(
        res.body["errors"]["user_id"][0],
        format!(
            "is not the custodian of asset #{n}: member {other} was given, asset #{n} is held by Jane Doe (member {member})"
        )
    );
    let res = app
        .put(&cancel_path(n), &[("user_id", other_id.as_str())])
        .await;
    res.expect_invalid("user_id");
    assert_eq!(status_of(&app, n).await["status"], "pending");
}

async fn cancel_needs_a_pending_request(kind: Kind) {
    let app = TestApp::new(kind).await;
    let member = jane(&app).await;
    let n = out_to(&app, member).await;
    let res = app.put(&cancel_path(n), &[]).await;
    res.expect(StatusCode::CONFLICT);
    assert_eq!(
        res.body["message"],
        format!("Asset #{n} has no pending verification request to cancel.")
    );
    // A verified one is not pending either.
    app.post(&verify_path(n), &[]).await.expect(StatusCode::OK);
    app.patch(&cancel_path(n), &[])
        .await
        .expect(StatusCode::CONFLICT);
    assert_eq!(status_of(&app, n).await["status"], "verified");
}

async fn cancel_by_put_and_patch(kind: Kind) {
    let app = TestApp::new(kind).await;
    let member = jane(&app).await;
    let n = out_to(&app, member).await;
    for method in [Method::PUT, Method::PATCH] {
        let requested =
            app.post(&request_path(n), &[]).await.expect(StatusCode::OK)["verification"].clone();
        let res = app
            .req(method.clone(), &cancel_path(n))
            .form(&[("user_id", &member.to_string())])
            .send()
            .await;
        let v = res.expect(StatusCode::OK)["verification"].clone();
        assert_documented(
            "/assets/{sequence_num}/cancel_verification.api",
            &method.as_str().to_lowercase(),
            res.expect(StatusCode::OK),
        );
        assert_eq!(v["id"], requested["id"], "{method}");
        assert_eq!(v["status"], "cancelled");
        assert_eq!(v["responded_at"], Value::Null);
        assert_eq!(status_of(&app, n).await["status"], "cancelled");
    }
    assert!(
        history(&app, n)
            .await
            .contains(&"verification_cancelled".to_owned())
    );
}

async fn mass_forms_are_all_or_nothing(kind: Kind) {
    let app = TestApp::new(kind).await;
    let member = jane(&app).await;
    let a = out_to(&app, member).await;
    let b = out_to(&app, member).await;
    let free = asset(&app).await;
    let seqs = format!("{a},999,{b},998");

    // Unknown numbers: a 422 naming each, nothing recorded.
    let res = app
        .post("/assets/mass_verification_requests.api", &[("seqs", &seqs)])
        .await;
    res.expect_invalid("seqs");
    assert_eq!(
        res.body["errors"]["seqs"][0],
        "has no asset numbered 998, 999 in this company"
    );
    let res = app
        .post("/assets/mass_verify_possessions.api", &[("seqs", &seqs)])
        .await;
    res.expect_invalid("seqs");
    let res = app
        .patch("/assets/mass_cancel_verifications.api", &[("seqs", &seqs)])
        .await;
    res.expect_invalid("seqs");
    for s in statuses(&app, &format!("{a},{b}")).await {
        assert_eq!(s["status"], Value::Null, "{s}");
    }

    // One asset refuses: its 409, and the others get nothing either.
    let res = app
        .post(
            "/assets/mass_verification_requests.api",
            &[("seqs", &format!("{a},{free},{b}"))],
        )
        .await;
    res.expect(StatusCode::CONFLICT);
    assert_eq!(
        res.body["message"],
        format!("Asset #{free} is not checked out (it is available, in service or retired).")
    );
    for s in statuses(&app, &format!("{a},{b}")).await {
        assert_eq!(s["status"], Value::Null, "{s}");
    }
    app.post(&request_path(b), &[]).await.expect(StatusCode::OK);
    let res = app
        .post(
            "/assets/mass_verification_requests.api",
            &[("seqs", &format!("{a},{b}"))],
        )
        .await;
    res.expect(StatusCode::CONFLICT);
    assert_eq!(
        res.body["message"],
        format!(
            "Asset #{b} already has a pending verification request; wait for the answer or cancel it first."
        )
    );
    assert_eq!(status_of(&app, a).await["status"], Value::Null);
    // Cancelling both: a has none pending, so b stays pending.
    let res = app
        .put(
            "/assets/mass_cancel_verifications.api",
            &[("seqs", &format!("{b},{a}"))],
        )
        .await;
    res.expect(StatusCode::CONFLICT);
    assert_eq!(
        res.body["message"],
        format!("Asset #{a} has no pending verification request to cancel.")
    );
    assert_eq!(status_of(&app, b).await["status"], "pending");
    // Verifying with a response nobody knows, or without seqs: one 422 naming both.
    let res = app
        .post(
            "/assets/mass_verify_possessions.api",
            &[("audit[response]", "Gone")],
        )
        .await;
    res.expect_invalid("seqs");
    res.expect_invalid("response");
}

async fn mass_forms_write_every_asset(kind: Kind) {
    let app = TestApp::new(kind).await;
    let member = jane(&app).await;
    let other = john(&app).await;
    let a = out_to(&app, member).await;
    let b = out_to(&app, member).await;
    let c = out_to(&app, other).await;
    let seqs = format!("{b},{a},{b}");
    let res = app
        .post(
            "/assets/mass_verification_requests.api",
            &[("seqs", &seqs), ("audit[notes]", "Year end")],
        )
        .await;
    assert_documented(
        "/assets/mass_verification_requests.api",
        "post",
        res.expect(StatusCode::OK),
    );
    let assets = res.expect(StatusCode::OK)["assets"]
        .as_array()
        .unwrap()
        .clone();
    let numbers: Vec<i64> = assets
        .iter()
        .map(|v| v["sequence_num"].as_i64().unwrap())
        .collect();
    assert_eq!(numbers, [b, a], "repeats dropped, order kept");
    for v in &assets {
        assert_eq!(v["status"], "pending");
        assert_eq!(v["notes"], "Year end");
        assert_eq!(v["user_id"], member);
    }
    // Jane cannot answer for John's asset: the 422 names its holder.
    let res = app
        .post(
            "/assets/mass_verify_possessions.api",
            &[
                ("seqs", &format!("{a},{c}")),
                ("user_id", &member.to_string()),
            ],
        )
        .await;
    res.expect_invalid("user_id");
    assert!(
        res.body["errors"]["user_id"][0]
            .as_str()
            .unwrap()
            .contains(&format!("John Roe (member {other})")),
        "{}",
        res.text
    );
    let res = app
        .post(
            "/assets/mass_verify_possessions.api",
            &[
                ("seqs", &format!("{a},{c}")),
                ("audit[response]", "lost"),
                ("audit[condition]", "unknown"),
            ],
        )
        .await;
    assert_documented(
        "/assets/mass_verify_possessions.api",
        "post",
        res.expect(StatusCode::OK),
    );
    let assets = res.expect(StatusCode::OK)["assets"]
        .as_array()
        .unwrap()
        .clone();
    assert_eq!(assets.len(), 2);
    assert_eq!(assets[0]["sequence_num"], a);
    assert_eq!(assets[0]["status"], "verified");
    assert_eq!(assets[0]["response"], "Lost");
    assert_eq!(assets[0]["notes"], "Year end");
    assert!(assets[0]["requested_at"].is_string());
    assert_eq!(assets[1]["sequence_num"], c);
    assert_eq!(assets[1]["user_id"], other);
    assert_eq!(assets[1]["requested_at"], Value::Null);
    let res = app
        .patch(
            "/assets/mass_cancel_verifications.api",
            &[("seqs", &b.to_string()), ("user_id", &member.to_string())],
        )
        .await;
    assert_documented(
        "/assets/mass_cancel_verifications.api",
        "patch",
        res.expect(StatusCode::OK),
    );
    let assets = res.expect(StatusCode::OK)["assets"]
        .as_array()
        .unwrap()
        .clone();
    assert_eq!(assets[0]["status"], "cancelled");
    let all = statuses(&app, &format!("{a},{b},{c}")).await;
    let words: Vec<&str> = all.iter().map(|s| s["status"].as_str().unwrap()).collect();
    assert_eq!(words, ["verified", "cancelled", "verified"]);
}

async fn verification_status_of_several_assets(kind: Kind) {
    let app = TestApp::new(kind).await;
    let member = jane(&app).await;
    let pending = out_to(&app, member).await;
    let never = asset(&app).await;
    let verified = out_to(&app, member).await;
    app.post(&request_path(pending), &[("audit[notes]", "first")])
        .await
        .expect(StatusCode::OK);
    app.post(&verify_path(verified), &[("audit[response]", "Lost")])
        .await
        .expect(StatusCode::OK);
    // The last one counts: request, cancel, then verify.
    app.post(&request_path(verified), &[])
        .await
        .expect(StatusCode::OK);
    app.put(&cancel_path(verified), &[])
        .await
        .expect(StatusCode::OK);
    let all = statuses(&app, &format!("{verified},%20{never},{pending}")).await;
    assert_eq!(all.len(), 3);
    assert_eq!(all[0]["sequence_num"], verified);
    assert_eq!(all[0]["status"], "cancelled");
    assert_eq!(all[1]["sequence_num"], never);
    for key in [
        "status",
        "response",
        "condition",
        "notes",
        "user_id",
        "requested_at",
        "responded_at",
    ] {
        assert_eq!(all[1][key], Value::Null, "{key}");
    }
    assert_eq!(all[2]["status"], "pending");
    assert_eq!(all[2]["notes"], "first");
    assert_eq!(all[2]["user_id"], member);

    let res = app
        .get(&format!(
            "/assets/verification_status.api?seqs={pending},77,abc"
        ))
        .await;
    res.expect_invalid("seqs");
    let res = app
        .get(&format!(
            "/assets/verification_status.api?seqs={pending},77"
        ))
        .await;
    res.expect_invalid("seqs");
    assert_eq!(
        res.body["errors"]["seqs"][0],
        "has no asset numbered 77 in this company"
    );
    app.get("/assets/verification_status.api")
        .await
        .expect_invalid("seqs");
    let too_many: Vec<String> = (1..=1001).map(|n| n.to_string()).collect();
    app.get(&format!(
        "/assets/verification_status.api?seqs={}",
        too_many.join(",")
    ))
    .await
    .expect_invalid("seqs");
}

async fn another_company_sees_no_asset(kind: Kind) {
    let app = TestApp::new(kind).await;
    let theirs = TestApp::builder(kind).beside(&app).build().await;
    let member = theirs
        .member("Theo", "Their", "theo@example.test", &[])
        .await;
    let n = out_to(&theirs, member).await;
    theirs
        .post(&request_path(n), &[])
        .await
        .expect(StatusCode::OK);
    let no_such = "No such asset in this company. Check the asset number (sequence_num).";
    for (method, path) in [
        (Method::POST, request_path(n)),
        (Method::POST, verify_path(n)),
        (Method::PUT, cancel_path(n)),
        (Method::PATCH, cancel_path(n)),
        (Method::POST, request_path(424242)),
        (Method::POST, "/assets/abc/verify_possession.api".to_owned()),
    ] {
        let res = app.req(method.clone(), &path).send().await;
        res.expect(StatusCode::NOT_FOUND);
        assert_eq!(res.body["message"], no_such, "{method} {path}");
    }
    // Their numbers are unknown here: the mass forms and the status name them.
    let seqs = n.to_string();
    for (method, path) in [
        (Method::POST, "/assets/mass_verification_requests.api"),
        (Method::POST, "/assets/mass_verify_possessions.api"),
        (Method::PUT, "/assets/mass_cancel_verifications.api"),
        (Method::GET, "/assets/verification_status.api"),
    ] {
        let res = app
            .req(method.clone(), &format!("{path}?seqs={seqs}"))
            .send()
            .await;
        res.expect_invalid("seqs");
    }
    assert_eq!(status_of(&theirs, n).await["status"], "pending");
}

async fn simultaneous_requests_make_one_verification(kind: Kind) {
    let app = TestApp::new(kind).await;
    let member = jane(&app).await;
    let n = out_to(&app, member).await;
    let path = request_path(n);
    let requests = (0..20).map(|_| app.post(&path, &[]));
    let results = futures_util::future::join_all(requests).await;
    let ok = results
        .iter()
        .filter(|r| r.status == StatusCode::OK)
        .count();
    let conflicts = results
        .iter()
        .filter(|r| r.status == StatusCode::CONFLICT)
        .count();
    assert_eq!(
        (ok, conflicts),
        (1, 19),
        "{:?}",
        results.iter().map(|r| &r.text).collect::<Vec<_>>()
    );
    let requested = history(&app, n)
        .await
        .into_iter()
        .filter(|a| a == "verification_requested")
        .count();
    assert_eq!(requested, 1);
}

/// The check-in cancels a pending request in its lock's round trip (PostgreSQL): a
/// check-in refused after it (an unknown location) leaves the request pending.
async fn a_check_in_cancels_the_pending_request_and_a_refused_one_keeps_it(kind: Kind) {
    let app = TestApp::new(kind).await;
    let member = jane(&app).await;
    let n = out_to(&app, member).await;
    let other = out_to(&app, member).await;
    for asset in [n, other] {
        app.post(&request_path(asset), &[])
            .await
            .expect(StatusCode::OK);
    }
    let refused = app
        .put(
            &format!("/assets/{n}/checkin.api"),
            &[("checkin_values[location_id]", "987654")],
        )
        .await;
    refused.expect(StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(status_of(&app, n).await["status"], "pending");
    assert_eq!(status_of(&app, other).await["status"], "pending");
    let back = app.put(&format!("/assets/{n}/checkin.api"), &[]).await;
    assert_eq!(back.expect(StatusCode::OK)["asset"]["state"], "available");
    assert_eq!(status_of(&app, n).await["status"], "cancelled");
    assert_eq!(status_of(&app, other).await["status"], "pending");
    let entries = entries(&app, n).await;
    let checked_in = entries
        .iter()
        .find(|e| e.action == "checked_in")
        .expect("a check-in in the history");
    let details: Value = serde_json::from_str(&checked_in.details).expect("details");
    assert_eq!(details["verifications_cancelled"], 1, "{details}");
}
