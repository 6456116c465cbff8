//! Companies (tenants), their owners and their API token.

use crate::CompanyId;
use crate::ids::Kind;
use domain::settings::{ActivationLocation, Currency};
use domain::{Plan, RateLimitPolicy, Subdomain};
use sea_query::{Expr, ExprTrait, Query};

use crate::{Db, StoreError, change_log, now};

#[derive(Debug, Clone)]
pub struct Company {
    pub id: CompanyId,
    pub name: String,
    pub subdomain: String,
    pub plan: Plan,
    pub rate_limit: RateLimitPolicy,
    pub api_enabled: bool,
    pub time_zone: chrono_tz::Tz,
    pub currency: Currency,
    pub retired_activation_location: ActivationLocation,
    /// How rental orders are priced.
    pub pricing: domain::pricing::RentalSettings,
}

#[derive(crate::Row)]
pub(crate) struct CompanyRow {
    id: i64,
    name: String,
    subdomain: String,
    plan: String,
    rate_limit_requests: Option<i64>,
    rate_limit_window_secs: Option<i64>,
    api_enabled: bool,
    time_zone: String,
    currency: String,
    retired_activation_location: String,
    inclusive_return: bool,
    best_pricing: bool,
}

impl From<CompanyRow> for Company {
    fn from(r: CompanyRow) -> Self {
        Company {
            id: CompanyId(r.id),
            name: r.name,
            subdomain: r.subdomain,
            plan: r.plan.parse().unwrap_or(Plan::Trial),
            rate_limit: RateLimitPolicy::from_columns(
                r.rate_limit_requests,
                r.rate_limit_window_secs,
            ),
            api_enabled: r.api_enabled,
            time_zone: r.time_zone.parse().unwrap_or(chrono_tz::UTC),
            currency: Currency::parse(&r.currency).unwrap_or_else(Currency::usd),
            retired_activation_location: ActivationLocation::parse(&r.retired_activation_location)
                .unwrap_or(ActivationLocation::Optional),
            pricing: domain::pricing::RentalSettings {
                inclusive_return: r.inclusive_return,
                best_pricing: r.best_pricing,
            },
        }
    }
}

/// The columns of [`CompanyRow`].
pub(crate) const COLUMNS: [&str; 12] = [
    "id",
    "name",
    "subdomain",
    "plan",
    "rate_limit_requests",
    "rate_limit_window_secs",
    "api_enabled",
    "time_zone",
    "currency",
    "retired_activation_location",
    "inclusive_return",
    "best_pricing",
];

pub struct NewCompany {
    pub name: String,
    pub subdomain: Subdomain,
    pub plan: Plan,
    pub owner_email: Option<String>,
    pub owner_password: Option<String>,
    pub enable_api: bool,
}

use crate::tokens::generate_token;
pub use crate::tokens::{IssuedToken, hash_token};

/// Creates a company, its owner (when an e-mail is given), its payment options (Cash,
/// Check, Credit Card) and, with `enable_api`, its token, in one transaction.
#[tracing::instrument(level = "debug", skip_all)]
pub async fn create(
    db: &Db,
    new: NewCompany,
) -> Result<(Company, Option<IssuedToken>), StoreError> {
    let at = now();
    let (requests, window) = new.plan.default_policy().to_columns();
    // Hashed before the transaction, so no lock is held while argon2 runs.
    let password_hash = match &new.owner_password {
        Some(p) => Some(crate::passwords::hash(p).await?),
        None => None,
    };
    let mut tx = db.begin().await?;
    let insert = Query::insert()
        .into_table("companies")
        .columns([
            "name",
            "subdomain",
            "plan",
            "rate_limit_requests",
            "rate_limit_window_secs",
            "api_enabled",
            "time_zone",
            "created_at",
            "updated_at",
        ])
        .values_panic([
            new.name.clone().into(),
            new.subdomain.as_str().into(),
            new.plan.as_str().into(),
            requests.into(),
            window.into(),
            new.enable_api.into(),
            "UTC".into(),
            at.into(),
            at.into(),
        ])
        .returning(Query::returning().columns(COLUMNS))
        .to_owned();
    let row: CompanyRow = tx.one(&insert).await?;
    let company = Company::from(row);
    crate::payment_options::seed(&mut tx, company.id, at).await?;
    crate::label_templates::seed(&mut tx, company.id, at).await?;
    if let Some(email) = &new.owner_email {
        let owner = Query::insert()
            .into_table("owners")
            .columns(["company_id", "email", "password_hash", "created_at"])
            .values_panic([
                company.id.0.into(),
                email.trim().to_lowercase().into(),
                password_hash.into(),
                at.into(),
            ])
            .to_owned();
        tx.execute(&owner).await?;
        crate::members::insert_owner(&mut tx, company.id, &email.trim().to_lowercase(), at).await?;
    }
    let token = if new.enable_api {
        let token = generate_token();
        let insert = Query::insert()
            .into_table("api_tokens")
            .columns(["company_id", "token_hash", "created_at"])
            .values_panic([company.id.0.into(), hash_token(&token.0).into(), at.into()])
            .to_owned();
        tx.execute(&insert).await?;
        Some(token)
    } else {
        None
    };
    change_log::record(
        &mut tx,
        company.id,
        "company",
        company.id.0,
        "created",
        serde_json::json!({"subdomain": company.subdomain, "plan": company.plan.as_str()}),
    )
    .await?;
    tx.commit().await?;
    Ok((company, token))
}

#[tracing::instrument(level = "debug", skip_all)]
pub async fn list(db: &Db) -> Result<Vec<Company>, StoreError> {
    let stmt = Query::select()
        .columns(COLUMNS)
        .from("companies")
        .order_by("id", sea_query::Order::Asc)
        .to_owned();
    let rows: Vec<CompanyRow> = db.read().all(&stmt).await?;
    Ok(rows.into_iter().map(Company::from).collect())
}

#[tracing::instrument(level = "debug", skip_all)]
pub async fn find_by_subdomain(db: &Db, subdomain: &str) -> Result<Company, StoreError> {
    let stmt = Query::select()
        .columns(COLUMNS)
        .from("companies")
        .and_where(Expr::col("subdomain").eq(subdomain))
        .to_owned();
    let row: Option<CompanyRow> = db.read().optional(&stmt).await?;
    row.map(Company::from)
        .ok_or(StoreError::NotFound(Kind::Company))
}

#[tracing::instrument(level = "debug", skip_all)]
pub async fn find(db: &Db, id: CompanyId) -> Result<Company, StoreError> {
    let stmt = Query::select()
        .columns(COLUMNS)
        .from("companies")
        .and_where(Expr::col("id").eq(id.0))
        .to_owned();
    let row: Option<CompanyRow> = db.read().optional(&stmt).await?;
    row.map(Company::from)
        .ok_or(StoreError::NotFound(Kind::Company))
}

/// The company a token belongs to, if the token is current.
#[tracing::instrument(level = "debug", skip_all)]
pub async fn authenticate(db: &Db, token: &str) -> Result<Option<Company>, StoreError> {
    authenticate_hashed(db, &hash_token(token)).await
}

/// The company whose token's SHA-256 is `hash` ([`hash_token`]).
pub async fn authenticate_hashed(db: &Db, hash: &str) -> Result<Option<Company>, StoreError> {
    let stmt = Query::select()
        .columns(COLUMNS.map(|c| ("companies", c)))
        .from("api_tokens")
        .inner_join(
            "companies",
            Expr::col(("companies", "id")).equals(("api_tokens", "company_id")),
        )
        .and_where(Expr::col(("api_tokens", "token_hash")).eq(hash))
        .to_owned();
    let row: Option<CompanyRow> = db.read().optional(&stmt).await?;
    Ok(row.map(Company::from))
}

async fn update_company(
    db: &Db,
    which: Expr,
    values: Vec<(&'static str, sea_query::Value)>,
    action: &str,
    details: serde_json::Value,
) -> Result<Company, StoreError> {
    let mut tx = db.begin().await?;
    let mut values = values;
    values.push(("updated_at", now().into()));
    let stmt = Query::update()
        .table("companies")
        .values(values.into_iter().map(|(c, v)| (c, Expr::val(v))))
        .and_where(which)
        .returning(Query::returning().columns(COLUMNS))
        .to_owned();
    let row: Option<CompanyRow> = tx.optional(&stmt).await?;
    let company = Company::from(row.ok_or(StoreError::NotFound(Kind::Company))?);
    change_log::record(
        &mut tx,
        company.id,
        "company",
        company.id.0,
        action,
        details,
    )
    .await?;
    tx.commit().await?;
    Ok(company)
}

/// Changes the plan and resets the rate limit to the plan's default.
#[tracing::instrument(level = "debug", skip_all)]
pub async fn set_plan(db: &Db, subdomain: &str, plan: Plan) -> Result<Company, StoreError> {
    let (requests, window) = plan.default_policy().to_columns();
    update_company(
        db,
        Expr::col("subdomain").eq(subdomain),
        vec![
            ("plan", plan.as_str().into()),
            ("rate_limit_requests", requests.into()),
            ("rate_limit_window_secs", window.into()),
        ],
        "plan_changed",
        serde_json::json!({"plan": plan.as_str()}),
    )
    .await
}

/// Overrides the company's rate limit, whatever its plan.
#[tracing::instrument(level = "debug", skip_all)]
pub async fn set_rate_limit(
    db: &Db,
    subdomain: &str,
    policy: RateLimitPolicy,
) -> Result<Company, StoreError> {
    let (requests, window) = policy.to_columns();
    update_company(
        db,
        Expr::col("subdomain").eq(subdomain),
        vec![
            ("rate_limit_requests", requests.into()),
            ("rate_limit_window_secs", window.into()),
        ],
        "rate_limit_changed",
        serde_json::json!({"requests": requests, "window_secs": window}),
    )
    .await
}

/// Enables or disables the company's API; disabling also ends its label links.
#[tracing::instrument(level = "debug", skip_all)]
pub async fn set_api_enabled(
    db: &Db,
    subdomain: &str,
    enabled: bool,
) -> Result<Company, StoreError> {
    let action = if enabled {
        "api_enabled"
    } else {
        "api_disabled"
    };
    let company = update_company(
        db,
        Expr::col("subdomain").eq(subdomain),
        vec![("api_enabled", enabled.into())],
        action,
        serde_json::json!({}),
    )
    .await?;
    if !enabled {
        // Links of a disabled API already answer 404 (`label_prints::fetch`); ending
        // them keeps them dead if the API is enabled again.
        crate::label_prints::expire_all(db, company.id).await?;
    }
    Ok(company)
}

#[tracing::instrument(level = "debug", skip_all)]
pub async fn set_time_zone(
    db: &Db,
    subdomain: &str,
    tz: chrono_tz::Tz,
) -> Result<Company, StoreError> {
    update_company(
        db,
        Expr::col("subdomain").eq(subdomain),
        vec![("time_zone", tz.name().into())],
        "time_zone_changed",
        serde_json::json!({"time_zone": tz.name()}),
    )
    .await
}

/// The settings other operations consult; each one left `None` is kept.
#[derive(Debug, Default)]
pub struct Settings {
    pub time_zone: Option<chrono_tz::Tz>,
    pub currency: Option<Currency>,
    pub retired_activation_location: Option<ActivationLocation>,
    /// Rental orders: whether the return minute counts.
    pub inclusive_return: Option<bool>,
    /// Rental orders: the cheapest of the split and each single unit.
    pub best_pricing: Option<bool>,
}

#[tracing::instrument(level = "debug", skip_all)]
pub async fn update_settings(
    db: &Db,
    company: CompanyId,
    settings: Settings,
) -> Result<Company, StoreError> {
    let mut values: Vec<(&'static str, sea_query::Value)> = Vec::new();
    if let Some(tz) = settings.time_zone {
        values.push(("time_zone", tz.name().into()));
    }
    if let Some(c) = &settings.currency {
        values.push(("currency", c.as_str().into()));
    }
    if let Some(a) = settings.retired_activation_location {
        values.push(("retired_activation_location", a.as_str().into()));
    }
    if let Some(b) = settings.inclusive_return {
        values.push(("inclusive_return", b.into()));
    }
    if let Some(b) = settings.best_pricing {
        values.push(("best_pricing", b.into()));
    }
    let details = serde_json::json!({"fields": values.iter().map(|(c, _)| *c).collect::<Vec<_>>()});
    update_company(
        db,
        Expr::col("id").eq(company.0),
        values,
        "settings_changed",
        details,
    )
    .await
}

/// Issues a new token; the previous one, and every label link handed out until then,
/// stop working when this commits.
#[tracing::instrument(level = "debug", skip_all)]
pub async fn regenerate_token(db: &Db, company: CompanyId) -> Result<IssuedToken, StoreError> {
    let token = generate_token();
    let mut tx = db.begin().await?;
    let delete = Query::delete()
        .from_table("api_tokens")
        .and_where(Expr::col("company_id").eq(company.0))
        .to_owned();
    tx.execute(&delete).await?;
    let insert = Query::insert()
        .into_table("api_tokens")
        .columns(["company_id", "token_hash", "created_at"])
        .values_panic([company.0.into(), hash_token(&token.0).into(), now().into()])
        .to_owned();
    tx.execute(&insert).await?;
    // Label links were handed out under the old token: they end with it.
    crate::label_prints::expire_in(&mut tx, company).await?;
    change_log::record(
        &mut tx,
        company,
        "company",
        company.0,
        "token_regenerated",
        serde_json::json!({}),
    )
    .await?;
    tx.commit().await?;
    Ok(token)
}

/// Sets the password of the company's owner with this e-mail, adding that owner (and
/// listing them as an administrator member) when the company has none by that e-mail.
#[tracing::instrument(level = "debug", skip_all)]
pub async fn set_owner_password(
    db: &Db,
    company: CompanyId,
    email: &str,
    password: &str,
) -> Result<(), StoreError> {
    let hash = crate::passwords::hash(password).await?;
    let mut tx = db.begin().await?;
    let update = Query::update()
        .table("owners")
        .values([("password_hash", Expr::val(hash.clone()))])
        .and_where(Expr::col("company_id").eq(company.0))
        .and_where(Expr::col("email").eq(email))
        .to_owned();
    if tx.execute(&update).await? == 0 {
        // A new owner is listed as a member too, so the e-mail must be no member's yet.
        let member = crate::scoped("members", company)
            .column("id")
            .and_where(Expr::col("email").eq(email))
            .to_owned();
        if tx.optional::<(i64,)>(&member).await?.is_some() {
            return Err(StoreError::invalid(
                "email",
                "is already a member of this company who is not its owner",
            ));
        }
        let at = now();
        let insert = Query::insert()
            .into_table("owners")
            .columns(["company_id", "email", "password_hash", "created_at"])
            .values_panic([company.0.into(), email.into(), hash.into(), at.into()])
            .to_owned();
        tx.execute(&insert).await?;
        crate::members::insert_owner(&mut tx, company, email, at).await?;
    }
    // A new password ends every session of the old one.
    let sessions = Query::delete()
        .from_table("sessions")
        .and_where(Expr::col("company_id").eq(company.0))
        .and_where(
            Expr::col("owner_id").in_subquery(
                crate::scoped("owners", company)
                    .column("id")
                    .and_where(Expr::col("email").eq(email))
                    .to_owned(),
            ),
        )
        .to_owned();
    tx.execute(&sessions).await?;
    change_log::record(
        &mut tx,
        company,
        "company",
        company.0,
        "owner_password_set",
        serde_json::json!({"email": email}),
    )
    .await?;
    tx.commit().await
}

/// A cheap query proving the database answers, for `/healthz`.
#[tracing::instrument(level = "debug", skip_all)]
pub async fn list_ping(db: &Db) -> Result<(), StoreError> {
    let stmt = crate::Sql {
        text: "SELECT 1",
        values: sea_query::Values(vec![]),
    };
    let _: (i32,) = db.read().one(&stmt).await?;
    Ok(())
}

#[tracing::instrument(level = "debug", skip_all)]
pub async fn has_token(db: &Db, company: CompanyId) -> Result<bool, StoreError> {
    let stmt = Query::select()
        .column("company_id")
        .from("api_tokens")
        .and_where(Expr::col("company_id").eq(company.0))
        .to_owned();
    Ok(db.read().optional::<(i64,)>(&stmt).await?.is_some())
}
