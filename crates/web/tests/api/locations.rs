use crate::common::{Kind, TestApp, assert_documented};
use axum::http::StatusCode;

both!(
    answers_are_the_documented_record,
    create_and_read,
    create_validates_every_field,
    update_changes_fields_and_refuses_cycles,
    activation_follows_the_subtree,
    list_filters_by_status_and_pages,
    sequence_numbers_never_repeat_under_concurrent_creates,
    quantities_are_read_from_stock,
    unknown_or_foreign_parent_is_refused,
    short_names_are_names,
);

async fn create_and_read(kind: Kind) {
    let app = TestApp::new(kind).await;
    let res = app
        .post(
            "/locations.api",
            &[
                ("location[name]", "Main Depot"),
                ("location[city]", "Denver"),
                ("location[state]", "CO"),
                ("location[zipcode]", "80202"),
                ("location[street1]", "1 Main St"),
                ("location[street2]", ""),
                ("location[country]", "us"),
                ("location[description]", "Where it all lives"),
            ],
        )
        .await;
    let body = res.expect(StatusCode::OK);
    let loc = &body["location"];
    assert_eq!(loc["name"], "Main Depot");
    assert_eq!(loc["city"], "Denver");
    assert_eq!(loc["country"], "US");
    assert_eq!(
        loc["street2"],
        serde_json::Value::Null,
        "empty means not given"
    );
    assert_eq!(loc["status"], "active");
    assert_eq!(loc["sequence_num"], 1);
    assert!(loc["created_at"].as_str().unwrap().len() == 19);
    let id = loc["id"].as_i64().unwrap();

    let details = app.get(&format!("/locations/{id}.api")).await;
    assert_eq!(details.expect(StatusCode::OK)["location"], *loc);

    let inactive = app
        .post(
            "/locations.api",
            &[
                ("location[name]", "Old Yard"),
                ("location[status]", "inactive"),
            ],
        )
        .await;
    assert_eq!(
        inactive.expect(StatusCode::OK)["location"]["status"],
        "inactive"
    );
    assert_eq!(inactive.body["location"]["sequence_num"], 2);

    app.get("/locations/999999.api")
        .await
        .expect(StatusCode::NOT_FOUND);
    app.get("/locations/abc.api")
        .await
        .expect(StatusCode::NOT_FOUND);
}

async fn create_validates_every_field(kind: Kind) {
    let app = TestApp::new(kind).await;
    app.post("/locations.api", &[]).await.expect_invalid("name");
    app.post("/locations.api", &[("location[name]", "   ")])
        .await
        .expect_invalid("name");
    app.post("/locations.api", &[("location[name]", &"x".repeat(256))])
        .await
        .expect_invalid("name");
    let res = app
        .post(
            "/locations.api",
            &[
                ("location[name]", ""),
                ("location[country]", "Narnia"),
                ("location[status]", "closed"),
            ],
        )
        .await;
    res.expect_invalid("name");
    res.expect_invalid("country");
    res.expect_invalid("status");
    app.post(
        "/locations.api",
        &[("location[name]", "Good"), ("location[parent_id]", "x")],
    )
    .await
    .expect_invalid("parent_id");
    let long = "x".repeat(2001);
    app.post(
        "/locations.api",
        &[("location[name]", "Good"), ("location[city]", &long)],
    )
    .await
    .expect_invalid("city");
    // Nothing was written by the refused requests.
    let list = app.get("/locations/get_line_item_locations.api").await;
    assert_eq!(
        list.expect(StatusCode::OK)["locations"]
            .as_array()
            .unwrap()
            .len(),
        0
    );
}

async fn update_changes_fields_and_refuses_cycles(kind: Kind) {
    let app = TestApp::new(kind).await;
    let a = app.location("Alpha", &[("location[city]", "Denver")]).await;
    let b = app
        .location("Bravo", &[("location[parent_id]", &a.to_string())])
        .await;
    let c = app
        .location("Charlie", &[("location[parent_id]", &b.to_string())])
        .await;

    // Name is required on update.
    app.put(
        &format!("/locations/{a}.api"),
        &[("location[city]", "Boulder")],
    )
    .await
    .expect_invalid("name");

    let res = app
        .put(
            &format!("/locations/{a}.api"),
            &[
                ("location[name]", "Alpha Yard"),
                ("location[zipcode]", "80301"),
            ],
        )
        .await;
    let loc = &res.expect(StatusCode::OK)["location"];
    assert_eq!(loc["name"], "Alpha Yard");
    assert_eq!(loc["city"], "Denver", "fields left out are kept");
    assert_eq!(loc["zipcode"], "80301");

    // `null` clears a field.
    let res = app
        .put(
            &format!("/locations/{a}.api"),
            &[("location[name]", "Alpha Yard"), ("location[city]", "null")],
        )
        .await;
    assert_eq!(
        res.expect(StatusCode::OK)["location"]["city"],
        serde_json::Value::Null
    );

    // A location cannot become its own ancestor, directly or through descendants.
    for parent in [a, c] {
        app.put(
            &format!("/locations/{a}.api"),
            &[
                ("location[name]", "Alpha Yard"),
                ("location[parent_id]", &parent.to_string()),
            ],
        )
        .await
        .expect_invalid("parent_id");
    }
    let res = app.get(&format!("/locations/{a}.api")).await;
    assert_eq!(
        res.body["location"]["parent_id"],
        serde_json::Value::Null,
        "refused update changed nothing"
    );

    // Moving a subtree elsewhere is fine, and null detaches.
    let res = app
        .put(
            &format!("/locations/{c}.api"),
            &[
                ("location[name]", "Charlie"),
                ("location[parent_id]", &a.to_string()),
            ],
        )
        .await;
    assert_eq!(res.expect(StatusCode::OK)["location"]["parent_id"], a);
    let res = app
        .put(
            &format!("/locations/{c}.api"),
            &[
                ("location[name]", "Charlie"),
                ("location[parent_id]", "null"),
            ],
        )
        .await;
    assert_eq!(
        res.expect(StatusCode::OK)["location"]["parent_id"],
        serde_json::Value::Null
    );

    app.put("/locations/424242.api", &[("location[name]", "Nobody")])
        .await
        .expect(StatusCode::NOT_FOUND);
}

async fn activation_follows_the_subtree(kind: Kind) {
    let app = TestApp::new(kind).await;
    let root = app.location("Root", &[]).await;
    let child = app
        .location("Child", &[("location[parent_id]", &root.to_string())])
        .await;
    let grandchild = app
        .location("Grandchild", &[("location[parent_id]", &child.to_string())])
        .await;
    let other = app.location("Other", &[]).await;
    let status = |id: i64| {
        let app = &app;
        async move {
            app.get(&format!("/locations/{id}.api")).await.body["location"]["status"]
                .as_str()
                .unwrap()
                .to_owned()
        }
    };

    let res = app
        .patch(&format!("/locations/{root}/deactivate.api"), &[])
        .await;
    assert_eq!(res.expect(StatusCode::OK)["location"]["status"], "inactive");
    assert_eq!(status(child).await, "inactive");
    assert_eq!(status(grandchild).await, "inactive");
    assert_eq!(status(other).await, "active");

    // Without the flag only the location itself comes back.
    app.patch(
        &format!("/locations/{root}/activate.api"),
        &[("activate_all_children_locations", "0")],
    )
    .await
    .expect(StatusCode::OK);
    assert_eq!(status(root).await, "active");
    assert_eq!(status(child).await, "inactive");

    app.patch(
        &format!("/locations/{root}/activate.api"),
        &[("activate_all_children_locations", "1")],
    )
    .await
    .expect(StatusCode::OK);
    assert_eq!(status(child).await, "active");
    assert_eq!(status(grandchild).await, "active");

    app.patch(
        &format!("/locations/{root}/activate.api"),
        &[("activate_all_children_locations", "maybe")],
    )
    .await
    .expect_invalid("activate_all_children_locations");
    app.patch("/locations/777777/deactivate.api", &[])
        .await
        .expect(StatusCode::NOT_FOUND);
}

async fn list_filters_by_status_and_pages(kind: Kind) {
    let app = TestApp::new(kind).await;
    for i in 0..27 {
        let status = if i % 3 == 0 { "inactive" } else { "active" };
        app.location(&format!("Location {i:02}"), &[("location[status]", status)])
            .await;
    }
    let all = app.get("/locations/get_line_item_locations.api").await;
    let body = all.expect(StatusCode::OK);
    assert_eq!(body["locations"].as_array().unwrap().len(), 25);
    assert_eq!(body["total_pages"], 2);
    assert_eq!(body["current_page"], 1);
    let page2 = app
        .get("/locations/get_line_item_locations.api?page=2&status=all")
        .await;
    assert_eq!(page2.body["locations"].as_array().unwrap().len(), 2);
    assert_eq!(page2.body["current_page"], 2);
    let past = app
        .get("/locations/get_line_item_locations.api?page=9")
        .await;
    assert_eq!(past.body["locations"].as_array().unwrap().len(), 0);
    assert_eq!(
        past.body["total_pages"], 2,
        "a page past the end keeps total_pages"
    );

    let active = app
        .get("/locations/get_line_item_locations.api?status=active")
        .await;
    let items = active.body["locations"].as_array().unwrap();
    assert_eq!(items.len(), 18);
    assert!(items.iter().all(|l| l["status"] == "active"));
    let inactive = app
        .get("/locations/get_line_item_locations.api?status=inactive")
        .await;
    assert_eq!(inactive.body["locations"].as_array().unwrap().len(), 9);
    assert_eq!(inactive.body["total_pages"], 1);

    app.get("/locations/get_line_item_locations.api?status=closed")
        .await
        .expect_invalid("status");
    app.get("/locations/get_line_item_locations.api?page=0")
        .await
        .expect_invalid("page");
    app.get("/locations/get_line_item_locations.api?page=two")
        .await
        .expect_invalid("page");
    // include_custom_fields is checked, and (locations have no custom fields) the
    // same list comes back with it.
    app.get("/locations/get_line_item_locations.api?include_custom_fields=maybe")
        .await
        .expect_invalid("include_custom_fields");
    let with = app
        .get("/locations/get_line_item_locations.api?include_custom_fields=true")
        .await;
    assert_eq!(with.expect(StatusCode::OK), body);
}

async fn sequence_numbers_never_repeat_under_concurrent_creates(kind: Kind) {
    let app = std::sync::Arc::new(TestApp::new(kind).await);
    let mut tasks = Vec::new();
    for i in 0..30 {
        let app = app.clone();
        tasks.push(tokio::spawn(async move {
            let res = app
                .post(
                    "/locations.api",
                    &[("location[name]", &format!("Racer {i}"))],
                )
                .await;
            res.expect(StatusCode::OK)["location"]["sequence_num"]
                .as_i64()
                .unwrap()
        }));
    }
    let mut seqs = Vec::new();
    for t in tasks {
        seqs.push(t.await.unwrap());
    }
    seqs.sort();
    assert_eq!(seqs, (1..=30).collect::<Vec<i64>>());
}

async fn quantities_are_read_from_stock(kind: Kind) {
    let app = TestApp::new(kind).await;
    let id = app.location("Stockroom", &[]).await;
    let res = app
        .get(&format!("/locations/{id}/quantities_by_asset_ids.api"))
        .await;
    assert_eq!(
        res.expect(StatusCode::OK)["quantities_by_asset_ids"],
        serde_json::json!({})
    );
    // Stock arrives with the inventory issues; write it through the store here.
    let stmt = store::Sql {
        text: "INSERT INTO stock_levels (company_id, location_id, item_sequence_num, quantity) VALUES ($1, $2, 7, 12), ($1, $2, 9, 0)",
        values: sea_query::Values(vec![app.company.id.get().into(), id.into()]),
    };
    app.db.read().execute(&stmt).await.unwrap();
    let res = app
        .get(&format!("/locations/{id}/quantities_by_asset_ids.api"))
        .await;
    assert_eq!(
        res.expect(StatusCode::OK)["quantities_by_asset_ids"],
        serde_json::json!({"7": 12, "9": 0})
    );
    // An available fixed asset there counts 1; checked out or retired, nothing.
    let group = app.group("Cameras").await;
    let l = id.to_string();
    let here = app
        .asset("Camera", group, &[("fixed_asset[location_id]", &l)])
        .await;
    let out = app
        .asset("Camera 2", group, &[("fixed_asset[location_id]", &l)])
        .await;
    let ann = app.member("Ann", "Tester", "ann@example.com", &[]).await;
    app.put(&format!("/assets/{out}/checkout.api?user_id={ann}"), &[])
        .await
        .expect(StatusCode::OK);
    let res = app
        .get(&format!("/locations/{id}/quantities_by_asset_ids.api"))
        .await;
    let mut expected = serde_json::json!({"7": 12, "9": 0});
    expected[here.to_string()] = serde_json::json!(1);
    let body = res.into_body(StatusCode::OK);
    assert_eq!(body["quantities_by_asset_ids"], expected);
    assert_documented("/locations/{id}/quantities_by_asset_ids.api", "get", &body);
    app.get("/locations/55555/quantities_by_asset_ids.api")
        .await
        .expect(StatusCode::NOT_FOUND);
}

async fn unknown_or_foreign_parent_is_refused(kind: Kind) {
    let a = TestApp::new(kind).await;
    let b = TestApp::builder(kind).beside(&a).build().await;
    let theirs = b.location("Their Depot", &[]).await;
    a.post(
        "/locations.api",
        &[
            ("location[name]", "Mine"),
            ("location[parent_id]", &theirs.to_string()),
        ],
    )
    .await
    .expect_invalid("parent_id");
    a.post(
        "/locations.api",
        &[
            ("location[name]", "Mine"),
            ("location[parent_id]", "987654"),
        ],
    )
    .await
    .expect_invalid("parent_id");
}

/// Only assets, groups and subgroups need three characters: "HQ" is a location,
/// trimmed, on create and on update.
async fn short_names_are_names(kind: Kind) {
    let app = TestApp::new(kind).await;
    let res = app
        .post("/locations.api", &[("location[name]", " HQ ")])
        .await;
    let id = res.expect(StatusCode::OK)["location"]["id"]
        .as_i64()
        .unwrap();
    assert_eq!(res.body["location"]["name"], "HQ");
    let path = format!("/locations/{id}.api");
    let res = app.put(&path, &[("location[name]", "A")]).await;
    assert_eq!(res.expect(StatusCode::OK)["location"]["name"], "A");
    app.put(&path, &[("location[name]", &"x".repeat(256))])
        .await
        .expect_invalid("name");
    assert_eq!(app.get(&path).await.body["location"]["name"], "A");
}

/// Every answer carrying a location matches the document's `Location`, every field with
/// its type and nullability (a key it does not list would fail).
async fn answers_are_the_documented_record(kind: Kind) {
    let app = TestApp::new(kind).await;
    let parent = app
        .post("/locations.api", &[("location[name]", "Depot")])
        .await
        .into_body(StatusCode::OK);
    assert_documented("/locations.api", "post", &parent);
    let id = parent["location"]["id"].as_i64().unwrap();
    let child = app
        .location(
            "Shelf",
            &[
                ("location[parent_id]", &id.to_string()),
                ("location[city]", "Oslo"),
            ],
        )
        .await;
    let path = format!("/locations/{child}.api");
    assert_documented(
        "/locations/{id}.api",
        "get",
        &app.get(&path).await.into_body(StatusCode::OK),
    );
    let updated = app
        .put(
            &path,
            &[
                ("location[name]", "Top shelf"),
                ("location[zipcode]", "0150"),
            ],
        )
        .await
        .into_body(StatusCode::OK);
    assert_documented("/locations/{id}.api", "put", &updated);
    let deactivated = app
        .put(&format!("/locations/{child}/deactivate.api"), &[])
        .await
        .into_body(StatusCode::OK);
    assert_documented("/locations/{id}/deactivate.api", "put", &deactivated);
    let activated = app
        .put(&format!("/locations/{child}/activate.api"), &[])
        .await
        .into_body(StatusCode::OK);
    assert_documented("/locations/{id}/activate.api", "put", &activated);
    let page = app
        .get("/locations/get_line_item_locations.api")
        .await
        .into_body(StatusCode::OK);
    assert_eq!(page["locations"].as_array().unwrap().len(), 2);
    assert_documented("/locations/get_line_item_locations.api", "get", &page);
}
