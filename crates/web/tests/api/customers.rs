//! Customers and the persons list (customers and business contacts together).

use crate::common::{Kind, TestApp, assert_documented, assert_keys_documented, ids};
use axum::http::StatusCode;
use serde_json::{Value, json};

both!(
    answers_are_the_documented_record,
    create_with_every_field_and_read,
    create_and_update_validate_and_refusals_write_nothing,
    update_requires_names_and_keeps_the_rest,
    mark_active_and_inactive,
    delete_is_refused_while_orders_are_open,
    list_pages_at_25_and_filters_by_every_value,
    order_filters_count_real_orders,
    persons_list_shows_customers_and_contacts_with_every_filter,
    other_companies_cannot_see_touch_or_refer_to_customers,
);

async fn create_with_every_field_and_read(kind: Kind) {
    let app = TestApp::new(kind).await;
    app.custom_field(
        "Loyalty Tier",
        "dropdown",
        &["customers"],
        &["Gold", "Silver"],
    )
    .await;
    let res = app
        .post(
            "/customers.api",
            &[
                ("customer[first_name]", "Ada"),
                ("customer[last_name]", "Lovelace"),
                ("customer[description]", "Film crew lead"),
                ("customer[employee_identification_number]", "EIN-1"),
                ("customer[category]", "Film"),
                ("customer[collect_tax]", "FALSE"),
                ("customer[email]", "Ada@Example.com"),
                ("customer[login_enabled]", "TRUE"),
                ("customer[subscribed_to_emails]", "true"),
                ("customer[address_name]", "Studio"),
                ("customer[address]", "1 Analytical Way"),
                ("customer[address_line_2]", "Unit 2"),
                ("customer[city]", "London"),
                ("customer[state]", "LDN"),
                ("customer[zip_code]", "N1"),
                ("customer[country]", "gb"),
                ("customer[phone_number]", "+44 20 0000"),
                ("customer[fax]", "+44 20 0001"),
                ("customer[custom_attributes][Loyalty_Tier]", "gold"),
            ],
        )
        .await;
    let c = res.expect(StatusCode::OK)["customer"].clone();
    assert_eq!(c["first_name"], "Ada");
    assert_eq!(c["last_name"], "Lovelace");
    assert_eq!(c["full_name"], "Ada Lovelace");
    assert_eq!(c["type"], "customer");
    assert_eq!(c["description"], "Film crew lead");
    assert_eq!(c["employee_identification_number"], "EIN-1");
    assert_eq!(c["category"], "Film");
    assert_eq!(c["collect_tax"], false);
    assert_eq!(c["email"], "ada@example.com");
    assert_eq!(c["login_enabled"], true);
    assert_eq!(c["subscribed_to_emails"], true);
    assert_eq!(c["address_name"], "Studio");
    assert_eq!(c["address"], "1 Analytical Way");
    assert_eq!(c["address_line_2"], "Unit 2");
    assert_eq!(c["city"], "London");
    assert_eq!(c["state"], "LDN");
    assert_eq!(c["zip_code"], "N1");
    assert_eq!(c["country"], "GB");
    assert_eq!(c["phone_number"], "+44 20 0000");
    assert_eq!(c["fax"], "+44 20 0001");
    assert_eq!(c["status"], "active");
    assert_eq!(c["custom_attributes"], json!({"Loyalty Tier": "Gold"}));
    let id = c["id"].as_i64().unwrap();
    let details = app
        .get(&format!("/customers/{id}.api?include_custom_fields=true"))
        .await;
    assert_eq!(details.expect(StatusCode::OK)["customer"], c);
    let plain = app.get(&format!("/customers/{id}.api")).await;
    assert!(plain.body["customer"].get("Loyalty Tier").is_none());

    let bare = app
        .post(
            "/customers.api",
            &[
                ("customer[first_name]", "Bo"),
                ("customer[last_name]", "Bare"),
            ],
        )
        .await;
    let bare = &bare.expect(StatusCode::OK)["customer"];
    assert_eq!(bare["collect_tax"], true, "taxed by default");
    assert_eq!(bare["login_enabled"], false);
    assert_eq!(bare["subscribed_to_emails"], false, "e-mail is opt-in");
    assert_eq!(bare["email"], Value::Null);
    app.get("/customers/999999.api")
        .await
        .expect(StatusCode::NOT_FOUND);
}

async fn create_and_update_validate_and_refusals_write_nothing(kind: Kind) {
    let app = TestApp::new(kind).await;
    app.custom_field("Loyalty Tier", "dropdown", &["customers"], &["Gold"])
        .await;
    app.custom_field("Vendor Code", "text", &["vendors"], &[])
        .await;
    let ok = [
        ("customer[first_name]", "Ada"),
        ("customer[last_name]", "Lovelace"),
    ];
    let with = |extra: &[(&'static str, &'static str)]| -> Vec<(&'static str, &'static str)> {
        ok.iter().copied().chain(extra.iter().copied()).collect()
    };
    app.post("/customers.api", &[("customer[last_name]", "Lovelace")])
        .await
        .expect_invalid("first_name");
    app.post("/customers.api", &[("customer[first_name]", "Ada")])
        .await
        .expect_invalid("last_name");
    app.post("/customers.api", &with(&[("customer[email]", "nope")]))
        .await
        .expect_invalid("email");
    app.post("/customers.api", &with(&[("customer[country]", "XX")]))
        .await
        .expect_invalid("country");
    app.post(
        "/customers.api",
        &with(&[("customer[collect_tax]", "sometimes")]),
    )
    .await
    .expect_invalid("collect_tax");
    app.post(
        "/customers.api",
        &with(&[("customer[login_enabled]", "true")]),
    )
    .await
    .expect_invalid("email");
    app.post(
        "/customers.api",
        &with(&[("customer[custom_attributes][Loyalty_Tier]", "Bronze")]),
    )
    .await
    .expect_invalid("custom_attributes[Loyalty_Tier]");
    app.post(
        "/customers.api",
        &with(&[("customer[custom_attributes][Vendor_Code]", "V")]),
    )
    .await
    .expect_invalid("custom_attributes[Vendor_Code]");
    let res = app
        .post(
            "/customers.api",
            &[("customer[email]", "bad"), ("customer[country]", "ZZ")],
        )
        .await;
    for field in ["first_name", "last_name", "email", "country"] {
        res.expect_invalid(field);
    }
    let list = app.get("/customers.api?filter=inactive_customers").await;
    assert_eq!(list.body["customers"], json!([]));
    assert_eq!(
        app.get("/customers.api").await.body["customers"],
        json!([]),
        "nothing was written"
    );
}

async fn update_requires_names_and_keeps_the_rest(kind: Kind) {
    let app = TestApp::new(kind).await;
    let id = app
        .customer(
            "Ada",
            "Lovelace",
            &[
                ("customer[email]", "ada@example.com"),
                ("customer[city]", "London"),
                ("customer[phone_number]", "1"),
            ],
        )
        .await;
    let path = format!("/customers/{id}.api");
    let before = app.get(&path).await.body["customer"].clone();
    // The names the spec says are "to be specified" may be left out, not cleared.
    app.patch(&path, &[("customer[first_name]", "null")])
        .await
        .expect_invalid("first_name");
    app.patch(&path, &[("customer[last_name]", "null")])
        .await
        .expect_invalid("last_name");
    app.patch(
        &path,
        &[
            ("customer[first_name]", "Ada"),
            ("customer[last_name]", "King"),
            ("customer[email]", "x"),
        ],
    )
    .await
    .expect_invalid("email");
    app.patch(
        &path,
        &[
            ("customer[first_name]", "Ada"),
            ("customer[last_name]", "King"),
            ("customer[login_enabled]", "true"),
            ("customer[email]", "null"),
        ],
    )
    .await
    .expect_invalid("email");
    assert_eq!(
        app.get(&path).await.body["customer"],
        before,
        "refused updates changed nothing"
    );

    let res = app
        .patch(
            &path,
            &[
                ("customer[first_name]", "Ada"),
                ("customer[last_name]", "King"),
                ("customer[city]", "null"),
                ("customer[collect_tax]", "false"),
            ],
        )
        .await;
    let c = &res.expect(StatusCode::OK)["customer"];
    assert_eq!(c["last_name"], "King");
    assert_eq!(c["city"], Value::Null);
    assert_eq!(c["collect_tax"], false);
    assert_eq!(c["email"], "ada@example.com", "fields left out are kept");
    assert_eq!(c["phone_number"], "1");
    assert_eq!(c["created_at"], before["created_at"]);
    // An update without the names keeps them.
    let c = app
        .patch(&path, &[("customer[description]", "Regular")])
        .await
        .into_body(StatusCode::OK)["customer"]
        .clone();
    assert_eq!(
        (c["first_name"].clone(), c["last_name"].clone()),
        (Value::from("Ada"), Value::from("King"))
    );
    assert_eq!(c["description"], "Regular");
    app.put(
        &path,
        &[
            ("customer[first_name]", "Ada"),
            ("customer[last_name]", "Byron"),
        ],
    )
    .await
    .expect(StatusCode::OK);
    app.patch(
        "/customers/999999.api",
        &[("customer[first_name]", "A"), ("customer[last_name]", "B")],
    )
    .await
    .expect(StatusCode::NOT_FOUND);
}

async fn mark_active_and_inactive(kind: Kind) {
    let app = TestApp::new(kind).await;
    let id = app.customer("Ada", "Lovelace", &[]).await;
    let res = app
        .patch(&format!("/customers/{id}/mark_inactive.api"), &[])
        .await;
    assert_eq!(res.expect(StatusCode::OK)["customer"]["status"], "inactive");
    assert_eq!(
        ids(
            app.get("/customers.api").await.expect(StatusCode::OK),
            "customers"
        ),
        Vec::<i64>::new(),
        "the default list shows active customers"
    );
    assert_eq!(
        ids(
            app.get("/customers.api?filter=inactive_customers")
                .await
                .expect(StatusCode::OK),
            "customers"
        ),
        vec![id]
    );
    let res = app
        .patch(&format!("/customers/{id}/mark_active.api"), &[])
        .await;
    assert_eq!(res.expect(StatusCode::OK)["customer"]["status"], "active");
    app.patch("/customers/999999/mark_active.api", &[])
        .await
        .expect(StatusCode::NOT_FOUND);
}

async fn delete_is_refused_while_orders_are_open(kind: Kind) {
    let app = TestApp::new(kind).await;
    let id = app.customer("Ada", "Lovelace", &[]).await;
    app.order(Some(id), None, "booked").await;
    let res = app.delete(&format!("/customers/{id}.api")).await;
    assert_eq!(
        res.expect(StatusCode::CONFLICT)["message"],
        "Customer Ada Lovelace has 1 open order(s) (draft, booked, rented out or returned); complete or cancel them first, or mark the customer inactive."
    );
    app.get(&format!("/customers/{id}.api"))
        .await
        .expect(StatusCode::OK);

    // A customer whose orders are all closed can go; it is then gone for every read.
    let done = app.customer("Done", "Deal", &[]).await;
    app.order(Some(done), None, "completed").await;
    app.order(Some(done), None, "cancelled").await;
    app.post(
        &format!("/customers/{done}/shipping_addresses.api"),
        &[("shipping_address[street1]", "1 Main St")],
    )
    .await
    .expect(StatusCode::OK);
    let res = app.delete(&format!("/customers/{done}.api")).await;
    assert_eq!(res.expect(StatusCode::OK)["customer"]["id"], done);
    app.get(&format!("/customers/{done}.api"))
        .await
        .expect(StatusCode::NOT_FOUND);
    app.delete(&format!("/customers/{done}.api"))
        .await
        .expect(StatusCode::NOT_FOUND);
    app.get(&format!("/customers/{done}/shipping_addresses.api"))
        .await
        .expect(StatusCode::NOT_FOUND);
    assert_eq!(
        ids(
            app.get("/customers.api").await.expect(StatusCode::OK),
            "customers"
        ),
        vec![id]
    );
    assert_eq!(
        ids(
            app.get("/individuals.api?filter=all")
                .await
                .expect(StatusCode::OK),
            "individuals"
        ),
        vec![id]
    );
}

async fn list_pages_at_25_and_filters_by_every_value(kind: Kind) {
    let app = TestApp::new(kind).await;
    let plus = app
        .customer(
            "Pat",
            "Plus",
            &[
                ("customer[email]", "pat+film@example.com"),
                ("customer[category]", "Film"),
                ("customer[subscribed_to_emails]", "true"),
            ],
        )
        .await;
    let untaxed = app
        .customer(
            "Nat",
            "Notax",
            &[
                ("customer[collect_tax]", "false"),
                ("customer[category]", "Theatre"),
            ],
        )
        .await;
    let gone = app
        .customer(
            "Gina",
            "Gone",
            &[("customer[subscribed_to_emails]", "true")],
        )
        .await;
    app.patch(&format!("/customers/{gone}/mark_inactive.api"), &[])
        .await
        .expect(StatusCode::OK);
    let list = |q: &'static str| {
        let app = &app;
        async move {
            ids(
                app.get(&format!("/customers.api?{q}"))
                    .await
                    .expect(StatusCode::OK),
                "customers",
            )
        }
    };
    assert_eq!(list("").await, vec![plus, untaxed]);
    assert_eq!(
        list("filter=email&filter_val=pat%2Bfilm%40example.com").await,
        vec![plus]
    );
    assert_eq!(
        list("filter=email&filter_val=PAT%2BFILM%40EXAMPLE.COM").await,
        vec![plus]
    );
    assert_eq!(
        list("filter=category&filter_val=Theatre").await,
        vec![untaxed]
    );
    assert_eq!(list("filter=taxed").await, vec![plus]);
    assert_eq!(list("filter=non_taxed").await, vec![untaxed]);
    assert_eq!(list("filter=inactive_customers").await, vec![gone]);
    assert_eq!(list("filter=subscribed_emails").await, vec![plus]);
    assert_eq!(list("filter=not_subscribed_emails").await, vec![untaxed]);
    assert_eq!(
        list("filter=account_name&filter_val=nat%20no").await,
        vec![untaxed],
        "part of the full name, case aside"
    );
    assert_eq!(
        list("filter=account_name&filter_val=%25").await,
        Vec::<i64>::new(),
        "% is a literal character"
    );
    for (q, field) in [
        ("filter=colour", "filter"),
        ("filter=all", "filter"),
        ("filter=email", "filter_val"),
        ("filter=category", "filter_val"),
        ("filter=account_name", "filter_val"),
        ("filter=completed_orders", "filter_val"),
        ("filter=completed_orders&filter_val=lots", "filter_val"),
        ("filter_val=x", "filter"),
        ("page=0", "page"),
    ] {
        app.get(&format!("/customers.api?{q}"))
            .await
            .expect_invalid(field);
    }

    for i in 0..24 {
        app.customer(&format!("Many{i:02}"), "Customer", &[]).await;
    }
    let res = app.get("/customers.api").await;
    let body = res.expect(StatusCode::OK);
    assert_eq!(body["customers"].as_array().unwrap().len(), 25);
    assert_eq!(body["total_pages"], 2);
    assert_eq!(body["current_page"], 1);
    let res = app.get("/customers.api?page=2").await;
    assert_eq!(
        res.expect(StatusCode::OK)["customers"]
            .as_array()
            .unwrap()
            .len(),
        1
    );
}

async fn order_filters_count_real_orders(kind: Kind) {
    let app = TestApp::new(kind).await;
    let renting = app.customer("Rita", "Renting", &[]).await;
    let regular = app.customer("Reg", "Ular", &[]).await;
    let once = app.customer("Olly", "Once", &[]).await;
    let never = app.customer("Nev", "Er", &[]).await;
    app.order(Some(renting), None, "checked_out").await;
    app.order(Some(renting), None, "completed").await;
    for _ in 0..6 {
        app.order(Some(regular), None, "completed").await;
    }
    app.order(Some(regular), None, "booked").await;
    app.order(Some(once), None, "completed").await;
    app.order(Some(once), None, "void").await;
    let list = |q: &'static str| {
        let app = &app;
        async move {
            ids(
                app.get(&format!("/customers.api?{q}"))
                    .await
                    .expect(StatusCode::OK),
                "customers",
            )
        }
    };
    assert_eq!(list("filter=checked_out_orders").await, vec![renting]);
    assert_eq!(
        list("filter=completed_orders&filter_val=%3E5").await,
        vec![regular],
        "URL-encoded >5"
    );
    let res = app
        .req(http::Method::GET, "/customers.api")
        .form(&[("filter", "completed_orders"), ("filter_val", ">5")])
        .send()
        .await;
    assert_eq!(
        ids(res.expect(StatusCode::OK), "customers"),
        vec![regular],
        "a comparison in a GET body"
    );
    assert_eq!(
        list("filter=completed_orders&filter_val=greater_than%205").await,
        vec![regular],
        "the spec's comparison in words"
    );
    assert_eq!(
        list("filter=completed_orders&filter_val=less-than+2").await,
        vec![renting, once, never]
    );
    assert_eq!(
        list("filter=completed_orders&filter_val=%3C2").await,
        vec![renting, once, never]
    );
    assert_eq!(
        list("filter=completed_orders&filter_val=%3E%3D1").await,
        vec![renting, regular, once]
    );
    assert_eq!(
        list("filter=completed_orders&filter_val=%3C%3D0").await,
        vec![never]
    );
    assert_eq!(
        list("filter=completed_orders&filter_val=6").await,
        vec![regular]
    );
    // Another company's orders never count.
    let other = TestApp::builder(kind).beside(&app).build().await;
    let theirs = other.customer("Their", "Customer", &[]).await;
    other.order(Some(theirs), None, "checked_out").await;
    assert_eq!(list("filter=checked_out_orders").await, vec![renting]);
}

async fn persons_list_shows_customers_and_contacts_with_every_filter(kind: Kind) {
    let app = TestApp::new(kind).await;
    let acme = app.business("Acme Rentals", &[]).await;
    let ada = app
        .customer(
            "Ada",
            "Lovelace",
            &[
                ("customer[email]", "ada@example.com"),
                ("customer[login_enabled]", "true"),
                ("customer[subscribed_to_emails]", "true"),
            ],
        )
        .await;
    let bob = app
        .contact(
            "Builder",
            &acme.to_string(),
            &[("contact[collect_tax]", "false")],
        )
        .await;
    let quiet = app.customer("Quinn", "Quiet", &[]).await;
    app.patch(&format!("/customers/{quiet}/mark_inactive.api"), &[])
        .await
        .expect(StatusCode::OK);
    let list = |q: &'static str| {
        let app = &app;
        async move {
            ids(
                app.get(&format!("/individuals.api?{q}"))
                    .await
                    .expect(StatusCode::OK),
                "individuals",
            )
        }
    };
    assert_eq!(list("").await, vec![ada, bob]);
    assert_eq!(list("filter=all").await, vec![ada, bob, quiet]);
    assert_eq!(list("filter=active_contacts").await, vec![ada, bob]);
    assert_eq!(
        list("filter=email&filter_val=ada%40example.com").await,
        vec![ada]
    );
    assert_eq!(list("filter=subscribed_emails").await, vec![ada]);
    assert_eq!(list("filter=not_subscribed_emails").await, vec![bob]);
    assert_eq!(list("filter=taxed").await, vec![ada]);
    assert_eq!(list("filter=non_taxed").await, vec![bob]);
    assert_eq!(list("filter=non_business_contacts").await, vec![ada]);
    assert_eq!(list("filter=business_contacts").await, vec![bob]);
    assert_eq!(list("filter=login_enabled").await, vec![ada]);
    let res = app.get("/individuals.api").await;
    let body = res.expect(StatusCode::OK);
    assert_eq!(body["individuals"][0]["type"], "customer");
    assert_eq!(body["individuals"][1]["type"], "business_contact");
    assert_eq!(body["individuals"][1]["business_ids"], json!([acme]));
    assert_eq!(body["total_pages"], 1);
    app.get("/individuals.api?filter=inactive_customers")
        .await
        .expect_invalid("filter");
    app.get("/individuals.api?filter=email")
        .await
        .expect_invalid("filter_val");
    // Customers and contacts keep their own paths.
    app.get(&format!("/customers/{bob}.api"))
        .await
        .expect(StatusCode::NOT_FOUND);
    app.get(&format!("/contacts/{ada}.api"))
        .await
        .expect(StatusCode::NOT_FOUND);
}

async fn other_companies_cannot_see_touch_or_refer_to_customers(kind: Kind) {
    let a = TestApp::new(kind).await;
    let b = TestApp::builder(kind).beside(&a).build().await;
    let id = a
        .customer("Ada", "Lovelace", &[("customer[email]", "ada@example.com")])
        .await;
    let path = format!("/customers/{id}.api");
    let before = a.get(&path).await.body["customer"].clone();
    b.get(&path).await.expect(StatusCode::NOT_FOUND);
    b.patch(
        &path,
        &[
            ("customer[first_name]", "Hi"),
            ("customer[last_name]", "Jack"),
        ],
    )
    .await
    .expect(StatusCode::NOT_FOUND);
    b.delete(&path).await.expect(StatusCode::NOT_FOUND);
    b.patch(&format!("/customers/{id}/mark_inactive.api"), &[])
        .await
        .expect(StatusCode::NOT_FOUND);
    b.post(
        &format!("/customers/{id}/shipping_addresses.api"),
        &[("shipping_address[street1]", "1 Intruder Way")],
    )
    .await
    .expect(StatusCode::NOT_FOUND);
    assert_eq!(
        b.get("/customers.api?filter=email&filter_val=ada%40example.com")
            .await
            .body["customers"],
        json!([])
    );
    assert_eq!(
        b.get("/individuals.api?filter=all").await.body["individuals"],
        json!([])
    );
    assert_eq!(
        a.get(&path).await.expect(StatusCode::OK)["customer"],
        before,
        "untouched"
    );
}

/// Every answer is the documented `Customer` (and a page of persons, customers and
/// contacts, is of `Person`s): with and without the optional fields, with custom fields
/// as keys (`include_custom_fields`) or not, alone and on a page, after each action.
async fn answers_are_the_documented_record(kind: Kind) {
    let app = TestApp::new(kind).await;
    app.custom_field("Loyalty Tier", "dropdown", &["customers"], &["Gold"])
        .await;
    app.custom_field("Badge", "text", &["contacts"], &[]).await;
    let bare = app
        .post(
            "/customers.api",
            &[
                ("customer[last_name]", "Bare"),
                ("customer[first_name]", "Bo"),
            ],
        )
        .await
        .into_body(StatusCode::OK);
    assert_documented("/customers.api", "post", &bare);
    assert_keys_documented("Customer", &bare["customer"], &[]);
    let full = app
        .post(
            "/customers.api",
            &[
                ("customer[first_name]", "Ada"),
                ("customer[last_name]", "Lovelace"),
                ("customer[description]", "Film crew lead"),
                ("customer[employee_identification_number]", "EIN-1"),
                ("customer[category]", "Film"),
                ("customer[email]", "ada@example.com"),
                ("customer[login_enabled]", "true"),
                ("customer[address_name]", "Studio"),
                ("customer[address]", "1 Analytical Way"),
                ("customer[address_line_2]", "Unit 2"),
                ("customer[city]", "London"),
                ("customer[state]", "LDN"),
                ("customer[zip_code]", "N1"),
                ("customer[country]", "gb"),
                ("customer[phone_number]", "+44 20 0000"),
                ("customer[fax]", "+44 20 0001"),
                ("customer[custom_attributes][Loyalty_Tier]", "Gold"),
            ],
        )
        .await
        .into_body(StatusCode::OK);
    assert_documented("/customers.api", "post", &full);
    let custom = ["Loyalty Tier", "Badge"];
    assert_eq!(
        full["customer"]["Loyalty Tier"], "Gold",
        "its fields as keys"
    );
    assert_keys_documented("Customer", &full["customer"], &custom);
    let acme = app.business("Acme", &[]).await;
    app.contact(
        "Builder",
        &acme.to_string(),
        &[("contact[custom_attributes][Badge]", "B7")],
    )
    .await;
    let id = full["customer"]["id"].as_i64().unwrap();
    let path = format!("/customers/{id}.api");
    for include in [false, true] {
        let one = app
            .get(&format!("{path}?include_custom_fields={include}"))
            .await
            .into_body(StatusCode::OK);
        assert_documented("/customers/{id}.api", "get", &one);
        assert_keys_documented("Customer", &one["customer"], &custom);
        let page = app
            .get(&format!("/customers.api?include_custom_fields={include}"))
            .await
            .into_body(StatusCode::OK);
        assert_documented("/customers.api", "get", &page);
        assert_eq!(page["customers"].as_array().unwrap().len(), 2);
        let persons = app
            .get(&format!("/individuals.api?include_custom_fields={include}"))
            .await
            .into_body(StatusCode::OK);
        assert_documented("/individuals.api", "get", &persons);
        let persons = persons["individuals"].as_array().unwrap();
        assert_eq!(persons.len(), 3, "both kinds");
        for p in persons {
            let schema = match p["type"].as_str() {
                Some("customer") => "Customer",
                _ => "Contact",
            };
            assert_keys_documented(schema, p, &custom);
        }
    }
    for method in ["put", "patch"] {
        let form = [
            ("customer[description]", "null"),
            ("customer[city]", "null"),
        ];
        let res = match method {
            "put" => app.put(&path, &form).await,
            _ => app.patch(&path, &form).await,
        };
        let updated = res.into_body(StatusCode::OK);
        assert_eq!(updated["customer"]["city"], Value::Null);
        assert_documented("/customers/{id}.api", method, &updated);
    }
    for action in ["mark_inactive", "mark_active"] {
        for method in ["put", "patch"] {
            let action_path = format!("/customers/{id}/{action}.api");
            let res = match method {
                "put" => app.put(&action_path, &[]).await,
                _ => app.patch(&action_path, &[]).await,
            };
            let body = res.into_body(StatusCode::OK);
            assert_documented(&format!("/customers/{{id}}/{action}.api"), method, &body);
        }
    }
    let deleted = app.delete(&path).await.into_body(StatusCode::OK);
    assert_eq!(deleted["customer"]["id"], id);
    assert_documented("/customers/{id}.api", "delete", &deleted);
}
