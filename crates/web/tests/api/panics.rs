//! A panicking handler is answered as a JSON 500 with a request id, and the server
//! keeps serving.

use axum::body::Body;
use axum::http::{Request, StatusCode};
use axum::routing::get;
use axum::{Router, middleware};
use http_body_util::BodyExt;
use tower::ServiceExt;

#[tokio::test]
async fn panic_becomes_json_500() {
    let db = store::Db::connect("sqlite::memory:").await.unwrap();
    db.migrate().await.unwrap();
    let state = web::AppState::new(db, web::Config::default());
    let app: Router = Router::new()
        .route(
            "/boom",
            get(|| async {
                if true {
                    panic!("kaboom")
                }
            }),
        )
        .route("/fine", get(|| async { "fine" }))
        .layer(middleware::from_fn_with_state(
            state.clone(),
            web::observe::observe,
        ))
        .with_state(state);
    let res = app
        .clone()
        .oneshot(Request::get("/boom").body(Body::empty()).unwrap())
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::INTERNAL_SERVER_ERROR);
    assert!(res.headers().get("x-request-id").is_some());
    let body: serde_json::Value =
        serde_json::from_slice(&res.into_body().collect().await.unwrap().to_bytes()).unwrap();
    assert!(body["message"].as_str().unwrap().contains("request id"));
    assert!(
        !body.to_string().contains("kaboom"),
        "panic details are not sent"
    );
    let res = app
        .oneshot(Request::get("/fine").body(Body::empty()).unwrap())
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::OK);
}
