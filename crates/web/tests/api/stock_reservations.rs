//! Reservations of inventory and asset stock by quantity: approval weighs the units,
//! sales and check-outs leave what others' approved reservations need, the member
//! lists and reserved dates; and retiring asset stock.

use crate::common::{Kind, TestApp, assert_documented, assert_keys_documented};
use axum::http::StatusCode;
use futures_util::future::join_all;
use serde_json::Value;

both!(
    stock_reservations_are_approved_by_quantity,
    approvals_racing_for_units_never_overbook,
    stock_check_outs_leave_what_reservations_need,
    sales_leave_what_reservations_need,
    asset_stock_retires_when_nothing_is_out,
);

/// A date `days` from now, mm/dd/yyyy (UTC, the test company's zone).
fn day(days: i64) -> String {
    (chrono::Utc::now().date_naive() + chrono::Duration::days(days))
        .format("%m/%d/%Y")
        .to_string()
}

struct Shop {
    app: TestApp,
    location: i64,
    ann: i64,
    bob: i64,
    group: i64,
}

async fn shop(kind: Kind) -> Shop {
    let app = TestApp::new(kind).await;
    Shop {
        group: app.group("Supplies").await,
        location: app.location("Store A", &[]).await,
        ann: app.member("Ann", "Tester", "ann@example.com", &[]).await,
        bob: app.member("Bob", "Tester", "bob@example.com", &[]).await,
        app,
    }
}

impl Shop {
    /// An item under `path` with `units` added at the shop's location.
    async fn item(&self, path: &str, units: i64) -> i64 {
        let l = self.location.to_string();
        let scope = if path == "/inventory" {
            "volatile_asset"
        } else {
            "stock_asset"
        };
        let key = format!("{scope}[location_id]");
        let n = self
            .app
            .stock_item(path, "Sandbags", self.group, &[(key.as_str(), &l)])
            .await;
        self.app.add_stock(path, n, units, self.location).await;
        n
    }

    async fn request(
        &self,
        n: i64,
        member: i64,
        quantity: &str,
        from: i64,
        to: i64,
    ) -> crate::common::Res {
        let m = member.to_string();
        let mut form = vec![
            ("reservation_request[from]", day(from)),
            ("reservation_request[to]", day(to)),
            ("user[id]", m),
        ];
        if !quantity.is_empty() {
            form.push(("reservation_request[quantity]", quantity.to_owned()));
        }
        let form: Vec<(&str, &str)> = form.iter().map(|(k, v)| (*k, v.as_str())).collect();
        self.app
            .post(&format!("/assets/{n}/reservation_requests.api"), &form)
            .await
    }

    /// An approved reservation of `quantity` units; returns its id.
    async fn reserved(&self, n: i64, member: i64, quantity: i64, from: i64, to: i64) -> i64 {
        let id = self
            .request(n, member, &quantity.to_string(), from, to)
            .await
            .into_body(StatusCode::OK)["reservation_request"]["id"]
            .as_i64()
            .unwrap();
        self.decide(n, id).await.expect(StatusCode::OK);
        id
    }

    async fn decide(&self, n: i64, id: i64) -> crate::common::Res {
        self.app
            .put(
                &format!("/assets/{n}/reservation_requests/{id}/update_status.api"),
                &[("request_action", "approve_request")],
            )
            .await
    }

    async fn on_hand(&self, path: &str, n: i64) -> i64 {
        self.app
            .get(&format!("{path}/{n}.api"))
            .await
            .into_body(StatusCode::OK)["asset"]["net_quantity"]
            .as_i64()
            .unwrap()
    }

    async fn check_out(
        &self,
        n: i64,
        member: i64,
        quantity: i64,
        extra: &[(&str, &str)],
    ) -> crate::common::Res {
        let (m, q) = (member.to_string(), quantity.to_string());
        let mut form = vec![
            ("order_type", "checkout"),
            ("user[id]", m.as_str()),
            ("line_item[quantity]", q.as_str()),
        ];
        form.extend_from_slice(extra);
        self.app
            .post(&format!("/stock_assets/{n}/order.api"), &form)
            .await
    }

    async fn sell(&self, n: i64, quantity: i64, extra: &[(&str, &str)]) -> crate::common::Res {
        let q = quantity.to_string();
        let mut form = vec![
            ("order_type", "New Sale"),
            ("line_item[quantity]", q.as_str()),
            ("line_item[price]", "1.00"),
        ];
        form.extend_from_slice(extra);
        self.app
            .post(&format!("/inventory/{n}/order.api"), &form)
            .await
    }
}

fn message(res: crate::common::Res, status: StatusCode) -> String {
    res.into_body(status)["message"]
        .as_str()
        .unwrap()
        .to_owned()
}

fn list_len(body: &Value, key: &str) -> usize {
    body[key].as_array().unwrap().len()
}

async fn stock_reservations_are_approved_by_quantity(kind: Kind) {
    let s = shop(kind).await;
    let n = s.item("/stock_assets", 10).await;
    let cara = s
        .app
        .member("Cara", "Tester", "cara@example.com", &[])
        .await;
    // Three units are out without an end: they are promised at every moment until
    // they are checked in.
    s.check_out(n, cara, 3, &[]).await.expect(StatusCode::OK);

    let res = s.request(n, s.ann, "6", 1, 3).await;
    let ann_request = res.into_body(StatusCode::OK)["reservation_request"].clone();
    assert_eq!(ann_request["quantity"], 6);
    assert_eq!(ann_request["status"], "pending");
    let ann_id = ann_request["id"].as_i64().unwrap();
    s.decide(n, ann_id).await.expect(StatusCode::OK);

    // Bob's 5 on days 2 to 4 meet Ann's 6 on days 2 and 3: 11 of 10.
    let bob_id = s
        .request(n, s.bob, "5", 2, 4)
        .await
        .into_body(StatusCode::OK)["reservation_request"]["id"]
        .as_i64()
        .unwrap();
    let refused = message(s.decide(n, bob_id).await, StatusCode::CONFLICT);
    assert!(refused.contains("has 10 unit(s)"), "{refused}");
    assert!(refused.contains("need 6"), "{refused}");
    assert_eq!(s.app.reservation_status(n, bob_id).await, "pending");
    // Days 4 to 6 do not meet Ann's: 7 fit beside the 3 out; then 1 more on day 5
    // does not, and the refusal names the check-out.
    s.reserved(n, s.bob, 7, 4, 6).await;
    let late = s
        .request(n, cara, "1", 5, 5)
        .await
        .into_body(StatusCode::OK)["reservation_request"]["id"]
        .as_i64()
        .unwrap();
    let refused = message(s.decide(n, late).await, StatusCode::CONFLICT);
    assert!(refused.contains("checked out to Cara Tester"), "{refused}");
    // No quantity: one unit.
    let one = s.request(n, cara, "", 1, 1).await.into_body(StatusCode::OK);
    assert_eq!(one["reservation_request"]["quantity"], 1);

    // Bad quantities are refused and write nothing; a fixed asset is reserved whole.
    for bad in ["0", "-2", "abc", "1.5", "1000000001"] {
        s.request(n, s.ann, bad, 1, 1)
            .await
            .expect_invalid("quantity");
    }
    let camera = s.app.asset("Camera", s.group, &[]).await;
    s.request(camera, s.ann, "2", 1, 1)
        .await
        .expect_invalid("reservation_request[quantity]");
    s.request(camera, s.ann, "1", 1, 1)
        .await
        .expect(StatusCode::OK);
    let all = s
        .app
        .get(&format!("/assets/{n}/reservation_requests.api"))
        .await
        .into_body(StatusCode::OK);
    assert_eq!(list_len(&all, "reservation_requests"), 5);

    // Members' lists: stock and inventory in inventory_reservations, fixed assets in
    // reservation_requests.
    let anns = s
        .app
        .get(&format!("/members/{}/inventory_reservations.api", s.ann))
        .await
        .into_body(StatusCode::OK);
    assert_documented("/members/{id}/inventory_reservations.api", "get", &anns);
    assert_eq!(list_len(&anns, "reservation_requests"), 1);
    assert_eq!(anns["reservation_requests"][0]["quantity"], 6);
    assert_eq!(anns["reservation_requests"][0]["status"], "approved");
    assert_eq!(anns["total_pages"], 1);
    let anns_fixed = s
        .app
        .get(&format!("/members/{}/reservation_requests.api", s.ann))
        .await
        .into_body(StatusCode::OK);
    assert_eq!(list_len(&anns_fixed, "reservation_requests"), 1);
    assert_eq!(
        anns_fixed["reservation_requests"][0]["sequence_num"],
        camera
    );
    s.app
        .get("/members/99999/inventory_reservations.api")
        .await
        .expect(StatusCode::NOT_FOUND);

    // Reserved dates of a stock number: the approved ones, with their units.
    let dates = s
        .app
        .get(&format!("/assets/{n}/reserved_dates.api"))
        .await
        .into_body(StatusCode::OK);
    let quantities: Vec<i64> = dates["reserved_dates"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["quantity"].as_i64().unwrap())
        .collect();
    assert_eq!(quantities, vec![6, 7]);
    assert_documented("/assets/{sequence_num}/reserved_dates.api", "get", &dates);
    let reserved = s
        .app
        .get("/stock_assets/filter.api?status=reserved")
        .await
        .into_body(StatusCode::OK);
    assert_eq!(reserved["assets"][0]["sequence_num"], n);
    assert_eq!(list_len(&reserved, "assets"), 1);
    assert_documented("/stock_assets/filter.api", "get", &reserved);
}

async fn approvals_racing_for_units_never_overbook(kind: Kind) {
    let s = shop(kind).await;
    let n = s.item("/stock_assets", 10).await;
    let mut ids = Vec::new();
    for _ in 0..8 {
        let id = s
            .request(n, s.ann, "3", 1, 2)
            .await
            .into_body(StatusCode::OK)["reservation_request"]["id"]
            .as_i64()
            .unwrap();
        ids.push(id);
    }
    let results = join_all(ids.iter().map(|id| s.decide(n, *id))).await;
    let statuses: Vec<StatusCode> = results.iter().map(|r| r.status).collect();
    let approved = statuses.iter().filter(|s| **s == StatusCode::OK).count();
    let refused = statuses
        .iter()
        .filter(|s| **s == StatusCode::CONFLICT)
        .count();
    assert_eq!((approved, refused), (3, 5), "{statuses:?}");
    let list = s
        .app
        .get(&format!(
            "/assets/{n}/reservation_requests.api?status=approved"
        ))
        .await
        .into_body(StatusCode::OK);
    assert_eq!(list_len(&list, "reservation_requests"), 3);
}

async fn stock_check_outs_leave_what_reservations_need(kind: Kind) {
    let s = shop(kind).await;
    let n = s.item("/stock_assets", 10).await;
    let ann_id = s.reserved(n, s.ann, 6, 0, 2).await;
    // 10 on hand, 6 promised to Ann: Bob may take 4, not 5.
    let refused = message(s.check_out(n, s.bob, 5, &[]).await, StatusCode::CONFLICT);
    assert!(
        refused.contains("10 unit(s) on hand and 6 are reserved"),
        "{refused}"
    );
    assert_eq!(s.on_hand("/stock_assets", n).await, 10);
    let current = s
        .app
        .get(&format!("/stock_assets/{n}/get_current_checkouts.api"))
        .await
        .into_body(StatusCode::OK);
    assert_eq!(list_len(&current, "line_items"), 0);
    s.check_out(n, s.bob, 4, &[]).await.expect(StatusCode::OK);
    assert_eq!(s.app.reservation_status(n, ann_id).await, "approved");
    // Ann's own reservation does not stand in her way, and her check-out fulfils it.
    s.check_out(n, s.ann, 6, &[]).await.expect(StatusCode::OK);
    assert_eq!(s.app.reservation_status(n, ann_id).await, "fullfilled");
    assert_eq!(s.on_hand("/stock_assets", n).await, 0);

    // Only the days of the check-out count: units back before a reservation starts
    // may go out.
    let m = s.item("/stock_assets", 10).await;
    let later = s.reserved(m, s.ann, 10, 5, 6).await;
    let till = day(2);
    s.check_out(m, s.bob, 4, &[("till", &till)])
        .await
        .expect(StatusCode::OK);
    s.check_out(m, s.bob, 1, &[])
        .await
        .expect(StatusCode::CONFLICT);
    assert_eq!(s.app.reservation_status(m, later).await, "approved");
    // Overriding removes the reservations in the way.
    s.check_out(
        m,
        s.bob,
        1,
        &[(
            "remove_stock_values[override_conflicting_reservations]",
            "true",
        )],
    )
    .await
    .expect(StatusCode::OK);
    assert_eq!(s.app.reservation_status(m, later).await, "removed");
    assert_eq!(s.on_hand("/stock_assets", m).await, 5);
}

async fn sales_leave_what_reservations_need(kind: Kind) {
    let s = shop(kind).await;
    let n = s.item("/inventory", 10).await;
    let ann_id = s.reserved(n, s.ann, 8, 0, 1).await;
    let refused = message(s.sell(n, 3, &[]).await, StatusCode::CONFLICT);
    assert!(
        refused.contains("override_conflicting_reservations"),
        "{refused}"
    );
    assert_eq!(s.on_hand("/inventory", n).await, 10);
    s.sell(n, 2, &[]).await.expect(StatusCode::OK);
    // Sold to Ann: her reservation is fulfilled and does not count against her.
    let ann = s.ann.to_string();
    s.sell(n, 8, &[("user[id]", &ann)])
        .await
        .expect(StatusCode::OK);
    assert_eq!(s.app.reservation_status(n, ann_id).await, "fullfilled");
    assert_eq!(s.on_hand("/inventory", n).await, 0);
    s.sell(n, 1, &[("user[id]", "99999")])
        .await
        .expect_invalid("user_id");
    s.sell(n, 1, &[("user[id]", "ann")])
        .await
        .expect_invalid("user_id");

    // Overriding a sale removes the reservations in the way.
    let m = s.item("/inventory", 5).await;
    let bobs = s.reserved(m, s.bob, 5, 3, 4).await;
    s.sell(m, 1, &[]).await.expect(StatusCode::CONFLICT);
    s.sell(
        m,
        1,
        &[(
            "remove_stock_values[override_conflicting_reservations]",
            "maybe",
        )],
    )
    .await
    .expect_invalid("override_conflicting_reservations");
    assert_eq!(s.on_hand("/inventory", m).await, 5);
    s.sell(
        m,
        1,
        &[(
            "remove_stock_values[override_conflicting_reservations]",
            "true",
        )],
    )
    .await
    .expect(StatusCode::OK);
    assert_eq!(s.app.reservation_status(m, bobs).await, "removed");
    // An inventory reservation beyond what is on hand is never approved.
    let big = s
        .request(m, s.ann, "5", 1, 1)
        .await
        .into_body(StatusCode::OK)["reservation_request"]["id"]
        .as_i64()
        .unwrap();
    s.decide(m, big).await.expect(StatusCode::CONFLICT);
}

async fn asset_stock_retires_when_nothing_is_out(kind: Kind) {
    let s = shop(kind).await;
    let n = s.item("/stock_assets", 4).await;
    let reason = s.app.retire_reason("Worn out").await;
    let retire = [
        ("fixed_asset[retired_on]", "06/01/2026"),
        ("fixed_asset[retire_reason_id]", reason.as_str()),
    ];
    let pending = s
        .request(n, s.ann, "2", 3, 4)
        .await
        .into_body(StatusCode::OK)["reservation_request"]["id"]
        .as_i64()
        .unwrap();
    let line = s
        .check_out(n, s.bob, 1, &[])
        .await
        .into_body(StatusCode::OK)["line_item"]["id"]
        .as_i64()
        .unwrap()
        .to_string();
    let refused = message(
        s.app.put(&format!("/assets/{n}/retire.api"), &retire).await,
        StatusCode::CONFLICT,
    );
    assert!(refused.contains("1 unit(s) checked out"), "{refused}");
    s.app
        .post(
            &format!("/stock_assets/{n}/checkin.api"),
            &[("selected_line_items", line.as_str())],
        )
        .await
        .expect(StatusCode::OK);
    let retired = s
        .app
        .patch(&format!("/assets/{n}/retire.api"), &retire)
        .await
        .into_body(StatusCode::OK);
    assert_eq!(retired["asset"]["state"], "retired");
    assert_eq!(retired["asset"]["net_quantity"], 4);
    assert_documented("/assets/{sequence_num}/retire.api", "patch", &retired);
    assert_keys_documented("Asset", &retired["asset"], &[]);
    assert_eq!(s.app.reservation_status(n, pending).await, "removed");
    let filtered = s
        .app
        .get("/stock_assets/filter.api?status=retired")
        .await
        .into_body(StatusCode::OK);
    assert_eq!(filtered["assets"][0]["sequence_num"], n);
    // Retired: no movement, no check-out, no reservation.
    let l = s.location.to_string();
    s.app
        .post(
            &format!("/stock_assets/{n}/order.api"),
            &[
                ("order_type", "Add Stock"),
                ("line_item[quantity]", "1"),
                ("line_item[price]", "1"),
                ("line_item[location_id]", &l),
            ],
        )
        .await
        .expect(StatusCode::CONFLICT);
    s.check_out(n, s.bob, 1, &[])
        .await
        .expect(StatusCode::CONFLICT);
    s.request(n, s.ann, "1", 1, 1)
        .await
        .expect(StatusCode::CONFLICT);
    let back = s
        .app
        .put(&format!("/assets/{n}/activate.api"), &[])
        .await
        .into_body(StatusCode::OK);
    assert_eq!(back["asset"]["state"], "available");
    assert_documented("/assets/{sequence_num}/activate.api", "put", &back);
    s.check_out(n, s.bob, 1, &[]).await.expect(StatusCode::OK);
    // Inventory is used up, not retired.
    let inv = s.item("/inventory", 1).await;
    let refused = message(
        s.app
            .put(&format!("/assets/{inv}/retire.api"), &retire)
            .await,
        StatusCode::CONFLICT,
    );
    assert!(refused.contains("is an inventory item"), "{refused}");
}
