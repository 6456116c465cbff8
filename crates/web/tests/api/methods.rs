//! PUT and PATCH: the hosted service routes updates like a Rails application, so every
//! update and every state action answers both, and clients send either.

use crate::common::{Kind, TestApp};
use axum::http::{Method, StatusCode};

both!(
    every_documented_update_answers_put_and_patch,
    a_member_update_sent_with_patch_updates_it,
    state_actions_act_on_either_method,
);

/// `/members/{id}/activate.api` with every path parameter a record that does not exist.
fn with_fake_ids(path: &str) -> String {
    path.split('/')
        .map(|segment| match (segment.find('{'), segment.find('}')) {
            (Some(open), Some(close)) => {
                format!("{}999999{}", &segment[..open], &segment[close + 1..])
            }
            _ => segment.to_owned(),
        })
        .collect::<Vec<_>>()
        .join("/")
}

async fn every_documented_update_answers_put_and_patch(kind: Kind) {
    let app = TestApp::new(kind).await;
    let doc = app.anonymous(Method::GET, "/openapi.json").send().await;
    let paths = doc.expect(StatusCode::OK)["paths"]
        .as_object()
        .expect("paths")
        .clone();
    let mut updates = 0;
    for (path, operations) in &paths {
        let (put, patch) = (
            operations.get("put").is_some(),
            operations.get("patch").is_some(),
        );
        if !put && !patch {
            continue;
        }
        assert!(
            put && patch,
            "{path} documents only {}; an update answers PUT and PATCH",
            if put { "PUT" } else { "PATCH" }
        );
        let concrete = with_fake_ids(path);
        for method in [Method::PUT, Method::PATCH] {
            let res = app.req(method.clone(), &concrete).send().await;
            assert_ne!(
                res.status,
                StatusCode::METHOD_NOT_ALLOWED,
                "{method} {concrete}: {}",
                res.text
            );
            assert!(
                !res.status.is_server_error(),
                "{method} {concrete}: {}",
                res.text
            );
        }
        updates += 1;
    }
    // Every update of the catalog so far: locations, groups, subgroups, vendors, members,
    // three kinds of addresses, roles, teams, retire reasons, custom fields, settings,
    // customers, businesses, contacts, and their state actions.
    assert!(updates >= 23, "only {updates} paths take PUT or PATCH");
    // The check above can fail: a method a path does not take is still a 405.
    app.delete("/vendors/999999.api")
        .await
        .expect(StatusCode::METHOD_NOT_ALLOWED);
}

async fn a_member_update_sent_with_patch_updates_it(kind: Kind) {
    let app = TestApp::new(kind).await;
    let id = app.member("Ada", "Lovelace", "ada@example.com", &[]).await;
    let path = format!("/members/{id}.api");
    let form = [
        ("user[first_name]", "Augusta"),
        ("user[last_name]", "King"),
        ("user[email]", "ada@example.com"),
        ("user[role_id]", "1"),
    ];
    let res = app.patch(&path, &form).await;
    let member = &res.expect(StatusCode::OK)["member"];
    assert_eq!(member["first_name"], "Augusta");
    assert_eq!(member["role_id"], 1);
    let read = app.get(&path).await;
    assert_eq!(
        read.expect(StatusCode::OK)["member"]["full_name"],
        "Augusta King"
    );
    // PATCH validates as PUT does, and a refused PATCH changes nothing.
    app.patch(
        &path,
        &[("user[first_name]", "Ada"), ("user[last_name]", "null")],
    )
    .await
    .expect_invalid("last_name");
    assert_eq!(app.get(&path).await.body["member"]["first_name"], "Augusta");
}

async fn state_actions_act_on_either_method(kind: Kind) {
    let app = TestApp::new(kind).await;
    // Members' actions were PUT only, locations' and customers' PATCH only.
    let member = app
        .member("Grace", "Hopper", "grace@example.com", &[])
        .await;
    let res = app
        .patch(&format!("/members/{member}/deactivate.api"), &[])
        .await;
    assert_eq!(res.expect(StatusCode::OK)["member"]["status"], "inactive");
    let res = app
        .patch(&format!("/members/{member}/activate.api"), &[])
        .await;
    assert_eq!(res.expect(StatusCode::OK)["member"]["status"], "active");

    let location = app.location("Depot", &[]).await;
    let res = app
        .put(&format!("/locations/{location}/deactivate.api"), &[])
        .await;
    assert_eq!(res.expect(StatusCode::OK)["location"]["status"], "inactive");
    let res = app
        .put(&format!("/locations/{location}/activate.api"), &[])
        .await;
    assert_eq!(res.expect(StatusCode::OK)["location"]["status"], "active");

    let customer = app.customer("Alan", "Turing", &[]).await;
    let res = app
        .put(&format!("/customers/{customer}/mark_inactive.api"), &[])
        .await;
    assert_eq!(res.expect(StatusCode::OK)["customer"]["status"], "inactive");
    let res = app
        .put(&format!("/customers/{customer}/mark_active.api"), &[])
        .await;
    assert_eq!(res.expect(StatusCode::OK)["customer"]["status"], "active");

    let business = app.business("Analytical Engines", &[]).await;
    let contact = app.contact("Babbage", &business.to_string(), &[]).await;
    let res = app
        .put(
            &format!("/contacts/{contact}/update_status.api"),
            &[("mark_inactive", "TRUE")],
        )
        .await;
    assert_eq!(res.expect(StatusCode::OK)["contact"]["status"], "inactive");

    let res = app
        .put(
            "/company_settings.api",
            &[("company_settings[currency]", "EUR")],
        )
        .await;
    assert_eq!(
        res.expect(StatusCode::OK)["company_settings"]["currency"],
        "EUR"
    );
    let res = app
        .patch(
            "/company_settings.api",
            &[("company_settings[currency]", "GBP")],
        )
        .await;
    assert_eq!(
        res.expect(StatusCode::OK)["company_settings"]["currency"],
        "GBP"
    );
}
