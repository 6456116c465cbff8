//! Verifications (audits) of possession of checked-out fixed assets: a request asks
//! the custodian (the member the asset is checked out to), who answers (verified with a
//! response, condition and notes), or the request is cancelled.
//!
//! Every write locks the assets' rows first (`item_core::lock`, in ascending number so two
//! mass requests cannot deadlock), then reads their pending verifications, then writes:
//! one transaction, so a mass request is all or nothing and two requests racing for one
//! asset are one after the other. The partial unique index `verifications_one_pending`
//! holds one pending verification per asset besides.

use crate::CompanyId;
use crate::ids::{Id, Number, kind};
use chrono::{DateTime, Utc};
use domain::Vocabulary;
use domain::item::ItemState;
use domain::refusal::{Conflict, Problem};
use domain::verification::{AuditResponse, VerificationStatus};
use sea_query::{Expr, ExprTrait, Query};
use serde_json::json;
use std::collections::{BTreeMap, HashMap};

use crate::item_core::{self, Locked};
use crate::{Assignments, Db, FieldErrors, StoreError, Tx, now};

/// A verification of an asset.
#[derive(Debug, Clone)]
pub struct Verification {
    pub id: i64,
    /// The asset's number.
    pub sequence_num: i64,
    /// The custodian asked, or who answered.
    pub member_id: Option<i64>,
    pub status: VerificationStatus,
    /// The answer's word (`AuditResponse`), once answered.
    pub response: Option<String>,
    pub condition: Option<String>,
    pub notes: Option<String>,
    /// When it was asked; `None` for an answer given without a request.
    pub requested_at: Option<DateTime<Utc>>,
    pub responded_at: Option<DateTime<Utc>>,
}

/// The last verification of an asset, if it ever had one.
#[derive(Debug, Clone)]
pub struct LastVerification {
    pub sequence_num: i64,
    pub verification: Option<Verification>,
}

const COLUMNS: [&str; 8] = [
    "id",
    "member_id",
    "status",
    "response",
    "condition",
    "notes",
    "requested_at",
    "responded_at",
];

#[derive(Debug, crate::Row)]
struct Row {
    id: i64,
    member_id: Option<i64>,
    status: String,
    response: Option<String>,
    condition: Option<String>,
    notes: Option<String>,
    requested_at: Option<DateTime<Utc>>,
    responded_at: Option<DateTime<Utc>>,
}

impl Row {
    fn of(self, sequence_num: i64) -> Verification {
        Verification {
            id: self.id,
            sequence_num,
            member_id: self.member_id,
            // The table's CHECK allows only the three words.
            status: VerificationStatus::parse(&self.status).unwrap_or(VerificationStatus::Pending),
            response: self.response,
            condition: self.condition,
            notes: self.notes,
            requested_at: self.requested_at,
            responded_at: self.responded_at,
        }
    }
}

/// The assets a write is for.
#[derive(Debug, Clone, Copy)]
pub enum Assets<'a> {
    /// One asset named by the path: unknown is `NotFound` (404).
    One(Number<kind::Item>),
    /// The numbers sent as `seqs` (no repeats), in the order sent: unknown ones are
    /// one 422 on `seqs` naming each of them.
    Many(&'a [i64]),
}

impl Assets<'_> {
    fn numbers(&self) -> Vec<i64> {
        match self {
            Assets::One(n) => vec![n.get()],
            Assets::Many(ns) => ns.to_vec(),
        }
    }
}

/// The answer of a custodian.
#[derive(Debug, Clone)]
pub struct Answer {
    /// Who answers; `None`: the custodian of each asset. Given, it must be the
    /// custodian of every asset.
    pub user: Option<i64>,
    pub response: AuditResponse,
    pub condition: Option<String>,
    pub notes: Option<String>,
}

/// Locks every asset of `assets` (ascending numbers), returned in the order sent.
async fn lock_all(
    tx: &mut Tx,
    company: CompanyId,
    assets: Assets<'_>,
) -> Result<Vec<Locked>, StoreError> {
    let numbers = assets.numbers();
    let mut locked: HashMap<i64, Locked> = item_core::lock_many(tx, company, &numbers)
        .await?
        .into_iter()
        .map(|item| (item.sequence_num, item))
        .collect();
    let mut unknown: Vec<i64> = numbers
        .iter()
        .copied()
        .filter(|n| !locked.contains_key(n))
        .collect();
    unknown.sort_unstable();
    if !unknown.is_empty() {
        return Err(match assets {
            Assets::One(n) => n.missing(),
            Assets::Many(_) => {
                let unknown: Vec<String> = unknown.iter().map(i64::to_string).collect();
                StoreError::invalid(
                    "seqs",
                    format!(
                        "has no asset numbered {} in this company",
                        unknown.join(", ")
                    ),
                )
            }
        });
    }
    Ok(numbers.iter().filter_map(|n| locked.remove(n)).collect())
}

/// Refused unless `item` is a fixed asset checked out to a member (one rented out on
/// an order has no custodian to answer).
fn checked_out(item: &Locked) -> Result<(), StoreError> {
    item.clone().fixed_asset()?;
    if item.state() != ItemState::CheckedOut {
        return Err(StoreError::Conflict(Conflict::NotCheckedOut {
            number: item.sequence_num,
        }));
    }
    if let Some(order) = item.rented_order {
        return Err(StoreError::Conflict(Conflict::RentedOut {
            number: item.sequence_num,
            order,
        }));
    }
    Ok(())
}

/// [`cancel_pending_of`] the items `items` (by id).
pub(crate) fn cancel_pending_of_ids(
    company: CompanyId,
    items: &[i64],
) -> sea_query::UpdateStatement {
    cancel_pending_of(company, Expr::col("item_id").is_in(items.iter().copied()))
}

/// Cancels the pending verifications of the items `which` picks (a condition on
/// `item_id`: they are back, nobody holds them to answer), in one statement answering
/// the item of each verification it cancelled ([`cancelled`] counts them): sent in
/// the round trip of the items' lock, so the moment it stamps is when it was made,
/// before any wait for that lock.
pub(crate) fn cancel_pending_of(
    company: CompanyId,
    which: sea_query::SimpleExpr,
) -> sea_query::UpdateStatement {
    Query::update()
        .table("verifications")
        .values([
            ("status", VerificationStatus::Cancelled.as_str().into()),
            ("updated_at", now().into()),
        ])
        .and_where(Expr::col("company_id").eq(company.0))
        .and_where(which)
        .and_where(Expr::col("status").eq(crate::constant(VerificationStatus::Pending.as_str())))
        .returning_col("item_id")
        .to_owned()
}

/// How many verifications [`cancel_pending_of`] cancelled of each item.
pub(crate) fn cancelled(rows: Vec<(i64,)>) -> HashMap<i64, u64> {
    let mut cancelled = HashMap::new();
    for (item,) in rows {
        *cancelled.entry(item).or_default() += 1;
    }
    cancelled
}

/// The pending verifications of `items`, by item id: one statement.
async fn pending_of(
    tx: &mut Tx,
    company: CompanyId,
    items: &[Locked],
) -> Result<HashMap<i64, Row>, StoreError> {
    let ids: Vec<i64> = items.iter().map(|i| i.id).collect();
    let stmt = crate::scoped("verifications", company)
        .columns(COLUMNS)
        .column("item_id")
        .and_where(Expr::col("item_id").is_in(ids))
        .and_where(Expr::col("status").eq(crate::constant(VerificationStatus::Pending.as_str())))
        .to_owned();
    #[derive(crate::Row)]
    struct Pending {
        item_id: i64,
        #[row(flatten)]
        row: Row,
    }
    let rows: Vec<Pending> = tx.all(&stmt).await?;
    Ok(rows.into_iter().map(|p| (p.item_id, p.row)).collect())
}

/// A 422 on `user_id` naming, for each asset `user` does not hold, who does.
async fn not_the_custodian(
    tx: &mut Tx,
    company: CompanyId,
    user: i64,
    custodians: &[(i64, Option<i64>)],
) -> Result<(), StoreError> {
    let mut problems = Vec::new();
    for (number, custodian) in custodians {
        if *custodian != Some(user) {
            let who = match custodian {
                Some(id) => format!(
                    "{} (member {id})",
                    item_core::holder_name(tx, company, Some(*id)).await?
                ),
                None => "nobody".to_owned(),
            };
            problems.push(format!(
                "is not the custodian of asset #{number}: member {user} was given, asset #{number} is held by {who}"
            ));
        }
    }
    if problems.is_empty() {
        return Ok(());
    }
    let mut errors = FieldErrors::new();
    errors.insert(
        "user_id".into(),
        problems.into_iter().map(Problem::from).collect(),
    );
    Err(StoreError::Invalid(errors))
}

async fn insert(
    tx: &mut Tx,
    company: CompanyId,
    row: Assignments,
    at: DateTime<Utc>,
) -> Result<Row, StoreError> {
    let mut row = row;
    row.set("company_id", company.0)
        .set("created_at", at)
        .set("updated_at", at);
    let stmt = row
        .into_insert("verifications")
        .returning(Query::returning().columns(COLUMNS))
        .to_owned();
    tx.one(&stmt).await
}

async fn update(
    tx: &mut Tx,
    company: CompanyId,
    id: i64,
    row: Assignments,
) -> Result<Row, StoreError> {
    let stmt = row
        .into_update("verifications", company, id)
        .returning(Query::returning().columns(COLUMNS))
        .to_owned();
    tx.one(&stmt).await
}

/// Asks the custodian of each asset to verify possession: each must be a checked-out
/// fixed asset without a pending request (else the 409 of the first that is not, and
/// nothing is written). Each gets a `pending` verification of its custodian.
#[tracing::instrument(level = "debug", skip_all)]
pub async fn request(
    db: &Db,
    company: CompanyId,
    assets: Assets<'_>,
    notes: Option<String>,
) -> Result<Vec<Verification>, StoreError> {
    let mut tx = db.begin().await?;
    let locked = lock_all(&mut tx, company, assets).await?;
    let pending = pending_of(&mut tx, company, &locked).await?;
    for item in &locked {
        checked_out(item)?;
        if pending.contains_key(&item.id) {
            return Err(StoreError::Conflict(Conflict::VerificationPending {
                number: item.sequence_num,
            }));
        }
    }
    let at = now();
    let mut done = Vec::with_capacity(locked.len());
    for item in &locked {
        let mut row = Assignments::insert();
        row.set("item_id", item.id)
            .set("member_id", item.assigned_to_id)
            .set("status", VerificationStatus::Pending.as_str())
            .set("notes", notes.clone())
            .set("requested_at", at);
        let row = insert(&mut tx, company, row, at).await?;
        item_core::history(
            &mut tx,
            company,
            item.id,
            "verification_requested",
            json!({
                "verification_id": row.id,
                "member_id": item.assigned_to_id,
                "notes": notes,
            }),
        )
        .await?;
        done.push(row.of(item.sequence_num));
    }
    tx.commit().await?;
    Ok(done)
}

/// Records the custodian's answer for each asset: each must be a checked-out fixed
/// asset (else the 409 of the first that is not), held by `answer.user` if given (else
/// a 422 naming each asset's holder). A pending request is closed as `verified`;
/// without one a `verified` verification is recorded directly.
#[tracing::instrument(level = "debug", skip_all)]
pub async fn verify(
    db: &Db,
    company: CompanyId,
    assets: Assets<'_>,
    answer: Answer,
) -> Result<Vec<Verification>, StoreError> {
    let mut tx = db.begin().await?;
    let locked = lock_all(&mut tx, company, assets).await?;
    for item in &locked {
        checked_out(item)?;
    }
    if let Some(user) = answer.user {
        let custodians: Vec<(i64, Option<i64>)> = locked
            .iter()
            .map(|i| (i.sequence_num, i.assigned_to_id))
            .collect();
        not_the_custodian(&mut tx, company, user, &custodians).await?;
    }
    let pending = pending_of(&mut tx, company, &locked).await?;
    let at = now();
    let mut done = Vec::with_capacity(locked.len());
    for item in &locked {
        let mut row = match pending.get(&item.id) {
            Some(_) => Assignments::update(),
            None => Assignments::insert(),
        };
        row.set("member_id", item.assigned_to_id)
            .set("status", VerificationStatus::Verified.as_str())
            .set("response", answer.response.as_str())
            .set("condition", answer.condition.clone())
            .set("responded_at", at);
        // Notes left out keep the request's.
        row.given("notes", &answer.notes);
        let row = match pending.get(&item.id) {
            Some(p) => update(&mut tx, company, p.id, row).await?,
            None => {
                row.set("item_id", item.id);
                insert(&mut tx, company, row, at).await?
            }
        };
        item_core::history(
            &mut tx,
            company,
            item.id,
            "verified",
            json!({
                "verification_id": row.id,
                "requested": pending.contains_key(&item.id),
                "member_id": item.assigned_to_id,
                "response": row.response,
                "condition": row.condition,
                "notes": row.notes,
            }),
        )
        .await?;
        done.push(row.of(item.sequence_num));
    }
    tx.commit().await?;
    Ok(done)
}

/// Cancels the pending verification of each asset: each must be a fixed asset with
/// one (else the 409 of the first that is not); `user`, if given, must be each
/// asset's custodian (the member it is checked out to, or the one asked if it has
/// been checked in since), else a 422 naming each asset's holder.
#[tracing::instrument(level = "debug", skip_all)]
pub async fn cancel(
    db: &Db,
    company: CompanyId,
    assets: Assets<'_>,
    user: Option<Id<kind::Member>>,
) -> Result<Vec<Verification>, StoreError> {
    let mut tx = db.begin().await?;
    let locked = lock_all(&mut tx, company, assets).await?;
    let mut pending = pending_of(&mut tx, company, &locked).await?;
    for item in &locked {
        item.clone().fixed_asset()?;
        if !pending.contains_key(&item.id) {
            return Err(StoreError::Conflict(Conflict::NoPendingVerification {
                number: item.sequence_num,
            }));
        }
    }
    if let Some(user) = user {
        let custodians: Vec<(i64, Option<i64>)> = locked
            .iter()
            .map(|i| {
                let asked = pending.get(&i.id).and_then(|p| p.member_id);
                (i.sequence_num, i.assigned_to_id.or(asked))
            })
            .collect();
        not_the_custodian(&mut tx, company, user.get(), &custodians).await?;
    }
    let mut done = Vec::with_capacity(locked.len());
    for item in &locked {
        let Some(p) = pending.remove(&item.id) else {
            continue;
        };
        let mut row = Assignments::update();
        row.set("status", VerificationStatus::Cancelled.as_str());
        let row = update(&mut tx, company, p.id, row).await?;
        item_core::history(
            &mut tx,
            company,
            item.id,
            "verification_cancelled",
            json!({"verification_id": row.id, "member_id": row.member_id}),
        )
        .await?;
        done.push(row.of(item.sequence_num));
    }
    tx.commit().await?;
    Ok(done)
}

#[derive(crate::Row)]
struct StatusRow {
    sequence_num: i64,
    id: Option<i64>,
    member_id: Option<i64>,
    status: Option<String>,
    response: Option<String>,
    condition: Option<String>,
    notes: Option<String>,
    requested_at: Option<DateTime<Utc>>,
    responded_at: Option<DateTime<Utc>>,
}

/// Verification `id` of the asset numbered `number`.
#[tracing::instrument(level = "debug", skip_all)]
pub async fn find(
    db: &Db,
    company: CompanyId,
    number: Number<kind::Item>,
    id: Id<kind::Verification>,
) -> Result<Verification, StoreError> {
    let stmt = Query::select()
        .columns(COLUMNS.map(|c| ("verifications", c)))
        .from("verifications")
        .inner_join(
            "items",
            Expr::col(("items", "company_id"))
                .equals(("verifications", "company_id"))
                .and(Expr::col(("items", "id")).equals(("verifications", "item_id"))),
        )
        .and_where(Expr::col(("verifications", "company_id")).eq(company.0))
        .and_where(Expr::col(("verifications", "id")).eq(id))
        .and_where(Expr::col(("items", "sequence_num")).eq(number))
        .to_owned();
    let row: Option<Row> = db.read().optional(&stmt).await?;
    Ok(row.ok_or(id.missing())?.of(number.get()))
}

/// The last verification of each asset numbered in `numbers` (any kind of item), in
/// the order given: one statement for all of them. Unknown numbers are one 422 on
/// `seqs` naming each.
#[tracing::instrument(level = "debug", skip_all)]
pub async fn last(
    db: &Db,
    company: CompanyId,
    numbers: &[Number<kind::Item>],
) -> Result<Vec<LastVerification>, StoreError> {
    let numbers = &Number::raw(numbers)[..];
    if numbers.is_empty() {
        return Ok(Vec::new());
    }
    let latest = Query::select()
        .expr(Expr::col(("w", "id")).max())
        .from_as("verifications", "w")
        .and_where(Expr::col(("w", "company_id")).equals(("items", "company_id")))
        .and_where(Expr::col(("w", "item_id")).equals(("items", "id")))
        .to_owned();
    let stmt = Query::select()
        .column(("items", "sequence_num"))
        .columns(COLUMNS.map(|c| ("v", c)))
        .from("items")
        .join_as(
            sea_query::JoinType::LeftJoin,
            "verifications",
            "v",
            sea_query::Cond::all()
                .add(Expr::col(("v", "company_id")).equals(("items", "company_id")))
                .add(Expr::col(("v", "item_id")).equals(("items", "id")))
                .add(Expr::col(("v", "id")).eq(latest)),
        )
        .and_where(Expr::col(("items", "company_id")).eq(company.0))
        .and_where(Expr::col(("items", "sequence_num")).is_in(numbers.to_vec()))
        .to_owned();
    let rows: Vec<StatusRow> = db.read().all(&stmt).await?;
    let mut found: BTreeMap<i64, StatusRow> =
        rows.into_iter().map(|r| (r.sequence_num, r)).collect();
    let unknown: Vec<String> = numbers
        .iter()
        .filter(|n| !found.contains_key(n))
        .map(i64::to_string)
        .collect();
    if !unknown.is_empty() {
        return Err(StoreError::invalid(
            "seqs",
            format!(
                "has no asset numbered {} in this company",
                unknown.join(", ")
            ),
        ));
    }
    Ok(numbers
        .iter()
        .filter_map(|n| found.remove(n))
        .map(|r| LastVerification {
            sequence_num: r.sequence_num,
            verification: match (r.id, r.status) {
                (Some(id), Some(status)) => Some(
                    Row {
                        id,
                        member_id: r.member_id,
                        status,
                        response: r.response,
                        condition: r.condition,
                        notes: r.notes,
                        requested_at: r.requested_at,
                        responded_at: r.responded_at,
                    }
                    .of(r.sequence_num),
                ),
                _ => None,
            },
        })
        .collect())
}
