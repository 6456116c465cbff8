//! Company reference data that members and items point at: custom roles, teams and
//! retire reasons. All three are a name (unique in the company) and a description.

use crate::CompanyId;
use crate::ids::{Id, Named, kind};
use chrono::{DateTime, Utc};
use domain::refusal::{InUse, Record, Users};
use domain::{Change, Page};
use sea_query::{Expr, ExprTrait, Query, Value};

use crate::{Db, PageOf, StoreError, change_log, change_value, now, removal};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    CustomRole,
    Team,
    RetireReason,
}

impl Kind {
    pub fn table(self) -> &'static str {
        match self {
            Kind::CustomRole => "custom_roles",
            Kind::Team => "teams",
            Kind::RetireReason => "retire_reasons",
        }
    }

    /// The singular name, as in `custom_role[name]` and the change log.
    pub fn singular(self) -> &'static str {
        match self {
            Kind::CustomRole => "custom_role",
            Kind::Team => "team",
            Kind::RetireReason => "retire_reason",
        }
    }

    fn record(self) -> Record {
        match self {
            Kind::CustomRole => Record::CustomRole,
            Kind::Team => Record::Team,
            Kind::RetireReason => Record::RetireReason,
        }
    }
}

/// The id kinds of reference data: an `Id<K>` names its table.
pub trait Entries: Named {
    const ENTRY: Kind;
}

impl Entries for kind::CustomRole {
    const ENTRY: Kind = Kind::CustomRole;
}

impl Entries for kind::Team {
    const ENTRY: Kind = Kind::Team;
}

impl Entries for kind::RetireReason {
    const ENTRY: Kind = Kind::RetireReason;
}

#[derive(Debug, Clone, crate::Row)]
pub struct Entry {
    pub id: i64,
    pub name: String,
    pub description: Option<String>,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
}

const COLUMNS: [&str; 5] = ["id", "name", "description", "created_at", "updated_at"];

pub struct EntryInput {
    pub name: Option<String>,
    pub description: Change<String>,
}

#[tracing::instrument(level = "debug", skip_all)]
pub async fn list(
    db: &Db,
    company: CompanyId,
    kind: Kind,
    page: Page,
) -> Result<PageOf<Entry>, StoreError> {
    crate::paged(
        db,
        crate::scoped(kind.table(), company),
        COLUMNS,
        page,
        crate::Total::whole(company, kind.table()),
    )
    .await
}

#[tracing::instrument(level = "debug", skip_all)]
pub async fn find<K: Entries>(db: &Db, company: CompanyId, id: Id<K>) -> Result<Entry, StoreError> {
    let kind = K::ENTRY;
    let stmt = crate::scoped(kind.table(), company)
        .columns(COLUMNS)
        .and_where(Expr::col("id").eq(id))
        .to_owned();
    db.read().optional(&stmt).await?.ok_or(id.missing())
}

#[tracing::instrument(level = "debug", skip_all)]
pub async fn create(
    db: &Db,
    company: CompanyId,
    kind: Kind,
    name: String,
    description: Change<String>,
) -> Result<Entry, StoreError> {
    let at = now();
    let description = match description {
        Change::Set(d) => Some(d),
        _ => None,
    };
    let stmt = Query::insert()
        .into_table(kind.table())
        .columns([
            "company_id",
            "name",
            "description",
            "created_at",
            "updated_at",
        ])
        .values_panic([
            company.0.into(),
            name.into(),
            description.into(),
            at.into(),
            at.into(),
        ])
        .returning(Query::returning().columns(COLUMNS))
        .to_owned();
    let mut tx = db.begin().await?;
    let entry: Entry = tx.one(&stmt).await?;
    change_log::record(
        &mut tx,
        company,
        kind.singular(),
        entry.id,
        "created",
        serde_json::json!({"name": entry.name}),
    )
    .await?;
    tx.commit().await?;
    Ok(entry)
}

#[tracing::instrument(level = "debug", skip_all)]
pub async fn update<K: Entries>(
    db: &Db,
    company: CompanyId,
    id: Id<K>,
    input: EntryInput,
) -> Result<Entry, StoreError> {
    let kind = K::ENTRY;
    let mut values: Vec<(&'static str, Value)> = vec![("updated_at", now().into())];
    if let Some(name) = &input.name {
        values.push(("name", name.clone().into()));
    }
    if let Some(v) = change_value(&input.description) {
        values.push(("description", v));
    }
    let stmt = Query::update()
        .table(kind.table())
        .values(values.into_iter().map(|(c, v)| (c, Expr::val(v))))
        .and_where(Expr::col("company_id").eq(company.0))
        .and_where(Expr::col("id").eq(id))
        .returning(Query::returning().columns(COLUMNS))
        .to_owned();
    let mut tx = db.begin().await?;
    let entry: Entry = tx.optional(&stmt).await?.ok_or(id.missing())?;
    change_log::record(
        &mut tx,
        company,
        kind.singular(),
        id.get(),
        "updated",
        serde_json::json!({"name": entry.name}),
    )
    .await?;
    tx.commit().await?;
    Ok(entry)
}

/// Deletes an entry. A team leaves its members' team lists; a custom role still
/// given to members is refused (409), as is a retire reason that retired items use.
#[tracing::instrument(level = "debug", skip_all)]
pub async fn delete<K: Entries>(
    db: &Db,
    company: CompanyId,
    id: Id<K>,
) -> Result<Entry, StoreError> {
    let kind = K::ENTRY;
    let mut tx = db.begin().await?;
    let select = crate::scoped(kind.table(), company)
        .columns(COLUMNS)
        .and_where(Expr::col("id").eq(id))
        .to_owned();
    let entry: Entry = tx.optional(&select).await?.ok_or(id.missing())?;
    let in_use = |by| InUse {
        record: kind.record(),
        name: entry.name.clone(),
        by,
    };
    if kind == Kind::CustomRole {
        let members = crate::scoped("members", company)
            .and_where(Expr::col("custom_role_id").eq(id))
            .to_owned();
        removal::refuse_if_used(&mut tx, members, |n| in_use(Users::Members(n))).await?;
    }
    if kind == Kind::RetireReason {
        let items = crate::items::in_column(company, "retire_reason_id", id.get());
        removal::refuse_if_used(&mut tx, items, |n| in_use(Users::Items(n))).await?;
    }
    removal::delete(
        &mut tx,
        company,
        kind.table(),
        id,
        kind.singular(),
        &entry.name,
    )
    .await
    .map_err(|e| {
        if e.is_foreign_key_violation() {
            StoreError::InUse(in_use(Users::Records))
        } else {
            e
        }
    })?;
    tx.commit().await?;
    Ok(entry)
}
