//! Rental orders (baskets): the record, its list and history, what each state lets an
//! update change, and items put on and taken off an order with their prices.

use crate::common::{Kind, TestApp, assert_documented, openapi_document};
use axum::http::{Method, StatusCode};
use serde_json::{Value, json};

both!(
    create_read_update_list_and_history,
    bad_orders_are_refused_and_write_nothing,
    updates_follow_the_state_table,
    items_are_added_priced_and_removed,
    items_that_cannot_go_on_an_order_are_refused,
    company_pricing_settings_apply,
    a_draft_past_the_ceiling_stays_readable,
    another_companys_orders_do_not_exist,
    book_and_cancel_a_booking,
    bookings_never_promise_an_item_twice,
    fifty_racing_bookings_of_one_asset_book_it_once,
    racing_bookings_never_promise_stock_beyond_its_units,
    orders_created_and_booked_at_once_all_succeed,
    business_orders_follow_the_spec,
    order_moments_follow_the_spec,
    answers_are_the_documented_record,
    rules_between_fields_are_read_and_documented_alike,
    json_takes_what_the_document_says,
);

pub(crate) async fn create(app: &TestApp, form: &[(&str, &str)]) -> crate::common::Res {
    app.post("/baskets.api", form).await
}

async fn order_count(app: &TestApp) -> usize {
    app.get("/baskets.api").await.into_body(StatusCode::OK)["baskets"]
        .as_array()
        .unwrap()
        .len()
}

async fn create_read_update_list_and_history(kind: Kind) {
    let app = TestApp::new(kind).await;
    let ann = app.customer("Ann", "Renter", &[]).await.to_string();
    let store = app.location("Main Store", &[]).await.to_string();
    let res = create(
        &app,
        &[
            ("basket[customer_id]", &ann),
            ("basket[description]", "Wedding"),
            ("expected_checkout_date", "07/01/2027"),
            ("expected_checkout_time", "09:00"),
            ("due_date", "07/03/2027"),
            ("basket[order_discount]", "12.5"),
            ("basket[location_id]", &store),
        ],
    )
    .await;
    let b = res.into_body(StatusCode::OK)["basket"].clone();
    assert_eq!(b["basket_state"], "drafted");
    assert_eq!(b["order_state"], "Draft");
    assert_eq!(b["associated_customer"]["name"], "Ann Renter");
    assert_eq!(b["expected_checkout_date"], "2027-07-01 09:00:00");
    assert_eq!(b["due_date"], "2027-07-03 23:59:00");
    assert_eq!(b["order_discount"], "12.50");
    assert_eq!(b["net_amount"], "0.00");
    assert_eq!(b["order_line_items"], serde_json::json!([]));
    let n = b["sequence_num"].as_i64().unwrap();

    let res = app
        .patch(
            &format!("/baskets/{n}.api"),
            &[
                ("basket[description]", "Wedding, 120 guests"),
                ("basket[identification_number]", "W-7"),
            ],
        )
        .await;
    let b = res.into_body(StatusCode::OK)["basket"].clone();
    assert_eq!(b["description"], "Wedding, 120 guests");
    assert_eq!(b["identification_number"], "W-7");
    assert_eq!(b["order_discount"], "12.50", "kept");
    let read = app
        .get(&format!("/baskets/{n}.api"))
        .await
        .into_body(StatusCode::OK);
    assert_eq!(read["basket"]["identification_number"], "W-7");
    for bad in ["9999", "abc", "0", "-1"] {
        for path in [
            format!("/baskets/{bad}.api"),
            format!("/baskets/{bad}/history.api"),
        ] {
            assert_eq!(
                app.get(&path).await.into_body(StatusCode::NOT_FOUND)["message"],
                "No such order in this company. Check the order number (sequence_num).",
                "{path}"
            );
        }
    }
    app.patch(
        "/baskets/9999/update_basket_from_show.api",
        &[("asset_ids", "1")],
    )
    .await
    .expect(StatusCode::NOT_FOUND);

    for _ in 0..26 {
        create(&app, &[("basket[customer_id]", &ann)])
            .await
            .expect(StatusCode::OK);
    }
    let first = app.get("/baskets.api").await.into_body(StatusCode::OK);
    assert_eq!(first["total_pages"], 2);
    assert_eq!(first["baskets"].as_array().unwrap().len(), 25);
    assert_eq!(first["baskets"][0]["sequence_num"], n);
    for state in ["drafted", "Draft", "draft"] {
        let drafts = app
            .get(&format!("/baskets.api?filters[state]={state}&page=2"))
            .await
            .into_body(StatusCode::OK);
        assert_eq!(drafts["baskets"].as_array().unwrap().len(), 2, "{state}");
    }
    let done = app
        .get("/baskets.api?filters[completed]=true")
        .await
        .into_body(StatusCode::OK);
    assert_eq!(done["baskets"].as_array().unwrap().len(), 0);
    app.get("/baskets.api?filters[state]=lost")
        .await
        .expect_invalid("filters[state]");

    let history = app
        .get(&format!("/baskets/{n}/history.api"))
        .await
        .into_body(StatusCode::OK);
    let actions: Vec<&str> = history["history"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["action"].as_str().unwrap())
        .collect();
    assert_eq!(actions, vec!["updated", "created"]);
}

async fn bad_orders_are_refused_and_write_nothing(kind: Kind) {
    let app = TestApp::new(kind).await;
    let ann = app.customer("Ann", "Renter", &[]).await.to_string();
    create(&app, &[("basket[description]", "x")])
        .await
        .expect_invalid("customer_id");
    create(&app, &[("basket[customer_id]", "9999")])
        .await
        .expect_invalid("customer_id");
    let c = |extra: &[(&'static str, &'static str)]| {
        let mut form = vec![("basket[customer_id]", ann.as_str())];
        form.extend_from_slice(extra);
        form
    };
    for (field, extra) in [
        ("order_discount", vec![("basket[order_discount]", "101")]),
        ("order_discount", vec![("basket[order_discount]", "-1")]),
        ("order_discount", vec![("basket[order_discount]", "10.555")]),
        ("order_discount", vec![("basket[order_discount]", "ten")]),
        (
            "due_date",
            vec![
                ("expected_checkout_date", "07/03/2027"),
                ("due_date", "07/01/2027"),
            ],
        ),
        ("due_date", vec![("due_date", "07/32/2027")]),
        (
            "due_time",
            vec![("due_date", "07/02/2027"), ("due_time", "25:00")],
        ),
        (
            "bill_from",
            vec![
                ("expected_checkout_date", "07/03/2027"),
                ("due_date", "07/09/2027"),
                ("bill_from", "07/02/2027"),
            ],
        ),
        (
            "bill_to",
            vec![
                ("expected_checkout_date", "07/03/2027"),
                ("due_date", "07/09/2027"),
                ("bill_to", "07/10/2027"),
            ],
        ),
        ("location_id", vec![("basket[location_id]", "9999")]),
        ("assigned_to_id", vec![("basket[assigned_to_id]", "9999")]),
        (
            "shipping_address_id",
            vec![("basket[shipping_address_id]", "9999")],
        ),
        ("business_id", vec![("business_id", "9999")]),
        (
            "location_for_delivery",
            vec![("basket[location_for_delivery]", "perhaps")],
        ),
    ] {
        create(&app, &c(&extra)).await.expect_invalid(field);
    }
    // Moments out of order name the moment they are checked against.
    for (field, extra, said) in [
        (
            "due_date",
            vec![
                ("expected_checkout_date", "07/03/2027"),
                ("due_date", "07/01/2027"),
            ],
            "must be later than expected_checkout_date",
        ),
        (
            "bill_from",
            vec![
                ("expected_checkout_date", "07/03/2027"),
                ("due_date", "07/09/2027"),
                ("bill_from", "07/02/2027"),
            ],
            "can't be before expected_checkout_date",
        ),
        (
            "bill_to",
            vec![
                ("expected_checkout_date", "07/03/2027"),
                ("due_date", "07/09/2027"),
                ("bill_to", "07/10/2027"),
            ],
            "can't be after due_date",
        ),
        (
            "bill_to",
            vec![
                ("expected_checkout_date", "07/03/2027"),
                ("due_date", "07/09/2027"),
                ("bill_from", "07/05/2027"),
                ("bill_to", "07/04/2027"),
            ],
            "must be later than bill_from",
        ),
    ] {
        let res = create(&app, &c(&extra)).await;
        assert_eq!(res.body["errors"][field][0], said, "{}", res.body);
    }
    // One 422 names every problem, of the basket's fields and the top-level ones.
    let res = create(
        &app,
        &[
            ("basket[customer_id]", "0"),
            ("basket[order_discount]", "ten"),
            ("basket[location_for_pickup]", "perhaps"),
            ("due_date", "07/32/2027"),
            ("bill_to_time", "10:00"),
            ("business_id", "x"),
            ("asset_ids", "1,x,1"),
        ],
    )
    .await;
    for field in [
        "customer_id",
        "order_discount",
        "location_for_pickup",
        "due_date",
        "bill_to_time",
        "business_id",
        "asset_ids",
    ] {
        res.expect_invalid(field);
    }
    // An update names them alike, and an order can't lose its customer.
    let n = create(&app, &c(&[])).await.into_body(StatusCode::OK)["basket"]["sequence_num"]
        .as_i64()
        .unwrap();
    let res = app
        .patch(
            &format!("/baskets/{n}.api"),
            &[
                ("basket[customer_id]", "null"),
                ("basket[pick_up_location_id]", "-3"),
                ("expected_checkout_time", "08:00"),
            ],
        )
        .await;
    for field in [
        "customer_id",
        "pick_up_location_id",
        "expected_checkout_time",
    ] {
        res.expect_invalid(field);
    }
    // A list's filters are words of their sets.
    for (query, field) in [
        ("filters[state]=lost", "filters[state]"),
        ("filters[completed]=perhaps", "filters[completed]"),
        ("page=0", "page"),
    ] {
        app.get(&format!("/baskets.api?{query}"))
            .await
            .expect_invalid(field);
    }
    assert_eq!(
        app.get("/baskets.api?filters[state]=Rented%20Out")
            .await
            .into_body(StatusCode::OK)["baskets"],
        serde_json::json!([])
    );
    assert_eq!(order_count(&app).await, 1);
}

async fn updates_follow_the_state_table(kind: Kind) {
    let app = TestApp::new(kind).await;
    let ann = app.customer("Ann", "Renter", &[]).await;
    // Orders in other states come from the store until the state actions exist.
    for state in ["booked", "checked_out", "completed", "sold"] {
        app.order(Some(ann), None, state).await;
    }
    let (booked, out, completed, sold) = (1, 2, 3, 4);
    let patch = |n: i64, form: &'static [(&'static str, &'static str)]| {
        let app = &app;
        async move { app.patch(&format!("/baskets/{n}.api"), form).await }
    };
    // Allowed in the state: written.
    let b = patch(booked, &[("basket[identification_number]", "B-1")])
        .await
        .into_body(StatusCode::OK);
    assert_eq!(b["basket"]["identification_number"], "B-1");
    let b = patch(out, &[("due_date", "08/01/2027")])
        .await
        .into_body(StatusCode::OK);
    assert_eq!(b["basket"]["due_date"], "2027-08-01 23:59:00");
    patch(completed, &[("basket[invoice_heading]", "Thanks")])
        .await
        .expect(StatusCode::OK);
    // Not allowed: 409 naming the state and the attributes, nothing written.
    let res = patch(
        booked,
        &[("due_date", "08/01/2027"), ("basket[description]", "late")],
    )
    .await;
    assert_eq!(
        res.into_body(StatusCode::CONFLICT)["message"],
        "Order #1 is Booked; due_date can't be changed in that state (it allows identification_number, assigned_to_id, description, invoice_heading, pick_up_location_id, shipping_address_id). Nothing was changed."
    );
    let after = app
        .get(&format!("/baskets/{booked}.api"))
        .await
        .into_body(StatusCode::OK);
    assert_eq!(after["basket"]["description"], Value::Null);
    assert_eq!(after["basket"]["due_date"], Value::Null);
    patch(out, &[("basket[order_discount]", "5")])
        .await
        .expect(StatusCode::CONFLICT);
    patch(completed, &[("basket[assigned_to_id]", "1")])
        .await
        .expect(StatusCode::CONFLICT);
    let res = patch(sold, &[("basket[description]", "x")]).await;
    assert!(
        res.into_body(StatusCode::CONFLICT)["message"]
            .as_str()
            .unwrap()
            .contains("it allows no changes")
    );
}

/// A fixed asset with the given rates (`rental_price_attributes`).
pub(crate) async fn rented_asset(
    app: &TestApp,
    group: i64,
    name: &str,
    rates: &[(&str, &str)],
) -> i64 {
    let keys: Vec<String> = rates
        .iter()
        .map(|(unit, _)| format!("fixed_asset[rental_price_attributes][{unit}]"))
        .collect();
    let extra: Vec<(&str, &str)> = keys
        .iter()
        .zip(rates)
        .map(|(k, (_, v))| (k.as_str(), *v))
        .collect();
    app.asset(name, group, &extra).await
}

async fn items_are_added_priced_and_removed(kind: Kind) {
    let app = TestApp::new(kind).await;
    let group = app.group("Tents").await;
    let ann = app.customer("Ann", "Renter", &[]).await.to_string();
    let tent = rented_asset(
        &app,
        group,
        "Big Tent",
        &[("daily", "10"), ("weekly", "50")],
    )
    .await;
    let cables = app
        .stock_item(
            "/stock_assets",
            "XLR Cable",
            group,
            &[("stock_asset[rental_price_attributes][hourly]", "0.50")],
        )
        .await;
    let batteries = app
        .stock_item(
            "/inventory",
            "AA Batteries",
            group,
            &[("volatile_asset[price]", "2.25")],
        )
        .await;
    // Out at 06:00 on the 1st, due 14:00 on the 3rd: 56 h, and the return minute.
    let n = create(
        &app,
        &[
            ("basket[customer_id]", &ann),
            ("expected_checkout_date", "07/01/2027"),
            ("expected_checkout_time", "06:00"),
            ("due_date", "07/03/2027"),
            ("due_time", "14:00"),
            ("basket[order_discount]", "10"),
        ],
    )
    .await
    .into_body(StatusCode::OK)["basket"]["sequence_num"]
        .as_i64()
        .unwrap();
    let ids = format!("{tent},{cables},{batteries}");
    let (cq, bq) = (
        format!("stock_assets_values[{cables}][quantity]"),
        format!("volatile_assets_values[{batteries}][quantity]"),
    );
    let b = app
        .patch(
            &format!("/baskets/{n}/update_basket_from_show.api"),
            &[("asset_ids", &ids), (&cq, "4"), (&bq, "3")],
        )
        .await
        .into_body(StatusCode::OK)["basket"]
        .clone();
    let lines = b["order_line_items"].as_array().unwrap();
    assert_eq!(lines.len(), 3);
    // The tent: 56 h 1 min = 2 days + 8 h 1 min left, one more day: 3 days = 30.00.
    assert_eq!(lines[0]["sequence_num"], tent);
    assert_eq!(lines[0]["rental"]["minutes"], 3361);
    assert_eq!(lines[0]["rental"]["parts"][0]["unit"], "day");
    assert_eq!(lines[0]["rental"]["parts"][0]["count"], 3);
    assert_eq!(lines[0]["amount"], "30.00");
    assert_eq!(lines[0]["discount"], "3.00");
    // Cables: 57 started hours × 0.50 × 4 = 114.00.
    assert_eq!(lines[1]["quantity"], 4);
    assert_eq!(lines[1]["amount"], "114.00");
    // Batteries are sold with the order: 3 × 2.25.
    assert_eq!(lines[2]["for_sale"], true);
    assert_eq!(lines[2]["sale_price"], "2.25");
    assert_eq!(lines[2]["amount"], "6.75");
    assert_eq!(b["gross_amount"], "150.75");
    // 10 % line by line: 3.00 + 11.40 + 0.68 (0.675 rounds half away from zero).
    assert_eq!(b["discount_amount"], "15.08");
    assert_eq!(b["net_amount"], "135.67");
    assert_eq!(b["balance_due"], "135.67");
    let listed = app.get("/baskets.api").await.into_body(StatusCode::OK);
    assert_eq!(listed["baskets"][0]["net_amount"], "135.67");

    // A later change of the tent's rates does not reprice the order.
    app.put(
        &format!("/assets/{tent}.api"),
        &[("fixed_asset[rental_price_attributes][daily]", "99")],
    )
    .await
    .expect(StatusCode::OK);
    let same = app
        .get(&format!("/baskets/{n}.api"))
        .await
        .into_body(StatusCode::OK);
    assert_eq!(same["basket"]["gross_amount"], "150.75");
    // An item on an order cannot be deleted.
    app.delete(&format!("/assets/{tent}.api"))
        .await
        .expect(StatusCode::CONFLICT);

    let t = tent.to_string();
    let b = app
        .patch(
            &format!("/baskets/{n}/remove_asset.api"),
            &[("asset_ids", &t)],
        )
        .await
        .into_body(StatusCode::OK)["basket"]
        .clone();
    assert_eq!(b["order_line_items"].as_array().unwrap().len(), 2);
    assert_eq!(b["gross_amount"], "120.75");
    app.patch(
        &format!("/baskets/{n}/remove_asset.api"),
        &[("asset_ids", &t)],
    )
    .await
    .expect_invalid("asset_ids");
    app.delete(&format!("/assets/{tent}.api"))
        .await
        .expect(StatusCode::OK);
    let history = app
        .get(&format!("/baskets/{n}/history.api"))
        .await
        .into_body(StatusCode::OK);
    assert_eq!(history["history"][0]["action"], "items_removed");
}

async fn items_that_cannot_go_on_an_order_are_refused(kind: Kind) {
    let app = TestApp::new(kind).await;
    let group = app.group("Tents").await;
    let ann = app.customer("Ann", "Renter", &[]).await;
    let tent = rented_asset(&app, group, "Big Tent", &[("daily", "10")]).await;
    let bare = app.asset("Bare Tent", group, &[]).await;
    let no_price = app.stock_item("/inventory", "Pegs", group, &[]).await;
    let a = ann.to_string();
    let n = create(&app, &[("basket[customer_id]", &a)])
        .await
        .into_body(StatusCode::OK)["basket"]["sequence_num"]
        .as_i64()
        .unwrap();
    let add = |ids: String, extra: Vec<(String, String)>| {
        let app = &app;
        async move {
            let mut form = vec![("asset_ids".to_owned(), ids)];
            form.extend(extra);
            let form: Vec<(&str, &str)> =
                form.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
            app.patch(&format!("/baskets/{n}/update_basket_from_show.api"), &form)
                .await
        }
    };
    let res = add(format!("{tent},{bare},{no_price},9999"), vec![]).await;
    let problems = res.into_body(StatusCode::UNPROCESSABLE_ENTITY)["errors"]["asset_ids"][0]
        .as_str()
        .unwrap()
        .to_owned();
    assert!(
        problems.contains(&format!("#{bare} (Bare Tent) has no rental rate")),
        "{problems}"
    );
    assert!(
        problems.contains(&format!(
            "#{no_price} (Pegs) is inventory that never had a price"
        )),
        "{problems}"
    );
    assert!(problems.contains("#9999 is not an asset"), "{problems}");
    assert!(!problems.contains(&format!("#{tent} ")), "{problems}");
    let read = app
        .get(&format!("/baskets/{n}.api"))
        .await
        .into_body(StatusCode::OK);
    assert_eq!(read["basket"]["order_line_items"], serde_json::json!([]));
    for bad in ["", "abc", "3-b", "1,1"] {
        add(bad.to_owned(), vec![])
            .await
            .expect_invalid("asset_ids");
    }
    add(
        tent.to_string(),
        vec![(format!("stock_assets_values[{tent}][quantity]"), "2".into())],
    )
    .await
    .expect_invalid("asset_ids");
    add(
        no_price.to_string(),
        vec![(
            format!("volatile_assets_values[{no_price}][quantity]"),
            "0".into(),
        )],
    )
    .await
    .expect_invalid(&format!("volatile_assets_values[{no_price}][quantity]"));
    // With a price for the order, the pegs go on; twice is refused.
    let priced = vec![(
        format!("volatile_assets_values[{no_price}][price]"),
        "0.10".into(),
    )];
    add(no_price.to_string(), priced.clone())
        .await
        .expect(StatusCode::OK);
    add(no_price.to_string(), priced)
        .await
        .expect_invalid("asset_ids");
    // Inventory whose stock was added at a price goes on at the latest addition's
    // price, with the spec's parameters alone (no price among them).
    let store = app.location("Store", &[]).await.to_string();
    let rope = app.stock_item("/inventory", "Rope", group, &[]).await;
    for price in ["0.40", "0.75"] {
        app.post(
            &format!("/inventory/{rope}/order.api"),
            &[
                ("order_type", "Add Stock"),
                ("line_item[quantity]", "10"),
                ("line_item[price]", price),
                ("line_item[location_id]", &store),
            ],
        )
        .await
        .expect(StatusCode::OK);
    }
    let b = add(
        rope.to_string(),
        vec![
            (
                format!("volatile_assets_values[{rope}][quantity]"),
                "4".into(),
            ),
            (
                format!("volatile_assets_values[{rope}][location_id]"),
                store.clone(),
            ),
        ],
    )
    .await
    .into_body(StatusCode::OK);
    let line = b["basket"]["order_line_items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["sequence_num"] == rope)
        .cloned()
        .unwrap();
    assert_eq!(line["sale_price"], "0.75", "{line}");
    assert_eq!(line["quantity"], 4);
    // Only drafts take items.
    app.order(Some(ann), None, "completed").await;
    let res = app
        .patch(
            "/baskets/2/update_basket_from_show.api",
            &[("asset_ids", &tent.to_string())],
        )
        .await;
    assert_eq!(
        res.into_body(StatusCode::CONFLICT)["message"],
        "Order #2 is Completed; you can't add items to an order in that state."
    );
    app.patch(
        "/baskets/2/remove_asset.api",
        &[("asset_ids", &tent.to_string())],
    )
    .await
    .expect(StatusCode::CONFLICT);
}

async fn company_pricing_settings_apply(kind: Kind) {
    let app = TestApp::new(kind).await;
    let group = app.group("Tents").await;
    let ann = app.customer("Ann", "Renter", &[]).await.to_string();
    let tent = rented_asset(
        &app,
        group,
        "Big Tent",
        &[("daily", "10"), ("monthly", "200")],
    )
    .await;
    let t = tent.to_string();
    // 21 whole days, 00:00 to 00:00.
    let n = create(
        &app,
        &[
            ("basket[customer_id]", &ann),
            ("expected_checkout_date", "07/01/2027"),
            ("due_date", "07/22/2027"),
            ("due_time", "00:00"),
            ("asset_ids", &t),
        ],
    )
    .await
    .into_body(StatusCode::OK)["basket"]["sequence_num"]
        .as_i64()
        .unwrap();
    // Inclusive return (the default): 21 days and a minute = 22 days.
    assert_eq!(gross_of(&app, n).await, "220.00");
    let settings = app
        .patch(
            "/company_settings.api",
            &[("company_settings[inclusive_return]", "false")],
        )
        .await
        .into_body(StatusCode::OK);
    assert_eq!(settings["company_settings"]["inclusive_return"], false);
    assert_eq!(gross_of(&app, n).await, "210.00");
    app.patch(
        "/company_settings.api",
        &[("company_settings[best_pricing]", "true")],
    )
    .await
    .expect(StatusCode::OK);
    assert_eq!(gross_of(&app, n).await, "200.00");
    app.patch(
        "/company_settings.api",
        &[("company_settings[best_pricing]", "maybe")],
    )
    .await
    .expect_invalid("best_pricing");
}

/// Issue 34, defect 6: a draft priced just under the ceiling (a trillion) whose price
/// grows past it when the company counts the return minute again. Reads answer it with
/// the figures past the ceiling shown as the ceiling, never a 422; writes that would
/// price it anew are refused; it can still be described, cancelled, or the setting
/// turned back.
async fn a_draft_past_the_ceiling_stays_readable(kind: Kind) {
    let app = TestApp::new(kind).await;
    let group = app.group("Yachts").await;
    let ann = app.customer("Ann", "Renter", &[]).await.to_string();
    let yacht = rented_asset(&app, group, "Mega Yacht", &[("daily", "600000000000")])
        .await
        .to_string();
    inclusive_return(&app, "false").await;
    // One whole day, 00:00 to 00:00: 600,000,000,000.00, and an entry that brings the
    // order a cent short of the ceiling.
    let n = create(
        &app,
        &[
            ("basket[customer_id]", &ann),
            ("expected_checkout_date", "07/01/2027"),
            ("due_date", "07/02/2027"),
            ("due_time", "00:00"),
            ("asset_ids", &yacht),
        ],
    )
    .await
    .into_body(StatusCode::OK)["basket"]["sequence_num"]
        .as_i64()
        .unwrap();
    app.post(
        &format!("/baskets/{n}/custom_entries.api"),
        &[
            ("custom_entry[name]", "Crew"),
            ("custom_entry[amount]", "399999999999.99"),
        ],
    )
    .await
    .expect(StatusCode::OK);
    let order = format!("/baskets/{n}.api");
    let b = app.get(&order).await.into_body(StatusCode::OK)["basket"].clone();
    assert_eq!(b["net_amount"], "999999999999.99", "{b}");
    assert_eq!(b["price_capped"], false, "{b}");

    // The return minute counts again: a day and a minute is 2 days, 1,200,000,000,000.00.
    inclusive_return(&app, "true").await;
    let b = app.get(&order).await.into_body(StatusCode::OK)["basket"].clone();
    let line = &b["order_line_items"][0];
    assert_eq!(line["rental"]["minutes"], 1441, "{b}");
    assert_eq!(line["rental"]["amount"], "1000000000000.00", "{b}");
    assert_eq!(line["amount"], "1000000000000.00", "{b}");
    for figure in ["rental_amount", "gross_amount", "net_amount", "balance_due"] {
        assert_eq!(b[figure], "1000000000000.00", "{figure}: {b}");
    }
    assert_eq!(b["custom_entries_amount"], "399999999999.99", "{b}");
    assert_eq!(b["price_capped"], true, "{b}");
    // The list shows the figure stored at the order's last change.
    let list = app.get("/baskets.api").await.into_body(StatusCode::OK);
    assert_eq!(
        list["baskets"][0]["net_amount"], "999999999999.99",
        "{list}"
    );

    // Nothing new is priced past the ceiling: not another entry, not a rent-out.
    app.post(
        &format!("/baskets/{n}/custom_entries.api"),
        &[("custom_entry[name]", "Tip"), ("custom_entry[amount]", "1")],
    )
    .await
    .expect(StatusCode::UNPROCESSABLE_ENTITY);
    app.patch(
        &format!("/baskets/{n}/checkout.api"),
        &[
            ("rentout_date", &day(0)),
            ("return_date", &day(1)),
            ("return_time", "00:00"),
        ],
    )
    .await
    .expect_invalid("asset_ids");
    let b = app.get(&order).await.into_body(StatusCode::OK)["basket"].clone();
    assert_eq!(b["basket_state"], "drafted", "{b}");
    assert_eq!(b["custom_entries"].as_array().map(Vec::len), Some(1), "{b}");
    // A new period prices the order anew: refused too.
    app.patch(&order, &[("due_date", "07/03/2027")])
        .await
        .expect_invalid("asset_ids");

    // Its words still change: the stored figures are the ceiling now.
    let b = app
        .patch(&order, &[("basket[description]", "Regatta")])
        .await
        .into_body(StatusCode::OK)["basket"]
        .clone();
    assert_eq!(b["description"], "Regatta", "{b}");
    assert_eq!(b["price_capped"], true, "{b}");
    let list = app.get("/baskets.api").await.into_body(StatusCode::OK);
    assert_eq!(
        list["baskets"][0]["net_amount"], "1000000000000.00",
        "{list}"
    );

    // The setting turned back prices it exactly again.
    inclusive_return(&app, "false").await;
    let b = app.get(&order).await.into_body(StatusCode::OK)["basket"].clone();
    assert_eq!(b["net_amount"], "999999999999.99", "{b}");
    assert_eq!(b["price_capped"], false, "{b}");
    // Or it is cancelled as it stands.
    inclusive_return(&app, "true").await;
    let b = app
        .patch(&format!("/baskets/{n}/cancel.api"), &[])
        .await
        .into_body(StatusCode::OK)["basket"]
        .clone();
    assert_eq!(b["basket_state"], "cancelled", "{b}");
    assert_eq!(b["price_capped"], true, "{b}");
    app.get(&order).await.expect(StatusCode::OK);
}

async fn inclusive_return(app: &TestApp, on: &str) {
    app.patch(
        "/company_settings.api",
        &[("company_settings[inclusive_return]", on)],
    )
    .await
    .expect(StatusCode::OK);
}

async fn gross_of(app: &TestApp, n: i64) -> String {
    app.get(&format!("/baskets/{n}.api"))
        .await
        .into_body(StatusCode::OK)["basket"]["gross_amount"]
        .as_str()
        .unwrap()
        .to_owned()
}

async fn another_companys_orders_do_not_exist(kind: Kind) {
    let app = TestApp::new(kind).await;
    let ann = app.customer("Ann", "Renter", &[]).await.to_string();
    create(&app, &[("basket[customer_id]", &ann)])
        .await
        .expect(StatusCode::OK);
    let other = TestApp::builder(kind).beside(&app).build().await;
    other
        .get("/baskets/1.api")
        .await
        .expect(StatusCode::NOT_FOUND);
    other
        .patch("/baskets/1.api", &[("basket[description]", "mine")])
        .await
        .expect(StatusCode::NOT_FOUND);
    other
        .get("/baskets/1/history.api")
        .await
        .expect(StatusCode::NOT_FOUND);
    assert_eq!(order_count(&other).await, 0);
    // Nor are its customers, items or locations.
    create(&other, &[("basket[customer_id]", &ann)])
        .await
        .expect_invalid("customer_id");
    let group = app.group("Tents").await;
    let tent = rented_asset(&app, group, "Big Tent", &[("daily", "10")]).await;
    let bob = other.customer("Bob", "Renter", &[]).await.to_string();
    let theirs = create(&other, &[("basket[customer_id]", &bob)])
        .await
        .into_body(StatusCode::OK)["basket"]["sequence_num"]
        .as_i64()
        .unwrap();
    other
        .patch(
            &format!("/baskets/{theirs}/update_basket_from_show.api"),
            &[("asset_ids", &tent.to_string())],
        )
        .await
        .expect_invalid("asset_ids");
}

/// A date `days` from now, mm/dd/yyyy (UTC, the test company's zone).
pub(crate) fn day(days: i64) -> String {
    (chrono::Utc::now().date_naive() + chrono::Duration::days(days))
        .format("%m/%d/%Y")
        .to_string()
}

/// A draft order for `customer` holding `ids` (with `extra` item values); its number.
pub(crate) async fn draft(app: &TestApp, customer: i64, ids: &str, extra: &[(&str, &str)]) -> i64 {
    let c = customer.to_string();
    let mut form = vec![("basket[customer_id]", c.as_str()), ("asset_ids", ids)];
    form.extend_from_slice(extra);
    create(app, &form).await.into_body(StatusCode::OK)["basket"]["sequence_num"]
        .as_i64()
        .unwrap()
}

pub(crate) async fn book(app: &TestApp, n: i64, from: i64, to: i64) -> crate::common::Res {
    app.patch(
        &format!("/baskets/{n}/reservation.api"),
        &[("from", &day(from)), ("to", &day(to))],
    )
    .await
}

pub(crate) async fn state_of(app: &TestApp, n: i64) -> String {
    app.get(&format!("/baskets/{n}.api"))
        .await
        .into_body(StatusCode::OK)["basket"]["basket_state"]
        .as_str()
        .unwrap()
        .to_owned()
}

async fn book_and_cancel_a_booking(kind: Kind) {
    let app = TestApp::new(kind).await;
    let group = app.group("Tents").await;
    let ann = app.customer("Ann", "Renter", &[]).await;
    let tent = rented_asset(&app, group, "Big Tent", &[("daily", "10")]).await;
    let n = draft(&app, ann, &tent.to_string(), &[]).await;
    // Bad periods are refused and change nothing.
    app.patch(&format!("/baskets/{n}/reservation.api"), &[("to", &day(3))])
        .await
        .expect_invalid("from");
    book(&app, n, 3, 1).await.expect_invalid("to");
    book(&app, n, -5, -2).await.expect_invalid("to");
    app.patch(
        &format!("/baskets/{n}/reservation.api"),
        &[("from", &day(1)), ("to", &day(2)), ("to_time", "26:00")],
    )
    .await
    .expect_invalid("to_time");
    assert_eq!(state_of(&app, n).await, "drafted");

    let res = app
        .patch(
            &format!("/baskets/{n}/reservation.api"),
            &[
                ("from", &day(1)),
                ("from_time", "08:00"),
                ("to", &day(3)),
                ("to_time", ""),
            ],
        )
        .await;
    let b = res.into_body(StatusCode::OK)["basket"].clone();
    assert_eq!(b["basket_state"], "booked");
    assert_eq!(b["order_state"], "Booked");
    let from = (chrono::Utc::now().date_naive() + chrono::Duration::days(1)).format("%Y-%m-%d");
    assert_eq!(b["expected_checkout_date"], format!("{from} 08:00:00"));
    // 08:00 on day 1 to 23:59 on day 3, and the return minute: 2 days 16 h → 3 days.
    assert_eq!(b["gross_amount"], "30.00");
    let dates = app
        .get(&format!("/assets/{tent}/booked_dates.api"))
        .await
        .into_body(StatusCode::OK);
    assert_eq!(dates["booked_dates"][0]["order_number"], n);
    assert_eq!(dates["booked_dates"][0]["basket_state"], "booked");
    // Booked: no second booking, no new items, the table's attributes only.
    let again = book(&app, n, 1, 3).await;
    assert_eq!(
        again.into_body(StatusCode::CONFLICT)["message"],
        format!("Order #{n} is Booked; you can't book an order in that state.")
    );
    app.patch(&format!("/baskets/{n}.api"), &[("due_date", &day(9))])
        .await
        .expect(StatusCode::CONFLICT);

    app.patch(&format!("/baskets/{n}/cancel_reservation.api"), &[])
        .await
        .expect_invalid("cancel_booking");
    app.patch(
        &format!("/baskets/{n}/cancel_reservation.api"),
        &[("cancel_booking", "yes")],
    )
    .await
    .expect_invalid("cancel_booking");
    let b = app
        .patch(
            &format!("/baskets/{n}/cancel_reservation.api"),
            &[("cancel_booking", "removed")],
        )
        .await
        .into_body(StatusCode::OK);
    assert_eq!(b["basket"]["basket_state"], "drafted");
    let dates = app
        .get(&format!("/assets/{tent}/booked_dates.api"))
        .await
        .into_body(StatusCode::OK);
    assert_eq!(dates["booked_dates"], serde_json::json!([]));
    app.patch(
        &format!("/baskets/{n}/cancel_reservation.api"),
        &[("cancel_booking", "removed")],
    )
    .await
    .expect(StatusCode::CONFLICT);
    // An order with nothing on it has nothing to book.
    let empty = draft(&app, ann, &tent.to_string(), &[]).await;
    app.patch(
        &format!("/baskets/{empty}/remove_asset.api"),
        &[("asset_ids", &tent.to_string())],
    )
    .await
    .expect(StatusCode::OK);
    book(&app, empty, 1, 2).await.expect_invalid("asset_ids");
    let history = app
        .get(&format!("/baskets/{n}/history.api"))
        .await
        .into_body(StatusCode::OK);
    assert_eq!(history["history"][0]["action"], "booking_cancelled");
    assert_eq!(history["history"][1]["action"], "booked");
}

async fn bookings_never_promise_an_item_twice(kind: Kind) {
    let app = TestApp::new(kind).await;
    let group = app.group("Tents").await;
    let ann = app.customer("Ann", "Renter", &[]).await;
    let tent = rented_asset(&app, group, "Big Tent", &[("daily", "10")]).await;
    let t = tent.to_string();
    let a = draft(&app, ann, &t, &[]).await;
    let b = draft(&app, ann, &t, &[]).await;
    book(&app, a, 1, 3).await.expect(StatusCode::OK);
    // Day 3 is both orders'.
    let res = book(&app, b, 3, 5).await;
    let refused = res.into_body(StatusCode::CONFLICT)["message"].clone();
    let refused = refused.as_str().unwrap();
    assert!(
        refused.starts_with(&format!(
            "Asset #{tent} (Big Tent) is booked on order #{a} from "
        )),
        "{refused}"
    );
    assert!(
        refused.ends_with("23:59; choose another period, or free it first."),
        "{refused}"
    );
    assert_eq!(state_of(&app, b).await, "drafted");
    book(&app, b, 4, 5).await.expect(StatusCode::OK);
    // A member's approved reservation holds the asset too.
    let member = app
        .member("Mo", "Member", "mo@example.com", &[])
        .await
        .to_string();
    let r = app
        .post(
            &format!("/assets/{tent}/reservation_requests.api"),
            &[
                ("reservation_request[from]", &day(10)),
                ("reservation_request[to]", &day(11)),
                ("user[id]", &member),
            ],
        )
        .await
        .into_body(StatusCode::OK)["reservation_request"]["id"]
        .as_i64()
        .unwrap();
    app.put(
        &format!("/assets/{tent}/reservation_requests/{r}/update_status.api"),
        &[("request_action", "approve_request")],
    )
    .await
    .expect(StatusCode::OK);
    let c = draft(&app, ann, &t, &[]).await;
    let refused = book(&app, c, 11, 12).await.into_body(StatusCode::CONFLICT)["message"].clone();
    assert!(
        refused.as_str().unwrap().contains(&format!(
            "is reserved for Mo Member (approved reservation {r}) from "
        )),
        "{refused}"
    );
    // Cancelling a booking frees the asset.
    app.patch(
        &format!("/baskets/{a}/cancel_reservation.api"),
        &[("cancel_booking", "removed")],
    )
    .await
    .expect(StatusCode::OK);
    book(&app, c, 1, 3).await.expect(StatusCode::OK);

    // Asset stock: promised up to its units at any moment of a period.
    let cables = app
        .stock_item(
            "/stock_assets",
            "XLR Cable",
            group,
            &[("stock_asset[rental_price_attributes][daily]", "1")],
        )
        .await;
    let store = app.location("Store", &[]).await;
    app.add_stock("/stock_assets", cables, 10, store).await;
    let key = format!("stock_assets_values[{cables}][quantity]");
    let cs = cables.to_string();
    let six = draft(&app, ann, &cs, &[(key.as_str(), "6")]).await;
    let five = draft(&app, ann, &cs, &[(key.as_str(), "5")]).await;
    let four = draft(&app, ann, &cs, &[(key.as_str(), "4")]).await;
    book(&app, six, 1, 3).await.expect(StatusCode::OK);
    let res = book(&app, five, 2, 4).await;
    let refused = res.into_body(StatusCode::CONFLICT)["message"].clone();
    assert!(
        refused.as_str().unwrap().starts_with(&format!(
            "Asset #{cables} (XLR Cable) has 10 unit(s) and 6 are promised at one moment of that period (the first: booked on order #{six} from "
        )),
        "{refused}"
    );
    book(&app, four, 2, 4).await.expect(StatusCode::OK);
    // Days 4 to 6 meet the four, not the six: the five fit.
    book(&app, five, 4, 6).await.expect(StatusCode::OK);
}

async fn fifty_racing_bookings_of_one_asset_book_it_once(kind: Kind) {
    let app = TestApp::new(kind).await;
    let group = app.group("Tents").await;
    let ann = app.customer("Ann", "Renter", &[]).await;
    let tent = rented_asset(&app, group, "Big Tent", &[("daily", "10")]).await;
    let t = tent.to_string();
    let mut orders = Vec::new();
    for _ in 0..50 {
        orders.push(draft(&app, ann, &t, &[]).await);
    }
    // Overlapping periods: each shares day 5 with every other.
    let results = futures_util::future::join_all(
        orders
            .iter()
            .enumerate()
            .map(|(i, n)| book(&app, *n, 1 + (i as i64 % 4), 5 + (i as i64 % 3))),
    )
    .await;
    let statuses: Vec<StatusCode> = results.iter().map(|r| r.status).collect();
    let ok = statuses.iter().filter(|s| **s == StatusCode::OK).count();
    let refused = statuses
        .iter()
        .filter(|s| **s == StatusCode::CONFLICT)
        .count();
    assert_eq!((ok, refused), (1, 49), "{statuses:?}");
    let booked = app
        .get("/baskets.api?filters[state]=booked")
        .await
        .into_body(StatusCode::OK);
    assert_eq!(booked["baskets"].as_array().unwrap().len(), 1);
}

async fn racing_bookings_never_promise_stock_beyond_its_units(kind: Kind) {
    let app = TestApp::new(kind).await;
    let group = app.group("Cables").await;
    let ann = app.customer("Ann", "Renter", &[]).await;
    let cables = app
        .stock_item(
            "/stock_assets",
            "XLR Cable",
            group,
            &[("stock_asset[rental_price_attributes][daily]", "1")],
        )
        .await;
    let store = app.location("Store", &[]).await;
    app.add_stock("/stock_assets", cables, 10, store).await;
    let key = format!("stock_assets_values[{cables}][quantity]");
    let cs = cables.to_string();
    let mut orders = Vec::new();
    for _ in 0..50 {
        orders.push(draft(&app, ann, &cs, &[(key.as_str(), "3")]).await);
    }
    let results = futures_util::future::join_all(orders.iter().map(|n| book(&app, *n, 1, 2))).await;
    let ok = results
        .iter()
        .filter(|r| r.status == StatusCode::OK)
        .count();
    let refused = results
        .iter()
        .filter(|r| r.status == StatusCode::CONFLICT)
        .count();
    assert_eq!((ok, refused), (3, 47));
}

/// Creating orders that name an item while others book it: the creates' foreign-key
/// checks on the item and the bookings' locks of it must not deadlock (they did on
/// PostgreSQL with `FOR UPDATE`, found by the order bench).
async fn orders_created_and_booked_at_once_all_succeed(kind: Kind) {
    let app = TestApp::new(kind).await;
    let group = app.group("Cables").await;
    let ann = app.customer("Ann", "Renter", &[]).await.to_string();
    let cables = app
        .stock_item(
            "/stock_assets",
            "XLR Cable",
            group,
            &[("stock_asset[rental_price_attributes][daily]", "1")],
        )
        .await;
    let store = app.location("Store", &[]).await;
    app.add_stock("/stock_assets", cables, 1000, store).await;
    let ids = cables.to_string();
    let key = format!("stock_assets_values[{cables}][quantity]");
    let cycle = |i: i64| {
        let (app, ann, ids, key) = (&app, &ann, &ids, &key);
        async move {
            let created = app
                .post(
                    "/baskets.api",
                    &[
                        ("basket[customer_id]", ann.as_str()),
                        ("asset_ids", ids.as_str()),
                        (key.as_str(), "2"),
                    ],
                )
                .await;
            let n = created.expect(StatusCode::OK)["basket"]["sequence_num"]
                .as_i64()
                .unwrap();
            book(app, n, 1 + i % 5, 3 + i % 5).await.status
        }
    };
    let statuses = futures_util::future::join_all((0..40).map(cycle)).await;
    assert!(
        statuses.iter().all(|s| *s == StatusCode::OK),
        "{statuses:?}"
    );
}

/// `business_name`, the contact of several businesses, and the business's addresses.
async fn business_orders_follow_the_spec(kind: Kind) {
    let app = TestApp::new(kind).await;
    let acme = app.business("Acme", &[]).await;
    let globex = app.business("Globex", &[]).await;
    let both = format!("{acme},{globex}");
    let jo = app.contact("Jo", &both, &[]).await.to_string();
    let solo = app
        .contact("Solo", &acme.to_string(), &[])
        .await
        .to_string();
    let before = order_count(&app).await;
    // A contact of several businesses must say which: a 422 naming both fields.
    let res = create(&app, &[("basket[customer_id]", &jo)]).await;
    assert_eq!(res.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", res.body);
    for field in ["business_id", "business_name"] {
        let problem = res.body["errors"][field][0].as_str().unwrap_or_default();
        assert!(
            problem.contains("Acme") && problem.contains("Globex"),
            "{}",
            res.body
        );
    }
    for (form, field) in [
        (vec![("business_name", "Initech")], "business_name"),
        (
            vec![
                ("business_name", "Acme"),
                ("business_id", &globex.to_string()),
            ],
            "business_name",
        ),
    ] {
        let mut form = form.clone();
        form.push(("basket[customer_id]", &jo));
        create(&app, &form).await.expect_invalid(field);
    }
    let res = create(
        &app,
        &[
            ("basket[customer_id]", &jo),
            ("business_name", "Acme"),
            ("business_id", &globex.to_string()),
        ],
    )
    .await;
    assert_eq!(
        res.body["errors"]["business_name"][0],
        format!("names business {acme}, not business_id {globex}"),
        "{}",
        res.body
    );
    assert_eq!(order_count(&app).await, before, "nothing was written");
    // By name.
    let b = create(
        &app,
        &[("basket[customer_id]", &jo), ("business_name", "Globex")],
    )
    .await
    .into_body(StatusCode::OK);
    assert_eq!(b["basket"]["business_id"], globex, "{b}");
    let n = b["basket"]["sequence_num"].as_i64().unwrap();
    let b = app
        .patch(&format!("/baskets/{n}.api"), &[("business_name", "Acme")])
        .await
        .into_body(StatusCode::OK);
    assert_eq!(b["basket"]["business_id"], acme, "{b}");
    // A contact of one business orders for it.
    let b = create(&app, &[("basket[customer_id]", &solo)])
        .await
        .into_body(StatusCode::OK);
    assert_eq!(b["basket"]["business_id"], acme, "{b}");
    // The business's addresses serve as the order's shipping and pick-up addresses;
    // another business's do not.
    let address = |business: i64| {
        let app = &app;
        async move {
            app.post(
                &format!("/businesses/{business}/shipping_addresses.api"),
                &[
                    ("shipping_address[name]", "Dock"),
                    ("shipping_address[street1]", "1 Quay"),
                ],
            )
            .await
            .into_body(StatusCode::OK)["shipping_address"]["id"]
                .as_i64()
                .unwrap()
                .to_string()
        }
    };
    let dock = address(acme).await;
    let elsewhere = address(globex).await;
    let b = app
        .patch(
            &format!("/baskets/{n}.api"),
            &[
                ("basket[shipping_address_id]", &dock),
                ("basket[pick_up_address_id]", &dock),
            ],
        )
        .await
        .into_body(StatusCode::OK);
    assert_eq!(b["basket"]["shipping_address_id"].to_string(), dock, "{b}");
    assert_eq!(b["basket"]["pick_up_address_id"].to_string(), dock);
    app.patch(
        &format!("/baskets/{n}.api"),
        &[("basket[shipping_address_id]", &elsewhere)],
    )
    .await
    .expect_invalid("shipping_address_id");
}

/// `start_time` is the time of `due_date`; billing may start at the check-out and
/// end at the due moment, not outside them.
async fn order_moments_follow_the_spec(kind: Kind) {
    let app = TestApp::new(kind).await;
    let ann = app.customer("Ann", "Renter", &[]).await.to_string();
    let b = create(
        &app,
        &[
            ("basket[customer_id]", &ann),
            ("expected_checkout_date", "03/01/2030"),
            ("expected_checkout_time", "09:00"),
            ("due_date", "03/04/2030"),
            ("start_time", "17:30"),
            ("bill_from", "03/01/2030"),
            ("bill_from_time", "09:00"),
            ("bill_to", "03/04/2030"),
            ("bill_to_time", "17:30"),
        ],
    )
    .await
    .into_body(StatusCode::OK);
    let o = &b["basket"];
    assert_eq!(o["expected_checkout_date"], "2030-03-01 09:00:00", "{b}");
    assert_eq!(o["due_date"], "2030-03-04 17:30:00", "{b}");
    assert_eq!(o["bill_from"], "2030-03-01 09:00:00");
    assert_eq!(o["bill_to"], "2030-03-04 17:30:00");
    let n = o["sequence_num"].as_i64().unwrap();
    for (form, field) in [
        (
            vec![("bill_from", "03/01/2030"), ("bill_from_time", "08:59")],
            "bill_from",
        ),
        (
            vec![("bill_to", "03/04/2030"), ("bill_to_time", "17:31")],
            "bill_to",
        ),
        (
            vec![("due_date", "03/04/2030"), ("start_time", "25:00")],
            "start_time",
        ),
    ] {
        app.patch(&format!("/baskets/{n}.api"), &form)
            .await
            .expect_invalid(field);
    }
}

/// Every answer of an order's routes is the documented `Order` (a list's entries the
/// `OrderSummary`): a bare draft, and one with every part an order can hold (lines of
/// each kind with a bundle, a late fee and rental charges, a sub-rental item, a
/// coupon, a tax, custom entries, damages, payments voided and not, custom field
/// values) through booking, rent-out, return, payment and voiding, and a sale.
async fn answers_are_the_documented_record(kind: Kind) {
    let app = TestApp::new(kind).await;
    let s = crate::order_rentals::shop(&app).await;
    let ann = s.ann.to_string();
    let bare = create(&app, &[("basket[customer_id]", &ann)])
        .await
        .into_body(StatusCode::OK);
    assert_documented("/baskets.api", "post", &bare);
    assert_eq!(bare["basket"]["order_line_items"], serde_json::json!([]));
    assert_eq!(bare["basket"]["due_date"], Value::Null);
    let n = bare["basket"]["sequence_num"].as_i64().unwrap();
    let order = |action: &str| format!("/baskets/{n}/{action}.api");
    let listing = app.listing("Web shop").await;
    let updated = app
        .put(
            &format!("/baskets/{n}.api"),
            &[
                ("basket[description]", "Wedding"),
                ("basket[identification_number]", "PO-7"),
                ("basket[invoice_heading]", "Thanks"),
                ("basket[location_id]", &s.store.to_string()),
                ("basket[location_for_delivery]", "true"),
                ("basket[order_discount]", "10"),
                ("expected_checkout_date", &day(0)),
                ("due_date", &day(3)),
                ("bill_from", &day(0)),
                ("user_listing_name", "Web shop"),
            ],
        )
        .await
        .into_body(StatusCode::OK);
    assert_documented("/baskets/{sequence_num}.api", "put", &updated);
    assert!(listing > 0);

    // A late fee on the tent, and a bundle of a chair.
    app.patch(
        &format!("/assets/{}.api", s.tent),
        &[
            ("fixed_asset[late_fee_attributes][kind]", "day"),
            ("fixed_asset[late_fee_attributes][amount]", "5"),
        ],
    )
    .await
    .expect(StatusCode::OK);
    let group = app.group("Seats").await;
    let chair = rented_asset(&app, group, "Chair", &[("daily", "2"), ("hourly", "0.5")]).await;
    let bundle = app
        .post(
            "/bundles.api",
            &[
                ("bundle[name]", "Seating"),
                (&format!("bundle[items][{chair}]"), "1"),
            ],
        )
        .await
        .into_body(StatusCode::OK);
    assert_documented("/bundles.api", "post", &bundle);
    let bundle_id = bundle["bundle"]["id"].as_i64().unwrap();
    let plain = app
        .post(
            "/bundles.api",
            &[
                ("bundle[name]", "Cables"),
                ("bundle[description]", "a pair"),
                (&format!("bundle[items][{}]", s.cables), "2"),
            ],
        )
        .await
        .into_body(StatusCode::OK);
    assert_eq!(plain["bundle"]["items"][0]["asset_type"], "StockAsset");
    assert_documented(
        "/bundles/{id}.api",
        "get",
        &app.get(&format!("/bundles/{bundle_id}.api"))
            .await
            .into_body(StatusCode::OK),
    );
    assert_documented(
        "/bundles.api",
        "get",
        &app.get("/bundles.api").await.into_body(StatusCode::OK),
    );

    let ids = format!("{},{},{},{bundle_id}-b", s.tent, s.cables, s.batteries);
    let added = app
        .patch(
            &order("update_basket_from_show"),
            &[
                ("asset_ids", ids.as_str()),
                (&format!("stock_assets_values[{}][quantity]", s.cables), "3"),
                (
                    &format!("volatile_assets_values[{}][quantity]", s.batteries),
                    "2",
                ),
            ],
        )
        .await
        .into_body(StatusCode::OK);
    assert_documented(
        "/baskets/{sequence_num}/update_basket_from_show.api",
        "patch",
        &added,
    );
    let lines = added["basket"]["order_line_items"].as_array().unwrap();
    assert!(lines.iter().any(|l| l["bundle_id"] == bundle_id), "{added}");
    assert!(lines.iter().any(|l| !l["rental"].is_null()), "{added}");
    assert!(lines.iter().any(|l| l["late_fee_kind"] == "day"), "{added}");
    let removed = app
        .put(
            &order("remove_asset"),
            &[("asset_ids", &format!("{bundle_id}-b"))],
        )
        .await
        .into_body(StatusCode::OK);
    assert_documented("/baskets/{sequence_num}/remove_asset.api", "put", &removed);

    let coupon = app
        .post(
            "/pricing_coupons.api",
            &[
                ("coupon[name]", "Five off"),
                ("coupon[value_type]", "flat"),
                ("coupon[value]", "5"),
            ],
        )
        .await
        .into_body(StatusCode::OK)["coupon"]["id"]
        .to_string();
    let with_coupon = app
        .patch(
            &order("update_basket_from_show"),
            &[("coupon_ids", &coupon)],
        )
        .await
        .into_body(StatusCode::OK);
    assert_eq!(with_coupon["basket"]["coupon_amount"], "-5.00");
    assert_documented(
        "/baskets/{sequence_num}/update_basket_from_show.api",
        "patch",
        &with_coupon,
    );
    let sub_rented = app
        .patch(
            &order("add_sub_rent_item"),
            &[
                ("baskets_sub_rent_item[name]", "Generator"),
                ("baskets_sub_rent_item[location]", "Yard"),
                ("baskets_sub_rent_item[item_no]", "G-1"),
                ("baskets_sub_rent_item[price]", "50"),
            ],
        )
        .await
        .into_body(StatusCode::OK);
    assert_documented(
        "/baskets/{sequence_num}/add_sub_rent_item.api",
        "patch",
        &sub_rented,
    );
    let tax = app
        .post(
            "/custom_taxes.api",
            &[("custom_tax[name]", "State"), ("custom_tax[rate]", "8.25")],
        )
        .await
        .into_body(StatusCode::OK)["custom_tax"]["id"]
        .to_string();
    let taxed = app
        .put(&order("apply_taxes"), &[("custom_tax_id", &tax)])
        .await
        .into_body(StatusCode::OK);
    assert_eq!(taxed["basket"]["tax_amounts"][0]["rate"], "8.25");
    assert_documented("/baskets/{sequence_num}/apply_taxes.api", "put", &taxed);
    for (amount, tax_free) in [("15", "false"), ("-3.00", "true")] {
        let entry = app
            .post(
                &order("custom_entries"),
                &[
                    ("custom_entry[name]", "Delivery"),
                    ("custom_entry[amount]", amount),
                    ("custom_entry[tax_free]", tax_free),
                ],
            )
            .await
            .into_body(StatusCode::OK);
        assert_documented("/baskets/{sequence_num}/custom_entries.api", "post", &entry);
    }
    let damaged = app
        .patch(
            &order("charge_damages"),
            &[
                ("enable_invoice_damages", "on"),
                ("basket[damage_amount]", "20"),
            ],
        )
        .await
        .into_body(StatusCode::OK);
    assert_documented(
        "/baskets/{sequence_num}/charge_damages.api",
        "patch",
        &damaged,
    );
    let paid = app
        .patch(
            &order("charge_pre_payment"),
            &[
                ("basket[pre_paid_amount]", "10"),
                ("basket[payment_method_name]", "cash"),
                ("basket[payment_notes]", "deposit"),
            ],
        )
        .await
        .into_body(StatusCode::OK);
    assert_documented(
        "/baskets/{sequence_num}/charge_pre_payment.api",
        "patch",
        &paid,
    );
    let payment = paid["basket"]["payment_histories"][0]["id"]
        .as_i64()
        .unwrap();
    let voided = app
        .put(
            &format!("/baskets/{n}/payment_histories/{payment}/mark_void.api"),
            &[],
        )
        .await
        .into_body(StatusCode::OK);
    assert_eq!(voided["basket"]["payment_histories"][0]["voided"], true);
    assert_documented(
        "/baskets/{sequence_num}/payment_histories/{id}/mark_void.api",
        "put",
        &voided,
    );

    let booked = book(&app, n, 0, 3).await.into_body(StatusCode::OK);
    assert_documented("/baskets/{sequence_num}/reservation.api", "patch", &booked);
    let unbooked = app
        .put(
            &order("cancel_reservation"),
            &[("cancel_booking", "removed")],
        )
        .await
        .into_body(StatusCode::OK);
    assert_documented(
        "/baskets/{sequence_num}/cancel_reservation.api",
        "put",
        &unbooked,
    );
    let field = app
        .custom_field("Gate code", "text", &["orders"], &[])
        .await["id"]
        .as_i64()
        .unwrap();
    let out = crate::order_rentals::rent_out(
        &app,
        n,
        &[
            ("use_current_datetime", "true"),
            (&format!("item_custom_attribute_values[{field}]"), "4711"),
        ],
    )
    .await
    .into_body(StatusCode::OK);
    assert_eq!(
        out["basket"]["checkout_attribute_values"][field.to_string()],
        "4711"
    );
    assert_documented("/baskets/{sequence_num}/checkout.api", "patch", &out);
    let back = crate::order_rentals::take_back(
        &app,
        n,
        &[
            ("use_current_datetime", "true"),
            ("basket[cash_paid]", "5"),
            (&format!("item_custom_attribute_values[{field}]"), "4712"),
        ],
    )
    .await
    .into_body(StatusCode::OK);
    assert_documented("/baskets/{sequence_num}/checkin.api", "patch", &back);
    let balance = back["basket"]["balance_due"].as_str().unwrap().to_owned();
    let settled = app
        .patch(
            &order("charge_pre_payment"),
            &[
                ("basket[pre_paid_amount]", balance.as_str()),
                ("basket[payment_method_name]", "cash"),
            ],
        )
        .await
        .into_body(StatusCode::OK);
    assert_eq!(settled["basket"]["basket_state"], "completed", "{settled}");
    let void = app
        .patch(&order("void"), &[])
        .await
        .into_body(StatusCode::OK);
    assert_documented("/baskets/{sequence_num}/void.api", "patch", &void);
    let details = app
        .get(&format!("/baskets/{n}.api"))
        .await
        .into_body(StatusCode::OK);
    assert_documented("/baskets/{sequence_num}.api", "get", &details);

    // A sale, and a cancelled draft.
    let sold = draft(&app, s.ann, &s.tent.to_string(), &[]).await;
    let marked = app
        .post(
            &format!("/baskets/{sold}/sale_items_for_drafted_basket.api"),
            &[
                ("asset_ids_marked_as_sale", &s.tent.to_string()),
                (&format!("sale_prices[{}]", s.tent), "100"),
            ],
        )
        .await
        .into_body(StatusCode::OK);
    assert_documented(
        "/baskets/{sequence_num}/sale_items_for_drafted_basket.api",
        "post",
        &marked,
    );
    let sale = app
        .put(
            &format!("/baskets/{sold}/sale_order.api"),
            &[
                ("use_current_datetime", "true"),
                ("basket[cash_paid]", "20"),
            ],
        )
        .await
        .into_body(StatusCode::OK);
    assert_eq!(sale["basket"]["payment_histories"][0]["purpose"], "sale");
    assert_documented("/baskets/{sequence_num}/sale_order.api", "put", &sale);
    let dropped = draft(&app, s.ann, &s.batteries.to_string(), &[]).await;
    let cancelled = app
        .put(&format!("/baskets/{dropped}/cancel.api"), &[])
        .await
        .into_body(StatusCode::OK);
    assert_documented("/baskets/{sequence_num}/cancel.api", "put", &cancelled);
    let page = app.get("/baskets.api").await.into_body(StatusCode::OK);
    assert_eq!(page["baskets"].as_array().unwrap().len(), 3);
    assert_documented("/baskets.api", "get", &page);
}

/// A time only with its day (`#[input(needs = ...)]`) and one list or the other
/// (`#[input(or = ...)]`): the reader refuses what the document says is invalid, in a
/// form and in JSON (`null` is not sent), and nothing is written. JSON's `null` body is
/// no object (400), a record's fields sent as a value or a list are a 422, and a whole
/// number written with a fraction is the whole number.
async fn rules_between_fields_are_read_and_documented_alike(kind: Kind) {
    let app = TestApp::new(kind).await;
    let ann = app.customer("Ann", "Renter", &[]).await;
    let before = order_count(&app).await;
    create(
        &app,
        &[
            ("basket[customer_id]", &ann.to_string()),
            ("expected_checkout_time", "10:00"),
        ],
    )
    .await
    .expect_invalid("expected_checkout_time");
    let json_order = |date: Value| json!({"basket": {"customer_id": ann}, "expected_checkout_time": "10:00", "expected_checkout_date": date});
    let res = app
        .req(Method::POST, "/baskets.api")
        .json(json_order(Value::Null))
        .send()
        .await;
    res.expect_invalid("expected_checkout_time");
    let res = app
        .req(Method::POST, "/baskets.api")
        .json(Value::Null)
        .send()
        .await;
    res.expect(StatusCode::BAD_REQUEST);
    // The record's fields as a value or a list are refused, not read as none.
    for fields in [json!("x"), json!([null, null])] {
        let res = app
            .req(Method::POST, "/baskets.api")
            .json(json!({"basket": fields}))
            .send()
            .await;
        res.expect_invalid("basket");
    }
    assert_eq!(order_count(&app).await, before);
    let made = app
        .req(Method::POST, "/baskets.api")
        .json(json!({"basket": {"customer_id": ann as f64}, "expected_checkout_time": "10:00", "expected_checkout_date": "2030-07-01"}))
        .send()
        .await
        .into_body(StatusCode::OK);
    assert_eq!(made["basket"]["customer_id"], ann, "{made}");
    // The document says the same of each body.
    let body = &openapi_document()["paths"]["/baskets.api"]["post"]["requestBody"]["content"];
    for media in ["application/x-www-form-urlencoded", "application/json"] {
        let rule = &body[media]["schema"]["dependentSchemas"]["expected_checkout_time"];
        assert_eq!(
            rule["anyOf"][1]["required"],
            json!(["expected_checkout_date"]),
            "{media}: {rule}"
        );
    }
    // Neither tax list: refused; one sent empty removes the taxes.
    let n = made["basket"]["sequence_num"].as_i64().unwrap();
    let taxes = format!("/baskets/{n}/apply_taxes.api");
    app.patch(&taxes, &[]).await.expect_invalid("custom_tax_id");
    app.patch(&taxes, &[("group_tax_id", "")])
        .await
        .expect(StatusCode::OK);
    let body = &openapi_document()["paths"]["/baskets/{sequence_num}/apply_taxes.api"]["patch"]["requestBody"]
        ["content"]["application/json"]["schema"];
    assert_eq!(
        body["anyOf"][1]["required"],
        json!(["group_tax_id"]),
        "{body}"
    );
}

/// What the document says a JSON body takes, the server takes, and what it refuses
/// changes nothing: texts as numbers or booleans (read as their text), an id list as
/// one id or a comma list, a record that need not be sent as `null`, coordinates as
/// numbers; an order's
/// customer can change but not be cleared; an id list that must hold one id is refused
/// empty.
async fn json_takes_what_the_document_says(kind: Kind) {
    let app = TestApp::new(kind).await;
    let ann = app.customer("Ann", "Renter", &[]).await;
    let made = app
        .req(Method::POST, "/baskets.api")
        .json(json!({"basket": {"customer_id": ann, "description": 2026, "invoice_heading": true}}))
        .send()
        .await
        .into_body(StatusCode::OK);
    assert_eq!(made["basket"]["description"], "2026", "{made}");
    assert_eq!(made["basket"]["invoice_heading"], "true", "{made}");
    let n = made["basket"]["sequence_num"].as_i64().unwrap();
    let path = format!("/baskets/{n}.api");
    // `null` (or the id 0) does not clear the customer: a 422 that changes nothing.
    for customer in ["null", "0"] {
        app.put(&path, &[("basket[customer_id]", customer)])
            .await
            .expect_invalid("customer_id");
    }
    let res = app
        .req(Method::PUT, &path)
        .json(json!({"basket": null}))
        .send()
        .await
        .into_body(StatusCode::OK);
    assert_eq!(res["basket"]["customer_id"], ann, "{res}");
    assert_eq!(res["basket"]["description"], "2026", "{res}");
    // Decimals as JSON numbers, read as their text: at most two places.
    let res = app
        .req(Method::PUT, &path)
        .json(json!({"basket": {"order_discount": 12.5}}))
        .send()
        .await
        .into_body(StatusCode::OK);
    assert_eq!(res["basket"]["order_discount"], "12.50", "{res}");
    app.req(Method::PUT, &path)
        .json(json!({"basket": {"order_discount": 12.345}}))
        .send()
        .await
        .expect_invalid("order_discount");
    // Coordinates as JSON numbers, small ones written with an exponent, rounded to ten
    // places.
    let address = app
        .req(Method::POST, &format!("/customers/{ann}/shipping_addresses.api"))
        .json(json!({"shipping_address": {"street1": 12, "country": "DE", "lati": 1e-7, "longi": 13.405_000_000_000_1}}))
        .send()
        .await
        .into_body(StatusCode::OK);
    let address = &address["shipping_address"];
    assert_eq!(address["street1"], "12", "{address}");
    assert_eq!(address["lati"], "0.0000001", "{address}");
    assert_eq!(address["longi"], "13.405", "{address}");
    // Taxes: an id list as one id, as a comma list, or with a `null` entry (dropped).
    let tax = app
        .post(
            "/custom_taxes.api",
            &[("custom_tax[name]", "VAT"), ("custom_tax[rate]", "10")],
        )
        .await
        .into_body(StatusCode::OK)["custom_tax"]["id"]
        .as_i64()
        .unwrap();
    let taxes = format!("/baskets/{n}/apply_taxes.api");
    for ids in [json!(tax), json!(tax.to_string()), json!([null, tax])] {
        app.req(Method::PATCH, &taxes)
            .json(json!({"custom_tax_id": ids}))
            .send()
            .await
            .expect(StatusCode::OK);
    }
    // A business contact's businesses: never an empty list.
    let business = app.business("Acme", &[]).await;
    let contact = app.contact("Lee", &business.to_string(), &[]).await;
    let res = app
        .req(Method::PUT, &format!("/contacts/{contact}.api"))
        .json(json!({"business_ids": []}))
        .send()
        .await;
    res.expect_invalid("business_ids");
    app.post(
        "/contacts/add_existing_contacts_to_business.api",
        &[("business_id", &business.to_string()), ("contact_ids", "")],
    )
    .await
    .expect_invalid("contact_ids");
    let shown = app
        .get(&format!("/contacts/{contact}.api"))
        .await
        .into_body(StatusCode::OK);
    assert_eq!(
        shown["contact"]["business_ids"],
        json!([business]),
        "{shown}"
    );
}
