//! Record ids in paths, read by extractors that answer the contract's 404 themselves:
//! `Id<kind::Location>` is the `{id}` of the path as a location's id, and anything but
//! a positive whole number is "No such location in this company" before the handler
//! runs. `Under<kind::Group>` is the id of the record the path is nested under
//! (`/groups/{group_id}/sub_groups/...`).

use axum::extract::{FromRequestParts, RawPathParams};
use axum::http::request::Parts;
use std::marker::PhantomData;

use crate::error::ApiError;

/// A kind of record, named in its 404.
pub trait Kind: Send + Sync + 'static {
    const NAME: &'static str;
}

/// The kinds of record addressed by id in paths.
pub mod kind {
    macro_rules! kinds {
        ($($kind:ident => $name:literal),* $(,)?) => {
            $(
                pub struct $kind;
                impl super::Kind for $kind {
                    const NAME: &'static str = $name;
                }
            )*
        };
    }

    kinds!(
        Location => "location",
        Group => "group",
        SubGroup => "subgroup",
        Vendor => "vendor",
        Member => "member",
        Customer => "customer",
        Business => "business",
        Contact => "contact",
        CustomField => "custom field",
        CustomRole => "custom_role",
        Team => "team",
        RetireReason => "retire_reason",
        Address => "address",
    );
}

/// The path's `{id}`, as the id of a `K`.
pub struct Id<K>(pub i64, pub PhantomData<K>);

/// The id of the `K` the path is nested under: its parameter other than `{id}`
/// (`{group_id}`, `{owner_id}`).
pub struct Under<K>(pub i64, pub PhantomData<K>);

/// The value of the first path parameter `wanted` accepts, as a positive id of a `K`.
async fn path_param<K: Kind, S: Send + Sync>(
    parts: &mut Parts,
    state: &S,
    wanted: impl Fn(&str) -> bool,
) -> Result<i64, ApiError> {
    let params = RawPathParams::from_request_parts(parts, state)
        .await
        .map_err(|_| ApiError::not_found(K::NAME))?;
    params
        .iter()
        .find(|(name, _)| wanted(name))
        .and_then(|(_, value)| crate::form::parse_id(value))
        .ok_or_else(|| ApiError::not_found(K::NAME))
}

impl<K: Kind, S: Send + Sync> FromRequestParts<S> for Id<K> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        Ok(Id(
            path_param::<K, S>(parts, state, |name| name == "id").await?,
            PhantomData,
        ))
    }
}

impl<K: Kind, S: Send + Sync> FromRequestParts<S> for Under<K> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        Ok(Under(
            path_param::<K, S>(parts, state, |name| name != "id").await?,
            PhantomData,
        ))
    }
}
