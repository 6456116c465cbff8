//! Payment options (`/payment_options`): the ways a company takes payment, each of a
//! kind (`domain::payment`). Names are unique in the company whatever their case
//! (`name_key`); orders name an option by `basket[payment_method_name]` ([`by_name`]).
//! Every company has Cash, Check and Credit Card from the start ([`seed`], in the
//! company's creating transaction; migration 0012 for companies made before it).

use crate::CompanyId;
use chrono::{DateTime, Utc};
use domain::payment::{self, DEFAULT_OPTIONS, PaymentKind};
use domain::refusal::{Listed, Problem};
use domain::{Name, Page, Vocabulary};
use sea_query::{Expr, ExprTrait, Query};

use crate::{Db, PageOf, StoreError, Tx, change_log, now};

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PaymentOption {
    pub id: i64,
    pub name: String,
    pub kind: PaymentKind,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
}

#[derive(crate::Row)]
struct OptionRow {
    id: i64,
    name: String,
    kind: String,
    created_at: DateTime<Utc>,
    updated_at: DateTime<Utc>,
}

const COLUMNS: [&str; 5] = ["id", "name", "kind", "created_at", "updated_at"];

impl TryFrom<OptionRow> for PaymentOption {
    type Error = StoreError;

    /// The table's CHECK keeps every kind readable; one that is not is a decode error.
    fn try_from(r: OptionRow) -> Result<Self, StoreError> {
        let kind = PaymentKind::parse(&r.kind).ok_or_else(|| {
            StoreError::Database(crate::DbError::decode(format!(
                "payment option {}: kind {:?}",
                r.id, r.kind
            )))
        })?;
        Ok(PaymentOption {
            id: r.id,
            name: r.name,
            kind,
            created_at: r.created_at,
            updated_at: r.updated_at,
        })
    }
}

/// The company's payment options, oldest first (Cash, Check, Credit Card, then the
/// ones it added).
#[tracing::instrument(level = "debug", skip_all)]
pub async fn list(
    db: &Db,
    company: CompanyId,
    page: Page,
) -> Result<PageOf<PaymentOption>, StoreError> {
    let total = crate::Total::whole(company, "payment_options");
    let rows: PageOf<OptionRow> = crate::paged(
        db,
        crate::scoped("payment_options", company),
        COLUMNS,
        page,
        total,
    )
    .await?;
    Ok(PageOf {
        records: rows
            .records
            .into_iter()
            .map(PaymentOption::try_from)
            .collect::<Result<_, _>>()?,
        total: rows.total,
    })
}

/// A new option; a name the company has already, in any case, is a 422 on `name`.
#[tracing::instrument(level = "debug", skip_all)]
pub async fn create(
    db: &Db,
    company: CompanyId,
    name: Name,
    kind: PaymentKind,
) -> Result<PaymentOption, StoreError> {
    let mut tx = db.begin().await?;
    let option = insert(&mut tx, company, &[(name.as_str(), kind)], now())
        .await?
        .remove(0);
    change_log::record(
        &mut tx,
        company,
        "payment_option",
        option.id,
        "created",
        serde_json::json!({"name": option.name, "kind": kind.as_str()}),
    )
    .await?;
    tx.commit().await?;
    Ok(option)
}

/// Gives a new company its Cash, Check and Credit Card, in the transaction creating it.
pub(crate) async fn seed(
    tx: &mut Tx,
    company: CompanyId,
    at: DateTime<Utc>,
) -> Result<(), StoreError> {
    insert(tx, company, &DEFAULT_OPTIONS, at).await?;
    Ok(())
}

/// Inserts `options` (name and kind) in one statement, in order.
async fn insert(
    tx: &mut Tx,
    company: CompanyId,
    options: &[(&str, PaymentKind)],
    at: DateTime<Utc>,
) -> Result<Vec<PaymentOption>, StoreError> {
    let mut stmt = Query::insert()
        .into_table("payment_options")
        .columns([
            "company_id",
            "name",
            "name_key",
            "kind",
            "created_at",
            "updated_at",
        ])
        .returning(Query::returning().columns(COLUMNS))
        .to_owned();
    for (name, kind) in options {
        stmt.values_panic([
            company.0.into(),
            (*name).into(),
            payment::name_key(name).into(),
            kind.as_str().into(),
            at.into(),
            at.into(),
        ]);
    }
    let rows: Vec<OptionRow> = tx.all(&stmt).await?;
    let mut options: Vec<PaymentOption> = rows
        .into_iter()
        .map(PaymentOption::try_from)
        .collect::<Result<_, _>>()?;
    options.sort_by_key(|o| o.id);
    Ok(options)
}

/// The company's option named `name`, whatever its case and surrounding spaces
/// (`basket[payment_method_name]` of an order). A name that is no option of the company
/// is a 422 on `payment_method_name`.
#[tracing::instrument(level = "debug", skip_all)]
pub async fn by_name(
    tx: &mut Tx,
    company: CompanyId,
    name: &str,
) -> Result<PaymentOption, StoreError> {
    let stmt = crate::scoped("payment_options", company)
        .columns(COLUMNS)
        .and_where(Expr::col("name_key").eq(payment::name_key(name)))
        .to_owned();
    match tx.optional::<OptionRow>(&stmt).await? {
        Some(row) => row.try_into(),
        None => Err(StoreError::invalid(
            "payment_method_name",
            Problem::NotInCompany {
                list: Listed::PaymentOptions,
                value: format!("{:?}", name.trim()),
            },
        )),
    }
}
