//! Orders as a whole: the customer and business filters over real orders, and random
//! sequences of order operations that must never break the rules.

use crate::common::{Kind, Tally, TestApp, busiest};
use crate::order_rentals::{Shop, rent_out, shop, take_back};
use crate::orders::{book, day, draft};
use axum::http::StatusCode;
use serde_json::Value;

both!(
    customer_and_business_filters_follow_real_orders,
    random_order_operations_keep_every_rule,
);

async fn ids(app: &TestApp, path: &str, key: &str) -> Vec<i64> {
    let mut ids: Vec<i64> = app.get(path).await.into_body(StatusCode::OK)[key]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["id"].as_i64().unwrap())
        .collect();
    ids.sort_unstable();
    ids
}

/// Rents order `n` out now and takes it back paid in full: completed.
async fn complete(app: &TestApp, n: i64) {
    rent_out(
        app,
        n,
        &[("use_current_datetime", "true"), ("return_date", &day(1))],
    )
    .await
    .expect(StatusCode::OK);
    let b = take_back(app, n, &[]).await.into_body(StatusCode::OK)["basket"].clone();
    let owed = b["balance_due"].as_str().unwrap().to_owned();
    app.patch(
        &format!("/baskets/{n}/charge_pre_payment.api"),
        &[
            ("basket[pre_paid_amount]", owed.as_str()),
            ("basket[payment_method_name]", "Cash"),
        ],
    )
    .await
    .expect(StatusCode::OK);
}

async fn customer_and_business_filters_follow_real_orders(kind: Kind) {
    let app = TestApp::new(kind).await;
    let s = shop(&app).await;
    let cable = s.cables.to_string();
    let (bob, cat) = (
        app.customer("Bob", "Regular", &[]).await,
        app.customer("Cat", "Booker", &[]).await,
    );
    let acme = app.business("Acme", &[]).await;
    let dan = app.contact("Dan", &acme.to_string(), &[]).await;

    // Ann rents out; Bob completes two orders; Cat books one.
    let ann_order = draft(&app, s.ann, &s.tent.to_string(), &[]).await;
    rent_out(
        &app,
        ann_order,
        &[("use_current_datetime", "true"), ("return_date", &day(2))],
    )
    .await
    .expect(StatusCode::OK);
    for _ in 0..2 {
        let n = draft(&app, bob, &cable, &[]).await;
        complete(&app, n).await;
    }
    let cat_order = draft(&app, cat, &cable, &[]).await;
    book(&app, cat_order, 5, 6).await.expect(StatusCode::OK);
    // Acme (through its contact Dan) has a booked order.
    let acme_order = app
        .post(
            "/baskets.api",
            &[
                ("basket[customer_id]", dan.to_string().as_str()),
                ("business_id", acme.to_string().as_str()),
                ("asset_ids", cable.as_str()),
            ],
        )
        .await
        .into_body(StatusCode::OK)["basket"]["sequence_num"]
        .as_i64()
        .unwrap();
    book(&app, acme_order, 8, 9).await.expect(StatusCode::OK);

    let customers = |q: &str| format!("/customers.api?{q}");
    assert_eq!(
        ids(&app, &customers("filter=checked_out_orders"), "customers").await,
        vec![s.ann]
    );
    assert_eq!(
        ids(
            &app,
            &customers("filter=completed_orders&filter_val=%3E1"),
            "customers"
        )
        .await,
        vec![bob]
    );
    assert_eq!(
        ids(
            &app,
            &customers("filter=completed_orders&filter_val=%3E2"),
            "customers"
        )
        .await,
        Vec::<i64>::new()
    );
    let businesses = |q: &str| format!("/businesses.api?filter={q}");
    assert_eq!(
        ids(&app, &businesses("active_customers"), "businesses").await,
        vec![acme]
    );
    assert_eq!(
        ids(&app, &businesses("checked_out_orders"), "businesses").await,
        Vec::<i64>::new()
    );
    // Acme's order goes out, then completes.
    rent_out(
        &app,
        acme_order,
        &[("use_current_datetime", "true"), ("return_date", &day(9))],
    )
    .await
    .expect(StatusCode::OK);
    assert_eq!(
        ids(&app, &businesses("checked_out_orders"), "businesses").await,
        vec![acme]
    );
    let b = take_back(&app, acme_order, &[])
        .await
        .into_body(StatusCode::OK)["basket"]
        .clone();
    let owed = b["balance_due"].as_str().unwrap().to_owned();
    app.patch(
        &format!("/baskets/{acme_order}/charge_pre_payment.api"),
        &[
            ("basket[pre_paid_amount]", owed.as_str()),
            ("basket[payment_method_name]", "Cash"),
        ],
    )
    .await
    .expect(StatusCode::OK);
    assert_eq!(
        ids(
            &app,
            &businesses("completed_orders&filter_val=%3E0"),
            "businesses"
        )
        .await,
        vec![acme]
    );
    assert_eq!(
        ids(&app, &businesses("active_customers"), "businesses").await,
        Vec::<i64>::new()
    );
}

#[derive(Debug, Clone)]
enum Op {
    /// A draft of the tent and this many cables (none when 0).
    New(i64),
    Book(usize, i64, i64),
    Unbook(usize),
    RentOut(usize, i64),
    /// Return the tent only (true) or everything.
    Return(usize, bool),
    Pay(usize, i64),
    VoidFirstPayment(usize),
    Cancel(usize),
    Entry(usize, i64),
}

fn ops() -> impl proptest::strategy::Strategy<Value = Vec<Op>> {
    use proptest::prelude::*;
    let o = 0usize..6;
    let op = prop_oneof![
        (0i64..5).prop_map(Op::New),
        (o.clone(), 0i64..6, 0i64..3).prop_map(|(o, s, l)| Op::Book(o, s, l)),
        o.clone().prop_map(Op::Unbook),
        (o.clone(), 1i64..4).prop_map(|(o, l)| Op::RentOut(o, l)),
        (o.clone(), any::<bool>()).prop_map(|(o, p)| Op::Return(o, p)),
        (o.clone(), 1i64..5000).prop_map(|(o, c)| Op::Pay(o, c)),
        o.clone().prop_map(Op::VoidFirstPayment),
        o.clone().prop_map(Op::Cancel),
        (o, -2000i64..2000).prop_map(|(o, c)| Op::Entry(o, c)),
    ];
    proptest::collection::vec(op, 15..30)
}

fn cents(v: &Value) -> i64 {
    let s = v.as_str().unwrap_or_else(|| panic!("an amount: {v}"));
    let negative = s.starts_with('-');
    let digits: String = s.chars().filter(char::is_ascii_digit).collect();
    let n: i64 = digits.parse().unwrap();
    if negative { -n } else { n }
}

fn amount(c: i64) -> String {
    let sign = if c < 0 { "-" } else { "" };
    format!("{sign}{}.{:02}", c.abs() / 100, c.abs() % 100)
}

/// Everything a refused operation must leave as it was.
async fn snapshot(app: &TestApp, s: &Shop, orders: &[i64]) -> Vec<Value> {
    let mut all = Vec::new();
    for n in orders {
        all.push(
            app.get(&format!("/baskets/{n}.api"))
                .await
                .into_body(StatusCode::OK),
        );
    }
    for item in [s.tent, s.cables] {
        all.push(
            app.get(&format!("/assets/{item}.api"))
                .await
                .into_body(StatusCode::OK),
        );
    }
    all
}

/// The periods orders hold `item` (booked or out) with their units.
async fn holds(app: &TestApp, item: i64) -> Vec<(String, Option<String>, i64)> {
    let booked = app
        .get(&format!("/assets/{item}/booked_dates.api"))
        .await
        .into_body(StatusCode::OK);
    booked["booked_dates"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|b| b["order_number"].is_i64())
        .map(|b| {
            (
                b["from"].as_str().unwrap().to_owned(),
                b["to"].as_str().map(str::to_owned),
                b["quantity"].as_i64().unwrap(),
            )
        })
        .filter(|h| h.2 > 0)
        .collect()
}

async fn random_order_operations_keep_every_rule(kind: Kind) {
    use proptest::strategy::{Strategy, ValueTree};
    let app = TestApp::new(kind).await;
    let s = shop(&app).await;
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    let mut orders: Vec<i64> = Vec::new();
    let mut tally = Tally::default();
    for _ in 0..4 {
        let ops = ops().new_tree(&mut runner).unwrap().current();
        for op in &ops {
            let pick = |o: &usize| orders.get(o % orders.len().max(1)).copied();
            let before = snapshot(&app, &s, &orders).await;
            let res = match op {
                Op::New(c) => {
                    let ids = if *c > 0 {
                        format!("{},{}", s.tent, s.cables)
                    } else {
                        s.tent.to_string()
                    };
                    let key = format!("stock_assets_values[{}][quantity]", s.cables);
                    let q = c.to_string();
                    let n = draft(&app, s.ann, &ids, &[(key.as_str(), q.as_str())]).await;
                    orders.push(n);
                    continue;
                }
                _ if orders.is_empty() => continue,
                Op::Book(o, start, len) => book(&app, pick(o).unwrap(), *start, start + len).await,
                Op::Unbook(o) => {
                    app.patch(
                        &format!("/baskets/{}/cancel_reservation.api", pick(o).unwrap()),
                        &[("cancel_booking", "removed")],
                    )
                    .await
                }
                Op::RentOut(o, len) => {
                    rent_out(
                        &app,
                        pick(o).unwrap(),
                        &[
                            ("use_current_datetime", "true"),
                            ("return_date", &day(*len)),
                        ],
                    )
                    .await
                }
                Op::Return(o, tent_only) => {
                    let tent = s.tent.to_string();
                    let form: Vec<(&str, &str)> = if *tent_only {
                        vec![("partial_return", "true"), ("fixed_asset_ids", &tent)]
                    } else {
                        vec![]
                    };
                    take_back(&app, pick(o).unwrap(), &form).await
                }
                Op::Pay(o, c) => {
                    app.patch(
                        &format!("/baskets/{}/charge_pre_payment.api", pick(o).unwrap()),
                        &[
                            ("basket[pre_paid_amount]", &amount(*c)),
                            ("basket[payment_method_name]", "Cash"),
                        ],
                    )
                    .await
                }
                Op::VoidFirstPayment(o) => {
                    let n = pick(o).unwrap();
                    let b = app
                        .get(&format!("/baskets/{n}.api"))
                        .await
                        .into_body(StatusCode::OK);
                    let Some(id) = b["basket"]["payment_histories"][0]["id"].as_i64() else {
                        continue;
                    };
                    app.patch(
                        &format!("/baskets/{n}/payment_histories/{id}/mark_void.api"),
                        &[],
                    )
                    .await
                }
                Op::Cancel(o) => {
                    app.patch(&format!("/baskets/{}/cancel.api", pick(o).unwrap()), &[])
                        .await
                }
                Op::Entry(o, c) => {
                    app.post(
                        &format!("/baskets/{}/custom_entries.api", pick(o).unwrap()),
                        &[
                            ("custom_entry[name]", "Extra"),
                            ("custom_entry[amount]", &amount(*c)),
                        ],
                    )
                    .await
                }
            };
            tally
                .step(op, &res, &before, snapshot(&app, &s, &orders))
                .await;
            for n in &orders {
                let b = app
                    .get(&format!("/baskets/{n}.api"))
                    .await
                    .into_body(StatusCode::OK);
                let b = &b["basket"];
                assert_eq!(
                    cents(&b["net_amount"]) - cents(&b["amount_paid"]),
                    cents(&b["balance_due"]),
                    "after {op:?}: {b}"
                );
            }
            let tent = holds(&app, s.tent).await;
            assert!(
                busiest(&tent) <= 1,
                "after {op:?} the tent is held twice: {tent:?}"
            );
            let cables = holds(&app, s.cables).await;
            assert!(
                busiest(&cables) <= 10,
                "after {op:?} cables over-promised: {cables:?}"
            );
        }
    }
    assert!(tally.done > 20 && tally.refused > 5, "{tally:?}");
}
