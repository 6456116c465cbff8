//! Coupons, taxes, custom entries and damages on an order, priced to the cent.

use crate::common::{Kind, TestApp};
use crate::order_rentals::{rent_out, shop, take_back};
use crate::orders::{day, draft};
use axum::http::StatusCode;
use serde_json::Value;

both!(
    coupons_taxes_entries_and_damages_price_the_order,
    bad_charges_are_refused_and_change_nothing,
    coupons_must_be_valid_on_the_rent_out_day,
    closed_orders_take_no_charges,
    an_order_keeps_the_terms_it_took,
);

async fn coupon(app: &TestApp, name: &str, extra: &[(&str, &str)]) -> i64 {
    let mut form = vec![("coupon[name]", name)];
    form.extend_from_slice(extra);
    app.post("/pricing_coupons.api", &form)
        .await
        .into_body(StatusCode::OK)["coupon"]["id"]
        .as_i64()
        .unwrap()
}

async fn tax(app: &TestApp, name: &str, rate: &str) -> i64 {
    app.post(
        "/custom_taxes.api",
        &[("custom_tax[name]", name), ("custom_tax[rate]", rate)],
    )
    .await
    .into_body(StatusCode::OK)["custom_tax"]["id"]
        .as_i64()
        .unwrap()
}

/// A draft of the tent (10.00 a day) for 3 days from tomorrow: 30.00.
async fn three_day_tent(app: &TestApp) -> (i64, i64) {
    let s = shop(app).await;
    let n = draft(
        app,
        s.ann,
        &s.tent.to_string(),
        &[("expected_checkout_date", &day(1)), ("due_date", &day(3))],
    )
    .await;
    (n, s.ann)
}

async fn patch(app: &TestApp, path: &str, form: &[(&str, &str)]) -> Value {
    app.patch(path, form).await.into_body(StatusCode::OK)["basket"].clone()
}

async fn coupons_taxes_entries_and_damages_price_the_order(kind: Kind) {
    let app = TestApp::new(kind).await;
    let (n, _) = three_day_tent(&app).await;
    let five_off = coupon(
        &app,
        "Five off",
        &[("coupon[value_type]", "flat"), ("coupon[value]", "5")],
    )
    .await
    .to_string();
    let add = format!("/baskets/{n}/update_basket_from_show.api");
    let b = patch(&app, &add, &[("coupon_ids", &five_off)]).await;
    assert_eq!(b["gross_amount"], "30.00", "{b}");
    assert_eq!(b["coupon_amount"], "-5.00");
    assert_eq!(b["coupons"][0]["name"], "Five off");
    assert_eq!(b["net_amount"], "25.00");

    let state = tax(&app, "State", "8.875").await;
    let county = tax(&app, "County", "1.125").await;
    let metro = app
        .post(
            "/group_taxes.api",
            &[
                ("group_tax[name]", "Metro"),
                ("group_tax[custom_tax_ids]", &format!("{state},{county}")),
            ],
        )
        .await
        .into_body(StatusCode::OK)["group_tax"]["id"]
        .as_i64()
        .unwrap();
    let taxes = format!("/baskets/{n}/apply_taxes.api");
    let b = patch(
        &app,
        &taxes,
        &[
            ("custom_tax_id", &state.to_string()),
            ("group_tax_id", &metro.to_string()),
        ],
    )
    .await;
    // 25.00 × 8.875 % = 2.21875 → 2.22; × 10 % = 2.50.
    assert_eq!(b["taxable_amount"], "25.00", "{b}");
    assert_eq!(b["tax_amounts"][0]["amount"], "2.22");
    assert_eq!(b["tax_amounts"][1]["name"], "Metro");
    assert_eq!(b["tax_amounts"][1]["amount"], "2.50");
    assert_eq!(b["net_amount"], "29.72");

    let entries = format!("/baskets/{n}/custom_entries.api");
    app.post(
        &entries,
        &[
            ("custom_entry[name]", "Delivery"),
            ("custom_entry[amount]", "15"),
            ("custom_entry[comments]", "to the venue"),
        ],
    )
    .await
    .expect(StatusCode::OK);
    let b = app
        .post(
            &entries,
            &[
                ("custom_entry[name]", "Goodwill"),
                ("custom_entry[amount]", "-3.00"),
                ("custom_entry[tax_free]", "true"),
            ],
        )
        .await
        .into_body(StatusCode::OK)["basket"]
        .clone();
    assert_eq!(b["custom_entries_amount"], "12.00", "{b}");
    assert_eq!(b["custom_entries"][1]["amount"], "-3.00");
    assert_eq!(b["custom_entries"][0]["comments"], "to the venue");
    // Taxable 25 + 15 = 40: 3.55 and 4.00; net 25 + 12 + 7.55.
    assert_eq!(b["net_amount"], "44.55");

    let b = patch(
        &app,
        &format!("/baskets/{n}/charge_damages.api"),
        &[
            ("enable_invoice_damages", "on"),
            ("basket[damage_amount]", "20"),
        ],
    )
    .await;
    // Taxable 60: 5.325 → 5.33 and 6.00; net 25 + 20 + 12 + 11.33.
    assert_eq!(b["damage_amount"], "20.00");
    assert_eq!(b["tax_amount"], "11.33", "{b}");
    assert_eq!(b["net_amount"], "68.33");
    assert_eq!(b["balance_due"], "68.33");

    // A customer who pays no tax.
    let bob = app
        .customer("Bob", "Exempt", &[("customer[collect_tax]", "FALSE")])
        .await
        .to_string();
    let b = patch(
        &app,
        &format!("/baskets/{n}.api"),
        &[("basket[customer_id]", &bob)],
    )
    .await;
    assert_eq!(b["tax_amount"], "0.00", "{b}");
    assert_eq!(b["net_amount"], "57.00");
    // Both lists empty: no taxes.
    let b = patch(&app, &taxes, &[("custom_tax_id", ""), ("group_tax_id", "")]).await;
    assert_eq!(b["tax_amounts"], serde_json::json!([]));
}

async fn bad_charges_are_refused_and_change_nothing(kind: Kind) {
    let app = TestApp::new(kind).await;
    let (n, _) = three_day_tent(&app).await;
    let expired = coupon(
        &app,
        "Old",
        &[
            ("coupon[value_type]", "percent"),
            ("coupon[value]", "10"),
            ("coupon[valid_until]", "01/31/2020"),
        ],
    )
    .await
    .to_string();
    let good = coupon(
        &app,
        "Good",
        &[("coupon[value_type]", "flat"), ("coupon[value]", "1")],
    )
    .await
    .to_string();
    let add = format!("/baskets/{n}/update_basket_from_show.api");
    type Refusal<'a> = (String, Vec<(&'a str, &'a str)>, &'a str);
    let refusals: Vec<Refusal<'_>> = vec![
        (add.clone(), vec![("coupon_ids", &expired)], "coupon_ids"),
        (add.clone(), vec![("coupon_ids", "999999")], "coupon_ids"),
        (add.clone(), vec![("coupon_ids", "")], "coupon_ids"),
        (add.clone(), vec![("coupon_ids", "x")], "coupon_ids"),
        // With items in the same request, an item refused refuses the coupon too.
        (
            add.clone(),
            vec![("coupon_ids", &good), ("asset_ids", "1")],
            "asset_ids",
        ),
        (
            add.clone(),
            vec![("coupon_ids", &expired), ("asset_ids", "999999")],
            "asset_ids",
        ),
        (
            format!("/baskets/{n}/apply_taxes.api"),
            vec![],
            "custom_tax_id",
        ),
        (
            format!("/baskets/{n}/apply_taxes.api"),
            vec![("custom_tax_id", "999999")],
            "custom_tax_id",
        ),
        (
            format!("/baskets/{n}/apply_taxes.api"),
            vec![("group_tax_id", "999999")],
            "group_tax_id",
        ),
        (
            format!("/baskets/{n}/charge_damages.api"),
            vec![("basket[damage_amount]", "5")],
            "enable_invoice_damages",
        ),
        (
            format!("/baskets/{n}/charge_damages.api"),
            vec![("enable_invoice_damages", "on")],
            "damage_amount",
        ),
        (
            format!("/baskets/{n}/charge_damages.api"),
            vec![
                ("enable_invoice_damages", "on"),
                ("basket[damage_amount]", "-5"),
            ],
            "damage_amount",
        ),
    ];
    for (path, form, field) in refusals {
        app.patch(&path, &form).await.expect_invalid(field);
    }
    let res = app.patch(&add, &[("coupon_ids", &expired)]).await;
    let problem = res.body["errors"]["coupon_ids"][0]
        .as_str()
        .unwrap_or_default();
    assert!(
        problem.starts_with("are not valid on ")
            && problem.ends_with(&format!(
                "(inactive, or outside their valid_from..valid_until): {expired} (Old)"
            )),
        "{}",
        res.body
    );
    let entries = format!("/baskets/{n}/custom_entries.api");
    for (form, field) in [
        (vec![("custom_entry[amount]", "5")], "name"),
        (vec![("custom_entry[name]", "X")], "amount"),
        (
            vec![
                ("custom_entry[name]", "X"),
                ("custom_entry[amount]", "five"),
            ],
            "amount",
        ),
        (
            vec![
                ("custom_entry[name]", "X"),
                ("custom_entry[amount]", "5"),
                ("custom_entry[tax_free]", "maybe"),
            ],
            "tax_free",
        ),
    ] {
        app.post(&entries, &form).await.expect_invalid(field);
    }
    // One 422 names every problem of a request.
    let res = app
        .post(
            &entries,
            &[
                ("custom_entry[amount]", "--5"),
                ("custom_entry[tax_free]", "maybe"),
            ],
        )
        .await;
    for field in ["name", "amount", "tax_free"] {
        res.expect_invalid(field);
    }
    let res = app
        .patch(
            &format!("/baskets/{n}/charge_damages.api"),
            &[
                ("enable_invoice_damages", "off"),
                ("basket[damage_amount]", "1.234"),
            ],
        )
        .await;
    for field in ["enable_invoice_damages", "damage_amount"] {
        res.expect_invalid(field);
    }
    let b = app
        .get(&format!("/baskets/{n}.api"))
        .await
        .into_body(StatusCode::OK)["basket"]
        .clone();
    assert_eq!(b["net_amount"], "30.00", "{b}");
    assert_eq!(b["coupons"], serde_json::json!([]));
    assert_eq!(b["custom_entries"], serde_json::json!([]));
    // A coupon goes on once; with an item in the same request (the spec does not keep
    // them apart), both go on.
    let group = app.group("Poles").await;
    let pole = crate::orders::rented_asset(&app, group, "Pole", &[("daily", "2")]).await;
    let b = patch(
        &app,
        &add,
        &[("coupon_ids", &good), ("asset_ids", &pole.to_string())],
    )
    .await;
    assert_eq!(b["coupons"].as_array().map(Vec::len), Some(1), "{b}");
    assert_eq!(
        b["order_line_items"].as_array().map(Vec::len),
        Some(2),
        "{b}"
    );
    app.patch(&add, &[("coupon_ids", &good)])
        .await
        .expect_invalid("coupon_ids");
}

async fn coupons_must_be_valid_on_the_rent_out_day(kind: Kind) {
    let app = TestApp::new(kind).await;
    let s = shop(&app).await;
    let later = coupon(
        &app,
        "Later",
        &[
            ("coupon[value_type]", "flat"),
            ("coupon[value]", "2"),
            ("coupon[valid_from]", &day(5)),
        ],
    )
    .await
    .to_string();
    let n = draft(
        &app,
        s.ann,
        &s.tent.to_string(),
        &[("expected_checkout_date", &day(5)), ("due_date", &day(6))],
    )
    .await;
    app.patch(
        &format!("/baskets/{n}/update_basket_from_show.api"),
        &[("coupon_ids", &later)],
    )
    .await
    .expect(StatusCode::OK);
    // Rented out today, the coupon is not valid yet: refused, nothing goes.
    rent_out(&app, n, &[("use_current_datetime", "true")])
        .await
        .expect_invalid("coupon_ids");
    rent_out(
        &app,
        n,
        &[("rentout_date", &day(5)), ("return_date", &day(6))],
    )
    .await
    .expect(StatusCode::OK);
}

async fn closed_orders_take_no_charges(kind: Kind) {
    let app = TestApp::new(kind).await;
    let s = shop(&app).await;
    let n = draft(&app, s.ann, &s.cables.to_string(), &[]).await;
    rent_out(
        &app,
        n,
        &[("use_current_datetime", "true"), ("return_date", &day(1))],
    )
    .await
    .expect(StatusCode::OK);
    // Damages found at the return; paid in full, the order completes.
    let b = patch(
        &app,
        &format!("/baskets/{n}/charge_damages.api"),
        &[
            ("enable_invoice_damages", "on"),
            ("basket[damage_amount]", "8"),
        ],
    )
    .await;
    assert_eq!(b["net_amount"], "10.00", "{b}");
    take_back(&app, n, &[("basket[cash_paid]", "10")])
        .await
        .expect(StatusCode::OK);
    for (path, form) in [
        (
            format!("/baskets/{n}/custom_entries.api"),
            vec![
                ("custom_entry[name]", "Late"),
                ("custom_entry[amount]", "1"),
            ],
        ),
        (
            format!("/baskets/{n}/apply_taxes.api"),
            vec![("custom_tax_id", "")],
        ),
        (
            format!("/baskets/{n}/charge_damages.api"),
            vec![
                ("enable_invoice_damages", "on"),
                ("basket[damage_amount]", "1"),
            ],
        ),
    ] {
        let r = if path.ends_with("custom_entries.api") {
            app.post(&path, &form).await
        } else {
            app.patch(&path, &form).await
        };
        assert_eq!(r.status, StatusCode::CONFLICT, "{path}: {}", r.text);
        assert!(r.text.contains("Completed"), "{}", r.text);
    }
}

/// A coupon changed after it was applied, a tax, or the company's pricing settings
/// changed after the order went out: the order's price stays what it was.
async fn an_order_keeps_the_terms_it_took(kind: Kind) {
    let app = TestApp::new(kind).await;
    let s = shop(&app).await;
    let id = coupon(
        &app,
        "Five off",
        &[("coupon[value_type]", "flat"), ("coupon[value]", "5")],
    )
    .await;
    let n = draft(&app, s.ann, &s.tent.to_string(), &[]).await;
    app.patch(
        &format!("/baskets/{n}/update_basket_from_show.api"),
        &[("coupon_ids", &id.to_string())],
    )
    .await
    .expect(StatusCode::OK);
    app.patch(
        &format!("/pricing_coupons/{id}.api"),
        &[("coupon[value]", "9")],
    )
    .await
    .expect(StatusCode::OK);
    // Today 00:00 to tomorrow 00:00, the return minute counting: 2 days, 20.00 − 5.00.
    let b = app
        .patch(
            &format!("/baskets/{n}/checkout.api"),
            &[
                ("rentout_date", &day(0)),
                ("return_date", &day(1)),
                ("return_time", "00:00"),
            ],
        )
        .await
        .into_body(StatusCode::OK)["basket"]
        .clone();
    assert_eq!(b["coupons"][0]["value"], "5.00", "{b}");
    assert_eq!(b["net_amount"], "15.00", "{b}");
    app.patch(
        "/company_settings.api",
        &[("company_settings[inclusive_return]", "false")],
    )
    .await
    .expect(StatusCode::OK);
    let b = app
        .get(&format!("/baskets/{n}.api"))
        .await
        .into_body(StatusCode::OK)["basket"]
        .clone();
    assert_eq!(
        b["net_amount"], "15.00",
        "the rented-out order keeps its terms: {b}"
    );
    // A draft follows the settings of now: the same day is 1 day.
    let fresh = draft(
        &app,
        s.ann,
        &s.cables.to_string(),
        &[
            ("expected_checkout_date", &day(0)),
            ("due_date", &day(1)),
            ("due_time", "00:00"),
        ],
    )
    .await;
    let b = app
        .get(&format!("/baskets/{fresh}.api"))
        .await
        .into_body(StatusCode::OK)["basket"]
        .clone();
    assert_eq!(b["rental_amount"], "1.00", "{b}");
}
