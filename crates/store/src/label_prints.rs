//! Label prints: the labels one request asked for (`POST /qrcodes.api`,
//! `/qrcode/members.api`, `/qrcode/locations.api`), kept until their link expires. The
//! link carries a random token (32 bytes, hex) that stands in for the API token; only
//! its SHA-256 is stored, as for API tokens. What each label shows is fixed when the
//! print is made, so a label says what the record was called when it was asked for.

use crate::CompanyId;
use crate::ids::{Id, kind};
use chrono::{DateTime, Duration, Utc};
use domain::Vocabulary;
use domain::label::TemplateType;
use sea_query::{Expr, ExprTrait, Query};

use crate::label_templates::{self, Template};
use crate::tokens::{generate_token, hash_token};
use crate::{Db, StoreError, Tx, now};

/// A record a label names.
#[derive(Debug, Clone, PartialEq, Eq, crate::Row)]
pub struct LabelRecord {
    /// What the request named it by: an item's number, a member's or location's id.
    pub key: i64,
    /// A location's number (its `sequence_num`); an item's number again; a member's id.
    pub number: i64,
    pub name: String,
    pub identifier: Option<String>,
}

/// The template and the records of a print, in the order asked (a number asked twice
/// prints twice). Numbers that are no record of the company are a 422 on `field`
/// naming every one of them.
#[tracing::instrument(level = "debug", skip_all)]
pub async fn prepare(
    db: &Db,
    company: CompanyId,
    of: TemplateType,
    template: Option<Id<kind::LabelTemplate>>,
    keys: &[i64],
    field: &'static str,
) -> Result<(Template, Vec<LabelRecord>), StoreError> {
    let mut tx = db.begin_read().await?;
    let template = label_templates::for_print(&mut tx, company, of, template).await?;
    let mut wanted = keys.to_vec();
    wanted.sort_unstable();
    wanted.dedup();
    let stmt = match of {
        TemplateType::Asset => crate::scoped("items", company)
            .expr_as(Expr::col("sequence_num"), "key")
            .expr_as(Expr::col("sequence_num"), "number")
            .columns(["name", "identifier"])
            .and_where(Expr::col("sequence_num").is_in(wanted.clone()))
            .to_owned(),
        TemplateType::Member => crate::scoped("members", company)
            .expr_as(Expr::col("id"), "key")
            .expr_as(Expr::col("id"), "number")
            .expr_as(Expr::cust("first_name || ' ' || last_name"), "name")
            .expr_as(
                Expr::col("employee_id").if_null(Expr::col("email")),
                "identifier",
            )
            .and_where(Expr::col("id").is_in(wanted.clone()))
            .to_owned(),
        TemplateType::Location => crate::scoped("locations", company)
            .expr_as(Expr::col("id"), "key")
            .expr_as(Expr::col("sequence_num"), "number")
            .column("name")
            .expr_as(Expr::cust("NULL"), "identifier")
            .and_where(Expr::col("id").is_in(wanted.clone()))
            .to_owned(),
    };
    let found: Vec<LabelRecord> = tx.all(&stmt).await?;
    let by_key: std::collections::HashMap<i64, &LabelRecord> =
        found.iter().map(|r| (r.key, r)).collect();
    let missing: Vec<String> = wanted
        .iter()
        .filter(|k| !by_key.contains_key(k))
        .map(|k| match of {
            TemplateType::Asset => format!("#{k}"),
            _ => k.to_string(),
        })
        .collect();
    if !missing.is_empty() {
        return Err(StoreError::invalid(
            field,
            format!(
                "names no {} of this company: {}",
                of.as_str(),
                missing.join(", ")
            ),
        ));
    }
    let records = keys.iter().map(|k| by_key[k].clone()).collect();
    Ok((template, records))
}

/// How long a print's link works.
pub const LINK_LIFETIME: Duration = Duration::hours(1);

/// A print kept: the token of its link and when the link stops working.
pub struct Saved {
    pub token: String,
    pub expires_at: DateTime<Utc>,
}

/// Keeps a print of `count` labels (`labels`, their JSON) on `template` and forgets the
/// company's expired ones.
#[tracing::instrument(level = "debug", skip_all)]
pub async fn save(
    db: &Db,
    company: CompanyId,
    template: &Template,
    labels: String,
    count: usize,
) -> Result<Saved, StoreError> {
    let at = now();
    let expires_at = at + LINK_LIFETIME;
    let token = generate_token().0;
    let mut tx = db.begin().await?;
    let expired = Query::delete()
        .from_table("label_prints")
        .and_where(Expr::col("company_id").eq(company.0))
        .and_where(Expr::col("expires_at").lt(at))
        .to_owned();
    tx.execute(&expired).await?;
    let insert = Query::insert()
        .into_table("label_prints")
        .columns([
            "company_id",
            "token_hash",
            "template_id",
            "label_count",
            "labels",
            "created_at",
            "expires_at",
        ])
        .values_panic([
            company.0.into(),
            hash_token(&token).into(),
            template.id.into(),
            (count as i64).into(),
            labels.into(),
            at.into(),
            expires_at.into(),
        ])
        .to_owned();
    tx.execute(&insert).await?;
    tx.commit().await?;
    Ok(Saved { token, expires_at })
}

/// A print whose link works: its PDF if it was rendered already, else what to render
/// it from (its template's sheet and its labels' JSON).
pub enum Print {
    Rendered(Vec<u8>),
    ToRender {
        sheet: labels::Sheet,
        labels: String,
    },
}

#[derive(crate::Row)]
struct PrintRow {
    company_id: i64,
    template_id: i64,
    labels: String,
    pdf: Option<Vec<u8>>,
}

/// The print whose link carries `token`, if the link still works: not expired, not
/// revoked ([`expire_all`]), and its company's API enabled (a company that turned its
/// API off shares nothing through label links either).
#[tracing::instrument(level = "debug", skip_all)]
pub async fn fetch(db: &Db, token: &str) -> Result<Option<Print>, StoreError> {
    let mut tx = db.begin_read().await?;
    let stmt = Query::select()
        .from("label_prints")
        .columns(["company_id", "template_id", "labels", "pdf"].map(|c| ("label_prints", c)))
        .inner_join(
            "companies",
            Expr::col(("companies", "id")).equals(("label_prints", "company_id")),
        )
        .and_where(Expr::col(("label_prints", "token_hash")).eq(hash_token(token)))
        .and_where(Expr::col(("label_prints", "expires_at")).gt(now()))
        .and_where(Expr::col(("companies", "api_enabled")).eq(true))
        .to_owned();
    let Some(row) = tx.optional::<PrintRow>(&stmt).await? else {
        return Ok(None);
    };
    if let Some(pdf) = row.pdf {
        return Ok(Some(Print::Rendered(pdf)));
    }
    let company = CompanyId(row.company_id);
    let template = label_templates::by_id(&mut tx, company, row.template_id).await?;
    Ok(Some(Print::ToRender {
        sheet: template.sheet,
        labels: row.labels,
    }))
}

/// Keeps the PDF rendered for the print whose link carries `token`, for the rest of
/// the link's life; the first PDF kept stays (two first GETs may both render).
#[tracing::instrument(level = "debug", skip_all)]
pub async fn keep_pdf(db: &Db, token: &str, pdf: &[u8]) -> Result<(), StoreError> {
    let mut tx = db.begin().await?;
    let stmt = Query::update()
        .table("label_prints")
        .value("pdf", pdf.to_vec())
        .and_where(Expr::col("token_hash").eq(hash_token(token)))
        .and_where(Expr::col("pdf").is_null())
        .to_owned();
    tx.execute(&stmt).await?;
    tx.commit().await?;
    Ok(())
}

/// Ends every label link of the company at once (they answer 404 from then on) and
/// forgets what their labels showed. Answers how many links were still open.
#[tracing::instrument(level = "debug", skip_all)]
pub async fn expire_all(db: &Db, company: CompanyId) -> Result<u64, StoreError> {
    let mut tx = db.begin().await?;
    let n = expire_in(&mut tx, company).await?;
    tx.commit().await?;
    Ok(n)
}

/// [`expire_all`] inside a transaction of the caller's (a regenerated token's).
pub(crate) async fn expire_in(tx: &mut Tx, company: CompanyId) -> Result<u64, StoreError> {
    let open = Query::delete()
        .from_table("label_prints")
        .and_where(Expr::col("company_id").eq(company.0))
        .and_where(Expr::col("expires_at").gt(now()))
        .to_owned();
    let n = tx.execute(&open).await?;
    let expired = Query::delete()
        .from_table("label_prints")
        .and_where(Expr::col("company_id").eq(company.0))
        .to_owned();
    tx.execute(&expired).await?;
    Ok(n)
}
