//! Company reference data (rentrack extensions the spec refers to without showing
//! how to manage): `/custom_roles.api`, `/teams.api`, `/retire_reasons.api`, each
//! with `/<plural>/{id}.api`.

use axum::extract::State;
use domain::{Change, PageSize};
use serde::Serialize;
use store::reference_data::{self, Entry, EntryInput, Kind};

use crate::api::{Api, Doc, get};
use crate::auth::Tenant;
use crate::error::ApiError;
use crate::ids::{Id, kind};
use crate::input::{Input, PageQuery};
use crate::params::Params;
use crate::state::AppState;
use crate::views::{self, Moment, moment};

/// The create and update inputs of one kind of entry, named for its resource.
macro_rules! entry_inputs {
    ($module:ident, $resource:literal) => {
        mod $module {
            use domain::Change;

            use crate::input::{Input, ShortText};

            /// A new entry.
            #[derive(Input)]
            #[input(resource = $resource)]
            pub struct New {
                /// Unique in the company, at most 255 characters.
                #[input(format = ShortText)]
                pub name: String,
                pub description: Change<String>,
            }

            /// An entry's changes: what is left out is kept.
            #[derive(Input)]
            #[input(resource = $resource)]
            pub struct Changes {
                /// Unique in the company, at most 255 characters.
                #[input(format = ShortText)]
                pub name: Option<String>,
                pub description: Change<String>,
            }

            impl From<New> for super::NewFields {
                fn from(n: New) -> Self {
                    (n.name, n.description)
                }
            }

            impl From<Changes> for super::Fields {
                fn from(c: Changes) -> Self {
                    (c.name, c.description)
                }
            }
        }
    };
}

entry_inputs!(custom_role, "custom_role");
entry_inputs!(team, "team");
entry_inputs!(retire_reason, "retire_reason");

/// A new entry's name and description.
type NewFields = (String, Change<String>);

/// An entry's changes: its name (kept when `None`) and description.
type Fields = (Option<String>, Change<String>);

/// `T` read as what the store takes.
fn read_as<T: Input + Into<F>, F>(params: &Params) -> Result<F, ApiError> {
    T::parse(params).map(Into::into)
}

pub fn routes(api: Api) -> Api {
    let api = family::<kind::CustomRole, custom_role::New, custom_role::Changes>(
        api,
        "Roles",
        "List custom roles, 25 a page (POST creates one: a rentrack extension)",
        "Custom role details (GET), update (PUT or PATCH) or delete (DELETE; 409 while members have it)",
    );
    let api = family::<kind::Team, team::New, team::Changes>(
        api,
        "Teams",
        "List teams, 25 a page (POST creates one: a rentrack extension)",
        "Team details (GET), update (PUT or PATCH) or delete (DELETE; its members leave it)",
    );
    family::<kind::RetireReason, retire_reason::New, retire_reason::Changes>(
        api,
        "Retire reasons",
        "List retire reasons, 25 a page, or create one (POST); a rentrack extension",
        "Retire reason details (GET), update (PUT or PATCH) or delete (DELETE)",
    )
}

fn plural(kind: Kind) -> &'static str {
    match kind {
        Kind::CustomRole => "custom_roles",
        Kind::Team => "teams",
        Kind::RetireReason => "retire_reasons",
    }
}

fn family<K, N, C>(
    api: Api,
    tag: &'static str,
    list_summary: &'static str,
    one_summary: &'static str,
) -> Api
where
    K: reference_data::Entries,
    N: Input + Into<NewFields> + Send + 'static,
    C: Input + Into<Fields> + Send + 'static,
{
    let kind = K::ENTRY;
    let collection = move |state: State<AppState>, tenant: Tenant, params: Params| {
        list_or_create(kind, state, tenant, params, None)
    };
    let create = move |state: State<AppState>, tenant: Tenant, params: Params| {
        list_or_create(kind, state, tenant, params, Some(read_as::<N, NewFields>))
    };
    let details = move |state: State<AppState>, tenant: Tenant, Id(id): Id<K>, params: Params| {
        one(state, tenant, id, params, Action::Details)
    };
    let update = move |state: State<AppState>, tenant: Tenant, Id(id): Id<K>, params: Params| {
        one(
            state,
            tenant,
            id,
            params,
            Action::Update(read_as::<C, Fields>),
        )
    };
    let delete = move |state: State<AppState>, tenant: Tenant, Id(id): Id<K>, params: Params| {
        one(state, tenant, id, params, Action::Delete)
    };
    api.route(
        &format!("/{}", plural(kind)),
        get(collection).post(create),
        Doc::new(tag, list_summary)
            .input::<N>()
            .params::<PageQuery>()
            .returns_page(plural(kind))
            .returns(kind.singular())
            .record::<EntryJson<'_>>(),
    )
    .route(
        &format!("/{}/{{id}}", plural(kind)),
        get(details).put_or_patch(update).delete(delete),
        Doc::new(tag, one_summary)
            .input::<C>()
            .returns(kind.singular())
            .record::<EntryJson<'_>>(),
    )
}

/// A custom role, team or retire reason as the contract shows it.
#[derive(Serialize, utoipa::ToSchema)]
#[schema(as = ReferenceEntry)]
pub struct EntryJson<'a> {
    id: i64,
    name: &'a str,
    description: Option<&'a str>,
    created_at: Moment,
    updated_at: Moment,
}

pub fn render(e: &Entry, tz: chrono_tz::Tz) -> EntryJson<'_> {
    EntryJson {
        id: e.id,
        name: &e.name,
        description: e.description.as_deref(),
        created_at: moment(e.created_at, tz),
        updated_at: moment(e.updated_at, tz),
    }
}

/// Reads an entry's fields, or one 422 naming every problem.
type Read = fn(&Params) -> Result<Fields, ApiError>;

/// Reads a new entry's fields, or one 422 naming every problem.
type ReadNew = fn(&Params) -> Result<NewFields, ApiError>;

#[derive(Clone, Copy)]
enum Action {
    Details,
    Update(Read),
    Delete,
}

async fn list_or_create(
    kind: Kind,
    State(state): State<AppState>,
    Tenant(company): Tenant,
    params: Params,
    create: Option<ReadNew>,
) -> Result<views::Reply, ApiError> {
    if let Some(read) = create {
        let (name, description) = read(&params)?;
        let entry = reference_data::create(state.db(), company.id, kind, name, description).await?;
        return Ok(views::one(
            kind.singular(),
            render(&entry, company.time_zone),
        ));
    }
    let page = PageQuery::parse(&params)?.page(PageSize::DEFAULT);
    let records = reference_data::list(state.db(), company.id, kind, page).await?;
    Ok(views::paged(plural(kind), page, &records, |e| {
        render(e, company.time_zone)
    }))
}

async fn one<K: reference_data::Entries>(
    State(state): State<AppState>,
    Tenant(company): Tenant,
    id: store::Id<K>,
    params: Params,
    action: Action,
) -> Result<views::Reply, ApiError> {
    let kind = K::ENTRY;
    let entry = match action {
        Action::Details => reference_data::find(state.db(), company.id, id).await?,
        Action::Update(read) => {
            let (name, description) = read(&params)?;
            reference_data::update(state.db(), company.id, id, EntryInput { name, description })
                .await?
        }
        Action::Delete => reference_data::delete(state.db(), company.id, id).await?,
    };
    Ok(views::one(
        kind.singular(),
        render(&entry, company.time_zone),
    ))
}
