//! Group taxes (`/group_taxes`): a name for several of the company's custom taxes
//! charged as one tax, whose rate is the sum of theirs (`domain::pricing`: "a group tax
//! is one tax whose rate is the sum of its components'"). The components are rows of
//! `group_tax_components`; a custom tax in a group cannot be deleted while the group is
//! there (its foreign key).

use crate::CompanyId;
use crate::ids::{Id, Kind, kind};
use chrono::{DateTime, Utc};
use domain::{Name, Page};
use sea_query::{Cond, Expr, ExprTrait, Order, Query, SelectStatement};
use std::collections::HashMap;

use crate::{Db, PageOf, StoreError, Tx, change_log, now};

/// One custom tax of a group.
#[derive(Debug, Clone, PartialEq, Eq, crate::Row)]
pub struct Component {
    pub id: i64,
    pub name: String,
    /// Parts per million of the amount, as custom taxes keep it.
    pub rate_ppm: i64,
}

/// A group tax with its components, in custom tax id order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GroupTaxRecord {
    pub id: i64,
    pub name: String,
    pub components: Vec<Component>,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
}

impl GroupTaxRecord {
    /// The group's rate: the sum of its components' rates, in parts per million of the
    /// amount (8.875 % + 1.125 % is 100,000, 10 %).
    pub fn rate_ppm(&self) -> i64 {
        self.components.iter().map(|c| c.rate_ppm).sum()
    }

    /// The group as order pricing takes it: one tax at the summed rate.
    pub fn to_pricing(&self) -> domain::pricing::Tax {
        domain::pricing::Tax {
            id: self.id,
            name: self.name.clone(),
            rate: crate::custom_taxes::rate(self.rate_ppm()),
        }
    }
}

#[derive(crate::Row)]
struct GroupRow {
    id: i64,
    name: String,
    created_at: DateTime<Utc>,
    updated_at: DateTime<Utc>,
}

const COLUMNS: [&str; 4] = ["id", "name", "created_at", "updated_at"];

/// A component with the group it belongs to, as the components of several groups are
/// read at once.
#[derive(crate::Row)]
struct ComponentRow {
    group_tax_id: i64,
    id: i64,
    name: String,
    rate_ppm: i64,
}

fn scoped(company: CompanyId) -> SelectStatement {
    crate::scoped("group_taxes", company)
}

/// The components of the groups `groups`, with their group: one statement for them
/// all, on the components' primary key (company, group, tax).
fn components_of(company: CompanyId, groups: &[i64]) -> SelectStatement {
    const LINK: &str = "group_tax_components";
    const TAX: &str = "custom_taxes";
    Query::select()
        .expr_as(Expr::col((LINK, "group_tax_id")), "group_tax_id")
        .expr_as(Expr::col((TAX, "id")), "id")
        .expr_as(Expr::col((TAX, "name")), "name")
        .expr_as(Expr::col((TAX, "rate_ppm")), "rate_ppm")
        .from(LINK)
        .inner_join(
            TAX,
            Cond::all()
                .add(Expr::col((TAX, "company_id")).equals((LINK, "company_id")))
                .add(Expr::col((TAX, "id")).equals((LINK, "custom_tax_id"))),
        )
        .and_where(Expr::col((LINK, "company_id")).eq(company.0))
        .and_where(Expr::col((LINK, "group_tax_id")).is_in(groups.to_vec()))
        .order_by((LINK, "group_tax_id"), Order::Asc)
        .order_by((TAX, "id"), Order::Asc)
        .to_owned()
}

/// Each of `groups` with its components from `components`.
fn assemble(groups: Vec<GroupRow>, components: Vec<ComponentRow>) -> Vec<GroupTaxRecord> {
    let mut by_group: HashMap<i64, Vec<Component>> = HashMap::new();
    for c in components {
        by_group.entry(c.group_tax_id).or_default().push(Component {
            id: c.id,
            name: c.name,
            rate_ppm: c.rate_ppm,
        });
    }
    groups
        .into_iter()
        .map(|g| GroupTaxRecord {
            components: by_group.remove(&g.id).unwrap_or_default(),
            id: g.id,
            name: g.name,
            created_at: g.created_at,
            updated_at: g.updated_at,
        })
        .collect()
}

fn group_ids(groups: &[GroupRow]) -> Vec<i64> {
    groups.iter().map(|g| g.id).collect()
}

#[tracing::instrument(level = "debug", skip_all)]
pub async fn find(
    db: &Db,
    company: CompanyId,
    id: Id<kind::GroupTax>,
) -> Result<GroupTaxRecord, StoreError> {
    let stmt = scoped(company)
        .columns(COLUMNS)
        .and_where(Expr::col("id").eq(id))
        .to_owned();
    let mut read = db.read();
    let group: GroupRow = read
        .optional(&stmt)
        .await?
        .ok_or(StoreError::NotFound(Kind::GroupTax))?;
    let components = read.all(&components_of(company, &[id.get()])).await?;
    Ok(assemble(vec![group], components).remove(0))
}

/// The company's group taxes, oldest first, each with its components: the page (one
/// or two statements, as every list) and the components of the whole page in one more.
#[tracing::instrument(level = "debug", skip_all)]
pub async fn list(
    db: &Db,
    company: CompanyId,
    page: Page,
) -> Result<PageOf<GroupTaxRecord>, StoreError> {
    let total = crate::Total::whole(company, "group_taxes");
    let groups: PageOf<GroupRow> = crate::paged(db, scoped(company), COLUMNS, page, total).await?;
    let components = if groups.records.is_empty() {
        Vec::new()
    } else {
        let stmt = components_of(company, &group_ids(&groups.records));
        db.read().all(&stmt).await?
    };
    Ok(PageOf {
        records: assemble(groups.records, components),
        total: groups.total,
    })
}

/// A group of the custom taxes `custom_tax_ids` (at least one; repeats count once). An
/// id that is not a custom tax of the company is a 422 on `custom_tax_ids` naming every
/// such id; nothing is written.
#[tracing::instrument(level = "debug", skip_all)]
pub async fn create(
    db: &Db,
    company: CompanyId,
    name: Name,
    custom_tax_ids: &[Id<kind::CustomTax>],
) -> Result<GroupTaxRecord, StoreError> {
    let custom_tax_ids = &Id::raw(custom_tax_ids)[..];
    if custom_tax_ids.is_empty() {
        return Err(StoreError::invalid(
            "custom_tax_ids",
            "can't be blank: give at least one custom tax id",
        ));
    }
    let mut tx = db.begin().await?;
    let taxes = crate::scoped("custom_taxes", company);
    if let Some(problem) = crate::unknown_ids(&mut tx, taxes, custom_tax_ids, "custom tax").await? {
        return Err(StoreError::invalid("custom_tax_ids", problem));
    }
    let at = now();
    let insert = Query::insert()
        .into_table("group_taxes")
        .columns(["company_id", "name", "created_at", "updated_at"])
        .values_panic([company.0.into(), name.as_str().into(), at.into(), at.into()])
        .returning(Query::returning().columns(COLUMNS))
        .to_owned();
    let group: GroupRow = tx.one(&insert).await?;
    crate::insert_links(
        &mut tx,
        company,
        "group_tax_components",
        ("group_tax_id", group.id),
        "custom_tax_id",
        custom_tax_ids,
    )
    .await?;
    let components = tx.all(&components_of(company, &[group.id])).await?;
    let group = assemble(vec![group], components).remove(0);
    change_log::record(
        &mut tx,
        company,
        "group_tax",
        group.id,
        "created",
        serde_json::json!({
            "name": group.name,
            "custom_tax_ids": group.components.iter().map(|c| c.id).collect::<Vec<_>>(),
        }),
    )
    .await?;
    tx.commit().await?;
    Ok(group)
}

/// The company's group taxes `ids` (`group_tax_id` of an order), in the order given,
/// each once, with their components: two statements. An id that is not a group tax of
/// the company is a 422 on `group_tax_id` naming every such id.
#[tracing::instrument(level = "debug", skip_all)]
pub async fn for_order(
    tx: &mut Tx,
    company: CompanyId,
    ids: &[Id<kind::GroupTax>],
) -> Result<Vec<GroupTaxRecord>, StoreError> {
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    let stmt = scoped(company)
        .columns(COLUMNS)
        .and_where(Expr::col("id").is_in(ids.to_vec()))
        .to_owned();
    let groups: Vec<GroupRow> = tx.all(&stmt).await?;
    let components = if groups.is_empty() {
        Vec::new()
    } else {
        tx.all(&components_of(company, &group_ids(&groups))).await?
    };
    let found = assemble(groups, components);
    crate::in_order_of(ids, found, |g| g.id, "group_tax_id", "group tax")
}
