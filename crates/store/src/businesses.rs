//! Businesses (organisations that rent), with status 1 active and 0 inactive.

use chrono::{DateTime, Utc};
use domain::customer_filter::BusinessFilter;
use domain::{Change, CompanyId, Page};
use sea_query::{Cond, Expr, ExprTrait, LockType, Query};
use std::collections::BTreeMap;

use crate::custom_fields::merge_values;
use crate::persons::{completed_orders, has_orders};
use crate::{Assignments, Db, PageOf, StoreError, change_log, orders};

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct Business {
    pub id: i64,
    pub name: String,
    pub description: Option<String>,
    pub industry: Option<String>,
    pub email: Option<String>,
    pub address_name: Option<String>,
    pub address: Option<String>,
    pub address_line_2: Option<String>,
    pub city: Option<String>,
    pub state: Option<String>,
    pub zip_code: Option<String>,
    pub country: Option<String>,
    pub phone_number: Option<String>,
    pub fax: Option<String>,
    pub display_picture: Option<String>,
    pub tax_free: bool,
    pub company_default_payment_terms: bool,
    pub active: bool,
    /// JSON object keyed by custom field id.
    pub custom_attributes: String,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
}

const COLUMNS: [&str; 21] = [
    "id",
    "name",
    "description",
    "industry",
    "email",
    "address_name",
    "address",
    "address_line_2",
    "city",
    "state",
    "zip_code",
    "country",
    "phone_number",
    "fax",
    "display_picture",
    "tax_free",
    "company_default_payment_terms",
    "active",
    "custom_attributes",
    "created_at",
    "updated_at",
];

/// Optional text fields, in the order of `BusinessInput::text`.
pub const TEXT_FIELDS: [&str; 13] = [
    "description",
    "industry",
    "email",
    "address_name",
    "address",
    "address_line_2",
    "city",
    "state",
    "zip_code",
    "country",
    "phone_number",
    "fax",
    "display_picture",
];

#[derive(Debug, Clone, Default)]
pub struct BusinessInput {
    /// Required on create and update; the HTTP layer says so.
    pub name: Option<String>,
    pub text: [Change<String>; 13],
    pub active: Option<bool>,
    pub tax_free: Option<bool>,
    pub company_default_payment_terms: Option<bool>,
    pub custom_attributes: BTreeMap<i64, Change<String>>,
}

pub async fn find(db: &Db, company: CompanyId, id: i64) -> Result<Business, StoreError> {
    let stmt = crate::scoped("businesses", company)
        .columns(COLUMNS)
        .and_where(Expr::col("id").eq(id))
        .to_owned();
    db.read().optional(&stmt).await?.ok_or(StoreError::NotFound)
}

fn condition(filter: BusinessFilter) -> Cond {
    match filter {
        BusinessFilter::All => Cond::all(),
        BusinessFilter::Active => Cond::all().add(Expr::col("active").eq(true)),
        BusinessFilter::Inactive => Cond::all().add(Expr::col("active").eq(false)),
        BusinessFilter::CheckedOutOrders => Cond::all().add(has_orders(
            "businesses",
            "business_id",
            &[orders::CHECKED_OUT],
        )),
        BusinessFilter::ActiveCustomers => Cond::all().add(has_orders(
            "businesses",
            "business_id",
            &[orders::BOOKED, orders::CHECKED_OUT],
        )),
        BusinessFilter::CompletedOrders(c) => {
            Cond::all().add(completed_orders("businesses", "business_id", c))
        }
    }
}

/// A page of businesses (20 a page by the spec): two queries.
pub async fn list(
    db: &Db,
    company: CompanyId,
    filter: BusinessFilter,
    page: Page,
) -> Result<PageOf<Business>, StoreError> {
    crate::paged(
        db,
        crate::scoped("businesses", company)
            .cond_where(condition(filter))
            .to_owned(),
        COLUMNS,
        page,
        crate::lists::counts::businesses(company, filter),
    )
    .await
}

pub async fn create(
    db: &Db,
    company: CompanyId,
    input: BusinessInput,
) -> Result<Business, StoreError> {
    let Some(name) = input.name.clone() else {
        return Err(StoreError::invalid("name", "can't be blank"));
    };
    let at = crate::now();
    let mut row = Assignments::insert();
    row.set("company_id", company.0)
        .set("name", name)
        .set("active", input.active.unwrap_or(true))
        .set("tax_free", input.tax_free.unwrap_or(false))
        .set(
            "company_default_payment_terms",
            input.company_default_payment_terms.unwrap_or(false),
        )
        .set(
            "custom_attributes",
            merge_values("{}", &input.custom_attributes),
        )
        .set("created_at", at)
        .set("updated_at", at)
        .changes(&TEXT_FIELDS, &input.text);
    let mut tx = db.begin().await?;
    let business: Business = tx
        .one(
            &row.into_insert("businesses")
                .returning(Query::returning().columns(COLUMNS))
                .to_owned(),
        )
        .await?;
    change_log::record(
        &mut tx,
        company,
        "business",
        business.id,
        "created",
        serde_json::json!({"name": business.name}),
    )
    .await?;
    tx.commit().await?;
    Ok(business)
}

pub async fn update(
    db: &Db,
    company: CompanyId,
    id: i64,
    input: BusinessInput,
) -> Result<Business, StoreError> {
    let mut tx = db.begin().await?;
    let select = crate::scoped("businesses", company)
        .columns(COLUMNS)
        .and_where(Expr::col("id").eq(id))
        .lock(LockType::Update)
        .to_owned();
    let before: Business = tx.optional(&select).await?.ok_or(StoreError::NotFound)?;
    let mut row = Assignments::update();
    if let Some(name) = &input.name {
        row.set("name", name.clone());
    }
    row.changes(&TEXT_FIELDS, &input.text);
    for (column, value) in [
        ("active", input.active),
        ("tax_free", input.tax_free),
        (
            "company_default_payment_terms",
            input.company_default_payment_terms,
        ),
    ] {
        if let Some(v) = value {
            row.set(column, v);
        }
    }
    if !input.custom_attributes.is_empty() {
        row.set(
            "custom_attributes",
            merge_values(&before.custom_attributes, &input.custom_attributes),
        );
    }
    let details = serde_json::json!({"fields": row.columns()});
    let business: Business = tx
        .one(
            &row.into_update("businesses", company, id)
                .returning(Query::returning().columns(COLUMNS))
                .to_owned(),
        )
        .await?;
    change_log::record(&mut tx, company, "business", id, "updated", details).await?;
    tx.commit().await?;
    Ok(business)
}
