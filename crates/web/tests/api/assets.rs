//! Fixed assets: the record, check-out, check-in, extend, retire, activate, delete,
//! GPS and history.

use crate::common::{Kind, TestApp, assert_documented, assert_keys_documented, encode};
use axum::http::{Method, StatusCode};
use futures_util::future::join_all;
use serde_json::{Value, json};

both!(
    create_with_every_field_and_read_back,
    create_names_every_problem_and_writes_nothing,
    fee_links_and_taxes_are_checked_together,
    numbers_are_shared_and_increase,
    update_keeps_clears_and_moves_taxes,
    list_pages_at_25_with_the_show_flags,
    check_out_check_in_and_extend,
    check_out_refusals_name_the_state,
    fifty_racing_checkouts_one_wins,
    state_totals_stay_exact_through_racing_checkouts,
    retire_and_activate,
    activation_location_follows_the_company_setting,
    delete_is_refused_while_checked_out,
    gps_readings_are_kept,
    history_records_every_change_five_a_page,
    members_views,
    another_company_sees_no_asset,
    catalog_guards_count_real_assets,
    search_by_name_number_and_identifier,
    search_matches_substrings_of_every_word_in_any_script,
    search_totals_follow_every_add_rename_and_delete,
    maintenance_merges_the_name_index_and_searches_find_the_same,
    each_asset_on_a_page_carries_its_own_taxes_in_ascending_order,
);

async fn member(app: &TestApp, first: &str) -> i64 {
    app.member(
        first,
        "Tester",
        &format!("{}@example.com", first.to_lowercase()),
        &[],
    )
    .await
}

async fn create_with_every_field_and_read_back(kind: Kind) {
    let app = TestApp::new(kind).await;
    let group = app.group("Cameras").await;
    let sub = app.sub_group(group, "DSLR").await;
    let location = app.location("Berlin", &[]).await;
    app.custom_field("Serial Number", "text", &["fixed_assets"], &[])
        .await;
    let tax = app
        .post(
            "/custom_taxes.api",
            &[("custom_tax[name]", "VAT"), ("custom_tax[rate]", "8.875")],
        )
        .await
        .into_body(StatusCode::OK);
    assert_eq!(tax["custom_tax"]["rate"], "8.875");
    for bad in ["101", "-1", "abc", "1.00001"] {
        app.post(
            "/custom_taxes.api",
            &[("custom_tax[name]", "Bad"), ("custom_tax[rate]", bad)],
        )
        .await
        .expect_invalid("rate");
    }
    app.post(
        "/custom_taxes.api",
        &[("custom_tax[name]", "VAT"), ("custom_tax[rate]", "5")],
    )
    .await
    .expect_invalid("name");
    let tax_id = tax["custom_tax"]["id"].as_i64().unwrap().to_string();
    let (g, s, l) = (group.to_string(), sub.to_string(), location.to_string());
    let res = app
        .post(
            "/assets.api",
            &[
                ("fixed_asset[name]", "Canon EOS R5"),
                ("fixed_asset[group_id]", &g),
                ("fixed_asset[sub_group_id]", &s),
                ("fixed_asset[location_id]", &l),
                ("fixed_asset[purchased_on]", "03/31/2026"),
                ("fixed_asset[manufacturer]", "Canon"),
                ("fixed_asset[identifier]", "SN-0001"),
                ("fixed_asset[image_url]", "https://img.example.com/r5.jpg"),
                (
                    "fixed_asset[document_urls][]",
                    "https://docs.example.com/manual.pdf",
                ),
                (
                    "fixed_asset[document_urls][]",
                    "https://docs.example.com/warranty.pdf",
                ),
                ("fixed_asset[price]", "3899.5"),
                ("fixed_asset[rental_price_attributes][daily]", "45"),
                ("fixed_asset[rental_price_attributes][weekly]", "250.00"),
                ("cust_attr[Serial_Number]", "X-77"),
                ("custom_tax_ids_to_add", &format!("[{tax_id}]")),
            ],
        )
        .await;
    let created = res.into_body(StatusCode::OK);
    assert_documented("/assets.api", "post", &created);
    assert_keys_documented("Asset", &created["asset"], &["Serial Number"]);
    let a = created["asset"].clone();
    assert_eq!(a["name"], "Canon EOS R5");
    assert_eq!(a["asset_type"], "FixedAsset");
    assert_eq!(a["state"], "available");
    assert_eq!(a["group_name"], "Cameras");
    assert_eq!(a["sub_group_name"], "DSLR");
    assert_eq!(a["location_name"], "Berlin");
    assert_eq!(a["purchased_on"], "2026-03-31");
    assert_eq!(a["price"], "3899.50");
    assert_eq!(a["rental_prices"]["daily"], "45.00");
    assert_eq!(a["rental_prices"]["weekly"], "250.00");
    assert_eq!(a["rental_prices"]["hourly"], Value::Null);
    assert_eq!(a["custom_attributes"]["Serial Number"], "X-77");
    assert_eq!(a["custom_tax_ids"][0].as_i64().unwrap().to_string(), tax_id);
    assert_eq!(a["document_urls"].as_array().unwrap().len(), 2);
    let n = a["sequence_num"].as_i64().unwrap();
    let read = app
        .get(&format!("/assets/{n}.api?show_document_urls=true&show_image_urls=true&show_document_details=true&include_custom_fields=true"))
        .await
        .into_body(StatusCode::OK);
    assert_documented("/assets/{sequence_num}.api", "get", &read);
    let r = &read["asset"];
    assert_keys_documented("Asset", r, &["Serial Number"]);
    assert_eq!(r["Serial Number"], "X-77");
    assert_eq!(r["image_urls"][0], "https://img.example.com/r5.jpg");
    assert_eq!(r["documents"][1]["file_name"], "warranty.pdf");
    // A page with the flags: custom fields as keys of their own too.
    let page = app
        .get("/assets.api?include_custom_fields=true&show_image_urls=true&show_document_details=true")
        .await
        .into_body(StatusCode::OK);
    assert_documented("/assets.api", "get", &page);
    assert_eq!(page["assets"][0]["Serial Number"], "X-77");
    assert_keys_documented("Asset", &page["assets"][0], &["Serial Number"]);
    // Without the flags the lists are left out.
    let plain = app
        .get(&format!("/assets/{n}.api"))
        .await
        .into_body(StatusCode::OK);
    assert!(plain["asset"].get("document_urls").is_none());
    assert_documented("/assets/{sequence_num}.api", "get", &plain);
    assert_keys_documented("Asset", &plain["asset"], &[]);
    // Rates are optional.
    app.asset("Tripod", group, &[]).await;
}

async fn create_names_every_problem_and_writes_nothing(kind: Kind) {
    let app = TestApp::new(kind).await;
    let group = app.group("Cameras").await;
    let other = app.group("Lenses").await;
    let sub = app.sub_group(other, "Primes").await.to_string();
    let res = app
        .post(
            "/assets.api",
            &[
                ("fixed_asset[name]", "AB"),
                ("fixed_asset[purchased_on]", "31/31/2026"),
                ("fixed_asset[rental_price_attributes][daily]", "-3"),
                ("fixed_asset[image_url]", "javascript:alert(1)"),
            ],
        )
        .await;
    let errors = res.into_body(StatusCode::UNPROCESSABLE_ENTITY)["errors"].clone();
    for field in [
        "name",
        "group_id",
        "purchased_on",
        "rental_price_attributes][daily",
        "image_url",
    ] {
        assert!(errors.get(field).is_some(), "{field} not named in {errors}");
    }
    // Years a database cannot store are no dates (PostgreSQL answered 500 before).
    for year in ["-99999-01-01", "10000-01-01"] {
        app.post(
            "/assets.api",
            &[
                ("fixed_asset[name]", "Far Future"),
                ("fixed_asset[group_id]", &group.to_string()),
                ("fixed_asset[purchased_on]", year),
            ],
        )
        .await
        .expect_invalid("purchased_on");
    }
    let g = group.to_string();
    let six: Vec<(&str, &str)> = (0..6)
        .map(|_| {
            (
                "fixed_asset[document_urls][]",
                "https://docs.example.com/a.pdf",
            )
        })
        .collect();
    let mut form = vec![
        ("fixed_asset[name]", "Camera"),
        ("fixed_asset[group_id]", g.as_str()),
        ("fixed_asset[purchased_on]", "2026-01-01"),
    ];
    form.extend(six);
    let res = app.post("/assets.api", &form).await;
    assert!(
        res.into_body(StatusCode::UNPROCESSABLE_ENTITY)["errors"]["document_urls"][0]
            .as_str()
            .unwrap()
            .contains("at most 5")
    );
    // A subgroup of another group, an unknown location and tax: the store's 422.
    let res = app
        .post(
            "/assets.api",
            &[
                ("fixed_asset[name]", "Camera"),
                ("fixed_asset[group_id]", &g),
                ("fixed_asset[sub_group_id]", &sub),
                ("fixed_asset[location_id]", "999"),
                ("fixed_asset[purchased_on]", "2026-01-01"),
                ("custom_tax_ids_to_add", "77"),
            ],
        )
        .await;
    let errors = res.into_body(StatusCode::UNPROCESSABLE_ENTITY)["errors"].clone();
    assert!(
        errors["sub_group_id"][0]
            .as_str()
            .unwrap()
            .contains("is not a subgroup of group")
    );
    assert!(errors["location_id"][0].is_string());
    assert!(errors["custom_tax_ids"][0].as_str().unwrap().contains("77"));
    for bad in ["[1,x]", "0", "-3"] {
        app.post(
            "/assets.api",
            &[
                ("fixed_asset[name]", "Camera"),
                ("fixed_asset[group_id]", &g),
                ("fixed_asset[purchased_on]", "2026-01-01"),
                ("custom_tax_ids_to_add", bad),
            ],
        )
        .await
        .expect_invalid("custom_tax_ids_to_add");
    }
    // An object of fields, or a map, sent as a list (of `null`s, which JSON drops) or a
    // value would leave its entries unsent: refused.
    let fields = json!({"name": "Camera", "group_id": group, "purchased_on": "2026-01-01"});
    for (body, field) in [
        (
            json!({"fixed_asset": {"rental_price_attributes": [null, null]}}),
            "rental_price_attributes",
        ),
        (
            json!({"fixed_asset": {"rental_price_attributes": "45"}}),
            "rental_price_attributes",
        ),
        (json!({"cust_attr": [null, null]}), "custom_attributes"),
        (json!({"cust_attr": "X-77"}), "custom_attributes"),
    ] {
        let mut body = body;
        let asset = body
            .as_object_mut()
            .unwrap()
            .entry("fixed_asset")
            .or_insert_with(|| json!({}));
        for (k, v) in fields.as_object().unwrap() {
            asset[k] = v.clone();
        }
        app.req(Method::POST, "/assets.api")
            .json(body)
            .send()
            .await
            .expect_invalid(field);
    }
    let list = app.get("/assets.api").await.into_body(StatusCode::OK);
    assert_eq!(list["assets"].as_array().unwrap().len(), 0);
    assert_eq!(list["total_pages"], 0);
}

async fn numbers_are_shared_and_increase(kind: Kind) {
    let app = TestApp::new(kind).await;
    let group = app.group("Cameras").await;
    let a = app.asset("First", group, &[]).await;
    let b = app.asset("Second", group, &[]).await;
    assert_eq!(b, a + 1);
    let c = store::items::record(
        &app.db,
        app.company.id,
        "StockAsset",
        "Cables",
        store::Id::new(group),
        None,
    )
    .await
    .unwrap();
    assert_eq!(c, b + 1);
    // Details answer for any kind; fixed-asset actions refuse the others by name.
    let read = app
        .get(&format!("/assets/{c}.api"))
        .await
        .into_body(StatusCode::OK);
    assert_eq!(read["asset"]["asset_type"], "StockAsset");
    let m = member(&app, "Ann").await.to_string();
    let res = app
        .put(&format!("/assets/{c}/checkout.api?user_id={m}"), &[])
        .await;
    assert!(
        res.into_body(StatusCode::CONFLICT)["message"]
            .as_str()
            .unwrap()
            .contains("is an asset stock item, not a fixed asset")
    );
}

async fn update_keeps_clears_and_moves_taxes(kind: Kind) {
    let app = TestApp::new(kind).await;
    let group = app.group("Cameras").await;
    let other = app.group("Drones").await;
    let sub = app.sub_group(group, "DSLR").await.to_string();
    let t1 = app
        .post(
            "/custom_taxes.api",
            &[("custom_tax[name]", "State"), ("custom_tax[rate]", "5")],
        )
        .await
        .into_body(StatusCode::OK)["custom_tax"]["id"]
        .as_i64()
        .unwrap()
        .to_string();
    let t2 = app
        .post(
            "/custom_taxes.api",
            &[("custom_tax[name]", "City"), ("custom_tax[rate]", "1.5")],
        )
        .await
        .into_body(StatusCode::OK)["custom_tax"]["id"]
        .as_i64()
        .unwrap()
        .to_string();
    let n = app
        .asset(
            "Camera",
            group,
            &[
                ("fixed_asset[sub_group_id]", &sub),
                ("fixed_asset[manufacturer]", "Canon"),
                ("custom_tax_ids_to_add", &t1),
            ],
        )
        .await;
    // PATCH and PUT are one: rename, clear the manufacturer, swap the taxes.
    let res = app
        .patch(
            &format!("/assets/{n}.api"),
            &[
                ("fixed_asset[name]", "Camera body"),
                ("fixed_asset[manufacturer]", "null"),
                ("custom_tax_ids_to_add", &format!("[{t2}]")),
                ("custom_tax_ids_to_remove", &format!("[{t1}]")),
            ],
        )
        .await;
    let a = res.into_body(StatusCode::OK)["asset"].clone();
    assert_eq!(a["name"], "Camera body");
    assert_eq!(a["manufacturer"], Value::Null);
    assert_eq!(a["sub_group_name"], "DSLR");
    assert_eq!(a["custom_tax_ids"].as_array().unwrap().len(), 1);
    assert_eq!(a["custom_tax_ids"][0].as_i64().unwrap().to_string(), t2);
    // A new group leaves the old group's subgroup behind.
    let res = app
        .put(
            &format!("/assets/{n}.api"),
            &[("fixed_asset[group_id]", &other.to_string())],
        )
        .await;
    let a = res.into_body(StatusCode::OK)["asset"].clone();
    assert_eq!(a["group_name"], "Drones");
    assert_eq!(a["sub_group_id"], Value::Null);
    // A short name is refused and changes nothing.
    let res = app
        .put(&format!("/assets/{n}.api"), &[("fixed_asset[name]", "X")])
        .await;
    res.into_body(StatusCode::UNPROCESSABLE_ENTITY);
    let read = app
        .get(&format!("/assets/{n}.api"))
        .await
        .into_body(StatusCode::OK);
    assert_eq!(read["asset"]["name"], "Camera body");
}

async fn list_pages_at_25_with_the_show_flags(kind: Kind) {
    let app = TestApp::new(kind).await;
    let group = app.group("Cameras").await;
    for i in 0..27 {
        app.asset(
            &format!("Camera {i:02}"),
            group,
            &[(
                "fixed_asset[document_urls][]",
                "https://d.example.com/m.pdf",
            )],
        )
        .await;
    }
    let first = app.get("/assets.api").await.into_body(StatusCode::OK);
    assert_documented("/assets.api", "get", &first);
    assert_eq!(first["assets"].as_array().unwrap().len(), 25);
    assert_eq!(first["total_pages"], 2);
    assert!(first["assets"][0].get("document_urls").is_none());
    let second = app
        .get("/assets.api?page=2&show_document_urls=true")
        .await
        .into_body(StatusCode::OK);
    assert_documented("/assets.api", "get", &second);
    assert_keys_documented("Asset", &second["assets"][0], &[]);
    assert_eq!(second["assets"].as_array().unwrap().len(), 2);
    assert_eq!(second["assets"][1]["name"], "Camera 26");
    assert_eq!(
        second["assets"][1]["document_urls"][0],
        "https://d.example.com/m.pdf"
    );
    let past = app
        .get("/assets.api?page=9")
        .await
        .into_body(StatusCode::OK);
    assert_eq!(past["assets"].as_array().unwrap().len(), 0);
    assert_eq!(past["total_pages"], 2);
    let res = app.get("/assets.api?show_image_urls=maybe").await;
    res.into_body(StatusCode::UNPROCESSABLE_ENTITY);
}

async fn check_out_check_in_and_extend(kind: Kind) {
    let app = TestApp::new(kind).await;
    let group = app.group("Cameras").await;
    let studio = app.location("Studio", &[]).await.to_string();
    let store_room = app.location("Store room", &[]).await.to_string();
    let n = app.asset("Camera", group, &[]).await;
    let ann = member(&app, "Ann").await;
    // user_email names the member; till and till_time set the due moment.
    let res = app
        .put(
            &format!("/assets/{n}/checkout.api?user_email=ann@example.com&till=12/30/2099&till_time=17:30"),
            &[("checkout_values[location_id]", &studio), ("checkout_values[comments]", "for the shoot")],
        )
        .await;
    let out = res.into_body(StatusCode::OK);
    assert_documented("/assets/{sequence_num}/checkout.api", "put", &out);
    let a = out["asset"].clone();
    assert_eq!(a["state"], "checked_out");
    assert_eq!(a["assigned_to_user_id"], ann);
    assert_eq!(a["assigned_to_user_name"], "Ann Tester");
    assert_eq!(a["checkin_due_on"], "2099-12-30 17:30:00");
    assert_eq!(a["location_name"], "Studio");
    // Extend: later than now and than the check-out.
    let res = app
        .put(
            &format!("/assets/{n}/extend_checkout.api?till=01/02/2000"),
            &[],
        )
        .await;
    assert!(res.into_body(StatusCode::UNPROCESSABLE_ENTITY)["errors"]["till"].is_array());
    let res = app
        .patch(
            &format!("/assets/{n}/extend_checkout.api?till=01/05/2100"),
            &[],
        )
        .await;
    let extended = res.into_body(StatusCode::OK);
    assert_documented(
        "/assets/{sequence_num}/extend_checkout.api",
        "patch",
        &extended,
    );
    assert_eq!(extended["asset"]["checkin_due_on"], "2100-01-05 23:59:00");
    // Check in at another location.
    let res = app
        .put(
            &format!("/assets/{n}/checkin.api"),
            &[
                ("checkin_values[location_id]", &store_room),
                ("checkin_values[comments]", "fine"),
            ],
        )
        .await;
    let back = res.into_body(StatusCode::OK);
    assert_documented("/assets/{sequence_num}/checkin.api", "put", &back);
    let a = back["asset"].clone();
    assert_eq!(a["state"], "available");
    assert_eq!(a["assigned_to_user_id"], Value::Null);
    assert_eq!(a["checkin_due_on"], Value::Null);
    assert_eq!(a["location_name"], "Store room");
    let res = app.put(&format!("/assets/{n}/checkin.api"), &[]).await;
    assert!(
        res.into_body(StatusCode::CONFLICT)["message"]
            .as_str()
            .unwrap()
            .contains("is not checked out")
    );
    // Without till: no end date. user_id wins over user_email.
    let bob = member(&app, "Bob").await;
    let res = app
        .put(
            &format!("/assets/{n}/checkout.api?user_id={bob}&user_email=ann@example.com"),
            &[],
        )
        .await;
    let a = res.into_body(StatusCode::OK)["asset"].clone();
    assert_eq!(a["assigned_to_user_id"], bob);
    assert_eq!(a["checkin_due_on"], Value::Null);
}

async fn check_out_refusals_name_the_state(kind: Kind) {
    let app = TestApp::new(kind).await;
    let group = app.group("Cameras").await;
    let n = app.asset("Camera", group, &[]).await;
    let ann = member(&app, "Ann").await;
    let res = app.put(&format!("/assets/{n}/checkout.api"), &[]).await;
    assert!(res.into_body(StatusCode::UNPROCESSABLE_ENTITY)["errors"]["user_id"].is_array());
    let res = app
        .put(&format!("/assets/{n}/checkout.api?user_id=9999"), &[])
        .await;
    res.into_body(StatusCode::UNPROCESSABLE_ENTITY);
    let res = app
        .put(
            &format!("/assets/{n}/checkout.api?user_id={ann}&till=01/01/2001"),
            &[],
        )
        .await;
    assert!(
        res.into_body(StatusCode::UNPROCESSABLE_ENTITY)["errors"]["till"][0]
            .as_str()
            .unwrap()
            .contains("later than now")
    );
    let res = app
        .put(
            &format!("/assets/{n}/checkout.api?user_id={ann}&till=13/45/2030"),
            &[],
        )
        .await;
    res.into_body(StatusCode::UNPROCESSABLE_ENTITY);
    // An inactive member.
    let cid = member(&app, "Cid").await;
    app.put(&format!("/members/{cid}/deactivate.api"), &[])
        .await
        .into_body(StatusCode::OK);
    let res = app
        .put(&format!("/assets/{n}/checkout.api?user_id={cid}"), &[])
        .await;
    assert!(
        res.into_body(StatusCode::UNPROCESSABLE_ENTITY)["errors"]["user_id"][0]
            .as_str()
            .unwrap()
            .contains("is inactive")
    );
    // Nothing was written by the refusals.
    let read = app
        .get(&format!("/assets/{n}.api"))
        .await
        .into_body(StatusCode::OK);
    assert_eq!(read["asset"]["state"], "available");
    // Checked out: a second check-out names the holder.
    app.put(&format!("/assets/{n}/checkout.api?user_id={ann}"), &[])
        .await
        .into_body(StatusCode::OK);
    let res = app
        .put(&format!("/assets/{n}/checkout.api?user_id={ann}"), &[])
        .await;
    assert_eq!(
        res.into_body(StatusCode::CONFLICT)["message"],
        format!("Asset #{n} is checked out to Ann Tester; check it in first.")
    );
}

async fn fifty_racing_checkouts_one_wins(kind: Kind) {
    let app = TestApp::new(kind).await;
    let group = app.group("Cameras").await;
    let n = app.asset("Camera", group, &[]).await;
    let mut members = Vec::new();
    for i in 0..5 {
        members.push(member(&app, &format!("M{i}")).await);
    }
    let paths: Vec<String> = (0..50)
        .map(|i| format!("/assets/{n}/checkout.api?user_id={}", members[i % 5]))
        .collect();
    let results = join_all(paths.iter().map(|p| app.put(p, &[]))).await;
    let ok = results
        .iter()
        .filter(|r| r.status == StatusCode::OK)
        .count();
    let conflicts = results
        .iter()
        .filter(|r| r.status == StatusCode::CONFLICT)
        .count();
    assert_eq!(
        ok,
        1,
        "{:?}",
        results.iter().map(|r| r.status).collect::<Vec<_>>()
    );
    assert_eq!(conflicts, 49);
    let history = app
        .get(&format!("/assets/{n}/history_paginate.api"))
        .await
        .into_body(StatusCode::OK);
    let checkouts = history["history"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["action"] == "checked_out")
        .count();
    assert_eq!(checkouts, 1);
}

/// `total_pages` and the records of `status=<status>`.
async fn filtered(app: &TestApp, status: &str, page: u32) -> (u64, usize) {
    let res = app
        .get(&format!("/assets/filter.api?status={status}&page={page}"))
        .await
        .into_body(StatusCode::OK);
    (
        res["total_pages"].as_u64().unwrap(),
        res["assets"].as_array().unwrap().len(),
    )
}

async fn state_totals_stay_exact_through_racing_checkouts(kind: Kind) {
    let app = TestApp::new(kind).await;
    let group = app.group("Cameras").await;
    let mut numbers = Vec::new();
    for i in 0..30 {
        numbers.push(app.asset(&format!("Camera {i}"), group, &[]).await);
    }
    let ann = member(&app, "Ann").await;
    let outs: Vec<String> = numbers
        .iter()
        .map(|n| format!("/assets/{n}/checkout.api?user_id={ann}"))
        .collect();
    let results = join_all(outs.iter().map(|p| app.put(p, &[]))).await;
    assert!(results.iter().all(|r| r.status == StatusCode::OK));
    assert_eq!(filtered(&app, "checked_out", 2).await, (2, 5));
    assert_eq!(filtered(&app, "available", 1).await, (0, 0));
    let ins: Vec<String> = numbers[..12]
        .iter()
        .map(|n| format!("/assets/{n}/checkin.api"))
        .collect();
    let results = join_all(ins.iter().map(|p| app.put(p, &[]))).await;
    assert!(results.iter().all(|r| r.status == StatusCode::OK));
    assert_eq!(filtered(&app, "checked_out", 1).await, (1, 18));
    assert_eq!(filtered(&app, "available", 1).await, (1, 12));
    let all = app
        .get("/assets.api?page=2")
        .await
        .into_body(StatusCode::OK);
    assert_eq!(all["total_pages"], 2);
    assert_eq!(all["assets"].as_array().unwrap().len(), 5);
}

async fn retire_and_activate(kind: Kind) {
    let app = TestApp::new(kind).await;
    let group = app.group("Cameras").await;
    let n = app.asset("Camera", group, &[]).await;
    let reason = app.retire_reason("Broken").await;
    let res = app.put(&format!("/assets/{n}/retire.api"), &[]).await;
    let errors = res.into_body(StatusCode::UNPROCESSABLE_ENTITY)["errors"].clone();
    assert!(errors["retired_on"].is_array() && errors["retire_reason_id"].is_array());
    let res = app
        .put(
            &format!("/assets/{n}/retire.api"),
            &[
                ("fixed_asset[retired_on]", "06/01/2026"),
                ("fixed_asset[retire_reason_id]", "999"),
            ],
        )
        .await;
    res.into_body(StatusCode::UNPROCESSABLE_ENTITY);
    let res = app
        .patch(
            &format!("/assets/{n}/retire.api"),
            &[
                ("fixed_asset[retired_on]", "06/01/2026"),
                ("fixed_asset[retire_reason_id]", &reason),
                ("fixed_asset[salvage_value]", "120"),
            ],
        )
        .await;
    let retired = res.into_body(StatusCode::OK);
    assert_documented("/assets/{sequence_num}/retire.api", "patch", &retired);
    let a = retired["asset"].clone();
    assert_eq!(a["state"], "retired");
    assert_eq!(a["retire_reason"], "Broken");
    assert_eq!(a["salvage_value"], "120.00");
    // Retired: no check-out, no second retirement; the reason cannot be deleted.
    let ann = member(&app, "Ann").await;
    let res = app
        .put(&format!("/assets/{n}/checkout.api?user_id={ann}"), &[])
        .await;
    assert!(
        res.into_body(StatusCode::CONFLICT)["message"]
            .as_str()
            .unwrap()
            .contains("is retired")
    );
    let res = app.delete(&format!("/retire_reasons/{reason}.api")).await;
    assert_eq!(
        res.into_body(StatusCode::CONFLICT)["message"],
        "Retire reason \"Broken\" is the reason 1 asset(s) were retired; activate them or retire them with another reason first."
    );
    let retired = app
        .get("/assets/filter.api?status=retired")
        .await
        .into_body(StatusCode::OK);
    assert_documented("/assets/filter.api", "get", &retired);
    assert_eq!(retired["assets"].as_array().unwrap().len(), 1);
    let res = app.put(&format!("/assets/{n}/activate.api"), &[]).await;
    let active = res.into_body(StatusCode::OK);
    assert_documented("/assets/{sequence_num}/activate.api", "put", &active);
    let a = active["asset"].clone();
    assert_eq!(a["state"], "available");
    assert_eq!(a["retired_on"], Value::Null);
    let res = app.put(&format!("/assets/{n}/activate.api"), &[]).await;
    assert!(
        res.into_body(StatusCode::CONFLICT)["message"]
            .as_str()
            .unwrap()
            .contains("is not retired")
    );
    let retired = app
        .get("/assets/filter.api?status=retired")
        .await
        .into_body(StatusCode::OK);
    assert_eq!(retired["total_pages"], 0);
}

async fn activation_location_follows_the_company_setting(kind: Kind) {
    let app = TestApp::new(kind).await;
    let group = app.group("Cameras").await;
    let n = app.asset("Camera", group, &[]).await;
    let reason = app.retire_reason("Lost").await;
    app.put(
        &format!("/assets/{n}/retire.api"),
        &[
            ("fixed_asset[retired_on]", "06/01/2026"),
            ("fixed_asset[retire_reason_id]", &reason),
        ],
    )
    .await
    .into_body(StatusCode::OK);
    app.put(
        "/company_settings.api",
        &[(
            "company_settings[retired_asset_activation_location]",
            "required",
        )],
    )
    .await
    .into_body(StatusCode::OK);
    let res = app.put(&format!("/assets/{n}/activate.api"), &[]).await;
    assert!(res.into_body(StatusCode::UNPROCESSABLE_ENTITY)["errors"]["location_id"].is_array());
    let depot = app.location("Depot", &[]).await.to_string();
    let res = app
        .put(
            &format!("/assets/{n}/activate.api"),
            &[("fixed_asset[location_id]", &depot)],
        )
        .await;
    assert_eq!(
        res.into_body(StatusCode::OK)["asset"]["location_name"],
        "Depot"
    );
}

async fn delete_is_refused_while_checked_out(kind: Kind) {
    let app = TestApp::new(kind).await;
    let group = app.group("Cameras").await;
    let n = app.asset("Camera", group, &[]).await;
    let ann = member(&app, "Ann").await;
    app.put(&format!("/assets/{n}/checkout.api?user_id={ann}"), &[])
        .await
        .into_body(StatusCode::OK);
    let res = app.delete(&format!("/assets/{n}.api")).await;
    assert!(
        res.into_body(StatusCode::CONFLICT)["message"]
            .as_str()
            .unwrap()
            .contains("checked out to Ann Tester")
    );
    app.put(&format!("/assets/{n}/checkin.api"), &[])
        .await
        .into_body(StatusCode::OK);
    let gone = app
        .delete(&format!("/assets/{n}.api"))
        .await
        .into_body(StatusCode::OK);
    assert_eq!(gone["asset"]["sequence_num"], n, "the asset as it was");
    app.get(&format!("/assets/{n}.api"))
        .await
        .into_body(StatusCode::NOT_FOUND);
    let list = app.get("/assets.api").await.into_body(StatusCode::OK);
    assert_eq!(list["total_pages"], 0);
}

async fn gps_readings_are_kept(kind: Kind) {
    let app = TestApp::new(kind).await;
    let group = app.group("Trucks").await;
    let n = app.asset("Truck 1", group, &[]).await;
    let res = app
        .patch(
            &format!("/assets/{n}/gps_coordinates.api"),
            &[("latitude", "95"), ("longitude", "east")],
        )
        .await;
    let errors = res.into_body(StatusCode::UNPROCESSABLE_ENTITY)["errors"].clone();
    assert!(errors["latitude"].is_array() && errors["longitude"].is_array());
    app.patch(
        &format!("/assets/{n}/gps_coordinates.api"),
        &[("latitude", "52.5200"), ("longitude", "13.4050")],
    )
    .await
    .into_body(StatusCode::OK);
    let res = app
        .put(
            &format!("/assets/{n}/gps_coordinates.api"),
            &[
                ("latitude", "48.8566"),
                ("longitude", "2.3522"),
                ("gps_asset_id", "T-1"),
            ],
        )
        .await;
    let read = res.into_body(StatusCode::OK);
    assert_documented("/assets/{sequence_num}/gps_coordinates.api", "put", &read);
    let a = read["asset"].clone();
    assert_eq!(a["latitude"], "48.8566");
    assert_eq!(a["longitude"], "2.3522");
    let history = app
        .get(&format!("/assets/{n}/history_paginate.api"))
        .await
        .into_body(StatusCode::OK);
    assert_documented(
        "/assets/{sequence_num}/history_paginate.api",
        "get",
        &history,
    );
    let gps: Vec<&Value> = history["history"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["action"] == "gps")
        .collect();
    assert_eq!(gps.len(), 2);
    assert_eq!(gps[0]["latitude"], "48.8566", "newest first");
}

async fn history_records_every_change_five_a_page(kind: Kind) {
    let app = TestApp::new(kind).await;
    let group = app.group("Cameras").await;
    let n = app.asset("Camera", group, &[]).await;
    let ann = member(&app, "Ann").await;
    app.put(
        &format!("/assets/{n}.api"),
        &[("fixed_asset[description]", "body only")],
    )
    .await
    .into_body(StatusCode::OK);
    app.put(
        &format!("/assets/{n}/checkout.api?user_id={ann}&till=01/01/2099"),
        &[],
    )
    .await
    .into_body(StatusCode::OK);
    app.put(
        &format!("/assets/{n}/extend_checkout.api?till=02/01/2099"),
        &[],
    )
    .await
    .into_body(StatusCode::OK);
    app.put(&format!("/assets/{n}/checkin.api"), &[])
        .await
        .into_body(StatusCode::OK);
    app.patch(
        &format!("/assets/{n}/gps_coordinates.api"),
        &[("latitude", "1"), ("longitude", "2")],
    )
    .await
    .into_body(StatusCode::OK);
    let first = app
        .get(&format!("/assets/{n}/history_paginate.api"))
        .await
        .into_body(StatusCode::OK);
    assert_eq!(first["total_pages"], 2);
    let actions: Vec<&str> = first["history"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["action"].as_str().unwrap())
        .collect();
    assert_eq!(
        actions,
        [
            "gps",
            "checked_in",
            "checkout_extended",
            "checked_out",
            "updated"
        ]
    );
    let out = &first["history"][3];
    assert_eq!(out["is_checkout"], true);
    assert_eq!(out["assigned_to_name"], "Ann Tester");
    let second = app
        .get(&format!("/assets/{n}/history_paginate.api?page=2"))
        .await
        .into_body(StatusCode::OK);
    assert_eq!(second["history"][0]["action"], "created");
}

async fn members_views(kind: Kind) {
    let app = TestApp::new(kind).await;
    let group = app.group("Cameras").await;
    let a = app.asset("Camera A", group, &[]).await;
    let b = app.asset("Camera B", group, &[]).await;
    let ann = member(&app, "Ann").await;
    app.put(&format!("/assets/{a}/checkout.api?user_id={ann}"), &[])
        .await
        .into_body(StatusCode::OK);
    app.put(&format!("/assets/{b}/checkout.api?user_id={ann}"), &[])
        .await
        .into_body(StatusCode::OK);
    app.put(&format!("/assets/{a}/checkin.api"), &[])
        .await
        .into_body(StatusCode::OK);
    let held = app
        .put(
            &format!("/members/{ann}/checked_out_items.api?item_type=FixedAsset"),
            &[],
        )
        .await
        .into_body(StatusCode::OK);
    assert_documented("/members/{id}/checked_out_items.api", "put", &held);
    assert_keys_documented("Asset", &held["assets"][0], &[]);
    assert_eq!(held["assets"].as_array().unwrap().len(), 1);
    assert_eq!(held["assets"][0]["item_type"], "FixedAsset");
    let held = app
        .get(&format!("/members/{ann}/checked_out_items.api"))
        .await
        .into_body(StatusCode::OK);
    assert_eq!(held["assets"][0]["sequence_num"], b);
    let res = app
        .get(&format!(
            "/members/{ann}/checked_out_items.api?item_type=boats"
        ))
        .await;
    res.into_body(StatusCode::UNPROCESSABLE_ENTITY);
    let history = app
        .get(&format!("/members/{ann}/checkin_checkout_history.api"))
        .await
        .into_body(StatusCode::OK);
    assert_documented(
        "/members/{id}/checkin_checkout_history.api",
        "get",
        &history,
    );
    assert_eq!(history["history"].as_array().unwrap().len(), 2);
    assert_eq!(history["total_pages"], 1);
    assert!(history["history"][0]["checkin_on"].is_string());
    assert!(history["history"][1]["checkin_on"].is_null());
    app.get("/members/9999/checkin_checkout_history.api")
        .await
        .into_body(StatusCode::NOT_FOUND);
    // Deactivating a member who holds items: they keep them and can no longer log in.
    let res = app
        .put(&format!("/members/{ann}/deactivate.api"), &[])
        .await;
    let m = res.into_body(StatusCode::OK)["member"].clone();
    assert_eq!(m["status"], "inactive");
    assert_eq!(m["login_enabled"], false);
    let held = app
        .get(&format!("/members/{ann}/checked_out_items.api"))
        .await
        .into_body(StatusCode::OK);
    assert_eq!(held["assets"].as_array().unwrap().len(), 1);
    app.put(&format!("/assets/{b}/checkin.api"), &[])
        .await
        .into_body(StatusCode::OK);
}

async fn another_company_sees_no_asset(kind: Kind) {
    let app = TestApp::new(kind).await;
    let group = app.group("Cameras").await;
    let n = app.asset("Camera", group, &[]).await;
    let other = TestApp::builder(kind).beside(&app).build().await;
    let m = member(&other, "Olga").await;
    for (method, path) in [
        ("GET", format!("/assets/{n}.api")),
        ("PUT", format!("/assets/{n}.api")),
        ("DELETE", format!("/assets/{n}.api")),
        ("PUT", format!("/assets/{n}/checkout.api?user_id={m}")),
        ("PUT", format!("/assets/{n}/checkin.api")),
        (
            "PUT",
            format!("/assets/{n}/extend_checkout.api?till=01/01/2099"),
        ),
        (
            "PUT",
            format!(
                "/assets/{n}/retire.api?fixed_asset[retired_on]=01/01/2026&fixed_asset[retire_reason_id]=1"
            ),
        ),
        ("PUT", format!("/assets/{n}/activate.api")),
        (
            "PATCH",
            format!("/assets/{n}/gps_coordinates.api?latitude=1&longitude=1"),
        ),
        ("GET", format!("/assets/{n}/history_paginate.api")),
        ("GET", format!("/assets/{n}/reserved_dates.api")),
        ("GET", format!("/assets/{n}/booked_dates.api")),
        ("GET", format!("/assets/{n}/reservation_requests.api")),
        (
            "POST",
            format!(
                "/assets/{n}/reservation_requests.api?reservation_request[from]=01/01/2099&reservation_request[to]=01/02/2099&user[id]={m}"
            ),
        ),
    ] {
        let res = other.req(method.parse().unwrap(), &path).send().await;
        assert_eq!(
            res.status,
            StatusCode::NOT_FOUND,
            "{method} {path}: {}",
            res.body
        );
        assert!(
            res.body["message"]
                .as_str()
                .unwrap()
                .contains("No such asset"),
            "{path}"
        );
    }
    let list = other.get("/assets.api").await.into_body(StatusCode::OK);
    assert_eq!(list["assets"].as_array().unwrap().len(), 0);
    let found = other
        .get("/search.api?search=%23".to_owned().as_str())
        .await;
    assert_eq!(found.status, StatusCode::UNPROCESSABLE_ENTITY);
    let found = other
        .get(&format!("/search.api?search=%23{n}"))
        .await
        .into_body(StatusCode::OK);
    assert_eq!(found["assets"].as_array().unwrap().len(), 0);
}

async fn catalog_guards_count_real_assets(kind: Kind) {
    let app = TestApp::new(kind).await;
    let group = app.group("Cameras").await;
    app.asset("Camera", group, &[]).await;
    app.asset("Camera 2", group, &[]).await;
    let res = app.delete(&format!("/groups/{group}.api")).await;
    assert!(
        res.into_body(StatusCode::CONFLICT)["message"]
            .as_str()
            .unwrap()
            .contains("still has 2 item(s)")
    );
}

async fn search_by_name_number_and_identifier(kind: Kind) {
    let app = TestApp::new(kind).await;
    let group = app.group("Cameras").await;
    let a = app
        .asset(
            "Canon EOS R5",
            group,
            &[("fixed_asset[identifier]", "SN-100")],
        )
        .await;
    app.asset("Nikon Z9", group, &[("fixed_asset[identifier]", "SN-200")])
        .await;
    app.asset("100% cotton bag", group, &[]).await;
    let found = app
        .get("/search.api?search=eos%20canon&facet=FixedAsset")
        .await
        .into_body(StatusCode::OK);
    assert_documented("/search.api", "get", &found);
    assert_eq!(found["assets"].as_array().unwrap().len(), 1);
    assert_eq!(found["assets"][0]["sequence_num"], a);
    let found = app
        .get(&format!("/search.api?search=%23{a}"))
        .await
        .into_body(StatusCode::OK);
    assert_eq!(found["assets"][0]["name"], "Canon EOS R5");
    let found = app
        .get("/search.api?search=%40SN-200")
        .await
        .into_body(StatusCode::OK);
    assert_eq!(found["assets"][0]["name"], "Nikon Z9");
    // LIKE wildcards are literal.
    let found = app
        .get("/search.api?search=%25")
        .await
        .into_body(StatusCode::OK);
    assert_eq!(found["assets"].as_array().unwrap().len(), 1);
    let found = app
        .get("/search.api?search=z")
        .await
        .into_body(StatusCode::OK);
    assert_eq!(found["total_pages"], 1);
    app.get("/search.api")
        .await
        .into_body(StatusCode::UNPROCESSABLE_ENTITY);
    app.get("/search.api?search=x&facet=Boats")
        .await
        .into_body(StatusCode::UNPROCESSABLE_ENTITY);
}

/// The names a search finds, in order, and its `total_pages`.
async fn searched(app: &TestApp, text: &str) -> (Vec<String>, u64) {
    let found = app
        .get(&format!("/search.api?{}", encode(&[("search", text)])))
        .await
        .into_body(StatusCode::OK);
    let names = found["assets"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["name"].as_str().unwrap().to_owned())
        .collect();
    (names, found["total_pages"].as_u64().unwrap())
}

/// A name search (docs/api.md, "Search"): every word a substring of the name, case
/// aside letter by letter in any script; words of one or two characters too; `%` and
/// `_` literal; another company's names never found.
async fn search_matches_substrings_of_every_word_in_any_script(kind: Kind) {
    let app = TestApp::new(kind).await;
    let group = app.group("Tools").await;
    for name in [
        "Makita Drill 18V",
        "Drill bit set",
        "ДРЕЛЬ ударная",
        "電動ドリル セット",
        "ΟΔΟΣ sign",
        "snake_case tool",
        "Hammer 100%",
    ] {
        app.asset(name, group, &[]).await;
    }
    let other = TestApp::builder(kind).beside(&app).build().await;
    let other_group = other.group("Tools").await;
    other.asset("Drill press", other_group, &[]).await;
    for (text, names) in [
        ("drill", &["Makita Drill 18V", "Drill bit set"][..]),
        ("RILL mak", &["Makita Drill 18V"]),
        ("18v DRILL drill", &["Makita Drill 18V"]),
        ("it", &["Makita Drill 18V", "Drill bit set"]),
        ("дрель", &["ДРЕЛЬ ударная"]),
        ("УДАР", &["ДРЕЛЬ ударная"]),
        ("ドリ", &["電動ドリル セット"]),
        ("電動ドリル", &["電動ドリル セット"]),
        ("οδος", &["ΟΔΟΣ sign"]),
        ("_", &["snake_case tool"]),
        ("0%", &["Hammer 100%"]),
        ("press", &[]),
        ("drill hammer", &[]),
        ("it drill", &["Makita Drill 18V", "Drill bit set"]),
        ("ドリル 電", &["電動ドリル セット"]),
    ] {
        let (found, pages) = searched(&app, text).await;
        assert_eq!(found, names, "{text:?}");
        assert_eq!(pages, u64::from(!names.is_empty()), "{text:?}");
    }
}

/// A search's count is kept while the company's item names stay the same: each add,
/// rename and delete of an item changes `total_pages` at the next search, and the
/// count of another company's search is its own.
async fn search_totals_follow_every_add_rename_and_delete(kind: Kind) {
    let app = TestApp::new(kind).await;
    let group = app.group("Pumps").await;
    let mut pumps = Vec::new();
    for i in 0..25 {
        pumps.push(app.asset(&format!("Pump {i}"), group, &[]).await);
    }
    let other = TestApp::builder(kind).beside(&app).build().await;
    let other_group = other.group("Pumps").await;
    other.asset("Pump far away", other_group, &[]).await;
    assert_eq!(searched(&app, "pump").await.1, 1);
    assert_eq!(searched(&app, "pump").await.1, 1, "counted again or kept");
    assert_eq!(searched(&other, "pump").await.1, 1);
    let last = app.asset("Pump 25", group, &[]).await;
    assert_eq!(searched(&app, "pump").await.1, 2, "an added item");
    let page2 = app
        .get("/search.api?search=pump&page=2")
        .await
        .into_body(StatusCode::OK);
    assert_eq!(page2["assets"][0]["sequence_num"], last);
    app.put(
        &format!("/assets/{}.api", pumps[0]),
        &[("fixed_asset[name]", "Valve")],
    )
    .await
    .into_body(StatusCode::OK);
    assert_eq!(searched(&app, "pump").await.1, 1, "a renamed item");
    assert_eq!(searched(&app, "valve").await.0, ["Valve"]);
    app.put(
        &format!("/assets/{}.api", pumps[0]),
        &[("fixed_asset[name]", "Pump again")],
    )
    .await
    .into_body(StatusCode::OK);
    assert_eq!(searched(&app, "pump").await.1, 2, "renamed back");
    app.delete(&format!("/assets/{}.api", pumps[1]))
        .await
        .into_body(StatusCode::OK);
    assert_eq!(searched(&app, "pump").await.1, 1, "a deleted item");
    assert_eq!(searched(&other, "pump").await.1, 1);
}

/// The segments of SQLite's name index (FTS5), which every write of a name adds to.
async fn search_segments(app: &TestApp) -> i64 {
    app.db
        .read()
        .one::<(i64,)>(&store::Sql {
            text: "SELECT count(DISTINCT segid) FROM items_search_idx",
            values: sea_query::Values(vec![]),
        })
        .await
        .unwrap()
        .0
}

/// The minute's maintenance (`Db::optimize`) merges SQLite's name index into one
/// segment once writes have left it more than a few (docs/performance.md), and a
/// search finds the same names, in the same order, after; on PostgreSQL it leaves
/// the search as it was.
async fn maintenance_merges_the_name_index_and_searches_find_the_same(kind: Kind) {
    let app = TestApp::new(kind).await;
    let group = app.group("Pumps").await;
    for i in 0..30 {
        let name = if i % 3 == 0 { "Valve" } else { "Pump" };
        app.asset(&format!("{name} {i}"), group, &[]).await;
    }
    let before = [
        searched(&app, "pump").await,
        searched(&app, "valve 2").await,
    ];
    assert_eq!(before[0].0.len(), 20);
    if kind == Kind::Sqlite {
        assert!(
            search_segments(&app).await > 4,
            "thirty writes, as many segments less FTS5's merges"
        );
    }
    app.db.optimize().await.unwrap();
    if kind == Kind::Sqlite {
        assert_eq!(search_segments(&app).await, 1);
    }
    assert_eq!(
        [
            searched(&app, "pump").await,
            searched(&app, "valve 2").await
        ],
        before
    );
    app.db.optimize().await.unwrap();
    let last = app.asset("Pump 30", group, &[]).await;
    let (names, _) = searched(&app, "pump 30").await;
    assert_eq!(names, ["Pump 30"], "written after the merge ({last})");
}

/// Custom taxes are read in the item's own row (an aggregated column): each asset of a
/// page has exactly its own, ascending whatever the order added, alone, on a page and
/// in the answer to its deletion; another company's taxed asset lends none.
async fn each_asset_on_a_page_carries_its_own_taxes_in_ascending_order(kind: Kind) {
    let app = TestApp::new(kind).await;
    let group = app.group("Cameras").await;
    let first = custom_tax(&app, "State").await;
    let second = custom_tax(&app, "City").await;
    let other = TestApp::builder(kind).beside(&app).build().await;
    let foreign = custom_tax(&other, "Foreign").await;
    let other_group = other.group("Cameras").await;
    other
        .asset(
            "Foreign camera",
            other_group,
            &[("custom_tax_ids_to_add", &format!("[{foreign}]"))],
        )
        .await;
    let both = app
        .asset(
            "Both",
            group,
            &[("custom_tax_ids_to_add", &format!("[{second},{first}]"))],
        )
        .await;
    let one = app
        .asset(
            "One",
            group,
            &[("custom_tax_ids_to_add", &format!("[{second}]"))],
        )
        .await;
    let none = app.asset("None", group, &[]).await;

    let wanted = [
        (both, serde_json::json!([first, second])),
        (one, serde_json::json!([second])),
        (none, serde_json::json!([])),
    ];
    let page = app.get("/assets.api").await.into_body(StatusCode::OK);
    let assets = page["assets"].as_array().unwrap().clone();
    assert_eq!(assets.len(), 3, "another company's asset is not listed");
    for (number, taxes) in &wanted {
        let listed = assets
            .iter()
            .find(|a| a["sequence_num"] == *number)
            .expect("listed");
        assert_eq!(
            &listed["custom_tax_ids"], taxes,
            "asset {number} on the page"
        );
        let alone = app
            .get(&format!("/assets/{number}.api"))
            .await
            .into_body(StatusCode::OK);
        assert_eq!(
            &alone["asset"]["custom_tax_ids"], taxes,
            "asset {number} alone"
        );
    }
    let gone = app
        .delete(&format!("/assets/{both}.api"))
        .await
        .into_body(StatusCode::OK);
    assert_eq!(
        gone["asset"]["custom_tax_ids"],
        serde_json::json!([first, second])
    );
}

async fn custom_tax(app: &TestApp, name: &str) -> i64 {
    app.post(
        "/custom_taxes.api",
        &[("custom_tax[name]", name), ("custom_tax[rate]", "2")],
    )
    .await
    .into_body(StatusCode::OK)["custom_tax"]["id"]
        .as_i64()
        .unwrap()
}

async fn fee_links_and_taxes_are_checked_together(kind: Kind) {
    let app = TestApp::new(kind).await;
    let group = app.group("Cameras").await.to_string();
    let links: Vec<String> = (0..6)
        .map(|i| format!("https://example.com/{i}.pdf"))
        .collect();
    let res = app
        .post(
            "/assets.api",
            &[
                ("fixed_asset[name]", "Camera"),
                ("fixed_asset[group_id]", group.as_str()),
                ("fixed_asset[purchased_on]", "01/15/2026"),
                ("fixed_asset[late_fee_attributes][kind]", "fortnight"),
                ("fixed_asset[document_urls]", &links.join(",")),
                ("custom_tax_ids_to_add", "[1,x]"),
                ("fixed_asset[sub_group_id]", "-4"),
            ],
        )
        .await;
    let errors = res.into_body(StatusCode::UNPROCESSABLE_ENTITY)["errors"].clone();
    for field in [
        "late_fee_attributes][kind",
        "document_urls",
        "custom_tax_ids_to_add",
        "sub_group_id",
    ] {
        assert!(errors.get(field).is_some(), "{field} not named in {errors}");
    }
    assert!(
        errors["late_fee_attributes][kind"][0]
            .as_str()
            .unwrap()
            .contains("flat"),
        "{errors}"
    );
    // A fee needs its amount, an amount its kind.
    let res = app
        .post(
            "/assets.api",
            &[
                ("fixed_asset[name]", "Camera"),
                ("fixed_asset[group_id]", group.as_str()),
                ("fixed_asset[purchased_on]", "01/15/2026"),
                ("fixed_asset[late_fee_attributes][kind]", "day"),
            ],
        )
        .await;
    res.expect_invalid("late_fee_attributes][kind");
    let res = app
        .post(
            "/assets.api",
            &[
                ("fixed_asset[name]", "Camera"),
                ("fixed_asset[group_id]", group.as_str()),
                ("fixed_asset[purchased_on]", "01/15/2026"),
                ("fixed_asset[late_fee_attributes][amount]", "5.00"),
            ],
        )
        .await;
    res.expect_invalid("late_fee_attributes][amount");
    let list = app.get("/assets.api").await.into_body(StatusCode::OK);
    assert_eq!(list["assets"].as_array().unwrap().len(), 0);
}
