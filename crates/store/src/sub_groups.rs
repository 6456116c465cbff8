//! Subgroups: a tree inside one group (parent_id names a subgroup of the same group).

use crate::CompanyId;
use crate::ids::{Id, Kind, kind};
use chrono::{DateTime, Utc};
use domain::refusal::{InUse, Record, Users};
use domain::{Change, Name, Page};
use sea_query::{Expr, ExprTrait, Query, SelectStatement, Value, Values};

use crate::counters::{self, Sequence};
use crate::{Db, PageOf, Sql, StoreError, Tx, change_log, change_value, groups, now, removal};

#[derive(Debug, Clone, crate::Row)]
pub struct SubGroup {
    pub id: i64,
    pub group_id: i64,
    pub parent_id: Option<i64>,
    pub name: String,
    pub description: Option<String>,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
}

const COLUMNS: [&str; 7] = [
    "id",
    "group_id",
    "parent_id",
    "name",
    "description",
    "created_at",
    "updated_at",
];

#[derive(Debug, Clone)]
pub struct SubGroupInput {
    pub name: Name,
    pub description: Change<String>,
    pub parent_id: Change<Id<kind::SubGroup>>,
}

fn scoped(company: CompanyId) -> SelectStatement {
    crate::scoped("sub_groups", company)
}

/// The 404 of a subgroup `in_group` did not find: the group's when the company has no
/// such group (one more statement, on this path only), else the subgroup's.
async fn not_found(tx: &mut Tx, company: CompanyId, group: Id<kind::Group>) -> StoreError {
    match crate::has(tx, "asset_groups", company, group).await {
        Ok(false) => group.missing(),
        Ok(true) => StoreError::NotFound(Kind::SubGroup),
        Err(e) => e,
    }
}

fn in_group(company: CompanyId, group: Id<kind::Group>, id: Id<kind::SubGroup>) -> SelectStatement {
    scoped(company)
        .columns(COLUMNS)
        .and_where(Expr::col("group_id").eq(group))
        .and_where(Expr::col("id").eq(id))
        .to_owned()
}

#[tracing::instrument(level = "debug", skip_all)]
pub async fn find(
    db: &Db,
    company: CompanyId,
    group: Id<kind::Group>,
    id: Id<kind::SubGroup>,
) -> Result<SubGroup, StoreError> {
    if let Some(sub) = db.read().optional(&in_group(company, group, id)).await? {
        return Ok(sub);
    }
    let mut tx = db.begin_read().await?;
    Err(not_found(&mut tx, company, group).await)
}

/// A page of the subgroups of the company, or of one group, in id order. The spec shows
/// this list without a page parameter, but clients page every list.
#[tracing::instrument(level = "debug", skip_all)]
pub async fn list(
    db: &Db,
    company: CompanyId,
    group: Option<Id<kind::Group>>,
    page: Page,
) -> Result<PageOf<SubGroup>, StoreError> {
    let mut base = scoped(company);
    let total = match group {
        None => crate::Total::whole(company, "sub_groups"),
        Some(g) => {
            base.and_where(Expr::col("group_id").eq(g));
            crate::Total::Filtered
        }
    };
    crate::paged(db, base, COLUMNS, page, total).await
}

async fn descendants_and_self(
    tx: &mut Tx,
    company: CompanyId,
    root: i64,
) -> Result<Vec<i64>, StoreError> {
    let stmt = Sql {
        text: "WITH RECURSIVE tree(id) AS ( \
                 SELECT id FROM sub_groups WHERE company_id = $1 AND id = $2 \
                 UNION SELECT s.id FROM sub_groups s JOIN tree ON s.parent_id = tree.id WHERE s.company_id = $1) \
               SELECT id FROM tree",
        values: Values(vec![company.0.into(), root.into()]),
    };
    let ids: Vec<(i64,)> = tx.all(&stmt).await?;
    Ok(ids.into_iter().map(|(id,)| id).collect())
}

async fn check_parent(
    tx: &mut Tx,
    company: CompanyId,
    group: Id<kind::Group>,
    this: Option<Id<kind::SubGroup>>,
    parent: i64,
) -> Result<(), StoreError> {
    if tx
        .optional::<SubGroup>(&in_group(company, group, Id::new(parent)))
        .await?
        .is_none()
    {
        return Err(StoreError::invalid(
            "parent_id",
            format!("is not a subgroup of group {group}"),
        ));
    }
    if let Some(id) = this {
        // Serialise tree changes per company so two re-parentings cannot race into a
        // cycle: the second reads the subtree only after the first has committed.
        counters::next(tx, company, Sequence::SubGroupTree).await?;
        if descendants_and_self(tx, company, id.get())
            .await?
            .contains(&parent)
        {
            return Err(StoreError::invalid(
                "parent_id",
                "would make the subgroup its own ancestor: choose a subgroup outside its subtree",
            ));
        }
    }
    Ok(())
}

/// The company's subgroups after subgroup `after`, by id, at most `limit`: an export's
/// batch.
pub async fn after(
    db: &Db,
    company: CompanyId,
    after: i64,
    limit: u64,
) -> Result<Vec<SubGroup>, StoreError> {
    let (_, rows) = crate::with_columns(scoped(company), COLUMNS);
    crate::after(db, rows, "id", after, limit).await
}

#[tracing::instrument(level = "debug", skip_all)]
pub async fn create(
    db: &Db,
    company: CompanyId,
    group: Id<kind::Group>,
    input: SubGroupInput,
) -> Result<SubGroup, StoreError> {
    let mut tx = db.begin().await?;
    let sub = create_in(&mut tx, company, group, input).await?;
    tx.commit().await?;
    Ok(sub)
}

/// [`create`], in a transaction of the caller's (an import's).
pub async fn create_in(
    tx: &mut Tx,
    company: CompanyId,
    group: Id<kind::Group>,
    input: SubGroupInput,
) -> Result<SubGroup, StoreError> {
    if !groups::exists_in(tx, company, group).await? {
        return Err(group.missing());
    }
    if let Change::Set(parent) = input.parent_id {
        check_parent(tx, company, group, None, parent.get()).await?;
    }
    let at = now();
    let stmt = Query::insert()
        .into_table("sub_groups")
        .columns([
            "company_id",
            "group_id",
            "parent_id",
            "name",
            "description",
            "created_at",
            "updated_at",
        ])
        .values_panic([
            company.0.into(),
            group.into(),
            input.parent_id.as_set().copied().into(),
            input.name.as_str().into(),
            input.description.as_set().cloned().into(),
            at.into(),
            at.into(),
        ])
        .returning(Query::returning().columns(COLUMNS))
        .to_owned();
    let sub: SubGroup = tx.one(&stmt).await?;
    change_log::record(
        tx,
        company,
        "sub_group",
        sub.id,
        "created",
        serde_json::json!({"name": sub.name, "group_id": group}),
    )
    .await?;
    Ok(sub)
}

/// Up to two subgroups of `group` named `name` (an import's rows name them; two is
/// ambiguous).
pub async fn named_in(
    tx: &mut Tx,
    company: CompanyId,
    group: Id<kind::Group>,
    name: &str,
) -> Result<Vec<Id<kind::SubGroup>>, StoreError> {
    let stmt = scoped(company)
        .column("id")
        .and_where(Expr::col("group_id").eq(group))
        .and_where(Expr::col("name").eq(name))
        .limit(2)
        .to_owned();
    let found: Vec<(i64,)> = tx.all(&stmt).await?;
    Ok(found.into_iter().map(|(id,)| Id::new(id)).collect())
}

#[tracing::instrument(level = "debug", skip_all)]
pub async fn update(
    db: &Db,
    company: CompanyId,
    group: Id<kind::Group>,
    id: Id<kind::SubGroup>,
    input: SubGroupInput,
) -> Result<SubGroup, StoreError> {
    let mut tx = db.begin().await?;
    let sub = update_in(&mut tx, company, group, id, input).await?;
    tx.commit().await?;
    Ok(sub)
}

/// [`update`], in a transaction of the caller's (an import's).
pub async fn update_in(
    tx: &mut Tx,
    company: CompanyId,
    group: Id<kind::Group>,
    id: Id<kind::SubGroup>,
    input: SubGroupInput,
) -> Result<SubGroup, StoreError> {
    if tx
        .optional::<SubGroup>(&in_group(company, group, id))
        .await?
        .is_none()
    {
        return Err(not_found(tx, company, group).await);
    }
    if let Change::Set(parent) = input.parent_id {
        check_parent(tx, company, group, Some(id), parent.get()).await?;
    }
    let mut values: Vec<(&'static str, Value)> = vec![
        ("name", input.name.as_str().into()),
        ("updated_at", now().into()),
    ];
    if let Some(v) = change_value(&input.description) {
        values.push(("description", v));
    }
    if let Some(v) = change_value(&input.parent_id) {
        values.push(("parent_id", v));
    }
    let stmt = Query::update()
        .table("sub_groups")
        .values(values.into_iter().map(|(c, v)| (c, Expr::val(v))))
        .and_where(Expr::col("company_id").eq(company.0))
        .and_where(Expr::col("id").eq(id))
        .returning(Query::returning().columns(COLUMNS))
        .to_owned();
    let sub: SubGroup = tx.one(&stmt).await?;
    change_log::record(
        tx,
        company,
        "sub_group",
        id.get(),
        "updated",
        serde_json::json!({"name": sub.name, "group_id": sub.group_id}),
    )
    .await?;
    Ok(sub)
}

/// Deletes a subgroup that holds nothing: one with child subgroups or items is
/// refused (409).
#[tracing::instrument(level = "debug", skip_all)]
pub async fn delete(
    db: &Db,
    company: CompanyId,
    group: Id<kind::Group>,
    id: Id<kind::SubGroup>,
) -> Result<SubGroup, StoreError> {
    let mut tx = db.begin().await?;
    let Some(sub) = tx
        .optional::<SubGroup>(&in_group(company, group, id))
        .await?
    else {
        return Err(not_found(&mut tx, company, group).await);
    };
    let in_use = |by| InUse {
        record: Record::Subgroup,
        name: sub.name.clone(),
        by,
    };
    let children = scoped(company)
        .and_where(Expr::col("parent_id").eq(id))
        .to_owned();
    removal::refuse_if_used(&mut tx, children, |n| in_use(Users::Subgroups(n))).await?;
    let items = crate::items::in_column(company, "sub_group_id", id.get());
    removal::refuse_if_used(&mut tx, items, |n| in_use(Users::Items(n))).await?;
    removal::delete(&mut tx, company, "sub_groups", id, "sub_group", &sub.name).await?;
    tx.commit().await?;
    Ok(sub)
}
