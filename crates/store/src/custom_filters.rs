//! Custom filters: a named conjunction of the built-in filters of one kind of item,
//! used as `status=custom_filter_<id>`.

use crate::CompanyId;
use chrono::{DateTime, Utc};
use domain::Page;
use domain::asset_filter::AssetFilter;
use domain::item::AssetType;
use domain::refusal::{Listed, Problem};
use sea_query::{Expr, ExprTrait, Query};
use serde::{Deserialize, Serialize};

use crate::{Db, PageOf, StoreError, change_log, now};

/// The kinds of item a custom filter applies to, as `assets_type` names them.
pub const ASSETS_TYPES: [&str; 3] = ["fixed_assets", "volatile_assets", "stock_assets"];

/// One condition: a built-in filter's status and values, as sent.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Condition {
    pub status: String,
    pub value: Option<String>,
    pub sub_group: Option<String>,
}

/// The kind of item an `assets_type` word names.
pub fn kind_of(assets_type: &str) -> Option<AssetType> {
    match assets_type {
        "fixed_assets" => Some(AssetType::FixedAsset),
        "volatile_assets" => Some(AssetType::VolatileAsset),
        "stock_assets" => Some(AssetType::StockAsset),
        _ => None,
    }
}

/// The `assets_type` word of a kind of item.
pub fn assets_type_of(kind: AssetType) -> &'static str {
    match kind {
        AssetType::FixedAsset => "fixed_assets",
        AssetType::VolatileAsset => "volatile_assets",
        AssetType::StockAsset => "stock_assets",
    }
}

impl Condition {
    /// The built-in filter of items of `kind` this condition stands for.
    pub fn filter(
        &self,
        kind: AssetType,
    ) -> Result<AssetFilter, domain::asset_filter::FilterError> {
        AssetFilter::parse_for(
            kind,
            &self.status,
            self.value.as_deref(),
            self.sub_group.as_deref(),
        )
    }
}

#[derive(Debug, Clone, crate::Row)]
pub struct CustomFilter {
    pub id: i64,
    pub name: String,
    pub assets_type: String,
    /// JSON list of [`Condition`].
    pub conditions: String,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
}

impl CustomFilter {
    pub fn conditions(&self) -> Vec<Condition> {
        serde_json::from_str(&self.conditions).unwrap_or_default()
    }
}

const COLUMNS: [&str; 6] = [
    "id",
    "name",
    "assets_type",
    "conditions",
    "created_at",
    "updated_at",
];

/// Creates a custom filter; the HTTP layer has checked every condition.
#[tracing::instrument(level = "debug", skip_all)]
pub async fn create(
    db: &Db,
    company: CompanyId,
    name: &str,
    assets_type: &str,
    conditions: &[Condition],
) -> Result<CustomFilter, StoreError> {
    let at = now();
    let stmt = Query::insert()
        .into_table("custom_filters")
        .columns([
            "company_id",
            "name",
            "assets_type",
            "conditions",
            "created_at",
            "updated_at",
        ])
        .values_panic([
            company.0.into(),
            name.into(),
            assets_type.into(),
            serde_json::to_string(conditions)
                .unwrap_or_else(|_| "[]".into())
                .into(),
            at.into(),
            at.into(),
        ])
        .returning(Query::returning().columns(COLUMNS))
        .to_owned();
    let mut tx = db.begin().await?;
    let filter: CustomFilter = tx.one(&stmt).await?;
    change_log::record(
        &mut tx,
        company,
        "custom_filter",
        filter.id,
        "created",
        serde_json::json!({"name": name, "assets_type": assets_type}),
    )
    .await?;
    tx.commit().await?;
    Ok(filter)
}

/// The custom filters of one kind of item, 25 a page.
#[tracing::instrument(level = "debug", skip_all)]
pub async fn list(
    db: &Db,
    company: CompanyId,
    assets_type: &str,
    page: Page,
) -> Result<PageOf<CustomFilter>, StoreError> {
    let base = crate::scoped("custom_filters", company)
        .and_where(Expr::col("assets_type").eq(assets_type))
        .to_owned();
    crate::paged(db, base, COLUMNS, page, crate::Total::Filtered).await
}

/// The built-in filters custom filter `id` stands for; it must be one of
/// `assets_type` (a 422 on `status` otherwise).
pub(crate) async fn conditions(
    db: &Db,
    company: CompanyId,
    id: i64,
    kind: AssetType,
) -> Result<Vec<AssetFilter>, StoreError> {
    let assets_type = assets_type_of(kind);
    let stmt = crate::scoped("custom_filters", company)
        .columns(COLUMNS)
        .and_where(Expr::col("id").eq(id))
        .to_owned();
    let found: Option<CustomFilter> = db.read().optional(&stmt).await?;
    let Some(filter) = found.filter(|f| f.assets_type == assets_type) else {
        return Err(StoreError::invalid(
            "status",
            Problem::NotInCompany {
                list: Listed::CustomFilters {
                    assets_type: assets_type.to_owned(),
                },
                value: id.to_string(),
            },
        ));
    };
    Ok(filter
        .conditions()
        .iter()
        .filter_map(|c| c.filter(kind).ok())
        .collect())
}
