//! Company reference data that members and items point at: custom roles, teams and
//! retire reasons. All three are a name (unique in the company) and a description.

use chrono::{DateTime, Utc};
use domain::{Change, CompanyId, Page};
use sea_query::{Expr, ExprTrait, Query, Value};

use crate::{Db, PageOf, StoreError, change_log, change_value, now};

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

    fn what(self) -> &'static str {
        match self {
            Kind::CustomRole => "Custom role",
            Kind::Team => "Team",
            Kind::RetireReason => "Retire reason",
        }
    }
}

#[derive(Debug, Clone, sqlx::FromRow)]
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

fn taken(e: StoreError) -> StoreError {
    if e.is_unique_violation() {
        StoreError::invalid("name", "has already been taken")
    } else {
        e
    }
}

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
        crate::lists::counts::whole(company, kind.table()),
    )
    .await
}

pub async fn find(db: &Db, company: CompanyId, kind: Kind, id: i64) -> Result<Entry, StoreError> {
    let stmt = crate::scoped(kind.table(), company)
        .columns(COLUMNS)
        .and_where(Expr::col("id").eq(id))
        .to_owned();
    db.read().optional(&stmt).await?.ok_or(StoreError::NotFound)
}

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
    let entry: Entry = tx.one(&stmt).await.map_err(taken)?;
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

pub async fn update(
    db: &Db,
    company: CompanyId,
    kind: Kind,
    id: i64,
    input: EntryInput,
) -> Result<Entry, StoreError> {
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
    let entry: Entry = tx
        .optional(&stmt)
        .await
        .map_err(taken)?
        .ok_or(StoreError::NotFound)?;
    change_log::record(
        &mut tx,
        company,
        kind.singular(),
        id,
        "updated",
        serde_json::json!({"name": entry.name}),
    )
    .await?;
    tx.commit().await?;
    Ok(entry)
}

/// Deletes an entry. A team leaves its members' team lists; a custom role still
/// given to members is refused (409), as is a retire reason that retired items use.
pub async fn delete(db: &Db, company: CompanyId, kind: Kind, id: i64) -> Result<Entry, StoreError> {
    let mut tx = db.begin().await?;
    let select = crate::scoped(kind.table(), company)
        .columns(COLUMNS)
        .and_where(Expr::col("id").eq(id))
        .to_owned();
    let entry: Entry = tx.optional(&select).await?.ok_or(StoreError::NotFound)?;
    if kind == Kind::CustomRole {
        let count = crate::scoped("members", company)
            .expr_as(Expr::col("id").count(), "n")
            .and_where(Expr::col("custom_role_id").eq(id))
            .to_owned();
        let n: crate::Count = tx.one(&count).await?;
        if n.n > 0 {
            return Err(StoreError::Conflict(format!(
                "Custom role {:?} is the role of {} member(s); give them another role first.",
                entry.name, n.n
            )));
        }
    }
    let delete = Query::delete()
        .from_table(kind.table())
        .and_where(Expr::col("company_id").eq(company.0))
        .and_where(Expr::col("id").eq(id))
        .to_owned();
    tx.execute(&delete).await.map_err(|e| {
        if e.is_foreign_key_violation() {
            StoreError::Conflict(format!("{} {:?} is still in use.", kind.what(), entry.name))
        } else {
            e
        }
    })?;
    change_log::record(
        &mut tx,
        company,
        kind.singular(),
        id,
        "deleted",
        serde_json::json!({"name": entry.name}),
    )
    .await?;
    tx.commit().await?;
    Ok(entry)
}
