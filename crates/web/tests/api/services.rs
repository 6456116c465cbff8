//! Services of fixed assets (a rentrack extension behind `assets_being_serviced` and
//! `show_services_details`): start, complete, what an asset in service refuses, and
//! starts racing each other and check-outs.

use crate::common::{Kind, TestApp, assert_documented, assert_keys_documented};
use axum::http::StatusCode;
use futures_util::future::join_all;
use serde_json::{Value, json};

both!(
    a_service_starts_shows_and_completes,
    bad_services_are_refused_and_change_nothing,
    an_asset_in_service_is_not_available,
    a_service_starts_only_over_a_free_period,
    racing_starts_and_checkouts_take_the_asset_once,
);

/// A date `days` from now, mm/dd/yyyy (UTC, the test company's zone).
fn day(days: i64) -> String {
    (chrono::Utc::now().date_naive() + chrono::Duration::days(days))
        .format("%m/%d/%Y")
        .to_string()
}

async fn setup(kind: Kind) -> (TestApp, i64, i64) {
    let app = TestApp::new(kind).await;
    let group = app.group("Cameras").await;
    let n = app
        .asset(
            "Camera",
            group,
            &[("fixed_asset[rental_price_attributes][daily]", "10")],
        )
        .await;
    let ann = app.member("Ann", "Tester", "ann@example.com", &[]).await;
    (app, n, ann)
}

async fn start(app: &TestApp, n: i64, extra: &[(&str, &str)]) -> crate::common::Res {
    let mut form = vec![("service[service_type]", "Repair")];
    form.extend_from_slice(extra);
    app.post(&format!("/assets/{n}/services.api"), &form).await
}

async fn state_of(app: &TestApp, n: i64) -> Value {
    app.get(&format!("/assets/{n}.api"))
        .await
        .into_body(StatusCode::OK)["asset"]["state"]
        .clone()
}

fn numbers(body: &Value) -> Vec<i64> {
    body["assets"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["sequence_num"].as_i64().unwrap())
        .collect()
}

async fn a_service_starts_shows_and_completes(kind: Kind) {
    let (app, n, ann) = setup(kind).await;
    let group = app.group("Lights").await;
    let other = app.asset("Lamp", group, &[]).await;
    let res = start(
        &app,
        n,
        &[
            ("service[expected_end_date]", &day(3)),
            ("service[expected_end_time]", "12:00"),
            ("service[comments]", "Shutter sticks"),
        ],
    )
    .await;
    let body = res.into_body(StatusCode::OK);
    assert_documented("/assets/{sequence_num}/services.api", "post", &body);
    let s = &body["service"];
    assert_eq!(s["service_type"], "Repair");
    assert_eq!(s["comments"], "Shutter sticks");
    assert_eq!(s["status"], "in_service");
    assert_eq!(s["sequence_num"], n);
    assert_eq!(s["completed_at"], Value::Null);
    assert!(
        s["expected_end_at"].as_str().unwrap().ends_with("12:00:00"),
        "{s}"
    );
    assert_eq!(body["asset"]["state"], "in_service");
    let id = s["id"].as_i64().unwrap();
    // The filter the spec names lists it; `available` no longer does.
    let serviced = app
        .get("/assets/filter.api?status=assets_being_serviced")
        .await
        .into_body(StatusCode::OK);
    assert_eq!(numbers(&serviced), [n]);
    assert_eq!(serviced["total_pages"], 1);
    assert_documented("/assets/filter.api", "get", &serviced);
    let available = app
        .get("/assets/filter.api?status=available")
        .await
        .into_body(StatusCode::OK);
    assert_eq!(numbers(&available), [other]);
    // Details show the services with the flag, and nothing of them without it.
    let details = app
        .get(&format!("/assets/{n}.api?show_services_details=true"))
        .await
        .into_body(StatusCode::OK);
    assert_eq!(details["asset"]["services"][0]["id"], id, "{details}");
    assert_documented("/assets/{sequence_num}.api", "get", &details);
    assert_keys_documented("Asset", &details["asset"], &[]);
    let plain = app
        .get(&format!("/assets/{n}.api"))
        .await
        .into_body(StatusCode::OK);
    assert!(plain["asset"].get("services").is_none());
    let none = app
        .get(&format!("/assets/{other}.api?show_services_details=true"))
        .await
        .into_body(StatusCode::OK);
    assert_eq!(none["asset"]["services"], json!([]));
    // Complete it: available again, and a second completion is a 409.
    let done = app
        .patch(
            &format!("/assets/{n}/services/{id}/complete.api"),
            &[("service[completion_comments]", "New shutter")],
        )
        .await
        .into_body(StatusCode::OK);
    assert_documented(
        "/assets/{sequence_num}/services/{id}/complete.api",
        "patch",
        &done,
    );
    assert_eq!(done["service"]["status"], "completed");
    assert_eq!(done["service"]["completion_comments"], "New shutter");
    assert!(done["service"]["completed_at"].is_string());
    assert_eq!(done["asset"]["state"], "available");
    let again = app
        .put(&format!("/assets/{n}/services/{id}/complete.api"), &[])
        .await;
    assert_eq!(
        again.into_body(StatusCode::CONFLICT)["message"],
        format!("Service {id} of asset #{n} was completed already.")
    );
    assert_eq!(
        app.get("/assets/filter.api?status=assets_being_serviced")
            .await
            .into_body(StatusCode::OK)["assets"],
        json!([])
    );
    // A second service (open-ended), then the list and one service.
    let second = start(&app, n, &[("service[service_type]", "Calibration")])
        .await
        .into_body(StatusCode::OK)["service"]["id"]
        .as_i64()
        .unwrap();
    let list = app
        .get(&format!("/assets/{n}/services.api"))
        .await
        .into_body(StatusCode::OK);
    let ids: Vec<i64> = list["services"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["id"].as_i64().unwrap())
        .collect();
    assert_eq!(ids, [id, second]);
    assert_eq!(list["total_pages"], 1);
    assert_documented("/assets/{sequence_num}/services.api", "get", &list);
    let one = app
        .get(&format!("/assets/{n}/services/{second}.api"))
        .await
        .into_body(StatusCode::OK);
    assert_documented("/assets/{sequence_num}/services/{id}.api", "get", &one);
    assert_eq!(one["service"]["service_type"], "Calibration");
    assert_eq!(one["service"]["expected_end_at"], Value::Null);
    // The history tells it.
    let history = app
        .get(&format!("/assets/{n}/history_paginate.api"))
        .await
        .into_body(StatusCode::OK);
    let actions: Vec<&str> = history["history"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["action"].as_str().unwrap())
        .collect();
    assert_eq!(
        actions[..3],
        ["service_started", "service_completed", "service_started"]
    );
    // Another asset's service is not this asset's; another company's asset does not
    // exist.
    app.get(&format!("/assets/{other}/services/{second}.api"))
        .await
        .expect(StatusCode::NOT_FOUND);
    app.patch(
        &format!("/assets/{other}/services/{second}/complete.api"),
        &[],
    )
    .await
    .expect(StatusCode::NOT_FOUND);
    let stranger = TestApp::builder(kind).beside(&app).build().await;
    for res in [
        stranger.get(&format!("/assets/{n}/services.api")).await,
        start(&stranger, n, &[]).await,
        stranger
            .get(&format!("/assets/{n}/services/{second}.api"))
            .await,
        stranger
            .patch(&format!("/assets/{n}/services/{second}/complete.api"), &[])
            .await,
    ] {
        res.expect(StatusCode::NOT_FOUND);
    }
    let _ = ann;
}

async fn bad_services_are_refused_and_change_nothing(kind: Kind) {
    let (app, n, _) = setup(kind).await;
    let path = format!("/assets/{n}/services.api");
    let yesterday = day(-1);
    for (form, field) in [
        (vec![], "service_type"),
        (vec![("service[service_type]", "null")], "service_type"),
        (
            vec![
                ("service[service_type]", "Repair"),
                ("service[expected_end_date]", "someday"),
            ],
            "expected_end_date",
        ),
        (
            vec![
                ("service[service_type]", "Repair"),
                ("service[expected_end_date]", &yesterday),
            ],
            "expected_end_date",
        ),
        (
            vec![
                ("service[service_type]", "Repair"),
                ("service[expected_end_time]", "10:00"),
            ],
            "expected_end_time",
        ),
        (
            vec![
                ("service[service_type]", "Repair"),
                ("service[expected_end_date]", &day(2)),
                ("service[expected_end_time]", "25:00"),
            ],
            "expected_end_time",
        ),
    ] {
        app.post(&path, &form).await.expect_invalid(field);
    }
    assert_eq!(state_of(&app, n).await, "available");
    assert_eq!(
        app.get(&path).await.into_body(StatusCode::OK)["services"],
        json!([])
    );
    // Only fixed assets are serviced.
    let group = app.group("Cables").await;
    let stock = app.stock_item("/stock_assets", "Cable", group, &[]).await;
    start(&app, stock, &[]).await.expect(StatusCode::CONFLICT);
    app.post(
        "/assets/999999/services.api",
        &[("service[service_type]", "X")],
    )
    .await
    .expect(StatusCode::NOT_FOUND);
}

async fn an_asset_in_service_is_not_available(kind: Kind) {
    let (app, n, ann) = setup(kind).await;
    let id = start(&app, n, &[("service[expected_end_date]", &day(5))])
        .await
        .into_body(StatusCode::OK)["service"]["id"]
        .as_i64()
        .unwrap();
    let refusal = format!(
        "Asset #{n} is in service (Repair); complete the service (/assets/{n}/services/{id}/complete.api) first."
    );
    let conflict = |res: crate::common::Res| {
        let refusal = refusal.clone();
        assert_eq!(res.into_body(StatusCode::CONFLICT)["message"], refusal);
    };
    // Check-out, a second service, retirement and delete.
    conflict(
        app.put(&format!("/assets/{n}/checkout.api?user_id={ann}"), &[])
            .await,
    );
    conflict(start(&app, n, &[]).await);
    let reason = app.retire_reason("Broken").await;
    conflict(
        app.put(
            &format!("/assets/{n}/retire.api"),
            &[
                ("fixed_asset[retired_on]", &day(0)),
                ("fixed_asset[retire_reason_id]", &reason),
            ],
        )
        .await,
    );
    conflict(app.delete(&format!("/assets/{n}.api")).await);
    // A reservation during the service is not approved; one after it is.
    let ann_s = ann.to_string();
    let request = |from: i64, to: i64| {
        let app = &app;
        let ann_s = ann_s.clone();
        async move {
            app.post(
                &format!("/assets/{n}/reservation_requests.api"),
                &[
                    ("reservation_request[from]", day(from).as_str()),
                    ("reservation_request[to]", day(to).as_str()),
                    ("user[id]", ann_s.as_str()),
                ],
            )
            .await
            .into_body(StatusCode::OK)["reservation_request"]["id"]
                .as_i64()
                .unwrap()
        }
    };
    let during = request(3, 4).await;
    conflict(
        app.put(
            &format!("/assets/{n}/reservation_requests/{during}/update_status.api"),
            &[("request_action", "approve_request")],
        )
        .await,
    );
    let after = request(7, 8).await;
    app.put(
        &format!("/assets/{n}/reservation_requests/{after}/update_status.api"),
        &[("request_action", "approve_request")],
    )
    .await
    .expect(StatusCode::OK);
    // An order booked during the service is refused; after it, booked.
    let customer = app.customer("Cy", "Renter", &[]).await.to_string();
    let order = |from: i64, to: i64| {
        let app = &app;
        let customer = customer.clone();
        async move {
            let o = app
                .post(
                    "/baskets.api",
                    &[
                        ("basket[customer_id]", customer.as_str()),
                        ("asset_ids", &n.to_string()),
                    ],
                )
                .await
                .into_body(StatusCode::OK)["basket"]["sequence_num"]
                .as_i64()
                .unwrap();
            app.patch(
                &format!("/baskets/{o}/reservation.api"),
                &[("from", day(from).as_str()), ("to", day(to).as_str())],
            )
            .await
        }
    };
    order(2, 3).await.expect(StatusCode::CONFLICT);
    order(10, 11).await.expect(StatusCode::OK);
    assert_eq!(state_of(&app, n).await, "in_service");
    // Completed, it goes out again.
    app.put(&format!("/assets/{n}/services/{id}/complete.api"), &[])
        .await
        .expect(StatusCode::OK);
    app.put(
        &format!("/assets/{n}/checkout.api?user_id={ann}&till={}", day(1)),
        &[],
    )
    .await
    .expect(StatusCode::OK);
}

async fn a_service_starts_only_over_a_free_period(kind: Kind) {
    let (app, n, ann) = setup(kind).await;
    let customer = app.customer("Cy", "Renter", &[]).await.to_string();
    let o = app
        .post(
            "/baskets.api",
            &[
                ("basket[customer_id]", customer.as_str()),
                ("asset_ids", &n.to_string()),
            ],
        )
        .await
        .into_body(StatusCode::OK)["basket"]["sequence_num"]
        .as_i64()
        .unwrap();
    app.patch(
        &format!("/baskets/{o}/reservation.api"),
        &[("from", day(3).as_str()), ("to", day(4).as_str())],
    )
    .await
    .expect(StatusCode::OK);
    // Over the booking, or open-ended: refused, and nothing changes.
    for extra in [vec![("service[expected_end_date]", day(5))], vec![]] {
        let extra: Vec<(&str, &str)> = extra.iter().map(|(k, v)| (*k, v.as_str())).collect();
        let res = start(&app, n, &extra).await;
        let message = res.into_body(StatusCode::CONFLICT)["message"].clone();
        assert!(
            message
                .as_str()
                .unwrap()
                .starts_with(&format!("Asset #{n} (Camera) is booked on order #")),
            "{message}"
        );
    }
    assert_eq!(state_of(&app, n).await, "available");
    // Ending before the booking starts: taken.
    start(&app, n, &[("service[expected_end_date]", &day(1))])
        .await
        .expect(StatusCode::OK);
    // A member's open check-out holds it for good.
    let group = app.group("Lights").await;
    let lamp = app.asset("Lamp", group, &[]).await;
    app.put(&format!("/assets/{lamp}/checkout.api?user_id={ann}"), &[])
        .await
        .expect(StatusCode::OK);
    start(&app, lamp, &[]).await.expect(StatusCode::CONFLICT);
}

async fn racing_starts_and_checkouts_take_the_asset_once(kind: Kind) {
    let (app, n, ann) = setup(kind).await;
    let starts = (0..10).map(|_| start(&app, n, &[]));
    let path = format!("/assets/{n}/checkout.api?user_id={ann}");
    let checkouts = (0..10).map(|_| app.put(&path, &[]));
    let (started, checked) = futures_util::join!(join_all(starts), join_all(checkouts));
    let ok = |all: &[crate::common::Res]| all.iter().filter(|r| r.status == StatusCode::OK).count();
    assert_eq!(ok(&started) + ok(&checked), 1, "one of twenty takes it");
    for res in started.iter().chain(checked.iter()) {
        assert!(
            matches!(res.status, StatusCode::OK | StatusCode::CONFLICT),
            "{} {}",
            res.status,
            res.text
        );
    }
    let services = app
        .get(&format!("/assets/{n}/services.api"))
        .await
        .into_body(StatusCode::OK);
    assert_eq!(
        services["services"].as_array().unwrap().len(),
        ok(&started),
        "a refused start wrote no service"
    );
}
