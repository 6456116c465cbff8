//! Services of fixed assets (a rentrack extension behind the spec's
//! `assets_being_serviced` filter and `show_services_details` flag): starting one puts
//! an available asset `in_service`, where it cannot be checked out, booked, rented
//! out, reserved or retired; completing it makes the asset available again. Each is
//! in the asset's history. A service holds the asset from its start to its expected
//! end (for good without one), so it is refused over a period the asset is promised
//! for, and bookings see it as they see any other hold.

use crate::CompanyId;
use crate::ids::{Id, Number, kind};
use chrono::{DateTime, Utc};
use domain::item::ItemState;
use domain::refusal::Conflict;
use domain::{Page, Vocabulary};
use sea_query::{Cond, Expr, ExprTrait, Order, Query, SelectStatement};
use serde_json::json;

use crate::item_core::{self, Clock, Today};
use crate::items::{self, ItemView};
use crate::{Assignments, Db, PageOf, StoreError, Tx, now};

/// A service, with the number and name of its asset.
#[derive(Debug, Clone, crate::Row)]
pub struct Service {
    pub id: i64,
    pub service_type: String,
    pub comments: Option<String>,
    pub started_at: DateTime<Utc>,
    pub expected_end_at: Option<DateTime<Utc>>,
    pub completed_at: Option<DateTime<Utc>>,
    pub completion_comments: Option<String>,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
    pub sequence_num: i64,
    pub asset_name: String,
}

const COLUMNS: [&str; 9] = [
    "id",
    "service_type",
    "comments",
    "started_at",
    "expected_end_at",
    "completed_at",
    "completion_comments",
    "created_at",
    "updated_at",
];

/// A service to start: what is done, notes, and when it is expected to end (none:
/// open-ended).
#[derive(Debug, Clone)]
pub struct NewService {
    pub service_type: String,
    pub comments: Option<String>,
    pub expected_end: Option<DateTime<Utc>>,
}

fn select(company: CompanyId) -> SelectStatement {
    let s = |c: &'static str| ("item_services", c);
    Query::select()
        .from("item_services")
        .columns(COLUMNS.map(s))
        .expr_as(Expr::col(("items", "sequence_num")), "sequence_num")
        .expr_as(Expr::col(("items", "name")), "asset_name")
        .inner_join(
            "items",
            Cond::all()
                .add(Expr::col(("items", "company_id")).equals(s("company_id")))
                .add(Expr::col(("items", "id")).equals(s("item_id"))),
        )
        .and_where(Expr::col(s("company_id")).eq(company.0))
        .take()
}

/// Starts a service of fixed asset `number` now. Refused with 409 unless the asset is
/// available (checked out, rented out, retired or in service already) or when it is
/// promised for part of the service's period (booked or rented out on an order,
/// reserved); 422 for an expected end not after now.
#[tracing::instrument(level = "debug", skip_all)]
pub async fn start(
    db: &Db,
    company: CompanyId,
    number: Number<kind::Item>,
    new: NewService,
    clock: &Clock,
) -> Result<(Service, ItemView), StoreError> {
    let at = now();
    if let Some(end) = new.expected_end
        && end <= at
    {
        return Err(StoreError::invalid(
            "expected_end_date",
            "must be later than now",
        ));
    }
    let mut tx = item_core::begin(db, company, number).await?;
    let item = item_core::lock(&mut tx, company, number)
        .await?
        .fixed_asset()?;
    match item.state() {
        ItemState::Available => {}
        ItemState::Retired => {
            return Err(StoreError::Conflict(Conflict::Retired {
                number: number.get(),
            }));
        }
        ItemState::CheckedOut => {
            return Err(item_core::out_conflict(&mut tx, company, &item).await?);
        }
        ItemState::InService => {
            return Err(crate::availability::in_service(&mut tx, company, &item).await?);
        }
    }
    crate::orders::refuse_if_promised(&mut tx, company, &item, (at, new.expected_end), clock.tz)
        .await?;
    let mut row = Assignments::insert();
    row.set("company_id", company.0)
        .set("item_id", item.id)
        .set("service_type", new.service_type.as_str())
        .given("comments", &new.comments)
        .set("started_at", at)
        .given("expected_end_at", &new.expected_end)
        .set("created_at", at)
        .set("updated_at", at);
    let (id,): (i64,) = tx
        .one(
            &row.into_insert("item_services")
                .returning(Query::returning().column("id"))
                .to_owned(),
        )
        .await?;
    let mut state = Assignments::update();
    state.set("state", ItemState::InService.as_str());
    tx.execute(&state.into_update("items", company, item.id))
        .await?;
    let service = one(&mut tx, company, Id::new(id)).await?;
    let details = json!({
        "service_id": id,
        "service_type": new.service_type,
        "comments": new.comments,
        "expected_end_at": new.expected_end,
    });
    let view = items::finish(
        tx,
        company,
        item.id,
        ("service_started", details),
        Today(clock.today),
    )
    .await?;
    Ok((service, view))
}

/// Completes service `id` of asset `number` now: the asset is available again. A
/// service of another asset is a 404; one completed already a 409.
#[tracing::instrument(level = "debug", skip_all)]
pub async fn complete(
    db: &Db,
    company: CompanyId,
    number: Number<kind::Item>,
    id: Id<kind::Service>,
    comments: Option<String>,
    clock: &Clock,
) -> Result<(Service, ItemView), StoreError> {
    let mut tx = item_core::begin(db, company, number).await?;
    let item = item_core::lock(&mut tx, company, number).await?;
    let service = one(&mut tx, company, id).await?;
    if service.sequence_num != number.get() {
        return Err(id.missing());
    }
    if service.completed_at.is_some() {
        return Err(StoreError::Conflict(Conflict::ServiceCompleted {
            number: number.get(),
            service: id.get(),
        }));
    }
    let at = now();
    let mut row = Assignments::update();
    row.set("completed_at", at)
        .given("completion_comments", &comments);
    tx.execute(&row.into_update("item_services", company, id.get()))
        .await?;
    let mut state = Assignments::update();
    state.set("state", ItemState::Available.as_str());
    tx.execute(&state.into_update("items", company, item.id))
        .await?;
    let service = one(&mut tx, company, id).await?;
    let details = json!({"service_id": id, "comments": comments});
    let view = items::finish(
        tx,
        company,
        item.id,
        ("service_completed", details),
        Today(clock.today),
    )
    .await?;
    Ok((service, view))
}

async fn one(
    tx: &mut Tx,
    company: CompanyId,
    id: Id<kind::Service>,
) -> Result<Service, StoreError> {
    let stmt = select(company)
        .and_where(Expr::col(("item_services", "id")).eq(id))
        .to_owned();
    tx.optional(&stmt).await?.ok_or(id.missing())
}

/// Service `id` of asset `number`.
#[tracing::instrument(level = "debug", skip_all)]
pub async fn find(
    db: &Db,
    company: CompanyId,
    number: Number<kind::Item>,
    id: Id<kind::Service>,
) -> Result<Service, StoreError> {
    let stmt = select(company)
        .and_where(Expr::col(("item_services", "id")).eq(id))
        .and_where(Expr::col(("items", "sequence_num")).eq(number))
        .to_owned();
    db.read().optional(&stmt).await?.ok_or(id.missing())
}

/// A page of the services of asset `number`, oldest first. An unknown asset is a 404.
#[tracing::instrument(level = "debug", skip_all)]
pub async fn list(
    db: &Db,
    company: CompanyId,
    number: Number<kind::Item>,
    page: Page,
) -> Result<PageOf<Service>, StoreError> {
    let stmt = crate::scoped("items", company)
        .column("id")
        .and_where(Expr::col("sequence_num").eq(number))
        .to_owned();
    let (item,): (i64,) = db.read().optional(&stmt).await?.ok_or(number.missing())?;
    let base = crate::scoped("item_services", company)
        .and_where(Expr::col("item_id").eq(item))
        .to_owned();
    let rows = select(company)
        .and_where(Expr::col(("item_services", "item_id")).eq(item))
        .order_by(("item_services", "id"), Order::Asc)
        .to_owned();
    crate::page_of(
        db,
        &base,
        rows,
        ("item_services", "id"),
        page,
        crate::Total::Filtered,
    )
    .await
}

/// The latest services of asset `number`, newest first, at most `limit` (the
/// details' `show_services_details`).
#[tracing::instrument(level = "debug", skip_all)]
pub async fn latest(
    db: &Db,
    company: CompanyId,
    number: Number<kind::Item>,
    limit: u64,
) -> Result<Vec<Service>, StoreError> {
    let stmt = select(company)
        .and_where(Expr::col(("items", "sequence_num")).eq(number))
        .order_by(("item_services", "id"), Order::Desc)
        .limit(limit)
        .to_owned();
    db.read().all(&stmt).await
}
