//! Renting orders out (`checkout.api`): what goes out and how, what is refused and
//! changes nothing, and racing rent-outs of one stock item.

use crate::common::{Kind, TestApp};
use crate::orders::{book, day, draft, rented_asset, state_of};
use axum::http::StatusCode;
use serde_json::{Value, json};

both!(
    rent_out_hands_the_items_over,
    refused_rent_outs_change_nothing,
    an_order_of_inventory_alone_completes_at_once,
    a_rented_out_order_kept_longer_needs_its_items_longer,
    fifty_racing_rent_outs_never_promise_stock_beyond_its_units,
    racing_rent_outs_and_returns_sharing_stock_all_go_through,
    an_orders_moves_wait_for_a_write_of_its_items,
    stock_with_every_unit_out_comes_back_where_it_was_taken_from,
    a_full_return_brings_everything_back_with_late_fees,
    a_partial_return_keeps_the_rest_out_longer,
    refused_returns_change_nothing,
    sub_rental_items_go_out_and_come_back,
    bundles_go_on_and_off_orders_and_come_back_whole,
    bundles_go_on_in_sets_and_come_back_in_parts,
);

/// A tent (fixed asset, daily 10), cables (asset stock, daily 1, 10 at the store) and
/// batteries (inventory at 2.25, 20 at the store).
pub(crate) struct Shop {
    pub store: i64,
    pub tent: i64,
    pub cables: i64,
    pub batteries: i64,
    pub ann: i64,
}

pub(crate) async fn shop(app: &TestApp) -> Shop {
    let group = app.group("Party").await;
    let store = app.location("Store", &[]).await;
    let tent = rented_asset(app, group, "Big Tent", &[("daily", "10")]).await;
    let cables = app
        .stock_item(
            "/stock_assets",
            "XLR Cable",
            group,
            &[("stock_asset[rental_price_attributes][daily]", "1")],
        )
        .await;
    app.add_stock("/stock_assets", cables, 10, store).await;
    let batteries = app
        .stock_item(
            "/inventory",
            "AA Batteries",
            group,
            &[("volatile_asset[price]", "2.25")],
        )
        .await;
    app.add_stock("/inventory", batteries, 20, store).await;
    let ann = app.customer("Ann", "Renter", &[]).await;
    Shop {
        store,
        tent,
        cables,
        batteries,
        ann,
    }
}

pub(crate) async fn rent_out(app: &TestApp, n: i64, form: &[(&str, &str)]) -> crate::common::Res {
    app.patch(&format!("/baskets/{n}/checkout.api"), form).await
}

pub(crate) async fn item(app: &TestApp, n: i64) -> Value {
    app.get(&format!("/assets/{n}.api"))
        .await
        .into_body(StatusCode::OK)["asset"]
        .clone()
}

pub(crate) async fn quantity_at(app: &TestApp, item: i64, location: i64) -> i64 {
    app.get(&format!(
        "/locations/get_quantity_by_location.api?asset_id={item}&location_id={location}"
    ))
    .await
    .into_body(StatusCode::OK)["quantity"]
        .as_i64()
        .unwrap()
}

fn actions(history: &Value, key: &str) -> Vec<String> {
    history[key]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["action"].as_str().unwrap().to_owned())
        .collect()
}

/// The tent, 3 cables and 2 batteries on one draft.
pub(crate) async fn full_draft(app: &TestApp, s: &Shop) -> i64 {
    let ids = format!("{},{},{}", s.tent, s.cables, s.batteries);
    let (cq, bq) = (
        format!("stock_assets_values[{}][quantity]", s.cables),
        format!("volatile_assets_values[{}][quantity]", s.batteries),
    );
    draft(app, s.ann, &ids, &[(cq.as_str(), "3"), (bq.as_str(), "2")]).await
}

async fn rent_out_hands_the_items_over(kind: Kind) {
    let app = TestApp::new(kind).await;
    let s = shop(&app).await;
    let field = app
        .custom_field(
            "Condition",
            "dropdown",
            &["fixed_assets"],
            &["Good", "Worn"],
        )
        .await;
    let (field_id, worn) = (
        field["id"].as_i64().unwrap(),
        field["options"][1]["id"].as_i64().unwrap(),
    );
    let n = full_draft(&app, &s).await;
    let key = format!("item_custom_attribute_values[{field_id}]");
    let worn = worn.to_string();
    let due = day(2);
    let b = rent_out(
        &app,
        n,
        &[
            ("rentout_date", &day(0)),
            ("rentout_time", "00:00"),
            ("return_date", &due),
            ("return_time", "18:00"),
            (&key, &worn),
        ],
    )
    .await
    .into_body(StatusCode::OK)["basket"]
        .clone();
    assert_eq!(b["basket_state"], "checked_out");
    assert_eq!(b["order_state"], "Rented Out");
    assert!(b["checked_out_on"].is_string(), "{b}");
    let due_moment = format!(
        "{} 18:00:00",
        (chrono::Utc::now().date_naive() + chrono::Duration::days(2)).format("%Y-%m-%d")
    );
    assert_eq!(b["due_date"], due_moment.as_str());
    assert_eq!(
        b["checkout_attribute_values"],
        json!({ field_id.to_string(): "Worn" })
    );
    for line in b["order_line_items"].as_array().unwrap() {
        if line["for_sale"] == false {
            assert_eq!(line["due_date"], due_moment.as_str(), "{line}");
        }
    }
    // A rental of 2 days 18 hours: the tent and each cable are billed 3 days.
    assert_eq!(b["rental_amount"], "39.00", "{b}");
    assert_eq!(b["sale_amount"], "4.50");

    let tent = item(&app, s.tent).await;
    assert_eq!(tent["state"], "checked_out");
    assert_eq!(tent["checkin_due_on"], due_moment.as_str());
    // On a rented-out order: `items_in_order` lists the tent (and the stock).
    let in_order = app
        .get("/assets/filter.api?status=items_in_order")
        .await
        .into_body(StatusCode::OK);
    assert_eq!(in_order["assets"][0]["sequence_num"], s.tent, "{in_order}");
    let stock_in_order = app
        .get("/stock_assets/filter.api?status=items_in_order")
        .await
        .into_body(StatusCode::OK);
    assert_eq!(stock_in_order["assets"][0]["sequence_num"], s.cables);
    let cables = item(&app, s.cables).await;
    assert_eq!(cables["checked_out_quantity"], 3);
    assert_eq!(quantity_at(&app, s.cables, s.store).await, 7);
    assert_eq!(quantity_at(&app, s.batteries, s.store).await, 18);
    assert_eq!(item(&app, s.batteries).await["net_quantity"], 18);

    // The tent comes back with the order only.
    let member = app.member("Max", "Staff", "max@example.com", &[]).await;
    let refusals = [
        app.put(
            &format!("/assets/{}/checkout.api?user_id={member}", s.tent),
            &[],
        )
        .await,
        app.put(&format!("/assets/{}/checkin.api", s.tent), &[])
            .await,
        app.put(
            &format!("/assets/{}/extend_checkout.api?till={}", s.tent, day(9)),
            &[],
        )
        .await,
        app.delete(&format!("/assets/{}.api", s.tent)).await,
    ];
    for r in refusals {
        assert_eq!(r.status, StatusCode::CONFLICT, "{}", r.text);
        assert!(
            r.body["message"]
                .as_str()
                .unwrap()
                .contains(&format!("rented out on order #{n}")),
            "{}",
            r.text
        );
    }
    assert_eq!(item(&app, s.tent).await["state"], "checked_out");

    // Nobody else gets the tent for an overlapping period, and asset stock left is 7.
    let other = draft(&app, s.ann, &s.tent.to_string(), &[]).await;
    book(&app, other, 1, 3).await.expect(StatusCode::CONFLICT);
    book(&app, other, 3, 4).await.expect(StatusCode::OK);
    let booked = app
        .get(&format!("/assets/{}/booked_dates.api", s.tent))
        .await
        .into_body(StatusCode::OK);
    assert_eq!(
        booked.to_string().matches("basket_state").count(),
        2,
        "{booked}"
    );

    // Renting out twice is refused, naming the state.
    let again = rent_out(&app, n, &[("use_current_datetime", "true")]).await;
    assert_eq!(again.status, StatusCode::CONFLICT, "{}", again.text);
    assert!(again.text.contains("Rented Out"), "{}", again.text);

    let history = app
        .get(&format!("/baskets/{n}/history.api"))
        .await
        .into_body(StatusCode::OK);
    assert_eq!(actions(&history, "history")[0], "rented_out");
    let tent_history = app
        .get(&format!("/assets/{}/history_paginate.api", s.tent))
        .await
        .into_body(StatusCode::OK);
    assert_eq!(actions(&tent_history, "history")[0], "rented_out_on_order");
    assert_eq!(tent_history["history"][0]["order"], n);
    let battery_history = app
        .get(&format!("/inventory/{}/history.api", s.batteries))
        .await
        .into_body(StatusCode::OK);
    assert_eq!(battery_history["history"][0]["order_type"], "New Sale");
    assert_eq!(battery_history["history"][0]["quantity"], 2);
    assert_eq!(
        battery_history["history"][0]["quantity_after_transaction"],
        18
    );
}

/// What a refused rent-out must leave as it was.
async fn unchanged(app: &TestApp, s: &Shop, n: i64) {
    assert_eq!(state_of(app, n).await, "drafted");
    assert_eq!(item(app, s.tent).await["state"], "available");
    assert_eq!(item(app, s.cables).await["checked_out_quantity"], 0);
    assert_eq!(quantity_at(app, s.cables, s.store).await, 10);
    assert_eq!(quantity_at(app, s.batteries, s.store).await, 20);
}

async fn refused_rent_outs_change_nothing(kind: Kind) {
    let app = TestApp::new(kind).await;
    let s = shop(&app).await;
    let n = full_draft(&app, &s).await;
    let due = day(2);
    let invalid: Vec<(Vec<(&str, &str)>, &str)> = vec![
        (vec![("use_current_datetime", "true")], "return_date"),
        (vec![("return_date", "01/01/2020")], "return_date"),
        (vec![("return_date", "13/45/2030")], "return_date"),
        (
            vec![("return_date", &due), ("return_time", "25:00")],
            "return_time",
        ),
        (vec![("return_time", "10:00")], "return_time"),
        (vec![("return_date", "null")], "return_date"),
        (
            vec![("return_date", &due), ("use_current_datetime", "maybe")],
            "use_current_datetime",
        ),
        (
            vec![
                ("rentout_date", &due),
                ("return_date", &due),
                ("rentout_time", "23:59"),
            ],
            "return_date",
        ),
        (
            vec![
                ("return_date", &due),
                ("bill_from", &due),
                ("bill_to", "01/01/2020"),
            ],
            "bill_to",
        ),
        (
            vec![
                ("return_date", &due),
                ("item_custom_attribute_values[999999]", "1"),
            ],
            "item_custom_attribute_values[999999]",
        ),
    ];
    for (form, field) in invalid {
        rent_out(&app, n, &form).await.expect_invalid(field);
        unchanged(&app, &s, n).await;
    }
    // An empty order has nothing to rent out.
    let empty = draft(&app, s.ann, "", &[]).await;
    rent_out(&app, empty, &[("return_date", &due)])
        .await
        .expect_invalid("asset_ids");
    assert_eq!(state_of(&app, empty).await, "drafted");

    // The tent out to a member: 409, and the cables and batteries stay.
    let member = app.member("Max", "Staff", "max@example.com", &[]).await;
    app.put(
        &format!("/assets/{}/checkout.api?user_id={member}", s.tent),
        &[],
    )
    .await
    .expect(StatusCode::OK);
    let r = rent_out(&app, n, &[("return_date", &due)]).await;
    assert_eq!(r.status, StatusCode::CONFLICT, "{}", r.text);
    assert!(r.text.contains(&format!("#{}", s.tent)), "{}", r.text);
    app.put(&format!("/assets/{}/checkin.api", s.tent), &[])
        .await
        .expect(StatusCode::OK);
    unchanged(&app, &s, n).await;

    // Cables booked by another order for the period: 10 − 8 leaves 2, not 3.
    let cq = format!("stock_assets_values[{}][quantity]", s.cables);
    let other = draft(&app, s.ann, &s.cables.to_string(), &[(cq.as_str(), "8")]).await;
    book(&app, other, 0, 1).await.expect(StatusCode::OK);
    let r = rent_out(&app, n, &[("return_date", &due)]).await;
    assert_eq!(r.status, StatusCode::CONFLICT, "{}", r.text);
    unchanged(&app, &s, n).await;
    app.patch(
        &format!("/baskets/{other}/cancel_reservation.api"),
        &[("cancel_booking", "removed")],
    )
    .await
    .expect(StatusCode::OK);

    // Enough units in all, but not at the line's location: 422 on quantity.
    let annex = app.location("Annex", &[]).await;
    let short = draft(
        &app,
        s.ann,
        &s.cables.to_string(),
        &[
            (cq.as_str(), "4"),
            (
                format!("stock_assets_values[{}][location_id]", s.cables).as_str(),
                annex.to_string().as_str(),
            ),
        ],
    )
    .await;
    app.add_stock("/stock_assets", s.cables, 2, annex).await;
    rent_out(&app, short, &[("return_date", &due)])
        .await
        .expect_invalid("quantity");
    assert_eq!(state_of(&app, short).await, "drafted");
    assert_eq!(quantity_at(&app, s.cables, annex).await, 2);

    // Now it goes.
    rent_out(&app, n, &[("return_date", &due)])
        .await
        .expect(StatusCode::OK);
    assert_eq!(state_of(&app, n).await, "checked_out");
}

async fn an_order_of_inventory_alone_completes_at_once(kind: Kind) {
    let app = TestApp::new(kind).await;
    let s = shop(&app).await;
    let bq = format!("volatile_assets_values[{}][quantity]", s.batteries);
    let n = draft(&app, s.ann, &s.batteries.to_string(), &[(bq.as_str(), "4")]).await;
    let b = rent_out(
        &app,
        n,
        &[("use_current_datetime", "true"), ("return_date", &day(1))],
    )
    .await
    .into_body(StatusCode::OK)["basket"]
        .clone();
    assert_eq!(b["basket_state"], "completed");
    assert_eq!(b["order_state"], "Completed");
    assert!(b["completed_on"].is_string());
    assert_eq!(b["net_amount"], "9.00");
    assert_eq!(quantity_at(&app, s.batteries, s.store).await, 16);
}

async fn a_rented_out_order_kept_longer_needs_its_items_longer(kind: Kind) {
    let app = TestApp::new(kind).await;
    let s = shop(&app).await;
    let n = draft(&app, s.ann, &s.tent.to_string(), &[]).await;
    rent_out(
        &app,
        n,
        &[("use_current_datetime", "true"), ("return_date", &day(2))],
    )
    .await
    .expect(StatusCode::OK);
    let other = draft(&app, s.ann, &s.tent.to_string(), &[]).await;
    book(&app, other, 5, 6).await.expect(StatusCode::OK);
    let path = format!("/baskets/{n}.api");
    let r = app.patch(&path, &[("due_date", &day(7))]).await;
    assert_eq!(r.status, StatusCode::CONFLICT, "{}", r.text);
    app.patch(&path, &[("due_date", "01/01/2020")])
        .await
        .expect_invalid("due_date");
    let before = item(&app, s.tent).await["checkin_due_on"].clone();
    assert!(
        before.as_str().unwrap().starts_with(
            &(chrono::Utc::now().date_naive() + chrono::Duration::days(2))
                .format("%Y-%m-%d")
                .to_string()
        )
    );
    // Two more days fit before the other booking; the tent is due with the order.
    let b = app
        .patch(&path, &[("due_date", &day(4))])
        .await
        .into_body(StatusCode::OK)["basket"]
        .clone();
    let later = (chrono::Utc::now().date_naive() + chrono::Duration::days(4))
        .format("%Y-%m-%d 23:59:00")
        .to_string();
    assert_eq!(b["due_date"], later.as_str());
    assert_eq!(b["order_line_items"][0]["due_date"], later.as_str());
    assert_eq!(item(&app, s.tent).await["checkin_due_on"], later.as_str());
    book(&app, other, 4, 6).await.expect(StatusCode::CONFLICT);
}

async fn fifty_racing_rent_outs_never_promise_stock_beyond_its_units(kind: Kind) {
    let app = TestApp::new(kind).await;
    let s = shop(&app).await;
    let cq = format!("stock_assets_values[{}][quantity]", s.cables);
    let mut orders = Vec::new();
    for _ in 0..50 {
        orders.push(draft(&app, s.ann, &s.cables.to_string(), &[(cq.as_str(), "3")]).await);
    }
    let due = day(2);
    let form = [("return_date", due.as_str())];
    let results =
        futures_util::future::join_all(orders.iter().map(|n| rent_out(&app, *n, &form))).await;
    let ok = results
        .iter()
        .filter(|r| r.status == StatusCode::OK)
        .count();
    let refused = results
        .iter()
        .filter(|r| r.status == StatusCode::CONFLICT)
        .count();
    assert_eq!((ok, refused), (3, 47));
    assert_eq!(quantity_at(&app, s.cables, s.store).await, 1);
    assert_eq!(item(&app, s.cables).await["checked_out_quantity"], 9);
    let out = app
        .get("/baskets.api?filters[state]=checked_out")
        .await
        .into_body(StatusCode::OK);
    assert_eq!(out["baskets"].as_array().unwrap().len(), 3);
}

/// Returns of orders holding a tent and a cable race rent-outs of other such orders:
/// each locks the shared cables and changes its tent (and with it the asset counts);
/// taken in different orders that deadlocked on PostgreSQL (503s). There are cables
/// for all 24 orders at once (10 + 14), so whatever order the requests run in none
/// is short of units: every one goes through, and the cables add up. (With 20 cables
/// the test depended on the returns running first: rent-outs that ran before them
/// were rightly refused, 409, once on PostgreSQL.)
async fn racing_rent_outs_and_returns_sharing_stock_all_go_through(kind: Kind) {
    let app = TestApp::new(kind).await;
    let s = shop(&app).await;
    app.add_stock("/stock_assets", s.cables, 14, s.store).await;
    let group = app.group("Racing").await;
    let cq = format!("stock_assets_values[{}][quantity]", s.cables);
    let due = day(2);
    let form = [("return_date", due.as_str())];
    let (mut out, mut waiting) = (Vec::new(), Vec::new());
    for i in 0..24 {
        // Tents numbered after the cables: a return used to change its tent first.
        let tent = rented_asset(&app, group, &format!("Tent {i}"), &[("daily", "10")]).await;
        let ids = format!("{tent},{}", s.cables);
        let n = draft(&app, s.ann, &ids, &[(cq.as_str(), "1")]).await;
        if i % 2 == 0 {
            rent_out(&app, n, &form).await.expect(StatusCode::OK);
            out.push(n);
        } else {
            waiting.push(n);
        }
    }
    let back = [("use_current_datetime", "true")];
    let returns = out.iter().map(|n| take_back(&app, *n, &back));
    let rents = waiting.iter().map(|n| rent_out(&app, *n, &form));
    let (returned, rented) = futures_util::future::join(
        futures_util::future::join_all(returns),
        futures_util::future::join_all(rents),
    )
    .await;
    for r in returned.iter().chain(&rented) {
        assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    }
    assert_eq!(item(&app, s.cables).await["checked_out_quantity"], 12);
    assert_eq!(quantity_at(&app, s.cables, s.store).await, 12);
}

/// Booking, renting out and returning an order wait for a write of one of its items
/// begun before them (`item_core::begin`), in turn: on PostgreSQL in the process, before
/// they take a connection (`orders::begin_on_items`; without it they went on, the item's
/// row not yet locked); on SQLite behind the write lock. On PostgreSQL an order whose
/// items are others goes on meanwhile.
async fn an_orders_moves_wait_for_a_write_of_its_items(kind: Kind) {
    use std::time::Duration;
    let app = TestApp::new(kind).await;
    let s = shop(&app).await;
    let cq = format!("stock_assets_values[{}][quantity]", s.cables);
    let n = draft(&app, s.ann, &s.cables.to_string(), &[(cq.as_str(), "2")]).await;
    let tent_only = draft(&app, s.ann, &s.tent.to_string(), &[]).await;
    let due = day(2);
    let (from, to) = (day(1), day(3));
    let rent = [("return_date", due.as_str())];
    let back = [("use_current_datetime", "true")];
    for step in ["book", "rent out", "return"] {
        let held = store::item_core::begin(&app.db, app.company.id, store::Number::new(s.cables))
            .await
            .unwrap();
        let moved = async {
            match step {
                "book" => {
                    app.patch(
                        &format!("/baskets/{n}/reservation.api"),
                        &[("from", from.as_str()), ("to", to.as_str())],
                    )
                    .await
                }
                "rent out" => rent_out(&app, n, &rent).await,
                _ => take_back(&app, n, &back).await,
            }
        };
        tokio::pin!(moved);
        assert!(
            tokio::time::timeout(Duration::from_millis(500), &mut moved)
                .await
                .is_err(),
            "{step} went on while a write of its item was under way"
        );
        if kind == Kind::Postgres && step == "book" {
            let other = tokio::time::timeout(
                Duration::from_secs(5),
                app.patch(
                    &format!("/baskets/{tent_only}/reservation.api"),
                    &[("from", from.as_str()), ("to", to.as_str())],
                ),
            )
            .await
            .expect("an order of other items does not wait");
            other.expect(StatusCode::OK);
        }
        held.commit().await.unwrap();
        moved.await.expect(StatusCode::OK);
    }
    assert_eq!(state_of(&app, n).await, "returned");
}

/// Every unit of a stock item out on one order (no location on the order, its line or
/// the item): the return, naming no location either, puts them back where they were
/// taken from, though that location holds none of them at the moment.
async fn stock_with_every_unit_out_comes_back_where_it_was_taken_from(kind: Kind) {
    let app = TestApp::new(kind).await;
    let s = shop(&app).await;
    let cq = format!("stock_assets_values[{}][quantity]", s.cables);
    let n = draft(&app, s.ann, &s.cables.to_string(), &[(cq.as_str(), "10")]).await;
    let due = day(2);
    rent_out(&app, n, &[("return_date", due.as_str())])
        .await
        .expect(StatusCode::OK);
    assert_eq!(quantity_at(&app, s.cables, s.store).await, 0);
    take_back(&app, n, &[("use_current_datetime", "true")])
        .await
        .expect(StatusCode::OK);
    assert_eq!(quantity_at(&app, s.cables, s.store).await, 10);
    assert_eq!(item(&app, s.cables).await["checked_out_quantity"], 0);
}

pub(crate) async fn take_back(app: &TestApp, n: i64, form: &[(&str, &str)]) -> crate::common::Res {
    app.patch(&format!("/baskets/{n}/checkin.api"), form).await
}

/// The tent gets a late fee of 5.00 a day.
async fn with_late_fee(app: &TestApp, s: &Shop) {
    app.patch(
        &format!("/assets/{}.api", s.tent),
        &[
            ("fixed_asset[late_fee_attributes][kind]", "day"),
            ("fixed_asset[late_fee_attributes][amount]", "5"),
        ],
    )
    .await
    .expect(StatusCode::OK);
}

async fn a_full_return_brings_everything_back_with_late_fees(kind: Kind) {
    let app = TestApp::new(kind).await;
    let s = shop(&app).await;
    with_late_fee(&app, &s).await;
    assert_eq!(
        item(&app, s.tent).await["late_fee"],
        json!({"kind": "day", "amount": "5.00"})
    );
    let n = full_draft(&app, &s).await;
    let line = app
        .get(&format!("/baskets/{n}.api"))
        .await
        .into_body(StatusCode::OK)["basket"]["order_line_items"][0]
        .clone();
    assert_eq!(
        line["late_fee_kind"], "day",
        "the fee is copied to the line"
    );
    rent_out(
        &app,
        n,
        &[("use_current_datetime", "true"), ("return_date", &day(1))],
    )
    .await
    .expect(StatusCode::OK);
    let shelf = app.location("Shelf", &[]).await.to_string();
    // Back after its due moment with a late fee but no late_due_date, which the spec
    // makes mandatory then: a 422 naming it, and nothing comes back.
    let res = take_back(&app, n, &[("return_date", &day(3))]).await;
    let problem = res.body["errors"]["late_due_date"][0]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    res.expect_invalid("late_due_date");
    assert!(problem.contains(&format!("#{}", s.tent)), "{problem}");
    assert_eq!(state_of(&app, n).await, "checked_out");
    // Due at the end of tomorrow; late fees run to the start of the day after the
    // next: 1 day and 1 minute late, 2 started days of 5.00.
    let b = take_back(
        &app,
        n,
        &[
            ("use_current_datetime", "true"),
            ("late_due_date", &day(3)),
            ("location_id", &shelf),
        ],
    )
    .await
    .into_body(StatusCode::OK)["basket"]
        .clone();
    assert_eq!(b["basket_state"], "returned", "{b}");
    let in_order = app
        .get("/assets/filter.api?status=items_in_order")
        .await
        .into_body(StatusCode::OK);
    assert_eq!(
        in_order["assets"],
        serde_json::json!([]),
        "back: on no open order"
    );
    assert_eq!(b["order_state"], "Returned");
    assert!(b["returned_on"].is_string());
    assert_eq!(b["late_fee_amount"], "10.00");
    let tent_line = &b["order_line_items"][0];
    assert_eq!(tent_line["late_fee"], "10.00", "{tent_line}");
    assert_eq!(tent_line["quantity_returned"], 1);
    assert!(tent_line["returned_at"].is_string());
    assert_eq!(b["order_line_items"][1]["quantity_returned"], 3);
    // 2 days of tent (20.00) and 3 cables (6.00), 2 batteries (4.50), late fee 10.00.
    assert_eq!(b["net_amount"], "40.50", "{b}");
    assert_eq!(b["balance_due"], "40.50");

    let tent = item(&app, s.tent).await;
    assert_eq!(tent["state"], "available");
    assert_eq!(tent["location_name"], "Shelf");
    assert_eq!(tent["checkin_due_on"], Value::Null);
    let shelf_id: i64 = shelf.parse().unwrap();
    assert_eq!(quantity_at(&app, s.cables, shelf_id).await, 3);
    assert_eq!(item(&app, s.cables).await["checked_out_quantity"], 0);
    assert_eq!(quantity_at(&app, s.batteries, s.store).await, 18);

    let again = take_back(&app, n, &[]).await;
    assert_eq!(again.status, StatusCode::CONFLICT, "{}", again.text);
    assert!(again.text.contains("Returned"), "{}", again.text);
    // The tent is free again: a member may take it, another order book it.
    let member = app.member("Max", "Staff", "max@example.com", &[]).await;
    app.put(
        &format!("/assets/{}/checkout.api?user_id={member}", s.tent),
        &[],
    )
    .await
    .expect(StatusCode::OK);
    let history = app
        .get(&format!("/baskets/{n}/history.api"))
        .await
        .into_body(StatusCode::OK);
    assert_eq!(actions(&history, "history")[0], "returned");
}

async fn a_partial_return_keeps_the_rest_out_longer(kind: Kind) {
    let app = TestApp::new(kind).await;
    let s = shop(&app).await;
    let cq = format!("stock_assets_values[{}][quantity]", s.cables);
    let ids = format!("{},{}", s.tent, s.cables);
    let n = draft(&app, s.ann, &ids, &[(cq.as_str(), "5")]).await;
    let b = rent_out(
        &app,
        n,
        &[("use_current_datetime", "true"), ("return_date", &day(2))],
    )
    .await
    .into_body(StatusCode::OK)["basket"]
        .clone();
    let cable_line = b["order_line_items"][1]["id"].as_i64().unwrap();
    let key = format!("stock_asset_with_quantity[{cable_line}]");
    let tent = s.tent.to_string();
    let b = take_back(
        &app,
        n,
        &[
            ("partial_return", "true"),
            ("fixed_asset_ids", &tent),
            (&key, "2"),
            ("due_date_for_left_over_items", &day(4)),
        ],
    )
    .await
    .into_body(StatusCode::OK)["basket"]
        .clone();
    assert_eq!(b["basket_state"], "checked_out", "{b}");
    let later = (chrono::Utc::now().date_naive() + chrono::Duration::days(4))
        .format("%Y-%m-%d 23:59:00")
        .to_string();
    assert_eq!(b["due_date"], later.as_str());
    assert_eq!(b["order_line_items"][1]["quantity_returned"], 2);
    assert_eq!(b["order_line_items"][1]["due_date"], later.as_str());
    assert_eq!(item(&app, s.tent).await["state"], "available");
    assert_eq!(item(&app, s.cables).await["checked_out_quantity"], 3);
    assert_eq!(quantity_at(&app, s.cables, s.store).await, 7);
    // The 3 cables still out are promised to day 4: 8 more on day 3 is too many.
    let other = draft(&app, s.ann, &s.cables.to_string(), &[(cq.as_str(), "8")]).await;
    book(&app, other, 3, 3).await.expect(StatusCode::CONFLICT);
    let seven = draft(&app, s.ann, &s.cables.to_string(), &[(cq.as_str(), "7")]).await;
    book(&app, seven, 3, 3).await.expect(StatusCode::OK);
    // The tent was returned: it is free for the later days.
    let tent_order = draft(&app, s.ann, &tent, &[]).await;
    book(&app, tent_order, 3, 3).await.expect(StatusCode::OK);
    // The rest comes back: the order is Returned (it owes its rent).
    let b = take_back(&app, n, &[("use_current_datetime", "true")])
        .await
        .into_body(StatusCode::OK)["basket"]
        .clone();
    assert_eq!(b["basket_state"], "returned", "{b}");
    assert_eq!(b["order_line_items"][1]["quantity_returned"], 5);
    assert_eq!(item(&app, s.cables).await["checked_out_quantity"], 0);
    assert_eq!(quantity_at(&app, s.cables, s.store).await, 10);
}

async fn refused_returns_change_nothing(kind: Kind) {
    let app = TestApp::new(kind).await;
    let s = shop(&app).await;
    let n = full_draft(&app, &s).await;
    take_back(&app, n, &[]).await.expect(StatusCode::CONFLICT);
    let b = rent_out(
        &app,
        n,
        &[("use_current_datetime", "true"), ("return_date", &day(2))],
    )
    .await
    .into_body(StatusCode::OK)["basket"]
        .clone();
    let cable_line = b["order_line_items"][1]["id"].as_i64().unwrap();
    let battery_line = b["order_line_items"][2]["id"].as_i64().unwrap();
    let (cable_key, battery_key) = (
        format!("stock_asset_with_quantity[{cable_line}]"),
        format!("stock_asset_with_quantity[{battery_line}]"),
    );
    let tent = s.tent.to_string();
    let cables = s.cables.to_string();
    let invalid: Vec<(Vec<(&str, &str)>, &str)> = vec![
        (vec![("return_date", "01/01/2020")], "return_date"),
        (vec![("return_date", "someday")], "return_date"),
        (vec![("late_due_date", "01/01/2020")], "late_due_date"),
        (vec![("location_id", "999999")], "location_id"),
        (vec![("location_id", "abc")], "location_id"),
        (vec![("fixed_asset_ids", &tent)], "fixed_asset_ids"),
        (vec![("partial_return", "true")], "partial_return"),
        (vec![("partial_return", "yes please")], "partial_return"),
        (
            vec![("partial_return", "true"), ("fixed_asset_ids", &cables)],
            "fixed_asset_ids",
        ),
        (
            vec![("partial_return", "true"), ("fixed_asset_ids", "999999")],
            "fixed_asset_ids",
        ),
        (
            vec![("partial_return", "true"), (&cable_key, "4")],
            &cable_key,
        ),
        (
            vec![("partial_return", "true"), (&cable_key, "0")],
            &cable_key,
        ),
        (
            vec![("partial_return", "true"), (&battery_key, "1")],
            &battery_key,
        ),
        (
            vec![("partial_return", "true"), ("subrent_item_ids", "1")],
            "subrent_item_ids",
        ),
        (
            vec![("partial_return", "true"), ("bundle_with_quantity[1]", "1")],
            "bundle_with_quantity[1]",
        ),
        (
            vec![
                ("partial_return", "true"),
                ("fixed_asset_ids", &tent),
                ("due_date_for_left_over_items", "01/01/2020"),
            ],
            "due_date_for_left_over_items",
        ),
        (
            vec![("item_custom_attribute_values[abc]", "1")],
            "item_custom_attribute_values[abc]",
        ),
    ];
    for (form, field) in invalid {
        take_back(&app, n, &form).await.expect_invalid(field);
        assert_eq!(state_of(&app, n).await, "checked_out");
        assert_eq!(item(&app, s.tent).await["state"], "checked_out");
        assert_eq!(item(&app, s.cables).await["checked_out_quantity"], 3);
        assert_eq!(quantity_at(&app, s.cables, s.store).await, 7);
    }
    // The store says what is not out; the interface words where to look instead.
    let worded = [
        (
            vec![("partial_return", "true")],
            "partial_return",
            "names nothing to return: give fixed_asset_ids, stock_asset_with_quantity, subrent_item_ids or bundle_with_quantity".to_owned(),
        ),
        (
            vec![("partial_return", "true"), ("fixed_asset_ids", &cables)],
            "fixed_asset_ids",
            format!("are not fixed assets out on order #{n}: {cables}"),
        ),
        (
            vec![("partial_return", "true"), (battery_key.as_str(), "1")],
            battery_key.as_str(),
            format!("{battery_line} is not a line of asset stock out on order #{n} (see order_line_items)"),
        ),
        (
            vec![("partial_return", "true"), ("subrent_item_ids", "1")],
            "subrent_item_ids",
            format!("are not sub-rental items out on order #{n}: 1 (see baskets_sub_rent_items)"),
        ),
        (
            vec![("partial_return", "true"), ("bundle_with_quantity[1]", "1")],
            "bundle_with_quantity[1]",
            format!("1 is not a bundle out on order #{n}"),
        ),
    ];
    for (form, field, said) in worded {
        let body = take_back(&app, n, &form)
            .await
            .into_body(StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(body["errors"][field][0], said.as_str(), "{body}");
    }
}

async fn sub_rental_items_go_out_and_come_back(kind: Kind) {
    let app = TestApp::new(kind).await;
    let s = shop(&app).await;
    let n = draft(&app, s.ann, &s.tent.to_string(), &[]).await;
    let add = format!("/baskets/{n}/add_sub_rent_item.api");
    for (form, field) in [
        (vec![("baskets_sub_rent_item[price]", "five")], "price"),
        (vec![("baskets_sub_rent_item[price]", "-1")], "price"),
        (
            vec![
                ("baskets_sub_rent_item[name]", "Generator"),
                ("baskets_sub_rent_item[price]", "5"),
                ("baskets_sub_rent_item[quantity]", "0"),
            ],
            "quantity",
        ),
        (
            vec![
                ("baskets_sub_rent_item[name]", "Generator"),
                ("baskets_sub_rent_item[price]", "5"),
                ("baskets_sub_rent_item[is_for_rent]", "sometimes"),
            ],
            "is_for_rent",
        ),
    ] {
        app.patch(&add, &form).await.expect_invalid(field);
    }
    // The spec requires neither a name nor a price: called by its item number (or
    // "Sub-rental item"), priced 0.00.
    let ann = s.ann.to_string();
    let other = crate::orders::create(&app, &[("basket[customer_id]", &ann)])
        .await
        .into_body(StatusCode::OK)["basket"]["sequence_num"]
        .as_i64()
        .unwrap();
    let other_add = format!("/baskets/{other}/add_sub_rent_item.api");
    app.patch(&other_add, &[("baskets_sub_rent_item[item_no]", "GEN-9")])
        .await
        .expect(StatusCode::OK);
    let b = app.patch(&other_add, &[]).await.into_body(StatusCode::OK);
    let subs = &b["basket"]["baskets_sub_rent_items"];
    assert_eq!(subs[0]["name"], "GEN-9", "{b}");
    assert_eq!(subs[0]["price"], "0.00");
    assert_eq!(subs[0]["amount"], "0.00");
    assert_eq!(subs[1]["name"], "Sub-rental item");
    app.patch(
        &add,
        &[
            ("baskets_sub_rent_item[name]", "Generator"),
            ("baskets_sub_rent_item[price]", "50"),
            ("baskets_sub_rent_item[quantity]", "2"),
            ("baskets_sub_rent_item[item_no]", "GEN-7"),
            ("baskets_sub_rent_item[location]", "Supplier yard"),
        ],
    )
    .await
    .expect(StatusCode::OK);
    let b = app
        .patch(
            &add,
            &[
                ("baskets_sub_rent_item[name]", "Fuel"),
                ("baskets_sub_rent_item[price]", "5"),
                ("baskets_sub_rent_item[is_for_rent]", "false"),
            ],
        )
        .await
        .into_body(StatusCode::OK)["basket"]
        .clone();
    let subs = &b["baskets_sub_rent_items"];
    assert_eq!(subs[0]["amount"], "100.00", "{b}");
    assert_eq!(subs[0]["item_no"], "GEN-7");
    assert_eq!(subs[1]["is_for_rent"], false);
    assert_eq!(b["rental_amount"], "100.00");
    assert_eq!(b["sale_amount"], "5.00");
    let generator = subs[0]["id"].as_i64().unwrap().to_string();

    rent_out(
        &app,
        n,
        &[("use_current_datetime", "true"), ("return_date", &day(1))],
    )
    .await
    .expect(StatusCode::OK);
    // The tent back, the generator still out: still Rented Out.
    let tent = s.tent.to_string();
    let b = take_back(
        &app,
        n,
        &[("partial_return", "true"), ("fixed_asset_ids", &tent)],
    )
    .await
    .into_body(StatusCode::OK)["basket"]
        .clone();
    assert_eq!(b["basket_state"], "checked_out", "{b}");
    // The fuel was sold, not rented: it does not come back.
    let fuel = b["baskets_sub_rent_items"][1]["id"]
        .as_i64()
        .unwrap()
        .to_string();
    take_back(
        &app,
        n,
        &[("partial_return", "true"), ("subrent_item_ids", &fuel)],
    )
    .await
    .expect_invalid("subrent_item_ids");
    let b = take_back(
        &app,
        n,
        &[("partial_return", "true"), ("subrent_item_ids", &generator)],
    )
    .await
    .into_body(StatusCode::OK)["basket"]
        .clone();
    assert_eq!(b["basket_state"], "returned", "{b}");
    assert!(b["baskets_sub_rent_items"][0]["returned_at"].is_string());
    app.patch(
        &add,
        &[
            ("baskets_sub_rent_item[name]", "Late"),
            ("baskets_sub_rent_item[price]", "1"),
        ],
    )
    .await
    .expect(StatusCode::CONFLICT);
}

async fn bundles_go_on_and_off_orders_and_come_back_whole(kind: Kind) {
    let app = TestApp::new(kind).await;
    let s = shop(&app).await;
    let (tent_key, cable_key) = (
        format!("bundle[items][{}]", s.tent),
        format!("bundle[items][{}]", s.cables),
    );
    for (form, field) in [
        (vec![(tent_key.as_str(), "1")], "name"),
        (vec![("bundle[name]", "Kit")], "items"),
        (
            vec![("bundle[name]", "Kit"), ("bundle[items][999999]", "1")],
            "items",
        ),
        (
            vec![("bundle[name]", "Kit"), (tent_key.as_str(), "2")],
            "items",
        ),
        (
            vec![("bundle[name]", "Kit"), (cable_key.as_str(), "0")],
            &format!("items][{}", s.cables),
        ),
    ] {
        app.post("/bundles.api", &form).await.expect_invalid(field);
    }
    let kit = app
        .post(
            "/bundles.api",
            &[
                ("bundle[name]", "Party kit"),
                ("bundle[description]", "tent and cables"),
                (tent_key.as_str(), "1"),
                (cable_key.as_str(), "4"),
            ],
        )
        .await
        .into_body(StatusCode::OK)["bundle"]
        .clone();
    assert_eq!(kit["items"][1]["quantity"], 4, "{kit}");
    let id = kit["id"].as_i64().unwrap();
    app.post(
        "/bundles.api",
        &[("bundle[name]", "party kit"), (tent_key.as_str(), "1")],
    )
    .await
    .expect(StatusCode::OK);
    app.post(
        "/bundles.api",
        &[("bundle[name]", "Party kit"), (tent_key.as_str(), "1")],
    )
    .await
    .expect_invalid("name");
    assert_eq!(
        app.get(&format!("/bundles/{id}.api"))
            .await
            .into_body(StatusCode::OK)["bundle"]["name"],
        "Party kit"
    );
    app.get("/bundles/999999.api")
        .await
        .expect(StatusCode::NOT_FOUND);

    // On an order at once; an unknown bundle or an item twice is refused.
    let b_ids = format!("{id}-b");
    let n = draft(&app, s.ann, &b_ids, &[]).await;
    let add = format!("/baskets/{n}/update_basket_from_show.api");
    app.patch(&add, &[("asset_ids", "999999-b")])
        .await
        .expect_invalid("asset_ids");
    app.patch(&add, &[("asset_ids", &s.tent.to_string())])
        .await
        .expect_invalid("asset_ids");
    let b = app
        .get(&format!("/baskets/{n}.api"))
        .await
        .into_body(StatusCode::OK)["basket"]
        .clone();
    let lines = b["order_line_items"].as_array().unwrap();
    assert_eq!(lines.len(), 2, "{b}");
    assert!(lines.iter().all(|l| l["bundle_id"] == id));
    assert_eq!(lines[1]["quantity"], 4);

    // Off without its items (FALSE), then with them (TRUE, the default).
    let remove = format!("/baskets/{n}/remove_asset.api");
    let b = app
        .patch(
            &remove,
            &[("asset_ids", &b_ids), ("remove_complete_bundle", "FALSE")],
        )
        .await
        .into_body(StatusCode::OK)["basket"]
        .clone();
    assert_eq!(b["order_line_items"].as_array().unwrap().len(), 2);
    assert!(b["order_line_items"][0]["bundle_id"].is_null());
    app.patch(&remove, &[("asset_ids", &b_ids)])
        .await
        .expect_invalid("asset_ids");
    let both = format!("{},{}", s.tent, s.cables);
    app.patch(&remove, &[("asset_ids", &both)])
        .await
        .expect(StatusCode::OK);
    app.patch(&add, &[("asset_ids", &b_ids)])
        .await
        .expect(StatusCode::OK);
    let b = app
        .patch(
            &remove,
            &[("asset_ids", &b_ids), ("remove_complete_bundle", "TRUE")],
        )
        .await
        .into_body(StatusCode::OK)["basket"]
        .clone();
    assert_eq!(b["order_line_items"], serde_json::json!([]));
    app.patch(
        &remove,
        &[("asset_ids", &b_ids), ("remove_complete_bundle", "maybe")],
    )
    .await
    .expect_invalid("remove_complete_bundle");

    // Rented out and brought back as a whole.
    app.patch(&add, &[("asset_ids", &b_ids)])
        .await
        .expect(StatusCode::OK);
    rent_out(
        &app,
        n,
        &[("use_current_datetime", "true"), ("return_date", &day(1))],
    )
    .await
    .expect(StatusCode::OK);
    let two = format!("bundle_with_quantity[{id}]");
    take_back(&app, n, &[("partial_return", "true"), (&two, "2")])
        .await
        .expect_invalid(&two);
    let b = take_back(&app, n, &[("partial_return", "true"), (&two, "1")])
        .await
        .into_body(StatusCode::OK)["basket"]
        .clone();
    assert_eq!(b["basket_state"], "returned", "{b}");
    assert_eq!(item(&app, s.cables).await["checked_out_quantity"], 0);
}

async fn bundles_go_on_in_sets_and_come_back_in_parts(kind: Kind) {
    let app = TestApp::new(kind).await;
    let s = shop(&app).await;
    let bundle = |name: &'static str, items: Vec<(String, &'static str)>| {
        let app = &app;
        async move {
            let mut form = vec![("bundle[name]".to_owned(), name.to_owned())];
            form.extend(items.into_iter().map(|(k, v)| (k, v.to_owned())));
            let form: Vec<(&str, &str)> =
                form.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
            app.post("/bundles.api", &form)
                .await
                .into_body(StatusCode::OK)["bundle"]["id"]
                .as_i64()
                .unwrap()
        }
    };
    let pack = bundle(
        "Cable pack",
        vec![(format!("bundle[items][{}]", s.cables), "2")],
    )
    .await;
    let kit = bundle(
        "Tent kit",
        vec![(format!("bundle[items][{}]", s.tent), "1")],
    )
    .await;
    let (pack_ids, pack_sets) = (format!("{pack}-b"), format!("bundle_with_quantity[{pack}]"));
    let (kit_ids, kit_sets) = (format!("{kit}-b"), format!("bundle_with_quantity[{kit}]"));
    // Two sets at once, then one more: one line of 6 units, 3 sets.
    let n = draft(&app, s.ann, &pack_ids, &[(&pack_sets, "2")]).await;
    let add = format!("/baskets/{n}/update_basket_from_show.api");
    let b = app
        .patch(&add, &[("asset_ids", &pack_ids)])
        .await
        .into_body(StatusCode::OK)["basket"]
        .clone();
    let lines = b["order_line_items"].as_array().unwrap();
    assert_eq!(lines.len(), 1, "{b}");
    assert_eq!(lines[0]["quantity"], 6);
    assert_eq!(lines[0]["bundle_quantity"], 3);
    // A bundle holding a fixed asset goes on once, as one set; a set count must be a
    // quantity. Nothing changes on a refusal.
    for form in [
        vec![("asset_ids", kit_ids.as_str()), (kit_sets.as_str(), "2")],
        vec![("asset_ids", pack_ids.as_str()), (pack_sets.as_str(), "0")],
        vec![
            ("asset_ids", pack_ids.as_str()),
            (pack_sets.as_str(), "many"),
        ],
    ] {
        let res = app.patch(&add, &form).await;
        assert_eq!(res.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", res.text);
    }
    app.patch(&add, &[("asset_ids", &kit_ids)])
        .await
        .expect(StatusCode::OK);
    app.patch(&add, &[("asset_ids", &kit_ids)])
        .await
        .expect_invalid("asset_ids");
    let b = app
        .get(&format!("/baskets/{n}.api"))
        .await
        .into_body(StatusCode::OK)["basket"]
        .clone();
    assert_eq!(b["order_line_items"].as_array().unwrap().len(), 2, "{b}");
    assert_eq!(b["order_line_items"][0]["quantity"], 6);
    // Out, then back in parts: one set, too many, the rest.
    rent_out(
        &app,
        n,
        &[("use_current_datetime", "true"), ("return_date", &day(1))],
    )
    .await
    .expect(StatusCode::OK);
    assert_eq!(item(&app, s.cables).await["checked_out_quantity"], 6);
    let b = take_back(&app, n, &[("partial_return", "true"), (&pack_sets, "1")])
        .await
        .into_body(StatusCode::OK)["basket"]
        .clone();
    assert_eq!(b["basket_state"], "checked_out", "{b}");
    assert_eq!(b["order_line_items"][0]["quantity_returned"], 2);
    assert_eq!(item(&app, s.cables).await["checked_out_quantity"], 4);
    let res = take_back(&app, n, &[("partial_return", "true"), (&pack_sets, "3")]).await;
    let problem = res.body["errors"][pack_sets.as_str()][0].clone();
    res.expect_invalid(&pack_sets);
    assert_eq!(
        problem,
        format!("is more than is out: 2 set(s) of bundle {pack}")
    );
    let b = take_back(
        &app,
        n,
        &[
            ("partial_return", "true"),
            (&pack_sets, "2"),
            (&kit_sets, "1"),
        ],
    )
    .await
    .into_body(StatusCode::OK)["basket"]
        .clone();
    assert_ne!(b["basket_state"], "checked_out", "{b}");
    assert_eq!(b["order_line_items"][0]["quantity_returned"], 6);
    assert_eq!(item(&app, s.cables).await["checked_out_quantity"], 0);
}
