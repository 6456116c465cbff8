use crate::common::{Kind, TestApp, assert_documented, assert_keys_documented};
use axum::http::StatusCode;
use serde_json::{Value, json};

both!(
    answers_are_the_documented_record,
    create_with_every_field_and_read,
    create_validates_every_field_and_writes_nothing_when_refused,
    login_disabled_members_need_no_email,
    duplicate_emails_are_refused_case_aside,
    racing_creates_with_one_email_make_one_member,
    list_filters_by_email_employee_id_and_status,
    list_pages_at_25_and_includes_custom_fields_on_request,
    update_keeps_what_it_leaves_out,
    the_owner_is_an_administrator_member_the_api_cannot_change,
    activate_and_deactivate_change_status,
    other_companies_cannot_see_touch_or_refer_to_members,
    each_member_on_a_page_carries_its_own_teams_in_ascending_order,
    list_parameters_are_typed_and_named_together,
);

fn member_of(res: &Value) -> &Value {
    &res["member"]
}

async fn owner_id(app: &TestApp) -> i64 {
    let res = app.get("/members.api?filter=status&filter_val=all").await;
    let members = res.expect(StatusCode::OK)["members"]
        .as_array()
        .unwrap()
        .clone();
    members
        .iter()
        .find(|m| m["owner"] == true)
        .expect("owner listed")["id"]
        .as_i64()
        .unwrap()
}

async fn team(app: &TestApp, name: &str) -> i64 {
    app.team(name).await
}

async fn custom_role(app: &TestApp, name: &str) -> i64 {
    let res = app
        .post("/custom_roles.api", &[("custom_role[name]", name)])
        .await;
    res.expect(StatusCode::OK)["custom_role"]["id"]
        .as_i64()
        .unwrap()
}

async fn member_count(app: &TestApp) -> usize {
    let res = app.get("/members.api").await;
    res.expect(StatusCode::OK)["members"]
        .as_array()
        .unwrap()
        .len()
}

async fn create_with_every_field_and_read(kind: Kind) {
    let app = TestApp::new(kind).await;
    let listing = app.listing("North Shop").await.to_string();
    let crew = team(&app, "Field Crew").await;
    let night = team(&app, "Night Shift").await;
    let role = custom_role(&app, "Technician").await;
    assert!(
        role > 2,
        "custom role ids never collide with 1 and 2: {role}"
    );
    app.custom_field("Badge Number", "number", &["members"], &[])
        .await;
    app.custom_field("Shirt Size", "dropdown", &["members"], &["S", "M", "L"])
        .await;

    let res = app
        .post(
            "/members.api",
            &[
                ("user[email]", "Jane.Doe@Example.COM"),
                ("user[first_name]", "Jane"),
                ("user[last_name]", "Doe"),
                ("user[role_id]", &role.to_string()),
                ("user[employee_id]", "EMP-007"),
                ("user[user_listing_id]", &listing),
                ("user[team_ids][]", &crew.to_string()),
                ("user[team_ids][]", &night.to_string()),
                ("user[address_name]", "Home"),
                ("user[address]", "1 Main St"),
                ("user[address_line_2]", "Apt 2"),
                ("user[city]", "Denver"),
                ("user[state]", "CO"),
                ("user[zipcode]", "80202"),
                ("user[country]", "us"),
                ("user[phone_number]", "+1 555 0100"),
                ("user[fax]", "+1 555 0101"),
                ("user[subscribed_to_emails]", "false"),
                ("skip_confirmation_email", "true"),
                ("user[custom_attributes][Badge_Number]", "0042"),
                ("user[custom_attributes][shirt_size]", "m"),
            ],
        )
        .await;
    let m = member_of(res.expect(StatusCode::OK)).clone();
    assert_eq!(
        m["email"], "jane.doe@example.com",
        "e-mails are kept lower-case"
    );
    assert_eq!(m["first_name"], "Jane");
    assert_eq!(m["last_name"], "Doe");
    assert_eq!(m["full_name"], "Jane Doe");
    assert_eq!(m["role_id"], role);
    assert_eq!(m["role_name"], "Technician");
    assert_eq!(m["employee_identification_number"], "EMP-007");
    assert_eq!(m["user_listing_id"], listing.as_str());
    assert_eq!(m["team_ids"], json!([crew, night]));
    assert_eq!(m["address_name"], "Home");
    assert_eq!(m["address"], "1 Main St");
    assert_eq!(m["address_line_2"], "Apt 2");
    assert_eq!(m["city"], "Denver");
    assert_eq!(m["state"], "CO");
    assert_eq!(m["zipcode"], "80202");
    assert_eq!(m["country"], "US");
    assert_eq!(m["phone_number"], "+1 555 0100");
    assert_eq!(m["fax"], "+1 555 0101");
    assert_eq!(m["status"], "active");
    assert_eq!(m["login_enabled"], true, "login is enabled by default");
    assert_eq!(m["subscribed_to_emails"], false);
    assert_eq!(m["owner"], false);
    assert_eq!(
        m["custom_attributes"],
        json!({"Badge Number": "42", "Shirt Size": "M"})
    );
    assert_eq!(m["created_at"].as_str().unwrap().len(), 19);
    let id = m["id"].as_i64().unwrap();

    let details = app
        .get(&format!("/members/{id}.api?include_custom_fields=true"))
        .await;
    assert_eq!(
        member_of(details.expect(StatusCode::OK)),
        &m,
        "create answers with the record as stored"
    );
    let plain = app.get(&format!("/members/{id}.api")).await;
    let plain = member_of(plain.expect(StatusCode::OK));
    assert!(plain.get("Badge Number").is_none());
    assert_eq!(plain["custom_attributes"]["Badge Number"], "42");

    // The built-in roles.
    let admin = app
        .post(
            "/members.api",
            &[
                ("user[email]", "a@example.com"),
                ("user[first_name]", "Ann"),
                ("user[last_name]", "Admin"),
                ("user[role_id]", "1"),
            ],
        )
        .await;
    assert_eq!(
        member_of(admin.expect(StatusCode::OK))["role_name"],
        "Administrator"
    );
    let staff = app
        .post(
            "/members.api",
            &[
                ("user[email]", "s@example.com"),
                ("user[first_name]", "Sam"),
                ("user[last_name]", "Staff"),
                ("user[role_id]", "2"),
            ],
        )
        .await;
    let staff = member_of(staff.expect(StatusCode::OK));
    assert_eq!(staff["role_name"], "Staff");
    assert_eq!(staff["team_ids"], json!([]));
    assert_eq!(staff["subscribed_to_emails"], true, "subscribed by default");
    assert_eq!(staff["custom_attributes"], json!({}));

    app.get("/members/999999.api")
        .await
        .expect(StatusCode::NOT_FOUND);
    app.get("/members/abc.api")
        .await
        .expect(StatusCode::NOT_FOUND);
}

async fn create_validates_every_field_and_writes_nothing_when_refused(kind: Kind) {
    let app = TestApp::new(kind).await;
    app.custom_field("Badge Number", "number", &["members"], &[])
        .await;
    app.custom_field("Vendor Code", "text", &["vendors"], &[])
        .await;
    let base = [
        ("user[email]", "x@example.com"),
        ("user[first_name]", "Xavier"),
        ("user[last_name]", "Ray"),
        ("user[role_id]", "2"),
    ];
    let with = |field: &'static str, value: &'static str| -> Vec<(&'static str, &'static str)> {
        let mut form: Vec<_> = base.iter().copied().filter(|(f, _)| *f != field).collect();
        if !value.is_empty() {
            form.push((field, value));
        }
        form
    };
    app.post("/members.api", &with("user[email]", ""))
        .await
        .expect_invalid("email");
    app.post("/members.api", &with("user[email]", "not-an-email"))
        .await
        .expect_invalid("email");
    app.post("/members.api", &with("user[first_name]", ""))
        .await
        .expect_invalid("first_name");
    app.post("/members.api", &with("user[last_name]", ""))
        .await
        .expect_invalid("last_name");
    app.post("/members.api", &with("user[role_id]", ""))
        .await
        .expect_invalid("role_id");
    app.post("/members.api", &with("user[role_id]", "abc"))
        .await
        .expect_invalid("role_id");
    app.post("/members.api", &with("user[role_id]", "-1"))
        .await
        .expect_invalid("role_id");
    app.post("/members.api", &with("user[role_id]", "99999"))
        .await
        .expect_invalid("role_id");
    app.post("/members.api", &with("user[country]", "XX"))
        .await
        .expect_invalid("country");
    app.post("/members.api", &with("user[country]", "USA"))
        .await
        .expect_invalid("country");
    app.post("/members.api", &with("user[login_enabled]", "maybe"))
        .await
        .expect_invalid("login_enabled");
    app.post(
        "/members.api",
        &with("user[subscribed_to_emails]", "perhaps"),
    )
    .await
    .expect_invalid("subscribed_to_emails");
    app.post(
        "/members.api",
        &with("skip_confirmation_email", "sometimes"),
    )
    .await
    .expect_invalid("skip_confirmation_email");
    app.post("/members.api", &with("user[team_ids][]", "99999"))
        .await
        .expect_invalid("team_ids");
    app.post("/members.api", &with("user[team_ids][]", "two"))
        .await
        .expect_invalid("team_ids");
    app.post(
        "/members.api",
        &with("user[custom_attributes][Badge_Number]", "forty"),
    )
    .await
    .expect_invalid("custom_attributes[Badge_Number]");
    app.post(
        "/members.api",
        &with("user[custom_attributes][Vendor_Code]", "V1"),
    )
    .await
    .expect_invalid("custom_attributes[Vendor_Code]");
    app.post("/members.api", &with("user[custom_attributes][Nope]", "1"))
        .await
        .expect_invalid("custom_attributes[Nope]");
    let long = "x".repeat(256);
    let mut form = with("user[first_name]", "");
    form.push(("user[first_name]", &long));
    app.post("/members.api", &form)
        .await
        .expect_invalid("first_name");

    // One 422 names every bad field.
    let res = app
        .post(
            "/members.api",
            &[("user[email]", "bad"), ("user[role_id]", "0")],
        )
        .await;
    for field in ["email", "first_name", "last_name", "role_id"] {
        res.expect_invalid(field);
    }
    assert_eq!(
        member_count(&app).await,
        1,
        "only the owner: nothing was written"
    );
}

async fn login_disabled_members_need_no_email(kind: Kind) {
    let app = TestApp::new(kind).await;
    let form = [
        ("user[first_name]", "Nolan"),
        ("user[last_name]", "Login"),
        ("user[role_id]", "2"),
        ("user[login_enabled]", "false"),
    ];
    let res = app.post("/members.api", &form).await;
    let m = member_of(res.expect(StatusCode::OK)).clone();
    assert_eq!(m["email"], Value::Null);
    assert_eq!(m["login_enabled"], false);
    // Two members without e-mail do not collide.
    app.post(
        "/members.api",
        &[
            ("user[first_name]", "Nora"),
            ("user[last_name]", "Login"),
            ("user[role_id]", "2"),
            ("user[login_enabled]", "0"),
        ],
    )
    .await
    .expect(StatusCode::OK);

    // Turning login on needs an e-mail.
    let path = format!("/members/{}.api", m["id"]);
    app.put(
        &path,
        &[
            ("user[first_name]", "Nolan"),
            ("user[last_name]", "Login"),
            ("user[role_id]", "2"),
            ("user[login_enabled]", "true"),
        ],
    )
    .await
    .expect_invalid("email");
    // Without login the update needs no e-mail either.
    let res = app
        .put(
            &path,
            &[
                ("user[first_name]", "Nolan"),
                ("user[last_name]", "Logan"),
                ("user[role_id]", "2"),
            ],
        )
        .await;
    assert_eq!(member_of(res.expect(StatusCode::OK))["last_name"], "Logan");
    let res = app
        .put(
            &path,
            &[
                ("user[first_name]", "Nolan"),
                ("user[last_name]", "Logan"),
                ("user[role_id]", "2"),
                ("user[login_enabled]", "true"),
                ("user[email]", "nolan@example.com"),
            ],
        )
        .await;
    let m = member_of(res.expect(StatusCode::OK));
    assert_eq!(m["login_enabled"], true);
    assert_eq!(m["email"], "nolan@example.com");
}

async fn duplicate_emails_are_refused_case_aside(kind: Kind) {
    let app = TestApp::new(kind).await;
    app.member("Jane", "Doe", "jane@example.com", &[]).await;
    let res = app
        .post(
            "/members.api",
            &[
                ("user[email]", "JANE@example.com"),
                ("user[first_name]", "Janet"),
                ("user[last_name]", "Doe"),
                ("user[role_id]", "2"),
            ],
        )
        .await;
    res.expect_invalid("email");
    let taken = json!({"email": ["has already been taken by another member of this company"]});
    assert_eq!(res.body["errors"], taken);
    // The owner's address is taken too.
    let owner = format!("owner@{}.test", app.company.subdomain);
    let res = app
        .post(
            "/members.api",
            &[
                ("user[email]", &owner),
                ("user[first_name]", "Fake"),
                ("user[last_name]", "Owner"),
                ("user[role_id]", "1"),
            ],
        )
        .await;
    res.expect_invalid("email");
    assert_eq!(res.body["errors"], taken);
    // Another company may use the same address.
    let other = TestApp::builder(kind).beside(&app).build().await;
    other.member("Jane", "Doe", "jane@example.com", &[]).await;
    assert_eq!(member_count(&app).await, 2);
}

async fn racing_creates_with_one_email_make_one_member(kind: Kind) {
    let app = std::sync::Arc::new(TestApp::new(kind).await);
    let mut tasks = Vec::new();
    for i in 0..20 {
        let app = app.clone();
        tasks.push(tokio::spawn(async move {
            let first = format!("Racer{i}");
            let res = app
                .post(
                    "/members.api",
                    &[
                        ("user[email]", "same@example.com"),
                        ("user[first_name]", &first),
                        ("user[last_name]", "Doe"),
                        ("user[role_id]", "2"),
                    ],
                )
                .await;
            (res.status, res.text)
        }));
    }
    let mut created = 0;
    for t in tasks {
        let (status, text) = t.await.unwrap();
        match status {
            StatusCode::OK => created += 1,
            StatusCode::UNPROCESSABLE_ENTITY => assert!(text.contains("email"), "{text}"),
            other => panic!("unexpected {other}: {text}"),
        }
    }
    assert_eq!(created, 1, "exactly one member gets the address");
    let res = app
        .get("/members.api?filter=email&filter_val=same%40example.com")
        .await;
    assert_eq!(
        res.expect(StatusCode::OK)["members"]
            .as_array()
            .unwrap()
            .len(),
        1
    );
}

async fn list_filters_by_email_employee_id_and_status(kind: Kind) {
    let app = TestApp::new(kind).await;
    let plus = app
        .member(
            "Pat",
            "Plus",
            "pat+rentals@example.com",
            &[("user[employee_id]", "E-1")],
        )
        .await;
    let gone = app
        .member(
            "Gina",
            "Gone",
            "gina@example.com",
            &[("user[employee_id]", "E-2")],
        )
        .await;
    app.put(&format!("/members/{gone}/deactivate.api"), &[])
        .await
        .expect(StatusCode::OK);
    let quiet = app
        .post(
            "/members.api",
            &[
                ("user[first_name]", "Quinn"),
                ("user[last_name]", "Quiet"),
                ("user[role_id]", "2"),
                ("user[login_enabled]", "false"),
            ],
        )
        .await;
    let quiet = member_of(quiet.expect(StatusCode::OK))["id"]
        .as_i64()
        .unwrap();
    let owner = owner_id(&app).await;

    let ids = |res: &Value| -> Vec<i64> {
        res["members"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["id"].as_i64().unwrap())
            .collect()
    };
    let list = |q: &'static str| {
        let app = &app;
        async move { app.get(&format!("/members.api?{q}")).await }
    };
    // A URL-encoded e-mail (`+` and `@` encoded), matched without regard to case.
    assert_eq!(
        ids(list("filter=email&filter_val=pat%2Brentals%40example.com")
            .await
            .expect(StatusCode::OK)),
        vec![plus]
    );
    assert_eq!(
        ids(list("filter=email&filter_val=PAT%2BRENTALS%40EXAMPLE.COM")
            .await
            .expect(StatusCode::OK)),
        vec![plus]
    );
    assert_eq!(
        ids(list("filter=email&filter_val=nobody%40example.com")
            .await
            .expect(StatusCode::OK)),
        Vec::<i64>::new()
    );
    assert_eq!(
        ids(list("filter=employee_identification_number&filter_val=E-2")
            .await
            .expect(StatusCode::OK)),
        vec![gone]
    );
    assert_eq!(
        ids(list("filter=status&filter_val=active")
            .await
            .expect(StatusCode::OK)),
        vec![owner, plus, quiet]
    );
    assert_eq!(
        ids(list("filter=status&filter_val=inactive")
            .await
            .expect(StatusCode::OK)),
        vec![gone]
    );
    assert_eq!(
        ids(list("filter=status&filter_val=login")
            .await
            .expect(StatusCode::OK)),
        vec![owner, plus, gone]
    );
    assert_eq!(
        ids(list("filter=status&filter_val=non_login")
            .await
            .expect(StatusCode::OK)),
        vec![quiet]
    );
    assert_eq!(
        ids(list("filter=status&filter_val=all")
            .await
            .expect(StatusCode::OK)),
        vec![owner, plus, gone, quiet]
    );
    assert_eq!(
        ids(list("").await.expect(StatusCode::OK)),
        vec![owner, plus, gone, quiet],
        "no filter lists everyone"
    );
    // The filter may come in a GET body too.
    let res = app
        .req(http::Method::GET, "/members.api")
        .form(&[("filter", "status"), ("filter_val", "inactive")])
        .send()
        .await;
    assert_eq!(ids(res.expect(StatusCode::OK)), vec![gone]);

    list("filter=colour&filter_val=red")
        .await
        .expect_invalid("filter");
    list("filter=status&filter_val=sleeping")
        .await
        .expect_invalid("filter_val");
    list("filter=email").await.expect_invalid("filter_val");
    list("filter=employee_identification_number")
        .await
        .expect_invalid("filter_val");
    list("filter_val=active").await.expect_invalid("filter");
}

async fn list_pages_at_25_and_includes_custom_fields_on_request(kind: Kind) {
    let app = TestApp::new(kind).await;
    app.custom_field("Badge Number", "number", &["members"], &[])
        .await;
    for i in 0..25 {
        let attrs: Vec<(&str, String)> =
            vec![("user[custom_attributes][Badge_Number]", i.to_string())];
        let extra: Vec<(&str, &str)> = attrs.iter().map(|(k, v)| (*k, v.as_str())).collect();
        app.member(
            &format!("Member{i:02}"),
            "Test",
            &format!("m{i}@example.com"),
            &extra,
        )
        .await;
    }
    let res = app.get("/members.api").await;
    let body = res.expect(StatusCode::OK);
    assert_eq!(body["members"].as_array().unwrap().len(), 25);
    assert_eq!(body["total_pages"], 2);
    assert_eq!(body["current_page"], 1);
    assert!(body["members"][1].get("Badge Number").is_none());
    assert_eq!(body["members"][1]["custom_attributes"]["Badge Number"], "0");
    let res = app
        .get("/members.api?page=2&include_custom_fields=true")
        .await;
    let body = res.expect(StatusCode::OK);
    assert_eq!(body["members"].as_array().unwrap().len(), 1);
    assert_eq!(body["members"][0]["Badge Number"], "24");
    assert_eq!(body["current_page"], 2);
    let past = app.get("/members.api?page=7").await;
    assert_eq!(past.expect(StatusCode::OK)["members"], json!([]));
    assert_eq!(past.body["total_pages"], 2);
    app.get("/members.api?page=0").await.expect_invalid("page");
    app.get("/members.api?include_custom_fields=perhaps")
        .await
        .expect_invalid("include_custom_fields");
}

async fn update_keeps_what_it_leaves_out(kind: Kind) {
    let app = TestApp::new(kind).await;
    let crew = team(&app, "Field Crew").await;
    let night = team(&app, "Night Shift").await;
    let id = app
        .member(
            "Jane",
            "Doe",
            "jane@example.com",
            &[
                ("user[employee_id]", "E-1"),
                ("user[phone_number]", "555 0100"),
                ("user[city]", "Denver"),
                ("user[team_ids][]", &crew.to_string()),
            ],
        )
        .await;
    app.member("Other", "Person", "other@example.com", &[])
        .await;
    let path = format!("/members/{id}.api");
    let before = app.get(&path).await.body["member"].clone();
    let required = [
        ("user[email]", "jane@example.com"),
        ("user[first_name]", "Jane"),
        ("user[last_name]", "Doe"),
        ("user[role_id]", "2"),
    ];

    // The fields the spec says are "to be specified" may be left out (below), but
    // not cleared.
    for (cleared, value) in [
        ("user[email]", "null"),
        ("user[first_name]", "null"),
        ("user[last_name]", "null"),
        ("user[role_id]", "null"),
    ] {
        let form = [(cleared, value), ("user[fax]", "555 0199")];
        let field = cleared.trim_start_matches("user[").trim_end_matches(']');
        app.put(&path, &form).await.expect_invalid(field);
    }
    let mut taken = required.to_vec();
    taken[0] = ("user[email]", "other@example.com");
    let res = app.put(&path, &taken).await;
    res.expect_invalid("email");
    assert_eq!(
        res.body["errors"],
        json!({"email": ["has already been taken by another member of this company"]})
    );
    let mut bad_team = required.to_vec();
    bad_team.push(("user[team_ids][]", "99999"));
    app.put(&path, &bad_team).await.expect_invalid("team_ids");
    assert_eq!(
        app.get(&path).await.body["member"],
        before,
        "refused updates changed nothing"
    );

    // An update of one field keeps the rest, the spec's "to be specified" among them.
    let m = member_of(
        app.put(&path, &[("user[fax]", "555 0199")])
            .await
            .expect(StatusCode::OK),
    )
    .clone();
    assert_eq!(m["fax"], "555 0199");
    assert_eq!(
        (&m["email"], &m["full_name"], &m["role_id"]),
        (&before["email"], &before["full_name"], &before["role_id"])
    );

    // Fields left out are kept; team_ids replaces the list.
    let mut form = required.to_vec();
    form[1] = ("user[first_name]", "Janet");
    let night_id = night.to_string();
    form.extend([
        ("user[team_ids][]", night_id.as_str()),
        ("user[city]", "null"),
        ("skip_confirmation_email", "1"),
    ]);
    let res = app.put(&path, &form).await;
    let m = member_of(res.expect(StatusCode::OK));
    assert_eq!(m["first_name"], "Janet");
    assert_eq!(m["full_name"], "Janet Doe");
    assert_eq!(m["employee_identification_number"], "E-1");
    assert_eq!(m["phone_number"], "555 0100");
    assert_eq!(m["city"], Value::Null, "null clears");
    assert_eq!(m["team_ids"], json!([night]));
    assert_eq!(m["created_at"], before["created_at"]);

    // Teams sent empty are cleared; left out, kept.
    let res = app.put(&path, &required).await;
    assert_eq!(
        member_of(res.expect(StatusCode::OK))["team_ids"],
        json!([night])
    );
    let mut clear = required.to_vec();
    clear.push(("user[team_ids][]", ""));
    let res = app.put(&path, &clear).await;
    assert_eq!(member_of(res.expect(StatusCode::OK))["team_ids"], json!([]));

    app.put("/members/999999.api", &required)
        .await
        .expect(StatusCode::NOT_FOUND);
}

async fn the_owner_is_an_administrator_member_the_api_cannot_change(kind: Kind) {
    let app = TestApp::new(kind).await;
    let owner = owner_id(&app).await;
    let path = format!("/members/{owner}.api");
    let before = app.get(&path).await.expect(StatusCode::OK)["member"].clone();
    assert_eq!(before["role_id"], 1);
    assert_eq!(before["role_name"], "Administrator");
    assert_eq!(
        before["email"],
        format!("owner@{}.test", app.company.subdomain)
    );
    assert_eq!(before["owner"], true);

    let form = [
        ("user[email]", "new@example.com"),
        ("user[first_name]", "New"),
        ("user[last_name]", "Owner"),
        ("user[role_id]", "2"),
    ];
    let refused = "The company owner's details cannot be changed through the API.";
    let res = app.put(&path, &form).await;
    assert_eq!(res.expect(StatusCode::FORBIDDEN)["message"], refused);
    // Even an invalid update is refused as the owner's, not validated.
    let res = app.put(&path, &[("user[fax]", "1")]).await;
    assert_eq!(res.expect(StatusCode::FORBIDDEN)["message"], refused);
    let res = app
        .put(&format!("/members/{owner}/deactivate.api"), &[])
        .await;
    assert_eq!(
        res.expect(StatusCode::FORBIDDEN)["message"],
        "The company owner cannot be deactivated."
    );
    assert_eq!(
        app.get(&path).await.body["member"],
        before,
        "the owner is unchanged"
    );
    // Activating the (already active) owner changes nothing and is allowed.
    app.put(&format!("/members/{owner}/activate.api"), &[])
        .await
        .expect(StatusCode::OK);
}

async fn activate_and_deactivate_change_status(kind: Kind) {
    let app = TestApp::new(kind).await;
    let id = app.member("Jane", "Doe", "jane@example.com", &[]).await;
    let res = app.put(&format!("/members/{id}/deactivate.api"), &[]).await;
    assert_eq!(member_of(res.expect(StatusCode::OK))["status"], "inactive");
    assert_eq!(
        app.get(&format!("/members/{id}.api")).await.body["member"]["status"],
        "inactive"
    );
    // Deactivating twice is harmless.
    app.put(&format!("/members/{id}/deactivate.api"), &[])
        .await
        .expect(StatusCode::OK);
    let res = app.put(&format!("/members/{id}/activate.api"), &[]).await;
    assert_eq!(member_of(res.expect(StatusCode::OK))["status"], "active");
    app.put("/members/999999/activate.api", &[])
        .await
        .expect(StatusCode::NOT_FOUND);
    app.put("/members/999999/deactivate.api", &[])
        .await
        .expect(StatusCode::NOT_FOUND);
    app.get(&format!("/members/{id}/activate.api"))
        .await
        .expect(StatusCode::METHOD_NOT_ALLOWED);
}

async fn other_companies_cannot_see_touch_or_refer_to_members(kind: Kind) {
    let a = TestApp::new(kind).await;
    let b = TestApp::builder(kind).beside(&a).build().await;
    let a_team = team(&a, "Secret Team").await;
    let a_role = custom_role(&a, "Secret Role").await;
    let id = a
        .member(
            "Jane",
            "Doe",
            "jane@example.com",
            &[("user[team_ids][]", &a_team.to_string())],
        )
        .await;
    let path = format!("/members/{id}.api");
    let before = a.get(&path).await.body["member"].clone();

    b.get(&path).await.expect(StatusCode::NOT_FOUND);
    let form = [
        ("user[email]", "x@example.com"),
        ("user[first_name]", "Hi"),
        ("user[last_name]", "Jack"),
        ("user[role_id]", "2"),
    ];
    b.put(&path, &form).await.expect(StatusCode::NOT_FOUND);
    b.put(&format!("/members/{id}/deactivate.api"), &[])
        .await
        .expect(StatusCode::NOT_FOUND);
    b.get("/members.api?filter=email&filter_val=jane%40example.com")
        .await
        .expect(StatusCode::OK);
    let listed = b.get("/members.api").await;
    assert!(
        listed.body["members"]
            .as_array()
            .unwrap()
            .iter()
            .all(|m| m["id"] != id)
    );
    // Company A's team and role do not exist for B.
    let mut with_team = form.to_vec();
    let team_id = a_team.to_string();
    with_team.push(("user[team_ids][]", &team_id));
    b.post("/members.api", &with_team)
        .await
        .expect_invalid("team_ids");
    let role_id = a_role.to_string();
    let with_role = [
        ("user[email]", "y@example.com"),
        ("user[first_name]", "Hi"),
        ("user[last_name]", "Jack"),
        ("user[role_id]", role_id.as_str()),
    ];
    b.post("/members.api", &with_role)
        .await
        .expect_invalid("role_id");
    assert_eq!(
        a.get(&path).await.body["member"],
        before,
        "untouched by the other company"
    );
}

/// Teams are read in the member's own row (an aggregated column): each member of a page
/// has exactly its own, ascending whatever the order sent, and another company's
/// member in the same database lends none.
async fn each_member_on_a_page_carries_its_own_teams_in_ascending_order(kind: Kind) {
    let app = TestApp::new(kind).await;
    let first = team(&app, "Alpha").await;
    let second = team(&app, "Bravo").await;
    let other = TestApp::builder(kind).beside(&app).build().await;
    let foreign = team(&other, "Foreign").await;
    let both = member_in_teams(&app, "both@example.com", &[second, first]).await;
    let one = member_in_teams(&app, "one@example.com", &[second]).await;
    let none = member_in_teams(&app, "none@example.com", &[]).await;
    member_in_teams(&other, "foreign@example.com", &[foreign]).await;

    let wanted = [
        (both, json!([first, second])),
        (one, json!([second])),
        (none, json!([])),
    ];
    let page = app.get("/members.api?filter=status&filter_val=all").await;
    let members = page.expect(StatusCode::OK)["members"]
        .as_array()
        .unwrap()
        .clone();
    for (id, teams) in &wanted {
        let listed = members.iter().find(|m| m["id"] == *id).expect("listed");
        assert_eq!(&listed["team_ids"], teams, "member {id} on the page");
        let res = app.get(&format!("/members/{id}.api")).await;
        assert_eq!(
            &member_of(res.expect(StatusCode::OK))["team_ids"],
            teams,
            "member {id} alone"
        );
    }
}

async fn member_in_teams(app: &TestApp, email: &str, teams: &[i64]) -> i64 {
    let teams: Vec<String> = teams.iter().map(i64::to_string).collect();
    let mut form = vec![
        ("user[email]", email),
        ("user[first_name]", "A"),
        ("user[last_name]", email),
        ("user[role_id]", "2"),
        ("skip_confirmation_email", "true"),
    ];
    form.extend(teams.iter().map(|t| ("user[team_ids][]", t.as_str())));
    let res = app.post("/members.api", &form).await;
    member_of(res.expect(StatusCode::OK))["id"]
        .as_i64()
        .unwrap()
}

/// Every answer is the documented `Member`: with and without its optional fields, with
/// custom fields as keys (`include_custom_fields`) or not, alone and on a page, after
/// each action.
async fn answers_are_the_documented_record(kind: Kind) {
    let app = TestApp::new(kind).await;
    app.custom_field("Badge Number", "number", &["members"], &[])
        .await;
    app.custom_field("Shirt Size", "dropdown", &["members"], &["S", "M"])
        .await;
    let crew = team(&app, "Field Crew").await.to_string();
    let listing = app.listing("North Shop").await.to_string();
    let bare = app
        .post(
            "/members.api",
            &[
                ("user[first_name]", "Bo"),
                ("user[last_name]", "Bare"),
                ("user[role_id]", "2"),
                ("user[login_enabled]", "false"),
            ],
        )
        .await
        .into_body(StatusCode::OK);
    assert_eq!(bare["member"]["email"], Value::Null);
    assert_documented("/members.api", "post", &bare);
    assert_keys_documented("Member", &bare["member"], &[]);
    let full = app
        .post(
            "/members.api",
            &[
                ("user[email]", "jane@example.com"),
                ("user[first_name]", "Jane"),
                ("user[last_name]", "Doe"),
                ("user[role_id]", "1"),
                ("user[employee_id]", "EMP-7"),
                ("user[user_listing_id]", &listing),
                ("user[team_ids][]", &crew),
                ("user[address_name]", "Home"),
                ("user[address]", "1 Main St"),
                ("user[address_line_2]", "Apt 2"),
                ("user[city]", "Denver"),
                ("user[state]", "CO"),
                ("user[zipcode]", "80202"),
                ("user[country]", "us"),
                ("user[phone_number]", "555 0100"),
                ("user[fax]", "555 0101"),
                ("user[custom_attributes][Badge_Number]", "42"),
                ("user[custom_attributes][Shirt_Size]", "M"),
            ],
        )
        .await
        .into_body(StatusCode::OK);
    assert_documented("/members.api", "post", &full);
    let custom = ["Badge Number", "Shirt Size"];
    assert_eq!(full["member"]["Shirt Size"], "M", "its fields as keys");
    assert_eq!(full["member"]["zipcode"], "80202");
    assert_keys_documented("Member", &full["member"], &custom);
    let id = full["member"]["id"].as_i64().unwrap();
    let path = format!("/members/{id}.api");
    for query in ["", "?include_custom_fields=true"] {
        let one = app
            .get(&format!("{path}{query}"))
            .await
            .into_body(StatusCode::OK);
        assert_documented("/members/{id}.api", "get", &one);
        assert_keys_documented("Member", &one["member"], &custom);
        let page = app
            .get(&format!(
                "/members.api?filter=status&filter_val=all&include_custom_fields={}",
                !query.is_empty()
            ))
            .await
            .into_body(StatusCode::OK);
        assert_documented("/members.api", "get", &page);
        let members = page["members"].as_array().unwrap();
        assert_eq!(members.len(), 3, "the owner too");
        for m in members {
            assert_keys_documented("Member", m, &custom);
        }
    }
    for method in ["put", "patch"] {
        let form = [("user[employee_id]", "null"), ("user[city]", "null")];
        let res = match method {
            "put" => app.put(&path, &form).await,
            _ => app.patch(&path, &form).await,
        };
        let updated = res.into_body(StatusCode::OK);
        assert_eq!(updated["member"]["city"], Value::Null);
        assert_documented("/members/{id}.api", method, &updated);
    }
    for action in ["deactivate", "activate"] {
        for method in ["put", "patch"] {
            let action_path = format!("/members/{id}/{action}.api");
            let res = match method {
                "put" => app.put(&action_path, &[]).await,
                _ => app.patch(&action_path, &[]).await,
            };
            let body = res.into_body(StatusCode::OK);
            assert_documented(&format!("/members/{{id}}/{action}.api"), method, &body);
            assert_keys_documented("Member", &body["member"], &custom);
        }
    }
}

async fn list_parameters_are_typed_and_named_together(kind: Kind) {
    let app = TestApp::new(kind).await;
    app.member(
        "Ed",
        "Employee",
        "ed@example.com",
        &[("user[employee_id]", "E-9")],
    )
    .await;
    // Every bad parameter is named in one 422.
    let res = app
        .get("/members.api?filter=nope&page=0&include_custom_fields=maybe")
        .await;
    for field in ["filter", "page", "include_custom_fields"] {
        res.expect_invalid(field);
    }
    assert!(
        res.body["errors"]["filter"][0]
            .as_str()
            .unwrap()
            .contains("employee_identification_number"),
        "{}",
        res.text
    );
    // A filter_val that does not suit the filter, or one without a filter.
    app.get("/members.api?filter=status&filter_val=sleeping")
        .await
        .expect_invalid("filter_val");
    app.get("/members.api?filter_val=E-9")
        .await
        .expect_invalid("filter");
    // Words are read loosely, and employee_id is employee_identification_number.
    for query in [
        "filter=employee_id&filter_val=E-9",
        "filter=Employee-Identification-Number&filter_val=E-9",
    ] {
        let res = app.get(&format!("/members.api?{query}")).await;
        let members = res.expect(StatusCode::OK)["members"]
            .as_array()
            .unwrap()
            .clone();
        assert_eq!(members.len(), 1, "{query}");
        assert_eq!(members[0]["last_name"], "Employee");
    }
    // A role id of 0 or null is no role, on create and update.
    let base = [("user[first_name]", "Rae"), ("user[last_name]", "Role")];
    for role in ["0", "null", "staff"] {
        let mut form = base.to_vec();
        form.push(("user[role_id]", role));
        app.post("/members.api", &form)
            .await
            .expect_invalid("role_id");
    }
    app.post(
        "/members.api",
        &[
            ("user[role_id]", "2"),
            ("skip_confirmation_email", "perhaps"),
        ],
    )
    .await
    .expect_invalid("skip_confirmation_email");
}
