//! Members' addresses under `/users/{member}/shipping_addresses`.

use crate::common::{Kind, TestApp, assert_documented};
use axum::http::StatusCode;
use serde_json::{Value, json};

both!(
    answers_are_the_documented_record,
    create_with_every_field_and_read,
    fields_are_validated_and_refusals_write_nothing,
    one_default_address_at_a_time,
    list_pages_at_25,
    update_keeps_clears_and_moves_the_default,
    addresses_belong_to_their_member_and_company,
);

fn base(member: i64) -> String {
    format!("/users/{member}/shipping_addresses")
}

async fn address(app: &TestApp, member: i64, street: &str, extra: &[(&str, &str)]) -> Value {
    let mut form = vec![("shipping_address[street1]", street)];
    form.extend_from_slice(extra);
    let res = app.post(&format!("{}.api", base(member)), &form).await;
    res.expect(StatusCode::OK)["shipping_address"].clone()
}

async fn create_with_every_field_and_read(kind: Kind) {
    let app = TestApp::new(kind).await;
    let member = app.member("Jane", "Doe", "jane@example.com", &[]).await;
    let clerk = app.member("Carl", "Clerk", "carl@example.com", &[]).await;
    let clerk_id = clerk.to_string();
    let a = address(
        &app,
        member,
        "1 Main St",
        &[
            ("shipping_address[name]", "Home"),
            ("shipping_address[street2]", "Apt 2"),
            ("shipping_address[city]", "Denver"),
            ("shipping_address[state]", "co"),
            ("shipping_address[zipcode]", "80202"),
            ("shipping_address[country]", "us"),
            ("shipping_address[longi]", "-104.990250"),
            ("shipping_address[lati]", "39.7392"),
            ("shipping_address[email]", "jane@home.example"),
            ("shipping_address[phone_number]", "+1 555 0100"),
            ("shipping_address[active]", "true"),
            ("created_by_id", &clerk_id),
        ],
    )
    .await;
    assert_eq!(a["user_id"], member);
    assert_eq!(a["name"], "Home");
    assert_eq!(a["street1"], "1 Main St");
    assert_eq!(a["street2"], "Apt 2");
    assert_eq!(a["city"], "Denver");
    assert_eq!(a["state"], "co", "state codes are kept as given");
    assert_eq!(a["zipcode"], "80202");
    assert_eq!(a["country"], "US");
    assert_eq!(a["longi"], "-104.99025");
    assert_eq!(a["lati"], "39.7392");
    assert_eq!(a["email"], "jane@home.example");
    assert_eq!(a["phone_number"], "+1 555 0100");
    assert_eq!(a["active"], true);
    assert_eq!(
        a["default_address"], true,
        "a member's first address becomes the default"
    );
    assert_eq!(a["created_by_id"], clerk);
    let id = a["id"].as_i64().unwrap();
    let one = app.get(&format!("{}/{id}.api", base(member))).await;
    assert_eq!(one.expect(StatusCode::OK)["shipping_address"], a);
    let default = app
        .get(&format!("{}/default_address.api", base(member)))
        .await;
    assert_eq!(default.expect(StatusCode::OK)["shipping_address"], a);

    let second = address(
        &app,
        member,
        "2 Side St",
        &[("shipping_address[active]", "false")],
    )
    .await;
    assert_eq!(second["default_address"], false);
    assert_eq!(second["active"], false);
    assert_eq!(second["name"], Value::Null);
    assert_eq!(second["created_by_id"], Value::Null);
}

async fn fields_are_validated_and_refusals_write_nothing(kind: Kind) {
    let app = TestApp::new(kind).await;
    let member = app.member("Jane", "Doe", "jane@example.com", &[]).await;
    let path = format!("{}.api", base(member));
    let post = |extra: &[(&'static str, &'static str)]| {
        let mut form = vec![("shipping_address[street1]", "1 Main St")];
        form.extend_from_slice(extra);
        let app = &app;
        let path = path.clone();
        async move { app.post(&path, &form).await }
    };
    app.post(&path, &[("shipping_address[city]", "Denver")])
        .await
        .expect_invalid("street1");
    post(&[("shipping_address[country]", "ZZ")])
        .await
        .expect_invalid("country");
    post(&[("shipping_address[email]", "nope")])
        .await
        .expect_invalid("email");
    post(&[("shipping_address[longi]", "181")])
        .await
        .expect_invalid("longi");
    post(&[("shipping_address[longi]", "east")])
        .await
        .expect_invalid("longi");
    post(&[("shipping_address[lati]", "-90.5")])
        .await
        .expect_invalid("lati");
    // A number with an exponent is read (JSON writes small numbers so: `1e-7`).
    for odd in ["5.", ".5", "0x10", "1_0", "1e"] {
        post(&[("shipping_address[longi]", odd)])
            .await
            .expect_invalid("longi");
    }
    post(&[("shipping_address[active]", "sometimes")])
        .await
        .expect_invalid("active");
    post(&[("default_address", "perhaps")])
        .await
        .expect_invalid("default_address");
    post(&[("created_by_id", "abc")])
        .await
        .expect_invalid("created_by_id");
    post(&[("created_by_id", "999999")])
        .await
        .expect_invalid("created_by_id");
    let res = post(&[
        ("shipping_address[country]", "ZZ"),
        ("shipping_address[lati]", "100"),
    ])
    .await;
    res.expect_invalid("country");
    res.expect_invalid("lati");
    let list = app.get(&path).await;
    assert_eq!(
        list.expect(StatusCode::OK)["shipping_addresses"],
        json!([]),
        "nothing was written"
    );
    let none = app
        .get(&format!("{}/default_address.api", base(member)))
        .await;
    none.expect(StatusCode::NOT_FOUND);
    assert!(
        none.body["message"]
            .as_str()
            .unwrap()
            .contains("default address"),
        "{}",
        none.text
    );
}

async fn one_default_address_at_a_time(kind: Kind) {
    let app = TestApp::new(kind).await;
    let member = app.member("Jane", "Doe", "jane@example.com", &[]).await;
    let first = address(&app, member, "1 First St", &[]).await;
    let second = address(&app, member, "2 Second St", &[("default_address", "true")]).await;
    assert_eq!(second["default_address"], true);
    let first_now = app
        .get(&format!("{}/{}.api", base(member), first["id"]))
        .await;
    assert_eq!(
        first_now.body["shipping_address"]["default_address"], false,
        "the old default lost it"
    );
    let default = app
        .get(&format!("{}/default_address.api", base(member)))
        .await;
    assert_eq!(default.body["shipping_address"]["id"], second["id"]);
    let third = address(&app, member, "3 Third St", &[("default_address", "false")]).await;
    assert_eq!(third["default_address"], false);

    // Racing requests to make different addresses the default leave exactly one.
    let app = std::sync::Arc::new(app);
    let mut tasks = Vec::new();
    for id in [&first, &second, &third].map(|a| a["id"].as_i64().unwrap()) {
        for _ in 0..4 {
            let app = app.clone();
            tasks.push(tokio::spawn(async move {
                app.patch(
                    &format!("/users/{member}/shipping_addresses/{id}.api"),
                    &[("default_address", "true")],
                )
                .await
                .status
            }));
        }
    }
    for t in tasks {
        assert_eq!(t.await.unwrap(), StatusCode::OK);
    }
    let list = app.get(&format!("{}.api", base(member))).await;
    let defaults = list.body["shipping_addresses"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|a| a["default_address"] == true)
        .count();
    assert_eq!(defaults, 1);
}

async fn list_pages_at_25(kind: Kind) {
    let app = TestApp::new(kind).await;
    let member = app.member("Jane", "Doe", "jane@example.com", &[]).await;
    for i in 0..26 {
        address(&app, member, &format!("{i} Main St"), &[]).await;
    }
    let res = app.get(&format!("{}.api", base(member))).await;
    let body = res.expect(StatusCode::OK);
    assert_eq!(body["shipping_addresses"].as_array().unwrap().len(), 25);
    assert_eq!(body["total_pages"], 2);
    assert_eq!(body["current_page"], 1);
    let res = app.get(&format!("{}.api?page=2", base(member))).await;
    assert_eq!(
        res.expect(StatusCode::OK)["shipping_addresses"][0]["street1"],
        "25 Main St"
    );
    app.get(&format!("{}.api?page=-1", base(member)))
        .await
        .expect_invalid("page");
}

async fn update_keeps_clears_and_moves_the_default(kind: Kind) {
    let app = TestApp::new(kind).await;
    let member = app.member("Jane", "Doe", "jane@example.com", &[]).await;
    let a = address(
        &app,
        member,
        "1 Main St",
        &[
            ("shipping_address[city]", "Denver"),
            ("shipping_address[name]", "Home"),
        ],
    )
    .await;
    let b = address(&app, member, "2 Side St", &[]).await;
    let path = format!("{}/{}.api", base(member), a["id"]);

    app.patch(
        &path,
        &[
            ("shipping_address[country]", "XX"),
            ("shipping_address[zipcode]", "1"),
        ],
    )
    .await
    .expect_invalid("country");
    app.patch(&path, &[("shipping_address[street1]", "null")])
        .await
        .expect_invalid("street1");
    assert_eq!(
        app.get(&path).await.body["shipping_address"],
        a,
        "refused updates changed nothing"
    );

    let res = app
        .patch(
            &path,
            &[
                ("shipping_address[zipcode]", "80202"),
                ("shipping_address[name]", "null"),
            ],
        )
        .await;
    let updated = &res.expect(StatusCode::OK)["shipping_address"];
    assert_eq!(updated["zipcode"], "80202");
    assert_eq!(updated["name"], Value::Null);
    assert_eq!(updated["city"], "Denver", "fields left out are kept");
    assert_eq!(updated["street1"], "1 Main St");
    assert_eq!(updated["created_at"], a["created_at"]);

    let b_path = format!("{}/{}.api", base(member), b["id"]);
    let res = app.patch(&b_path, &[("default_address", "true")]).await;
    assert_eq!(
        res.expect(StatusCode::OK)["shipping_address"]["default_address"],
        true
    );
    assert_eq!(
        app.get(&path).await.body["shipping_address"]["default_address"],
        false
    );
    // Unsetting the default leaves the member without one.
    app.patch(&b_path, &[("default_address", "false")])
        .await
        .expect(StatusCode::OK);
    app.get(&format!("{}/default_address.api", base(member)))
        .await
        .expect(StatusCode::NOT_FOUND);
    // PUT works like PATCH.
    let res = app
        .put(&path, &[("shipping_address[street2]", "Rear")])
        .await;
    assert_eq!(
        res.expect(StatusCode::OK)["shipping_address"]["street2"],
        "Rear"
    );
    app.patch(
        &format!("{}/999999.api", base(member)),
        &[("shipping_address[city]", "X")],
    )
    .await
    .expect(StatusCode::NOT_FOUND);
}

async fn addresses_belong_to_their_member_and_company(kind: Kind) {
    let a = TestApp::new(kind).await;
    let b = TestApp::builder(kind).beside(&a).build().await;
    let jane = a.member("Jane", "Doe", "jane@example.com", &[]).await;
    let john = a.member("John", "Doe", "john@example.com", &[]).await;
    let home = address(&a, jane, "1 Main St", &[]).await;
    let id = home["id"].as_i64().unwrap();

    // Another member's path does not reach Jane's address.
    a.get(&format!("{}/{id}.api", base(john)))
        .await
        .expect(StatusCode::NOT_FOUND);
    a.patch(
        &format!("{}/{id}.api", base(john)),
        &[("shipping_address[city]", "X")],
    )
    .await
    .expect(StatusCode::NOT_FOUND);
    a.get(&format!("{}/default_address.api", base(john)))
        .await
        .expect(StatusCode::NOT_FOUND);
    // Unknown members are a 404, not an empty list.
    a.get(&format!("{}.api", base(999999)))
        .await
        .expect(StatusCode::NOT_FOUND);
    a.post(
        &format!("{}.api", base(999999)),
        &[("shipping_address[street1]", "1 Nowhere")],
    )
    .await
    .expect(StatusCode::NOT_FOUND);

    // Company B can neither read, list, change nor add to A's member's addresses.
    b.get(&format!("{}/{id}.api", base(jane)))
        .await
        .expect(StatusCode::NOT_FOUND);
    b.get(&format!("{}.api", base(jane)))
        .await
        .expect(StatusCode::NOT_FOUND);
    b.get(&format!("{}/default_address.api", base(jane)))
        .await
        .expect(StatusCode::NOT_FOUND);
    b.patch(
        &format!("{}/{id}.api", base(jane)),
        &[("shipping_address[city]", "X")],
    )
    .await
    .expect(StatusCode::NOT_FOUND);
    b.post(
        &format!("{}.api", base(jane)),
        &[("shipping_address[street1]", "1 Intruder Way")],
    )
    .await
    .expect(StatusCode::NOT_FOUND);
    let b_member = b.member("Bea", "B", "bea@example.com", &[]).await;
    let jane_id = jane.to_string();
    b.post(
        &format!("{}.api", base(b_member)),
        &[
            ("shipping_address[street1]", "1 B St"),
            ("created_by_id", &jane_id),
        ],
    )
    .await
    .expect_invalid("created_by_id");
    let list = a.get(&format!("{}.api", base(jane))).await;
    assert_eq!(
        list.expect(StatusCode::OK)["shipping_addresses"],
        json!([home]),
        "untouched"
    );
}

/// Every answer is the documented `MemberAddress`, with and without the optional
/// fields, alone and on a page.
async fn answers_are_the_documented_record(kind: Kind) {
    let app = TestApp::new(kind).await;
    let member = app.member("Jane", "Doe", "jane@example.com", &[]).await;
    let clerk = app.member("Carl", "Clerk", "carl@example.com", &[]).await;
    let path = format!("{}.api", base(member));
    let bare = app
        .post(&path, &[("shipping_address[street1]", "1 Main St")])
        .await
        .into_body(StatusCode::OK);
    assert_eq!(bare["shipping_address"]["lati"], Value::Null);
    assert_documented("/users/{owner_id}/shipping_addresses.api", "post", &bare);
    let full = app
        .post(
            &path,
            &[
                ("shipping_address[street1]", "2 Side St"),
                ("shipping_address[name]", "Home"),
                ("shipping_address[street2]", "Apt 2"),
                ("shipping_address[city]", "Denver"),
                ("shipping_address[state]", "CO"),
                ("shipping_address[zipcode]", "80202"),
                ("shipping_address[country]", "us"),
                ("shipping_address[longi]", "-104.99"),
                ("shipping_address[lati]", "39.74"),
                ("shipping_address[email]", "home@example.com"),
                ("shipping_address[phone_number]", "555 0100"),
                ("default_address", "true"),
                ("created_by_id", &clerk.to_string()),
            ],
        )
        .await
        .into_body(StatusCode::OK);
    assert_eq!(full["shipping_address"]["lati"], "39.74");
    assert_documented("/users/{owner_id}/shipping_addresses.api", "post", &full);
    let page = app.get(&path).await.into_body(StatusCode::OK);
    assert_eq!(page["shipping_addresses"].as_array().unwrap().len(), 2);
    assert_documented("/users/{owner_id}/shipping_addresses.api", "get", &page);
    let default = app
        .get(&format!("{}/default_address.api", base(member)))
        .await
        .into_body(StatusCode::OK);
    assert_documented(
        "/users/{owner_id}/shipping_addresses/default_address.api",
        "get",
        &default,
    );
    let one = format!("{}/{}.api", base(member), full["shipping_address"]["id"]);
    let got = app.get(&one).await.into_body(StatusCode::OK);
    assert_documented("/users/{owner_id}/shipping_addresses/{id}.api", "get", &got);
    for method in ["put", "patch"] {
        let form = [("shipping_address[lati]", "null")];
        let res = match method {
            "put" => app.put(&one, &form).await,
            _ => app.patch(&one, &form).await,
        };
        let updated = res.into_body(StatusCode::OK);
        assert_documented(
            "/users/{owner_id}/shipping_addresses/{id}.api",
            method,
            &updated,
        );
    }
}
