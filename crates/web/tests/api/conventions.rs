//! The wire conventions: tokens, the Host rule, the API switch, parameters, errors,
//! operations endpoints.

use crate::common::{Kind, TestApp};
use axum::http::{Method, StatusCode};
use serde_json::json;

both!(
    ids_that_are_not_ids_are_a_404_naming_the_kind,
    unknown_records_are_a_404_naming_the_kind,
    store_refusals_say_where_to_look,
    token_sources_and_precedence,
    regenerated_token_stops_working_at_once,
    company_changes_made_elsewhere_take_effect_within_the_bound,
    disabled_api_is_forbidden,
    host_must_match_the_token_company,
    host_rule_ignores_case_and_a_trailing_dot,
    tenant_records_do_not_exist_for_others,
    unknown_routes_and_missing_suffix_are_json_404,
    parameters_merge_query_and_every_body_kind,
    malformed_requests_are_400,
    healthz_metrics_and_openapi,
);

async fn token_sources_and_precedence(kind: Kind) {
    let app = TestApp::new(kind).await;
    let path = "/locations/get_line_item_locations.api";
    app.anonymous(Method::GET, path)
        .send()
        .await
        .expect(StatusCode::UNAUTHORIZED);
    let res = app
        .anonymous(Method::GET, path)
        .header("token", "nope")
        .send()
        .await;
    assert!(res.expect(StatusCode::UNAUTHORIZED)["message"].is_string());
    app.anonymous(Method::GET, path)
        .header("authorization", &format!("Bearer {}", app.token))
        .send()
        .await
        .expect(StatusCode::OK);
    app.anonymous(Method::GET, &format!("{path}?token={}", app.token))
        .send()
        .await
        .expect(StatusCode::OK);
    // The `token` header wins over a wrong bearer token and query token.
    app.req(Method::GET, &format!("{path}?token=wrong"))
        .header("authorization", "Bearer wrong")
        .send()
        .await
        .expect(StatusCode::OK);
    // A wrong header is not rescued by a right query token.
    app.anonymous(Method::GET, &format!("{path}?token={}", app.token))
        .header("token", "wrong")
        .send()
        .await
        .expect(StatusCode::UNAUTHORIZED);
}

/// Each instance remembers a token's company for `company_ttl`: a change made
/// elsewhere (another instance, the CLI) takes effect within it, and no later.
async fn company_changes_made_elsewhere_take_effect_within_the_bound(kind: Kind) {
    let app = TestApp::new(kind).await;
    let ttl = std::time::Duration::from_secs(2);
    let other = app.another_instance(web::Config {
        company_ttl: ttl,
        ..Default::default()
    });
    other
        .get("/assets/vendors.api")
        .await
        .expect(StatusCode::OK);
    store::companies::set_api_enabled(&app.db, &app.company.subdomain, false)
        .await
        .unwrap();
    // The other instance answers from memory until the bound...
    other
        .get("/assets/vendors.api")
        .await
        .expect(StatusCode::OK);
    // ...this one looks the token up for the first time and sees the change.
    app.get("/assets/vendors.api")
        .await
        .expect(StatusCode::FORBIDDEN);
    tokio::time::sleep(ttl + std::time::Duration::from_millis(100)).await;
    other
        .get("/assets/vendors.api")
        .await
        .expect(StatusCode::FORBIDDEN);
    store::companies::set_api_enabled(&app.db, &app.company.subdomain, true)
        .await
        .unwrap();
    tokio::time::sleep(ttl + std::time::Duration::from_millis(100)).await;
    other
        .get("/assets/vendors.api")
        .await
        .expect(StatusCode::OK);
    let new = store::companies::regenerate_token(&app.db, app.company.id)
        .await
        .unwrap()
        .0;
    tokio::time::sleep(ttl + std::time::Duration::from_millis(100)).await;
    other
        .get("/assets/vendors.api")
        .await
        .expect(StatusCode::UNAUTHORIZED);
    other
        .anonymous(Method::GET, "/assets/vendors.api")
        .header("token", &new)
        .send()
        .await
        .expect(StatusCode::OK);
    // Without the cache every request sees the database at once.
    let uncached = app.another_instance(web::Config {
        company_ttl: std::time::Duration::ZERO,
        ..Default::default()
    });
    uncached
        .anonymous(Method::GET, "/assets/vendors.api")
        .header("token", &new)
        .send()
        .await
        .expect(StatusCode::OK);
    store::companies::set_api_enabled(&app.db, &app.company.subdomain, false)
        .await
        .unwrap();
    uncached
        .anonymous(Method::GET, "/assets/vendors.api")
        .header("token", &new)
        .send()
        .await
        .expect(StatusCode::FORBIDDEN);
}

async fn regenerated_token_stops_working_at_once(kind: Kind) {
    let app = TestApp::new(kind).await;
    let old = app.token.clone();
    let new = store::companies::regenerate_token(&app.db, app.company.id)
        .await
        .unwrap()
        .0;
    app.anonymous(Method::GET, "/assets/vendors.api")
        .header("token", &old)
        .send()
        .await
        .expect(StatusCode::UNAUTHORIZED);
    app.anonymous(Method::GET, "/assets/vendors.api")
        .header("token", &new)
        .send()
        .await
        .expect(StatusCode::OK);
}

async fn disabled_api_is_forbidden(kind: Kind) {
    let app = TestApp::builder(kind).api_disabled().build().await;
    let res = app.get("/assets/vendors.api").await;
    assert!(
        res.expect(StatusCode::FORBIDDEN)["message"]
            .as_str()
            .unwrap()
            .contains("disabled")
    );
    // Nothing is created through a disabled API.
    app.post("/locations.api", &[("location[name]", "Sneaky")])
        .await
        .expect(StatusCode::FORBIDDEN);
    store::companies::set_api_enabled(&app.db, &app.company.subdomain, true)
        .await
        .unwrap();
    // Enabled elsewhere (not through this instance): it takes effect here within the
    // company cache's bound (1 s).
    tokio::time::sleep(std::time::Duration::from_millis(1100)).await;
    let res = app.get("/locations/get_line_item_locations.api").await;
    assert_eq!(res.expect(StatusCode::OK)["locations"], json!([]));
}

async fn host_must_match_the_token_company(kind: Kind) {
    let config = web::Config {
        base_domain: Some("rentrack.test".into()),
        shared_rate_limits: false,
        ..Default::default()
    };
    let app = TestApp::builder(kind)
        .config(config)
        .subdomain("acme")
        .build()
        .await;
    let path = "/assets/vendors.api";
    app.req(Method::GET, path)
        .header("host", "acme.rentrack.test")
        .send()
        .await
        .expect(StatusCode::OK);
    app.req(Method::GET, path)
        .header("host", "acme.rentrack.test:8443")
        .send()
        .await
        .expect(StatusCode::OK);
    app.req(Method::GET, path)
        .header("host", "globex.rentrack.test")
        .send()
        .await
        .expect(StatusCode::UNAUTHORIZED);
    // Other hosts are served by the token alone.
    app.req(Method::GET, path)
        .header("host", "127.0.0.1:3000")
        .send()
        .await
        .expect(StatusCode::OK);
    app.req(Method::GET, path)
        .header("host", "proxy.internal")
        .send()
        .await
        .expect(StatusCode::OK);
    // HTTP/2 names the host in the URI's authority and sends no Host header; an
    // HTTP/1.1 request in absolute form names it there too, and it wins over Host.
    app.req(Method::GET, &format!("http://globex.rentrack.test{path}"))
        .send()
        .await
        .expect(StatusCode::UNAUTHORIZED);
    app.req(
        Method::GET,
        &format!("https://globex.rentrack.test:8443{path}"),
    )
    .header("host", "acme.rentrack.test")
    .send()
    .await
    .expect(StatusCode::UNAUTHORIZED);
    app.req(Method::GET, &format!("https://acme.rentrack.test{path}"))
        .send()
        .await
        .expect(StatusCode::OK);
}

/// Host names compare as DNS compares them: `globex.rentrack.test.` (fully qualified)
/// and `GLOBEX.RentRack.test` are Globex's host, so Acme's token is a 401 there.
async fn host_rule_ignores_case_and_a_trailing_dot(kind: Kind) {
    let config = web::Config {
        base_domain: Some("rentrack.test".into()),
        shared_rate_limits: false,
        ..Default::default()
    };
    let app = TestApp::builder(kind)
        .config(config)
        .subdomain("acme")
        .build()
        .await;
    let path = "/assets/vendors.api";
    for host in [
        "globex.rentrack.test.",
        "globex.RENTRACK.test",
        "GLOBEX.rentrack.test.:8443",
        "Globex.RentRack.Test",
    ] {
        app.req(Method::GET, path)
            .header("host", host)
            .send()
            .await
            .expect(StatusCode::UNAUTHORIZED);
        app.req(Method::GET, &format!("http://{host}{path}"))
            .send()
            .await
            .expect(StatusCode::UNAUTHORIZED);
    }
    for host in [
        "acme.rentrack.test.",
        "acme.RENTRACK.test",
        "ACME.rentrack.test.:8443",
    ] {
        app.req(Method::GET, path)
            .header("host", host)
            .send()
            .await
            .expect(StatusCode::OK);
    }
}

async fn tenant_records_do_not_exist_for_others(kind: Kind) {
    let a = TestApp::new(kind).await;
    let b = TestApp::builder(kind).beside(&a).build().await;
    let loc = a.location("Secret Depot", &[]).await;
    b.get(&format!("/locations/{loc}.api"))
        .await
        .expect(StatusCode::NOT_FOUND);
    b.put(
        &format!("/locations/{loc}.api"),
        &[("location[name]", "Mine now")],
    )
    .await
    .expect(StatusCode::NOT_FOUND);
    b.patch(&format!("/locations/{loc}/deactivate.api"), &[])
        .await
        .expect(StatusCode::NOT_FOUND);
    b.patch(&format!("/locations/{loc}/activate.api"), &[])
        .await
        .expect(StatusCode::NOT_FOUND);
    b.get(&format!("/locations/{loc}/quantities_by_asset_ids.api"))
        .await
        .expect(StatusCode::NOT_FOUND);
    let list = b.get("/locations/get_line_item_locations.api").await;
    assert_eq!(list.expect(StatusCode::OK)["locations"], json!([]));
    // Guessing ids does not help: every id of A is "no such record" for B.
    for id in loc - 2..loc + 3 {
        if id > 0 {
            b.get(&format!("/locations/{id}.api"))
                .await
                .expect(StatusCode::NOT_FOUND);
        }
    }
    let after = a.get(&format!("/locations/{loc}.api")).await;
    assert_eq!(
        after.expect(StatusCode::OK)["location"]["name"],
        "Secret Depot"
    );
    assert_eq!(after.body["location"]["status"], "active");
    // Sequence numbers are per company.
    let theirs = b
        .post("/locations.api", &[("location[name]", "Their Depot")])
        .await;
    assert_eq!(theirs.expect(StatusCode::OK)["location"]["sequence_num"], 1);
}

async fn unknown_routes_and_missing_suffix_are_json_404(kind: Kind) {
    let app = TestApp::new(kind).await;
    let res = app.req(Method::PATCH, "/assets/vendors.api").send().await;
    assert!(
        res.expect(StatusCode::METHOD_NOT_ALLOWED)["message"].is_string(),
        "a 405 is JSON too"
    );
    for path in [
        "/nothing.api",
        "/locations/get_line_item_locations",
        "/__api/assets/vendors",
        "/locations/1/explode.api",
    ] {
        let res = app.get(path).await;
        assert_eq!(res.status, StatusCode::NOT_FOUND, "{path}");
        assert!(res.body["message"].is_string(), "{path}: {}", res.text);
        assert_eq!(res.header("content-type"), Some("application/json"));
    }
}

async fn parameters_merge_query_and_every_body_kind(kind: Kind) {
    let app = TestApp::new(kind).await;
    // Percent-encoded brackets, in the query of a POST.
    let res = app
        .req(
            Method::POST,
            "/locations.api?location%5Bname%5D=From%20Query&location%5Bcity%5D=Quito",
        )
        .send()
        .await;
    assert_eq!(res.expect(StatusCode::OK)["location"]["name"], "From Query");
    // The body wins over the query.
    let res = app
        .req(
            Method::POST,
            "/locations.api?location[name]=Query%20Name&location[city]=Lima",
        )
        .form(&[("location[name]", "Body Name")])
        .send()
        .await;
    assert_eq!(res.expect(StatusCode::OK)["location"]["name"], "Body Name");
    assert_eq!(res.body["location"]["city"], "Lima");
    // JSON bodies, nested.
    let res = app
        .req(Method::POST, "/locations.api")
        .json(json!({"location": {"name": "Json Place", "zipcode": 12345}}))
        .send()
        .await;
    assert_eq!(res.expect(StatusCode::OK)["location"]["zipcode"], "12345");
    // Multipart bodies.
    let boundary = "XyZ";
    let body = format!(
        "--{boundary}\r\nContent-Disposition: form-data; name=\"location[name]\"\r\n\r\nMultipart Place\r\n--{boundary}\r\nContent-Disposition: form-data; name=\"location[state]\"\r\n\r\nCO\r\n--{boundary}--\r\n"
    );
    let res = app
        .req(Method::POST, "/locations.api")
        .raw_body(&format!("multipart/form-data; boundary={boundary}"), &body)
        .send()
        .await;
    assert_eq!(res.expect(StatusCode::OK)["location"]["state"], "CO");
    // A form body on GET is read.
    let res = app
        .req(Method::GET, "/locations/get_line_item_locations.api")
        .form(&[("status", "inactive")])
        .send()
        .await;
    assert_eq!(res.expect(StatusCode::OK)["locations"], json!([]));
    let res = app
        .req(Method::GET, "/locations/get_line_item_locations.api")
        .form(&[("status", "bogus")])
        .send()
        .await;
    res.expect_invalid("status");
    // Empty optional values are absent: an empty page is page 1, an empty status is all.
    let res = app
        .get("/locations/get_line_item_locations.api?page=&status=")
        .await;
    assert_eq!(
        res.expect(StatusCode::OK)["locations"]
            .as_array()
            .unwrap()
            .len(),
        4
    );
    // A body on DELETE is read too (here: an unknown parameter, ignored).
    let g = app.group("Deletable").await;
    app.req(Method::DELETE, &format!("/groups/{g}.api"))
        .form(&[("unused", "1")])
        .send()
        .await
        .expect(StatusCode::OK);
}

async fn malformed_requests_are_400(kind: Kind) {
    let app = TestApp::new(kind).await;
    let res = app
        .req(Method::POST, "/locations.api")
        .raw_body("application/json", "{not json")
        .send()
        .await;
    assert!(res.expect(StatusCode::BAD_REQUEST)["message"].is_string());
    app.req(Method::POST, "/locations.api")
        .raw_body("application/json", "[1,2]")
        .send()
        .await
        .expect(StatusCode::BAD_REQUEST);
    app.req(Method::POST, "/locations.api")
        .form(&[("location[name", "Broken")])
        .send()
        .await
        .expect(StatusCode::BAD_REQUEST);
    app.req(Method::POST, "/locations.api?location%5Bname=x")
        .send()
        .await
        .expect(StatusCode::BAD_REQUEST);
    app.req(Method::POST, "/locations.api")
        .raw_body("application/xml", "<a/>")
        .send()
        .await
        .expect(StatusCode::BAD_REQUEST);
    let big = "x".repeat(web::params::MAX_BODY_BYTES + 10);
    app.req(Method::POST, "/locations.api")
        .raw_body("application/x-www-form-urlencoded", &format!("a={big}"))
        .send()
        .await
        .expect(StatusCode::PAYLOAD_TOO_LARGE);
    let list = app.get("/locations/get_line_item_locations.api").await;
    assert_eq!(list.body["locations"], json!([]), "nothing was written");
}

async fn healthz_metrics_and_openapi(kind: Kind) {
    let app = TestApp::new(kind).await;
    let res = app.anonymous(Method::GET, "/healthz").send().await;
    assert_eq!(res.expect(StatusCode::OK)["status"], "ok");
    app.get("/assets/vendors.api").await.expect(StatusCode::OK);
    app.anonymous(Method::GET, "/assets/vendors.api")
        .send()
        .await
        .expect(StatusCode::UNAUTHORIZED);
    let metrics = app.metrics().await;
    assert!(metrics.contains("rentrack_http_requests_total{method=\"GET\",route=\"/assets/vendors.api\",status=\"200\"} 1"), "{metrics}");
    assert!(metrics.contains("status=\"401\"} 1"));
    assert!(metrics.contains(
        "rentrack_http_request_duration_seconds_bucket{route=\"/assets/vendors.api\",le=\"+Inf\"} 2"
    ));
    assert!(metrics.contains("rentrack_rate_limited_total 0"));
    let res = app.anonymous(Method::GET, "/openapi.json").send().await;
    assert!(res.expect(StatusCode::OK)["paths"]["/locations/{id}.api"]["put"].is_object());
    assert!(res.header("x-request-id").is_some());
}

/// Well-formed ids and numbers the company has no record for: the store's lookup
/// misses, and the 404 names the kind it missed, on reads, writes and actions alike.
async fn unknown_records_are_a_404_naming_the_kind(kind: Kind) {
    let app = TestApp::new(kind).await;
    let group = app.group("Cameras").await;
    let n = app.asset("Camera", group, &[]).await;
    let member = app.member("Ann", "Tester", "ann@example.com", &[]).await;
    let customer = app.customer("Cy", "Client", &[]).await;
    let order = app
        .post(
            "/baskets.api",
            &[("basket[customer_id]", &customer.to_string())],
        )
        .await
        .into_body(StatusCode::OK)["basket"]["sequence_num"]
        .as_i64()
        .unwrap();
    let by_id = |what: &str| format!("No such {what} in this company. Check the id.");
    let by_number = |what: &str| {
        format!("No such {what} in this company. Check the {what} number (sequence_num).")
    };
    let cases: Vec<(Method, String, String)> = vec![
        (Method::GET, "/vendors/999999.api".into(), by_id("vendor")),
        (Method::PUT, "/vendors/999999.api".into(), by_id("vendor")),
        (Method::GET, "/webhooks/999999.api".into(), by_id("webhook")),
        (
            Method::POST,
            "/webhooks/999999/rotate_secret.api".into(),
            by_id("webhook"),
        ),
        (
            Method::GET,
            "/locations/999999.api".into(),
            by_id("location"),
        ),
        (
            Method::PUT,
            "/locations/999999/deactivate.api".into(),
            by_id("location"),
        ),
        (Method::GET, "/groups/999999.api".into(), by_id("group")),
        (Method::DELETE, "/groups/999999.api".into(), by_id("group")),
        (
            Method::GET,
            format!("/groups/{group}/sub_groups/999999.api"),
            by_id("subgroup"),
        ),
        (
            Method::DELETE,
            format!("/groups/{group}/sub_groups/999999.api"),
            by_id("subgroup"),
        ),
        // A subgroup under a group the company does not have: the group is missing.
        (
            Method::GET,
            "/groups/999999/sub_groups/1.api".into(),
            by_id("group"),
        ),
        (
            Method::DELETE,
            "/groups/999999/sub_groups/1.api".into(),
            by_id("group"),
        ),
        (Method::GET, "/members/999999.api".into(), by_id("member")),
        (
            Method::PUT,
            "/members/999999/deactivate.api".into(),
            by_id("member"),
        ),
        (
            Method::GET,
            "/customers/999999.api".into(),
            by_id("customer"),
        ),
        (
            Method::DELETE,
            "/customers/999999.api".into(),
            by_id("customer"),
        ),
        (Method::GET, "/contacts/999999.api".into(), by_id("contact")),
        (
            Method::GET,
            "/businesses/999999.api".into(),
            by_id("business"),
        ),
        (
            Method::GET,
            "/custom_fields/999999.api".into(),
            by_id("custom field"),
        ),
        (
            Method::DELETE,
            "/custom_fields/999999.api".into(),
            by_id("custom field"),
        ),
        (
            Method::GET,
            "/custom_roles/999999.api".into(),
            by_id("custom_role"),
        ),
        (Method::DELETE, "/teams/999999.api".into(), by_id("team")),
        (
            Method::GET,
            "/retire_reasons/999999.api".into(),
            by_id("retire_reason"),
        ),
        (
            Method::GET,
            "/users/999999/shipping_addresses.api".into(),
            by_id("member"),
        ),
        (
            Method::GET,
            format!("/users/{member}/shipping_addresses/999999.api"),
            by_id("address"),
        ),
        (
            Method::GET,
            "/customers/999999/shipping_addresses.api".into(),
            by_id("customer"),
        ),
        (
            Method::GET,
            "/pricing_coupons/999999.api".into(),
            by_id("coupon"),
        ),
        (
            Method::GET,
            "/group_taxes/999999.api".into(),
            by_id("group tax"),
        ),
        (Method::GET, "/listings/999999.api".into(), by_id("listing")),
        (Method::GET, "/bundles/999999.api".into(), by_id("bundle")),
        (
            Method::GET,
            format!("/assets/{n}/services/999999.api"),
            by_id("service"),
        ),
        (
            Method::PUT,
            format!(
                "/assets/{n}/reservation_requests/999999/update_status.api?request_action=deny"
            ),
            by_id("reservation request"),
        ),
        (
            Method::GET,
            format!("/assets/{n}/reservation_requests/999999.api"),
            by_id("reservation request"),
        ),
        (
            Method::GET,
            "/assets/999999/reservation_requests/1.api".into(),
            by_id("reservation request"),
        ),
        (
            Method::GET,
            format!("/assets/{n}/verifications/999999.api"),
            by_id("verification"),
        ),
        (
            Method::PUT,
            format!("/baskets/{order}/payment_histories/999999/mark_void.api"),
            by_id("payment history"),
        ),
        (Method::GET, "/assets/999999.api".into(), by_number("asset")),
        (
            Method::GET,
            "/assets/999999/services.api".into(),
            by_number("asset"),
        ),
        (
            Method::GET,
            "/baskets/999999.api".into(),
            by_number("order"),
        ),
        (
            Method::PUT,
            "/baskets/999999/cancel.api".into(),
            by_number("order"),
        ),
    ];
    for (method, path, message) in cases {
        let res = app.req(method.clone(), &path).send().await;
        assert_eq!(
            res.status,
            StatusCode::NOT_FOUND,
            "{method} {path}: {}",
            res.text
        );
        assert_eq!(res.body["message"], message, "{method} {path}");
    }
}

/// Field problems the store finds are worded by the interface, which names where the
/// right values are listed and the request's own field names.
async fn store_refusals_say_where_to_look(kind: Kind) {
    let app = TestApp::new(kind).await;
    let group = app.group("Cameras").await;
    let n = app.asset("Camera", group, &[]).await.to_string();
    let problem = |res: crate::common::Res, field: &str| -> String {
        let body = res.into_body(StatusCode::UNPROCESSABLE_ENTITY);
        body["errors"][field][0]
            .as_str()
            .unwrap_or_default()
            .to_owned()
    };
    let listing = app
        .post(
            "/members.api",
            &[
                ("user[email]", "bo@example.com"),
                ("user[first_name]", "Bo"),
                ("user[last_name]", "Clerk"),
                ("user[role_id]", "2"),
                ("user[user_listing_id]", "999999"),
            ],
        )
        .await;
    assert_eq!(
        problem(listing, "user_listing_id"),
        "is not a listing of this company: \"999999\" (GET /listings.api lists them)"
    );
    let filter = app
        .get(
            "/assets/filter.api?status=custom_filter_3&filter_param_val=3&assets_type=fixed_assets",
        )
        .await;
    assert_eq!(
        problem(filter, "status"),
        "custom_filter_3 is not a custom filter of fixed_assets in this company (see /custom_filters.api?assets_type=fixed_assets)"
    );
    let template = app
        .post(
            "/qrcodes.api",
            &[("asset_seq", n.as_str()), ("template_id", "999999")],
        )
        .await;
    let said = problem(template, "template_id");
    assert!(
        said.starts_with("999999 is not a label template of this company; GET /print_label_templates.api?template_type="),
        "{said}"
    );
    let bundle = app.post("/bundles.api", &[("bundle[name]", "Kit")]).await;
    assert_eq!(
        problem(bundle, "items"),
        "can't be blank: give bundle[items][<asset number>]=<quantity> for each item"
    );
    let ann = app
        .member("Ann", "Tester", "ann@example.com", &[])
        .await
        .to_string();
    let checkout = app
        .put(
            &format!("/assets/{n}/checkout.api"),
            &[
                ("user_id", ann.as_str()),
                ("checkout_values[location_id]", "999999"),
            ],
        )
        .await;
    let body = checkout.into_body(StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        body["errors"]["checkout_values[location_id]"].is_array(),
        "{body}"
    );
    assert!(body["errors"].get("location_id").is_none(), "{body}");
}

async fn ids_that_are_not_ids_are_a_404_naming_the_kind(kind: Kind) {
    let app = TestApp::new(kind).await;
    let group = app.group("Cameras").await;
    for (path, what) in [
        ("/locations/{}.api", "location"),
        ("/locations/{}/quantities_by_asset_ids.api", "location"),
        ("/groups/{}.api", "group"),
        ("/vendors/{}.api", "vendor"),
        ("/members/{}.api", "member"),
        ("/customers/{}.api", "customer"),
        ("/businesses/{}.api", "business"),
        ("/contacts/{}.api", "contact"),
        ("/custom_fields/{}.api", "custom field"),
        ("/groups/{}/sub_groups/1.api", "group"),
        ("/custom_roles/{}.api", "custom_role"),
        ("/teams/{}.api", "team"),
        ("/retire_reasons/{}.api", "retire_reason"),
        ("/users/{}/shipping_addresses.api", "member"),
        ("/customers/{}/shipping_addresses/1.api", "customer"),
        (
            "/businesses/{}/shipping_addresses/default_address.api",
            "business",
        ),
        ("/users/1/shipping_addresses/{}.api", "address"),
        ("/pricing_coupons/{}.api", "coupon"),
        ("/group_taxes/{}.api", "group tax"),
        ("/listings/{}.api", "listing"),
        ("/webhooks/{}.api", "webhook"),
        ("/webhooks/{}/deliveries.api", "webhook"),
    ] {
        for bad in ["abc", "0", "-3", "1.5", "99999999999999999999"] {
            let res = app.get(&path.replace("{}", bad)).await;
            assert_eq!(
                res.status,
                StatusCode::NOT_FOUND,
                "{path} with {bad}: {}",
                res.text
            );
            assert_eq!(
                res.body["message"],
                format!("No such {what} in this company. Check the id."),
                "{path} with {bad}"
            );
        }
    }
    let res = app
        .get(&format!("/groups/{group}/sub_groups/abc.api"))
        .await;
    assert_eq!(
        res.body["message"],
        "No such subgroup in this company. Check the id."
    );
}

#[tokio::test]
async fn metrics_are_served_only_to_their_networks_and_to_their_token() {
    let app = TestApp::builder(Kind::Sqlite)
        .config(web::Config {
            metrics: web::metrics::Access::new(
                vec!["10.0.0.0/8".parse().unwrap()],
                Some("a-metrics-secret"),
            ),
            ..Default::default()
        })
        .build()
        .await;
    let metrics = |peer: &str, bearer: Option<&str>| {
        let mut req = app.anonymous(Method::GET, "/metrics").peer(peer);
        if let Some(bearer) = bearer {
            req = req.header("authorization", &format!("Bearer {bearer}"));
        }
        req.send()
    };
    let inside = metrics("10.1.2.3:5000", None).await;
    assert_eq!(inside.status, StatusCode::OK, "{}", inside.text);
    assert!(inside.text.contains("rentrack_http_requests_total"));
    let outside = metrics("192.168.1.9:5000", None).await;
    assert!(
        outside.expect(StatusCode::FORBIDDEN)["message"]
            .as_str()
            .unwrap()
            .contains("--metrics-from")
    );
    metrics("192.168.1.9:5000", Some("a-wrong-secret"))
        .await
        .expect(StatusCode::FORBIDDEN);
    metrics("192.168.1.9:5000", Some("a-metrics-secret-"))
        .await
        .expect(StatusCode::FORBIDDEN);
    let with_token = metrics("192.168.1.9:5000", Some("a-metrics-secret")).await;
    assert_eq!(with_token.status, StatusCode::OK);
    // The scheme's case does not matter (RFC 9110).
    let lower = app
        .anonymous(Method::GET, "/metrics")
        .peer("192.168.1.9:5000")
        .header("authorization", "bearer a-metrics-secret")
        .send()
        .await;
    assert_eq!(lower.status, StatusCode::OK);
}
