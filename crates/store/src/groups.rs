//! Groups (asset classifications) with their depreciation settings.

use chrono::{DateTime, Utc};
use domain::depreciation::{DepreciationMode, DepreciationRates};
use domain::{Change, CompanyId, Name, Page};
use sea_query::{Expr, ExprTrait, LockType, Query, SelectStatement, Value};

use crate::{Db, PageOf, StoreError, Tx, change_log, change_value, now};

#[derive(Debug, Clone, sqlx::FromRow)]
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

pub async fn find(db: &Db, company: CompanyId, id: i64) -> Result<Group, StoreError> {
    let stmt = scoped(company)
        .columns(COLUMNS)
        .and_where(Expr::col("id").eq(id))
        .to_owned();
    db.read().optional(&stmt).await?.ok_or(StoreError::NotFound)
}

pub(crate) async fn exists_in(
    tx: &mut Tx,
    company: CompanyId,
    id: i64,
) -> Result<bool, StoreError> {
    let stmt = scoped(company)
        .column("id")
        .and_where(Expr::col("id").eq(id))
        .to_owned();
    Ok(tx.optional::<(i64,)>(&stmt).await?.is_some())
}

pub async fn list(db: &Db, company: CompanyId, page: Page) -> Result<PageOf<Group>, StoreError> {
    let total = crate::lists::counts::whole(company, "asset_groups");
    crate::paged(db, scoped(company), COLUMNS, page, total).await
}

pub async fn create(db: &Db, company: CompanyId, input: GroupInput) -> Result<Group, StoreError> {
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
    let mut tx = db.begin().await?;
    let group: Group = tx.one(&stmt).await?;
    change_log::record(
        &mut tx,
        company,
        "group",
        group.id,
        "created",
        serde_json::json!({"name": group.name}),
    )
    .await?;
    tx.commit().await?;
    Ok(group)
}

pub async fn update(
    db: &Db,
    company: CompanyId,
    id: i64,
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
    let mut tx = db.begin().await?;
    // A new mode without new rates must fit the rates already stored.
    if let (Some(mode), None) = (input.mode, &input.rates) {
        let select = scoped(company)
            .columns(COLUMNS)
            .and_where(Expr::col("id").eq(id))
            .lock(LockType::Update)
            .to_owned();
        let stored: Group = tx.optional(&select).await?.ok_or(StoreError::NotFound)?;
        for (method, rate) in stored.rates() {
            let rate = rate.as_str().unwrap_or_default().to_owned();
            if let Err(problem) = mode.parse_rate(&rate) {
                return Err(StoreError::invalid(
                    "depreciation_rates",
                    format!(
                        "{method} = {rate} does not fit mode {}: {problem}; send depreciation_rates for the new mode",
                        mode.as_str()
                    ),
                ));
            }
        }
    }
    let stmt = Query::update()
        .table("asset_groups")
        .values(values.into_iter().map(|(c, v)| (c, Expr::val(v))))
        .and_where(Expr::col("company_id").eq(company.0))
        .and_where(Expr::col("id").eq(id))
        .returning(Query::returning().columns(COLUMNS))
        .to_owned();
    let group: Group = tx.optional(&stmt).await?.ok_or(StoreError::NotFound)?;
    change_log::record(
        &mut tx,
        company,
        "group",
        id,
        "updated",
        serde_json::json!({"name": group.name}),
    )
    .await?;
    tx.commit().await?;
    Ok(group)
}

/// Deletes a group that holds nothing. A group with subgroups is refused (409).
pub async fn delete(db: &Db, company: CompanyId, id: i64) -> Result<Group, StoreError> {
    let group = find(db, company, id).await?;
    let mut tx = db.begin().await?;
    let subgroups = Query::select()
        .expr_as(Expr::col("id").count(), "n")
        .from("sub_groups")
        .and_where(Expr::col("company_id").eq(company.0))
        .and_where(Expr::col("group_id").eq(id))
        .to_owned();
    let (n,): (i64,) = tx.one(&subgroups).await?;
    if n > 0 {
        return Err(StoreError::Conflict(format!(
            "Group {:?} still has {n} subgroup(s); delete them or move their items first.",
            group.name
        )));
    }
    let items = crate::items::count_in(&mut tx, company, "group_id", id).await?;
    if items > 0 {
        return Err(StoreError::Conflict(format!(
            "Group {:?} still has {items} item(s); move them to another group or delete them first.",
            group.name
        )));
    }
    let stmt = Query::delete()
        .from_table("asset_groups")
        .and_where(Expr::col("company_id").eq(company.0))
        .and_where(Expr::col("id").eq(id))
        .to_owned();
    if tx.execute(&stmt).await? == 0 {
        return Err(StoreError::NotFound);
    }
    change_log::record(
        &mut tx,
        company,
        "group",
        id,
        "deleted",
        serde_json::json!({"name": group.name}),
    )
    .await?;
    tx.commit().await?;
    Ok(group)
}
