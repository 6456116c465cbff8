//! The handlers customers and contacts share, one copy for both kinds: `K` says which.

use axum::extract::State;
use store::persons;

use super::input::read_input;
use super::{PersonKind, answer, page_of};
use crate::auth::Tenant;
use crate::custom_attributes::IncludeQuery;
use crate::error::ApiError;
use crate::ids::Id;
use crate::input::Input;
use crate::params::Params;
use crate::state::AppState;
use crate::views;

/// A page of the kind's records, active ones unless filtered otherwise.
pub async fn list<K: PersonKind>(
    State(state): State<AppState>,
    Tenant(company): Tenant,
    params: Params,
) -> Result<views::Reply, ApiError> {
    page_of::<K::List>(&state, &company, &params, Some(K::PERSON), K::PLURAL).await
}

pub async fn create<K: PersonKind>(
    State(state): State<AppState>,
    Tenant(company): Tenant,
    params: Params,
) -> Result<views::Reply, ApiError> {
    let input = read_input::<K, K::New>(&state, company.id, &params).await?;
    let view = persons::create::<K>(state.db(), company.id, input).await?;
    answer(&state, &company, K::SINGULAR, view, true).await
}

pub async fn details<K: PersonKind>(
    State(state): State<AppState>,
    Tenant(company): Tenant,
    Id(id): Id<K>,
    params: Params,
) -> Result<views::Reply, ApiError> {
    let include = IncludeQuery::parse(&params)?.include();
    let view = persons::find(state.db(), company.id, id).await?;
    answer(&state, &company, K::SINGULAR, view, include).await
}

/// An unknown id is a 404 before the fields are read.
pub async fn update<K: PersonKind>(
    State(state): State<AppState>,
    Tenant(company): Tenant,
    Id(id): Id<K>,
    params: Params,
) -> Result<views::Reply, ApiError> {
    persons::find(state.db(), company.id, id).await?;
    let input = read_input::<K, K::Changes>(&state, company.id, &params).await?;
    let view = persons::update(state.db(), company.id, id, input).await?;
    answer(&state, &company, K::SINGULAR, view, true).await
}

pub async fn delete<K: PersonKind>(
    State(state): State<AppState>,
    Tenant(company): Tenant,
    Id(id): Id<K>,
) -> Result<views::Reply, ApiError> {
    let view = persons::delete(state.db(), company.id, id).await?;
    answer(&state, &company, K::SINGULAR, view, true).await
}

/// Marks the record `id` active or not (the kinds' routes say how a request asks).
pub async fn set_active<K: PersonKind>(
    state: &AppState,
    company: &store::companies::Company,
    id: store::Id<K>,
    active: bool,
) -> Result<views::Reply, ApiError> {
    let view = persons::set_active(state.db(), company.id, id, active).await?;
    answer(state, company, K::SINGULAR, view, true).await
}

/// Writes one import row as a new person of kind `K` (`key` none) or as changes to
/// person `key`, in the import's transaction.
pub(crate) async fn import_row<K: PersonKind>(
    state: &AppState,
    tx: &mut store::Tx,
    company: store::CompanyId,
    params: &Params,
    key: Option<i64>,
) -> Result<crate::resources::imports::Written, ApiError> {
    use crate::resources::imports::Written;
    match key {
        None => {
            let input = read_input::<K, K::New>(state, company, params).await?;
            persons::create_in::<K>(tx, company, input).await?;
            Ok(Written::Created)
        }
        Some(id) => {
            let input = read_input::<K, K::Changes>(state, company, params).await?;
            persons::update_in::<K>(tx, company, store::Id::new(id), input).await?;
            Ok(Written::Updated)
        }
    }
}

/// The columns an import of `K` reads besides `id` and custom fields' names.
pub(crate) fn import_columns<K: PersonKind>() -> Vec<&'static str> {
    <K::New as Input>::fields().iter().map(|f| f.name).collect()
}
