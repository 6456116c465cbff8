//! Businesses (organisations that rent), with status 1 active and 0 inactive.

use crate::CompanyId;
use crate::ids::{Id, Kind, kind};
use chrono::{DateTime, Utc};
use domain::customer_filter::BusinessFilter;
use domain::order::OrderState;
use domain::{Change, Page};
use sea_query::{Cond, Expr, ExprTrait, LockType, Query};

use crate::address_block::AddressBlock;
use crate::custom_fields::merge_values;
use crate::persons::{completed_orders, has_orders};
use crate::{Assignments, Db, PageOf, StoreError, Tx, change_log};

#[derive(Debug, Clone, crate::Row)]
pub struct Business {
    pub id: i64,
    pub name: String,
    pub description: Option<String>,
    pub industry: Option<String>,
    pub email: Option<String>,
    #[row(flatten)]
    pub address_block: AddressBlock<Option<String>>,
    pub display_picture: Option<String>,
    pub tax_free: bool,
    pub company_default_payment_terms: bool,
    pub active: bool,
    /// JSON object keyed by custom field id.
    pub custom_attributes: String,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
}

/// The columns of `Business`.
fn columns() -> impl Iterator<Item = &'static str> {
    [
        "id",
        "name",
        "description",
        "industry",
        "email",
        "display_picture",
        "tax_free",
        "company_default_payment_terms",
        "active",
        "custom_attributes",
        "created_at",
        "updated_at",
    ]
    .into_iter()
    .chain(AddressBlock::NAMES.into_array())
}

#[derive(Debug, Clone, Default)]
pub struct BusinessInput {
    /// Required on create and update; the HTTP layer says so.
    pub name: Option<String>,
    pub description: Change<String>,
    pub industry: Change<String>,
    pub email: Change<String>,
    pub address_block: AddressBlock<Change<String>>,
    pub display_picture: Change<String>,
    pub active: Option<bool>,
    pub tax_free: Option<bool>,
    pub company_default_payment_terms: Option<bool>,
    pub custom_attributes: crate::custom_fields::FieldValues,
}

#[tracing::instrument(level = "debug", skip_all)]
pub async fn find(
    db: &Db,
    company: CompanyId,
    id: Id<kind::Business>,
) -> Result<Business, StoreError> {
    let stmt = crate::scoped("businesses", company)
        .columns(columns())
        .and_where(Expr::col("id").eq(id))
        .to_owned();
    db.read()
        .optional(&stmt)
        .await?
        .ok_or(StoreError::NotFound(Kind::Business))
}

fn condition(filter: BusinessFilter) -> Cond {
    match filter {
        BusinessFilter::All => Cond::all(),
        BusinessFilter::Active => Cond::all().add(Expr::col("active").eq(true)),
        BusinessFilter::Inactive => Cond::all().add(Expr::col("active").eq(false)),
        BusinessFilter::CheckedOutOrders => Cond::all().add(has_orders(
            "businesses",
            "business_id",
            &[OrderState::CheckedOut],
        )),
        BusinessFilter::ActiveCustomers => Cond::all().add(has_orders(
            "businesses",
            "business_id",
            &[OrderState::Booked, OrderState::CheckedOut],
        )),
        BusinessFilter::CompletedOrders(c) => {
            Cond::all().add(completed_orders("businesses", "business_id", c))
        }
    }
}

/// The company's businesses after business `after`, by id, at most `limit`: an
/// export's batch.
pub async fn after(
    db: &Db,
    company: CompanyId,
    after: i64,
    limit: u64,
) -> Result<Vec<Business>, StoreError> {
    let (_, rows) = crate::with_columns(crate::scoped("businesses", company), columns());
    crate::after(db, rows, "id", after, limit).await
}

/// A page of businesses (20 a page by the spec): two queries.
#[tracing::instrument(level = "debug", skip_all)]
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
        columns(),
        page,
        total(company, filter),
    )
    .await
}

/// Writes the fields of `input` a create and an update write alike: the one place a
/// field of `BusinessInput` meets its column.
fn assign(row: &mut Assignments, input: &BusinessInput) {
    let BusinessInput {
        name,
        description,
        industry,
        email,
        address_block,
        display_picture,
        active,
        tax_free,
        company_default_payment_terms,
        // Merged with the stored values by the caller.
        custom_attributes: _,
    } = input;
    row.given("name", name)
        .change("description", description)
        .change("industry", industry)
        .change("email", email)
        .address_block(AddressBlock::NAMES, address_block)
        .change("display_picture", display_picture)
        .given("active", active)
        .given("tax_free", tax_free)
        .given(
            "company_default_payment_terms",
            company_default_payment_terms,
        );
}

#[tracing::instrument(level = "debug", skip_all)]
pub async fn create(
    db: &Db,
    company: CompanyId,
    input: BusinessInput,
) -> Result<Business, StoreError> {
    let mut tx = db.begin().await?;
    let business = create_in(&mut tx, company, input).await?;
    tx.commit().await?;
    Ok(business)
}

/// [`create`], in a transaction of the caller's (an import's).
pub async fn create_in(
    tx: &mut Tx,
    company: CompanyId,
    input: BusinessInput,
) -> Result<Business, StoreError> {
    if input.name.is_none() {
        return Err(StoreError::invalid("name", "can't be blank"));
    }
    let input = BusinessInput {
        active: Some(input.active.unwrap_or(true)),
        tax_free: Some(input.tax_free.unwrap_or(false)),
        company_default_payment_terms: Some(input.company_default_payment_terms.unwrap_or(false)),
        ..input
    };
    let at = crate::now();
    let mut row = Assignments::insert();
    row.set("company_id", company.0)
        .set(
            "custom_attributes",
            merge_values("{}", &input.custom_attributes),
        )
        .set("created_at", at)
        .set("updated_at", at);
    assign(&mut row, &input);
    let business: Business = tx
        .one(
            &row.into_insert("businesses")
                .returning(Query::returning().columns(columns()))
                .to_owned(),
        )
        .await?;
    change_log::record(
        tx,
        company,
        "business",
        business.id,
        "created",
        serde_json::json!({"name": business.name}),
    )
    .await?;
    Ok(business)
}

#[tracing::instrument(level = "debug", skip_all)]
pub async fn update(
    db: &Db,
    company: CompanyId,
    id: Id<kind::Business>,
    input: BusinessInput,
) -> Result<Business, StoreError> {
    let mut tx = db.begin().await?;
    let business = update_in(&mut tx, company, id, input).await?;
    tx.commit().await?;
    Ok(business)
}

/// [`update`], in a transaction of the caller's (an import's).
pub async fn update_in(
    tx: &mut Tx,
    company: CompanyId,
    id: Id<kind::Business>,
    input: BusinessInput,
) -> Result<Business, StoreError> {
    let select = crate::scoped("businesses", company)
        .columns(columns())
        .and_where(Expr::col("id").eq(id))
        .lock(LockType::Update)
        .to_owned();
    let before: Business = tx
        .optional(&select)
        .await?
        .ok_or(StoreError::NotFound(Kind::Business))?;
    let mut row = Assignments::update();
    assign(&mut row, &input);
    if !input.custom_attributes.is_empty() {
        row.set(
            "custom_attributes",
            merge_values(&before.custom_attributes, &input.custom_attributes),
        );
    }
    let details = serde_json::json!({"fields": row.columns()});
    let business: Business = tx
        .one(
            &row.into_update("businesses", company, id.get())
                .returning(Query::returning().columns(columns()))
                .to_owned(),
        )
        .await?;
    change_log::record(tx, company, "business", id.get(), "updated", details).await?;
    Ok(business)
}

/// The partitions of `list_counts` businesses are counted in (migration 0007's trigger).
pub(crate) const COUNTED: crate::ByStatus = crate::ByStatus {
    active: "businesses:active",
    inactive: "businesses:inactive",
};

/// The total of the businesses `filter` shows: counted unless it filters on more than
/// the status.
fn total(company: CompanyId, filter: BusinessFilter) -> crate::Total {
    match filter {
        BusinessFilter::All => crate::Total::by_status(company, None, COUNTED),
        BusinessFilter::Active => crate::Total::by_status(company, Some(true), COUNTED),
        BusinessFilter::Inactive => crate::Total::by_status(company, Some(false), COUNTED),
        _ => crate::Total::Filtered,
    }
}
