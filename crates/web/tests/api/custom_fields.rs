//! Custom fields (a rentrack extension) and how values given for them are checked.

use crate::common::{Kind, TestApp, assert_documented};
use axum::http::StatusCode;
use serde_json::{Value, json};

both!(
    fields_are_created_listed_read_updated_and_deleted,
    definitions_are_validated,
    values_are_checked_against_type_and_options,
    renaming_keeps_values_and_deleting_drops_them,
    options_keep_their_ids_across_updates,
    a_field_named_like_a_records_own_key_never_replaces_it,
    other_companies_cannot_see_touch_or_use_fields,
    concurrent_value_changes_are_all_kept,
    answers_are_the_documented_record,
);

async fn fields_are_created_listed_read_updated_and_deleted(kind: Kind) {
    let app = TestApp::new(kind).await;
    let field = app
        .custom_field(
            "Condition",
            "dropdown",
            &["fixed_assets", "inventory"],
            &["New", "Used", "Broken"],
        )
        .await;
    assert_eq!(field["name"], "Condition");
    assert_eq!(field["field_type"], "dropdown");
    assert_eq!(field["applies_to"], json!(["fixed_assets", "inventory"]));
    let options = field["options"].as_array().unwrap();
    assert_eq!(
        options
            .iter()
            .map(|o| o["name"].as_str().unwrap())
            .collect::<Vec<_>>(),
        vec!["New", "Used", "Broken"]
    );
    assert!(
        options.iter().all(|o| o["id"].as_i64().unwrap() > 0),
        "options carry ids for item_custom_attribute_values"
    );
    let id = field["id"].as_i64().unwrap();
    let path = format!("/custom_fields/{id}.api");
    assert_eq!(
        app.get(&path).await.expect(StatusCode::OK)["custom_field"],
        field
    );

    // One field may apply to several kinds, given as a list or one comma-separated value.
    let notes = app
        .post(
            "/custom_fields.api",
            &[
                ("custom_field[name]", "Notes"),
                ("custom_field[field_type]", "Text Area"),
                ("custom_field[applies_to]", "members,vendors,orders"),
            ],
        )
        .await;
    let notes = notes.expect(StatusCode::OK)["custom_field"].clone();
    assert_eq!(notes["field_type"], "text_area");
    assert_eq!(notes["applies_to"], json!(["members", "vendors", "orders"]));
    assert_eq!(notes["options"], json!([]));

    let list = app.get("/custom_fields.api").await;
    let body = list.expect(StatusCode::OK);
    assert_eq!(body["custom_fields"], json!([field, notes]));
    assert_eq!(body["total_pages"], 1);

    let res = app
        .put(
            &path,
            &[
                ("custom_field[name]", "State"),
                ("custom_field[applies_to][]", "asset_stock"),
            ],
        )
        .await;
    let updated = &res.expect(StatusCode::OK)["custom_field"];
    assert_eq!(updated["name"], "State");
    assert_eq!(updated["applies_to"], json!(["asset_stock"]));
    assert_eq!(
        updated["options"], field["options"],
        "options left out are kept"
    );

    let res = app.delete(&path).await;
    assert_eq!(res.expect(StatusCode::OK)["custom_field"]["name"], "State");
    app.get(&path).await.expect(StatusCode::NOT_FOUND);
    app.delete(&path).await.expect(StatusCode::NOT_FOUND);
    app.put(&path, &[("custom_field[name]", "Back")])
        .await
        .expect(StatusCode::NOT_FOUND);
}

async fn definitions_are_validated(kind: Kind) {
    let app = TestApp::new(kind).await;
    let post = |form: Vec<(&'static str, &'static str)>| {
        let app = &app;
        async move { app.post("/custom_fields.api", &form).await }
    };
    let ok = vec![
        ("custom_field[name]", "Serial"),
        ("custom_field[field_type]", "text"),
        ("custom_field[applies_to][]", "members"),
    ];
    let without = |field: &str| {
        ok.iter()
            .copied()
            .filter(|(f, _)| *f != field)
            .collect::<Vec<_>>()
    };
    post(without("custom_field[name]"))
        .await
        .expect_invalid("name");
    post(without("custom_field[field_type]"))
        .await
        .expect_invalid("field_type");
    post(without("custom_field[applies_to][]"))
        .await
        .expect_invalid("applies_to");
    let mut bad_type = without("custom_field[field_type]");
    bad_type.push(("custom_field[field_type]", "colour"));
    post(bad_type).await.expect_invalid("field_type");
    let mut bad_target = without("custom_field[applies_to][]");
    bad_target.push(("custom_field[applies_to][]", "spaceships"));
    post(bad_target).await.expect_invalid("applies_to");
    let mut options_on_text = ok.clone();
    options_on_text.push(("custom_field[options][]", "A"));
    let res = post(options_on_text).await;
    res.expect_invalid("options");
    assert_eq!(
        res.body["errors"]["options"],
        json!(["are only for dropdown and checkbox fields, not text"])
    );
    let dropdown = vec![
        ("custom_field[name]", "Size"),
        ("custom_field[field_type]", "dropdown"),
        ("custom_field[applies_to][]", "members"),
    ];
    let res = post(dropdown.clone()).await;
    res.expect_invalid("options");
    assert_eq!(
        res.body["errors"]["options"],
        json!(["can't be blank for a dropdown or checkbox field"])
    );
    let mut twice = dropdown.clone();
    twice.extend([
        ("custom_field[options][]", "Small"),
        ("custom_field[options][]", "small"),
    ]);
    post(twice).await.expect_invalid("options");
    let mut comma = dropdown.clone();
    comma.push(("custom_field[options][]", "Small, really"));
    post(comma).await.expect_invalid("options");
    assert_eq!(
        app.get("/custom_fields.api").await.body["custom_fields"],
        json!([]),
        "refused requests wrote nothing"
    );

    // Names are unique in the company, case, spaces and underscores aside.
    post(ok.clone()).await.expect(StatusCode::OK);
    for same in ["serial", "SERIAL", " Serial "] {
        let mut again = without("custom_field[name]");
        again.push(("custom_field[name]", same));
        post(again).await.expect_invalid("name");
    }
    let mut spaced = without("custom_field[name]");
    spaced.push(("custom_field[name]", "Serial Number"));
    let id = post(spaced).await.expect(StatusCode::OK)["custom_field"]["id"]
        .as_i64()
        .unwrap();
    let mut underscored = without("custom_field[name]");
    underscored.push(("custom_field[name]", "serial_number"));
    let res = post(underscored).await;
    res.expect_invalid("name");
    let taken = json!({"name": ["has already been taken (names differing only in case, spaces or underscores count as the same)"]});
    assert_eq!(res.body["errors"], taken);
    // Renaming onto a name in use is refused alike.
    let res = app
        .put(
            &format!("/custom_fields/{id}.api"),
            &[("custom_field[name]", "SERIAL")],
        )
        .await;
    res.expect_invalid("name");
    assert_eq!(res.body["errors"], taken);

    // The type cannot change; options only for dropdown and checkbox; never emptied.
    let path = format!("/custom_fields/{id}.api");
    let res = app
        .put(&path, &[("custom_field[field_type]", "number")])
        .await;
    res.expect_invalid("field_type");
    assert_eq!(
        res.body["errors"]["field_type"],
        json!(["can't be changed (it is text); create a new field instead"])
    );
    let res = app.put(&path, &[("custom_field[options][]", "A")]).await;
    res.expect_invalid("options");
    assert_eq!(
        res.body["errors"]["options"],
        json!(["are only for dropdown and checkbox fields, not text"])
    );
    app.put(&path, &[("custom_field[applies_to][]", "nowhere")])
        .await
        .expect_invalid("applies_to");
    app.put(&path, &[("custom_field[name]", "SERIAL")])
        .await
        .expect_invalid("name");
    let mut list = dropdown.clone();
    list.push(("custom_field[options][]", "Small"));
    let size = post(list).await.expect(StatusCode::OK)["custom_field"]["id"]
        .as_i64()
        .unwrap();
    let res = app
        .put(
            &format!("/custom_fields/{size}.api"),
            &[("custom_field[options][]", "")],
        )
        .await;
    res.expect_invalid("options");
    assert_eq!(
        res.body["errors"]["options"],
        json!(["can't be empty for a dropdown or checkbox field"])
    );
    app.put(
        &format!("/custom_fields/{size}.api"),
        &[("custom_field[field_type]", "dropdown")],
    )
    .await
    .expect(StatusCode::OK);
}

async fn values_are_checked_against_type_and_options(kind: Kind) {
    let app = TestApp::new(kind).await;
    for (name, field_type, options) in [
        ("Badge", "number", &[][..]),
        ("Hired On", "date", &[]),
        ("Shirt", "dropdown", &["S", "M", "L"]),
        ("Skills", "checkbox", &["Forklift", "Crane", "Rigging"]),
        ("Backup Email", "email", &[]),
        ("Profile", "url", &[]),
        ("Bio", "text_area", &[]),
    ] {
        app.custom_field(name, field_type, &["members"], options)
            .await;
    }
    let shirt = app.get("/custom_fields.api").await.body["custom_fields"][2]["options"][2]["id"]
        .to_string();
    let id = app.member("Jane", "Doe", "jane@example.com", &[]).await;
    let base = [
        ("user[email]", "jane@example.com"),
        ("user[first_name]", "Jane"),
        ("user[last_name]", "Doe"),
        ("user[role_id]", "2"),
    ];
    let put = |extra: Vec<(&'static str, String)>| {
        let app = &app;
        async move {
            let mut form: Vec<(&str, &str)> = base.to_vec();
            form.extend(extra.iter().map(|(k, v)| (*k, v.as_str())));
            app.put(&format!("/members/{id}.api"), &form).await
        }
    };
    for (field, bad) in [
        ("Badge", "12 units"),
        ("Hired_On", "31/31/2024"),
        ("Shirt", "XL"),
        ("Skills", "Forklift, Welding"),
        ("Backup_Email", "jane-at-home"),
        ("Profile", "not a url"),
    ] {
        let key: &'static str =
            Box::leak(format!("user[custom_attributes][{field}]").into_boxed_str());
        put(vec![(key, bad.to_owned())])
            .await
            .expect_invalid(&format!("custom_attributes[{field}]"));
    }
    let res = put(vec![
        ("user[custom_attributes][Badge]", "1.50".into()),
        ("user[custom_attributes][Hired_On]", "03/04/2024".into()),
        ("user[custom_attributes][Shirt]", shirt),
        (
            "user[custom_attributes][Skills]",
            "rigging, Forklift".into(),
        ),
        (
            "user[custom_attributes][Backup_Email]",
            "jane@home.example".into(),
        ),
        (
            "user[custom_attributes][Profile]",
            "https://example.com/jane".into(),
        ),
        ("user[custom_attributes][bio]", "Line one\nLine two".into()),
    ])
    .await;
    let values = &res.expect(StatusCode::OK)["member"]["custom_attributes"];
    assert_eq!(
        values,
        &json!({
            "Badge": "1.5",
            "Hired On": "2024-03-04",
            "Shirt": "L",
            "Skills": "Forklift, Rigging",
            "Backup Email": "jane@home.example",
            "Profile": "https://example.com/jane",
            "Bio": "Line one\nLine two",
        }),
        "dates as YYYY-MM-DD, options by name in the field's order"
    );
    // null clears one value; empty keeps it.
    let res = put(vec![
        ("user[custom_attributes][Badge]", "null".into()),
        ("user[custom_attributes][Shirt]", "".into()),
    ])
    .await;
    let values = &res.expect(StatusCode::OK)["member"]["custom_attributes"];
    assert!(values.get("Badge").is_none());
    assert_eq!(values["Shirt"], "L");
}

async fn renaming_keeps_values_and_deleting_drops_them(kind: Kind) {
    let app = TestApp::new(kind).await;
    let field = app
        .custom_field("Tier", "dropdown", &["vendors"], &["Gold", "Silver"])
        .await;
    let res = app
        .post(
            "/vendors.api",
            &[
                ("vendor[name]", "Acme Supply"),
                ("vendor[custom_attributes][Tier]", "gold"),
            ],
        )
        .await;
    let vendor = res.expect(StatusCode::OK)["vendor"]["id"].as_i64().unwrap();
    let path = format!("/custom_fields/{}.api", field["id"]);
    app.put(
        &path,
        &[
            ("custom_field[name]", "Level"),
            ("custom_field[options][]", "Platinum"),
            ("custom_field[options][]", "GOLD"),
        ],
    )
    .await
    .expect(StatusCode::OK);
    let v = app
        .get(&format!("/vendors/{vendor}.api?include_custom_fields=true"))
        .await;
    let v = &v.expect(StatusCode::OK)["vendor"];
    assert_eq!(
        v["custom_attributes"],
        json!({"Level": "Gold"}),
        "the value follows the renamed field"
    );
    assert_eq!(v["Level"], "Gold");
    // A field that stops applying to vendors no longer shows, and cannot be set.
    app.put(&path, &[("custom_field[applies_to][]", "members")])
        .await
        .expect(StatusCode::OK);
    let v = app.get(&format!("/vendors/{vendor}.api")).await;
    assert_eq!(v.body["vendor"]["custom_attributes"], json!({}));
    app.put(
        &format!("/vendors/{vendor}.api"),
        &[("vendor[custom_attributes][Level]", "Gold")],
    )
    .await
    .expect_invalid("custom_attributes[Level]");
    app.put(&path, &[("custom_field[applies_to][]", "vendors")])
        .await
        .expect(StatusCode::OK);
    let v = app.get(&format!("/vendors/{vendor}.api")).await;
    assert_eq!(
        v.body["vendor"]["custom_attributes"],
        json!({"Level": "Gold"})
    );
    app.delete(&path).await.expect(StatusCode::OK);
    let v = app
        .get(&format!("/vendors/{vendor}.api?include_custom_fields=true"))
        .await;
    let v = &v.expect(StatusCode::OK)["vendor"];
    assert_eq!(v["custom_attributes"], json!({}));
    assert!(v.get("Level").is_none());
    // A new field with the old name starts empty.
    app.custom_field("Level", "text", &["vendors"], &[]).await;
    let v = app.get(&format!("/vendors/{vendor}.api")).await;
    assert_eq!(v.body["vendor"]["custom_attributes"], json!({}));
}

/// With `include_custom_fields`, values are top-level keys too, but the record's own
/// keys win: a field named `email` (or `custom_attributes`) neither replaces nor
/// repeats them in the text of the answer, on a page or on one record.
async fn a_field_named_like_a_records_own_key_never_replaces_it(kind: Kind) {
    let app = TestApp::new(kind).await;
    app.custom_field("email", "text", &["members"], &[]).await;
    app.custom_field("custom_attributes", "text", &["members"], &[])
        .await;
    app.custom_field("Badge", "text", &["members"], &[]).await;
    let res = app
        .post(
            "/members.api",
            &[
                ("user[email]", "kim@example.com"),
                ("user[first_name]", "Kim"),
                ("user[last_name]", "Lee"),
                ("user[role_id]", "2"),
                ("user[custom_attributes][email]", "not-an-address"),
                ("user[custom_attributes][custom_attributes]", "nested?"),
                ("user[custom_attributes][Badge]", "B-7"),
            ],
        )
        .await;
    let id = res.expect(StatusCode::OK)["member"]["id"].as_i64().unwrap();
    for path in [
        format!("/members/{id}.api?include_custom_fields=true"),
        "/members.api?include_custom_fields=true&filter=email&filter_val=kim%40example.com"
            .to_owned(),
    ] {
        let res = app.get(&path).await;
        let body = res.expect(StatusCode::OK);
        let m = body.get("member").unwrap_or_else(|| &body["members"][0]);
        assert_eq!(m["email"], "kim@example.com", "{path}");
        assert_eq!(m["Badge"], "B-7", "{path}");
        assert_eq!(
            m["custom_attributes"],
            json!({"email": "not-an-address", "custom_attributes": "nested?", "Badge": "B-7"}),
            "{path}"
        );
        assert_eq!(
            res.text.matches("\"email\":").count(),
            2,
            "{path}: {}",
            res.text
        );
        assert_eq!(
            res.text.matches("\"custom_attributes\":").count(),
            2,
            "{path}: {}",
            res.text
        );
    }
}

async fn options_keep_their_ids_across_updates(kind: Kind) {
    let app = TestApp::new(kind).await;
    let field = app
        .custom_field(
            "Size",
            "checkbox",
            &["members"],
            &["Small", "Medium", "Large"],
        )
        .await;
    let ids: Vec<i64> = field["options"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["id"].as_i64().unwrap())
        .collect();
    let path = format!("/custom_fields/{}.api", field["id"]);
    let res = app
        .put(
            &path,
            &[
                ("custom_field[options][]", "Large"),
                ("custom_field[options][]", "Huge"),
                ("custom_field[options][]", "small"),
            ],
        )
        .await;
    let options: Vec<Value> = res.expect(StatusCode::OK)["custom_field"]["options"]
        .as_array()
        .unwrap()
        .clone();
    assert_eq!(options[0], json!({"id": ids[2], "name": "Large"}));
    assert_eq!(options[1]["name"], "Huge");
    assert!(
        !ids.contains(&options[1]["id"].as_i64().unwrap()),
        "a new option gets a new id"
    );
    assert_eq!(
        options[2],
        json!({"id": ids[0], "name": "small"}),
        "matched without regard to case, renamed as sent"
    );
    assert_eq!(options.len(), 3, "Medium was removed");
}

async fn other_companies_cannot_see_touch_or_use_fields(kind: Kind) {
    let a = TestApp::new(kind).await;
    let b = TestApp::builder(kind).beside(&a).build().await;
    let field = a
        .custom_field("Secret", "text", &["members", "vendors"], &[])
        .await;
    let path = format!("/custom_fields/{}.api", field["id"]);
    b.get(&path).await.expect(StatusCode::NOT_FOUND);
    b.put(&path, &[("custom_field[name]", "Hijacked")])
        .await
        .expect(StatusCode::NOT_FOUND);
    b.delete(&path).await.expect(StatusCode::NOT_FOUND);
    assert_eq!(
        b.get("/custom_fields.api").await.body["custom_fields"],
        json!([])
    );
    b.post(
        "/vendors.api",
        &[
            ("vendor[name]", "Their Supplier"),
            ("vendor[custom_attributes][Secret]", "x"),
        ],
    )
    .await
    .expect_invalid("custom_attributes[Secret]");
    // B may define its own field of the same name.
    b.custom_field("Secret", "number", &["vendors"], &[]).await;
    assert_eq!(
        a.get(&path).await.expect(StatusCode::OK)["custom_field"],
        field,
        "untouched"
    );
}

async fn concurrent_value_changes_are_all_kept(kind: Kind) {
    let app = TestApp::new(kind).await;
    for i in 0..8 {
        app.custom_field(
            &format!("Field {i}"),
            "number",
            &["members", "vendors"],
            &[],
        )
        .await;
    }
    let member = app.member("Jane", "Doe", "jane@example.com", &[]).await;
    let res = app
        .post("/vendors.api", &[("vendor[name]", "Acme Supply")])
        .await;
    let vendor = res.expect(StatusCode::OK)["vendor"]["id"].as_i64().unwrap();
    let app = std::sync::Arc::new(app);
    let mut tasks = Vec::new();
    for i in 0..8 {
        let app = app.clone();
        tasks.push(tokio::spawn(async move {
            let key = format!("user[custom_attributes][Field_{i}]");
            let value = i.to_string();
            let form = [
                ("user[email]", "jane@example.com"),
                ("user[first_name]", "Jane"),
                ("user[last_name]", "Doe"),
                ("user[role_id]", "2"),
                (&key, &value),
            ];
            let m = app
                .put(&format!("/members/{member}.api"), &form)
                .await
                .status;
            let key = format!("vendor[custom_attributes][Field_{i}]");
            let v = app
                .put(&format!("/vendors/{vendor}.api"), &[(&key, &value)])
                .await
                .status;
            (m, v)
        }));
    }
    for t in tasks {
        assert_eq!(t.await.unwrap(), (StatusCode::OK, StatusCode::OK));
    }
    let expected: serde_json::Map<String, Value> = (0..8)
        .map(|i| (format!("Field {i}"), json!(i.to_string())))
        .collect();
    let m = app.get(&format!("/members/{member}.api")).await;
    assert_eq!(
        m.body["member"]["custom_attributes"],
        Value::Object(expected.clone()),
        "no concurrent change was lost"
    );
    let v = app.get(&format!("/vendors/{vendor}.api")).await;
    assert_eq!(
        v.body["vendor"]["custom_attributes"],
        Value::Object(expected)
    );
}

/// Every answer is the documented `CustomField`, with options and without.
async fn answers_are_the_documented_record(kind: Kind) {
    let app = TestApp::new(kind).await;
    let form = [
        ("custom_field[name]", "Condition"),
        ("custom_field[field_type]", "dropdown"),
        ("custom_field[applies_to][]", "fixed_assets"),
        ("custom_field[applies_to][]", "orders"),
        ("custom_field[options][]", "New"),
        ("custom_field[options][]", "Used"),
    ];
    let created = app
        .post("/custom_fields.api", &form)
        .await
        .into_body(StatusCode::OK);
    assert_documented("/custom_fields.api", "post", &created);
    let text = app.custom_field("Serial", "text", &["members"], &[]).await;
    assert_eq!(text["options"], json!([]));
    let path = format!("/custom_fields/{}.api", created["custom_field"]["id"]);
    assert_documented(
        "/custom_fields/{id}.api",
        "get",
        &app.get(&path).await.into_body(StatusCode::OK),
    );
    let updated = app
        .put(&path, &[("custom_field[name]", "State")])
        .await
        .into_body(StatusCode::OK);
    assert_documented("/custom_fields/{id}.api", "put", &updated);
    let page = app
        .get("/custom_fields.api")
        .await
        .into_body(StatusCode::OK);
    assert_eq!(page["custom_fields"].as_array().unwrap().len(), 2);
    assert_documented("/custom_fields.api", "get", &page);
    let deleted = app.delete(&path).await.into_body(StatusCode::OK);
    assert_documented("/custom_fields/{id}.api", "delete", &deleted);
}
