//! Pricing coupons (`/pricing_coupons`): a named amount or percentage that an order
//! takes off (a discount) or adds (a surcharge), usable while active and within its
//! days. The value is kept in hundredths (`domain::coupon`): minor units for an amount,
//! hundredths of a percent for a percentage.

use crate::CompanyId;
use crate::ids::{Id, Kind, kind};
use chrono::{DateTime, NaiveDate, Utc};
use domain::coupon::{self, Validity, ValueType};
use domain::pricing::{Coupon, CouponEffect, CouponValue};
use domain::{Change, Name, Page, Vocabulary};
use sea_query::{Expr, ExprTrait, LockType, Query, SelectStatement};

use crate::{Assignments, Db, FieldErrors, PageOf, StoreError, Tx, change_log, now};

/// A coupon as stored, its words and value read into their domain types.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CouponRecord {
    pub id: i64,
    pub name: String,
    pub code: Option<String>,
    /// What it is worth; its variant is the `value_type`.
    pub value: CouponValue,
    pub effect: CouponEffect,
    pub valid_from: Option<NaiveDate>,
    pub valid_until: Option<NaiveDate>,
    pub active: bool,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
}

impl CouponRecord {
    pub fn value_type(&self) -> ValueType {
        ValueType::of(self.value)
    }

    fn validity(&self) -> Validity {
        Validity {
            active: self.active,
            from: self.valid_from,
            until: self.valid_until,
        }
    }

    /// True when the coupon may be used on `day` (in the company's time zone): it is
    /// active, and `day` is within `valid_from` and `valid_until`, both included.
    pub fn valid_on(&self, day: NaiveDate) -> bool {
        self.validity().covers(day)
    }

    /// The coupon as order pricing takes it.
    pub fn to_pricing(&self) -> Coupon {
        Coupon {
            id: self.id,
            name: self.name.clone(),
            value: self.value,
            effect: self.effect,
        }
    }
}

#[derive(crate::Row)]
struct CouponRow {
    id: i64,
    name: String,
    code: Option<String>,
    value_type: String,
    value: i64,
    effect: String,
    valid_from: Option<NaiveDate>,
    valid_until: Option<NaiveDate>,
    active: bool,
    created_at: DateTime<Utc>,
    updated_at: DateTime<Utc>,
}

const COLUMNS: [&str; 11] = [
    "id",
    "name",
    "code",
    "value_type",
    "value",
    "effect",
    "valid_from",
    "valid_until",
    "active",
    "created_at",
    "updated_at",
];

impl TryFrom<CouponRow> for CouponRecord {
    type Error = StoreError;

    /// The table's CHECKs keep every row readable; one that is not is a decode error.
    fn try_from(r: CouponRow) -> Result<Self, StoreError> {
        let unreadable = |what: String| {
            StoreError::Database(crate::DbError::decode(format!("coupon {}: {what}", r.id)))
        };
        let value = ValueType::parse(&r.value_type)
            .ok_or_else(|| unreadable(format!("value_type {:?}", r.value_type)))?
            .value(r.value)
            .map_err(|problem| unreadable(format!("value {} {problem}", r.value)))?;
        let effect = CouponEffect::parse(&r.effect)
            .ok_or_else(|| unreadable(format!("effect {:?}", r.effect)))?;
        Ok(CouponRecord {
            id: r.id,
            name: r.name,
            code: r.code,
            value,
            effect,
            valid_from: r.valid_from,
            valid_until: r.valid_until,
            active: r.active,
            created_at: r.created_at,
            updated_at: r.updated_at,
        })
    }
}

fn records(rows: Vec<CouponRow>) -> Result<Vec<CouponRecord>, StoreError> {
    rows.into_iter().map(CouponRecord::try_from).collect()
}

/// The fields a create or an update may carry. An update keeps what is `None` or
/// `Change::Keep`.
#[derive(Debug, Clone, Default)]
pub struct CouponInput {
    /// Required on create, which takes it apart.
    pub name: Option<Name>,
    pub code: Change<String>,
    /// Required on create; an update keeps the stored kind when `None`.
    pub value_type: Option<ValueType>,
    /// The value in hundredths (minor units, or hundredths of a percent), read as
    /// `value_type` says, or as the stored kind on an update that does not change it.
    /// Required on create.
    pub value: Option<i64>,
    /// `discount` when a create leaves it out.
    pub effect: Option<CouponEffect>,
    pub valid_from: Change<NaiveDate>,
    pub valid_until: Change<NaiveDate>,
    /// `true` when a create leaves it out.
    pub active: Option<bool>,
}

/// Writes the fields of `input` a create and an update write alike, with the value and
/// kind already checked together (`value`): the one place a field meets its column.
fn assign(row: &mut Assignments, input: &CouponInput, value: Option<CouponValue>) {
    let CouponInput {
        name,
        code,
        // Checked together into `value`.
        value_type: _,
        value: _,
        effect,
        valid_from,
        valid_until,
        active,
    } = input;
    if let Some(name) = name {
        row.set("name", name.as_str());
    }
    if let Some(value) = value {
        row.set("value_type", ValueType::of(value).as_str())
            .set("value", coupon::hundredths(value));
    }
    row.change("code", code)
        .given("effect", &effect.map(CouponEffect::as_str))
        .change("valid_from", valid_from)
        .change("valid_until", valid_until)
        .given("active", active);
}

/// The value and days `input` leaves the coupon with (`before`: the stored coupon of
/// an update), checked: one 422 naming `value` and `valid_until` as they need.
fn check(
    input: &CouponInput,
    before: Option<&CouponRecord>,
) -> Result<Option<CouponValue>, StoreError> {
    let mut errors = FieldErrors::new();
    let value_type = input.value_type.or(before.map(CouponRecord::value_type));
    let hundredths = input.value.or(before.map(|b| coupon::hundredths(b.value)));
    let value = match (value_type, hundredths) {
        // An update that changes neither.
        _ if before.is_some() && input.value_type.is_none() && input.value.is_none() => None,
        (Some(value_type), Some(h)) => match value_type.value(h) {
            Ok(v) => Some(v),
            Err(problem) => {
                errors.insert("value".into(), vec![problem.into()]);
                None
            }
        },
        (value_type, hundredths) => {
            for (field, missing) in [
                ("value_type", value_type.is_none()),
                ("value", hundredths.is_none()),
            ] {
                if missing {
                    errors.insert(field.into(), vec!["can't be blank".into()]);
                }
            }
            None
        }
    };
    let after = |change: &Change<NaiveDate>, stored: Option<NaiveDate>| match change {
        Change::Keep => stored,
        Change::Set(d) => Some(*d),
        Change::Clear => None,
    };
    let from = after(&input.valid_from, before.and_then(|b| b.valid_from));
    let until = after(&input.valid_until, before.and_then(|b| b.valid_until));
    if let Err(problem) = Validity::check(from, until) {
        errors.insert("valid_until".into(), vec![problem.into()]);
    }
    if errors.is_empty() {
        Ok(value)
    } else {
        Err(StoreError::Invalid(errors))
    }
}

fn scoped(company: CompanyId) -> SelectStatement {
    crate::scoped("coupons", company)
}

#[tracing::instrument(level = "debug", skip_all)]
pub async fn find(
    db: &Db,
    company: CompanyId,
    id: Id<kind::Coupon>,
) -> Result<CouponRecord, StoreError> {
    let stmt = scoped(company)
        .columns(COLUMNS)
        .and_where(Expr::col("id").eq(id))
        .to_owned();
    let row: CouponRow = db
        .read()
        .optional(&stmt)
        .await?
        .ok_or(StoreError::NotFound(Kind::Coupon))?;
    row.try_into()
}

/// The company's coupons, oldest first.
#[tracing::instrument(level = "debug", skip_all)]
pub async fn list(
    db: &Db,
    company: CompanyId,
    page: Page,
) -> Result<PageOf<CouponRecord>, StoreError> {
    let total = crate::Total::whole(company, "coupons");
    let rows: PageOf<CouponRow> = crate::paged(db, scoped(company), COLUMNS, page, total).await?;
    Ok(PageOf {
        records: records(rows.records)?,
        total: rows.total,
    })
}

/// `name`, `value_type` and `value` are required here; the HTTP layer has already said
/// so.
#[tracing::instrument(level = "debug", skip_all)]
pub async fn create(
    db: &Db,
    company: CompanyId,
    name: Name,
    input: CouponInput,
) -> Result<CouponRecord, StoreError> {
    let input = CouponInput {
        name: Some(name),
        effect: Some(input.effect.unwrap_or(CouponEffect::Discount)),
        active: Some(input.active.unwrap_or(true)),
        ..input
    };
    let value = check(&input, None)?;
    let at = now();
    let mut row = Assignments::insert();
    row.set("company_id", company.0)
        .set("created_at", at)
        .set("updated_at", at);
    assign(&mut row, &input, value);
    let stmt = row
        .into_insert("coupons")
        .returning(Query::returning().columns(COLUMNS))
        .to_owned();
    let mut tx = db.begin().await?;
    let coupon: CouponRecord = tx.one::<CouponRow>(&stmt).await?.try_into()?;
    change_log::record(
        &mut tx,
        company,
        "coupon",
        coupon.id,
        "created",
        serde_json::json!({
            "name": coupon.name,
            "value_type": coupon.value_type().as_str(),
            "value": coupon::hundredths(coupon.value),
            "effect": coupon.effect.as_str(),
        }),
    )
    .await?;
    tx.commit().await?;
    Ok(coupon)
}

#[tracing::instrument(level = "debug", skip_all)]
pub async fn update(
    db: &Db,
    company: CompanyId,
    id: Id<kind::Coupon>,
    input: CouponInput,
) -> Result<CouponRecord, StoreError> {
    let mut tx = db.begin().await?;
    let select = scoped(company)
        .columns(COLUMNS)
        .and_where(Expr::col("id").eq(id))
        .lock(LockType::Update)
        .to_owned();
    let before: CouponRecord = tx
        .optional::<CouponRow>(&select)
        .await?
        .ok_or(StoreError::NotFound(Kind::Coupon))?
        .try_into()?;
    let value = check(&input, Some(&before))?;
    let mut row = Assignments::update();
    assign(&mut row, &input, value);
    let columns = row.columns();
    let stmt = row
        .into_update("coupons", company, id.get())
        .returning(Query::returning().columns(COLUMNS))
        .to_owned();
    let coupon: CouponRecord = tx.one::<CouponRow>(&stmt).await?.try_into()?;
    change_log::record(
        &mut tx,
        company,
        "coupon",
        id.get(),
        "updated",
        serde_json::json!({"name": [before.name, coupon.name.clone()], "columns": columns}),
    )
    .await?;
    tx.commit().await?;
    Ok(coupon)
}

/// The company's coupons `ids` (`coupon_ids` of an order), in the order given, each
/// once: one statement. An id that is not a coupon of the company is a 422 on
/// `coupon_ids` naming every such id. Whether each may be used on the order's day is
/// [`CouponRecord::valid_on`].
#[tracing::instrument(level = "debug", skip_all)]
pub async fn for_order(
    tx: &mut Tx,
    company: CompanyId,
    ids: &[Id<kind::Coupon>],
) -> Result<Vec<CouponRecord>, StoreError> {
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    let stmt = scoped(company)
        .columns(COLUMNS)
        .and_where(Expr::col("id").is_in(ids.to_vec()))
        .to_owned();
    let found = records(tx.all::<CouponRow>(&stmt).await?)?;
    crate::in_order_of(ids, found, |c| c.id, "coupon_ids", "coupon")
}
