//! One availability: every way an item is promised (order bookings, rent-outs and
//! sales, members' check-outs and approved reservations, services) sees every other,
//! one at a time or racing, and a refusal names what holds the item.

use crate::common::{Kind, Tally, TestApp, assert_documented, busiest};
use crate::order_rentals::{Shop, rent_out, shop, take_back};
use crate::orders::{book, day, draft, rented_asset, state_of};
use axum::http::StatusCode;
use serde_json::Value;
use std::pin::Pin;

both!(
    a_booked_asset_is_not_checked_out_or_reserved_by_members,
    booked_stock_is_not_checked_out_sold_or_reserved,
    reservations_of_inventory_hold_against_orders,
    a_stock_check_out_is_not_extended_into_a_booking,
    a_rented_out_asset_is_not_verified,
    bookings_race_check_outs_approvals_and_services,
    booked_units_race_stock_check_outs_sales_and_approvals,
    random_promises_of_every_kind_never_overpromise,
);

/// The 409 message of `res`.
fn refusal(res: crate::common::Res) -> String {
    res.into_body(StatusCode::CONFLICT)["message"]
        .as_str()
        .unwrap()
        .to_owned()
}

async fn member(app: &TestApp, first: &str) -> i64 {
    app.member(first, "Member", &format!("{first}@example.com"), &[])
        .await
}

async fn asset(app: &TestApp, n: i64) -> Value {
    app.get(&format!("/assets/{n}.api"))
        .await
        .into_body(StatusCode::OK)["asset"]
        .clone()
}

/// An approved (or refused) approval of a new request for `quantity` units of item `n`
/// on days `from..=to`: the approval's answer and the request's id.
async fn reserve(
    app: &TestApp,
    n: i64,
    who: i64,
    quantity: Option<i64>,
    (from, to): (i64, i64),
) -> (crate::common::Res, i64) {
    let (who, q) = (who.to_string(), quantity.unwrap_or(1).to_string());
    let mut form = vec![
        ("reservation_request[from]", day(from)),
        ("reservation_request[to]", day(to)),
        ("user[id]", who),
    ];
    if quantity.is_some() {
        form.push(("reservation_request[quantity]", q));
    }
    let form: Vec<(&str, &str)> = form.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let id = app
        .post(&format!("/assets/{n}/reservation_requests.api"), &form)
        .await
        .into_body(StatusCode::OK)["reservation_request"]["id"]
        .as_i64()
        .unwrap();
    (approve(app, n, id).await, id)
}

async fn approve(app: &TestApp, n: i64, id: i64) -> crate::common::Res {
    app.put(
        &format!("/assets/{n}/reservation_requests/{id}/update_status.api"),
        &[("request_action", "approve_request")],
    )
    .await
}

fn check_out_asset(n: i64, who: i64) -> String {
    format!("/assets/{n}/checkout.api?user_id={who}")
}

/// A member's check-out of `q` units of asset stock `n` from location `at`, without end.
async fn check_out_stock(app: &TestApp, n: i64, at: i64, who: i64, q: i64) -> crate::common::Res {
    let (at, who, q) = (at.to_string(), who.to_string(), q.to_string());
    app.post(
        &format!("/stock_assets/{n}/order.api"),
        &[
            ("order_type", "checkout"),
            ("user[id]", &who),
            ("line_item[quantity]", &q),
            ("line_item[location_id]", &at),
        ],
    )
    .await
}

/// A draft selling `q` units of item `n` (asset stock marked for sale); its number.
async fn sale_draft(app: &TestApp, s: &Shop, n: i64, q: i64) -> i64 {
    let key = format!("stock_assets_values[{n}][quantity]");
    let o = draft(
        app,
        s.ann,
        &n.to_string(),
        &[(key.as_str(), &q.to_string())],
    )
    .await;
    let price = format!("sale_prices[{n}]");
    app.post(
        &format!("/baskets/{o}/sale_items_for_drafted_basket.api"),
        &[("asset_ids_marked_as_sale", &n.to_string()), (&price, "5")],
    )
    .await
    .expect(StatusCode::OK);
    o
}

async fn sell(app: &TestApp, o: i64) -> crate::common::Res {
    app.patch(
        &format!("/baskets/{o}/sale_order.api"),
        &[("use_current_datetime", "true")],
    )
    .await
}

async fn net_quantity(app: &TestApp, n: i64) -> i64 {
    asset(app, n).await["net_quantity"].as_i64().unwrap()
}

async fn a_booked_asset_is_not_checked_out_or_reserved_by_members(kind: Kind) {
    let app = TestApp::new(kind).await;
    let s = shop(&app).await;
    let mo = member(&app, "Mo").await;
    let o = draft(&app, s.ann, &s.tent.to_string(), &[]).await;
    book(&app, o, 0, 3).await.expect(StatusCode::OK);

    // A check-out without an end would keep the asset past the booking's start.
    let held = refusal(app.put(&check_out_asset(s.tent, mo), &[]).await);
    assert!(
        held.starts_with(&format!(
            "Asset #{} (Big Tent) is booked on order #{o} from ",
            s.tent
        )),
        "{held}"
    );
    assert_eq!(asset(&app, s.tent).await["state"], "available");
    // So would one due inside the booking.
    app.put(&check_out_asset(s.tent, mo), &[("till", &day(2))])
        .await
        .expect(StatusCode::CONFLICT);
    // A reservation inside the booking is asked, but not approved.
    let (res, r) = reserve(&app, s.tent, mo, None, (1, 2)).await;
    assert!(refusal(res).contains(&format!("booked on order #{o}")));
    assert_eq!(app.reservation_status(s.tent, r).await, "pending");
    // Nor is it retired while booked: the order keeps it.
    let reason = app.retire_reason("Broken").await;
    let retire = app
        .put(
            &format!("/assets/{}/retire.api", s.tent),
            &[
                ("fixed_asset[retired_on]", &day(0)),
                ("fixed_asset[retire_reason_id]", &reason),
            ],
        )
        .await;
    assert!(refusal(retire).contains(&format!("booked on order #{o}")));
    assert_eq!(asset(&app, s.tent).await["state"], "available");
    // After the booking it is reserved.
    let (res, _) = reserve(&app, s.tent, mo, None, (5, 6)).await;
    res.expect(StatusCode::OK);
    // Its booked dates: the order's booking (moments), the reservation (days).
    let booked = booked_dates(&app, s.tent).await;
    assert_eq!(booked["booked_dates"][0]["order_number"], o, "{booked}");
    assert!(
        booked["booked_dates"][1]["reservation_id"].is_i64(),
        "{booked}"
    );
    // The order goes out as booked, and comes back.
    rent_out(
        &app,
        o,
        &[("use_current_datetime", "true"), ("return_date", &day(3))],
    )
    .await
    .expect(StatusCode::OK);
    take_back(&app, o, &[]).await.expect(StatusCode::OK);
    // Free now until the reservation on day 5: a check-out due before it is taken.
    app.put(&check_out_asset(s.tent, mo), &[("till", &day(4))])
        .await
        .expect(StatusCode::OK);
    // Its booked dates: the check-out first, then the reservation.
    let booked = booked_dates(&app, s.tent).await;
    assert_eq!(booked["booked_dates"][0]["checked_out"], true, "{booked}");
    assert!(
        booked["booked_dates"][1]["reservation_id"].is_i64(),
        "{booked}"
    );
}

/// The first page of item `n`'s booked dates, checked against the document.
async fn booked_dates(app: &TestApp, n: i64) -> Value {
    let booked = app
        .get(&format!("/assets/{n}/booked_dates.api"))
        .await
        .into_body(StatusCode::OK);
    assert_documented("/assets/{sequence_num}/booked_dates.api", "get", &booked);
    booked
}

async fn booked_stock_is_not_checked_out_sold_or_reserved(kind: Kind) {
    let app = TestApp::new(kind).await;
    let s = shop(&app).await;
    let mo = member(&app, "Mo").await;
    let key = format!("stock_assets_values[{}][quantity]", s.cables);
    let o = draft(&app, s.ann, &s.cables.to_string(), &[(key.as_str(), "10")]).await;
    book(&app, o, 0, 3).await.expect(StatusCode::OK);

    // Every unit is promised to the order: a member's six are not checked out.
    let held = refusal(check_out_stock(&app, s.cables, s.store, mo, 6).await);
    assert!(
        held.starts_with(&format!(
            "Asset #{} (XLR Cable) has 10 unit(s) and 10 are promised at one moment of that period (the first: booked on order #{o} from ",
            s.cables
        )),
        "{held}"
    );
    // Nor sold on another order, nor reserved inside the booking.
    let sale = sale_draft(&app, &s, s.cables, 6).await;
    assert!(refusal(sell(&app, sale).await).contains(&format!("booked on order #{o}")));
    assert_eq!(state_of(&app, sale).await, "drafted");
    let (res, r) = reserve(&app, s.cables, mo, Some(1), (1, 1)).await;
    res.expect(StatusCode::CONFLICT);
    assert_eq!(app.reservation_status(s.cables, r).await, "pending");
    assert_eq!(net_quantity(&app, s.cables).await, 10);

    let later = sale_draft(&app, &s, s.cables, 4).await;
    // The order goes out with all ten.
    rent_out(
        &app,
        o,
        &[("use_current_datetime", "true"), ("return_date", &day(3))],
    )
    .await
    .expect(StatusCode::OK);
    assert_eq!(net_quantity(&app, s.cables).await, 0);
    take_back(&app, o, &[]).await.expect(StatusCode::OK);
    // Back home: a booking that sells 4 from day 5 holds them from then on for good, so
    // a member takes at most 6 without an end.
    book(&app, later, 5, 6).await.expect(StatusCode::OK);
    check_out_stock(&app, s.cables, s.store, mo, 7)
        .await
        .expect(StatusCode::CONFLICT);
    check_out_stock(&app, s.cables, s.store, mo, 6)
        .await
        .expect(StatusCode::OK);
    sell(&app, later).await.expect(StatusCode::OK);
    assert_eq!(net_quantity(&app, s.cables).await, 0);
}

async fn reservations_of_inventory_hold_against_orders(kind: Kind) {
    let app = TestApp::new(kind).await;
    let s = shop(&app).await;
    let mo = member(&app, "Mo").await;
    // 15 of the 20 batteries are reserved for days 1 and 2.
    let (res, r) = reserve(&app, s.batteries, mo, Some(15), (1, 2)).await;
    res.expect(StatusCode::OK);
    let key = format!("volatile_assets_values[{}][quantity]", s.batteries);
    let ten = draft(
        &app,
        s.ann,
        &s.batteries.to_string(),
        &[(key.as_str(), "10")],
    )
    .await;
    let held = refusal(
        rent_out(
            &app,
            ten,
            &[("use_current_datetime", "true"), ("return_date", &day(1))],
        )
        .await,
    );
    assert!(
        held.contains(&format!(
            "(the first: reserved for Mo Member (approved reservation {r}) from "
        )),
        "{held}"
    );
    assert_eq!(state_of(&app, ten).await, "drafted");
    assert_eq!(net_quantity(&app, s.batteries).await, 20);
    // Booked, the five are held from the booking's start for good. A direct sale that
    // the reservation stands in the way of names it (that one can be overridden)...
    let five = draft(
        &app,
        s.ann,
        &s.batteries.to_string(),
        &[(key.as_str(), "5")],
    )
    .await;
    book(&app, five, 0, 1).await.expect(StatusCode::OK);
    let store = s.store.to_string();
    let direct_sale = |q: &'static str, overriding: &'static str| {
        let (app, store, n) = (&app, store.clone(), s.batteries);
        async move {
            app.post(
                &format!("/inventory/{n}/order.api"),
                &[
                    ("order_type", "New Sale"),
                    ("line_item[quantity]", q),
                    ("line_item[price]", "1.00"),
                    ("line_item[location_id]", &store),
                    (
                        "remove_stock_values[override_conflicting_reservations]",
                        overriding,
                    ),
                ],
            )
            .await
        }
    };
    let held = refusal(direct_sale("1", "false").await);
    assert!(
        held.contains("reserved for the period by other members"),
        "{held}"
    );
    // ... and overriding it does not override the order: 5 + 16 of 20.
    let held = refusal(direct_sale("16", "true").await);
    assert!(
        held.contains(&format!("to be sold on order #{five}")),
        "{held}"
    );
    assert_eq!(app.reservation_status(s.batteries, r).await, "approved");
    assert_eq!(net_quantity(&app, s.batteries).await, 20);
    // The reservation is denied: the order of ten sells.
    app.put(
        &format!(
            "/assets/{}/reservation_requests/{r}/update_status.api",
            s.batteries
        ),
        &[("request_action", "deny")],
    )
    .await
    .expect(StatusCode::OK);
    rent_out(
        &app,
        ten,
        &[("use_current_datetime", "true"), ("return_date", &day(1))],
    )
    .await
    .expect(StatusCode::OK);
    assert_eq!(net_quantity(&app, s.batteries).await, 10);
}

async fn a_stock_check_out_is_not_extended_into_a_booking(kind: Kind) {
    let app = TestApp::new(kind).await;
    let s = shop(&app).await;
    let mo = member(&app, "Mo").await;
    let (store, who) = (s.store.to_string(), mo.to_string());
    let line = app
        .post(
            &format!("/stock_assets/{}/order.api", s.cables),
            &[
                ("order_type", "checkout"),
                ("user[id]", &who),
                ("line_item[quantity]", "6"),
                ("line_item[location_id]", &store),
                ("till", &day(1)),
            ],
        )
        .await
        .into_body(StatusCode::OK)["line_item"]["id"]
        .as_i64()
        .unwrap();
    // Back by the end of day 1: the other four, then five from day 2, fit.
    let key = format!("stock_assets_values[{}][quantity]", s.cables);
    let four = draft(&app, s.ann, &s.cables.to_string(), &[(key.as_str(), "4")]).await;
    book(&app, four, 0, 3).await.expect(StatusCode::OK);
    let five = draft(&app, s.ann, &s.cables.to_string(), &[(key.as_str(), "5")]).await;
    book(&app, five, 2, 3).await.expect(StatusCode::OK);
    let extend = |till: String| {
        let app = &app;
        let path = format!("/stock_assets/{}/mass_extend_checkout_items.api", s.cables);
        async move {
            app.post(
                &path,
                &[("selected_line_items", &line.to_string()), ("till", &till)],
            )
            .await
        }
    };
    // Kept to day 3, the six meet the four and the five: 15 of 10.
    let held = refusal(extend(day(3)).await);
    assert!(held.contains(&format!("booked on order #{four}")), "{held}");
    let out = app
        .get(&format!(
            "/stock_assets/{}/get_current_checkouts.api",
            s.cables
        ))
        .await
        .into_body(StatusCode::OK);
    assert!(
        out["line_items"][0]["checkin_due_on"]
            .as_str()
            .unwrap()
            .starts_with(
                &chrono::NaiveDate::parse_from_str(&day(1), "%m/%d/%Y")
                    .unwrap()
                    .to_string()
            ),
        "{out}"
    );
    // Kept to the end of day 1 still fits.
    extend(day(1)).await.expect(StatusCode::OK);
}

async fn a_rented_out_asset_is_not_verified(kind: Kind) {
    let app = TestApp::new(kind).await;
    let s = shop(&app).await;
    let o = draft(&app, s.ann, &s.tent.to_string(), &[]).await;
    rent_out(
        &app,
        o,
        &[("use_current_datetime", "true"), ("return_date", &day(2))],
    )
    .await
    .expect(StatusCode::OK);
    // Nobody holds it to answer: the order's customer is not a member.
    let path = format!("/assets/{}/verification_requests.api", s.tent);
    let refused = refusal(app.post(&path, &[]).await);
    assert!(
        refused.contains(&format!("is rented out on order #{o}")),
        "{refused}"
    );
    app.post(
        &format!("/assets/{}/verify_possession.api", s.tent),
        &[("audit[response]", "Verified")],
    )
    .await
    .expect(StatusCode::CONFLICT);
    take_back(&app, o, &[]).await.expect(StatusCode::OK);
    assert_ne!(asset(&app, s.tent).await["state"], "pending_audit");
}

/// Ten fixed assets, each booked by one order while a member checks it out, another
/// member's reservation of it is approved and a service starts, all at once: each
/// asset is promised once.
async fn bookings_race_check_outs_approvals_and_services(kind: Kind) {
    let app = TestApp::new(kind).await;
    let group = app.group("Tents").await;
    let ann = app.customer("Ann", "Renter", &[]).await;
    let (mo, al) = (member(&app, "Mo").await, member(&app, "Al").await);
    let mut rounds = Vec::new();
    for i in 0..10 {
        let n = rented_asset(&app, group, &format!("Tent {i}"), &[("daily", "10")]).await;
        let o = draft(&app, ann, &n.to_string(), &[]).await;
        let r = app
            .post(
                &format!("/assets/{n}/reservation_requests.api"),
                &[
                    ("reservation_request[from]", &day(1)),
                    ("reservation_request[to]", &day(2)),
                    ("user[id]", &al.to_string()),
                ],
            )
            .await
            .into_body(StatusCode::OK)["reservation_request"]["id"]
            .as_i64()
            .unwrap();
        rounds.push((n, o, r));
    }
    let tries = rounds.iter().flat_map(|&(n, o, r)| {
        let app = &app;
        [
            Box::pin(async move { ("booking", n, book(app, o, 0, 3).await.status) })
                as Pin<Box<dyn Future<Output = _>>>,
            Box::pin(async move {
                let res = app.put(&check_out_asset(n, mo), &[]).await;
                ("check-out", n, res.status)
            }),
            Box::pin(async move { ("approval", n, approve(app, n, r).await.status) }),
            Box::pin(async move {
                let res = app
                    .post(
                        &format!("/assets/{n}/services.api"),
                        &[("service[service_type]", "Repair")],
                    )
                    .await;
                ("service", n, res.status)
            }),
        ]
    });
    let results = futures_util::future::join_all(tries).await;
    for &(n, o, r) in &rounds {
        let won: Vec<&str> = results
            .iter()
            .filter(|(_, item, status)| *item == n && *status == StatusCode::OK)
            .map(|(what, _, _)| *what)
            .collect();
        for (_, _, status) in results.iter().filter(|(_, item, _)| *item == n) {
            assert!(
                *status == StatusCode::OK || *status == StatusCode::CONFLICT,
                "{status}"
            );
        }
        assert_eq!(won.len(), 1, "asset #{n}: {won:?}");
        // What the records say agrees with the one that won.
        let state = asset(&app, n).await["state"].as_str().unwrap().to_owned();
        let order = state_of(&app, o).await;
        let request = app.reservation_status(n, r).await;
        // (A reservation from tomorrow leaves the asset available today.)
        let expected = match won[0] {
            "booking" => ("available", "booked", "pending"),
            "check-out" => ("checked_out", "drafted", "pending"),
            "approval" => ("available", "drafted", "approved"),
            _ => ("in_service", "drafted", "pending"),
        };
        assert_eq!(
            (state.as_str(), order.as_str(), request.as_str()),
            expected,
            "asset #{n}"
        );
    }
}

/// Ten units of asset stock, booked whole by one order while a member checks six out,
/// another order sells six and a reservation of six is approved, all at once, in
/// five rounds (the reservation is another member's): any two of these do not fit
/// together, so exactly one is taken each round.
async fn booked_units_race_stock_check_outs_sales_and_approvals(kind: Kind) {
    let app = TestApp::new(kind).await;
    let s = shop(&app).await;
    let group = app.group("Cables").await;
    let (mo, al) = (member(&app, "Mo").await, member(&app, "Al").await);
    let mut rounds = Vec::new();
    for i in 0..5 {
        let n = app
            .stock_item(
                "/stock_assets",
                &format!("Cable {i}"),
                group,
                &[("stock_asset[rental_price_attributes][daily]", "1")],
            )
            .await;
        app.add_stock("/stock_assets", n, 10, s.store).await;
        let key = format!("stock_assets_values[{n}][quantity]");
        let o = draft(&app, s.ann, &n.to_string(), &[(key.as_str(), "10")]).await;
        let sale = sale_draft(&app, &s, n, 6).await;
        let r = app
            .post(
                &format!("/assets/{n}/reservation_requests.api"),
                &[
                    ("reservation_request[from]", &day(0)),
                    ("reservation_request[to]", &day(2)),
                    ("reservation_request[quantity]", "6"),
                    ("user[id]", &al.to_string()),
                ],
            )
            .await
            .into_body(StatusCode::OK)["reservation_request"]["id"]
            .as_i64()
            .unwrap();
        rounds.push((n, o, sale, r));
    }
    let store = s.store;
    let tries = rounds.iter().flat_map(|&(n, o, sale, r)| {
        let app = &app;
        [
            Box::pin(async move { ("booking", n, book(app, o, 0, 3).await.status) })
                as Pin<Box<dyn Future<Output = _>>>,
            Box::pin(async move {
                let res = check_out_stock(app, n, store, mo, 6).await;
                ("check-out", n, res.status)
            }),
            Box::pin(async move { ("sale", n, sell(app, sale).await.status) }),
            Box::pin(async move { ("approval", n, approve(app, n, r).await.status) }),
        ]
    });
    let results = futures_util::future::join_all(tries).await;
    for &(n, _, _, _) in &rounds {
        let won: Vec<&str> = results
            .iter()
            .filter(|(_, item, status)| *item == n && *status == StatusCode::OK)
            .map(|(what, _, _)| *what)
            .collect();
        assert_eq!(won.len(), 1, "cable #{n}: {won:?} of {results:?}");
        // Refused for what holds the units (409), or by the location's count (422).
        for (_, _, status) in results.iter().filter(|(_, item, _)| *item == n) {
            assert!(
                status.is_success()
                    || *status == StatusCode::CONFLICT
                    || *status == StatusCode::UNPROCESSABLE_ENTITY,
                "{status}"
            );
        }
        let on_hand = net_quantity(&app, n).await;
        let expected = match won[0] {
            "check-out" | "sale" => 4,
            _ => 10,
        };
        assert_eq!(on_hand, expected, "cable #{n} after {won:?}");
    }
}

/// One step of the property test: every kind of promise, and what ends one.
#[derive(Debug, Clone)]
enum Step {
    /// A draft of the tent (or not), cables and batteries (0: none of them); cables
    /// marked for sale when `sell_cables`.
    NewOrder {
        tent: bool,
        cables: i64,
        batteries: i64,
        sell_cables: bool,
    },
    Book(usize, i64, i64),
    Unbook(usize),
    RentOut(usize, i64),
    Return(usize),
    Sell(usize),
    Cancel(usize),
    /// A member (0 or 1) checks the tent out, till a day or without end.
    CheckOut(usize, Option<i64>),
    CheckIn,
    StockOut(usize, i64, Option<i64>),
    StockIn,
    /// A request for an item (0 tent, 1 cables, 2 batteries) by a member, of units,
    /// from a day for some days; then approved or denied by its place in the list.
    Reserve(usize, usize, i64, i64, i64),
    Approve(usize),
    Deny(usize),
    DirectSale(i64),
    AddStock(i64),
    Service(Option<i64>),
    Complete,
    Verify,
}

fn steps() -> impl proptest::strategy::Strategy<Value = Vec<Step>> {
    use proptest::prelude::*;
    let o = 0usize..6;
    let till = proptest::option::of(1i64..6);
    let step = prop_oneof![
        (any::<bool>(), 0i64..6, 0i64..8, any::<bool>()).prop_map(
            |(tent, cables, batteries, sell_cables)| Step::NewOrder {
                tent,
                cables,
                batteries,
                sell_cables
            }
        ),
        (o.clone(), 0i64..6, 0i64..3).prop_map(|(o, s, l)| Step::Book(o, s, l)),
        o.clone().prop_map(Step::Unbook),
        (o.clone(), 1i64..4).prop_map(|(o, l)| Step::RentOut(o, l)),
        o.clone().prop_map(Step::Return),
        o.clone().prop_map(Step::Sell),
        o.prop_map(Step::Cancel),
        (0usize..2, till.clone()).prop_map(|(m, t)| Step::CheckOut(m, t)),
        Just(Step::CheckIn),
        (0usize..2, 1i64..7, till.clone()).prop_map(|(m, q, t)| Step::StockOut(m, q, t)),
        Just(Step::StockIn),
        (0usize..3, 0usize..2, 1i64..9, 0i64..6, 0i64..3)
            .prop_map(|(i, m, q, s, l)| Step::Reserve(i, m, q, s, l)),
        (0usize..8).prop_map(Step::Approve),
        (0usize..8).prop_map(Step::Deny),
        (1i64..9).prop_map(Step::DirectSale),
        (1i64..4).prop_map(Step::AddStock),
        till.prop_map(Step::Service),
        Just(Step::Complete),
        Just(Step::Verify),
    ];
    proptest::collection::vec(step, 20..40)
}

/// What holds item `n`, as whole days (first, last; `None`: without end) and units:
/// read from outside, from its booked dates, its members' stock check-outs and its
/// open service. Every period the property test makes is whole days.
async fn holds_of(app: &TestApp, n: i64) -> Vec<(String, Option<String>, i64)> {
    let day = |v: &Value| v.as_str().map(|s| s[..10].to_owned());
    let mut holds = Vec::new();
    let mut page = 1;
    loop {
        let b = app
            .get(&format!("/assets/{n}/booked_dates.api?page={page}"))
            .await
            .into_body(StatusCode::OK);
        for d in b["booked_dates"].as_array().unwrap() {
            let units = d["quantity"].as_i64().unwrap_or(1);
            let to = day(&d["to"]).filter(|t| !t.starts_with("9999"));
            if units > 0 {
                holds.push((day(&d["from"]).unwrap(), to, units));
            }
        }
        if page >= b["total_pages"].as_i64().unwrap_or(1) {
            break;
        }
        page += 1;
    }
    let out = app
        .get(&format!("/stock_assets/{n}/get_current_checkouts.api"))
        .await;
    if out.status == StatusCode::OK {
        let out = out.into_body(StatusCode::OK);
        for l in out["line_items"].as_array().into_iter().flatten() {
            holds.push((
                day(&l["checkout_on"]).unwrap(),
                day(&l["checkin_due_on"]),
                l["quantity_checked_out"].as_i64().unwrap(),
            ));
        }
    }
    let services = app.get(&format!("/assets/{n}/services.api")).await;
    if services.status == StatusCode::OK {
        let services = services.into_body(StatusCode::OK);
        for s in services["services"].as_array().into_iter().flatten() {
            if s["status"] == "in_service" {
                holds.push((
                    day(&s["started_at"]).unwrap(),
                    day(&s["expected_end_at"]),
                    1,
                ));
            }
        }
    }
    holds
}

/// What item `n` has: a fixed asset one; asset stock on hand plus out; inventory on
/// hand.
async fn units_of(app: &TestApp, n: i64) -> i64 {
    let a = asset(app, n).await;
    match a["asset_type"].as_str() {
        Some("StockAsset") => {
            a["available_quantity"].as_i64().unwrap() + a["checked_out_quantity"].as_i64().unwrap()
        }
        Some("VolatileAsset") => a["net_quantity"].as_i64().unwrap(),
        _ => 1,
    }
}

/// Random sequences of every kind of promise on a tent, 10 cables and 20 batteries:
/// after each step no item is promised beyond what it has on any day, and a refused
/// step changed nothing. A fixed seed; `AVAILABILITY_CASES=n` runs n sequences (4 by
/// default).
async fn random_promises_of_every_kind_never_overpromise(kind: Kind) {
    use proptest::strategy::{Strategy, ValueTree};
    let app = TestApp::new(kind).await;
    let s = shop(&app).await;
    let members = [member(&app, "Mo").await, member(&app, "Al").await];
    let items = [s.tent, s.cables, s.batteries];
    let cases: usize = std::env::var("AVAILABILITY_CASES")
        .ok()
        .and_then(|c| c.parse().ok())
        .unwrap_or(4);
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    let (mut orders, mut requests): (Vec<i64>, Vec<(i64, i64)>) = (Vec::new(), Vec::new());
    let mut service: Option<i64> = None;
    let mut tally = Tally::default();
    for _ in 0..cases {
        let steps = steps().new_tree(&mut runner).unwrap().current();
        for step in &steps {
            let pick = |o: &usize| orders.get(o % orders.len().max(1)).copied();
            let before = everything(&app, &items, &orders).await;
            let res = match step {
                Step::NewOrder {
                    tent,
                    cables,
                    batteries,
                    sell_cables,
                } => {
                    let mut ids = Vec::new();
                    let mut form = Vec::new();
                    if *tent {
                        ids.push(s.tent.to_string());
                    }
                    if *cables > 0 {
                        ids.push(s.cables.to_string());
                        form.push((
                            format!("stock_assets_values[{}][quantity]", s.cables),
                            cables.to_string(),
                        ));
                    }
                    if *batteries > 0 {
                        ids.push(s.batteries.to_string());
                        form.push((
                            format!("volatile_assets_values[{}][quantity]", s.batteries),
                            batteries.to_string(),
                        ));
                    }
                    if ids.is_empty() {
                        continue;
                    }
                    let form: Vec<(&str, &str)> =
                        form.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
                    let o = draft(&app, s.ann, &ids.join(","), &form).await;
                    if *sell_cables && *cables > 0 {
                        let price = format!("sale_prices[{}]", s.cables);
                        app.post(
                            &format!("/baskets/{o}/sale_items_for_drafted_basket.api"),
                            &[
                                ("asset_ids_marked_as_sale", &s.cables.to_string()),
                                (&price, "5"),
                            ],
                        )
                        .await
                        .expect(StatusCode::OK);
                    }
                    orders.push(o);
                    continue;
                }
                Step::Book(..)
                | Step::Unbook(_)
                | Step::RentOut(..)
                | Step::Return(_)
                | Step::Sell(_)
                | Step::Cancel(_)
                    if orders.is_empty() =>
                {
                    continue;
                }
                Step::Book(o, start, len) => {
                    book(&app, pick(o).unwrap(), *start, start + len).await
                }
                Step::Unbook(o) => {
                    app.patch(
                        &format!("/baskets/{}/cancel_reservation.api", pick(o).unwrap()),
                        &[("cancel_booking", "removed")],
                    )
                    .await
                }
                Step::RentOut(o, len) => {
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
                Step::Return(o) => take_back(&app, pick(o).unwrap(), &[]).await,
                Step::Sell(o) => sell(&app, pick(o).unwrap()).await,
                Step::Cancel(o) => {
                    app.patch(&format!("/baskets/{}/cancel.api", pick(o).unwrap()), &[])
                        .await
                }
                Step::CheckOut(m, till) => {
                    let till = till.map(day);
                    let form: Vec<(&str, &str)> =
                        till.iter().map(|t| ("till", t.as_str())).collect();
                    app.put(&check_out_asset(s.tent, members[*m]), &form).await
                }
                Step::CheckIn => {
                    app.put(&format!("/assets/{}/checkin.api", s.tent), &[])
                        .await
                }
                Step::StockOut(m, q, till) => {
                    let (who, q) = (members[*m].to_string(), q.to_string());
                    let till = till.map(day);
                    let store = s.store.to_string();
                    let mut form = vec![
                        ("order_type", "checkout"),
                        ("user[id]", who.as_str()),
                        ("line_item[quantity]", q.as_str()),
                        ("line_item[location_id]", store.as_str()),
                    ];
                    if let Some(t) = &till {
                        form.push(("till", t.as_str()));
                    }
                    app.post(&format!("/stock_assets/{}/order.api", s.cables), &form)
                        .await
                }
                Step::StockIn => {
                    let out = app
                        .get(&format!(
                            "/stock_assets/{}/get_current_checkouts.api",
                            s.cables
                        ))
                        .await
                        .into_body(StatusCode::OK);
                    let Some(line) = out["line_items"][0]["id"].as_i64() else {
                        continue;
                    };
                    app.post(
                        &format!("/stock_assets/{}/checkin.api", s.cables),
                        &[("selected_line_items", &line.to_string())],
                    )
                    .await
                }
                Step::Reserve(i, m, q, start, len) => {
                    let n = items[*i];
                    let (who, q) = (members[*m].to_string(), q.to_string());
                    let mut form = vec![
                        ("reservation_request[from]", day(*start)),
                        ("reservation_request[to]", day(start + len)),
                        ("user[id]", who),
                    ];
                    if n != s.tent {
                        form.push(("reservation_request[quantity]", q));
                    }
                    let form: Vec<(&str, &str)> =
                        form.iter().map(|(k, v)| (*k, v.as_str())).collect();
                    let r = app
                        .post(&format!("/assets/{n}/reservation_requests.api"), &form)
                        .await
                        .into_body(StatusCode::OK)["reservation_request"]["id"]
                        .as_i64()
                        .unwrap();
                    requests.push((n, r));
                    continue;
                }
                Step::Approve(_) | Step::Deny(_) if requests.is_empty() => continue,
                Step::Approve(k) => {
                    let (n, r) = requests[k % requests.len()];
                    approve(&app, n, r).await
                }
                Step::Deny(k) => {
                    let (n, r) = requests[k % requests.len()];
                    app.put(
                        &format!("/assets/{n}/reservation_requests/{r}/update_status.api"),
                        &[("request_action", "deny")],
                    )
                    .await
                }
                Step::DirectSale(q) => {
                    app.post(
                        &format!("/inventory/{}/order.api", s.batteries),
                        &[
                            ("order_type", "New Sale"),
                            ("line_item[quantity]", &q.to_string()),
                            ("line_item[price]", "1.00"),
                            ("line_item[location_id]", &s.store.to_string()),
                        ],
                    )
                    .await
                }
                Step::AddStock(q) => {
                    let (store, q) = (s.store.to_string(), q.to_string());
                    app.post(
                        &format!("/inventory/{}/order.api", s.batteries),
                        &[
                            ("order_type", "Add Stock"),
                            ("line_item[quantity]", q.as_str()),
                            ("line_item[price]", "1.00"),
                            ("line_item[location_id]", store.as_str()),
                        ],
                    )
                    .await
                }
                Step::Service(end) => {
                    let end = end.map(day);
                    let mut form = vec![("service[service_type]", "Repair")];
                    if let Some(e) = &end {
                        form.push(("service[expected_end_date]", e.as_str()));
                    }
                    let res = app
                        .post(&format!("/assets/{}/services.api", s.tent), &form)
                        .await;
                    if res.status == StatusCode::OK {
                        service =
                            serde_json::from_str::<Value>(&res.text).unwrap()["service"]["id"]
                                .as_i64();
                    }
                    res
                }
                Step::Complete => match service.take() {
                    Some(id) => {
                        app.put(
                            &format!("/assets/{}/services/{id}/complete.api", s.tent),
                            &[],
                        )
                        .await
                    }
                    None => continue,
                },
                Step::Verify => {
                    app.post(
                        &format!("/assets/{}/verification_requests.api", s.tent),
                        &[],
                    )
                    .await
                }
            };
            tally
                .step(step, &res, &before, everything(&app, &items, &orders))
                .await;
            for n in items {
                let (holds, units) = (holds_of(&app, n).await, units_of(&app, n).await);
                assert!(
                    busiest(&holds) <= units,
                    "after {step:?}, item #{n} ({units} units) is promised beyond them: {holds:?}"
                );
            }
        }
    }
    assert!(tally.done > 20 && tally.refused > 5, "{tally:?}");
}

/// Everything a refused step must leave as it was: the items, the orders, the
/// reservation requests, the stock check-outs.
async fn everything(app: &TestApp, items: &[i64], orders: &[i64]) -> Vec<Value> {
    let mut all = Vec::new();
    for n in items {
        all.push(asset(app, *n).await);
        all.push(
            app.get(&format!("/assets/{n}/reservation_requests.api?status=all"))
                .await
                .into_body(StatusCode::OK),
        );
    }
    for n in orders {
        all.push(
            app.get(&format!("/baskets/{n}.api"))
                .await
                .into_body(StatusCode::OK),
        );
    }
    all
}
