//! The HTTP interface of rentrack: routing, parameters, authentication, rate limits,
//! errors, and one module per resource family.

pub mod address_block;
pub mod api;
pub mod auth;
pub mod client_addr;
pub mod company_cache;
pub mod console;
pub mod custom_attributes;
pub mod delivery;
pub mod error;
pub mod form;
mod html;
pub mod ids;
pub mod input;
mod json;
pub mod mail;
pub mod metrics;
pub mod moving;
pub mod observe;
pub mod params;
pub mod rate_limit;
pub mod refusals;
pub mod resources;
pub mod routing;
pub mod staff;
pub mod state;
pub mod usage;
pub mod views;

use axum::extract::State;
use axum::http::{StatusCode, header};
use axum::response::IntoResponse;
use axum::routing::get;
use axum::{Json, Router, middleware};
use tower::ServiceExt as _;

pub use state::{AppState, Config};

use crate::error::ApiError;

/// The API routes and their OpenAPI description.
pub fn api() -> (Router<AppState>, serde_json::Value) {
    let api = api::Api::default();
    let api = resources::locations::routes(api);
    let api = resources::groups::routes(api);
    let api = resources::sub_groups::routes(api);
    let api = resources::vendors::routes(api);
    let api = resources::verifications::routes(api);
    let api = resources::members::routes(api);
    let api = resources::addresses::routes(api);
    let api = resources::reference_data::routes(api);
    let api = resources::assets::routes(api);
    let api = resources::stock::routes(api);
    let api = resources::custom_filters::routes(api);
    let api = resources::custom_taxes::routes(api);
    let api = resources::group_taxes::routes(api);
    let api = resources::bundles::routes(api);
    let api = resources::coupons::routes(api);
    let api = resources::payment_options::routes(api);
    let api = resources::custom_fields::routes(api);
    let api = resources::company_settings::routes(api);
    let api = resources::customers::routes(api);
    let api = resources::businesses::routes(api);
    let api = resources::contacts::routes(api);
    let api = resources::persons::routes(api);
    let api = resources::orders::routes(api);
    let api = resources::labels::routes(api);
    let api = resources::listings::routes(api);
    let api = resources::webhooks::routes(api);
    let api = resources::imports::routes(api);
    let api = resources::exports::routes(api);
    api.into_parts()
}

pub fn openapi_json() -> String {
    serde_json::to_string_pretty(&api().1).expect("a JSON value serializes")
}

/// The whole application as a service: the `.api` rewrite in front of the router.
pub fn app(state: AppState) -> axum::routing::RouterIntoService<axum::body::Body> {
    router(state).into_service()
}

/// The router with the `.api` rewrite applied; `serve` wraps it in a make-service.
pub fn router(state: AppState) -> Router {
    let (api_routes, openapi) = api();
    let openapi = std::sync::Arc::new(
        serde_json::to_string_pretty(&openapi).expect("a JSON value serializes"),
    );
    let renderer = std::sync::Arc::new(delivery::Renderer::new(state.clone()));
    let api_routes = api_routes.route_layer(middleware::from_fn_with_state(
        (state.clone(), renderer),
        delivery::render_written,
    ));
    // The staff pages' proxy calls the API (paths already rewritten) for the session's
    // company, without a token.
    let staff_api = api_routes
        .clone()
        .fallback(not_found)
        .method_not_allowed_fallback(method_not_allowed)
        .with_state(state.clone());
    let api_routes = api_routes.route_layer(middleware::from_fn_with_state(
        state.clone(),
        auth::authenticate,
    ));
    let inner = Router::new()
        .merge(api_routes)
        .merge(console::routes())
        .merge(staff::routes(staff_api))
        .route("/healthz", get(healthz))
        .route("/livez", get(livez))
        .route("/readyz", get(readyz))
        .route("/labels/{file}", get(resources::labels::pdf))
        .route("/scan/{company}/{kind}/{key}", get(resources::labels::scan))
        .route("/metrics", get(metrics))
        .route(
            "/openapi.json",
            get(move || {
                let body = openapi.clone();
                async move {
                    (
                        [(header::CONTENT_TYPE, "application/json")],
                        body.as_str().to_owned(),
                    )
                }
            }),
        )
        .fallback(not_found)
        .method_not_allowed_fallback(method_not_allowed)
        .layer(middleware::from_fn_with_state(
            state.clone(),
            observe::observe,
        ))
        .with_state(state);
    Router::new().fallback_service(inner.map_request(routing::rewrite))
}

async fn not_found() -> ApiError {
    ApiError::NotFound(
        "No such route. Every API path ends in .api; see /openapi.json for the list.".into(),
    )
}

async fn method_not_allowed() -> ApiError {
    ApiError::MethodNotAllowed(
        "This path does not take that method; see /openapi.json for the methods it takes.".into(),
    )
}

async fn healthz(State(state): State<AppState>) -> impl IntoResponse {
    match store::companies::list_ping(state.db()).await {
        Ok(()) => (StatusCode::OK, Json(serde_json::json!({"status": "ok"}))).into_response(),
        Err(_) => error::unavailable(Json(serde_json::json!({"status": "database unavailable"}))),
    }
}

/// The process answers: nothing else is asked (`/readyz` asks the database).
async fn livez() -> impl IntoResponse {
    Json(serde_json::json!({"status": "alive"}))
}

/// How long `/readyz` waits for the database's answer.
const READY_WITHIN: std::time::Duration = std::time::Duration::from_secs(2);

/// Whether a load balancer should send this instance requests: not once it is shutting
/// down, nor while its database does not answer within [`READY_WITHIN`]; a database
/// that answers it is busy is ready (another instance would meet the same database).
async fn readyz(State(state): State<AppState>) -> axum::response::Response {
    if state.stopping().is_cancelled() {
        return error::unavailable(Json(serde_json::json!({"status": "stopping"})));
    }
    let database = match tokio::time::timeout(READY_WITHIN, state.db().ping()).await {
        Ok(Ok(store::Health::Answered)) => "ok",
        Ok(Ok(store::Health::Busy)) => "busy",
        Ok(Err(e)) => {
            tracing::warn!(error = %e, "readyz: the database does not answer");
            return error::unavailable(Json(serde_json::json!({"status": "database unavailable"})));
        }
        Err(_) => {
            tracing::warn!(
                within_ms = READY_WITHIN.as_millis() as u64,
                "readyz: the database did not answer in time"
            );
            return error::unavailable(Json(serde_json::json!({"status": "database unavailable"})));
        }
    };
    Json(serde_json::json!({"status": "ready", "database": database})).into_response()
}

/// The counters, to the networks and the token `Config::metrics` names; an unknown route
/// when it names neither.
async fn metrics(
    State(state): State<AppState>,
    client: client_addr::ClientAddr,
    headers: http::HeaderMap,
) -> axum::response::Response {
    let access = &state.config().metrics;
    if !access.enabled() {
        return not_found().await.into_response();
    }
    if !access.allows(client.0.parse().ok(), auth::bearer(&headers)) {
        return ApiError::Forbidden(
            "/metrics is served only to the networks of --metrics-from, or with the token of --metrics-token (Authorization: Bearer)".into(),
        )
        .into_response();
    }
    (
        [(header::CONTENT_TYPE, "text/plain; version=0.0.4")],
        state.inner().metrics.render(),
    )
        .into_response()
}
