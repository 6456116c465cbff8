//! Rate limits: headers on every authenticated response, 429 with Retry-After, an
//! early retry refused with the same or a longer wait, and one limit per company
//! across two instances sharing PostgreSQL.

use crate::common::{Kind, TestApp};
use axum::http::StatusCode;
use domain::{Plan, RateLimitPolicy};

both!(
    plan_limits_and_headers,
    over_the_limit_is_429_and_early_retry_waits_longer,
    limits_are_per_company,
    unlimited_plan_reports_numeric_headers
);

async fn limited(kind: Kind, requests: u32, shared: bool) -> TestApp {
    let config = web::Config {
        base_domain: None,
        shared_rate_limits: shared,
        ..Default::default()
    };
    let app = TestApp::builder(kind)
        .plan(Plan::Paid)
        .config(config)
        .build()
        .await;
    // A long window so the test never straddles two windows.
    store::companies::set_rate_limit(
        &app.db,
        &app.company.subdomain,
        RateLimitPolicy::Limited {
            requests,
            window_secs: 86_400,
        },
    )
    .await
    .unwrap();
    app
}

async fn plan_limits_and_headers(kind: Kind) {
    let app = TestApp::builder(kind).plan(Plan::Trial).build().await;
    let res = app.get("/assets/vendors.api").await;
    res.expect(StatusCode::OK);
    assert_eq!(res.header("x-rate-limit"), Some("1000"));
    assert_eq!(res.header("x-rate-limit-remaining"), Some("999"));
    // Errors of an authenticated request carry the headers too.
    let res = app.get("/locations/99999.api").await;
    res.expect(StatusCode::NOT_FOUND);
    assert_eq!(res.header("x-rate-limit-remaining"), Some("998"));
    let paid = store::companies::set_plan(&app.db, &app.company.subdomain, Plan::Paid)
        .await
        .unwrap();
    assert_eq!(
        paid.rate_limit,
        RateLimitPolicy::Limited {
            requests: 60,
            window_secs: 60
        }
    );
}

async fn over_the_limit_is_429_and_early_retry_waits_longer(kind: Kind) {
    for shared in [false, true] {
        let app = limited(kind, 3, shared).await;
        for remaining in ["2", "1", "0"] {
            let res = app.get("/assets/vendors.api").await;
            res.expect(StatusCode::OK);
            assert_eq!(res.header("x-rate-limit"), Some("3"));
            assert_eq!(res.header("x-rate-limit-remaining"), Some(remaining));
        }
        let refused = app
            .post("/locations.api", &[("location[name]", "Too Many")])
            .await;
        assert!(
            refused.expect(StatusCode::TOO_MANY_REQUESTS)["message"]
                .as_str()
                .unwrap()
                .contains("Rate limit")
        );
        let first: u64 = refused.header("retry-after").unwrap().parse().unwrap();
        assert!(first > 0);
        assert_eq!(refused.header("x-rate-limit-remaining"), Some("0"));
        tokio::time::sleep(std::time::Duration::from_millis(1100)).await;
        let again = app.get("/assets/vendors.api").await;
        again.expect(StatusCode::TOO_MANY_REQUESTS);
        let second: u64 = again.header("retry-after").unwrap().parse().unwrap();
        assert!(second >= first, "early retry: {second} < {first}");
        // Refused requests were not served.
        let list = store::locations::list(
            &app.db,
            app.company.id,
            store::locations::StatusFilter::All,
            domain::Page::new(1, domain::PageSize::DEFAULT),
        )
        .await
        .unwrap();
        assert_eq!(list.total, 0);
        let metrics = app.metrics().await;
        assert!(
            metrics.contains("rentrack_rate_limited_total 2"),
            "{metrics}"
        );
    }
}

async fn limits_are_per_company(kind: Kind) {
    let a = limited(kind, 1, false).await;
    let b = TestApp::builder(kind)
        .beside(&a)
        .plan(Plan::Paid)
        .build()
        .await;
    a.get("/assets/vendors.api").await.expect(StatusCode::OK);
    a.get("/assets/vendors.api")
        .await
        .expect(StatusCode::TOO_MANY_REQUESTS);
    b.get("/assets/vendors.api").await.expect(StatusCode::OK);
}

async fn unlimited_plan_reports_numeric_headers(kind: Kind) {
    let app = TestApp::new(kind).await;
    let res = app.get("/assets/vendors.api").await;
    let limit: u64 = res.header("x-rate-limit").unwrap().parse().unwrap();
    let remaining: u64 = res
        .header("x-rate-limit-remaining")
        .unwrap()
        .parse()
        .unwrap();
    assert_eq!(limit, remaining);
}

/// Two app instances on one PostgreSQL database enforce one limit per company.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs TEST_POSTGRES_URL"]
async fn limit_holds_across_two_instances_on_postgres() {
    let first = limited(Kind::Postgres, 10, true).await;
    let second_db = store::Db::connect(&first.db_url).await.unwrap();
    let config = web::Config {
        base_domain: None,
        shared_rate_limits: true,
        ..Default::default()
    };
    let second = web::router(web::AppState::new(second_db, config));
    let instances = [first.router.clone(), second];
    let mut tasks = Vec::new();
    for i in 0..30 {
        let router = instances[i % 2].clone();
        let token = first.token.clone();
        tasks.push(tokio::spawn(async move {
            use tower::ServiceExt;
            let req = http::Request::get("/assets/vendors.api")
                .header("token", token)
                .body(axum::body::Body::empty())
                .unwrap();
            router.oneshot(req).await.unwrap().status()
        }));
    }
    let mut ok = 0;
    let mut refused = 0;
    for t in tasks {
        match t.await.unwrap() {
            StatusCode::OK => ok += 1,
            StatusCode::TOO_MANY_REQUESTS => refused += 1,
            other => panic!("unexpected {other}"),
        }
    }
    assert_eq!((ok, refused), (10, 20));
}
