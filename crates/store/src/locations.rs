//! Locations: a tree per company (parent_id), active or inactive.

use crate::CompanyId;
use crate::ids::{Id, kind};
use chrono::{DateTime, Utc};
use domain::{Change, Name, Page, Vocabulary};
use sea_query::{Expr, ExprTrait, Query, SelectStatement, Values};

use crate::counters::{self, Sequence};
use crate::shapes::Shape;
use crate::{Assignments, Db, PageOf, Sql, StoreError, Tx, change_log, now};

#[derive(Debug, Clone, crate::Row)]
pub struct Location {
    pub id: i64,
    pub sequence_num: i64,
    pub parent_id: Option<i64>,
    pub name: String,
    pub description: Option<String>,
    pub street1: Option<String>,
    pub street2: Option<String>,
    pub city: Option<String>,
    pub state: Option<String>,
    pub zipcode: Option<String>,
    pub country: Option<String>,
    pub active: bool,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
}

const COLUMNS: [&str; 14] = [
    "id",
    "sequence_num",
    "parent_id",
    "name",
    "description",
    "street1",
    "street2",
    "city",
    "state",
    "zipcode",
    "country",
    "active",
    "created_at",
    "updated_at",
];

/// The optional fields of a location, as a create or an update gives them.
#[derive(Debug, Default, Clone)]
pub struct LocationFields {
    pub description: Change<String>,
    pub street1: Change<String>,
    pub street2: Change<String>,
    pub city: Change<String>,
    pub state: Change<String>,
    pub zipcode: Change<String>,
    pub country: Change<String>,
    pub parent_id: Change<Id<kind::Location>>,
    pub active: Option<bool>,
}

/// Writes the fields a create and an update write alike: the one place a field of
/// `LocationFields` meets its column.
fn assign(row: &mut Assignments, fields: &LocationFields) {
    let LocationFields {
        description,
        street1,
        street2,
        city,
        state,
        zipcode,
        country,
        parent_id,
        active,
    } = fields;
    row.change("description", description)
        .change("street1", street1)
        .change("street2", street2)
        .change("city", city)
        .change("state", state)
        .change("zipcode", zipcode)
        .change("country", country)
        .change("parent_id", parent_id)
        .given("active", active);
}

/// Which locations a list shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StatusFilter {
    All,
    Active,
    Inactive,
}

impl Vocabulary for StatusFilter {
    const ALL: &'static [Self] = &[
        StatusFilter::All,
        StatusFilter::Active,
        StatusFilter::Inactive,
    ];

    fn as_str(self) -> &'static str {
        match self {
            StatusFilter::All => "all",
            StatusFilter::Active => "active",
            StatusFilter::Inactive => "inactive",
        }
    }
}

fn scoped(company: CompanyId) -> SelectStatement {
    crate::scoped("locations", company)
}

#[tracing::instrument(level = "debug", skip_all)]
pub async fn find(
    db: &Db,
    company: CompanyId,
    id: Id<kind::Location>,
) -> Result<Location, StoreError> {
    static FIND: Shape = Shape::new();
    let stmt = FIND.bind(
        db.backend(),
        || {
            scoped(company)
                .columns(COLUMNS)
                .and_where(Expr::col("id").eq(id))
                .take()
        },
        Values(vec![company.0.into(), id.into()]),
    );
    db.read().optional(&stmt).await?.ok_or(id.missing())
}

async fn find_in(
    tx: &mut Tx,
    company: CompanyId,
    id: Id<kind::Location>,
) -> Result<Location, StoreError> {
    let stmt = scoped(company)
        .columns(COLUMNS)
        .and_where(Expr::col("id").eq(id))
        .to_owned();
    tx.optional(&stmt).await?.ok_or(id.missing())
}

/// The company's locations after location `after`, by id, at most `limit`: an export's
/// batch.
pub async fn after(
    db: &Db,
    company: CompanyId,
    after: i64,
    limit: u64,
) -> Result<Vec<Location>, StoreError> {
    let (_, rows) = crate::with_columns(scoped(company), COLUMNS);
    crate::after(db, rows, "id", after, limit).await
}

#[tracing::instrument(level = "debug", skip_all)]
pub async fn list(
    db: &Db,
    company: CompanyId,
    status: StatusFilter,
    page: Page,
) -> Result<PageOf<Location>, StoreError> {
    static PAGES: crate::PageMemo<(i64, Option<bool>)> = crate::PageMemo::new();
    let active = match status {
        StatusFilter::All => None,
        StatusFilter::Active => Some(true),
        StatusFilter::Inactive => Some(false),
    };
    let total = crate::Total::by_status(company, active, COUNTED);
    let parts = || {
        let mut base = scoped(company);
        if let Some(active) = active {
            base.and_where(Expr::col("active").eq(active));
        }
        crate::with_columns(base, COLUMNS)
    };
    crate::memo_page_of(
        db,
        (&PAGES, (company.0, active)),
        parts,
        "id",
        page,
        total,
        crate::Columns::Own,
    )
    .await
}

/// The ids of a location and all its descendants.
async fn subtree(tx: &mut Tx, company: CompanyId, root: i64) -> Result<Vec<i64>, StoreError> {
    #[derive(crate::Row)]
    struct Id {
        id: i64,
    }
    let stmt = Sql {
        text: "WITH RECURSIVE tree(id) AS ( \
                 SELECT id FROM locations WHERE company_id = $1 AND id = $2 \
                 UNION SELECT l.id FROM locations l JOIN tree ON l.parent_id = tree.id WHERE l.company_id = $1) \
               SELECT id FROM tree",
        values: Values(vec![company.0.into(), root.into()]),
    };
    let ids: Vec<Id> = tx.all(&stmt).await?;
    Ok(ids.into_iter().map(|r| r.id).collect())
}

/// Checks that a new parent exists in the company and is not the location itself
/// or one of its descendants.
async fn check_parent(
    tx: &mut Tx,
    company: CompanyId,
    location: Option<i64>,
    parent: i64,
) -> Result<(), StoreError> {
    if find_in(tx, company, Id::new(parent)).await.is_err() {
        return Err(StoreError::invalid(
            "parent_id",
            format!("location {parent} does not exist"),
        ));
    }
    if let Some(id) = location {
        // Serialise tree changes per company so two re-parentings cannot race into a cycle.
        counters::next(tx, company, Sequence::LocationTree).await?;
        if subtree(tx, company, id).await?.contains(&parent) {
            return Err(StoreError::invalid(
                "parent_id",
                "would make the location its own ancestor: choose a location outside its subtree",
            ));
        }
    }
    Ok(())
}

#[tracing::instrument(level = "debug", skip_all)]
pub async fn create(
    db: &Db,
    company: CompanyId,
    name: Name,
    fields: LocationFields,
) -> Result<Location, StoreError> {
    let mut tx = db.begin().await?;
    let location = create_in(&mut tx, company, name, fields).await?;
    tx.commit().await?;
    Ok(location)
}

/// [`create`], in a transaction of the caller's (an import's).
pub async fn create_in(
    tx: &mut Tx,
    company: CompanyId,
    name: Name,
    fields: LocationFields,
) -> Result<Location, StoreError> {
    if let Change::Set(parent) = fields.parent_id {
        check_parent(tx, company, None, parent.get()).await?;
    }
    let sequence_num = counters::next(tx, company, Sequence::Locations).await?;
    let at = now();
    let mut row = Assignments::insert();
    row.set("company_id", company.0)
        .set("sequence_num", sequence_num)
        .set("name", name.as_str())
        .set("created_at", at)
        .set("updated_at", at);
    let fields = LocationFields {
        active: Some(fields.active.unwrap_or(true)),
        ..fields
    };
    assign(&mut row, &fields);
    let stmt = row
        .into_insert("locations")
        .returning(Query::returning().columns(COLUMNS))
        .to_owned();
    let location: Location = tx.one(&stmt).await?;
    change_log::record(
        tx,
        company,
        "location",
        location.id,
        "created",
        serde_json::json!({"name": location.name}),
    )
    .await?;
    Ok(location)
}

#[tracing::instrument(level = "debug", skip_all)]
pub async fn update(
    db: &Db,
    company: CompanyId,
    id: Id<kind::Location>,
    name: Name,
    fields: LocationFields,
) -> Result<Location, StoreError> {
    let mut tx = db.begin().await?;
    let location = update_in(&mut tx, company, id, name, fields).await?;
    tx.commit().await?;
    Ok(location)
}

/// [`update`], in a transaction of the caller's (an import's).
pub async fn update_in(
    tx: &mut Tx,
    company: CompanyId,
    id: Id<kind::Location>,
    name: Name,
    fields: LocationFields,
) -> Result<Location, StoreError> {
    let before = find_in(tx, company, id).await?;
    if let Change::Set(parent) = fields.parent_id {
        check_parent(tx, company, Some(id.get()), parent.get()).await?;
    }
    let mut row = Assignments::update();
    row.set("name", name.as_str());
    assign(&mut row, &fields);
    let stmt = row
        .into_update("locations", company, id.get())
        .returning(Query::returning().columns(COLUMNS))
        .to_owned();
    let after: Location = tx.one(&stmt).await?;
    change_log::record(
        tx,
        company,
        "location",
        id.get(),
        "updated",
        serde_json::json!({"name": [before.name, after.name], "parent_id": [before.parent_id, after.parent_id]}),
    )
    .await?;
    Ok(after)
}

/// The id of the location numbered `n`, in an import's transaction.
pub async fn numbered_in(
    tx: &mut Tx,
    company: CompanyId,
    n: i64,
) -> Result<Option<Id<kind::Location>>, StoreError> {
    let stmt = scoped(company)
        .column("id")
        .and_where(Expr::col("sequence_num").eq(n))
        .to_owned();
    let found: Option<(i64,)> = tx.optional(&stmt).await?;
    Ok(found.map(|(id,)| Id::new(id)))
}

/// The ids of the locations named `name` (at most two: one is all an import needs to
/// know is unambiguous), in an import's transaction.
pub async fn named_in(
    tx: &mut Tx,
    company: CompanyId,
    name: &str,
) -> Result<Vec<Id<kind::Location>>, StoreError> {
    let stmt = scoped(company)
        .column("id")
        .and_where(Expr::col("name").eq(name))
        // No order: the index on the name is then the one that fits (`items::identified_in`).
        .limit(2)
        .to_owned();
    let found: Vec<(i64,)> = tx.all(&stmt).await?;
    Ok(found.into_iter().map(|(id,)| Id::new(id)).collect())
}

/// Activates a location, and with `with_children` its whole subtree.
#[tracing::instrument(level = "debug", skip_all)]
pub async fn activate(
    db: &Db,
    company: CompanyId,
    id: Id<kind::Location>,
    with_children: bool,
) -> Result<Location, StoreError> {
    set_active(db, company, id, true, with_children).await
}

/// Deactivates a location and its whole subtree.
#[tracing::instrument(level = "debug", skip_all)]
pub async fn deactivate(
    db: &Db,
    company: CompanyId,
    id: Id<kind::Location>,
) -> Result<Location, StoreError> {
    set_active(db, company, id, false, true).await
}

async fn set_active(
    db: &Db,
    company: CompanyId,
    id: Id<kind::Location>,
    active: bool,
    subtree_too: bool,
) -> Result<Location, StoreError> {
    let mut tx = db.begin().await?;
    find_in(&mut tx, company, id).await?;
    let ids = if subtree_too {
        subtree(&mut tx, company, id.get()).await?
    } else {
        vec![id.get()]
    };
    // A subtree may hold more locations than a statement binds: chunks.
    let at = now();
    crate::execute_in(&mut tx, &ids, |chunk| {
        Query::update()
            .table("locations")
            .values([("active", Expr::val(active)), ("updated_at", Expr::val(at))])
            .and_where(Expr::col("company_id").eq(company.0))
            .and_where(Expr::col("id").is_in(chunk))
            .and_where(Expr::col("active").ne(active))
            .to_owned()
    })
    .await?;
    let action = if active { "activated" } else { "deactivated" };
    change_log::record(
        &mut tx,
        company,
        "location",
        id.get(),
        action,
        serde_json::json!({"locations": ids}),
    )
    .await?;
    let location = find_in(&mut tx, company, id).await?;
    tx.commit().await?;
    Ok(location)
}

#[derive(Debug, crate::Row)]
pub struct ItemQuantity {
    pub item_sequence_num: i64,
    pub quantity: i64,
}

/// What is on hand at a location, per item number: the stock of inventory and asset
/// stock held there, and 1 for each fixed asset there that is available (neither
/// checked out nor retired). Two statements.
#[tracing::instrument(level = "debug", skip_all)]
pub async fn quantities(
    db: &Db,
    company: CompanyId,
    location: Id<kind::Location>,
) -> Result<Vec<ItemQuantity>, StoreError> {
    find(db, company, location).await?;
    let stmt = Query::select()
        .columns(["item_sequence_num", "quantity"])
        .from("stock_levels")
        .and_where(Expr::col("company_id").eq(company.0))
        .and_where(Expr::col("location_id").eq(location))
        .to_owned();
    let mut read = db.read();
    let mut found: Vec<ItemQuantity> = read.all(&stmt).await?;
    let fixed = crate::scoped("items", company)
        .expr_as(Expr::col("sequence_num"), "item_sequence_num")
        .expr_as(Expr::val(1i64), "quantity")
        .and_where(Expr::col("location_id").eq(location))
        .and_where(Expr::col("asset_type").eq(domain::item::AssetType::FixedAsset.as_str()))
        .and_where(Expr::col("state").eq(domain::item::ItemState::Available.as_str()))
        .to_owned();
    found.extend(read.all::<ItemQuantity>(&fixed).await?);
    found.sort_by_key(|q| q.item_sequence_num);
    Ok(found)
}

/// The partitions of `list_counts` locations are counted in (migration 0007's trigger).
pub(crate) const COUNTED: crate::ByStatus = crate::ByStatus {
    active: "locations:active",
    inactive: "locations:inactive",
};
