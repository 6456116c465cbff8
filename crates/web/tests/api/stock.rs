//! Inventory and asset stock: the records, stock per location (add stock, sale,
//! transfer), thresholds and low stock, check-out and check-in of asset stock, and the
//! invariant that no unit is created or lost, raced and over random sequences.

use crate::common::{Kind, TestApp, assert_documented, assert_keys_documented};
use axum::http::{Method, StatusCode};
use futures_util::future::join_all;
use serde_json::{Value, json};

both!(
    inventory_record_create_read_update_delete,
    bad_records_are_refused_and_write_nothing,
    add_stock_sale_and_history,
    transfer_moves_units_in_one_step,
    thresholds_make_items_low,
    filters_of_inventory_and_stock,
    search_by_facet,
    stock_check_out_and_partial_check_in,
    stock_check_out_refusals,
    an_order_names_every_problem_at_once,
    hundred_sales_from_ten_sell_ten,
    racing_transfers_both_ways_conserve_the_total,
    random_sequences_never_create_or_lose_a_unit,
    a_json_body_carries_the_query_parameters,
);

struct Shop {
    group: i64,
    a: i64,
    b: i64,
}

async fn shop(app: &TestApp) -> Shop {
    Shop {
        group: app.group("Supplies").await,
        a: app.location("Store A", &[]).await,
        b: app.location("Store B", &[]).await,
    }
}

async fn quantity_at(app: &TestApp, item: i64, location: i64) -> i64 {
    let body = app
        .get(&format!(
            "/locations/get_quantity_by_location.api?asset_id={item}&location_id={location}"
        ))
        .await
        .into_body(StatusCode::OK);
    assert_documented("/locations/get_quantity_by_location.api", "get", &body);
    body["quantity"].as_i64().unwrap()
}

/// Item `n` read through `path` (`/inventory`, `/stock_assets`, `/assets`), checked
/// against the document.
async fn item(app: &TestApp, path: &str, n: i64) -> Value {
    let body = app
        .get(&format!("{path}/{n}.api"))
        .await
        .into_body(StatusCode::OK);
    assert_documented(&format!("{path}/{{sequence_num}}.api"), "get", &body);
    assert_keys_documented("Asset", &body["asset"], &[]);
    body["asset"].clone()
}

async fn order(app: &TestApp, path: &str, n: i64, form: &[(&str, &str)]) -> crate::common::Res {
    app.post(&format!("{path}/{n}/order.api"), form).await
}

async fn history(app: &TestApp, path: &str, n: i64) -> Vec<Value> {
    let mut all = Vec::new();
    for page in 1.. {
        let body = app
            .get(&format!("{path}/{n}/history.api?page={page}"))
            .await
            .into_body(StatusCode::OK);
        assert_documented(
            &format!("{path}/{{sequence_num}}/history.api"),
            "get",
            &body,
        );
        let entries = body["history"].as_array().unwrap().clone();
        assert!(entries.len() <= 5);
        let done = entries.len() < 5;
        all.extend(entries);
        if done {
            break;
        }
    }
    all
}

async fn inventory_record_create_read_update_delete(kind: Kind) {
    let app = TestApp::new(kind).await;
    let s = shop(&app).await;
    let (g, a) = (s.group.to_string(), s.a.to_string());
    let res = app
        .post(
            "/inventory.api",
            &[
                ("volatile_asset[name]", "AA Batteries"),
                ("volatile_asset[group_id]", &g),
                ("volatile_asset[location_id]", &a),
                ("volatile_asset[manufacturer]", "Duracell"),
                ("volatile_asset[identifier]", "BAT-AA"),
                ("volatile_asset[image_url]", "https://example.com/aa.png"),
                (
                    "volatile_asset[document_urls][]",
                    "https://example.com/a.pdf",
                ),
                (
                    "volatile_asset[document_urls][]",
                    "https://example.com/b.pdf",
                ),
            ],
        )
        .await;
    assert_documented("/inventory.api", "post", res.expect(StatusCode::OK));
    let created = res.expect(StatusCode::OK)["asset"].clone();
    assert_keys_documented("Asset", &created, &[]);
    let n = created["sequence_num"].as_i64().unwrap();
    assert_eq!(created["asset_type"], "VolatileAsset");
    assert_eq!(created["net_quantity"], 0);
    assert_eq!(created["location_id"], s.a);
    assert_eq!(created["document_urls"].as_array().unwrap().len(), 2);
    // Both paths answer it; the fixed-asset path answers any kind.
    assert_eq!(item(&app, "/inventory", n).await["identifier"], "BAT-AA");
    assert_eq!(
        item(&app, "/assets", n).await["asset_type"],
        "VolatileAsset"
    );
    // Another kind's path: not found there, and the words name the right one.
    let stock = app
        .stock_item("/stock_assets", "XLR Cable", s.group, &[])
        .await;
    let res = app.get(&format!("/inventory/{stock}.api")).await;
    res.expect(StatusCode::NOT_FOUND);
    assert!(
        res.body["message"]
            .as_str()
            .unwrap()
            .contains("/stock_assets")
    );
    let res = app
        .put(
            &format!("/inventory/{stock}.api"),
            &[("volatile_asset[name]", "Renamed")],
        )
        .await;
    res.expect(StatusCode::CONFLICT);
    let fixed = app.asset("Camera", s.group, &[]).await;
    app.post(
        &format!("/inventory/{fixed}/order.api"),
        &[
            ("order_type", "Add Stock"),
            ("line_item[quantity]", "1"),
            ("line_item[price]", "1"),
        ],
    )
    .await
    .expect(StatusCode::CONFLICT);
    // Update keeps what is left out; PATCH is PUT.
    let updated = app
        .patch(
            &format!("/inventory/{n}.api"),
            &[("volatile_asset[name]", "AA Batteries 4-pack")],
        )
        .await
        .into_body(StatusCode::OK)["asset"]
        .clone();
    assert_eq!(updated["name"], "AA Batteries 4-pack");
    assert_eq!(updated["manufacturer"], "Duracell");
    // Listed 25 a page among inventory only.
    let list = app.get("/inventory.api").await.into_body(StatusCode::OK);
    assert_documented("/inventory.api", "get", &list);
    assert_eq!(list["assets"].as_array().unwrap().len(), 1);
    assert_eq!(list["total_pages"], 1);
    let list = app.get("/stock_assets.api").await.into_body(StatusCode::OK);
    assert_documented("/stock_assets.api", "get", &list);
    assert_eq!(list["assets"][0]["sequence_num"], stock);
    // Delete answers it as it was, with its stock; then it is gone.
    app.add_stock("/inventory", n, 7, s.a).await;
    let gone = app
        .delete(&format!("/inventory/{n}.api"))
        .await
        .into_body(StatusCode::OK);
    assert_documented("/inventory/{sequence_num}.api", "delete", &gone);
    assert_eq!(gone["asset"]["net_quantity"], 7);
    app.get(&format!("/inventory/{n}.api"))
        .await
        .expect(StatusCode::NOT_FOUND);
    let quantities = app
        .get(&format!("/locations/{}/quantities_by_asset_ids.api", s.a))
        .await
        .into_body(StatusCode::OK);
    assert!(
        !quantities.to_string().contains(&format!("\"{n}\"")),
        "{quantities}"
    );
}

async fn bad_records_are_refused_and_write_nothing(kind: Kind) {
    let app = TestApp::new(kind).await;
    let res = app
        .post(
            "/stock_assets.api",
            &[
                ("stock_asset[name]", "ab"),
                ("stock_asset[group_id]", "999999"),
                ("stock_asset[location_id]", "999999"),
                ("stock_asset[document_urls][]", "not a link"),
            ],
        )
        .await;
    res.expect(StatusCode::UNPROCESSABLE_ENTITY);
    let errors = res.body["errors"].as_object().unwrap();
    assert!(errors.contains_key("name"), "{}", res.body);
    assert!(errors.contains_key("document_urls"), "{}", res.body);
    app.post("/inventory.api", &[("volatile_asset[name]", "Batteries")])
        .await
        .expect_invalid("group_id");
    let list = app.get("/stock_assets.api").await.into_body(StatusCode::OK);
    assert_eq!(list["assets"].as_array().unwrap().len(), 0);
    let list = app.get("/inventory.api").await.into_body(StatusCode::OK);
    assert_eq!(list["assets"].as_array().unwrap().len(), 0);
}

async fn add_stock_sale_and_history(kind: Kind) {
    let app = TestApp::new(kind).await;
    let s = shop(&app).await;
    let n = app
        .stock_item("/inventory", "Batteries", s.group, &[])
        .await;
    let a = s.a.to_string();
    // Quantity and price are required; the location too when the item has none.
    let res = order(&app, "/inventory", n, &[("order_type", "Add Stock")]).await;
    res.expect(StatusCode::UNPROCESSABLE_ENTITY);
    let errors = res.body["errors"].as_object().unwrap();
    assert!(
        errors.contains_key("quantity") && errors.contains_key("price"),
        "{}",
        res.body
    );
    for bad in ["0", "-2", "1.5", "x", "1000000001"] {
        order(
            &app,
            "/inventory",
            n,
            &[
                ("order_type", "Add Stock"),
                ("line_item[quantity]", bad),
                ("line_item[price]", "1"),
            ],
        )
        .await
        .expect_invalid("quantity");
    }
    order(
        &app,
        "/inventory",
        n,
        &[
            ("order_type", "Add Stock"),
            ("line_item[quantity]", "3"),
            ("line_item[price]", "1"),
        ],
    )
    .await
    .expect_invalid("location_id");
    order(
        &app,
        "/inventory",
        n,
        &[("order_type", "checkout"), ("line_item[quantity]", "1")],
    )
    .await
    .expect_invalid("order_type");
    let added = order(
        &app,
        "/inventory",
        n,
        &[
            ("order_type", "Add Stock"),
            ("line_item[quantity]", "10"),
            ("line_item[price]", "2.50"),
            ("line_item[location_id]", &a),
            ("line_item[comments]", "First delivery"),
        ],
    )
    .await
    .into_body(StatusCode::OK);
    assert_documented("/inventory/{sequence_num}/order.api", "post", &added);
    assert_eq!(added["asset"]["net_quantity"], 10);
    let sold = order(
        &app,
        "/inventory",
        n,
        &[
            ("order_type", "New Sale"),
            ("line_item[quantity]", "4"),
            ("line_item[price]", "5.00"),
            ("line_item[location_id]", &a),
            ("line_item[comments]", "Walk-in"),
        ],
    )
    .await
    .into_body(StatusCode::OK)["asset"]
        .clone();
    assert_eq!(sold["net_quantity"], 6);
    // More than the location holds: a 422 that names the quantity, and nothing sold.
    let res = order(
        &app,
        "/inventory",
        n,
        &[
            ("order_type", "New Sale"),
            ("line_item[quantity]", "7"),
            ("line_item[location_id]", &a),
        ],
    )
    .await;
    res.expect_invalid("quantity");
    assert!(res.text.contains("holds 6"), "{}", res.text);
    // The other location holds none.
    let b = s.b.to_string();
    order(
        &app,
        "/inventory",
        n,
        &[
            ("order_type", "New Sale"),
            ("line_item[quantity]", "1"),
            ("line_item[location_id]", &b),
        ],
    )
    .await
    .expect_invalid("quantity");
    assert_eq!(quantity_at(&app, n, s.a).await, 6);
    assert_eq!(quantity_at(&app, n, s.b).await, 0);
    let entries = history(&app, "/inventory", n).await;
    let moves: Vec<&Value> = entries
        .iter()
        .filter(|e| e["order_type"].is_string())
        .collect();
    assert_eq!(moves.len(), 2, "{entries:?}");
    let sale = moves[0];
    assert_eq!(sale["order_type"], "New Sale");
    assert_eq!(sale["quantity"], 4);
    assert_eq!(sale["quantity_after_transaction"], 6);
    assert_eq!(sale["price"], "5.00");
    assert_eq!(sale["location_name"], "Store A");
    assert_eq!(sale["comments"], "Walk-in");
    assert_eq!(sale["user_full_name"], "Account Owner");
    assert!(sale["created_at"].is_string());
    assert_eq!(moves[1]["order_type"], "Add Stock");
    assert_eq!(moves[1]["quantity_after_transaction"], 10);
    let at_a = app
        .get(&format!("/locations/{}/quantities_by_asset_ids.api", s.a))
        .await
        .into_body(StatusCode::OK);
    assert!(at_a.to_string().contains("6"), "{at_a}");
    // Unknown item or location.
    app.get(&format!(
        "/locations/get_quantity_by_location.api?asset_id=99999&location_id={}",
        s.a
    ))
    .await
    .expect(StatusCode::NOT_FOUND);
    app.get(&format!(
        "/locations/get_quantity_by_location.api?asset_id={n}&location_id=99999"
    ))
    .await
    .expect_invalid("location_id");
    app.get("/locations/get_quantity_by_location.api")
        .await
        .expect(StatusCode::UNPROCESSABLE_ENTITY);
}

async fn transfer_moves_units_in_one_step(kind: Kind) {
    let app = TestApp::new(kind).await;
    let s = shop(&app).await;
    let n = app
        .stock_item("/inventory", "Batteries", s.group, &[])
        .await;
    app.add_stock("/inventory", n, 5, s.a).await;
    let (a, b) = (s.a.to_string(), s.b.to_string());
    let path = format!("/inventory/{n}/transfer_stock.api");
    let moved = app
        .post(
            &path,
            &[
                ("transfer_stock[quantity]", "3"),
                ("from_location", &a),
                ("to_location", &b),
                ("price", "2.00"),
                ("transfer_stock[comments]", "Restock B"),
            ],
        )
        .await
        .into_body(StatusCode::OK);
    assert_documented(
        "/inventory/{sequence_num}/transfer_stock.api",
        "post",
        &moved,
    );
    assert_eq!(moved["asset"]["net_quantity"], 5);
    assert_eq!(quantity_at(&app, n, s.a).await, 2);
    assert_eq!(quantity_at(&app, n, s.b).await, 3);
    // More than the source holds, the same location twice, an unknown location: 422s
    // that change nothing.
    app.post(
        &path,
        &[
            ("transfer_stock[quantity]", "3"),
            ("from_location", &a),
            ("to_location", &b),
        ],
    )
    .await
    .expect_invalid("quantity");
    app.post(
        &path,
        &[
            ("transfer_stock[quantity]", "1"),
            ("from_location", &a),
            ("to_location", &a),
        ],
    )
    .await
    .expect_invalid("to_location");
    app.post(
        &path,
        &[
            ("transfer_stock[quantity]", "1"),
            ("from_location", &a),
            ("to_location", "99999"),
        ],
    )
    .await
    .expect_invalid("to_location");
    app.post(&path, &[("transfer_stock[quantity]", "1")])
        .await
        .expect_invalid("from_location");
    assert_eq!(quantity_at(&app, n, s.a).await, 2);
    assert_eq!(quantity_at(&app, n, s.b).await, 3);
    let entries = history(&app, "/inventory", n).await;
    assert_eq!(entries[0]["order_type"], "Transfer");
    assert_eq!(entries[0]["from_location_id"], s.a);
    assert_eq!(entries[0]["location_id"], s.b);
    assert_eq!(entries[0]["quantity_after_transaction"], 5);
    // PUT is the same action.
    app.put(
        &path,
        &[
            ("transfer_stock[quantity]", "1"),
            ("from_location", &b),
            ("to_location", &a),
        ],
    )
    .await
    .expect(StatusCode::OK);
    assert_eq!(quantity_at(&app, n, s.a).await, 3);
}

async fn thresholds_make_items_low(kind: Kind) {
    let app = TestApp::new(kind).await;
    let s = shop(&app).await;
    let n = app
        .stock_item("/inventory", "Batteries", s.group, &[])
        .await;
    let other = app.stock_item("/inventory", "Fuses", s.group, &[]).await;
    app.add_stock("/inventory", n, 3, s.a).await;
    app.add_stock("/inventory", other, 9, s.a).await;
    let path = format!("/inventory/{n}/location_based_thresholds.api");
    let none = app.get(&path).await.into_body(StatusCode::OK);
    assert_documented(
        "/inventory/{sequence_num}/location_based_thresholds.api",
        "get",
        &none,
    );
    assert_eq!(
        none["location_based_thresholds"].as_array().unwrap().len(),
        0
    );
    let set = app
        .put(
            &path,
            &[
                (format!("thresholds[{}]", s.a).as_str(), "5"),
                (format!("thresholds[{}]", s.b).as_str(), "0"),
            ],
        )
        .await
        .into_body(StatusCode::OK);
    assert_documented(
        "/inventory/{sequence_num}/location_based_thresholds.api",
        "put",
        &set,
    );
    let list = set["location_based_thresholds"].as_array().unwrap();
    assert_eq!(list.len(), 2);
    assert_eq!(list[0]["location_id"], s.a);
    assert_eq!(list[0]["minimum"], 5);
    assert_eq!(list[0]["quantity"], 3);
    assert_eq!(list[0]["low_stock"], true);
    assert_eq!(list[1]["low_stock"], false);
    assert_eq!(set["low_stock"], true);
    let low = app
        .get("/inventory/filter.api?status=low_stock")
        .await
        .into_body(StatusCode::OK);
    let numbers: Vec<i64> = low["assets"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["sequence_num"].as_i64().unwrap())
        .collect();
    assert_eq!(numbers, vec![n]);
    assert_documented("/inventory/filter.api", "get", &low);
    // Enough stock: no longer low.
    app.add_stock("/inventory", n, 2, s.a).await;
    let low = app
        .get("/inventory/filter.api?status=low_stock")
        .await
        .into_body(StatusCode::OK);
    assert_eq!(low["assets"].as_array().unwrap().len(), 0);
    // Bad minimums and locations change nothing; empty removes one.
    app.put(&path, &[(format!("thresholds[{}]", s.a).as_str(), "-1")])
        .await
        .expect_invalid("thresholds");
    app.put(&path, &[("thresholds[99999]", "1")])
        .await
        .expect_invalid("thresholds");
    // Naming none changes nothing.
    let minimums = |body: &Value| -> Vec<(i64, i64)> {
        body["location_based_thresholds"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| {
                (
                    t["location_id"].as_i64().unwrap(),
                    t["minimum"].as_i64().unwrap(),
                )
            })
            .collect()
    };
    let unchanged = app.put(&path, &[]).await.into_body(StatusCode::OK);
    assert_eq!(minimums(&unchanged), minimums(&set));
    let after = app
        .patch(&path, &[(format!("thresholds[{}]", s.b).as_str(), "")])
        .await
        .into_body(StatusCode::OK);
    assert_eq!(
        after["location_based_thresholds"].as_array().unwrap().len(),
        1
    );
    assert_eq!(after["location_based_thresholds"][0]["minimum"], 5);
}

async fn numbers_of(app: &TestApp, path: &str) -> Vec<i64> {
    let res = app.get(path).await;
    res.expect(StatusCode::OK);
    res.body["assets"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["sequence_num"].as_i64().unwrap())
        .collect()
}

async fn filters_of_inventory_and_stock(kind: Kind) {
    let app = TestApp::new(kind).await;
    let s = shop(&app).await;
    let other_group = app.group("Tools").await;
    let few = app
        .stock_item("/inventory", "Batteries", s.group, &[])
        .await;
    let many = app
        .stock_item("/inventory", "Fuses", other_group, &[])
        .await;
    app.add_stock("/inventory", few, 2, s.a).await;
    app.add_stock("/inventory", many, 50, s.b).await;
    let f = |q: &str| format!("/inventory/filter.api?{q}");
    assert_eq!(
        numbers_of(&app, &f("status=quantity_range&filter_param_val=0,10")).await,
        vec![few]
    );
    assert_eq!(
        numbers_of(&app, &f("status=quantity_range&filter_param_val=10,100")).await,
        vec![many]
    );
    assert_eq!(
        numbers_of(
            &app,
            &f(&format!("status=location&filter_param_val={}", s.b))
        )
        .await,
        vec![many]
    );
    assert_eq!(
        numbers_of(
            &app,
            &f(&format!("status=group&filter_param_val={}", s.group))
        )
        .await,
        vec![few]
    );
    let today = chrono::Utc::now().format("%m/%d/%Y").to_string();
    assert_eq!(
        numbers_of(
            &app,
            &f(&format!("status=update_time&filter_param_val={today}"))
        )
        .await,
        vec![few, many]
    );
    assert!(
        numbers_of(&app, &f("status=items_in_order"))
            .await
            .is_empty()
    );
    // Statuses of another kind, bad ranges: 422s naming the parameter.
    app.get(&f("status=checked_out"))
        .await
        .expect_invalid("status");
    app.get(&f("status=quantity_range&filter_param_val=9,1"))
        .await
        .expect_invalid("filter_param_val");
    app.get(&f("status=quantity_range"))
        .await
        .expect_invalid("filter_param_val");
    app.get(&f("status=low_stock&assets_type=fixed_assets"))
        .await
        .expect_invalid("assets_type");
    // A custom filter of inventory.
    let custom = app
        .post(
            "/custom_filters.api",
            &[
                ("custom_filter[name]", "Plenty"),
                ("custom_filter[assets_type]", "volatile_assets"),
                ("custom_filter[conditions][]", "quantity_range:10,1000"),
            ],
        )
        .await
        .into_body(StatusCode::OK)["custom_filter"]["id"]
        .as_i64()
        .unwrap();
    assert_eq!(
        numbers_of(
            &app,
            &f(&format!(
                "status=custom_filter_{custom}&assets_type=volatile_assets"
            ))
        )
        .await,
        vec![many]
    );
    app.post(
        "/custom_filters.api",
        &[
            ("custom_filter[name]", "Bad"),
            ("custom_filter[assets_type]", "volatile_assets"),
            ("custom_filter[conditions][]", "checked_out"),
        ],
    )
    .await
    .expect_invalid("conditions");
    // Asset stock: possessions_of and retired.
    let cable = app
        .stock_item(
            "/stock_assets",
            "XLR Cable",
            s.group,
            &[("stock_asset[location_id]", &s.a.to_string())],
        )
        .await;
    let spare = app
        .stock_item("/stock_assets", "DMX Cable", s.group, &[])
        .await;
    app.add_stock("/stock_assets", cable, 5, s.a).await;
    let ann = app.member("Ann", "Tester", "ann@example.com", &[]).await;
    checkout(&app, cable, ann, 2, &[])
        .await
        .expect(StatusCode::OK);
    let g = |q: &str| format!("/stock_assets/filter.api?{q}");
    assert_eq!(
        numbers_of(
            &app,
            &g(&format!("status=possessions_of&filter_param_val={ann}"))
        )
        .await,
        vec![cable]
    );
    assert_eq!(
        numbers_of(&app, &g("status=quantity_range&filter_param_val=0,0")).await,
        vec![spare]
    );
    assert!(numbers_of(&app, &g("status=retired")).await.is_empty());
    assert!(numbers_of(&app, &g("status=reserved")).await.is_empty());
    app.get(&g("status=available"))
        .await
        .expect_invalid("status");
}

async fn search_by_facet(kind: Kind) {
    let app = TestApp::new(kind).await;
    let s = shop(&app).await;
    let inv = app
        .stock_item("/inventory", "Cable ties", s.group, &[])
        .await;
    let stock = app
        .stock_item("/stock_assets", "Cable drum", s.group, &[])
        .await;
    let fixed = app.asset("Cable tester", s.group, &[]).await;
    assert_eq!(
        numbers_of(&app, "/search.api?search=cable&facet=VolatileAsset").await,
        vec![inv]
    );
    assert_eq!(
        numbers_of(&app, "/search.api?search=cable&facet=StockAsset").await,
        vec![stock]
    );
    assert_eq!(
        numbers_of(&app, "/search.api?search=cable").await,
        vec![fixed]
    );
    assert_eq!(
        numbers_of(
            &app,
            &format!("/search.api?search=%23{stock}&facet=StockAsset")
        )
        .await,
        vec![stock]
    );
    app.get("/search.api?search=cable&facet=Bundle")
        .await
        .expect_invalid("facet");
}

async fn checkout(
    app: &TestApp,
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
    order(app, "/stock_assets", n, &form).await
}

async fn stock_check_out_and_partial_check_in(kind: Kind) {
    let app = TestApp::new(kind).await;
    let s = shop(&app).await;
    let a = s.a.to_string();
    let n = app
        .stock_item(
            "/stock_assets",
            "XLR Cable",
            s.group,
            &[("stock_asset[location_id]", &a)],
        )
        .await;
    app.add_stock("/stock_assets", n, 10, s.a).await;
    let ann = app.member("Ann", "Tester", "ann@example.com", &[]).await;
    let tomorrow = (chrono::Utc::now() + chrono::Duration::days(2))
        .format("%m/%d/%Y")
        .to_string();
    let res = checkout(
        &app,
        n,
        ann,
        4,
        &[
            ("till", &tomorrow),
            ("till_time", "17:00"),
            ("line_item[comments]", "Gig"),
            ("line_item[checked_out_to_location_id]", &s.b.to_string()),
        ],
    )
    .await;
    let body = res.expect(StatusCode::OK);
    assert_documented("/stock_assets/{sequence_num}/order.api", "post", body);
    assert_keys_documented("Asset", &body["asset"], &[]);
    assert_eq!(body["asset"]["net_quantity"], 6);
    assert_eq!(body["asset"]["checked_out_quantity"], 4);
    assert_eq!(body["asset"]["total_quantity"], 10);
    let line = body["line_item"]["id"].as_i64().unwrap();
    assert_eq!(body["line_item"]["quantity"], 4);
    assert_eq!(body["line_item"]["assigned_to_id"], ann);
    assert!(
        body["line_item"]["checkin_due_on"]
            .as_str()
            .unwrap()
            .ends_with("17:00:00")
    );
    // Units out are at no location.
    assert_eq!(quantity_at(&app, n, s.a).await, 6);
    assert_eq!(quantity_at(&app, n, s.b).await, 0);
    let current = app
        .get(&format!("/stock_assets/{n}/get_current_checkouts.api"))
        .await
        .into_body(StatusCode::OK);
    assert_eq!(current["line_items"][0]["id"], line);
    assert_documented(
        "/stock_assets/{sequence_num}/get_current_checkouts.api",
        "get",
        &current,
    );
    let mine = app
        .get(&format!("/stock_assets/{n}/get_current_checkouts.api?user_id={ann}&current_checkout_status=on_time"))
        .await
        .into_body(StatusCode::OK);
    assert_eq!(mine["line_items"].as_array().unwrap().len(), 1);
    let overdue = app
        .get(&format!(
            "/stock_assets/{n}/get_current_checkouts.api?current_checkout_status=overdue"
        ))
        .await
        .into_body(StatusCode::OK);
    assert_eq!(overdue["line_items"].as_array().unwrap().len(), 0);
    app.get(&format!(
        "/stock_assets/{n}/get_current_checkouts.api?current_checkout_status=late"
    ))
    .await
    .expect_invalid("current_checkout_status");
    // The member holds it.
    let held = app
        .get(&format!(
            "/members/{ann}/checked_out_items.api?item_type=StockAsset"
        ))
        .await
        .into_body(StatusCode::OK);
    assert_eq!(held["assets"][0]["sequence_num"], n);
    assert_documented("/members/{id}/checked_out_items.api", "get", &held);
    assert_keys_documented("Asset", &held["assets"][0], &[]);
    // A partial check-in leaves the rest out.
    let line_s = line.to_string();
    let back = app
        .post(
            &format!("/stock_assets/{n}/checkin.api"),
            &[
                ("selected_line_items", line_s.as_str()),
                ("line_item[quantity]", "1"),
                ("order_type", "checkin"),
                ("line_item[comments]", "One back"),
            ],
        )
        .await
        .into_body(StatusCode::OK);
    assert_documented("/stock_assets/{sequence_num}/checkin.api", "post", &back);
    let back = &back["asset"];
    assert_eq!(back["net_quantity"], 7);
    assert_eq!(back["checked_out_quantity"], 3);
    let current = app
        .get(&format!("/stock_assets/{n}/get_current_checkouts.api"))
        .await
        .into_body(StatusCode::OK);
    assert_eq!(current["line_items"][0]["quantity_checked_out"], 3);
    // Too many back, a future moment: 422s that change nothing.
    app.post(
        &format!("/stock_assets/{n}/checkin.api"),
        &[
            ("selected_line_items", line_s.as_str()),
            ("line_item[quantity]", "4"),
        ],
    )
    .await
    .expect_invalid("quantity");
    let later = (chrono::Utc::now() + chrono::Duration::days(3))
        .format("%m/%d/%Y")
        .to_string();
    app.post(
        &format!("/stock_assets/{n}/checkin.api"),
        &[
            ("selected_line_items", line_s.as_str()),
            ("actual_checkin_on", later.as_str()),
        ],
    )
    .await
    .expect_invalid("actual_checkin_on");
    app.post(
        &format!("/stock_assets/{n}/checkin.api"),
        &[("selected_line_items", "99999")],
    )
    .await
    .expect_invalid("selected_line_items");
    // The spec's override flag is read on check-in too: not a boolean, a 422.
    app.post(
        &format!("/stock_assets/{n}/checkin.api"),
        &[
            ("selected_line_items", line_s.as_str()),
            (
                "remove_stock_values[override_conflicting_reservations]",
                "notabool",
            ),
        ],
    )
    .await
    .expect_invalid("override_conflicting_reservations");
    let current = app
        .get(&format!("/stock_assets/{n}/get_current_checkouts.api"))
        .await
        .into_body(StatusCode::OK);
    assert_eq!(current["line_items"][0]["quantity_checked_out"], 3);
    // Extend, then deleting is refused while units are out.
    let week = (chrono::Utc::now() + chrono::Duration::days(7))
        .format("%m/%d/%Y")
        .to_string();
    let extended = app
        .put(
            &format!("/stock_assets/{n}/mass_extend_checkout_items.api"),
            &[
                ("selected_line_items", line_s.as_str()),
                ("till", week.as_str()),
            ],
        )
        .await
        .into_body(StatusCode::OK);
    assert_documented(
        "/stock_assets/{sequence_num}/mass_extend_checkout_items.api",
        "put",
        &extended,
    );
    let res = app.delete(&format!("/stock_assets/{n}.api")).await;
    res.expect(StatusCode::CONFLICT);
    assert!(res.text.contains("3 unit(s) checked out"), "{}", res.text);
    // The rest comes back at another location.
    let b = s.b.to_string();
    app.put(
        &format!("/stock_assets/{n}/checkin.api"),
        &[
            ("selected_line_items", line_s.as_str()),
            ("line_item[location_id]", b.as_str()),
            (
                "remove_stock_values[override_conflicting_reservations]",
                "true",
            ),
        ],
    )
    .await
    .expect(StatusCode::OK);
    assert_eq!(quantity_at(&app, n, s.a).await, 7);
    assert_eq!(quantity_at(&app, n, s.b).await, 3);
    let history = app
        .get(&format!(
            "/members/{ann}/checkin_checkout_history_for_stock.api"
        ))
        .await
        .into_body(StatusCode::OK);
    assert_documented(
        "/members/{id}/checkin_checkout_history_for_stock.api",
        "get",
        &history,
    );
    let entry = &history["history"][0];
    assert_eq!(entry["quantity"], 4);
    assert_eq!(entry["status"], "returned");
    assert_eq!(entry["checkins"].as_array().unwrap().len(), 2);
    let entries = crate::stock::history(&app, "/stock_assets", n).await;
    let kinds: Vec<&str> = entries
        .iter()
        .filter_map(|e| e["order_type"].as_str())
        .collect();
    assert_eq!(kinds, vec!["checkin", "checkin", "checkout", "Add Stock"]);
    assert!(app.delete(&format!("/stock_assets/{n}.api")).await.status == StatusCode::OK);
}

async fn stock_check_out_refusals(kind: Kind) {
    let app = TestApp::new(kind).await;
    let s = shop(&app).await;
    let a = s.a.to_string();
    let n = app
        .stock_item(
            "/stock_assets",
            "XLR Cable",
            s.group,
            &[("stock_asset[location_id]", &a)],
        )
        .await;
    app.add_stock("/stock_assets", n, 3, s.a).await;
    let ann = app.member("Ann", "Tester", "ann@example.com", &[]).await;
    checkout(&app, n, ann, 4, &[])
        .await
        .expect_invalid("quantity");
    checkout(&app, n, 99999, 1, &[])
        .await
        .expect_invalid("user_id");
    order(
        &app,
        "/stock_assets",
        n,
        &[("order_type", "checkout"), ("line_item[quantity]", "1")],
    )
    .await
    .expect_invalid("user_id");
    let yesterday = (chrono::Utc::now() - chrono::Duration::days(2))
        .format("%m/%d/%Y")
        .to_string();
    checkout(&app, n, ann, 1, &[("till", &yesterday)])
        .await
        .expect_invalid("till");
    order(
        &app,
        "/stock_assets",
        n,
        &[("order_type", "New Sale"), ("line_item[quantity]", "1")],
    )
    .await
    .expect_invalid("order_type");
    app.put(&format!("/members/{ann}/deactivate.api"), &[])
        .await
        .expect(StatusCode::OK);
    checkout(&app, n, ann, 1, &[])
        .await
        .expect_invalid("user_id");
    assert_eq!(item(&app, "/stock_assets", n).await["net_quantity"], 3);
    let current = app
        .get(&format!("/stock_assets/{n}/get_current_checkouts.api"))
        .await
        .into_body(StatusCode::OK);
    assert_eq!(current["line_items"].as_array().unwrap().len(), 0);
}

async fn hundred_sales_from_ten_sell_ten(kind: Kind) {
    let app = TestApp::new(kind).await;
    let s = shop(&app).await;
    let n = app
        .stock_item("/inventory", "Batteries", s.group, &[])
        .await;
    app.add_stock("/inventory", n, 10, s.a).await;
    let a = s.a.to_string();
    let path = format!("/inventory/{n}/order.api");
    let form = [
        ("order_type", "New Sale"),
        ("line_item[quantity]", "1"),
        ("line_item[location_id]", a.as_str()),
    ];
    let results = join_all((0..100).map(|_| app.post(&path, &form))).await;
    let ok = results
        .iter()
        .filter(|r| r.status == StatusCode::OK)
        .count();
    let refused = results
        .iter()
        .filter(|r| r.status == StatusCode::UNPROCESSABLE_ENTITY)
        .count();
    assert_eq!(
        (ok, refused),
        (10, 90),
        "{:?}",
        results.iter().map(|r| r.status).collect::<Vec<_>>()
    );
    assert_eq!(quantity_at(&app, n, s.a).await, 0);
    assert_eq!(item(&app, "/inventory", n).await["net_quantity"], 0);
    let sales = history(&app, "/inventory", n)
        .await
        .into_iter()
        .filter(|e| e["order_type"] == "New Sale")
        .count();
    assert_eq!(sales, 10);
}

async fn racing_transfers_both_ways_conserve_the_total(kind: Kind) {
    let app = TestApp::new(kind).await;
    let s = shop(&app).await;
    let n = app
        .stock_item("/inventory", "Batteries", s.group, &[])
        .await;
    app.add_stock("/inventory", n, 20, s.a).await;
    app.add_stock("/inventory", n, 20, s.b).await;
    let (a, b) = (s.a.to_string(), s.b.to_string());
    let path = format!("/inventory/{n}/transfer_stock.api");
    let forms: Vec<[(&str, String); 3]> = (0..60)
        .map(|i| {
            let (from, to) = if i % 2 == 0 { (&a, &b) } else { (&b, &a) };
            [
                ("transfer_stock[quantity]", ((i % 7) + 1).to_string()),
                ("from_location", from.clone()),
                ("to_location", to.clone()),
            ]
        })
        .collect();
    let (app_ref, path_ref) = (&app, &path);
    let results = join_all(forms.iter().map(|f| async move {
        let form: Vec<(&str, &str)> = f.iter().map(|(k, v)| (*k, v.as_str())).collect();
        app_ref.post(path_ref, &form).await
    }))
    .await;
    assert!(
        results
            .iter()
            .all(|r| r.status == StatusCode::OK || r.status == StatusCode::UNPROCESSABLE_ENTITY)
    );
    let (qa, qb) = (
        quantity_at(&app, n, s.a).await,
        quantity_at(&app, n, s.b).await,
    );
    assert_eq!(qa + qb, 40, "{qa} + {qb}");
    assert!(qa >= 0 && qb >= 0);
    assert_eq!(item(&app, "/inventory", n).await["net_quantity"], 40);
    let moved: i64 = results
        .iter()
        .zip(&forms)
        .filter(|(r, _)| r.status == StatusCode::OK)
        .map(|(_, f)| {
            let q: i64 = f[0].1.parse().unwrap();
            if f[1].1 == a { -q } else { q }
        })
        .sum();
    assert_eq!(qa, 20 + moved);
}

/// One step of a random sequence.
#[derive(Debug, Clone)]
enum Op {
    Add(bool, i64),
    Sell(bool, i64),
    Move(bool, i64),
    CheckOut(bool, i64),
    /// Check in part (`Some`) or all of the n-th open line item.
    CheckIn(usize, Option<i64>, bool),
}

fn ops() -> impl proptest::strategy::Strategy<Value = Vec<Op>> {
    use proptest::prelude::*;
    let q = 1i64..6;
    let op = prop_oneof![
        (any::<bool>(), q.clone()).prop_map(|(l, q)| Op::Add(l, q)),
        (any::<bool>(), q.clone()).prop_map(|(l, q)| Op::Sell(l, q)),
        (any::<bool>(), q.clone()).prop_map(|(l, q)| Op::Move(l, q)),
        (any::<bool>(), q.clone()).prop_map(|(l, q)| Op::CheckOut(l, q)),
        (0usize..4, proptest::option::of(q), any::<bool>())
            .prop_map(|(i, q, l)| Op::CheckIn(i, q, l)),
    ];
    proptest::collection::vec(op, 10..25)
}

async fn random_sequences_never_create_or_lose_a_unit(kind: Kind) {
    use proptest::strategy::{Strategy, ValueTree};
    let app = TestApp::new(kind).await;
    let s = shop(&app).await;
    let ann = app.member("Ann", "Tester", "ann@example.com", &[]).await;
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    for case in 0..6 {
        let ops = ops().new_tree(&mut runner).unwrap().current();
        // Sales on inventory, check-outs on asset stock: one item of each.
        let inv = app
            .stock_item("/inventory", &format!("Batteries {case}"), s.group, &[])
            .await;
        let stock = app
            .stock_item("/stock_assets", &format!("Cable {case}"), s.group, &[])
            .await;
        let (mut added, mut sold) = (0i64, 0i64);
        let mut open: Vec<(i64, i64)> = Vec::new();
        for op in &ops {
            let at = |first: bool| if first { s.a } else { s.b };
            match op {
                Op::Add(l, q) => {
                    app.add_stock("/inventory", inv, *q, at(*l)).await;
                    app.add_stock("/stock_assets", stock, *q, at(*l)).await;
                    added += q;
                }
                Op::Sell(l, q) => {
                    let (q_s, l_s) = (q.to_string(), at(*l).to_string());
                    let res = order(
                        &app,
                        "/inventory",
                        inv,
                        &[
                            ("order_type", "New Sale"),
                            ("line_item[quantity]", &q_s),
                            ("line_item[location_id]", &l_s),
                        ],
                    )
                    .await;
                    if res.status == StatusCode::OK {
                        sold += q;
                    } else {
                        res.expect_invalid("quantity");
                    }
                }
                Op::Move(l, q) => {
                    let (from, to) = (at(*l).to_string(), at(!*l).to_string());
                    let q_s = q.to_string();
                    for path in ["/inventory", "/stock_assets"] {
                        let n = if path == "/inventory" { inv } else { stock };
                        let res = app
                            .post(
                                &format!("{path}/{n}/transfer_stock.api"),
                                &[
                                    ("transfer_stock[quantity]", &q_s),
                                    ("from_location", &from),
                                    ("to_location", &to),
                                ],
                            )
                            .await;
                        assert!(
                            res.status == StatusCode::OK
                                || res.status == StatusCode::UNPROCESSABLE_ENTITY,
                            "{}",
                            res.text
                        );
                    }
                }
                Op::CheckOut(l, q) => {
                    let l_s = at(*l).to_string();
                    let res =
                        checkout(&app, stock, ann, *q, &[("line_item[location_id]", &l_s)]).await;
                    if res.status == StatusCode::OK {
                        open.push((res.body["line_item"]["id"].as_i64().unwrap(), *q));
                    } else {
                        res.expect_invalid("quantity");
                    }
                }
                Op::CheckIn(i, q, l) => {
                    if open.is_empty() {
                        continue;
                    }
                    let i = i % open.len();
                    let (line, out) = open[i];
                    let (line_s, l_s) = (line.to_string(), at(*l).to_string());
                    let mut form = vec![
                        ("selected_line_items", line_s.as_str()),
                        ("line_item[location_id]", l_s.as_str()),
                    ];
                    let q_s = q.map(|q| q.to_string());
                    if let Some(q) = &q_s {
                        form.push(("line_item[quantity]", q));
                    }
                    let res = app
                        .post(&format!("/stock_assets/{stock}/checkin.api"), &form)
                        .await;
                    match q {
                        Some(q) if *q > out => res.expect_invalid("quantity"),
                        Some(q) if *q < out => {
                            res.expect(StatusCode::OK);
                            open[i].1 -= q;
                        }
                        _ => {
                            res.expect(StatusCode::OK);
                            open.remove(i);
                        }
                    }
                }
            }
        }
        // Inventory: on hand everywhere is what was added less what was sold.
        let on_hand = quantity_at(&app, inv, s.a).await + quantity_at(&app, inv, s.b).await;
        assert_eq!(on_hand, added - sold, "{ops:?}");
        assert_eq!(
            item(&app, "/inventory", inv).await["net_quantity"],
            added - sold
        );
        // Asset stock: on hand plus checked out is what was added.
        let on_hand = quantity_at(&app, stock, s.a).await + quantity_at(&app, stock, s.b).await;
        let out: i64 = open.iter().map(|o| o.1).sum();
        assert_eq!(on_hand + out, added, "{ops:?}");
        let shown = item(&app, "/stock_assets", stock).await;
        assert_eq!(shown["net_quantity"], on_hand);
        assert_eq!(shown["checked_out_quantity"], out);
        let current = app
            .get(&format!("/stock_assets/{stock}/get_current_checkouts.api"))
            .await
            .into_body(StatusCode::OK);
        let listed: i64 = current["line_items"]
            .as_array()
            .unwrap()
            .iter()
            .map(|l| l["quantity_checked_out"].as_i64().unwrap())
            .sum();
        assert_eq!(listed, out);
    }
}

async fn an_order_names_every_problem_at_once(kind: Kind) {
    let app = TestApp::new(kind).await;
    let s = shop(&app).await;
    let a = s.a.to_string();
    let n = app
        .stock_item(
            "/stock_assets",
            "XLR Cable",
            s.group,
            &[("stock_asset[location_id]", &a)],
        )
        .await;
    app.add_stock("/stock_assets", n, 3, s.a).await;
    // A movement inventory takes is no word of asset stock's; every other problem is
    // named in the same 422.
    let res = order(
        &app,
        "/stock_assets",
        n,
        &[
            ("order_type", "New Sale"),
            ("line_item[quantity]", "0"),
            ("line_item[price]", "-1"),
            ("user[id]", "ann"),
            (
                "remove_stock_values[override_conflicting_reservations]",
                "maybe",
            ),
        ],
    )
    .await;
    let errors = res.into_body(StatusCode::UNPROCESSABLE_ENTITY)["errors"].clone();
    for field in [
        "order_type",
        "quantity",
        "price",
        "user_id",
        "override_conflicting_reservations",
    ] {
        assert!(errors.get(field).is_some(), "{field} not named in {errors}");
    }
    assert!(
        errors["order_type"][0]
            .as_str()
            .unwrap()
            .contains("Add Stock or checkout"),
        "{errors}"
    );
    // A check-out without its member, with a due time but no day.
    let res = order(
        &app,
        "/stock_assets",
        n,
        &[
            ("order_type", "checkout"),
            ("line_item[quantity]", "1"),
            ("till_time", "14:30"),
        ],
    )
    .await;
    let errors = res.into_body(StatusCode::UNPROCESSABLE_ENTITY)["errors"].clone();
    for field in ["user_id", "till_time"] {
        assert!(errors.get(field).is_some(), "{field} not named in {errors}");
    }
    // A transfer to where the units are, with a bad price and no quantity.
    let res = app
        .post(
            &format!("/stock_assets/{n}/transfer_stock.api"),
            &[
                ("from_location", a.as_str()),
                ("to_location", a.as_str()),
                ("price", "abc"),
            ],
        )
        .await;
    let errors = res.into_body(StatusCode::UNPROCESSABLE_ENTITY)["errors"].clone();
    for field in ["to_location", "price", "quantity"] {
        assert!(errors.get(field).is_some(), "{field} not named in {errors}");
    }
    assert_eq!(item(&app, "/stock_assets", n).await["net_quantity"], 3);
}

/// The document lets a JSON body carry an operation's query-string parameters (as
/// `Params` reads them, the body's winning): `order_type` and `price` of a stock
/// movement, and an item's custom field values (`cust_attr`).
async fn a_json_body_carries_the_query_parameters(kind: Kind) {
    let app = TestApp::new(kind).await;
    let s = shop(&app).await;
    app.custom_field("Lot", "text", &["inventory"], &[]).await;
    let made = app
        .req(Method::POST, "/inventory.api")
        .json(json!({"volatile_asset": {"name": "Batteries", "group_id": s.group}, "cust_attr": {"Lot": 7}}))
        .send()
        .await
        .into_body(StatusCode::OK);
    assert_eq!(made["asset"]["custom_attributes"]["Lot"], "7", "{made}");
    let n = made["asset"]["sequence_num"].as_i64().unwrap();
    let path = format!("/inventory/{n}/order.api");
    let line = json!({"quantity": 4, "price": "2.50", "location_id": s.a});
    let added = app
        .req(Method::POST, &path)
        .json(json!({"order_type": "Add Stock", "line_item": line}))
        .send()
        .await
        .into_body(StatusCode::OK);
    assert_eq!(quantity_at(&app, n, s.a).await, 4, "{added}");
    // The body's value wins over the query string's.
    let sold = app
        .req(Method::POST, &format!("{path}?order_type=Add%20Stock"))
        .json(json!({"order_type": "New Sale", "line_item": {"quantity": 1, "location_id": s.a}}))
        .send()
        .await;
    sold.expect(StatusCode::OK);
    assert_eq!(quantity_at(&app, n, s.a).await, 3);
    // Refused in the body as in the query string, and nothing moves.
    app.req(Method::POST, &path)
        .json(json!({"order_type": "Lend", "line_item": line}))
        .send()
        .await
        .expect_invalid("order_type");
    assert_eq!(quantity_at(&app, n, s.a).await, 3);
}
