//! The request limits of docs/api.md ("Limits"): nesting depth, parameter count,
//! list lengths and control characters, each refused with a 400 or 422 that names the
//! limit or the parameter, and changing nothing.

use crate::common::{Kind, TestApp, ids};
use axum::http::{Method, StatusCode};
use serde_json::json;

both!(
    deep_or_numerous_parameters_are_a_400_naming_the_limit,
    over_long_id_lists_are_a_422_naming_them_and_change_nothing,
    custom_field_lists_are_capped,
    repeated_ids_count_once,
    control_characters_are_a_422_naming_the_parameter,
    tab_and_line_breaks_are_text,
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
