//! Groups (asset classifications) with their depreciation settings.

use crate::CompanyId;
use crate::ids::{Id, Kind, kind};
use chrono::{DateTime, Utc};
use domain::depreciation::{DepreciationMode, DepreciationRates};
use domain::refusal::{InUse, Record, Users};
use domain::{Change, Name, Page};
use sea_query::{Expr, ExprTrait, LockType, Query, SelectStatement, Value};

use crate::{Db, PageOf, StoreError, Tx, change_log, change_value, now, removal};

#[derive(Debug, Clone, crate::Row)]
pub struct Group {
    pub id: i64,
    pub name: String,
    pub description: Option<String>,
    pub depreciation_mode: String,
    /// JSON object: method name to rate (decimal string).
    pub depreciation_rates: String,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
}

impl Group {
    pub fn rates(&self) -> serde_json::Map<String, serde_json::Value> {
        serde_json::from_str(&self.depreciation_rates).unwrap_or_default()
    }
}

const COLUMNS: [&str; 7] = [
    "id",
    "name",
    "description",
    "depreciation_mode",
    "depreciation_rates",
    "created_at",
    "updated_at",
];

/// A group as a create or an update gives it. On update, a mode or rates left out
/// keep their stored value.
#[derive(Debug, Clone)]
pub struct GroupInput {
    pub name: Name,
    pub description: Change<String>,
    pub mode: Option<DepreciationMode>,
    pub rates: Option<DepreciationRates>,
}

fn rates_json(rates: &DepreciationRates) -> String {
    let map: serde_json::Map<String, serde_json::Value> = rates
        .iter()
        .map(|(k, v)| (k.clone(), serde_json::Value::String(v.to_string())))
        .collect();
    serde_json::Value::Object(map).to_string()
}

fn scoped(company: CompanyId) -> SelectStatement {
    crate::scoped("asset_groups", company)
}

#[tracing::instrument(level = "debug", skip_all)]
pub async fn find(db: &Db, company: CompanyId, id: Id<kind::Group>) -> Result<Group, StoreError> {
    let stmt = scoped(company)
        .columns(COLUMNS)
        .and_where(Expr::col("id").eq(id))
        .to_owned();
    db.read()
        .optional(&stmt)
        .await?
        .ok_or(StoreError::NotFound(Kind::Group))
}

/// [`find`], in a transaction of the caller's (an import's, which sees its own rows).
pub async fn find_in(
    tx: &mut Tx,
    company: CompanyId,
    id: Id<kind::Group>,
) -> Result<Group, StoreError> {
    let stmt = scoped(company)
        .columns(COLUMNS)
        .and_where(Expr::col("id").eq(id))
        .to_owned();
    tx.optional(&stmt)
        .await?
        .ok_or(StoreError::NotFound(Kind::Group))
}

/// The company's groups after group `after`, by id, at most `limit`: an export's batch.
pub async fn after(
    db: &Db,
    company: CompanyId,
    after: i64,
    limit: u64,
) -> Result<Vec<Group>, StoreError> {
    let (_, rows) = crate::with_columns(scoped(company), COLUMNS);
    crate::after(db, rows, "id", after, limit).await
}

pub(crate) async fn exists_in(
    tx: &mut Tx,
    company: CompanyId,
    id: Id<kind::Group>,
) -> Result<bool, StoreError> {
    crate::has(tx, "asset_groups", company, id).await
}

#[tracing::instrument(level = "debug", skip_all)]
pub async fn list(db: &Db, company: CompanyId, page: Page) -> Result<PageOf<Group>, StoreError> {
    let total = crate::Total::whole(company, "asset_groups");
    crate::paged(db, scoped(company), COLUMNS, page, total).await
}

#[tracing::instrument(level = "debug", skip_all)]
pub async fn create(db: &Db, company: CompanyId, input: GroupInput) -> Result<Group, StoreError> {
    let mut tx = db.begin().await?;
    let group = create_in(&mut tx, company, input).await?;
    tx.commit().await?;
    Ok(group)
}

/// [`create`], in a transaction of the caller's (an import's).
pub async fn create_in(
    tx: &mut Tx,
    company: CompanyId,
    input: GroupInput,
) -> Result<Group, StoreError> {
    let at = now();
    let mode = input.mode.unwrap_or(DepreciationMode::UsefulLife);
    let rates = input.rates.unwrap_or_default();
    let stmt = Query::insert()
        .into_table("asset_groups")
        .columns([
            "company_id",
            "name",
            "description",
            "depreciation_mode",
            "depreciation_rates",
            "created_at",
            "updated_at",
        ])
        .values_panic([
            company.0.into(),
            input.name.as_str().into(),
            input.description.as_set().cloned().into(),
            mode.as_str().into(),
            rates_json(&rates).into(),
            at.into(),
            at.into(),
        ])
        .returning(Query::returning().columns(COLUMNS))
        .to_owned();
    let group: Group = tx.one(&stmt).await?;
    change_log::record(
        tx,
        company,
        "group",
        group.id,
        "created",
        serde_json::json!({"name": group.name}),
    )
    .await?;
    Ok(group)
}

/// Up to two groups named `name` (an import's rows name them; two is ambiguous).
pub async fn named_in(
    tx: &mut Tx,
    company: CompanyId,
    name: &str,
) -> Result<Vec<Id<kind::Group>>, StoreError> {
    let stmt = Query::select()
        .from("asset_groups")
        .column("id")
        .and_where(Expr::col("company_id").eq(company.0))
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
    id: Id<kind::Group>,
    input: GroupInput,
) -> Result<Group, StoreError> {
    let mut tx = db.begin().await?;
    let group = update_in(&mut tx, company, id, input).await?;
    tx.commit().await?;
    Ok(group)
}

/// [`update`], in a transaction of the caller's (an import's).
pub async fn update_in(
    tx: &mut Tx,
    company: CompanyId,
    id: Id<kind::Group>,
    input: GroupInput,
) -> Result<Group, StoreError> {
    let mut values: Vec<(&'static str, Value)> = vec![
        ("name", input.name.as_str().into()),
        ("updated_at", now().into()),
    ];
    if let Some(v) = change_value(&input.description) {
        values.push(("description", v));
    }
    if let Some(mode) = input.mode {
        values.push(("depreciation_mode", mode.as_str().into()));
    }
    if let Some(rates) = &input.rates {
        values.push(("depreciation_rates", rates_json(rates).into()));
    }
    // A new mode without new rates must fit the rates already stored.
    if let (Some(mode), None) = (input.mode, &input.rates) {
        let select = scoped(company)
            .columns(COLUMNS)
            .and_where(Expr::col("id").eq(id))
            .lock(LockType::Update)
            .to_owned();
        let stored: Group = tx
            .optional(&select)
            .await?
            .ok_or(StoreError::NotFound(Kind::Group))?;
        let rates = stored.rates();
        mode.check_kept_rates(
            rates
                .iter()
                .map(|(method, rate)| (method.as_str(), rate.as_str().unwrap_or_default())),
        )
        .map_err(|problem| StoreError::invalid("depreciation_rates", problem))?;
    }
    let stmt = Query::update()
        .table("asset_groups")
        .values(values.into_iter().map(|(c, v)| (c, Expr::val(v))))
        .and_where(Expr::col("company_id").eq(company.0))
        .and_where(Expr::col("id").eq(id))
        .returning(Query::returning().columns(COLUMNS))
        .to_owned();
    let group: Group = tx
        .optional(&stmt)
        .await?
        .ok_or(StoreError::NotFound(Kind::Group))?;
    change_log::record(
        tx,
        company,
        "group",
        id.get(),
        "updated",
        serde_json::json!({"name": group.name}),
    )
    .await?;
    Ok(group)
}

/// Deletes a group that holds nothing: one with subgroups or items is refused (409).
#[tracing::instrument(level = "debug", skip_all)]
pub async fn delete(db: &Db, company: CompanyId, id: Id<kind::Group>) -> Result<Group, StoreError> {
    let mut tx = db.begin().await?;
    let select = scoped(company)
        .columns(COLUMNS)
        .and_where(Expr::col("id").eq(id))
        .to_owned();
    let group: Group = tx
        .optional(&select)
        .await?
        .ok_or(StoreError::NotFound(Kind::Group))?;
    let in_use = |by| InUse {
        record: Record::Group,
        name: group.name.clone(),
        by,
    };
    let subgroups = crate::scoped("sub_groups", company)
        .and_where(Expr::col("group_id").eq(id))
        .to_owned();
    removal::refuse_if_used(&mut tx, subgroups, |n| in_use(Users::Subgroups(n))).await?;
    let items = crate::items::in_column(company, "group_id", id.get());
    removal::refuse_if_used(&mut tx, items, |n| in_use(Users::Items(n))).await?;
    removal::delete(&mut tx, company, "asset_groups", id, "group", &group.name).await?;
    tx.commit().await?;
    Ok(group)
}
