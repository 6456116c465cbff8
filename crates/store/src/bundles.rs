//! Bundles (`/bundles`, a rentrack extension the orders' `<id>-b` refers to): a named
//! set of items, each with a quantity, put on an order at once.

use crate::CompanyId;
use crate::ids::{Id, Kind, kind};
use chrono::{DateTime, Utc};
use domain::item::AssetType;
use domain::refusal::Problem;
use domain::stock::Quantity;
use domain::{Name, Page, Vocabulary};
use sea_query::{Cond, Expr, ExprTrait, Order, Query, SelectStatement};
use std::collections::{BTreeMap, HashMap};

use crate::{Db, PageOf, StoreError, Tx, change_log, now};

/// An item of a bundle.
#[derive(Debug, Clone, PartialEq, Eq, crate::Row)]
pub struct BundleItem {
    pub bundle_id: i64,
    pub sequence_num: i64,
    pub name: String,
    pub asset_type: String,
    pub quantity: i64,
}

#[derive(Debug, Clone)]
pub struct Bundle {
    pub id: i64,
    pub name: String,
    pub description: Option<String>,
    pub items: Vec<BundleItem>,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
}

#[derive(crate::Row)]
struct BundleRow {
    id: i64,
    name: String,
    description: Option<String>,
    created_at: DateTime<Utc>,
    updated_at: DateTime<Utc>,
}

const COLUMNS: [&str; 5] = ["id", "name", "description", "created_at", "updated_at"];

/// The items of bundles `bundles`: one statement for them all.
fn items_of(company: CompanyId, bundles: &[i64]) -> SelectStatement {
    const LINK: &str = "bundle_items";
    Query::select()
        .expr_as(Expr::col((LINK, "bundle_id")), "bundle_id")
        .expr_as(Expr::col(("items", "sequence_num")), "sequence_num")
        .expr_as(Expr::col(("items", "name")), "name")
        .expr_as(Expr::col(("items", "asset_type")), "asset_type")
        .expr_as(Expr::col((LINK, "quantity")), "quantity")
        .from(LINK)
        .inner_join(
            "items",
            Cond::all()
                .add(Expr::col(("items", "company_id")).equals((LINK, "company_id")))
                .add(Expr::col(("items", "id")).equals((LINK, "item_id"))),
        )
        .and_where(Expr::col((LINK, "company_id")).eq(company.0))
        .and_where(Expr::col((LINK, "bundle_id")).is_in(bundles.to_vec()))
        .order_by((LINK, "bundle_id"), Order::Asc)
        .order_by(("items", "sequence_num"), Order::Asc)
        .to_owned()
}

fn assemble(rows: Vec<BundleRow>, items: Vec<BundleItem>) -> Vec<Bundle> {
    let mut by_bundle: HashMap<i64, Vec<BundleItem>> = HashMap::new();
    for i in items {
        by_bundle.entry(i.bundle_id).or_default().push(i);
    }
    rows.into_iter()
        .map(|r| Bundle {
            items: by_bundle.remove(&r.id).unwrap_or_default(),
            id: r.id,
            name: r.name,
            description: r.description,
            created_at: r.created_at,
            updated_at: r.updated_at,
        })
        .collect()
}

async fn read_one(
    read: &mut Tx,
    company: CompanyId,
    id: Id<kind::Bundle>,
) -> Result<Bundle, StoreError> {
    let stmt = crate::scoped("bundles", company)
        .columns(COLUMNS)
        .and_where(Expr::col("id").eq(id))
        .to_owned();
    let row: BundleRow = read
        .optional(&stmt)
        .await?
        .ok_or(StoreError::NotFound(Kind::Bundle))?;
    let items = read.all(&items_of(company, &[id.get()])).await?;
    Ok(assemble(vec![row], items).remove(0))
}

#[tracing::instrument(level = "debug", skip_all)]
pub async fn find(db: &Db, company: CompanyId, id: Id<kind::Bundle>) -> Result<Bundle, StoreError> {
    let mut tx = db.begin_read().await?;
    let found = read_one(&mut tx, company, id).await;
    tx.commit().await?;
    found
}

/// The company's bundles, oldest first, each with its items: the page and the items of
/// the whole page in one more statement.
#[tracing::instrument(level = "debug", skip_all)]
pub async fn list(db: &Db, company: CompanyId, page: Page) -> Result<PageOf<Bundle>, StoreError> {
    let total = crate::Total::whole(company, "bundles");
    let rows: PageOf<BundleRow> =
        crate::paged(db, crate::scoped("bundles", company), COLUMNS, page, total).await?;
    let items = if rows.records.is_empty() {
        Vec::new()
    } else {
        let ids: Vec<i64> = rows.records.iter().map(|r| r.id).collect();
        db.read().all(&items_of(company, &ids)).await?
    };
    Ok(PageOf {
        records: assemble(rows.records, items),
        total: rows.total,
    })
}

/// A bundle of `items` (units by item number, so each item once: the bundle's key):
/// at least one; every number an item of the company, a fixed asset once. Problems are one 422 on `items`; nothing is written.
#[tracing::instrument(level = "debug", skip_all)]
pub async fn create(
    db: &Db,
    company: CompanyId,
    name: Name,
    description: Option<String>,
    items: &BTreeMap<i64, Quantity>,
) -> Result<Bundle, StoreError> {
    if items.is_empty() {
        return Err(StoreError::invalid("items", Problem::NoBundleItems));
    }
    let mut tx = db.begin().await?;
    #[derive(crate::Row)]
    struct Found {
        id: i64,
        sequence_num: i64,
        asset_type: String,
    }
    let numbers: Vec<i64> = items.keys().copied().collect();
    let stmt = crate::scoped("items", company)
        .columns(["id", "sequence_num", "asset_type"])
        .and_where(Expr::col("sequence_num").is_in(numbers))
        .to_owned();
    let found: Vec<Found> = tx.all(&stmt).await?;
    let mut problems = Vec::new();
    let mut links = Vec::new();
    let found: HashMap<i64, Found> = found.into_iter().map(|f| (f.sequence_num, f)).collect();
    for (number, quantity) in items {
        match found.get(number) {
            None => problems.push(format!("#{number} is not an asset of this company")),
            Some(f)
                if AssetType::parse(&f.asset_type) == Some(AssetType::FixedAsset)
                    && quantity.get() != 1 =>
            {
                problems.push(format!("#{number} is a fixed asset: its quantity is 1"));
            }
            Some(f) => links.push((f.id, quantity.get())),
        }
    }
    if !problems.is_empty() {
        return Err(StoreError::invalid("items", problems.join("; ")));
    }
    let at = now();
    let insert = Query::insert()
        .into_table("bundles")
        .columns([
            "company_id",
            "name",
            "description",
            "created_at",
            "updated_at",
        ])
        .values_panic([
            company.0.into(),
            name.as_str().into(),
            description.into(),
            at.into(),
            at.into(),
        ])
        .returning(Query::returning().column("id"))
        .to_owned();
    let (id,): (i64,) = tx.one(&insert).await?;
    let mut link = Query::insert()
        .into_table("bundle_items")
        .columns(["company_id", "bundle_id", "item_id", "quantity"])
        .to_owned();
    for (item, quantity) in &links {
        link.values_panic([
            company.0.into(),
            id.into(),
            (*item).into(),
            (*quantity).into(),
        ]);
    }
    tx.execute(&link).await?;
    let bundle = read_one(&mut tx, company, Id::new(id)).await?;
    change_log::record(
        &mut tx,
        company,
        "bundle",
        id,
        "created",
        serde_json::json!({
            "name": bundle.name,
            "items": bundle.items.iter().map(|i| (i.sequence_num, i.quantity)).collect::<Vec<_>>(),
        }),
    )
    .await?;
    tx.commit().await?;
    Ok(bundle)
}

/// The items of bundles `ids` for an order, by bundle; an id that is not a bundle of
/// the company is a 422 on `asset_ids`.
pub(crate) async fn items_for_order(
    tx: &mut Tx,
    company: CompanyId,
    ids: &[i64],
) -> Result<Vec<BundleItem>, StoreError> {
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    if let Some(problem) =
        crate::unknown_ids(tx, crate::scoped("bundles", company), ids, "bundle").await?
    {
        return Err(StoreError::invalid("asset_ids", problem));
    }
    tx.all(&items_of(company, ids)).await
}
