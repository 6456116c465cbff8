//! The request limits of docs/api.md ("Limits"): nesting depth, parameter count,
//! list lengths and control characters, each refused with a 400 or 422 that names the
//! limit or the parameter, and changing nothing.

use crate::common::{Kind, TestApp, ids};
use crate::order_rentals::{quantity_at, rent_out, shop};
use crate::orders::{book, day, draft, state_of};
use axum::http::{Method, StatusCode};
use serde_json::json;

both!(
    deep_or_numerous_parameters_are_a_400_naming_the_limit,
    over_long_id_lists_are_a_422_naming_them_and_change_nothing,
    custom_field_lists_are_capped,
    repeated_ids_count_once,
    control_characters_are_a_422_naming_the_parameter,
    tab_and_line_breaks_are_text,
    order_id_lists_are_capped_before_any_work,
    keys_naming_records_are_numbers_each_given_once,
    dates_outside_1900_to_9998_are_a_422_and_change_nothing,
    subtrees_longer_than_one_chunk_change_whole,
);

/// `n` comma-separated ids starting at `from`.
fn id_list(from: i64, n: i64) -> String {
    (from..from + n)
        .map(|i| i.to_string())
        .collect::<Vec<_>>()
        .join(",")
}

async fn location_count(app: &TestApp) -> usize {
    let res = app.get("/locations/get_line_item_locations.api").await;
    res.expect(StatusCode::OK)["locations"]
        .as_array()
        .unwrap()
        .len()
}

#[track_caller]
fn expect_400_mentioning(res: &crate::common::Res, words: &str) {
    assert_eq!(res.status, StatusCode::BAD_REQUEST, "body: {}", res.text);
    let message = res.body["message"].as_str().unwrap_or_default();
    assert!(
        message.contains(words),
        "{message:?} should mention {words:?}"
    );
}

async fn deep_or_numerous_parameters_are_a_400_naming_the_limit(kind: Kind) {
    let app = TestApp::new(kind).await;
    // The crash report's body: half a million bracket levels.
    let attack = format!("a{}=1", "[b]".repeat(500_000));
    let res = app
        .req(Method::POST, "/locations.api")
        .raw_body("application/x-www-form-urlencoded", &attack)
        .send()
        .await;
    expect_400_mentioning(&res, "nesting limit is 32");
    let just_over = format!("location{}=1&location[name]=Depot", "[b]".repeat(33));
    let res = app
        .req(Method::POST, "/locations.api")
        .raw_body("application/x-www-form-urlencoded", &just_over)
        .send()
        .await;
    expect_400_mentioning(&res, "nesting limit is 32");
    let deepest = format!("location{}=1&location[name]=Depot", "[b]".repeat(32));
    app.req(Method::POST, "/locations.api")
        .raw_body("application/x-www-form-urlencoded", &deepest)
        .send()
        .await
        .expect(StatusCode::OK);

    // The same limit in the query string and in JSON.
    let res = app
        .req(
            Method::POST,
            &format!(
                "/locations.api?{}",
                just_over.replace('[', "%5B").replace(']', "%5D")
            ),
        )
        .send()
        .await;
    expect_400_mentioning(&res, "nesting limit is 32");
    let mut deep = json!("x");
    for _ in 0..33 {
        deep = json!({ "b": deep });
    }
    let res = app
        .req(Method::POST, "/locations.api")
        .json(json!({"location": {"name": "Depot", "extra": deep}}))
        .send()
        .await;
    expect_400_mentioning(&res, "nesting limit is 32");

    // 10,000 parameters are read; one more is refused, query and body together.
    let many = (0..10_000)
        .map(|i| format!("x{i}=1"))
        .collect::<Vec<_>>()
        .join("&");
    let res = app
        .req(Method::POST, "/locations.api?location%5Bname%5D=Depot")
        .raw_body("application/x-www-form-urlencoded", &many)
        .send()
        .await;
    expect_400_mentioning(&res, "parameter limit is 10000");
    let res = app
        .req(Method::POST, "/locations.api")
        .raw_body(
            "application/x-www-form-urlencoded",
            &format!("{many}&location[name]=Depot"),
        )
        .send()
        .await;
    expect_400_mentioning(&res, "parameter limit is 10000");
    let values: Vec<i64> = (0..10_000).collect();
    let res = app
        .req(Method::POST, "/locations.api")
        .json(json!({"location": {"name": "Depot"}, "x": values}))
        .send()
        .await;
    expect_400_mentioning(&res, "parameter limit is 10000");
    let fits = (0..9_999)
        .map(|i| format!("x{i}=1"))
        .collect::<Vec<_>>()
        .join("&");
    app.req(Method::POST, "/locations.api")
        .raw_body("", &format!("{fits}&location[name]=Depot"))
        .send()
        .await
        .expect(StatusCode::OK);

    // Only the two requests within the limits created a location.
    assert_eq!(location_count(&app).await, 2);
}

async fn team(app: &TestApp, name: &str) -> i64 {
    let res = app.post("/teams.api", &[("team[name]", name)]).await;
    res.expect(StatusCode::OK)["team"]["id"].as_i64().unwrap()
}

async fn over_long_id_lists_are_a_422_naming_them_and_change_nothing(kind: Kind) {
    let app = TestApp::new(kind).await;
    let crew = team(&app, "Field Crew").await;
    let member = |teams: String| {
        vec![
            ("user[first_name]", "Ada".to_owned()),
            ("user[last_name]", "Lovelace".to_owned()),
            ("user[email]", "ada@acme.test".to_owned()),
            ("user[role_id]", "2".to_owned()),
            ("user[team_ids]", teams),
        ]
    };
    let send = |form: Vec<(&'static str, String)>, method: Method, path: String| {
        let app = &app;
        async move {
            let form: Vec<(&str, &str)> = form.iter().map(|(k, v)| (*k, v.as_str())).collect();
            app.req(method, &path).form(&form).send().await
        }
    };
    // The 40,000 team ids were a 500 (too many bound parameters).
    let res = send(
        member(id_list(1, 40_000)),
        Method::POST,
        "/members.api".into(),
    )
    .await;
    res.expect_invalid("team_ids");
    assert!(
        res.body["errors"]["team_ids"][0]
            .as_str()
            .unwrap()
            .contains("over the limit of 1000"),
        "{}",
        res.text
    );
    send(
        member(id_list(1, 1001)),
        Method::POST,
        "/members.api".into(),
    )
    .await
    .expect_invalid("team_ids");
    // 1,000 is within the cap: those ids reach the database and are checked there.
    let res = send(
        member(id_list(1_000_000, 1000)),
        Method::POST,
        "/members.api".into(),
    )
    .await;
    res.expect_invalid("team_ids");
    assert!(
        res.body["errors"]["team_ids"][0]
            .as_str()
            .unwrap()
            .starts_with("has no team with id"),
        "{}",
        res.text
    );
    assert_eq!(
        ids(
            app.get("/members.api").await.expect(StatusCode::OK),
            "members"
        )
        .len(),
        1,
        "only the owner"
    );

    let id = app
        .member(
            "Ada",
            "Lovelace",
            "ada@acme.test",
            &[("user[team_ids][]", &crew.to_string())],
        )
        .await;
    let res = send(
        member(id_list(1, 5000)),
        Method::PUT,
        format!("/members/{id}.api"),
    )
    .await;
    res.expect_invalid("team_ids");
    assert_eq!(
        app.get(&format!("/members/{id}.api")).await.body["member"]["team_ids"],
        json!([crew]),
        "unchanged"
    );

    // Contacts: business_ids, and contact_ids of add_existing_contacts_to_business.
    let acme = app.business("Acme", &[]).await;
    let long = id_list(acme, 1001);
    app.post(
        "/contacts.api",
        &[("contact[last_name]", "Builder"), ("business_ids", &long)],
    )
    .await
    .expect_invalid("business_ids");
    app.post(
        "/contacts.api",
        &[
            ("contact[last_name]", "Builder"),
            ("contact[business_ids]", &long),
        ],
    )
    .await
    .expect_invalid("business_ids");
    assert!(
        ids(
            app.get("/contacts.api?filter=all")
                .await
                .expect(StatusCode::OK),
            "contacts"
        )
        .is_empty()
    );
    let bob = app.contact("Builder", &acme.to_string(), &[]).await;
    let globex = app.business("Globex", &[]).await;
    app.put(
        &format!("/contacts/{bob}.api"),
        &[("contact[last_name]", "Builder"), ("business_ids", &long)],
    )
    .await
    .expect_invalid("business_ids");
    let add = app
        .post(
            "/contacts/add_existing_contacts_to_business.api",
            &[
                ("contact_ids", &id_list(bob, 1001)),
                ("business_id", &globex.to_string()),
            ],
        )
        .await;
    add.expect_invalid("contact_ids");
    assert_eq!(
        app.get(&format!("/contacts/{bob}.api")).await.body["contact"]["business_ids"],
        json!([acme]),
        "unchanged"
    );
}

async fn custom_field_lists_are_capped(kind: Kind) {
    let app = TestApp::new(kind).await;
    // 200,000 dropdown options in one comma list ran a quadratic check on a worker.
    let huge = (0..200_000)
        .map(|i| i.to_string())
        .collect::<Vec<_>>()
        .join(",");
    let started = std::time::Instant::now();
    let res = app
        .post(
            "/custom_fields.api",
            &[
                ("custom_field[name]", "Size"),
                ("custom_field[field_type]", "dropdown"),
                ("custom_field[applies_to][]", "members"),
                ("custom_field[options]", &huge),
            ],
        )
        .await;
    res.expect_invalid("options");
    assert!(
        res.body["errors"]["options"][0]
            .as_str()
            .unwrap()
            .contains("has 200000 entries, over the limit of 500"),
        "{}",
        res.text
    );
    eprintln!("200,000 options refused in {:?}", started.elapsed());
    let over = (0..501)
        .map(|i| format!("o{i}"))
        .collect::<Vec<_>>()
        .join(",");
    let field = [
        ("custom_field[name]", "Size"),
        ("custom_field[field_type]", "dropdown"),
        ("custom_field[applies_to][]", "members"),
    ];
    let mut form = field.to_vec();
    form.push(("custom_field[options]", &over));
    app.post("/custom_fields.api", &form)
        .await
        .expect_invalid("options");
    let targets = vec!["members"; 1001].join(",");
    let res = app
        .post(
            "/custom_fields.api",
            &[
                ("custom_field[name]", "Size"),
                ("custom_field[field_type]", "text"),
                ("custom_field[applies_to]", &targets),
            ],
        )
        .await;
    res.expect_invalid("applies_to");
    assert!(
        app.get("/custom_fields.api").await.body["custom_fields"]
            .as_array()
            .unwrap()
            .is_empty(),
        "nothing created"
    );

    // 500 options fit, and repeats are still found (case aside) among them.
    let most = (0..500)
        .map(|i| format!("o{i}"))
        .collect::<Vec<_>>()
        .join(",");
    let mut form = field.to_vec();
    form.push(("custom_field[options]", &most));
    let res = app.post("/custom_fields.api", &form).await;
    assert_eq!(
        res.expect(StatusCode::OK)["custom_field"]["options"]
            .as_array()
            .unwrap()
            .len(),
        500
    );
    let repeated = format!(
        "{},O498",
        (0..499)
            .map(|i| format!("o{i}"))
            .collect::<Vec<_>>()
            .join(",")
    );
    let id = res.body["custom_field"]["id"].as_i64().unwrap();
    let res = app
        .put(
            &format!("/custom_fields/{id}.api"),
            &[("custom_field[options]", &repeated)],
        )
        .await;
    res.expect_invalid("options");
    assert!(
        res.body["errors"]["options"][0]
            .as_str()
            .unwrap()
            .contains("\"O498\" appears twice"),
        "{}",
        res.text
    );
}

async fn repeated_ids_count_once(kind: Kind) {
    let app = TestApp::new(kind).await;
    let crew = team(&app, "Field Crew").await;
    let night = team(&app, "Night Shift").await;
    let teams = format!("{night},{crew},{night},{night}");
    let id = app
        .member(
            "Ada",
            "Lovelace",
            "ada@acme.test",
            &[("user[team_ids]", &teams)],
        )
        .await;
    let mut sent: Vec<i64> =
        app.get(&format!("/members/{id}.api")).await.body["member"]["team_ids"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t.as_i64().unwrap())
            .collect();
    sent.sort_unstable();
    assert_eq!(sent, vec![crew, night]);

    let acme = app.business("Acme", &[]).await;
    let globex = app.business("Globex", &[]).await;
    let bob = app.contact("Builder", &format!("{acme},{acme}"), &[]).await;
    assert_eq!(
        app.get(&format!("/contacts/{bob}.api")).await.body["contact"]["business_ids"],
        json!([acme])
    );
    let res = app
        .post(
            "/contacts/add_existing_contacts_to_business.api",
            &[
                ("contact_ids", &format!("{bob},{bob}")),
                ("business_id", &globex.to_string()),
            ],
        )
        .await;
    let body = res.expect(StatusCode::OK);
    assert_eq!(body["contacts"].as_array().unwrap().len(), 1, "{body}");
    assert_eq!(body["contacts"][0]["business_ids"], json!([acme, globex]));
}

async fn control_characters_are_a_422_naming_the_parameter(kind: Kind) {
    let app = TestApp::new(kind).await;
    // The report's NUL (a 500 on PostgreSQL), and other control characters.
    for bad in ["ab\0c", "ab\u{7}c", "\u{1b}red", "ab\u{7f}", "ab\u{85}c"] {
        app.post("/locations.api", &[("location[name]", bad)])
            .await
            .expect_invalid("location[name]");
        app.post(
            "/locations.api",
            &[("location[name]", "Depot"), ("location[city]", bad)],
        )
        .await
        .expect_invalid("location[city]");
        app.post(
            "/vendors.api",
            &[
                ("vendor[name]", "Acme Supply"),
                ("vendor[description]", bad),
            ],
        )
        .await
        .expect_invalid("vendor[description]");
        app.post(
            "/customers.api",
            &[
                ("customer[first_name]", bad),
                ("customer[last_name]", "Lovelace"),
            ],
        )
        .await
        .expect_invalid("customer[first_name]");
        app.post(
            "/groups.api",
            &[
                ("group[name]", "Tools"),
                (&format!("depreciation_rates[{bad}]"), "12"),
            ],
        )
        .await
        .expect_invalid(&format!("depreciation_rates[{bad}]"));
        app.post(
            "/custom_fields.api",
            &[
                ("custom_field[name]", "Size"),
                ("custom_field[field_type]", "dropdown"),
                ("custom_field[applies_to][]", "members"),
                ("custom_field[options][]", bad),
            ],
        )
        .await
        .expect_invalid("custom_field[options][]");
        // Raw reads are covered too: a filter value goes to the database.
        let query = crate::common::encode(&[("filter", "email"), ("filter_val", bad)]);
        app.get(&format!("/customers.api?{query}"))
            .await
            .expect_invalid("filter_val");
        // In JSON as in forms.
        let res = app
            .req(Method::POST, "/teams.api")
            .json(json!({"team": {"name": bad}}))
            .send()
            .await;
        res.expect_invalid("team[name]");
    }
    // One 422 names every such parameter.
    let res = app
        .post(
            "/locations.api",
            &[("location[name]", "a\0"), ("location[city]", "b\u{1}")],
        )
        .await;
    res.expect_invalid("location[name]");
    res.expect_invalid("location[city]");
    assert!(
        res.body["message"]
            .as_str()
            .unwrap()
            .contains("control character (U+0000)"),
        "{}",
        res.text
    );
    // Nothing was written.
    assert_eq!(location_count(&app).await, 0);
    assert!(
        app.get("/assets/vendors.api").await.body["vendors"]
            .as_array()
            .unwrap()
            .is_empty()
    );
    assert!(
        app.get("/customers.api").await.body["customers"]
            .as_array()
            .unwrap()
            .is_empty()
    );
    assert!(
        app.get("/teams.api").await.body["teams"]
            .as_array()
            .unwrap()
            .is_empty()
    );
}

async fn tab_and_line_breaks_are_text(kind: Kind) {
    let app = TestApp::new(kind).await;
    let text = "first\tcolumn\r\nsecond line\nthird";
    let res = app
        .post(
            "/locations.api",
            &[("location[name]", "Depot"), ("location[description]", text)],
        )
        .await;
    assert_eq!(res.expect(StatusCode::OK)["location"]["description"], text);
    let res = app
        .post(
            "/vendors.api",
            &[
                ("vendor[name]", "Acme Supply"),
                ("vendor[description]", "Ünïcødé — ok ✓"),
            ],
        )
        .await;
    assert_eq!(
        res.expect(StatusCode::OK)["vendor"]["description"],
        "Ünïcødé — ok ✓"
    );
}

/// The lines of order `n`: (id, sequence_num, quantity, quantity_returned).
async fn lines(app: &TestApp, n: i64) -> Vec<(i64, i64, i64, i64)> {
    let b = app
        .get(&format!("/baskets/{n}.api"))
        .await
        .into_body(StatusCode::OK);
    b["basket"]["order_line_items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| {
            let n = |k: &str| l[k].as_i64().unwrap_or_default();
            (
                n("id"),
                n("sequence_num"),
                n("quantity"),
                n("quantity_returned"),
            )
        })
        .collect()
}

/// A 422 naming one of two keys that name one record (keys arrive unordered).
#[track_caller]
fn expect_same_key(res: &crate::common::Res, a: &str, b: &str) {
    assert_eq!(res.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", res.text);
    let field = if res.body["errors"][a].is_array() {
        a
    } else {
        b
    };
    expect_invalid_saying(res, field, "is the same key as");
}

#[track_caller]
fn expect_invalid_saying(res: &crate::common::Res, field: &str, words: &str) {
    res.expect_invalid(field);
    let said = res.body["errors"][field][0].as_str().unwrap_or_default();
    assert!(
        said.contains(words),
        "{field}: {said:?} should say {words:?}"
    );
}

async fn order_id_lists_are_capped_before_any_work(kind: Kind) {
    let app = TestApp::new(kind).await;
    let s = shop(&app).await;
    let n = draft(&app, s.ann, &s.tent.to_string(), &[]).await;
    let add = format!("/baskets/{n}/update_basket_from_show.api");
    // The probe's request: 2 MiB of ids ran a quadratic de-duplication on a worker
    // (minutes), and past 32,766 ids SQLite answered 500.
    let mut huge = String::from("asset_ids=");
    let mut i = 1_000_000u64;
    while huge.len() < 2 * 1024 * 1024 - 16 {
        huge.push_str(&i.to_string());
        huge.push(',');
        i += 1;
    }
    let started = std::time::Instant::now();
    let res = app
        .req(Method::PATCH, &add)
        .raw_body("application/x-www-form-urlencoded", &huge)
        .send()
        .await;
    expect_invalid_saying(&res, "asset_ids", "over the limit of 1000");
    assert!(
        started.elapsed() < std::time::Duration::from_secs(10),
        "refused before any work: {:?}",
        started.elapsed()
    );
    for count in [40_000, 1001] {
        let res = app.patch(&add, &[("asset_ids", &id_list(1, count))]).await;
        expect_invalid_saying(
            &res,
            "asset_ids",
            &format!("has {count} entries, over the limit of 1000"),
        );
    }
    // Repeated pairs count as entries too, and the cap holds for asset_ids[] pairs.
    let pairs: Vec<(&str, String)> = (1..=1001).map(|i| ("asset_ids[]", i.to_string())).collect();
    let pairs: Vec<(&str, &str)> = pairs.iter().map(|(k, v)| (*k, v.as_str())).collect();
    expect_invalid_saying(
        &app.patch(&add, &pairs).await,
        "asset_ids",
        "over the limit",
    );
    // 1,000 entries reach the database, which names the unknown ones (no 500).
    let res = app
        .patch(&add, &[("asset_ids", &id_list(1_000_000, 1000))])
        .await;
    expect_invalid_saying(&res, "asset_ids", "is not an asset of this company");
    // An item named twice is a 422, in linear time.
    let twice = format!("{},{}", s.cables, s.cables);
    expect_invalid_saying(
        &app.patch(&add, &[("asset_ids", &twice)]).await,
        "asset_ids",
        "named twice",
    );
    let removal = format!("/baskets/{n}/remove_asset.api");
    expect_invalid_saying(
        &app.patch(&removal, &[("asset_ids", &id_list(1, 1001))])
            .await,
        "asset_ids",
        "over the limit of 1000",
    );
    // Every other list and map of ids on an order.
    let long = id_list(1, 1001);
    for (path, field) in [
        ("update_basket_from_show", "coupon_ids"),
        ("apply_taxes", "custom_tax_id"),
        ("sale_items_for_drafted_basket", "asset_ids_marked_as_sale"),
        (
            "sale_items_for_drafted_basket",
            "asset_ids_marked_for_non_sale",
        ),
    ] {
        let res = app
            .patch(&format!("/baskets/{n}/{path}.api"), &[(field, &long)])
            .await;
        expect_invalid_saying(&res, field, "over the limit of 1000");
    }
    let keys: Vec<String> = (1..=1001).map(|i| format!("sale_prices[{i}]")).collect();
    let mut sale: Vec<(&str, &str)> = keys.iter().map(|k| (k.as_str(), "1")).collect();
    sale.push(("asset_ids_marked_as_sale", "1"));
    let res = app
        .patch(
            &format!("/baskets/{n}/sale_items_for_drafted_basket.api"),
            &sale,
        )
        .await;
    expect_invalid_saying(&res, "sale_prices", "over the limit of 1000");
    let keys: Vec<String> = (1..=1001)
        .map(|i| format!("stock_assets_values[{i}][quantity]"))
        .collect();
    let mut values: Vec<(&str, &str)> = keys.iter().map(|k| (k.as_str(), "1")).collect();
    let cables = s.cables.to_string();
    values.push(("asset_ids", &cables));
    expect_invalid_saying(
        &app.patch(&add, &values).await,
        "stock_assets_values",
        "over the limit",
    );
    let b = rent_out(
        &app,
        n,
        &[("use_current_datetime", "true"), ("return_date", &day(2))],
    )
    .await
    .into_body(StatusCode::OK);
    assert_eq!(b["basket"]["basket_state"], "checked_out");
    let back = format!("/baskets/{n}/checkin.api");
    for field in ["fixed_asset_ids", "subrent_item_ids"] {
        let res = app
            .patch(&back, &[("partial_return", "true"), (field, &long)])
            .await;
        expect_invalid_saying(&res, field, "over the limit of 1000");
    }
    for map in ["stock_asset_with_quantity", "bundle_with_quantity"] {
        let keys: Vec<String> = (1..=1001).map(|i| format!("{map}[{i}]")).collect();
        let mut form: Vec<(&str, &str)> = keys.iter().map(|k| (k.as_str(), "1")).collect();
        form.push(("partial_return", "true"));
        expect_invalid_saying(
            &app.patch(&back, &form).await,
            map,
            "over the limit of 1000",
        );
    }
    // Nothing of it changed the order: the tent alone, still out.
    assert_eq!(lines(&app, n).await.len(), 1);
    assert_eq!(state_of(&app, n).await, "checked_out");
    // Bundles and thresholds are maps of ids too.
    let keys: Vec<String> = (1..=1001).map(|i| format!("bundle[items][{i}]")).collect();
    let mut bundle: Vec<(&str, &str)> = keys.iter().map(|k| (k.as_str(), "1")).collect();
    bundle.push(("bundle[name]", "Everything"));
    expect_invalid_saying(
        &app.post("/bundles.api", &bundle).await,
        "items",
        "over the limit of 1000",
    );
    let keys: Vec<String> = (1..=1001).map(|i| format!("thresholds[{i}]")).collect();
    let form: Vec<(&str, &str)> = keys.iter().map(|k| (k.as_str(), "1")).collect();
    let res = app
        .put(
            &format!("/stock_assets/{}/location_based_thresholds.api", s.cables),
            &form,
        )
        .await;
    expect_invalid_saying(&res, "thresholds", "over the limit of 1000");
}

async fn keys_naming_records_are_numbers_each_given_once(kind: Kind) {
    let app = TestApp::new(kind).await;
    let s = shop(&app).await;
    // stock_assets_values[<n>]: 04 is item 4; given as 4 and as 04 it is a 422.
    let ids = format!("{},{}", s.tent, s.cables);
    let (plain, padded) = (
        format!("stock_assets_values[{}][quantity]", s.cables),
        format!("stock_assets_values[0{}][quantity]", s.cables),
    );
    let before = app.get("/baskets.api").await.into_body(StatusCode::OK);
    let c = s.ann.to_string();
    let res = crate::orders::create(
        &app,
        &[
            ("basket[customer_id]", &c),
            ("asset_ids", &ids),
            (&plain, "2"),
            (&padded, "3"),
        ],
    )
    .await;
    expect_same_key(
        &res,
        &format!("stock_assets_values[{}]", s.cables),
        &format!("stock_assets_values[0{}]", s.cables),
    );
    assert_eq!(
        app.get("/baskets.api").await.into_body(StatusCode::OK),
        before,
        "no order was made"
    );
    let n = draft(&app, s.ann, &ids, &[(&padded, "5")]).await;
    let cable_line = lines(&app, n)
        .await
        .into_iter()
        .find(|l| l.1 == s.cables)
        .unwrap();
    assert_eq!(cable_line.2, 5, "04 named item 4");
    rent_out(
        &app,
        n,
        &[("use_current_datetime", "true"), ("return_date", &day(2))],
    )
    .await
    .expect(StatusCode::OK);
    assert_eq!(quantity_at(&app, s.cables, s.store).await, 5);

    // The probe: one stock line named as L and 0L in a partial return put both
    // quantities back and recorded one; every later return was a 500.
    let line = cable_line.0;
    let back = format!("/baskets/{n}/checkin.api");
    let (as_sent, padded, plus) = (
        format!("stock_asset_with_quantity[{line}]"),
        format!("stock_asset_with_quantity[0{line}]"),
        format!("stock_asset_with_quantity[+{line}]"),
    );
    for twice in [
        vec![(as_sent.as_str(), "1"), (padded.as_str(), "1")],
        vec![(plus.as_str(), "1"), (padded.as_str(), "2")],
    ] {
        let mut form = twice.clone();
        form.push(("partial_return", "true"));
        let res = app.patch(&back, &form).await;
        assert_eq!(res.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", res.text);
        let said = res.text.clone();
        assert!(said.contains("is the same key as"), "{said}");
        assert_eq!(quantity_at(&app, s.cables, s.store).await, 5, "unchanged");
        assert_eq!(lines(&app, n).await.iter().map(|l| l.3).sum::<i64>(), 0);
    }
    // Written either way, the key names the line once: 2 back, then the rest.
    let b = app
        .patch(&back, &[("partial_return", "true"), (&padded, "2")])
        .await
        .into_body(StatusCode::OK);
    assert_eq!(b["basket"]["basket_state"], "checked_out", "{b}");
    assert_eq!(quantity_at(&app, s.cables, s.store).await, 7);
    let returned = |ls: Vec<(i64, i64, i64, i64)>| ls.iter().find(|l| l.0 == line).unwrap().3;
    assert_eq!(returned(lines(&app, n).await), 2);
    let b = app
        .patch(&back, &[("partial_return", "true"), (&plus, "1")])
        .await
        .into_body(StatusCode::OK);
    assert_eq!(b["basket"]["basket_state"], "checked_out", "{b}");
    assert_eq!(returned(lines(&app, n).await), 3);
    let b = app
        .patch(&back, &[("use_current_datetime", "true")])
        .await
        .into_body(StatusCode::OK);
    assert_eq!(b["basket"]["basket_state"], "returned", "{b}");
    assert_eq!(returned(lines(&app, n).await), 5);
    assert_eq!(quantity_at(&app, s.cables, s.store).await, 10);

    // Bundles: bundle[items][4] and [04] were the bundle's key twice: a 500.
    let (item, padded) = (
        format!("bundle[items][{}]", s.cables),
        format!("bundle[items][0{}]", s.cables),
    );
    let res = app
        .post(
            "/bundles.api",
            &[("bundle[name]", "Kit"), (&item, "1"), (&padded, "2")],
        )
        .await;
    expect_same_key(
        &res,
        &format!("items][{}", s.cables),
        &format!("items][0{}", s.cables),
    );
    let none = app.get("/bundles.api").await.into_body(StatusCode::OK);
    assert_eq!(none["bundles"], json!([]), "no bundle was made");
    let kit = app
        .post("/bundles.api", &[("bundle[name]", "Kit"), (&padded, "2")])
        .await
        .into_body(StatusCode::OK);
    assert_eq!(kit["bundle"]["items"][0]["sequence_num"], s.cables);
    assert_eq!(kit["bundle"]["items"][0]["quantity"], 2);

    // Thresholds are keyed by location ids the same way.
    let (at, padded) = (
        format!("thresholds[{}]", s.store),
        format!("thresholds[0{}]", s.store),
    );
    let path = format!("/stock_assets/{}/location_based_thresholds.api", s.cables);
    let res = app.put(&path, &[(&at, "1"), (&padded, "2")]).await;
    expect_same_key(&res, &at, &padded);
    app.put(&path, &[(&padded, "2")])
        .await
        .expect(StatusCode::OK);
}

async fn dates_outside_1900_to_9998_are_a_422_and_change_nothing(kind: Kind) {
    let app = TestApp::new(kind).await;
    // West of UTC: the last moment of 9999 there is in the year 10000 in UTC.
    app.put(
        "/company_settings.api",
        &[("company_settings[time_zone]", "Pacific/Honolulu")],
    )
    .await
    .expect(StatusCode::OK);
    let s = shop(&app).await;
    let n = draft(&app, s.ann, &s.tent.to_string(), &[]).await;
    let booking = format!("/baskets/{n}/reservation.api");
    for (from, to, field) in [
        (day(1), "12/31/9999".to_owned(), "to"),
        (day(1), "9999-01-01".to_owned(), "to"),
        ("01/01/1800".to_owned(), day(3), "from"),
        ("1899-12-31".to_owned(), day(3), "from"),
    ] {
        let res = app.patch(&booking, &[("from", &from), ("to", &to)]).await;
        expect_invalid_saying(&res, field, "outside the years 1900 to 9998");
        assert_eq!(state_of(&app, n).await, "drafted", "unchanged");
    }
    // The last day of 9998 is fine and holds the tent: a later booking of it is
    // refused, however far its end (it was invisible when stored as +10000-...).
    app.patch(&booking, &[("from", &day(1)), ("to", "12/31/9998")])
        .await
        .expect(StatusCode::OK);
    let other = draft(&app, s.ann, &s.tent.to_string(), &[]).await;
    book(&app, other, 5, 6).await.expect(StatusCode::CONFLICT);

    // An asset check-out due in 9999 (or 1800) is refused; 9998 is not overdue.
    let group = app.group("Cameras").await;
    let camera = app.asset("Camera", group, &[]).await;
    let ann = app
        .member("Ann", "Tester", "ann@example.com", &[])
        .await
        .to_string();
    for till in ["12/31/9999", "01/01/1800"] {
        let res = app
            .put(
                &format!("/assets/{camera}/checkout.api"),
                &[("user_id", &ann), ("till", till)],
            )
            .await;
        expect_invalid_saying(&res, "till", "outside the years 1900 to 9998");
        let a = app
            .get(&format!("/assets/{camera}.api"))
            .await
            .into_body(StatusCode::OK);
        assert_eq!(a["asset"]["state"], "available", "unchanged");
    }
    app.put(
        &format!("/assets/{camera}/checkout.api"),
        &[("user_id", &ann), ("till", "12/31/9998")],
    )
    .await
    .expect(StatusCode::OK);
    let overdue = app
        .get("/assets/filter.api?status=overdue")
        .await
        .into_body(StatusCode::OK);
    assert_eq!(overdue["assets"], json!([]), "due in 9998 is not overdue");
    // Dates that are only dates follow the same rule.
    let res = app
        .put(
            &format!("/assets/{camera}.api"),
            &[("fixed_asset[purchased_on]", "01/01/1800")],
        )
        .await;
    expect_invalid_saying(&res, "purchased_on", "outside the years 1900 to 9998");
}

/// A location's subtree is a list of ids from stored data, with no cap: it is bound in
/// chunks of 1,000 (`store::IN_CHUNK`), and every location of a longer one changes.
async fn subtrees_longer_than_one_chunk_change_whole(kind: Kind) {
    let app = TestApp::new(kind).await;
    let root = app.location("Warehouse", &[]).await.to_string();
    for batch in 0..11 {
        let names: Vec<String> = (0..100).map(|i| format!("Bay {batch}-{i}")).collect();
        let extra = [("location[parent_id]", root.as_str())];
        futures_util::future::join_all(names.iter().map(|name| app.location(name, &extra))).await;
    }
    let pages = |status: &'static str| {
        let app = &app;
        async move {
            app.get(&format!(
                "/locations/get_line_item_locations.api?status={status}"
            ))
            .await
            .into_body(StatusCode::OK)["total_pages"]
                .as_i64()
                .unwrap()
        }
    };
    assert_eq!(pages("active").await, 45, "1,101 locations, 25 a page");
    app.patch(&format!("/locations/{root}/deactivate.api"), &[])
        .await
        .expect(StatusCode::OK);
    assert_eq!(pages("inactive").await, 45);
    assert_eq!(pages("active").await, 0);
    app.patch(
        &format!("/locations/{root}/activate.api"),
        &[("activate_all_children_locations", "1")],
    )
    .await
    .expect(StatusCode::OK);
    assert_eq!(pages("active").await, 45);
    assert_eq!(pages("inactive").await, 0);
}
