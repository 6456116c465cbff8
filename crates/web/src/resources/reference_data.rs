//! Company reference data (rentrack extensions the spec refers to without showing
//! how to manage): `/custom_roles.api`, `/teams.api`, `/retire_reasons.api`, each
//! with `/<plural>/{id}.api`.

use axum::extract::State;
use domain::PageSize;
use serde::Serialize;
use store::reference_data::{self, Entry, EntryInput, Kind};

use crate::api::{Api, Doc, get};
use crate::auth::Tenant;
use crate::error::ApiError;
use crate::form::Form;
use crate::ids::{Id, kind};
use crate::params::Params;
use crate::state::AppState;
use crate::views::{self, Moment, moment};

const FIELDS: &[(&str, &str)] = &[
    (
        "name",
        "required, unique in the company, at most 255 characters",
    ),
    ("description", "text; null clears"),
];

pub fn routes(api: Api) -> Api {
    let api = family::<kind::CustomRole>(
        api,
        Kind::CustomRole,
        "Roles",
        "List custom roles, 25 a page (POST creates one: a rentrack extension)",
        "Custom role details (GET), update (PUT or PATCH) or delete (DELETE; 409 while members have it)",
    );
    let api = family::<kind::Team>(
        api,
        Kind::Team,
        "Teams",
        "List teams, 25 a page (POST creates one: a rentrack extension)",
        "Team details (GET), update (PUT or PATCH) or delete (DELETE; its members leave it)",
    );
    family::<kind::RetireReason>(
        api,
        Kind::RetireReason,
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

fn family<K: crate::ids::Kind>(
    api: Api,
    kind: Kind,
    tag: &'static str,
    list_summary: &'static str,
    one_summary: &'static str,
) -> Api {
    let collection = move |state: State<AppState>, tenant: Tenant, params: Params| {
        list_or_create(kind, state, tenant, params, false)
    };
    let create = move |state: State<AppState>, tenant: Tenant, params: Params| {
        list_or_create(kind, state, tenant, params, true)
    };
    let details =
        move |state: State<AppState>, tenant: Tenant, Id(id, _): Id<K>, params: Params| {
            one(kind, state, tenant, id, params, Action::Details)
        };
    let update = move |state: State<AppState>, tenant: Tenant, Id(id, _): Id<K>, params: Params| {
        one(kind, state, tenant, id, params, Action::Update)
    };
    let delete = move |state: State<AppState>, tenant: Tenant, Id(id, _): Id<K>, params: Params| {
        one(kind, state, tenant, id, params, Action::Delete)
    };
    api.route(
        &format!("/{}", plural(kind)),
        get(collection).post(create),
        Doc::new(tag, list_summary)
            .form(kind.singular(), FIELDS)
            .query(&[("page", "page number, default 1")])
            .returns_page(plural(kind))
            .returns(kind.singular())
            .record::<EntryJson<'_>>(),
    )
    .route(
        &format!("/{}/{{id}}", plural(kind)),
        get(details).put_or_patch(update).delete(delete),
        Doc::new(tag, one_summary)
            .form(kind.singular(), FIELDS)
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

#[derive(Clone, Copy)]
enum Action {
    Details,
    Update,
    Delete,
}

async fn list_or_create(
    kind: Kind,
    State(state): State<AppState>,
    Tenant(company): Tenant,
    params: Params,
    creating: bool,
) -> Result<views::Reply, ApiError> {
    if creating {
        let mut form = Form::new(&params, kind.singular());
        let name = form.required_text("name");
        let description = form.text("description");
        form.finish()?;
        let entry = reference_data::create(
            state.db(),
            company.id,
            kind,
            name.expect("reported by finish"),
            description,
        )
        .await?;
        return Ok(views::one(
            kind.singular(),
            render(&entry, company.time_zone),
        ));
    }
    let page = views::page(&params, PageSize::DEFAULT)?;
    let records = reference_data::list(state.db(), company.id, kind, page).await?;
    Ok(views::paged(plural(kind), page, &records, |e| {
        render(e, company.time_zone)
    }))
}

async fn one(
    kind: Kind,
    State(state): State<AppState>,
    Tenant(company): Tenant,
    id: i64,
    params: Params,
    action: Action,
) -> Result<views::Reply, ApiError> {
    let entry = match action {
        Action::Details => reference_data::find(state.db(), company.id, kind, id).await?,
        Action::Update => {
            let mut form = Form::new(&params, kind.singular());
            let name = form.optional_required_text("name");
            let description = form.text("description");
            form.finish()?;
            reference_data::update(
                state.db(),
                company.id,
                kind,
                id,
                EntryInput { name, description },
            )
            .await?
        }
        Action::Delete => reference_data::delete(state.db(), company.id, kind, id).await?,
    };
    Ok(views::one(
        kind.singular(),
        render(&entry, company.time_zone),
    ))
}
