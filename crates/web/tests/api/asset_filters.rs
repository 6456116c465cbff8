//! `/assets/filter.api`: every status value with its `filter_param_val`, and custom
//! filters.

use crate::common::{Kind, TestApp, assert_documented};
use axum::http::StatusCode;

both!(
    every_status_selects_its_assets,
    bad_filters_are_a_422_naming_the_parameter,
    custom_filters_are_defined_listed_and_used,
);

async fn numbers(app: &TestApp, query: &str) -> Vec<i64> {
    let res = app.get(&format!("/assets/filter.api?{query}")).await;
    let body = res.into_body(StatusCode::OK);
    assert_documented("/assets/filter.api", "get", &body);
    body["assets"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["sequence_num"].as_i64().unwrap())
        .collect()
}

/// Moves the due moment of asset `n` by `hours` from now, as time passing would.
async fn due_in(app: &TestApp, n: i64, hours: i64) {
    let at = chrono::Utc::now() + chrono::Duration::hours(hours);
    let stmt = sea_query::Query::update()
        .table("items")
        .value("checkin_due_on", at)
        .and_where(sea_query::ExprTrait::eq(
            sea_query::Expr::col("sequence_num"),
            n,
        ))
        .and_where(sea_query::ExprTrait::eq(
            sea_query::Expr::col("company_id"),
            app.company.id.get(),
        ))
        .to_owned();
    app.db.read().execute(&stmt).await.unwrap();
}

async fn every_status_selects_its_assets(kind: Kind) {
    let app = TestApp::new(kind).await;
    let cams = app.group("Cameras").await;
    let lights = app.group("Lights").await;
    let led = app.sub_group(lights, "LED").await;
    let berlin = app.location("Berlin", &[]).await;
    let (b, l) = (berlin.to_string(), led.to_string());
    let free = app
        .asset(
            "Free camera",
            cams,
            &[
                ("fixed_asset[location_id]", &b),
                ("fixed_asset[product_model_number]", "EOS-R5"),
            ],
        )
        .await;
    let out = app.asset("Out camera", cams, &[]).await;
    let late = app.asset("Late camera", cams, &[]).await;
    let panel = app
        .asset("LED panel", lights, &[("fixed_asset[sub_group_id]", &l)])
        .await;
    let gone = app.asset("Old lamp", lights, &[]).await;
    let crew = app.listing("Crew").await.to_string();
    let ann = app
        .member(
            "Ann",
            "Tester",
            "ann@example.com",
            &[("user[user_listing_id]", &crew)],
        )
        .await;
    let bob = app.member("Bob", "Tester", "bob@example.com", &[]).await;
    app.put(
        &format!("/assets/{out}/checkout.api?user_id={ann}&till=01/01/2099"),
        &[],
    )
    .await
    .into_body(StatusCode::OK);
    app.put(
        &format!("/assets/{late}/checkout.api?user_id={bob}&till=01/01/2099"),
        &[],
    )
    .await
    .into_body(StatusCode::OK);
    due_in(&app, late, -2).await;
    let reason = app.retire_reason("Broken").await;
    app.put(
        &format!("/assets/{gone}/retire.api"),
        &[
            ("fixed_asset[retired_on]", "01/01/2026"),
            ("fixed_asset[retire_reason_id]", &reason),
        ],
    )
    .await
    .into_body(StatusCode::OK);
    let today = chrono::Utc::now()
        .date_naive()
        .format("%m/%d/%Y")
        .to_string();
    let in_week = (chrono::Utc::now().date_naive() + chrono::Duration::days(7))
        .format("%m/%d/%Y")
        .to_string();
    let r = app
        .post(
            &format!("/assets/{panel}/reservation_requests.api"),
            &[
                ("reservation_request[from]", &today),
                ("reservation_request[to]", &in_week),
                ("user[id]", &bob.to_string()),
            ],
        )
        .await
        .into_body(StatusCode::OK)["reservation_request"]["id"]
        .as_i64()
        .unwrap();
    app.put(
        &format!("/assets/{panel}/reservation_requests/{r}/update_status.api"),
        &[("request_action", "approve_request")],
    )
    .await
    .into_body(StatusCode::OK);
    let store_verification = sea_query::Query::insert()
        .into_table("verifications")
        .columns([
            "company_id",
            "item_id",
            "member_id",
            "status",
            "created_at",
            "updated_at",
        ])
        .select_from(
            sea_query::Query::select()
                .expr(sea_query::Expr::val(app.company.id.get()))
                .column("id")
                .expr(sea_query::Expr::val(ann))
                .expr(sea_query::Expr::val("pending"))
                .expr(sea_query::Expr::val(chrono::Utc::now()))
                .expr(sea_query::Expr::val(chrono::Utc::now()))
                .from("items")
                .and_where(sea_query::ExprTrait::eq(
                    sea_query::Expr::col("sequence_num"),
                    out,
                ))
                .and_where(sea_query::ExprTrait::eq(
                    sea_query::Expr::col("company_id"),
                    app.company.id.get(),
                ))
                .to_owned(),
        )
        .unwrap()
        .to_owned();
    app.db.read().execute(&store_verification).await.unwrap();

    let sorted = |mut v: Vec<i64>| {
        v.sort_unstable();
        v
    };
    assert_eq!(
        sorted(numbers(&app, "status=available").await),
        [free, panel]
    );
    assert_eq!(
        sorted(numbers(&app, "status=checked_out").await),
        [out, late]
    );
    assert_eq!(numbers(&app, "status=overdue").await, [late]);
    assert_eq!(numbers(&app, "status=checkin_overdue").await, [late]);
    due_in(&app, late, 0).await;
    due_in(&app, out, 1).await;
    let due_today = numbers(&app, "status=due_today").await;
    // An hour from now is still today unless the test runs just before midnight UTC.
    if chrono::Utc::now().time() < chrono::NaiveTime::from_hms_opt(22, 0, 0).unwrap() {
        assert!(due_today.contains(&out), "{due_today:?}");
        assert_eq!(numbers(&app, "status=checkin_due_today").await, due_today);
    }
    assert_eq!(
        numbers(&app, &format!("status=group&filter_param_val={cams}"))
            .await
            .len(),
        3
    );
    assert_eq!(
        numbers(
            &app,
            &format!("status=group&filter_param_val={lights}&sub_group_param_val={led}")
        )
        .await,
        [panel]
    );
    assert_eq!(
        numbers(&app, &format!("status=location&filter_param_val={berlin}")).await,
        [free]
    );
    assert_eq!(
        numbers(
            &app,
            &format!("status=possessions_of&filter_param_val={ann}")
        )
        .await,
        [out]
    );
    assert_eq!(
        numbers(
            &app,
            &format!("status=my_possessions&filter_param_val={bob}")
        )
        .await,
        [late]
    );
    assert_eq!(
        numbers(
            &app,
            "status=possessions_of_email&filter_param_val=ANN%40example.com"
        )
        .await,
        [out]
    );
    assert_eq!(
        numbers(
            &app,
            &format!("status=my_user_listing&filter_param_val={crew}")
        )
        .await,
        [out]
    );
    assert_eq!(
        numbers(
            &app,
            &format!("status=outside_user_listing&filter_param_val={crew}")
        )
        .await,
        [late]
    );
    // The listing is a real one: an unknown one is a 422, not an empty page.
    for status in ["my_user_listing", "outside_user_listing"] {
        for value in ["crew", "999999"] {
            app.get(&format!(
                "/assets/filter.api?status={status}&filter_param_val={value}"
            ))
            .await
            .expect_invalid("filter_param_val");
        }
    }
    assert_eq!(
        numbers(&app, "status=product_model_number&filter_param_val=EOS-R5").await,
        [free]
    );
    assert_eq!(numbers(&app, "status=retired").await, [gone]);
    assert_eq!(numbers(&app, "status=reserved").await, [panel]);
    assert_eq!(
        numbers(&app, "status=reservation_starting_today").await,
        [panel]
    );
    assert_eq!(numbers(&app, "status=pending%20audit").await, [out]);
    // The underscore spelling docs/api.md names reads the same.
    assert_eq!(numbers(&app, "status=pending_audit").await, [out]);
    assert_eq!(
        numbers(
            &app,
            &format!("status=my_pending_audit&filter_param_val={ann}")
        )
        .await,
        [out]
    );
    assert_eq!(
        numbers(
            &app,
            &format!("status=my_pending_audit&filter_param_val={bob}")
        )
        .await,
        Vec::<i64>::new()
    );
    assert_eq!(
        numbers(&app, "status=assets_being_serviced").await,
        Vec::<i64>::new()
    );
    assert_eq!(
        numbers(&app, "status=items_in_order").await,
        Vec::<i64>::new()
    );
    // Checking the asset in cancels the verification asked of its holder.
    app.put(&format!("/assets/{out}/checkin.api"), &[])
        .await
        .into_body(StatusCode::OK);
    assert_eq!(
        numbers(&app, "status=pending%20audit").await,
        Vec::<i64>::new()
    );
    app.put(
        &format!("/assets/{out}/checkout.api?user_id={ann}&till=01/01/2099"),
        &[],
    )
    .await
    .into_body(StatusCode::OK);
    // Free over the week: not retired, not out without end or past it, not reserved.
    let week = format!("status=availability_range&filter_param_val={today}~{in_week}");
    assert_eq!(numbers(&app, &week).await, [free]);
    assert_eq!(
        numbers(
            &app,
            &format!("status=update_time&filter_param_val={today}")
        )
        .await
        .len(),
        5
    );
    assert_eq!(
        numbers(&app, "status=updated_after&filter_param_val=01/01/2020")
            .await
            .len(),
        5
    );
    assert_eq!(
        numbers(
            &app,
            &format!("status=created_after&filter_param_val={today}")
        )
        .await
        .len(),
        0
    );
    // The reserved panel shows its state.
    let read = app
        .get(&format!("/assets/{panel}.api"))
        .await
        .into_body(StatusCode::OK);
    assert_eq!(read["asset"]["state"], "reserved");
}

async fn bad_filters_are_a_422_naming_the_parameter(kind: Kind) {
    let app = TestApp::new(kind).await;
    for (query, field) in [
        ("", "status"),
        ("status=lost", "status"),
        ("status=possessions_of", "filter_param_val"),
        ("status=location&filter_param_val=x", "filter_param_val"),
        (
            "status=availability_range&filter_param_val=07/05/2026",
            "filter_param_val",
        ),
        (
            "status=availability_range&filter_param_val=07/05/2026~07/01/2026",
            "filter_param_val",
        ),
        (
            "status=group&filter_param_val=1&sub_group_param_val=x",
            "sub_group_param_val",
        ),
        ("status=custom_filter_3&filter_param_val=3", "assets_type"),
        (
            "status=custom_filter_3&filter_param_val=3&assets_type=fixed_assets",
            "status",
        ),
        ("status=available&assets_type=boats", "assets_type"),
        ("status=available&page=0", "page"),
    ] {
        let res = app.get(&format!("/assets/filter.api?{query}")).await;
        let body = res.into_body(StatusCode::UNPROCESSABLE_ENTITY);
        assert!(body["errors"][field].is_array(), "{query}: {body}");
    }
}

async fn custom_filters_are_defined_listed_and_used(kind: Kind) {
    let app = TestApp::new(kind).await;
    let cams = app.group("Cameras").await;
    let berlin = app.location("Berlin", &[]).await;
    let b = berlin.to_string();
    let here = app
        .asset("Berlin camera", cams, &[("fixed_asset[location_id]", &b)])
        .await;
    let there = app.asset("Other camera", cams, &[]).await;
    let ann = app.member("Ann", "Tester", "ann@example.com", &[]).await;
    app.put(&format!("/assets/{there}/checkout.api?user_id={ann}"), &[])
        .await
        .into_body(StatusCode::OK);
    let group_cond = format!("group:{cams}");
    let loc_cond = format!("location:{berlin}");
    let res = app
        .post(
            "/custom_filters.api",
            &[
                ("custom_filter[name]", "Berlin cameras in stock"),
                ("custom_filter[assets_type]", "fixed_assets"),
                ("custom_filter[conditions][]", &group_cond),
                ("custom_filter[conditions][]", &loc_cond),
                ("custom_filter[conditions][]", "available"),
            ],
        )
        .await;
    let created = res.into_body(StatusCode::OK);
    assert_documented("/custom_filters.api", "post", &created);
    let f = created["custom_filter"].clone();
    let id = f["id"].as_i64().unwrap();
    assert_eq!(f["status"], format!("custom_filter_{id}"));
    let listed = app
        .get("/custom_filters.api?assets_type=fixed_assets")
        .await
        .into_body(StatusCode::OK);
    assert_documented("/custom_filters.api", "get", &listed);
    assert_eq!(listed["custom_filters"][0]["id"], id);
    let none = app
        .get("/custom_filters.api?assets_type=stock_assets")
        .await
        .into_body(StatusCode::OK);
    assert_eq!(none["custom_filters"].as_array().unwrap().len(), 0);
    assert_eq!(
        numbers(
            &app,
            &format!("status=custom_filter_{id}&filter_param_val={id}&assets_type=fixed_assets")
        )
        .await,
        [here]
    );
    // Bad definitions name each problem; a repeated name is taken.
    let res = app
        .post(
            "/custom_filters.api",
            &[
                ("custom_filter[name]", "Berlin cameras in stock"),
                ("custom_filter[assets_type]", "fixed_assets"),
                ("custom_filter[conditions][]", "location:x"),
            ],
        )
        .await;
    assert!(res.into_body(StatusCode::UNPROCESSABLE_ENTITY)["errors"]["conditions"].is_array());
    let res = app
        .post(
            "/custom_filters.api",
            &[
                ("custom_filter[name]", "Berlin cameras in stock"),
                ("custom_filter[assets_type]", "fixed_assets"),
                ("custom_filter[conditions][]", "available"),
            ],
        )
        .await;
    assert!(res.into_body(StatusCode::UNPROCESSABLE_ENTITY)["errors"]["name"].is_array());
    let res = app
        .post(
            "/custom_filters.api",
            &[("custom_filter[assets_type]", "boats")],
        )
        .await;
    let errors = res.into_body(StatusCode::UNPROCESSABLE_ENTITY)["errors"].clone();
    assert!(
        errors["name"].is_array()
            && errors["assets_type"].is_array()
            && errors["conditions"].is_array()
    );
    // Another company's filter does not exist here.
    let other = TestApp::builder(kind).beside(&app).build().await;
    let res = other
        .get(&format!(
            "/assets/filter.api?status=custom_filter_{id}&assets_type=fixed_assets"
        ))
        .await;
    res.into_body(StatusCode::UNPROCESSABLE_ENTITY);
}
