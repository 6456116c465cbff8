//! Businesses, business contacts, and the addresses of customers and businesses.

use crate::common::{Kind, TestApp, assert_documented, assert_keys_documented, ids};
use axum::http::{Method, StatusCode};
use serde_json::{Value, json};

both!(
    businesses_answer_the_documented_record,
    contacts_answer_the_documented_record,
    addresses_answer_the_documented_record,
    businesses_are_created_read_updated_with_every_field,
    business_validation_and_refusals_write_nothing,
    business_list_pages_at_20_with_every_filter,
    contacts_are_created_read_updated_and_deleted,
    contacts_join_businesses_and_change_status,
    contact_list_filters_by_every_value,
    customer_addresses_keep_one_default,
    business_addresses_have_types_defaults_and_contacts,
    other_companies_cannot_see_touch_or_refer_to_businesses_and_contacts,
    business_problems_are_named_in_one_answer,
);

async fn businesses_are_created_read_updated_with_every_field(kind: Kind) {
    let app = TestApp::new(kind).await;
    app.custom_field("Account Manager", "text", &["businesses"], &[])
        .await;
    let res = app
        .post(
            "/businesses.api",
            &[
                ("business[name]", "Acme Rentals"),
                ("business[description]", "Film equipment"),
                ("business[status]", "1"),
                ("business[industry]", "Film"),
                ("business[email]", "Office@Acme.example"),
                ("business[address_name]", "HQ"),
                ("business[address]", "1 Main St"),
                ("business[address_line_2]", "Suite 2"),
                ("business[country]", "us"),
                ("business[state]", "CO"),
                ("business[city]", "Denver"),
                ("business[zip_code]", "80202"),
                ("business[phone_number]", "555 0100"),
                ("business[fax]", "555 0101"),
                ("business[display_picture]", "https://acme.example/logo.png"),
                ("business[tax_free]", "true"),
                ("business[company_default_payment_terms]", "TRUE"),
                ("business[custom_attributes][Account_Manager]", "Sam"),
            ],
        )
        .await;
    let b = res.expect(StatusCode::OK)["business"].clone();
    assert_eq!(b["name"], "Acme Rentals");
    assert_eq!(b["description"], "Film equipment");
    assert_eq!(b["status"], 1);
    assert_eq!(b["industry"], "Film");
    assert_eq!(b["email"], "Office@Acme.example");
    assert_eq!(b["address_name"], "HQ");
    assert_eq!(b["address"], "1 Main St");
    assert_eq!(b["address_line_2"], "Suite 2");
    assert_eq!(b["country"], "US");
    assert_eq!(b["state"], "CO");
    assert_eq!(b["city"], "Denver");
    assert_eq!(b["zip_code"], "80202");
    assert_eq!(b["phone_number"], "555 0100");
    assert_eq!(b["fax"], "555 0101");
    assert_eq!(b["display_picture"], "https://acme.example/logo.png");
    assert_eq!(b["tax_free"], true);
    assert_eq!(b["company_default_payment_terms"], true);
    assert_eq!(b["custom_attributes"], json!({"Account Manager": "Sam"}));
    let id = b["id"].as_i64().unwrap();
    let path = format!("/businesses/{id}.api");
    assert_eq!(
        app.get(&format!("{path}?include_custom_fields=true"))
            .await
            .expect(StatusCode::OK)["business"]["Account Manager"],
        "Sam"
    );

    let res = app
        .patch(
            &path,
            &[
                ("business[name]", "Acme Rentals Inc"),
                ("business[status]", "0"),
                ("business[fax]", "null"),
                ("business[tax_free]", "false"),
            ],
        )
        .await;
    let u = &res.expect(StatusCode::OK)["business"];
    assert_eq!(u["name"], "Acme Rentals Inc");
    assert_eq!(u["status"], 0);
    assert_eq!(u["fax"], Value::Null);
    assert_eq!(u["tax_free"], false);
    assert_eq!(u["industry"], "Film", "fields left out are kept");
    assert_eq!(u["custom_attributes"], json!({"Account Manager": "Sam"}));
    let bare = app
        .post("/businesses.api", &[("business[name]", "Bare")])
        .await;
    let bare = &bare.expect(StatusCode::OK)["business"];
    assert_eq!(bare["status"], 1, "active by default");
    assert_eq!(bare["tax_free"], false);
    app.get("/businesses/999999.api")
        .await
        .expect(StatusCode::NOT_FOUND);
    app.patch("/businesses/999999.api", &[("business[name]", "Nobody")])
        .await
        .expect(StatusCode::NOT_FOUND);
}

async fn business_validation_and_refusals_write_nothing(kind: Kind) {
    let app = TestApp::new(kind).await;
    app.post("/businesses.api", &[("business[industry]", "Film")])
        .await
        .expect_invalid("name");
    for (field, bad) in [
        ("status", "2"),
        ("status", "active"),
        ("email", "nope"),
        ("country", "USA"),
        ("tax_free", "maybe"),
        ("company_default_payment_terms", "x"),
    ] {
        let key = format!("business[{field}]");
        app.post(
            "/businesses.api",
            &[("business[name]", "Acme"), (&key, bad)],
        )
        .await
        .expect_invalid(field);
    }
    app.post(
        "/businesses.api",
        &[
            ("business[name]", "Acme"),
            ("business[custom_attributes][Nope]", "1"),
        ],
    )
    .await
    .expect_invalid("custom_attributes[Nope]");
    assert_eq!(
        app.get("/businesses.api").await.body["businesses"],
        json!([]),
        "nothing was written"
    );
    let id = app.business("Acme", &[]).await;
    let path = format!("/businesses/{id}.api");
    let before = app.get(&path).await.body["business"].clone();
    app.patch(&path, &[("business[name]", "null")])
        .await
        .expect_invalid("name");
    app.patch(
        &path,
        &[("business[name]", "Acme"), ("business[status]", "9")],
    )
    .await
    .expect_invalid("status");
    assert_eq!(app.get(&path).await.body["business"], before);
    // An update without the name keeps it.
    let b = app
        .patch(&path, &[("business[industry]", "Film")])
        .await
        .into_body(StatusCode::OK)["business"]
        .clone();
    assert_eq!(b["name"], "Acme");
    assert_eq!(b["industry"], "Film");
}

async fn business_list_pages_at_20_with_every_filter(kind: Kind) {
    let app = TestApp::new(kind).await;
    let renting = app.business("Renting Co", &[]).await;
    let booked = app.business("Booked Co", &[]).await;
    let regular = app.business("Regular Co", &[]).await;
    let asleep = app
        .business("Asleep Co", &[("business[status]", "0")])
        .await;
    app.order(None, Some(renting), "checked_out").await;
    app.order(None, Some(booked), "booked").await;
    for _ in 0..3 {
        app.order(None, Some(regular), "completed").await;
    }
    app.order(None, Some(asleep), "completed").await;
    let list = |q: &'static str| {
        let app = &app;
        async move {
            ids(
                app.get(&format!("/businesses.api?{q}"))
                    .await
                    .expect(StatusCode::OK),
                "businesses",
            )
        }
    };
    assert_eq!(
        list("").await,
        vec![renting, booked, regular, asleep],
        "all by default"
    );
    assert_eq!(
        list("filter=all").await,
        vec![renting, booked, regular, asleep]
    );
    assert_eq!(
        list("filter=active_businesses").await,
        vec![renting, booked, regular]
    );
    assert_eq!(list("filter=inactive_businesses").await, vec![asleep]);
    assert_eq!(list("filter=checked_out_orders").await, vec![renting]);
    assert_eq!(list("filter=active_customers").await, vec![renting, booked]);
    assert_eq!(
        list("filter=completed_orders&filter_val=%3E2").await,
        vec![regular]
    );
    assert_eq!(
        list("filter=completed_orders&filter_val=greater_than%202").await,
        vec![regular]
    );
    assert_eq!(
        list("filter=completed_orders&filter_val=%3C1").await,
        vec![renting, booked]
    );
    assert_eq!(
        list("filter=completed_orders&filter_val=1").await,
        vec![asleep]
    );
    app.get("/businesses.api?filter=colour")
        .await
        .expect_invalid("filter");
    app.get("/businesses.api?filter=completed_orders")
        .await
        .expect_invalid("filter_val");
    app.get("/businesses.api?filter=completed_orders&filter_val=many")
        .await
        .expect_invalid("filter_val");

    for i in 0..17 {
        app.business(&format!("Filler {i:02}"), &[]).await;
    }
    let res = app.get("/businesses.api").await;
    let body = res.expect(StatusCode::OK);
    assert_eq!(
        body["businesses"].as_array().unwrap().len(),
        20,
        "20 a page"
    );
    assert_eq!(body["total_pages"], 2);
    let res = app.get("/businesses.api?page=2").await;
    assert_eq!(
        res.expect(StatusCode::OK)["businesses"]
            .as_array()
            .unwrap()
            .len(),
        1
    );
}

async fn contacts_are_created_read_updated_and_deleted(kind: Kind) {
    let app = TestApp::new(kind).await;
    let acme = app.business("Acme", &[]).await;
    let globex = app.business("Globex", &[]).await;
    app.custom_field("Extension", "number", &["contacts"], &[])
        .await;
    let res = app
        .post(
            "/contacts.api",
            &[
                ("contact[last_name]", "Builder"),
                ("contact[first_name]", "Bob"),
                ("contact[description]", "Site manager"),
                ("contact[employee_identification_number]", "E-9"),
                ("contact[collect_tax]", "false"),
                ("contact[email]", "bob@acme.example"),
                ("contact[login_enabled]", "true"),
                ("contact[subscribed_to_emails]", "true"),
                ("contact[phone_number]", "555"),
                ("contact[fax]", "556"),
                ("contact[custom_attributes][Extension]", "42"),
                ("business_ids", &format!("{acme},{globex}")),
            ],
        )
        .await;
    let c = res.expect(StatusCode::OK)["contact"].clone();
    assert_eq!(c["full_name"], "Bob Builder");
    assert_eq!(c["type"], "business_contact");
    assert_eq!(c["business_ids"], json!([acme, globex]));
    assert_eq!(c["collect_tax"], false);
    assert_eq!(c["login_enabled"], true);
    assert_eq!(c["custom_attributes"], json!({"Extension": "42"}));
    let id = c["id"].as_i64().unwrap();
    let path = format!("/contacts/{id}.api");
    assert_eq!(
        app.get(&format!("{path}?include_custom_fields=true"))
            .await
            .expect(StatusCode::OK)["contact"],
        c
    );

    // A first name is optional for contacts; last name and businesses are not.
    let solo = app.contact("Solo", &acme.to_string(), &[]).await;
    let s = app.get(&format!("/contacts/{solo}.api")).await;
    assert_eq!(s.body["contact"]["full_name"], "Solo");
    app.post(
        "/contacts.api",
        &[
            ("contact[first_name]", "No"),
            ("business_ids", &acme.to_string()),
        ],
    )
    .await
    .expect_invalid("last_name");
    let res = app
        .post("/contacts.api", &[("contact[last_name]", "Nobiz")])
        .await;
    assert_eq!(
        res.body["errors"],
        json!({"business_ids": ["can't be blank: send contact[business_ids] and/or business_ids"]})
    );
    // Either name alone is enough, in a form or in JSON.
    let inside = app
        .post(
            "/contacts.api",
            &[
                ("contact[last_name]", "Inside"),
                ("contact[business_ids]", &acme.to_string()),
            ],
        )
        .await
        .expect(StatusCode::OK)["contact"]["id"]
        .clone();
    let json = app
        .req(Method::POST, "/contacts.api")
        .json(json!({"contact": {"last_name": "Json", "business_ids": [acme]}}))
        .send()
        .await;
    assert_eq!(
        json.expect(StatusCode::OK)["contact"]["business_ids"],
        json!([acme])
    );
    let res = app
        .req(Method::POST, "/contacts.api")
        .json(json!({"contact": {"last_name": "Json"}, "business_ids": null}))
        .send()
        .await;
    res.expect_invalid("business_ids");
    assert_eq!(
        app.get(&format!("/contacts/{inside}.api"))
            .await
            .expect(StatusCode::OK)["contact"]["business_ids"],
        json!([acme])
    );
    let json_id = json.body["contact"]["id"].clone();
    for made in [inside, json_id] {
        app.delete(&format!("/contacts/{made}.api"))
            .await
            .expect(StatusCode::OK);
    }
    let res = app
        .post(
            "/contacts.api",
            &[("contact[last_name]", "Nobiz"), ("business_ids", "999999")],
        )
        .await;
    res.expect_invalid("business_ids");
    assert_eq!(
        res.body["errors"],
        json!({"business_ids": ["has no business with id 999999"]})
    );
    app.post(
        "/contacts.api",
        &[("contact[last_name]", "Nobiz"), ("business_ids", "abc")],
    )
    .await
    .expect_invalid("business_ids");

    // Update: last name kept when left out, never cleared; business_ids replaces the
    // list.
    app.patch(&path, &[("contact[last_name]", "null")])
        .await
        .expect_invalid("last_name");
    app.patch(
        &path,
        &[
            ("contact[last_name]", "Builder"),
            ("business_ids", "999999"),
        ],
    )
    .await
    .expect_invalid("business_ids");
    let res = app
        .patch(
            &path,
            &[
                ("contact[last_name]", "Builder"),
                ("contact[first_name]", "Robert"),
                ("business_ids", &globex.to_string()),
            ],
        )
        .await;
    let u = &res.expect(StatusCode::OK)["contact"];
    assert_eq!(u["full_name"], "Robert Builder");
    assert_eq!(u["business_ids"], json!([globex]));
    assert_eq!(u["email"], "bob@acme.example");
    let u = app
        .patch(&path, &[("contact[description]", "Site lead")])
        .await
        .into_body(StatusCode::OK)["contact"]
        .clone();
    assert_eq!(u["full_name"], "Robert Builder", "names left out are kept");

    // Delete: refused with open orders, then gone.
    app.order(Some(id), Some(globex), "checked_out").await;
    assert_eq!(
        app.delete(&path).await.expect(StatusCode::CONFLICT)["message"],
        "Contact Robert Builder has 1 open order(s) (draft, booked, rented out or returned); complete or cancel them first, or mark the contact inactive."
    );
    app.delete(&format!("/contacts/{solo}.api"))
        .await
        .expect(StatusCode::OK);
    app.get(&format!("/contacts/{solo}.api"))
        .await
        .expect(StatusCode::NOT_FOUND);
    assert_eq!(
        ids(
            app.get("/contacts.api?filter=all")
                .await
                .expect(StatusCode::OK),
            "contacts"
        ),
        vec![id]
    );
}

async fn contacts_join_businesses_and_change_status(kind: Kind) {
    let app = TestApp::new(kind).await;
    let acme = app.business("Acme", &[]).await;
    let globex = app.business("Globex", &[]).await;
    let bob = app.contact("Builder", &acme.to_string(), &[]).await;
    let sue = app.contact("Smith", &globex.to_string(), &[]).await;
    let res = app
        .post(
            "/contacts/add_existing_contacts_to_business.api",
            &[
                ("contact_ids", &format!("{bob},{sue}")),
                ("business_id", &globex.to_string()),
            ],
        )
        .await;
    let body = res.expect(StatusCode::OK);
    assert_eq!(body["business_id"], globex);
    assert_eq!(body["contacts"][0]["business_ids"], json!([acme, globex]));
    assert_eq!(
        body["contacts"][1]["business_ids"],
        json!([globex]),
        "already there: unchanged"
    );
    let add = |form: Vec<(&'static str, String)>| {
        let app = &app;
        async move {
            let form: Vec<(&str, &str)> = form.iter().map(|(k, v)| (*k, v.as_str())).collect();
            app.post("/contacts/add_existing_contacts_to_business.api", &form)
                .await
        }
    };
    add(vec![("contact_ids", bob.to_string())])
        .await
        .expect_invalid("business_id");
    add(vec![("business_id", acme.to_string())])
        .await
        .expect_invalid("contact_ids");
    let res = add(vec![
        ("contact_ids", format!("999999,{bob},999998")),
        ("business_id", acme.to_string()),
    ])
    .await;
    res.expect_invalid("contact_ids");
    assert_eq!(
        res.body["errors"],
        json!({"contact_ids": ["has no contact with id 999999, 999998"]})
    );
    add(vec![
        ("contact_ids", bob.to_string()),
        ("business_id", "999999".into()),
    ])
    .await
    .expect_invalid("business_id");
    let customer = app.customer("Ada", "Lovelace", &[]).await;
    add(vec![
        ("contact_ids", customer.to_string()),
        ("business_id", acme.to_string()),
    ])
    .await
    .expect_invalid("contact_ids");

    let res = app
        .patch(
            &format!("/contacts/{bob}/update_status.api"),
            &[("mark_inactive", "TRUE")],
        )
        .await;
    assert_eq!(res.expect(StatusCode::OK)["contact"]["status"], "inactive");
    assert_eq!(
        ids(
            app.get("/contacts.api").await.expect(StatusCode::OK),
            "contacts"
        ),
        vec![sue]
    );
    let res = app
        .patch(
            &format!("/contacts/{bob}/update_status.api"),
            &[("mark_active", "TRUE")],
        )
        .await;
    assert_eq!(res.expect(StatusCode::OK)["contact"]["status"], "active");
    app.patch(&format!("/contacts/{bob}/update_status.api"), &[])
        .await
        .expect_invalid("mark_active");
    app.patch(
        &format!("/contacts/{bob}/update_status.api"),
        &[("mark_active", "TRUE"), ("mark_inactive", "TRUE")],
    )
    .await
    .expect_invalid("mark_active");
    app.patch(
        &format!("/contacts/{bob}/update_status.api"),
        &[("mark_active", "yes please")],
    )
    .await
    .expect_invalid("mark_active");
    app.patch(
        "/contacts/999999/update_status.api",
        &[("mark_active", "TRUE")],
    )
    .await
    .expect(StatusCode::NOT_FOUND);
}

async fn contact_list_filters_by_every_value(kind: Kind) {
    let app = TestApp::new(kind).await;
    let acme = app.business("Acme", &[]).await;
    let a = acme.to_string();
    let ship = app
        .contact(
            "Shipper",
            &a,
            &[
                ("contact[email]", "ship@acme.example"),
                ("contact[subscribed_to_emails]", "true"),
            ],
        )
        .await;
    let bill = app
        .contact(
            "Biller",
            &a,
            &[
                ("contact[email]", "bill@acme.example"),
                ("contact[login_enabled]", "true"),
            ],
        )
        .await;
    let both = app.contact("Both", &a, &[]).await;
    let other = app.contact("Other", &a, &[]).await;
    let gone = app.contact("Gone", &a, &[]).await;
    app.patch(
        &format!("/contacts/{gone}/update_status.api"),
        &[("mark_inactive", "true")],
    )
    .await
    .expect(StatusCode::OK);
    let addr = |ty: &'static str, who: i64| {
        let app = &app;
        async move {
            let who = who.to_string();
            let form = [
                ("shipping_address[street1]", "1 Main St"),
                ("shipping_address[address_type]", ty),
                ("shipping_address[contact_id]", who.as_str()),
            ];
            app.post(&format!("/businesses/{acme}/shipping_addresses.api"), &form)
                .await
                .expect(StatusCode::OK);
        }
    };
    addr("shipping", ship).await;
    addr("billing", bill).await;
    addr("shipping", both).await;
    addr("billing", both).await;
    addr("other", other).await;
    let list = |q: &'static str| {
        let app = &app;
        async move {
            ids(
                app.get(&format!("/contacts.api?{q}"))
                    .await
                    .expect(StatusCode::OK),
                "contacts",
            )
        }
    };
    assert_eq!(list("").await, vec![ship, bill, both, other]);
    assert_eq!(
        list("filter=all").await,
        vec![ship, bill, both, other, gone]
    );
    assert_eq!(
        list("filter=active_contacts").await,
        vec![ship, bill, both, other]
    );
    assert_eq!(list("filter=inactive_contacts").await, vec![gone]);
    assert_eq!(
        list("filter=email&filter_val=bill%40acme.example").await,
        vec![bill]
    );
    assert_eq!(list("filter=subscribed_emails").await, vec![ship]);
    assert_eq!(
        list("filter=not_subscribed_emails").await,
        vec![bill, both, other]
    );
    assert_eq!(list("filter=login_enabled").await, vec![bill]);
    assert_eq!(
        list("filter=primary_contact_person").await,
        vec![ship, bill, both, other]
    );
    assert_eq!(list("filter=shipping").await, vec![ship, both]);
    assert_eq!(list("filter=billing").await, vec![bill, both]);
    assert_eq!(list("filter=both").await, vec![both]);
    app.get("/contacts.api?filter=taxed")
        .await
        .expect_invalid("filter");
    app.get("/contacts.api?filter=email")
        .await
        .expect_invalid("filter_val");
}

async fn customer_addresses_keep_one_default(kind: Kind) {
    let app = TestApp::new(kind).await;
    let ada = app.customer("Ada", "Lovelace", &[]).await;
    let base = format!("/customers/{ada}/shipping_addresses");
    let res = app
        .post(
            &format!("{base}.api"),
            &[
                ("shipping_address[street1]", "1 Main St"),
                ("shipping_address[country]", "gb"),
                ("billing_address", "true"),
                ("shipping_address[lati]", "51.5"),
            ],
        )
        .await;
    let first = res.expect(StatusCode::OK)["shipping_address"].clone();
    assert_eq!(first["customer_id"], ada);
    assert_eq!(first["billing_address"], true);
    assert_eq!(
        first["default_address"], true,
        "the first address becomes the default"
    );
    assert_eq!(first["country"], "GB");
    let res = app
        .post(
            &format!("{base}.api"),
            &[
                ("shipping_address[street1]", "2 Side St"),
                ("default_address", "true"),
            ],
        )
        .await;
    let second = res.expect(StatusCode::OK)["shipping_address"].clone();
    assert_eq!(second["billing_address"], false);
    let default = app.get(&format!("{base}/default_address.api")).await;
    assert_eq!(
        default.expect(StatusCode::OK)["shipping_address"]["id"],
        second["id"]
    );
    let one = app.get(&format!("{base}/{}.api", first["id"])).await;
    assert_eq!(
        one.expect(StatusCode::OK)["shipping_address"]["default_address"],
        false
    );
    let res = app
        .patch(
            &format!("{base}/{}.api", first["id"]),
            &[
                ("shipping_address[city]", "London"),
                ("billing_address", "false"),
            ],
        )
        .await;
    let updated = &res.expect(StatusCode::OK)["shipping_address"];
    assert_eq!(updated["city"], "London");
    assert_eq!(updated["billing_address"], false);
    app.post(&format!("{base}.api"), &[("shipping_address[city]", "X")])
        .await
        .expect_invalid("street1");
    app.post(
        &format!("{base}.api"),
        &[
            ("shipping_address[street1]", "X"),
            ("billing_address", "maybe"),
        ],
    )
    .await
    .expect_invalid("billing_address");
    let list = app.get(&format!("{base}.api")).await;
    assert_eq!(
        list.expect(StatusCode::OK)["shipping_addresses"]
            .as_array()
            .unwrap()
            .len(),
        2
    );
    assert_eq!(list.body["total_pages"], 1);
    app.get("/customers/999999/shipping_addresses.api")
        .await
        .expect(StatusCode::NOT_FOUND);
    // A business contact is not a customer.
    let acme = app.business("Acme", &[]).await;
    let bob = app.contact("Builder", &acme.to_string(), &[]).await;
    app.get(&format!("/customers/{bob}/shipping_addresses.api"))
        .await
        .expect(StatusCode::NOT_FOUND);
}

async fn business_addresses_have_types_defaults_and_contacts(kind: Kind) {
    let app = TestApp::new(kind).await;
    let acme = app.business("Acme", &[]).await;
    let globex = app.business("Globex", &[]).await;
    let bob = app.contact("Builder", &acme.to_string(), &[]).await;
    let stranger = app.contact("Stranger", &globex.to_string(), &[]).await;
    let base = format!("/businesses/{acme}/shipping_addresses");
    let post = |form: Vec<(&'static str, String)>| {
        let app = &app;
        let base = base.clone();
        async move {
            let form: Vec<(&str, &str)> = form.iter().map(|(k, v)| (*k, v.as_str())).collect();
            app.post(&format!("{base}.api"), &form).await
        }
    };
    let res = post(vec![
        ("shipping_address[street1]", "1 Dock Rd".into()),
        ("shipping_address[contact_id]", bob.to_string()),
    ])
    .await;
    let ship = res.expect(StatusCode::OK)["shipping_address"].clone();
    assert_eq!(ship["business_id"], acme);
    assert_eq!(ship["address_type"], "shipping", "shipping by default");
    assert_eq!(ship["contact_id"], bob);
    assert_eq!(ship["default_address"], true);
    let res = post(vec![
        ("shipping_address[street1]", "2 Ledger Ln".into()),
        ("shipping_address[address_type]", "billing".into()),
    ])
    .await;
    let bill = res.expect(StatusCode::OK)["shipping_address"].clone();
    assert_eq!(
        bill["default_address"], true,
        "the first billing address is the default billing address"
    );
    let res = post(vec![
        ("shipping_address[street1]", "3 Dock Rd".into()),
        ("default_address", "true".into()),
    ])
    .await;
    let ship2 = res.expect(StatusCode::OK)["shipping_address"].clone();

    let default = app.get(&format!("{base}/default_address.api")).await;
    assert_eq!(
        default.expect(StatusCode::OK)["shipping_address"]["id"],
        ship2["id"]
    );
    let billing = app
        .get(&format!("{base}/default_billing_address.api"))
        .await;
    assert_eq!(
        billing.expect(StatusCode::OK)["shipping_address"]["id"],
        bill["id"],
        "defaults are kept per type"
    );
    app.get(&format!(
        "/businesses/{globex}/shipping_addresses/default_billing_address.api"
    ))
    .await
    .expect(StatusCode::NOT_FOUND);

    post(vec![
        ("shipping_address[street1]", "X".into()),
        ("shipping_address[address_type]", "warehouse".into()),
    ])
    .await
    .expect_invalid("address_type");
    post(vec![
        ("shipping_address[street1]", "X".into()),
        ("shipping_address[contact_id]", stranger.to_string()),
    ])
    .await
    .expect_invalid("contact_id");
    post(vec![
        ("shipping_address[street1]", "X".into()),
        ("shipping_address[contact_id]", "abc".into()),
    ])
    .await
    .expect_invalid("contact_id");
    // Moving the default shipping address to billing leaves billing's default alone.
    let res = app
        .patch(
            &format!("{base}/{}.api", ship2["id"]),
            &[("shipping_address[address_type]", "billing")],
        )
        .await;
    let moved = &res.expect(StatusCode::OK)["shipping_address"];
    assert_eq!(moved["address_type"], "billing");
    assert_eq!(moved["default_address"], false);
    let billing = app
        .get(&format!("{base}/default_billing_address.api"))
        .await;
    assert_eq!(billing.body["shipping_address"]["id"], bill["id"]);
    let res = app
        .patch(
            &format!("{base}/{}.api", ship["id"]),
            &[("shipping_address[contact_id]", "null")],
        )
        .await;
    assert_eq!(
        res.expect(StatusCode::OK)["shipping_address"]["contact_id"],
        Value::Null
    );
    let list = app.get(&format!("{base}.api")).await;
    assert_eq!(
        list.expect(StatusCode::OK)["shipping_addresses"]
            .as_array()
            .unwrap()
            .len(),
        3
    );
    app.get(&format!(
        "/businesses/{globex}/shipping_addresses/{}.api",
        ship["id"]
    ))
    .await
    .expect(StatusCode::NOT_FOUND);
}

async fn other_companies_cannot_see_touch_or_refer_to_businesses_and_contacts(kind: Kind) {
    let a = TestApp::new(kind).await;
    let b = TestApp::builder(kind).beside(&a).build().await;
    let acme = a.business("Acme", &[]).await;
    let bob = a.contact("Builder", &acme.to_string(), &[]).await;
    b.get(&format!("/businesses/{acme}.api"))
        .await
        .expect(StatusCode::NOT_FOUND);
    b.patch(
        &format!("/businesses/{acme}.api"),
        &[("business[name]", "Hijacked")],
    )
    .await
    .expect(StatusCode::NOT_FOUND);
    b.get(&format!("/contacts/{bob}.api"))
        .await
        .expect(StatusCode::NOT_FOUND);
    b.patch(
        &format!("/contacts/{bob}.api"),
        &[("contact[last_name]", "Hijacked")],
    )
    .await
    .expect(StatusCode::NOT_FOUND);
    b.delete(&format!("/contacts/{bob}.api"))
        .await
        .expect(StatusCode::NOT_FOUND);
    b.patch(
        &format!("/contacts/{bob}/update_status.api"),
        &[("mark_inactive", "TRUE")],
    )
    .await
    .expect(StatusCode::NOT_FOUND);
    b.get(&format!("/businesses/{acme}/shipping_addresses.api"))
        .await
        .expect(StatusCode::NOT_FOUND);
    b.post(
        &format!("/businesses/{acme}/shipping_addresses.api"),
        &[("shipping_address[street1]", "1 Intruder Way")],
    )
    .await
    .expect(StatusCode::NOT_FOUND);
    // A's business and contact do not exist for B's references.
    b.post(
        "/contacts.api",
        &[
            ("contact[last_name]", "Theirs"),
            ("business_ids", &acme.to_string()),
        ],
    )
    .await
    .expect_invalid("business_ids");
    let theirs = b.business("Theirs", &[]).await;
    b.post(
        "/contacts/add_existing_contacts_to_business.api",
        &[
            ("contact_ids", &bob.to_string()),
            ("business_id", &theirs.to_string()),
        ],
    )
    .await
    .expect_invalid("contact_ids");
    b.post(
        "/contacts/add_existing_contacts_to_business.api",
        &[
            ("contact_ids", &bob.to_string()),
            ("business_id", &acme.to_string()),
        ],
    )
    .await
    .expect_invalid("business_id");
    assert_eq!(
        b.get("/contacts.api?filter=all").await.body["contacts"],
        json!([])
    );
    assert_eq!(
        ids(
            b.get("/businesses.api").await.expect(StatusCode::OK),
            "businesses"
        ),
        vec![theirs]
    );
    let c = a.get(&format!("/contacts/{bob}.api")).await;
    assert_eq!(
        c.expect(StatusCode::OK)["contact"]["business_ids"],
        json!([acme]),
        "untouched"
    );
}

/// PUT and PATCH of `form` on `path`, each answer checked against `documented`'s.
async fn documented_updates(app: &TestApp, path: &str, documented: &str, form: &[(&str, &str)]) {
    for method in ["put", "patch"] {
        let res = match method {
            "put" => app.put(path, form).await,
            _ => app.patch(path, form).await,
        };
        assert_documented(documented, method, &res.into_body(StatusCode::OK));
    }
}

/// Every answer is the documented `Business`: with and without its optional fields,
/// with custom fields as keys (`include_custom_fields`) or not, alone and on a page.
async fn businesses_answer_the_documented_record(kind: Kind) {
    let app = TestApp::new(kind).await;
    app.custom_field("Region", "text", &["businesses"], &[])
        .await;
    let bare = app
        .post("/businesses.api", &[("business[name]", "Bare")])
        .await
        .into_body(StatusCode::OK);
    assert_documented("/businesses.api", "post", &bare);
    assert_keys_documented("Business", &bare["business"], &[]);
    let full = app
        .post(
            "/businesses.api",
            &[
                ("business[name]", "Acme"),
                ("business[description]", "Rigging"),
                ("business[status]", "0"),
                ("business[industry]", "Film"),
                ("business[email]", "acme@example.com"),
                ("business[address_name]", "HQ"),
                ("business[address]", "1 Dock Rd"),
                ("business[address_line_2]", "Unit 2"),
                ("business[country]", "us"),
                ("business[state]", "CA"),
                ("business[city]", "Burbank"),
                ("business[zip_code]", "91502"),
                ("business[phone_number]", "555 0100"),
                ("business[fax]", "555 0101"),
                ("business[display_picture]", "https://acme.example/logo.png"),
                ("business[tax_free]", "true"),
                ("business[company_default_payment_terms]", "true"),
                ("business[custom_attributes][Region]", "West"),
            ],
        )
        .await
        .into_body(StatusCode::OK);
    assert_documented("/businesses.api", "post", &full);
    assert_eq!(full["business"]["status"], 0);
    assert_eq!(full["business"]["Region"], "West", "its fields as keys");
    assert_keys_documented("Business", &full["business"], &["Region"]);
    let id = full["business"]["id"].as_i64().unwrap();
    let path = format!("/businesses/{id}.api");
    for include in [false, true] {
        let one = app
            .get(&format!("{path}?include_custom_fields={include}"))
            .await
            .into_body(StatusCode::OK);
        assert_documented("/businesses/{id}.api", "get", &one);
        assert_keys_documented("Business", &one["business"], &["Region"]);
        let page = app
            .get(&format!("/businesses.api?include_custom_fields={include}"))
            .await
            .into_body(StatusCode::OK);
        assert_documented("/businesses.api", "get", &page);
        let businesses = page["businesses"].as_array().unwrap();
        assert_eq!(businesses.len(), 2);
        for b in businesses {
            assert_keys_documented("Business", b, &["Region"]);
        }
    }
    documented_updates(
        &app,
        &path,
        "/businesses/{id}.api",
        &[("business[status]", "1"), ("business[city]", "null")],
    )
    .await;
}

/// Every answer is the documented `Contact`: with and without its optional fields, with
/// custom fields as keys (`include_custom_fields`) or not, alone, on a page, added to
/// a business, after each action.
async fn contacts_answer_the_documented_record(kind: Kind) {
    let app = TestApp::new(kind).await;
    app.custom_field("Badge", "text", &["contacts"], &[]).await;
    let acme = app.business("Acme", &[]).await.to_string();
    let globex = app.business("Globex", &[]).await.to_string();
    let bare = app
        .post(
            "/contacts.api",
            &[("contact[last_name]", "Bare"), ("business_ids", &acme)],
        )
        .await
        .into_body(StatusCode::OK);
    assert_documented("/contacts.api", "post", &bare);
    assert_keys_documented("Contact", &bare["contact"], &[]);
    let full = app
        .post(
            "/contacts.api",
            &[
                ("contact[first_name]", "Bob"),
                ("contact[last_name]", "Builder"),
                ("contact[email]", "bob@example.com"),
                ("contact[description]", "Foreman"),
                ("contact[employee_identification_number]", "E-9"),
                ("contact[collect_tax]", "false"),
                ("contact[login_enabled]", "true"),
                ("contact[subscribed_to_emails]", "true"),
                ("contact[phone_number]", "555 0100"),
                ("contact[fax]", "555 0101"),
                ("contact[custom_attributes][Badge]", "B7"),
                ("business_ids", &format!("{acme},{globex}")),
            ],
        )
        .await
        .into_body(StatusCode::OK);
    assert_documented("/contacts.api", "post", &full);
    assert_eq!(full["contact"]["Badge"], "B7", "its fields as keys");
    assert_keys_documented("Contact", &full["contact"], &["Badge"]);
    let id = full["contact"]["id"].as_i64().unwrap();
    let path = format!("/contacts/{id}.api");
    for include in [false, true] {
        let one = app
            .get(&format!("{path}?include_custom_fields={include}"))
            .await
            .into_body(StatusCode::OK);
        assert_documented("/contacts/{id}.api", "get", &one);
        assert_keys_documented("Contact", &one["contact"], &["Badge"]);
        let page = app
            .get(&format!("/contacts.api?include_custom_fields={include}"))
            .await
            .into_body(StatusCode::OK);
        assert_documented("/contacts.api", "get", &page);
        let contacts = page["contacts"].as_array().unwrap();
        assert_eq!(contacts.len(), 2);
        for c in contacts {
            assert_keys_documented("Contact", c, &["Badge"]);
        }
    }
    let bare_id = bare["contact"]["id"].as_i64().unwrap();
    let added = app
        .post(
            "/contacts/add_existing_contacts_to_business.api",
            &[
                ("contact_ids", &format!("{bare_id},{id}")),
                ("business_id", &globex),
            ],
        )
        .await
        .into_body(StatusCode::OK);
    assert_documented(
        "/contacts/add_existing_contacts_to_business.api",
        "post",
        &added,
    );
    for c in added["contacts"].as_array().unwrap() {
        assert_keys_documented("Contact", c, &[]);
    }
    documented_updates(
        &app,
        &path,
        "/contacts/{id}.api",
        &[("contact[first_name]", "null"), ("business_ids", &acme)],
    )
    .await;
    documented_updates(
        &app,
        &format!("/contacts/{id}/update_status.api"),
        "/contacts/{id}/update_status.api",
        &[("mark_inactive", "TRUE")],
    )
    .await;
    let deleted = app.delete(&path).await.into_body(StatusCode::OK);
    assert_eq!(deleted["contact"]["id"], id);
    assert_documented("/contacts/{id}.api", "delete", &deleted);
}

/// Every answer of customers' and businesses' addresses is the documented
/// `CustomerAddress` or `BusinessAddress`, with and without the optional fields, alone
/// and on a page.
async fn addresses_answer_the_documented_record(kind: Kind) {
    let app = TestApp::new(kind).await;
    let ada = app.customer("Ada", "Lovelace", &[]).await;
    let acme = app.business("Acme", &[]).await;
    let bob = app
        .contact("Builder", &acme.to_string(), &[])
        .await
        .to_string();
    for (owner, base, extra) in [
        (
            "customers",
            format!("/customers/{ada}/shipping_addresses"),
            vec![("billing_address", "true")],
        ),
        (
            "businesses",
            format!("/businesses/{acme}/shipping_addresses"),
            vec![
                ("shipping_address[address_type]", "billing"),
                ("shipping_address[contact_id]", bob.as_str()),
            ],
        ),
    ] {
        let documented = format!("/{owner}/{{owner_id}}/shipping_addresses");
        let list = format!("{base}.api");
        let bare = app
            .post(&list, &[("shipping_address[street1]", "1 Main St")])
            .await
            .into_body(StatusCode::OK);
        assert_documented(&format!("{documented}.api"), "post", &bare);
        let mut form = vec![
            ("shipping_address[street1]", "2 Side St"),
            ("shipping_address[name]", "Yard"),
            ("shipping_address[street2]", "Gate 2"),
            ("shipping_address[city]", "Denver"),
            ("shipping_address[state]", "CO"),
            ("shipping_address[zipcode]", "80202"),
            ("shipping_address[country]", "us"),
            ("shipping_address[longi]", "-104.99"),
            ("shipping_address[lati]", "39.74"),
            ("shipping_address[email]", "yard@example.com"),
            ("shipping_address[phone_number]", "555 0100"),
            ("shipping_address[active]", "false"),
        ];
        form.extend(extra);
        let full = app.post(&list, &form).await.into_body(StatusCode::OK);
        assert_documented(&format!("{documented}.api"), "post", &full);
        let page = app.get(&list).await.into_body(StatusCode::OK);
        assert_eq!(page["shipping_addresses"].as_array().unwrap().len(), 2);
        assert_documented(&format!("{documented}.api"), "get", &page);
        let default = app
            .get(&format!("{base}/default_address.api"))
            .await
            .into_body(StatusCode::OK);
        assert_documented(
            &format!("{documented}/default_address.api"),
            "get",
            &default,
        );
        let one = format!("{base}/{}.api", full["shipping_address"]["id"]);
        let got = app.get(&one).await.into_body(StatusCode::OK);
        assert_documented(&format!("{documented}/{{id}}.api"), "get", &got);
        documented_updates(
            &app,
            &one,
            &format!("{documented}/{{id}}.api"),
            &[("shipping_address[lati]", "null")],
        )
        .await;
    }
    let billing = app
        .get(&format!(
            "/businesses/{acme}/shipping_addresses/default_billing_address.api"
        ))
        .await
        .into_body(StatusCode::OK);
    assert_eq!(billing["shipping_address"]["address_type"], "billing");
    assert_eq!(billing["shipping_address"]["contact_id"].as_str(), None);
    assert_documented(
        "/businesses/{owner_id}/shipping_addresses/default_billing_address.api",
        "get",
        &billing,
    );
}

async fn business_problems_are_named_in_one_answer(kind: Kind) {
    let app = TestApp::new(kind).await;
    let res = app
        .post(
            "/businesses.api",
            &[
                ("business[status]", "2"),
                ("business[country]", "USA"),
                ("business[email]", "nope"),
                ("business[tax_free]", "maybe"),
            ],
        )
        .await;
    for field in ["name", "status", "country", "email", "tax_free"] {
        res.expect_invalid(field);
    }
    let list = app.get("/businesses.api").await;
    assert_eq!(
        list.expect(StatusCode::OK)["businesses"],
        json!([]),
        "nothing was written"
    );
    let res = app.get("/businesses.api?filter=everything&page=x").await;
    res.expect_invalid("filter");
    res.expect_invalid("page");
    app.get("/businesses.api?filter=completed_orders&filter_val=lots")
        .await
        .expect_invalid("filter_val");

    // A contact's businesses: required, not empty, ids.
    let contact = |extra: Vec<(&'static str, &'static str)>| {
        let mut form = vec![("contact[last_name]", "Doe")];
        form.extend(extra);
        let app = &app;
        async move { app.post("/contacts.api", &form).await }
    };
    contact(vec![]).await.expect_invalid("business_ids");
    contact(vec![("business_ids", "")])
        .await
        .expect_invalid("business_ids");
    contact(vec![("business_ids", "1,x")])
        .await
        .expect_invalid("business_ids");
    contact(vec![("contact[business_ids]", "0")])
        .await
        .expect_invalid("business_ids");
    let res = app.get("/contacts.api?filter=inactive_customers").await;
    res.expect_invalid("filter");
    app.get("/individuals.api?filter=email")
        .await
        .expect_invalid("filter_val");
}
