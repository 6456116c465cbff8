//! Store listings (a rentrack extension): the record, its list and status, and the
//! spec's parameters that name a listing (orders' `user_listing_name`, members'
//! `user[user_listing_id]`).

use crate::common::{Kind, TestApp, assert_documented};
use axum::http::StatusCode;
use serde_json::json;

both!(
    answers_are_the_documented_record,
    create_read_update_and_list,
    bad_listings_are_refused_and_write_nothing,
    orders_and_members_name_real_listings,
    another_companys_listings_do_not_exist,
);

async fn create_read_update_and_list(kind: Kind) {
    let app = TestApp::new(kind).await;
    let res = app
        .post(
            "/listings.api",
            &[
                ("listing[name]", "Web shop"),
                ("listing[description]", "The online store"),
            ],
        )
        .await;
    let l = res.into_body(StatusCode::OK)["listing"].clone();
    assert_eq!(l["name"], "Web shop");
    assert_eq!(l["description"], "The online store");
    assert_eq!(l["status"], "active");
    assert_eq!(l["active"], true);
    let id = l["id"].as_i64().unwrap();
    let path = format!("/listings/{id}.api");
    assert_eq!(app.get(&path).await.into_body(StatusCode::OK)["listing"], l);
    // An update keeps what it leaves out; null clears the description.
    let u = app
        .patch(&path, &[("listing[description]", "null")])
        .await
        .into_body(StatusCode::OK)["listing"]
        .clone();
    assert_eq!(u["name"], "Web shop");
    assert_eq!(u["description"], serde_json::Value::Null);
    let u = app
        .put(&path, &[("listing[name]", "Online shop")])
        .await
        .into_body(StatusCode::OK)["listing"]
        .clone();
    assert_eq!(u["name"], "Online shop");
    // Deactivate and activate, by PUT or PATCH.
    let d = app
        .patch(&format!("/listings/{id}/deactivate.api"), &[])
        .await
        .into_body(StatusCode::OK)["listing"]
        .clone();
    assert_eq!(d["status"], "inactive");
    // 26 more: two pages; the status filter narrows.
    for i in 0..26 {
        app.listing(&format!("Shop {i:02}")).await;
    }
    let page = |q: &str| {
        let app = &app;
        let q = q.to_owned();
        async move {
            app.get(&format!("/listings.api?{q}"))
                .await
                .into_body(StatusCode::OK)
        }
    };
    let first = page("").await;
    assert_eq!(first["listings"].as_array().unwrap().len(), 25);
    assert_eq!(first["total_pages"], 2);
    assert_eq!(first["listings"][0]["id"], id);
    let second = page("page=2").await;
    assert_eq!(second["listings"].as_array().unwrap().len(), 2);
    let inactive = page("status=inactive").await;
    assert_eq!(inactive["listings"].as_array().unwrap().len(), 1);
    assert_eq!(inactive["total_pages"], 1);
    let active = page("status=active").await;
    assert_eq!(active["total_pages"], 2);
    assert_eq!(active["listings"].as_array().unwrap().len(), 25);
    let a = app
        .put(&format!("/listings/{id}/activate.api"), &[])
        .await
        .into_body(StatusCode::OK)["listing"]
        .clone();
    assert_eq!(a["status"], "active");
    assert_eq!(page("status=inactive").await["listings"], json!([]));
    let history = app
        .get("/listings.api?status=active&page=2")
        .await
        .into_body(StatusCode::OK);
    assert_eq!(history["listings"].as_array().unwrap().len(), 2);
}

async fn bad_listings_are_refused_and_write_nothing(kind: Kind) {
    let app = TestApp::new(kind).await;
    let id = app.listing("Counter").await;
    for (form, field) in [
        (vec![], "name"),
        (vec![("listing[name]", "")], "name"),
        (vec![("listing[name]", "Counter")], "name"),
        (vec![("listing[name]", "null")], "name"),
    ] {
        app.post("/listings.api", &form).await.expect_invalid(field);
    }
    app.listing("Web").await;
    let path = format!("/listings/{id}.api");
    app.patch(&path, &[("listing[name]", "null")])
        .await
        .expect_invalid("name");
    let res = app.patch(&path, &[("listing[name]", "Web")]).await;
    res.expect_invalid("name");
    assert_eq!(
        res.body["errors"]["name"][0],
        "has already been taken by another listing of this company"
    );
    app.get("/listings.api?status=closed")
        .await
        .expect_invalid("status");
    let list = app.get("/listings.api").await.into_body(StatusCode::OK);
    let names: Vec<&str> = list["listings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["Counter", "Web"], "nothing else was written");
}

async fn orders_and_members_name_real_listings(kind: Kind) {
    let app = TestApp::new(kind).await;
    let web = app.listing("Web").await;
    let closed = app.listing("Closed").await;
    app.patch(&format!("/listings/{closed}/deactivate.api"), &[])
        .await
        .expect(StatusCode::OK);
    let ann = app.customer("Ann", "Renter", &[]).await.to_string();
    for listing in ["Nowhere", "Closed"] {
        let res = app
            .post(
                "/baskets.api",
                &[
                    ("basket[customer_id]", &ann),
                    ("user_listing_name", listing),
                ],
            )
            .await;
        res.expect_invalid("user_listing_name");
    }
    assert_eq!(
        app.get("/baskets.api").await.into_body(StatusCode::OK)["baskets"],
        json!([]),
        "nothing was written"
    );
    let b = app
        .post(
            "/baskets.api",
            &[("basket[customer_id]", &ann), ("user_listing_name", "Web")],
        )
        .await
        .into_body(StatusCode::OK);
    assert_eq!(b["basket"]["user_listing_name"], "Web");
    let n = b["basket"]["sequence_num"].as_i64().unwrap();
    // Renaming the listing renames it on its orders.
    app.patch(
        &format!("/listings/{web}.api"),
        &[("listing[name]", "Web store")],
    )
    .await
    .expect(StatusCode::OK);
    let b = app
        .get(&format!("/baskets/{n}.api"))
        .await
        .into_body(StatusCode::OK);
    assert_eq!(b["basket"]["user_listing_name"], "Web store");
    // null unlinks.
    let b = app
        .patch(
            &format!("/baskets/{n}.api"),
            &[("user_listing_name", "null")],
        )
        .await
        .into_body(StatusCode::OK);
    assert_eq!(b["basket"]["user_listing_name"], serde_json::Value::Null);
    // A member's listing is a listing id of the company.
    for bad in ["L-12", "999999"] {
        app.post(
            "/members.api",
            &[
                ("user[email]", "bo@example.com"),
                ("user[first_name]", "Bo"),
                ("user[last_name]", "Clerk"),
                ("user[role_id]", "2"),
                ("user[user_listing_id]", bad),
            ],
        )
        .await
        .expect_invalid("user_listing_id");
    }
    let bo = app
        .member(
            "Bo",
            "Clerk",
            "bo@example.com",
            &[("user[user_listing_id]", &web.to_string())],
        )
        .await;
    let m = app
        .get(&format!("/members/{bo}.api"))
        .await
        .into_body(StatusCode::OK);
    assert_eq!(m["member"]["user_listing_id"], web.to_string());
}

async fn another_companys_listings_do_not_exist(kind: Kind) {
    let app = TestApp::new(kind).await;
    let other = TestApp::builder(kind).beside(&app).build().await;
    let theirs = other.listing("Theirs").await;
    for res in [
        app.get(&format!("/listings/{theirs}.api")).await,
        app.patch(
            &format!("/listings/{theirs}.api"),
            &[("listing[name]", "Mine")],
        )
        .await,
        app.patch(&format!("/listings/{theirs}/deactivate.api"), &[])
            .await,
        app.put(&format!("/listings/{theirs}/activate.api"), &[])
            .await,
    ] {
        res.expect(StatusCode::NOT_FOUND);
    }
    // Their listing's name is not one of ours, nor is its id.
    let ann = app.customer("Ann", "Renter", &[]).await.to_string();
    app.post(
        "/baskets.api",
        &[
            ("basket[customer_id]", &ann),
            ("user_listing_name", "Theirs"),
        ],
    )
    .await
    .expect_invalid("user_listing_name");
    app.get(&format!(
        "/assets/filter.api?status=my_user_listing&filter_param_val={theirs}"
    ))
    .await
    .expect_invalid("filter_param_val");
    assert_eq!(
        other
            .get(&format!("/listings/{theirs}.api"))
            .await
            .into_body(StatusCode::OK)["listing"]["name"],
        "Theirs"
    );
}

/// Every answer carrying a listing matches the document's `Listing`.
async fn answers_are_the_documented_record(kind: Kind) {
    let app = TestApp::new(kind).await;
    let created = app
        .post("/listings.api", &[("listing[name]", "Web shop")])
        .await
        .into_body(StatusCode::OK);
    assert_documented("/listings.api", "post", &created);
    let path = format!("/listings/{}.api", created["listing"]["id"]);
    assert_documented(
        "/listings/{id}.api",
        "get",
        &app.get(&path).await.into_body(StatusCode::OK),
    );
    let updated = app
        .put(&path, &[("listing[description]", "The online store")])
        .await
        .into_body(StatusCode::OK);
    assert_documented("/listings/{id}.api", "put", &updated);
    let id = created["listing"]["id"].as_i64().unwrap();
    for action in ["deactivate", "activate"] {
        let answer = app
            .put(&format!("/listings/{id}/{action}.api"), &[])
            .await
            .into_body(StatusCode::OK);
        assert_documented(&format!("/listings/{{id}}/{action}.api"), "put", &answer);
    }
    let page = app.get("/listings.api").await.into_body(StatusCode::OK);
    assert_eq!(page["listings"].as_array().unwrap().len(), 1);
    assert_documented("/listings.api", "get", &page);
}
