//! What rental orders pick from: pricing coupons (`/pricing_coupons`), group taxes
//! (`/group_taxes`) and payment options (`/payment_options`).

use crate::common::{Kind, TestApp, assert_documented, ids};
use axum::http::StatusCode;
use serde_json::{Value, json};

both!(
    taxes_and_coupons_are_the_documented_records,
    coupons_create_read_list_and_update,
    coupon_problems_are_one_422_and_write_nothing,
    coupon_updates_check_the_value_and_days_they_leave,
    coupons_and_group_taxes_of_another_company_do_not_exist,
    group_tax_rate_is_the_exact_sum_of_its_taxes,
    group_tax_problems_are_one_422_and_write_nothing,
    a_new_company_has_cash_check_and_credit_card,
    payment_options_are_added_with_unique_names_whatever_their_case,
);

/// The record under `key` with its moments checked (`YYYY-MM-DD HH:MM:SS`) and taken
/// out, so the rest compares exactly.
fn without_moments(record: &Value) -> Value {
    let mut record = record.clone();
    let object = record.as_object_mut().expect("an object");
    for moment in ["created_at", "updated_at"] {
        if let Some(at) = object.remove(moment) {
            let at = at.as_str().unwrap_or_else(|| panic!("{moment}: {at}"));
            assert_eq!(at.len(), 19, "{moment}: {at}");
        }
    }
    record
}

async fn coupon(app: &TestApp, form: &[(&str, &str)]) -> Value {
    let res = app.post("/pricing_coupons.api", form).await;
    res.expect(StatusCode::OK)["coupon"].clone()
}

async fn coupon_list(app: &TestApp) -> Value {
    let res = app.get("/pricing_coupons.api").await;
    res.into_body(StatusCode::OK)
}

async fn custom_tax(app: &TestApp, name: &str, rate: &str) -> i64 {
    let res = app
        .post(
            "/custom_taxes.api",
            &[("custom_tax[name]", name), ("custom_tax[rate]", rate)],
        )
        .await;
    res.expect(StatusCode::OK)["custom_tax"]["id"]
        .as_i64()
        .unwrap()
}

async fn coupons_create_read_list_and_update(kind: Kind) {
    let app = TestApp::new(kind).await;
    let flat = coupon(
        &app,
        &[
            ("coupon[name]", "Spring Sale"),
            ("coupon[code]", "SPRING10"),
            ("coupon[value_type]", "flat"),
            ("coupon[value]", "12.5"),
            ("coupon[effect]", "discount"),
            ("coupon[valid_from]", "03/01/2026"),
            ("coupon[valid_until]", "2026-03-31"),
            ("coupon[active]", "TRUE"),
        ],
    )
    .await;
    let id = flat["id"].as_i64().unwrap();
    assert_eq!(
        without_moments(&flat),
        json!({
            "id": id,
            "name": "Spring Sale",
            "code": "SPRING10",
            "value_type": "flat",
            "value": "12.50",
            "effect": "discount",
            "valid_from": "2026-03-01",
            "valid_until": "2026-03-31",
            "active": true,
        })
    );
    // Only name, kind and value are needed: a discount, active, for any day.
    let pct = coupon(
        &app,
        &[
            ("coupon[name]", "Rush fee"),
            ("coupon[value_type]", "Percent"),
            ("coupon[value]", "7.5"),
            ("coupon[effect]", "surcharge"),
            ("coupon[code]", ""),
        ],
    )
    .await;
    let pct_id = pct["id"].as_i64().unwrap();
    assert_eq!(
        without_moments(&pct),
        json!({
            "id": pct_id,
            "name": "Rush fee",
            "code": null,
            "value_type": "percent",
            "value": "7.50",
            "effect": "surcharge",
            "valid_from": null,
            "valid_until": null,
            "active": true,
        })
    );
    let plain = coupon(
        &app,
        &[
            ("coupon[name]", "X"),
            ("coupon[value_type]", "flat"),
            ("coupon[value]", "1000000000000"),
        ],
    )
    .await;
    assert_eq!(plain["effect"], "discount");
    assert_eq!(plain["value"], "1000000000000.00");

    let details = app.get(&format!("/pricing_coupons/{id}.api")).await;
    assert_eq!(details.expect(StatusCode::OK)["coupon"], flat);
    let list = coupon_list(&app).await;
    assert_eq!(list["coupons"], json!([flat, pct, plain]));
    assert_eq!(list["total_pages"], 1);
    assert_eq!(list["current_page"], 1);

    // An update keeps what it leaves out and clears what is sent as null.
    let res = app
        .patch(
            &format!("/pricing_coupons/{id}.api"),
            &[
                ("coupon[name]", "Spring Sale 2026"),
                ("coupon[code]", "null"),
                ("coupon[valid_until]", "null"),
                ("coupon[value]", "20"),
                ("coupon[active]", "false"),
            ],
        )
        .await;
    let updated = res.expect(StatusCode::OK)["coupon"].clone();
    assert_eq!(
        without_moments(&updated),
        json!({
            "id": id,
            "name": "Spring Sale 2026",
            "code": null,
            "value_type": "flat",
            "value": "20.00",
            "effect": "discount",
            "valid_from": "2026-03-01",
            "valid_until": null,
            "active": false,
        })
    );
    assert_eq!(updated["created_at"], flat["created_at"]);
    // PUT is the same update; the kind and value change together.
    let res = app
        .put(
            &format!("/pricing_coupons/{id}.api"),
            &[
                ("coupon[value_type]", "percent"),
                ("coupon[value]", "100"),
                ("coupon[effect]", "SURCHARGE"),
                ("coupon[active]", "1"),
            ],
        )
        .await;
    let updated = res.expect(StatusCode::OK)["coupon"].clone();
    assert_eq!(updated["value_type"], "percent");
    assert_eq!(updated["value"], "100.00");
    assert_eq!(updated["effect"], "surcharge");
    assert_eq!(updated["active"], true);
    assert_eq!(updated["name"], "Spring Sale 2026");
    // A value alone is read as the coupon's kind.
    let res = app
        .patch(
            &format!("/pricing_coupons/{pct_id}.api"),
            &[("coupon[value]", "33.33")],
        )
        .await;
    assert_eq!(res.expect(StatusCode::OK)["coupon"]["value"], "33.33");
    let details = app.get(&format!("/pricing_coupons/{id}.api")).await;
    assert_eq!(details.expect(StatusCode::OK)["coupon"], updated);
    // Nothing to change is no change.
    let res = app.patch(&format!("/pricing_coupons/{id}.api"), &[]).await;
    assert_eq!(
        without_moments(&res.expect(StatusCode::OK)["coupon"]),
        without_moments(&updated)
    );
}

async fn coupon_problems_are_one_422_and_write_nothing(kind: Kind) {
    let app = TestApp::new(kind).await;
    coupon(
        &app,
        &[
            ("coupon[name]", "Taken"),
            ("coupon[value_type]", "flat"),
            ("coupon[value]", "5"),
        ],
    )
    .await;
    let before = coupon_list(&app).await;
    let good = [
        ("coupon[name]", "Good"),
        ("coupon[value_type]", "flat"),
        ("coupon[value]", "5"),
    ];
    let cases: &[(&[(&str, &str)], &str)] = &[
        (&[("coupon[name]", "")], "name"),
        (&[("coupon[name]", "   ")], "name"),
        (&[("coupon[name]", "Taken")], "name"),
        (&[("coupon[value_type]", "")], "value_type"),
        (&[("coupon[value_type]", "fixed")], "value_type"),
        (&[("coupon[value]", "")], "value"),
        (&[("coupon[value]", "0")], "value"),
        (&[("coupon[value]", "-5")], "value"),
        (&[("coupon[value]", "1.005")], "value"),
        (&[("coupon[value]", "ten")], "value"),
        (&[("coupon[value]", "1000000000000.01")], "value"),
        (
            &[
                ("coupon[value_type]", "percent"),
                ("coupon[value]", "100.01"),
            ],
            "value",
        ),
        (
            &[("coupon[value_type]", "percent"), ("coupon[value]", "0")],
            "value",
        ),
        (
            &[
                ("coupon[value_type]", "percent"),
                ("coupon[value]", "12.345"),
            ],
            "value",
        ),
        (&[("coupon[effect]", "rebate")], "effect"),
        (&[("coupon[valid_from]", "13/45/2026")], "valid_from"),
        (&[("coupon[valid_until]", "tomorrow")], "valid_until"),
        // Parsed as a date, but of no year PostgreSQL stores.
        (&[("coupon[valid_from]", "-99999-01-01")], "valid_from"),
        (&[("coupon[valid_until]", "01/01/-5000")], "valid_until"),
        (
            &[
                ("coupon[valid_from]", "03/02/2026"),
                ("coupon[valid_until]", "03/01/2026"),
            ],
            "valid_until",
        ),
        (&[("coupon[active]", "maybe")], "active"),
        (&[("coupon[code]", "a\u{1}b")], "coupon[code]"),
    ];
    for (changes, field) in cases {
        let mut form: Vec<(&str, &str)> = good
            .iter()
            .filter(|(k, _)| !changes.iter().any(|(c, _)| c == k))
            .copied()
            .collect();
        form.extend_from_slice(changes);
        let res = app.post("/pricing_coupons.api", &form).await;
        res.expect_invalid(field);
    }
    // Every problem at once.
    let res = app
        .post(
            "/pricing_coupons.api",
            &[
                ("coupon[value_type]", "percent"),
                ("coupon[value]", "101"),
                ("coupon[effect]", "rebate"),
                ("coupon[valid_from]", "2026-05-02"),
                ("coupon[valid_until]", "2026-05-01"),
            ],
        )
        .await;
    for field in ["name", "value", "effect", "valid_until"] {
        res.expect_invalid(field);
    }
    app.post("/pricing_coupons.api", &[])
        .await
        .expect_invalid("value_type");
    assert_eq!(coupon_list(&app).await, before, "nothing was written");
}

async fn coupon_updates_check_the_value_and_days_they_leave(kind: Kind) {
    let app = TestApp::new(kind).await;
    let big = coupon(
        &app,
        &[
            ("coupon[name]", "Big"),
            ("coupon[value_type]", "flat"),
            ("coupon[value]", "150"),
            ("coupon[valid_from]", "2026-06-10"),
        ],
    )
    .await;
    let pct = coupon(
        &app,
        &[
            ("coupon[name]", "Pct"),
            ("coupon[value_type]", "percent"),
            ("coupon[value]", "10"),
        ],
    )
    .await;
    let (big_id, pct_id) = (big["id"].as_i64().unwrap(), pct["id"].as_i64().unwrap());
    let before = coupon_list(&app).await;
    for (id, form, field) in [
        // 150.00 is no percentage.
        (big_id, vec![("coupon[value_type]", "percent")], "value"),
        // A percentage coupon's value alone is read as a percentage.
        (pct_id, vec![("coupon[value]", "100.5")], "value"),
        (pct_id, vec![("coupon[value]", "0")], "value"),
        // The last day may not come before the stored first day.
        (
            big_id,
            vec![("coupon[valid_until]", "2026-06-09")],
            "valid_until",
        ),
        (
            big_id,
            vec![
                ("coupon[valid_from]", "2026-07-01"),
                ("coupon[valid_until]", "2026-06-30"),
            ],
            "valid_until",
        ),
        (big_id, vec![("coupon[name]", "Pct")], "name"),
        (big_id, vec![("coupon[value_type]", "both")], "value_type"),
    ] {
        let res = app.put(&format!("/pricing_coupons/{id}.api"), &form).await;
        res.expect_invalid(field);
    }
    assert_eq!(coupon_list(&app).await, before, "nothing was written");
    // Clearing the first day, then an earlier last day is fine.
    let res = app
        .put(
            &format!("/pricing_coupons/{big_id}.api"),
            &[
                ("coupon[valid_from]", "null"),
                ("coupon[valid_until]", "2026-06-09"),
            ],
        )
        .await;
    let c = &res.expect(StatusCode::OK)["coupon"];
    assert_eq!(c["valid_from"], Value::Null);
    assert_eq!(c["valid_until"], "2026-06-09");
    // 150 becomes a percentage when a percentage is sent with it.
    let res = app
        .put(
            &format!("/pricing_coupons/{big_id}.api"),
            &[("coupon[value_type]", "percent"), ("coupon[value]", "15")],
        )
        .await;
    assert_eq!(res.expect(StatusCode::OK)["coupon"]["value"], "15.00");
}

async fn coupons_and_group_taxes_of_another_company_do_not_exist(kind: Kind) {
    let a = TestApp::new(kind).await;
    let b = TestApp::builder(kind).beside(&a).build().await;
    let c = coupon(
        &a,
        &[
            ("coupon[name]", "Ours"),
            ("coupon[value_type]", "flat"),
            ("coupon[value]", "5"),
        ],
    )
    .await;
    let id = c["id"].as_i64().unwrap();
    let tax = custom_tax(&a, "State", "5").await;
    let res = a
        .post(
            "/group_taxes.api",
            &[
                ("group_tax[name]", "Ours"),
                ("group_tax[custom_tax_ids]", &tax.to_string()),
            ],
        )
        .await;
    let group = res.expect(StatusCode::OK)["group_tax"]["id"]
        .as_i64()
        .unwrap();

    let res = b.get(&format!("/pricing_coupons/{id}.api")).await;
    assert_eq!(
        res.expect(StatusCode::NOT_FOUND)["message"],
        "No such coupon in this company. Check the id."
    );
    for value in ["7", ""] {
        b.put(
            &format!("/pricing_coupons/{id}.api"),
            &[("coupon[name]", "Theirs"), ("coupon[value]", value)],
        )
        .await
        .expect(StatusCode::NOT_FOUND);
    }
    let res = b.get(&format!("/group_taxes/{group}.api")).await;
    assert_eq!(
        res.expect(StatusCode::NOT_FOUND)["message"],
        "No such group tax in this company. Check the id."
    );
    // Another company's custom tax is no tax of this one.
    let res = b
        .post(
            "/group_taxes.api",
            &[
                ("group_tax[name]", "Theirs"),
                ("group_tax[custom_tax_ids]", &tax.to_string()),
            ],
        )
        .await;
    res.expect_invalid("custom_tax_ids");
    assert_eq!(
        res.body["errors"]["custom_tax_ids"],
        json!([format!("has no custom tax with id {tax}")])
    );
    // Names are unique per company only.
    coupon(
        &b,
        &[
            ("coupon[name]", "Ours"),
            ("coupon[value_type]", "flat"),
            ("coupon[value]", "1"),
        ],
    )
    .await;
    assert_eq!(
        coupon_list(&b).await["coupons"].as_array().unwrap().len(),
        1
    );
    let list = b.get("/group_taxes.api").await;
    assert_eq!(list.expect(StatusCode::OK)["group_taxes"], json!([]));
    let mine = a.get(&format!("/pricing_coupons/{id}.api")).await;
    assert_eq!(mine.expect(StatusCode::OK)["coupon"], c);
}

async fn group_tax_rate_is_the_exact_sum_of_its_taxes(kind: Kind) {
    let app = TestApp::new(kind).await;
    let state = custom_tax(&app, "State", "8.875").await;
    let county = custom_tax(&app, "County", "1.125").await;
    let city = custom_tax(&app, "City", "0.0001").await;
    // Repeats count once; the taxes come back in id order.
    let ids = format!("{county},{state}, {county}");
    let res = app
        .post(
            "/group_taxes.api",
            &[
                ("group_tax[name]", "Metro"),
                ("group_tax[custom_tax_ids]", &ids),
            ],
        )
        .await;
    let metro = res.expect(StatusCode::OK)["group_tax"].clone();
    let id = metro["id"].as_i64().unwrap();
    assert_eq!(
        without_moments(&metro),
        json!({
            "id": id,
            "name": "Metro",
            "rate": "10",
            "custom_taxes": [
                {"id": state, "name": "State", "rate": "8.875"},
                {"id": county, "name": "County", "rate": "1.125"},
            ],
        })
    );
    // Repeated [] works as well as a comma list.
    let (s, c) = (state.to_string(), city.to_string());
    let res = app
        .post(
            "/group_taxes.api",
            &[
                ("group_tax[name]", "Tiny"),
                ("group_tax[custom_tax_ids][]", &s),
                ("group_tax[custom_tax_ids][]", &c),
            ],
        )
        .await;
    let tiny = res.expect(StatusCode::OK)["group_tax"].clone();
    assert_eq!(tiny["rate"], "8.8751");
    assert_eq!(tiny["custom_taxes"].as_array().unwrap().len(), 2);

    let details = app.get(&format!("/group_taxes/{id}.api")).await;
    assert_eq!(details.expect(StatusCode::OK)["group_tax"], metro);
    let list = app.get("/group_taxes.api").await;
    let list = list.into_body(StatusCode::OK);
    assert_eq!(list["group_taxes"], json!([metro, tiny]));
    assert_eq!(list["total_pages"], 1);
}

async fn group_tax_problems_are_one_422_and_write_nothing(kind: Kind) {
    let app = TestApp::new(kind).await;
    let tax = custom_tax(&app, "State", "5").await.to_string();
    app.post(
        "/group_taxes.api",
        &[
            ("group_tax[name]", "Taken"),
            ("group_tax[custom_tax_ids]", &tax),
        ],
    )
    .await
    .expect(StatusCode::OK);
    let before = app.get("/group_taxes.api").await.into_body(StatusCode::OK);
    let unknown = format!("{tax},999998,999999");
    for (form, field) in [
        (vec![("group_tax[custom_tax_ids]", tax.as_str())], "name"),
        (
            vec![
                ("group_tax[name]", "Taken"),
                ("group_tax[custom_tax_ids]", tax.as_str()),
            ],
            "name",
        ),
        (vec![("group_tax[name]", "New")], "custom_tax_ids"),
        (
            vec![
                ("group_tax[name]", "New"),
                ("group_tax[custom_tax_ids]", " , "),
            ],
            "custom_tax_ids",
        ),
        (
            vec![
                ("group_tax[name]", "New"),
                ("group_tax[custom_tax_ids]", "1,x"),
            ],
            "custom_tax_ids",
        ),
        (
            vec![
                ("group_tax[name]", "New"),
                ("group_tax[custom_tax_ids]", unknown.as_str()),
            ],
            "custom_tax_ids",
        ),
    ] {
        app.post("/group_taxes.api", &form)
            .await
            .expect_invalid(field);
    }
    let res = app
        .post(
            "/group_taxes.api",
            &[
                ("group_tax[name]", "New"),
                ("group_tax[custom_tax_ids]", &unknown),
            ],
        )
        .await;
    assert_eq!(
        res.body["errors"]["custom_tax_ids"],
        json!(["has no custom tax with id 999998, 999999"]),
        "every unknown id is named: {}",
        res.text
    );
    let res = app.post("/group_taxes.api", &[]).await;
    res.expect_invalid("name");
    res.expect_invalid("custom_tax_ids");
    let after = app.get("/group_taxes.api").await.into_body(StatusCode::OK);
    assert_eq!(after, before, "nothing was written");
}

async fn a_new_company_has_cash_check_and_credit_card(kind: Kind) {
    let app = TestApp::new(kind).await;
    let res = app.get("/payment_options.api").await;
    let body = res.into_body(StatusCode::OK);
    assert_documented("/payment_options.api", "get", &body);
    let options: Vec<Value> = body["payment_options"]
        .as_array()
        .unwrap()
        .iter()
        .map(without_moments)
        .collect();
    let ids = ids(&body, "payment_options");
    assert_eq!(
        options,
        vec![
            json!({"id": ids[0], "name": "Cash", "kind": "cash"}),
            json!({"id": ids[1], "name": "Check", "kind": "check"}),
            json!({"id": ids[2], "name": "Credit Card", "kind": "credit_card"}),
        ]
    );
    assert_eq!(body["total_pages"], 1);
    // Every company has its own.
    let other = TestApp::builder(kind).beside(&app).build().await;
    let theirs = other.get("/payment_options.api").await;
    let theirs = crate::common::ids(&theirs.into_body(StatusCode::OK), "payment_options");
    assert_eq!(theirs.len(), 3);
    assert!(theirs.iter().all(|id| !ids.contains(id)));
}

async fn payment_options_are_added_with_unique_names_whatever_their_case(kind: Kind) {
    let app = TestApp::new(kind).await;
    let res = app
        .post(
            "/payment_options.api",
            &[("payment_option[name]", " Bank Transfer ")],
        )
        .await;
    assert_documented("/payment_options.api", "post", res.expect(StatusCode::OK));
    let transfer = res.expect(StatusCode::OK)["payment_option"].clone();
    let id = transfer["id"].as_i64().unwrap();
    assert_eq!(
        without_moments(&transfer),
        json!({"id": id, "name": "Bank Transfer", "kind": "other"})
    );
    let res = app
        .post(
            "/payment_options.api",
            &[
                ("payment_option[name]", "Amex"),
                ("payment_option[kind]", "Credit Card"),
            ],
        )
        .await;
    assert_eq!(
        res.expect(StatusCode::OK)["payment_option"]["kind"],
        "credit_card"
    );
    let before = app
        .get("/payment_options.api")
        .await
        .into_body(StatusCode::OK);
    assert_eq!(
        before["payment_options"]
            .as_array()
            .unwrap()
            .iter()
            .map(|o| o["name"].as_str().unwrap())
            .collect::<Vec<_>>(),
        ["Cash", "Check", "Credit Card", "Bank Transfer", "Amex"]
    );
    for (form, field) in [
        (vec![("payment_option[name]", "CASH")], "name"),
        (vec![("payment_option[name]", " credit card")], "name"),
        (vec![("payment_option[name]", "bank transfer")], "name"),
        (vec![("payment_option[name]", "")], "name"),
        (vec![("payment_option[kind]", "cash")], "name"),
        (
            vec![
                ("payment_option[name]", "Crypto"),
                ("payment_option[kind]", "bitcoin"),
            ],
            "kind",
        ),
    ] {
        app.post("/payment_options.api", &form)
            .await
            .expect_invalid(field);
    }
    let res = app
        .post("/payment_options.api", &[("payment_option[name]", "Cash")])
        .await;
    assert_eq!(
        res.body["errors"]["name"],
        json!(["has already been taken (names differing only in case count as the same)"])
    );
    let after = app
        .get("/payment_options.api")
        .await
        .into_body(StatusCode::OK);
    assert_eq!(after, before, "nothing was written");
}

/// Every answer carrying a custom tax, a group tax or a coupon matches the document's
/// `CustomTax`, `GroupTax` (with its `GroupTaxPart`s) and `Coupon`.
async fn taxes_and_coupons_are_the_documented_records(kind: Kind) {
    let app = TestApp::new(kind).await;
    let mut taxes = Vec::new();
    for (name, rate) in [("State", "8.875"), ("City", "1")] {
        let tax = app
            .post(
                "/custom_taxes.api",
                &[("custom_tax[name]", name), ("custom_tax[rate]", rate)],
            )
            .await
            .into_body(StatusCode::OK);
        assert_documented("/custom_taxes.api", "post", &tax);
        taxes.push(tax["custom_tax"]["id"].to_string());
    }
    let page = app.get("/custom_taxes.api").await.into_body(StatusCode::OK);
    assert_documented("/custom_taxes.api", "get", &page);
    let group = app
        .post(
            "/group_taxes.api",
            &[
                ("group_tax[name]", "Sales"),
                ("group_tax[custom_tax_ids]", &taxes.join(",")),
            ],
        )
        .await
        .into_body(StatusCode::OK);
    assert_documented("/group_taxes.api", "post", &group);
    assert_eq!(group["group_tax"]["rate"], "9.875");
    let details = app
        .get(&format!("/group_taxes/{}.api", group["group_tax"]["id"]))
        .await
        .into_body(StatusCode::OK);
    assert_documented("/group_taxes/{id}.api", "get", &details);
    let page = app.get("/group_taxes.api").await.into_body(StatusCode::OK);
    assert_documented("/group_taxes.api", "get", &page);
    let coupon = app
        .post(
            "/pricing_coupons.api",
            &[
                ("coupon[name]", "Spring"),
                ("coupon[code]", "SPRING"),
                ("coupon[value_type]", "percent"),
                ("coupon[value]", "12.5"),
                ("coupon[valid_from]", "03/01/2026"),
            ],
        )
        .await
        .into_body(StatusCode::OK);
    assert_documented("/pricing_coupons.api", "post", &coupon);
    assert_eq!(coupon["coupon"]["valid_from"], "2026-03-01");
    assert!(coupon["coupon"]["valid_until"].is_null());
    let path = format!("/pricing_coupons/{}.api", coupon["coupon"]["id"]);
    let updated = app
        .put(
            &path,
            &[("coupon[code]", "null"), ("coupon[effect]", "surcharge")],
        )
        .await
        .into_body(StatusCode::OK);
    assert_documented("/pricing_coupons/{id}.api", "put", &updated);
    assert!(updated["coupon"]["code"].is_null());
    assert_documented(
        "/pricing_coupons/{id}.api",
        "get",
        &app.get(&path).await.into_body(StatusCode::OK),
    );
    let page = app
        .get("/pricing_coupons.api")
        .await
        .into_body(StatusCode::OK);
    assert_documented("/pricing_coupons.api", "get", &page);
}
