use crate::common::{Kind, TestApp, assert_documented, assert_keys_documented};
use axum::http::StatusCode;
use serde_json::{Value, json};

both!(
    answers_are_the_documented_record,
    create_with_every_field_and_read,
    create_validates_name_email_and_attribute_names,
    list_wraps_each_vendor_and_pages_at_25,
    include_custom_fields_adds_top_level_keys,
    update_keeps_clears_and_merges,
    other_companies_cannot_see_or_touch_a_vendor,
    short_names_are_names,
);

/// Creates a vendor and returns its id.
async fn vendor(app: &TestApp, name: &str, extra: &[(&str, &str)]) -> i64 {
    let mut form = vec![("vendor[name]", name)];
    form.extend_from_slice(extra);
    let res = app.post("/vendors.api", &form).await;
    res.expect(StatusCode::OK)["vendor"]["id"]
        .as_i64()
        .expect("id")
}

/// Names of the vendors on the first page of the list.
async fn vendor_names(app: &TestApp) -> Vec<String> {
    let res = app.get("/assets/vendors.api").await;
    res.expect(StatusCode::OK)["vendors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["vendor"]["name"].as_str().unwrap().to_owned())
        .collect()
}

/// The custom fields the vendor tests use.
async fn vendor_fields(app: &TestApp) {
    app.custom_field("Serial Prefix", "text", &["vendors"], &[])
        .await;
    app.custom_field(
        "Tier",
        "dropdown",
        &["vendors", "members"],
        &["Gold", "Silver"],
    )
    .await;
    app.custom_field("email", "email", &["vendors"], &[]).await;
    app.custom_field("Payment Terms", "text", &["vendors"], &[])
        .await;
    app.custom_field("Badge Number", "number", &["members"], &[])
        .await;
}

async fn create_with_every_field_and_read(kind: Kind) {
    let app = TestApp::new(kind).await;
    vendor_fields(&app).await;
    let res = app
        .post(
            "/vendors.api",
            &[
                ("vendor[name]", "Acme Supply"),
                ("vendor[description]", "Everything for the coyote"),
                ("vendor[website]", "https://acme.example"),
                ("vendor[address]", "1 Desert Rd, Phoenix AZ"),
                ("vendor[contact_person_name]", "Wile E. Coyote"),
                ("vendor[email]", "orders@acme.example"),
                ("vendor[phone_number]", "+1 555 0100"),
                ("vendor[fax]", "+1 555 0101"),
                ("vendor[custom_attributes][Serial_Prefix]", "SN"),
            ],
        )
        .await;
    let v = res.expect(StatusCode::OK)["vendor"].clone();
    assert_eq!(v["name"], "Acme Supply");
    assert_eq!(v["description"], "Everything for the coyote");
    assert_eq!(v["website"], "https://acme.example");
    assert_eq!(v["address"], "1 Desert Rd, Phoenix AZ");
    assert_eq!(v["contact_person_name"], "Wile E. Coyote");
    assert_eq!(v["email"], "orders@acme.example");
    assert_eq!(v["phone_number"], "+1 555 0100");
    assert_eq!(v["fax"], "+1 555 0101");
    assert_eq!(
        v["custom_attributes"],
        json!({"Serial Prefix": "SN"}),
        "underscores stand for spaces"
    );
    assert_eq!(v["created_at"].as_str().unwrap().len(), 19);
    let id = v["id"].as_i64().unwrap();

    let details = app
        .get(&format!("/vendors/{id}.api?include_custom_fields=true"))
        .await;
    assert_eq!(details.expect(StatusCode::OK)["vendor"], v);
    let plain = app.get(&format!("/vendors/{id}.api")).await;
    let plain = &plain.expect(StatusCode::OK)["vendor"];
    assert_eq!(plain["custom_attributes"], json!({"Serial Prefix": "SN"}));
    assert!(
        plain.get("Serial Prefix").is_none(),
        "custom fields are top-level keys only when asked: {plain}"
    );

    // Only the name is needed; optional fields come back null.
    let res = app
        .post(
            "/vendors.api",
            &[("vendor[name]", "Bare Bones"), ("vendor[website]", "")],
        )
        .await;
    let bare = &res.expect(StatusCode::OK)["vendor"];
    for field in [
        "description",
        "website",
        "address",
        "contact_person_name",
        "email",
        "phone_number",
        "fax",
    ] {
        assert_eq!(bare[field], Value::Null, "{field}");
    }
    assert_eq!(bare["custom_attributes"], json!({}));

    app.get("/vendors/999999.api")
        .await
        .expect(StatusCode::NOT_FOUND);
    app.get("/vendors/abc.api")
        .await
        .expect(StatusCode::NOT_FOUND);
    app.put("/vendors/999999.api", &[("vendor[name]", "Nobody")])
        .await
        .expect(StatusCode::NOT_FOUND);
}

async fn create_validates_name_email_and_attribute_names(kind: Kind) {
    let app = TestApp::new(kind).await;
    for bad in [
        "not-an-email",
        "no@dot",
        "@acme.example",
        "two words@acme.example",
    ] {
        app.post(
            "/vendors.api",
            &[("vendor[name]", "Acme Supply"), ("vendor[email]", bad)],
        )
        .await
        .expect_invalid("email");
    }
    app.post("/vendors.api", &[]).await.expect_invalid("name");
    app.post("/vendors.api", &[("vendor[email]", "a@b.example")])
        .await
        .expect_invalid("name");
    app.post("/vendors.api", &[("vendor[name]", &"x".repeat(256))])
        .await
        .expect_invalid("name");
    app.post("/vendors.api", &[("vendor[name]", "   ")])
        .await
        .expect_invalid("name");
    app.post(
        "/vendors.api",
        &[
            ("vendor[name]", "Acme Supply"),
            ("vendor[custom_attributes][_]", "x"),
        ],
    )
    .await
    .expect_invalid("custom_attributes[_]");
    // Values are checked against the company's custom fields for vendors.
    vendor_fields(&app).await;
    let unknown = app
        .post(
            "/vendors.api",
            &[
                ("vendor[name]", "Acme Supply"),
                ("vendor[custom_attributes][Colour]", "red"),
            ],
        )
        .await;
    unknown.expect_invalid("custom_attributes[Colour]");
    app.post(
        "/vendors.api",
        &[
            ("vendor[name]", "Acme Supply"),
            ("vendor[custom_attributes][Badge_Number]", "12"),
        ],
    )
    .await
    .expect_invalid("custom_attributes[Badge_Number]");
    app.post(
        "/vendors.api",
        &[
            ("vendor[name]", "Acme Supply"),
            ("vendor[custom_attributes][Tier]", "Bronze"),
        ],
    )
    .await
    .expect_invalid("custom_attributes[Tier]");
    app.post(
        "/vendors.api",
        &[
            ("vendor[name]", "Acme Supply"),
            ("vendor[custom_attributes][email]", "nope"),
        ],
    )
    .await
    .expect_invalid("custom_attributes[email]");
    let long = "x".repeat(2001);
    app.post(
        "/vendors.api",
        &[("vendor[name]", "Acme Supply"), ("vendor[address]", &long)],
    )
    .await
    .expect_invalid("address");

    // One 422 names every bad field.
    let res = app
        .post(
            "/vendors.api",
            &[
                ("vendor[name]", &"x".repeat(256)),
                ("vendor[email]", "nope"),
            ],
        )
        .await;
    res.expect_invalid("name");
    res.expect_invalid("email");

    // Nothing was written by the refused requests.
    assert!(vendor_names(&app).await.is_empty());
}

async fn list_wraps_each_vendor_and_pages_at_25(kind: Kind) {
    let app = TestApp::new(kind).await;
    let empty = app.get("/assets/vendors.api").await;
    assert_eq!(empty.expect(StatusCode::OK)["vendors"], json!([]));

    let mut ids = Vec::new();
    for i in 0..26 {
        ids.push(vendor(&app, &format!("Vendor {i:02}"), &[]).await);
    }
    let res = app.get("/assets/vendors.api").await;
    let body = res.expect(StatusCode::OK);
    let items = body["vendors"].as_array().unwrap();
    assert_eq!(items.len(), 25);
    assert_eq!(body["total_pages"], 2);
    assert_eq!(body["current_page"], 1);
    for (item, id) in items.iter().zip(&ids) {
        assert_eq!(
            item.as_object().unwrap().len(),
            1,
            "each element is wrapped once as {{\"vendor\": ...}}: {item}"
        );
        assert_eq!(item["vendor"]["id"], *id);
    }
    let page2 = app.get("/assets/vendors.api?page=2").await;
    let body = page2.expect(StatusCode::OK);
    assert_eq!(body["vendors"].as_array().unwrap().len(), 1);
    assert_eq!(body["vendors"][0]["vendor"]["name"], "Vendor 25");
    assert_eq!(body["current_page"], 2);
    let past = app.get("/assets/vendors.api?page=5").await;
    assert_eq!(past.expect(StatusCode::OK)["vendors"], json!([]));
    assert_eq!(past.body["total_pages"], 2);

    app.get("/assets/vendors.api?page=0")
        .await
        .expect_invalid("page");
    app.get("/assets/vendors.api?include_custom_fields=maybe")
        .await
        .expect_invalid("include_custom_fields");
}

async fn include_custom_fields_adds_top_level_keys(kind: Kind) {
    let app = TestApp::new(kind).await;
    vendor_fields(&app).await;
    let id = vendor(
        &app,
        "Acme Supply",
        &[
            ("vendor[email]", "orders@acme.example"),
            ("vendor[custom_attributes][Serial_Prefix]", "SN"),
            ("vendor[custom_attributes][Tier]", "Gold"),
            // A custom field named like a standard one never hides the standard value.
            (
                "vendor[custom_attributes][email]",
                "custom@elsewhere.example",
            ),
        ],
    )
    .await;

    let res = app
        .get("/assets/vendors.api?include_custom_fields=true")
        .await;
    let v = &res.expect(StatusCode::OK)["vendors"][0]["vendor"];
    assert_eq!(v["id"], id);
    assert_eq!(v["Serial Prefix"], "SN");
    assert_eq!(v["Tier"], "Gold");
    assert_eq!(v["email"], "orders@acme.example");
    assert_eq!(v["custom_attributes"]["email"], "custom@elsewhere.example");

    for query in [
        "",
        "?include_custom_fields=false",
        "?include_custom_fields=0",
    ] {
        let res = app.get(&format!("/assets/vendors.api{query}")).await;
        let v = &res.expect(StatusCode::OK)["vendors"][0]["vendor"];
        assert!(
            v.get("Serial Prefix").is_none() && v.get("Tier").is_none(),
            "{query}: {v}"
        );
        assert_eq!(
            v["custom_attributes"],
            json!({"Serial Prefix": "SN", "Tier": "Gold", "email": "custom@elsewhere.example"})
        );
    }
    let res = app
        .get(&format!("/vendors/{id}.api?include_custom_fields=1"))
        .await;
    assert_eq!(res.expect(StatusCode::OK)["vendor"]["Tier"], "Gold");
}

async fn update_keeps_clears_and_merges(kind: Kind) {
    let app = TestApp::new(kind).await;
    vendor_fields(&app).await;
    let id = vendor(
        &app,
        "Acme Supply",
        &[
            ("vendor[description]", "Everything"),
            ("vendor[website]", "https://acme.example"),
            ("vendor[email]", "orders@acme.example"),
            ("vendor[phone_number]", "555 0100"),
            ("vendor[custom_attributes][Serial_Prefix]", "SN"),
            ("vendor[custom_attributes][Tier]", "Gold"),
        ],
    )
    .await;
    let path = format!("/vendors/{id}.api");
    let before = app.get(&path).await.body["vendor"].clone();

    // Refused updates change nothing.
    app.put(&path, &[("vendor[name]", &"x".repeat(256))])
        .await
        .expect_invalid("name");
    app.put(
        &path,
        &[
            ("vendor[email]", "not-an-email"),
            ("vendor[fax]", "555 0199"),
        ],
    )
    .await
    .expect_invalid("email");
    assert_eq!(
        app.get(&path).await.body["vendor"],
        before,
        "refused updates changed nothing"
    );

    // The name may be left out on update; fields left out are kept.
    let res = app
        .put(
            &path,
            &[
                ("vendor[fax]", "555 0199"),
                ("vendor[address]", "1 Desert Rd"),
            ],
        )
        .await;
    let v = &res.expect(StatusCode::OK)["vendor"];
    assert_eq!(v["name"], "Acme Supply");
    assert_eq!(v["fax"], "555 0199");
    assert_eq!(v["address"], "1 Desert Rd");
    assert_eq!(v["description"], "Everything");
    assert_eq!(v["website"], "https://acme.example");
    assert_eq!(v["email"], "orders@acme.example");
    assert_eq!(v["phone_number"], "555 0100");
    assert_eq!(
        v["custom_attributes"],
        json!({"Serial Prefix": "SN", "Tier": "Gold"})
    );
    assert_eq!(v["created_at"], before["created_at"]);

    // `null` clears one field; custom attributes merge (set, keep, clear).
    let res = app
        .put(
            &path,
            &[
                ("vendor[name]", "Acme Supply Co"),
                ("vendor[website]", "null"),
                ("vendor[custom_attributes][Tier]", "null"),
                ("vendor[custom_attributes][Payment_Terms]", "Net 30"),
                ("vendor[custom_attributes][Serial_Prefix]", ""),
            ],
        )
        .await;
    let v = &res.expect(StatusCode::OK)["vendor"];
    assert_eq!(v["name"], "Acme Supply Co");
    assert_eq!(v["website"], Value::Null);
    assert_eq!(
        v["description"], "Everything",
        "only the named field is cleared"
    );
    assert_eq!(
        v["custom_attributes"],
        json!({"Serial Prefix": "SN", "Payment Terms": "Net 30"})
    );

    let res = app.get(&format!("{path}?include_custom_fields=true")).await;
    let stored = &res.expect(StatusCode::OK)["vendor"];
    assert_eq!(stored, v);
    assert_eq!(stored["Payment Terms"], "Net 30");
    assert!(stored.get("Tier").is_none());

    app.put("/vendors/424242.api", &[("vendor[name]", "Nobody")])
        .await
        .expect(StatusCode::NOT_FOUND);
    app.put("/vendors/abc.api", &[("vendor[fax]", "1")])
        .await
        .expect(StatusCode::NOT_FOUND);
}

async fn other_companies_cannot_see_or_touch_a_vendor(kind: Kind) {
    let a = TestApp::new(kind).await;
    let b = TestApp::builder(kind).beside(&a).build().await;
    vendor_fields(&a).await;
    vendor_fields(&b).await;
    let id = vendor(
        &a,
        "Secret Supplier",
        &[("vendor[custom_attributes][Tier]", "Gold")],
    )
    .await;
    let path = format!("/vendors/{id}.api");
    let before = a.get(&path).await.body["vendor"].clone();

    b.get(&path).await.expect(StatusCode::NOT_FOUND);
    b.get(&format!("{path}?include_custom_fields=true"))
        .await
        .expect(StatusCode::NOT_FOUND);
    b.put(
        &path,
        &[
            ("vendor[name]", "Hijacked"),
            ("vendor[custom_attributes][Tier]", "null"),
        ],
    )
    .await
    .expect(StatusCode::NOT_FOUND);
    // Vendors have no delete in the spec; a DELETE from another company removes nothing,
    // and its refusal is JSON like every failure.
    let res = b.delete(&path).await;
    assert!(
        matches!(
            res.status,
            StatusCode::NOT_FOUND | StatusCode::METHOD_NOT_ALLOWED
        ),
        "{} {}",
        res.status,
        res.text
    );
    assert!(
        res.body["message"].is_string(),
        "every failure is JSON with a message: {} {:?}",
        res.status,
        res.text
    );
    assert!(
        vendor_names(&b).await.is_empty(),
        "another company's vendor is not listed"
    );

    vendor(&b, "Their Supplier", &[]).await;
    assert_eq!(vendor_names(&b).await, vec!["Their Supplier".to_owned()]);
    assert_eq!(vendor_names(&a).await, vec!["Secret Supplier".to_owned()]);
    assert_eq!(
        a.get(&path).await.expect(StatusCode::OK)["vendor"],
        before,
        "untouched by the other company"
    );
}

/// Only assets, groups and subgroups need three characters: "3M" is a vendor,
/// trimmed, on create and on update.
async fn short_names_are_names(kind: Kind) {
    let app = TestApp::new(kind).await;
    let id = vendor(&app, " 3M ", &[]).await;
    let path = format!("/vendors/{id}.api");
    assert_eq!(app.get(&path).await.body["vendor"]["name"], "3M");
    let res = app.put(&path, &[("vendor[name]", "HP")]).await;
    assert_eq!(res.expect(StatusCode::OK)["vendor"]["name"], "HP");
    assert_eq!(vendor_names(&app).await, vec!["HP"]);
}

/// Every answer is the documented `Vendor`: with and without its optional fields, with
/// custom fields as keys (`include_custom_fields`) or not, alone and on a page.
async fn answers_are_the_documented_record(kind: Kind) {
    let app = TestApp::new(kind).await;
    vendor_fields(&app).await;
    let bare = app
        .post("/vendors.api", &[("vendor[name]", "Bare")])
        .await
        .into_body(StatusCode::OK);
    assert_documented("/vendors.api", "post", &bare);
    assert_keys_documented("Vendor", &bare["vendor"], &[]);
    let full = app
        .post(
            "/vendors.api",
            &[
                ("vendor[name]", "Acme Supply"),
                ("vendor[description]", "Cables"),
                ("vendor[website]", "https://acme.example"),
                ("vendor[address]", "1 Main St"),
                ("vendor[contact_person_name]", "Ann Lee"),
                ("vendor[email]", "orders@acme.example"),
                ("vendor[phone_number]", "555 0100"),
                ("vendor[fax]", "555 0101"),
                ("vendor[custom_attributes][Serial_Prefix]", "SN"),
                ("vendor[custom_attributes][Tier]", "Gold"),
                (
                    "vendor[custom_attributes][email]",
                    "custom@elsewhere.example",
                ),
            ],
        )
        .await
        .into_body(StatusCode::OK);
    assert_documented("/vendors.api", "post", &full);
    assert_eq!(
        full["vendor"]["Tier"], "Gold",
        "created with its fields as keys"
    );
    assert_keys_documented("Vendor", &full["vendor"], &["Serial Prefix", "Tier"]);
    let id = full["vendor"]["id"].as_i64().unwrap();
    for query in ["", "?include_custom_fields=true"] {
        let one = app
            .get(&format!("/vendors/{id}.api{query}"))
            .await
            .into_body(StatusCode::OK);
        assert_documented("/vendors/{id}.api", "get", &one);
        assert_keys_documented("Vendor", &one["vendor"], &["Serial Prefix", "Tier"]);
        let page = app
            .get(&format!("/assets/vendors.api{query}"))
            .await
            .into_body(StatusCode::OK);
        assert_documented("/assets/vendors.api", "get", &page);
        let vendors = page["vendors"].as_array().unwrap();
        assert_eq!(vendors.len(), 2);
        for v in vendors {
            assert_keys_documented("Vendor", &v["vendor"], &["Serial Prefix", "Tier"]);
        }
    }
    for method in ["put", "patch"] {
        let form = [("vendor[website]", "null")];
        let path = format!("/vendors/{id}.api");
        let res = match method {
            "put" => app.put(&path, &form).await,
            _ => app.patch(&path, &form).await,
        };
        let updated = res.into_body(StatusCode::OK);
        assert_eq!(updated["vendor"]["website"], Value::Null);
        assert_documented("/vendors/{id}.api", method, &updated);
    }
}
