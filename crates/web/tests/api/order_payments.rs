//! What customers pay (pre-payments, cash at the return or the sale, voiding), selling
//! an order and marking its items for sale, cancelling and voiding orders.

use crate::common::{Kind, TestApp};
use crate::order_rentals::{full_draft, item, quantity_at, rent_out, shop, take_back};
use crate::orders::{book, day, draft, state_of};
use axum::http::StatusCode;
use serde_json::Value;

both!(
    pre_payments_are_taken_voided_and_settle_a_returned_order,
    refused_payments_change_nothing,
    paid_in_full_at_the_return_the_order_completes,
    an_order_is_sold_once_its_items_are_for_sale,
    cancelled_orders_free_their_items_and_completed_ones_are_voided,
);

pub(crate) async fn pre_pay(app: &TestApp, n: i64, form: &[(&str, &str)]) -> crate::common::Res {
    app.patch(&format!("/baskets/{n}/charge_pre_payment.api"), form)
        .await
}

async fn basket(app: &TestApp, n: i64) -> Value {
    app.get(&format!("/baskets/{n}.api"))
        .await
        .into_body(StatusCode::OK)["basket"]
        .clone()
}

/// Amounts as cents, to check net − paid = balance.
fn cents(v: &Value) -> i64 {
    let s = v.as_str().unwrap();
    let d: f64 = s.parse().unwrap();
    (d * 100.0).round() as i64
}

fn balanced(b: &Value) {
    assert_eq!(
        cents(&b["net_amount"]) - cents(&b["amount_paid"]),
        cents(&b["balance_due"]),
        "{b}"
    );
}

async fn pre_payments_are_taken_voided_and_settle_a_returned_order(kind: Kind) {
    let app = TestApp::new(kind).await;
    let s = shop(&app).await;
    let n = draft(&app, s.ann, &s.tent.to_string(), &[]).await;
    let b = pre_pay(
        &app,
        n,
        &[
            ("basket[pre_paid_amount]", "10"),
            ("basket[payment_method_name]", "cash"),
            ("basket[payment_notes]", "deposit"),
        ],
    )
    .await
    .into_body(StatusCode::OK)["basket"]
        .clone();
    assert_eq!(b["amount_paid"], "10.00");
    assert_eq!(b["balance_due"], "-10.00");
    let p = &b["payment_histories"][0];
    assert_eq!(p["amount"], "10.00");
    assert_eq!(p["payment_method_name"], "Cash");
    assert_eq!(p["payment_type"], "cash");
    assert_eq!(p["purpose"], "pre_payment");
    assert_eq!(p["notes"], "deposit");
    assert_eq!(p["voided"], false);
    let first = p["id"].as_i64().unwrap();
    balanced(&b);

    // Voided: it stays, voided, and counts no more; twice is a 409; unknown a 404.
    let void = format!("/baskets/{n}/payment_histories/{first}/mark_void.api");
    let b = app.patch(&void, &[]).await.into_body(StatusCode::OK)["basket"].clone();
    assert_eq!(b["amount_paid"], "0.00");
    assert_eq!(b["payment_histories"][0]["voided"], true);
    balanced(&b);
    app.put(&void, &[]).await.expect(StatusCode::CONFLICT);
    let missing = app
        .patch(
            &format!("/baskets/{n}/payment_histories/999999/mark_void.api"),
            &[],
        )
        .await;
    assert_eq!(missing.status, StatusCode::NOT_FOUND, "{}", missing.text);
    assert!(missing.text.contains("payment history"), "{}", missing.text);
    let other = draft(&app, s.ann, "", &[]).await;
    app.patch(
        &format!("/baskets/{other}/payment_histories/{first}/mark_void.api"),
        &[],
    )
    .await
    .expect(StatusCode::NOT_FOUND);

    // Rented and returned, it owes 2 days (20.00) less 5.00 paid at the return.
    rent_out(
        &app,
        n,
        &[("use_current_datetime", "true"), ("return_date", &day(1))],
    )
    .await
    .expect(StatusCode::OK);
    let b = take_back(
        &app,
        n,
        &[("use_current_datetime", "true"), ("basket[cash_paid]", "5")],
    )
    .await
    .into_body(StatusCode::OK)["basket"]
        .clone();
    assert_eq!(b["basket_state"], "returned", "{b}");
    assert_eq!(b["net_amount"], "20.00");
    assert_eq!(b["balance_due"], "15.00");
    assert_eq!(b["payment_histories"][1]["purpose"], "return");
    balanced(&b);
    // Paying the rest completes it.
    let b = pre_pay(
        &app,
        n,
        &[
            ("basket[pre_paid_amount]", "15.00"),
            ("basket[payment_method_name]", "Check"),
            ("basket[payment_date]", &day(0)),
            ("basket[payment_time]", "09:30"),
        ],
    )
    .await
    .into_body(StatusCode::OK)["basket"]
        .clone();
    assert_eq!(b["basket_state"], "completed", "{b}");
    assert_eq!(b["order_state"], "Completed");
    assert!(b["completed_on"].is_string());
    assert_eq!(b["balance_due"], "0.00");
    assert!(
        b["payment_histories"][2]["paid_at"]
            .as_str()
            .unwrap()
            .ends_with("09:30:00")
    );
    // A completed order takes no more payments and keeps those it has.
    let more = pre_pay(
        &app,
        n,
        &[
            ("basket[pre_paid_amount]", "1"),
            ("basket[payment_method_name]", "Cash"),
        ],
    )
    .await;
    assert_eq!(more.status, StatusCode::CONFLICT, "{}", more.text);
    assert!(more.text.contains("Completed"), "{}", more.text);
    let second = b["payment_histories"][1]["id"].as_i64().unwrap();
    app.patch(
        &format!("/baskets/{n}/payment_histories/{second}/mark_void.api"),
        &[],
    )
    .await
    .expect(StatusCode::CONFLICT);
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
    assert!(actions.contains(&"payment_taken") && actions.contains(&"payment_voided"));
}

async fn refused_payments_change_nothing(kind: Kind) {
    let app = TestApp::new(kind).await;
    let s = shop(&app).await;
    let n = draft(&app, s.ann, &s.tent.to_string(), &[]).await;
    let cases: Vec<(Vec<(&str, &str)>, &str)> = vec![
        (
            vec![("basket[payment_method_name]", "Cash")],
            "basket[pre_paid_amount]",
        ),
        (
            vec![
                ("basket[pre_paid_amount]", "0"),
                ("basket[payment_method_name]", "Cash"),
            ],
            "basket[pre_paid_amount]",
        ),
        (
            vec![
                ("basket[pre_paid_amount]", "-5"),
                ("basket[payment_method_name]", "Cash"),
            ],
            "basket[pre_paid_amount]",
        ),
        (
            vec![
                ("basket[pre_paid_amount]", "1.234"),
                ("basket[payment_method_name]", "Cash"),
            ],
            "basket[pre_paid_amount]",
        ),
        (
            vec![("basket[pre_paid_amount]", "5")],
            "payment_method_name",
        ),
        (
            vec![
                ("basket[pre_paid_amount]", "5"),
                ("basket[payment_method_name]", "Gold bars"),
            ],
            "payment_method_name",
        ),
        (
            vec![
                ("basket[pre_paid_amount]", "5"),
                ("basket[payment_method_name]", "Cash"),
                ("basket[payment_date]", "31/31/2026"),
            ],
            "basket[payment_date]",
        ),
    ];
    for (form, field) in cases {
        pre_pay(&app, n, &form).await.expect_invalid(field);
    }
    let card = pre_pay(
        &app,
        n,
        &[
            ("basket[pre_paid_amount]", "5"),
            ("basket[payment_method_name]", "Credit Card"),
        ],
    )
    .await;
    assert_eq!(card.status, StatusCode::FORBIDDEN, "{}", card.text);
    assert!(card.text.contains("Credit card"), "{}", card.text);
    // A company's own credit-card option is refused as well.
    app.post(
        "/payment_options.api",
        &[
            ("payment_option[name]", "Visa"),
            ("payment_option[kind]", "credit_card"),
        ],
    )
    .await
    .expect(StatusCode::OK);
    pre_pay(
        &app,
        n,
        &[
            ("basket[pre_paid_amount]", "5"),
            ("basket[payment_method_name]", "visa"),
        ],
    )
    .await
    .expect(StatusCode::FORBIDDEN);
    let b = basket(&app, n).await;
    assert_eq!(b["amount_paid"], "0.00");
    assert_eq!(b["payment_histories"], serde_json::json!([]));
    // A bad payment at the return refuses the whole return.
    rent_out(
        &app,
        n,
        &[("use_current_datetime", "true"), ("return_date", &day(1))],
    )
    .await
    .expect(StatusCode::OK);
    take_back(
        &app,
        n,
        &[
            ("basket[cash_paid]", "5"),
            ("basket[payment_method_name]", "Credit Card"),
        ],
    )
    .await
    .expect(StatusCode::FORBIDDEN);
    take_back(&app, n, &[("basket[cash_paid]", "lots")])
        .await
        .expect_invalid("basket[cash_paid]");
    assert_eq!(state_of(&app, n).await, "checked_out");
    assert_eq!(item(&app, s.tent).await["state"], "checked_out");
    assert_eq!(basket(&app, n).await["amount_paid"], "0.00");
}

async fn paid_in_full_at_the_return_the_order_completes(kind: Kind) {
    let app = TestApp::new(kind).await;
    let s = shop(&app).await;
    let n = draft(&app, s.ann, &s.tent.to_string(), &[]).await;
    rent_out(
        &app,
        n,
        &[("use_current_datetime", "true"), ("return_date", &day(1))],
    )
    .await
    .expect(StatusCode::OK);
    let b = take_back(
        &app,
        n,
        &[
            ("use_current_datetime", "true"),
            ("basket[cash_paid]", "20"),
            ("basket[payment_notes]", "thanks"),
        ],
    )
    .await
    .into_body(StatusCode::OK)["basket"]
        .clone();
    assert_eq!(b["basket_state"], "completed", "{b}");
    assert_eq!(b["payment_histories"][0]["payment_method_name"], "Cash");
    assert!(b["returned_on"].is_string() && b["completed_on"].is_string());
    balanced(&b);
    let done = app
        .get("/baskets.api?filters[completed]=true")
        .await
        .into_body(StatusCode::OK);
    assert_eq!(done["baskets"].as_array().unwrap().len(), 1);
}

async fn an_order_is_sold_once_its_items_are_for_sale(kind: Kind) {
    let app = TestApp::new(kind).await;
    let s = shop(&app).await;
    let n = full_draft(&app, &s).await;
    let sell = format!("/baskets/{n}/sale_order.api");
    let r = app.patch(&sell, &[("use_current_datetime", "true")]).await;
    r.expect_invalid("asset_ids");
    assert!(r.text.contains(&format!("#{}", s.tent)), "{}", r.text);
    let mark = format!("/baskets/{n}/sale_items_for_drafted_basket.api");
    let ids = format!("{},{}", s.tent, s.cables);
    let batteries = s.batteries.to_string();
    let (tent_price, cable_price) = (
        format!("sale_prices[{}]", s.tent),
        format!("sale_prices[{}]", s.cables),
    );
    let tent = s.tent.to_string();
    let refusals: Vec<(Vec<(&str, &str)>, String)> = vec![
        (vec![], "asset_ids_marked_as_sale".into()),
        (
            vec![("asset_ids_marked_as_sale", &ids), (&tent_price, "300")],
            cable_price.clone(),
        ),
        (
            vec![
                ("asset_ids_marked_as_sale", &ids),
                (&tent_price, "x"),
                (&cable_price, "1"),
            ],
            tent_price.clone(),
        ),
        (
            vec![
                ("asset_ids_marked_as_sale", "999999"),
                ("sale_prices[999999]", "1"),
            ],
            "asset_ids_marked_as_sale".into(),
        ),
        // Every price sent is an amount, its item marked or not (as documented).
        (
            vec![
                ("asset_ids_marked_as_sale", &tent),
                (&tent_price, "300"),
                (&cable_price, "lots"),
            ],
            cable_price.clone(),
        ),
        (
            vec![("asset_ids_marked_for_non_sale", &batteries)],
            "asset_ids_marked_for_non_sale".into(),
        ),
    ];
    for (form, field) in refusals {
        app.post(&mark, &form).await.expect_invalid(&field);
    }
    let b = app
        .post(
            &mark,
            &[
                ("asset_ids_marked_as_sale", &ids),
                (&tent_price, "300"),
                (&cable_price, "4.00"),
            ],
        )
        .await
        .into_body(StatusCode::OK)["basket"]
        .clone();
    assert_eq!(b["order_line_items"][0]["for_sale"], true);
    assert_eq!(b["order_line_items"][0]["sale_price"], "300.00");
    // 300.00 + 3 × 4.00 + 2 × 2.25
    assert_eq!(b["sale_amount"], "316.50", "{b}");
    let b = app
        .patch(
            &sell,
            &[
                ("use_current_datetime", "true"),
                ("basket[cash_paid]", "316.50"),
            ],
        )
        .await
        .into_body(StatusCode::OK)["basket"]
        .clone();
    assert_eq!(b["basket_state"], "sold", "{b}");
    assert_eq!(b["order_state"], "Sold");
    assert_eq!(b["balance_due"], "0.00");
    assert_eq!(b["payment_histories"][0]["purpose"], "sale");
    assert_eq!(item(&app, s.tent).await["state"], "retired");
    assert_eq!(quantity_at(&app, s.cables, s.store).await, 7);
    assert_eq!(item(&app, s.cables).await["checked_out_quantity"], 0);
    assert_eq!(quantity_at(&app, s.batteries, s.store).await, 18);
    let again = app.patch(&sell, &[]).await;
    assert_eq!(again.status, StatusCode::CONFLICT, "{}", again.text);
    assert!(again.text.contains("Sold"), "{}", again.text);
    app.post(
        &mark,
        &[("asset_ids_marked_for_non_sale", &s.tent.to_string())],
    )
    .await
    .expect(StatusCode::CONFLICT);
}

async fn cancelled_orders_free_their_items_and_completed_ones_are_voided(kind: Kind) {
    let app = TestApp::new(kind).await;
    let s = shop(&app).await;
    let tent = s.tent.to_string();
    let n = draft(&app, s.ann, &tent, &[]).await;
    book(&app, n, 1, 2).await.expect(StatusCode::OK);
    let other = draft(&app, s.ann, &tent, &[]).await;
    book(&app, other, 2, 3).await.expect(StatusCode::CONFLICT);
    let b = app
        .patch(&format!("/baskets/{n}/cancel.api"), &[])
        .await
        .into_body(StatusCode::OK)["basket"]
        .clone();
    assert_eq!(b["order_state"], "Cancelled");
    book(&app, other, 2, 3).await.expect(StatusCode::OK);
    app.patch(&format!("/baskets/{n}/cancel.api"), &[])
        .await
        .expect(StatusCode::CONFLICT);
    // Rented out, an order is returned, not cancelled; completed, it is voided.
    let r = draft(&app, s.ann, &s.cables.to_string(), &[]).await;
    rent_out(
        &app,
        r,
        &[("use_current_datetime", "true"), ("return_date", &day(1))],
    )
    .await
    .expect(StatusCode::OK);
    app.patch(&format!("/baskets/{r}/cancel.api"), &[])
        .await
        .expect(StatusCode::CONFLICT);
    app.patch(&format!("/baskets/{r}/void.api"), &[])
        .await
        .expect(StatusCode::CONFLICT);
    take_back(&app, r, &[("basket[cash_paid]", "2")])
        .await
        .expect(StatusCode::OK);
    assert_eq!(state_of(&app, r).await, "completed");
    let b = app
        .patch(&format!("/baskets/{r}/void.api"), &[])
        .await
        .into_body(StatusCode::OK)["basket"]
        .clone();
    assert_eq!(b["order_state"], "Void");
    app.put(&format!("/baskets/{r}/void.api"), &[])
        .await
        .expect(StatusCode::CONFLICT);
}
