//! Record ids in paths, read by extractors that answer the contract's 404 themselves:
//! `Id<kind::Location>` is the `{id}` of the path as a location's id, and anything but
//! a positive whole number is "No such location in this company" before the handler
//! runs. `Under<kind::Group>` is the id of the record the path is nested under
//! (`/groups/{group_id}/sub_groups/...`). `Number<kind::Item>` is the path's
//! `{sequence_num}`: items (fixed assets, inventory, asset stock) and orders are
//! addressed by the company's running number, not by id (API_CONTRACT.md).

use axum::extract::{FromRequestParts, RawPathParams};
use axum::http::request::Parts;

use crate::error::ApiError;

pub use store::ids::{Named as Kind, kind};

/// The path's `{id}`, as the id of a `K`.
pub struct Id<K>(pub store::Id<K>);

/// The id of the `K` the path is nested under: its parameter other than `{id}`
/// (`{group_id}`, `{owner_id}`).
pub struct Under<K>(pub store::Id<K>);

/// The path's `{sequence_num}`, as the company's number of a `K` (an item or order).
pub struct Number<K>(pub store::Number<K>);

/// The value of the first path parameter `wanted` accepts, as a positive id of a `K`.
async fn path_param<K: Kind, S: Send + Sync>(
    parts: &mut Parts,
    state: &S,
    wanted: impl Fn(&str) -> bool,
) -> Result<i64, ApiError> {
    let missing = || ApiError::from(store::StoreError::NotFound(K::KIND));
    let params = RawPathParams::from_request_parts(parts, state)
        .await
        .map_err(|_| missing())?;
    params
        .iter()
        .find(|(name, _)| wanted(name))
        .and_then(|(_, value)| crate::form::parse_id(value))
        .ok_or_else(missing)
}

impl<K: Kind, S: Send + Sync> FromRequestParts<S> for Id<K> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        let id = path_param::<K, S>(parts, state, |name| name == "id").await?;
        Ok(Id(store::Id::new(id)))
    }
}

impl<K: Kind, S: Send + Sync> FromRequestParts<S> for Under<K> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        let id = path_param::<K, S>(parts, state, |name| name != "id").await?;
        Ok(Under(store::Id::new(id)))
    }
}

impl<K: Kind, S: Send + Sync> FromRequestParts<S> for Number<K> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        let number = path_param::<K, S>(parts, state, |name| name == "sequence_num").await?;
        Ok(Number(store::Number::new(number)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::Router;
    use axum::body::Body;
    use axum::http::{Request, StatusCode};
    use axum::routing::get;
    use http_body_util::BodyExt;
    use tower::ServiceExt;

    async fn get_path(path: &str) -> (StatusCode, String) {
        let app: Router = Router::new().route(
            "/assets/{sequence_num}",
            get(|Number(n): Number<kind::Item>| async move { n.to_string() }),
        );
        let res = app
            .oneshot(Request::get(path).body(Body::empty()).unwrap())
            .await
            .unwrap();
        let status = res.status();
        let body = res.into_body().collect().await.unwrap().to_bytes();
        (status, String::from_utf8(body.to_vec()).unwrap())
    }

    #[tokio::test]
    async fn an_item_number_is_read_from_sequence_num() {
        assert_eq!(get_path("/assets/42").await, (StatusCode::OK, "42".into()));
    }

    #[tokio::test]
    async fn anything_but_an_item_number_is_the_contracts_404() {
        for bad in ["abc", "0", "-3", "1.5", "99999999999999999999", "%2342"] {
            let (status, body) = get_path(&format!("/assets/{bad}")).await;
            assert_eq!(status, StatusCode::NOT_FOUND, "{bad}");
            let body: serde_json::Value = serde_json::from_str(&body).unwrap();
            assert_eq!(
                body["message"],
                "No such asset in this company. Check the asset number (sequence_num).",
                "{bad}"
            );
        }
    }
}
