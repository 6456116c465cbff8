//! Custom roles, teams and retire reasons (rentrack extensions) and company settings.

use crate::common::{Kind, TestApp, assert_documented};
use axum::http::StatusCode;
use serde_json::{Value, json};

both!(
    each_kind_is_created_listed_read_updated_and_deleted,
    names_are_required_and_unique_per_company,
    lists_page_at_25,
    a_custom_role_in_use_cannot_be_deleted,
    deleting_a_team_takes_it_off_its_members,
    other_companies_cannot_see_or_touch_reference_data,
    company_settings_are_read_and_changed,
    answers_are_the_documented_record,
);

const KINDS: [(&str, &str, &str); 3] = [
    ("custom_roles", "custom_role", "Technician"),
    ("teams", "team", "Field Crew"),
    ("retire_reasons", "retire_reason", "Damaged"),
];

async fn create(app: &TestApp, plural: &str, singular: &str, name: &str) -> Value {
    let field = format!("{singular}[name]");
    let res = app.post(&format!("/{plural}.api"), &[(&field, name)]).await;
    res.expect(StatusCode::OK)[singular].clone()
}

async fn each_kind_is_created_listed_read_updated_and_deleted(kind: Kind) {
    let app = TestApp::new(kind).await;
    for (plural, singular, name) in KINDS {
        let description = format!("{singular}[description]");
        let res = app
            .post(
                &format!("/{plural}.api"),
                &[
                    (&format!("{singular}[name]"), name),
                    (&description, "Said once"),
                ],
            )
            .await;
        let entry = res.expect(StatusCode::OK)[singular].clone();
        assert_eq!(entry["name"], name);
        assert_eq!(entry["description"], "Said once");
        let id = entry["id"].as_i64().unwrap();
        let path = format!("/{plural}/{id}.api");
        assert_eq!(app.get(&path).await.expect(StatusCode::OK)[singular], entry);

        let list = app.get(&format!("/{plural}.api")).await;
        let body = list.expect(StatusCode::OK);
        assert_eq!(body[plural], json!([entry]), "{plural}");
        assert_eq!(body["total_pages"], 1);

        // The name may be left out on update; null clears the description.
        let res = app.put(&path, &[(&description, "null")]).await;
        let updated = &res.expect(StatusCode::OK)[singular];
        assert_eq!(updated["name"], name);
        assert_eq!(updated["description"], Value::Null);
        let res = app
            .put(&path, &[(&format!("{singular}[name]"), "Renamed")])
            .await;
        assert_eq!(res.expect(StatusCode::OK)[singular]["name"], "Renamed");

        let res = app.delete(&path).await;
        assert_eq!(res.expect(StatusCode::OK)[singular]["name"], "Renamed");
        app.get(&path).await.expect(StatusCode::NOT_FOUND);
        app.delete(&path).await.expect(StatusCode::NOT_FOUND);
        app.put(&path, &[(&description, "x")])
            .await
            .expect(StatusCode::NOT_FOUND);
        app.get(&format!("/{plural}/abc.api"))
            .await
            .expect(StatusCode::NOT_FOUND);
    }
}

async fn names_are_required_and_unique_per_company(kind: Kind) {
    let app = TestApp::new(kind).await;
    let other = TestApp::builder(kind).beside(&app).build().await;
    for (plural, singular, name) in KINDS {
        let field = format!("{singular}[name]");
        app.post(&format!("/{plural}.api"), &[])
            .await
            .expect_invalid("name");
        app.post(&format!("/{plural}.api"), &[(&field, "   ")])
            .await
            .expect_invalid("name");
        app.post(&format!("/{plural}.api"), &[(&field, &"x".repeat(256))])
            .await
            .expect_invalid("name");
        let first = create(&app, plural, singular, name).await;
        let taken = json!({"name": ["has already been taken"]});
        let res = app.post(&format!("/{plural}.api"), &[(&field, name)]).await;
        res.expect_invalid("name");
        assert_eq!(res.body["errors"], taken, "{plural}");
        let second = create(&app, plural, singular, "Second").await;
        let path = format!("/{plural}/{}.api", second["id"]);
        let res = app.put(&path, &[(&field, name)]).await;
        res.expect_invalid("name");
        assert_eq!(res.body["errors"], taken, "{plural}");
        app.put(&path, &[(&field, "null")])
            .await
            .expect_invalid("name");
        // Short names are fine here (the three-character rule is for items and groups).
        create(&app, plural, singular, "QA").await;
        // Another company may use the same name.
        create(&other, plural, singular, name).await;
        let list = app.get(&format!("/{plural}.api")).await;
        let names: Vec<&str> = list.body[plural]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| e["name"].as_str().unwrap())
            .collect();
        assert_eq!(
            names,
            vec![first["name"].as_str().unwrap(), "Second", "QA"],
            "refused requests wrote nothing"
        );
    }
}

async fn lists_page_at_25(kind: Kind) {
    let app = TestApp::new(kind).await;
    for i in 0..26 {
        create(&app, "teams", "team", &format!("Team {i:02}")).await;
    }
    let res = app.get("/teams.api").await;
    let body = res.expect(StatusCode::OK);
    assert_eq!(body["teams"].as_array().unwrap().len(), 25);
    assert_eq!(body["total_pages"], 2);
    assert_eq!(body["current_page"], 1);
    let res = app.get("/teams.api?page=2").await;
    assert_eq!(res.expect(StatusCode::OK)["teams"][0]["name"], "Team 25");
    let res = app.get("/custom_roles.api?page=3").await;
    assert_eq!(res.expect(StatusCode::OK)["custom_roles"], json!([]));
    assert_eq!(res.body["total_pages"], 0);
    app.get("/teams.api?page=zero").await.expect_invalid("page");
}

async fn a_custom_role_in_use_cannot_be_deleted(kind: Kind) {
    let app = TestApp::new(kind).await;
    let role = create(&app, "custom_roles", "custom_role", "Technician").await;
    let role_id = role["id"].to_string();
    let member = app
        .member(
            "Jane",
            "Doe",
            "jane@example.com",
            &[("user[role_id]", &role_id)],
        )
        .await;
    let res = app.delete(&format!("/custom_roles/{role_id}.api")).await;
    assert_eq!(
        res.expect(StatusCode::CONFLICT)["message"],
        "Custom role \"Technician\" is the role of 1 member(s); give them another role first."
    );
    // Renaming the role shows in the member's role_name.
    app.put(
        &format!("/custom_roles/{role_id}.api"),
        &[("custom_role[name]", "Senior Technician")],
    )
    .await
    .expect(StatusCode::OK);
    let m = app.get(&format!("/members/{member}.api")).await;
    assert_eq!(
        m.expect(StatusCode::OK)["member"]["role_name"],
        "Senior Technician"
    );
    // Once nobody has it, it can go.
    let form = [
        ("user[email]", "jane@example.com"),
        ("user[first_name]", "Jane"),
        ("user[last_name]", "Doe"),
        ("user[role_id]", "2"),
    ];
    app.put(&format!("/members/{member}.api"), &form)
        .await
        .expect(StatusCode::OK);
    app.delete(&format!("/custom_roles/{role_id}.api"))
        .await
        .expect(StatusCode::OK);
    let roles = app.get("/custom_roles.api").await;
    assert_eq!(roles.body["custom_roles"], json!([]));
}

async fn deleting_a_team_takes_it_off_its_members(kind: Kind) {
    let app = TestApp::new(kind).await;
    let crew = create(&app, "teams", "team", "Field Crew").await["id"]
        .as_i64()
        .unwrap();
    let night = create(&app, "teams", "team", "Night Shift").await["id"]
        .as_i64()
        .unwrap();
    let member = app
        .member(
            "Jane",
            "Doe",
            "jane@example.com",
            &[("user[team_ids]", &format!("{crew},{night}"))],
        )
        .await;
    let m = app.get(&format!("/members/{member}.api")).await;
    assert_eq!(
        m.body["member"]["team_ids"],
        json!([crew, night]),
        "a comma-separated list works too"
    );
    app.delete(&format!("/teams/{crew}.api"))
        .await
        .expect(StatusCode::OK);
    let m = app.get(&format!("/members/{member}.api")).await;
    assert_eq!(m.body["member"]["team_ids"], json!([night]));
}

async fn other_companies_cannot_see_or_touch_reference_data(kind: Kind) {
    let a = TestApp::new(kind).await;
    let b = TestApp::builder(kind).beside(&a).build().await;
    for (plural, singular, name) in KINDS {
        let entry = create(&a, plural, singular, name).await;
        let path = format!("/{plural}/{}.api", entry["id"]);
        b.get(&path).await.expect(StatusCode::NOT_FOUND);
        b.put(&path, &[(&format!("{singular}[name]"), "Hijacked")])
            .await
            .expect(StatusCode::NOT_FOUND);
        b.delete(&path).await.expect(StatusCode::NOT_FOUND);
        assert_eq!(
            b.get(&format!("/{plural}.api")).await.body[plural],
            json!([])
        );
        assert_eq!(
            a.get(&path).await.expect(StatusCode::OK)[singular],
            entry,
            "untouched"
        );
    }
}

async fn company_settings_are_read_and_changed(kind: Kind) {
    let app = TestApp::new(kind).await;
    let res = app.get("/company_settings.api").await;
    let settings = res.expect(StatusCode::OK)["company_settings"].clone();
    assert_eq!(settings["time_zone"], "UTC");
    assert_eq!(settings["currency"], "USD");
    assert_eq!(settings["retired_asset_activation_location"], "optional");
    assert_eq!(settings["subdomain"], app.company.subdomain);

    app.put(
        "/company_settings.api",
        &[("company_settings[time_zone]", "Mars/Olympus")],
    )
    .await
    .expect_invalid("time_zone");
    app.put(
        "/company_settings.api",
        &[("company_settings[currency]", "DOLLARS")],
    )
    .await
    .expect_invalid("currency");
    app.put(
        "/company_settings.api",
        &[("company_settings[currency]", "XYZ")],
    )
    .await
    .expect_invalid("currency");
    let res = app
        .put(
            "/company_settings.api",
            &[
                (
                    "company_settings[retired_asset_activation_location]",
                    "sometimes",
                ),
                ("company_settings[currency]", "EUR"),
            ],
        )
        .await;
    res.expect_invalid("retired_asset_activation_location");
    // One 422 names every problem.
    let res = app
        .patch(
            "/company_settings.api",
            &[
                ("company_settings[time_zone]", "Mars/Olympus"),
                ("company_settings[currency]", "XXX1"),
                (
                    "company_settings[retired_asset_activation_location]",
                    "never",
                ),
                ("company_settings[inclusive_return]", "perhaps"),
                ("company_settings[best_pricing]", "perhaps"),
            ],
        )
        .await;
    for field in [
        "time_zone",
        "currency",
        "retired_asset_activation_location",
        "inclusive_return",
        "best_pricing",
    ] {
        res.expect_invalid(field);
    }
    assert_eq!(
        app.get("/company_settings.api").await.body["company_settings"],
        settings,
        "refused changes wrote nothing"
    );

    let res = app
        .put(
            "/company_settings.api",
            &[
                ("company_settings[time_zone]", "America/Denver"),
                ("company_settings[currency]", "eur"),
                (
                    "company_settings[retired_asset_activation_location]",
                    "required",
                ),
            ],
        )
        .await;
    let changed = &res.expect(StatusCode::OK)["company_settings"];
    assert_eq!(changed["time_zone"], "America/Denver");
    assert_eq!(changed["currency"], "EUR");
    assert_eq!(changed["retired_asset_activation_location"], "required");
    let res = app
        .patch(
            "/company_settings.api",
            &[(
                "company_settings[retired_asset_activation_location]",
                "not_needed",
            )],
        )
        .await;
    let changed = &res.expect(StatusCode::OK)["company_settings"];
    assert_eq!(changed["retired_asset_activation_location"], "not_needed");
    assert_eq!(changed["currency"], "EUR", "settings left out are kept");

    // Moments in responses follow the company's time zone (Denver is 6 or 7 hours behind UTC).
    let created = create(&app, "teams", "team", "Clock Watchers").await;
    let local = chrono::NaiveDateTime::parse_from_str(
        created["created_at"].as_str().unwrap(),
        "%Y-%m-%d %H:%M:%S",
    )
    .unwrap();
    let behind = chrono::Utc::now().naive_utc() - local;
    assert!(
        behind > chrono::Duration::minutes(5 * 60 + 50)
            && behind < chrono::Duration::minutes(7 * 60 + 10),
        "{behind:?}"
    );
}

/// Every answer of each kind is the documented `ReferenceEntry`, with a description
/// and without; company settings are the documented `CompanySettings`.
async fn answers_are_the_documented_record(kind: Kind) {
    let app = TestApp::new(kind).await;
    for (plural, singular, name) in KINDS {
        let list = format!("/{plural}.api");
        let one = format!("/{plural}/{{id}}.api");
        let bare = app
            .post(&list, &[(&format!("{singular}[name]"), name)])
            .await
            .into_body(StatusCode::OK);
        assert_eq!(bare[singular]["description"], Value::Null);
        assert_documented(&list, "post", &bare);
        let path = format!("/{plural}/{}.api", bare[singular]["id"]);
        let updated = app
            .put(&path, &[(&format!("{singular}[description]"), "Said once")])
            .await
            .into_body(StatusCode::OK);
        assert_documented(&one, "put", &updated);
        assert_documented(&one, "get", &app.get(&path).await.into_body(StatusCode::OK));
        assert_documented(
            &list,
            "get",
            &app.get(&list).await.into_body(StatusCode::OK),
        );
        assert_documented(
            &one,
            "delete",
            &app.delete(&path).await.into_body(StatusCode::OK),
        );
    }
    let settings = app
        .get("/company_settings.api")
        .await
        .into_body(StatusCode::OK);
    assert_documented("/company_settings.api", "get", &settings);
    let changed = app
        .patch(
            "/company_settings.api",
            &[
                ("company_settings[time_zone]", "America/Denver"),
                ("company_settings[currency]", "eur"),
                (
                    "company_settings[retired_asset_activation_location]",
                    "not_needed",
                ),
                ("company_settings[best_pricing]", "true"),
            ],
        )
        .await
        .into_body(StatusCode::OK);
    assert_eq!(changed["company_settings"]["currency"], "EUR");
    assert_documented("/company_settings.api", "patch", &changed);
}
