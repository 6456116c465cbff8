//! Reservation requests: create, decide, lists, reserved and booked dates, and how
//! approved reservations meet check-outs.

use crate::common::{Kind, TestApp, assert_documented};
use axum::http::StatusCode;
use futures_util::future::join_all;
use serde_json::json;

both!(
    request_approve_deny_and_list,
    requests_are_validated,
    approved_reservations_never_overlap_however_approvals_race,
    an_approved_reservation_blocks_a_checkout_unless_overridden,
    the_reserver_checking_out_fulfils_the_reservation,
    reserved_assets_cannot_be_deleted,
    checkout_requests_filter_by_start_date,
);

/// A date `days` from now, mm/dd/yyyy (UTC, the test company's zone).
fn day(days: i64) -> String {
    (chrono::Utc::now().date_naive() + chrono::Duration::days(days))
        .format("%m/%d/%Y")
        .to_string()
}

async fn request(app: &TestApp, n: i64, member: i64, from: i64, to: i64) -> crate::common::Res {
    let m = member.to_string();
    app.post(
        &format!("/assets/{n}/reservation_requests.api"),
        &[
            ("reservation_request[from]", &day(from)),
            ("reservation_request[to]", &day(to)),
            ("reservation_request[note]", "shoot"),
            ("user[id]", &m),
        ],
    )
    .await
}

async fn request_id(app: &TestApp, n: i64, member: i64, from: i64, to: i64) -> i64 {
    request(app, n, member, from, to)
        .await
        .into_body(StatusCode::OK)["reservation_request"]["id"]
        .as_i64()
        .unwrap()
}

async fn decide(app: &TestApp, n: i64, id: i64, action: &str) -> crate::common::Res {
    app.put(
        &format!("/assets/{n}/reservation_requests/{id}/update_status.api"),
        &[("request_action", action)],
    )
    .await
}

async fn setup(kind: Kind) -> (TestApp, i64, i64, i64) {
    let app = TestApp::new(kind).await;
    let group = app.group("Cameras").await;
    let n = app.asset("Camera", group, &[]).await;
    let ann = app.member("Ann", "Tester", "ann@example.com", &[]).await;
    let bob = app.member("Bob", "Tester", "bob@example.com", &[]).await;
    (app, n, ann, bob)
}

async fn request_approve_deny_and_list(kind: Kind) {
    let (app, n, ann, bob) = setup(kind).await;
    let res = request(&app, n, ann, 2, 4).await;
    let created = res.into_body(StatusCode::OK);
    assert_documented(
        "/assets/{sequence_num}/reservation_requests.api",
        "post",
        &created,
    );
    let r = created["reservation_request"].clone();
    assert_eq!(r["status"], "pending");
    assert_eq!(r["user_full_name"], "Ann Tester");
    let a = r["id"].as_i64().unwrap();
    let b = request_id(&app, n, bob, 10, 12).await;
    let approved = decide(&app, n, a, "approve_request")
        .await
        .into_body(StatusCode::OK);
    assert_eq!(approved["reservation_request"]["status"], "approved");
    assert_documented(
        "/assets/{sequence_num}/reservation_requests/{id}/update_status.api",
        "put",
        &approved,
    );
    let again = decide(&app, n, a, "approve_request").await;
    assert_eq!(
        again.into_body(StatusCode::CONFLICT)["message"],
        format!(
            "Reservation request {a} is approved; approve_request applies only to pending requests."
        )
    );
    let denied = decide(&app, n, b, "deny").await.into_body(StatusCode::OK);
    assert_eq!(denied["reservation_request"]["status"], "denied");
    decide(&app, n, b, "maybe")
        .await
        .into_body(StatusCode::UNPROCESSABLE_ENTITY);
    decide(&app, n, 9999, "deny")
        .await
        .into_body(StatusCode::NOT_FOUND);
    let all = app
        .get(&format!("/assets/{n}/reservation_requests.api"))
        .await
        .into_body(StatusCode::OK);
    assert_eq!(all["reservation_requests"].as_array().unwrap().len(), 2);
    assert_documented(
        "/assets/{sequence_num}/reservation_requests.api",
        "get",
        &all,
    );
    let approved = app
        .get(&format!(
            "/assets/{n}/reservation_requests.api?status=approved"
        ))
        .await
        .into_body(StatusCode::OK);
    assert_eq!(
        approved["reservation_requests"].as_array().unwrap().len(),
        1
    );
    let bobs = app
        .get(&format!(
            "/assets/{n}/reservation_requests.api?user_id={bob}&status=all"
        ))
        .await
        .into_body(StatusCode::OK);
    assert_eq!(bobs["reservation_requests"][0]["status"], "denied");
    app.get(&format!("/assets/{n}/reservation_requests.api?status=lost"))
        .await
        .into_body(StatusCode::UNPROCESSABLE_ENTITY);
    let mine = app
        .get(&format!("/members/{ann}/reservation_requests.api"))
        .await
        .into_body(StatusCode::OK);
    assert_eq!(mine["reservation_requests"].as_array().unwrap().len(), 1);
    assert_documented("/members/{id}/reservation_requests.api", "get", &mine);
    let reserved = app
        .get(&format!("/assets/{n}/reserved_dates.api"))
        .await
        .into_body(StatusCode::OK);
    assert_eq!(reserved["reserved_dates"].as_array().unwrap().len(), 1);
    assert_documented(
        "/assets/{sequence_num}/reserved_dates.api",
        "get",
        &reserved,
    );
    let filtered = app
        .get("/assets/filter.api?status=reserved")
        .await
        .into_body(StatusCode::OK);
    assert_eq!(filtered["assets"].as_array().unwrap().len(), 1);
    let history = app
        .get(&format!("/assets/{n}/history_paginate.api"))
        .await
        .into_body(StatusCode::OK);
    assert_eq!(history["history"][0]["action"], "reservation_denied");
}

async fn requests_are_validated(kind: Kind) {
    let (app, n, ann, _) = setup(kind).await;
    let res = app
        .post(&format!("/assets/{n}/reservation_requests.api"), &[])
        .await;
    let errors = res.into_body(StatusCode::UNPROCESSABLE_ENTITY)["errors"].clone();
    assert!(errors["from"].is_array() && errors["to"].is_array() && errors["user[id]"].is_array());
    request(&app, n, ann, 5, 3)
        .await
        .into_body(StatusCode::UNPROCESSABLE_ENTITY);
    request(&app, n, ann, -2, 3)
        .await
        .into_body(StatusCode::UNPROCESSABLE_ENTITY);
    request(&app, n, 9999, 1, 3)
        .await
        .into_body(StatusCode::UNPROCESSABLE_ENTITY);
    let list = app
        .get(&format!("/assets/{n}/reservation_requests.api"))
        .await
        .into_body(StatusCode::OK);
    assert_eq!(list["total_pages"], 0);
}

async fn approved_reservations_never_overlap_however_approvals_race(kind: Kind) {
    let (app, n, ann, bob) = setup(kind).await;
    // Twenty overlapping requests, approved all at once: exactly one is approved.
    let mut ids = Vec::new();
    for i in 0..20 {
        let who = if i % 2 == 0 { ann } else { bob };
        ids.push(request_id(&app, n, who, 3 + (i % 3), 6 + (i % 4)).await);
    }
    let results = join_all(ids.iter().map(|id| decide(&app, n, *id, "approve_request"))).await;
    let ok = results
        .iter()
        .filter(|r| r.status == StatusCode::OK)
        .count();
    assert_eq!(
        ok,
        1,
        "{:?}",
        results.iter().map(|r| r.status).collect::<Vec<_>>()
    );
    assert!(
        results
            .iter()
            .all(|r| r.status == StatusCode::OK || r.status == StatusCode::CONFLICT)
    );
    let approved = app
        .get(&format!(
            "/assets/{n}/reservation_requests.api?status=approved"
        ))
        .await
        .into_body(StatusCode::OK);
    assert_eq!(
        approved["reservation_requests"].as_array().unwrap().len(),
        1
    );
    // A request that touches the approved one only on another day is fine.
    let later = request_id(&app, n, bob, 30, 31).await;
    decide(&app, n, later, "approve_request")
        .await
        .into_body(StatusCode::OK);
}

async fn an_approved_reservation_blocks_a_checkout_unless_overridden(kind: Kind) {
    let (app, n, ann, bob) = setup(kind).await;
    let r = request_id(&app, n, ann, 0, 2).await;
    decide(&app, n, r, "approve_request")
        .await
        .into_body(StatusCode::OK);
    let read = app
        .get(&format!("/assets/{n}.api"))
        .await
        .into_body(StatusCode::OK);
    assert_eq!(read["asset"]["state"], "reserved");
    // A page reads it per row once the company has a reservation covering today; an
    // asset without one stays available.
    let group = app.group("Lenses").await;
    let other = app.asset("Lens", group, &[]).await;
    let page = app.get("/assets.api").await.into_body(StatusCode::OK);
    let state_of = |number: i64| {
        page["assets"]
            .as_array()
            .unwrap()
            .iter()
            .find(|a| a["sequence_num"] == number)
            .map(|a| a["state"].clone())
    };
    assert_eq!(state_of(n), Some(json!("reserved")));
    assert_eq!(state_of(other), Some(json!("available")));
    let res = app
        .put(
            &format!("/assets/{n}/checkout.api?user_id={bob}&till={}", day(1)),
            &[],
        )
        .await;
    let message = res.into_body(StatusCode::CONFLICT)["message"]
        .as_str()
        .unwrap()
        .to_owned();
    assert!(
        message.contains("is reserved for Ann Tester")
            && message.contains("override_conflicting_reservations"),
        "{message}"
    );
    let res = app
        .put(
            &format!("/assets/{n}/checkout.api?user_id={bob}&till={}", day(1)),
            &[("checkout_values[override_conflicting_reservations]", "true")],
        )
        .await;
    assert_eq!(
        res.into_body(StatusCode::OK)["asset"]["assigned_to_user_id"],
        bob
    );
    let removed = app
        .get(&format!(
            "/assets/{n}/reservation_requests.api?status=removed"
        ))
        .await
        .into_body(StatusCode::OK);
    assert_eq!(removed["reservation_requests"].as_array().unwrap().len(), 1);
    let booked = app
        .get(&format!("/assets/{n}/booked_dates.api"))
        .await
        .into_body(StatusCode::OK);
    assert_eq!(booked["booked_dates"][0]["checked_out"], true);
}

async fn the_reserver_checking_out_fulfils_the_reservation(kind: Kind) {
    let (app, n, ann, _) = setup(kind).await;
    let today = request_id(&app, n, ann, 0, 1).await;
    decide(&app, n, today, "approve_request")
        .await
        .into_body(StatusCode::OK);
    let later = request_id(&app, n, ann, 5, 6).await;
    decide(&app, n, later, "approve_request")
        .await
        .into_body(StatusCode::OK);
    // Without an end the check-out meets her later reservation too; refused when she
    // asks not to override her own.
    let res = app
        .put(
            &format!("/assets/{n}/checkout.api?user_id={ann}"),
            &[(
                "checkout_values[override_my_conflicting_reservations]",
                "false",
            )],
        )
        .await;
    assert!(
        res.into_body(StatusCode::CONFLICT)["message"]
            .as_str()
            .unwrap()
            .contains("override_my_conflicting_reservations")
    );
    // By default her own are overridden.
    app.put(&format!("/assets/{n}/checkout.api?user_id={ann}"), &[])
        .await
        .into_body(StatusCode::OK);
    let fulfilled = app
        .get(&format!(
            "/assets/{n}/reservation_requests.api?status=fullfilled"
        ))
        .await
        .into_body(StatusCode::OK);
    assert_eq!(fulfilled["reservation_requests"][0]["id"], today);
    let removed = app
        .get(&format!(
            "/assets/{n}/reservation_requests.api?status=removed"
        ))
        .await
        .into_body(StatusCode::OK);
    assert_eq!(removed["reservation_requests"][0]["id"], later);
}

async fn reserved_assets_cannot_be_deleted(kind: Kind) {
    let (app, n, ann, _) = setup(kind).await;
    let r = request_id(&app, n, ann, 3, 4).await;
    decide(&app, n, r, "approve_request")
        .await
        .into_body(StatusCode::OK);
    let res = app.delete(&format!("/assets/{n}.api")).await;
    assert!(
        res.into_body(StatusCode::CONFLICT)["message"]
            .as_str()
            .unwrap()
            .contains("is reserved for Ann Tester")
    );
    decide(&app, n, r, "deny").await.into_body(StatusCode::OK);
    app.delete(&format!("/assets/{n}.api"))
        .await
        .into_body(StatusCode::OK);
}

async fn checkout_requests_filter_by_start_date(kind: Kind) {
    let (app, n, ann, bob) = setup(kind).await;
    let a = request_id(&app, n, ann, 0, 1).await;
    request_id(&app, n, bob, 0, 2).await;
    request_id(&app, n, bob, 3, 4).await;
    decide(&app, n, a, "approve_request")
        .await
        .into_body(StatusCode::OK);
    let pending = app
        .get("/checkout_requests/filter.api")
        .await
        .into_body(StatusCode::OK);
    assert_eq!(pending["reservation_requests"].as_array().unwrap().len(), 1);
    let all = app
        .get("/checkout_requests/filter.api?all=true")
        .await
        .into_body(StatusCode::OK);
    assert_eq!(all["reservation_requests"].as_array().unwrap().len(), 2);
    let later = app
        .get(&format!(
            "/checkout_requests/filter.api?start_date={}",
            day(3)
        ))
        .await
        .into_body(StatusCode::OK);
    assert_eq!(later["reservation_requests"].as_array().unwrap().len(), 1);
    assert_eq!(later["baskets"], json!([]));
    // Orders going out on the day are listed beside the requests: those waiting to go
    // out, or every one with all=true.
    let ann_c = app.customer("Ann", "Renter", &[]).await.to_string();
    let order = |from: String| {
        let app = &app;
        let ann_c = ann_c.clone();
        async move {
            app.post(
                "/baskets.api",
                &[
                    ("basket[customer_id]", ann_c.as_str()),
                    ("expected_checkout_date", from.as_str()),
                    ("expected_checkout_time", "10:00"),
                ],
            )
            .await
            .into_body(StatusCode::OK)["basket"]["sequence_num"]
                .as_i64()
                .unwrap()
        }
    };
    let today_order = order(day(0)).await;
    let cancelled = order(day(0)).await;
    let later_order = order(day(3)).await;
    app.patch(&format!("/baskets/{cancelled}/cancel.api"), &[])
        .await
        .into_body(StatusCode::OK);
    let numbers = |body: &serde_json::Value| -> Vec<i64> {
        body["baskets"]
            .as_array()
            .unwrap()
            .iter()
            .map(|b| b["sequence_num"].as_i64().unwrap())
            .collect()
    };
    let pending = app
        .get("/checkout_requests/filter.api")
        .await
        .into_body(StatusCode::OK);
    assert_eq!(numbers(&pending), [today_order], "{pending}");
    assert_eq!(pending["reservation_requests"].as_array().unwrap().len(), 1);
    assert_eq!(pending["baskets"][0]["basket_state"], "drafted");
    assert_documented("/checkout_requests/filter.api", "get", &pending);
    assert_eq!(pending["total_pages"], 1);
    let all = app
        .get("/checkout_requests/filter.api?all=true")
        .await
        .into_body(StatusCode::OK);
    assert_eq!(numbers(&all), [today_order, cancelled]);
    assert_documented("/checkout_requests/filter.api", "get", &all);
    let later = app
        .get(&format!(
            "/checkout_requests/filter.api?start_date={}",
            day(3)
        ))
        .await
        .into_body(StatusCode::OK);
    assert_eq!(numbers(&later), [later_order]);
    let past_the_end = app
        .get("/checkout_requests/filter.api?page=2")
        .await
        .into_body(StatusCode::OK);
    assert_eq!(past_the_end["baskets"], json!([]));
    assert_eq!(past_the_end["total_pages"], 1);
    app.get("/checkout_requests/filter.api?start_date=someday")
        .await
        .into_body(StatusCode::UNPROCESSABLE_ENTITY);
    let starting = app
        .get("/assets/filter.api?status=reservation_starting_today")
        .await
        .into_body(StatusCode::OK);
    assert_eq!(starting["assets"].as_array().unwrap().len(), 1);
}
