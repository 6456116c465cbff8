//! Print label templates (`/print_label_templates`): a page grid of equal labels for
//! one kind of record (asset, member, location), lengths in tenths of a millimetre.
//! Every company has the standard ones from the start ([`seed`], in the company's
//! creating transaction; migration 0016 for companies made before it), the roll label
//! being each type's default. A template is the default of its type at most once (a
//! partial unique index); a new default takes over from the old in one transaction.

use crate::CompanyId;
use crate::ids::{Id, kind};
use chrono::{DateTime, Utc};
use domain::label::TemplateType;
use domain::refusal::{Listed, Problem};
use domain::{Page, Vocabulary};
use labels::{Sheet, SheetSpec};
use sea_query::{Expr, ExprTrait, Query};

use crate::{Db, PageOf, StoreError, Tx, change_log, now};

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Template {
    pub id: i64,
    pub description: String,
    pub template_type: TemplateType,
    pub sheet: Sheet,
    pub is_default: bool,
    pub created_at: DateTime<Utc>,
}

#[derive(crate::Row)]
struct TemplateRow {
    id: i64,
    description: String,
    template_type: String,
    page_width: i32,
    page_height: i32,
    label_width: i32,
    label_height: i32,
    columns: i32,
    rows: i32,
    margin_left: i32,
    margin_top: i32,
    gap_x: i32,
    gap_y: i32,
    is_default: bool,
    created_at: DateTime<Utc>,
}

const COLUMNS: [&str; 15] = [
    "id",
    "description",
    "template_type",
    "page_width",
    "page_height",
    "label_width",
    "label_height",
    "columns",
    "rows",
    "margin_left",
    "margin_top",
    "gap_x",
    "gap_y",
    "is_default",
    "created_at",
];

impl TryFrom<TemplateRow> for Template {
    type Error = StoreError;

    /// The CHECKs and the create's validation keep every row readable; one that is not
    /// is a decode error.
    fn try_from(r: TemplateRow) -> Result<Self, StoreError> {
        let bad = |what: String| {
            StoreError::Database(crate::DbError::decode(format!(
                "print label template {}: {what}",
                r.id
            )))
        };
        let template_type = TemplateType::parse(&r.template_type)
            .ok_or_else(|| bad(format!("type {:?}", r.template_type)))?;
        let n = |v: i32| u32::try_from(v).unwrap_or(0);
        let sheet = Sheet::new(SheetSpec {
            page_width: n(r.page_width),
            page_height: n(r.page_height),
            label_width: n(r.label_width),
            label_height: n(r.label_height),
            columns: n(r.columns),
            rows: n(r.rows),
            margin_left: n(r.margin_left),
            margin_top: n(r.margin_top),
            gap_x: n(r.gap_x),
            gap_y: n(r.gap_y),
        })
        .map_err(|e| bad(e.to_string()))?;
        Ok(Template {
            id: r.id,
            description: r.description,
            template_type,
            sheet,
            is_default: r.is_default,
            created_at: r.created_at,
        })
    }
}

/// The company's templates, all or of one type, oldest first.
#[tracing::instrument(level = "debug", skip_all)]
pub async fn list(
    db: &Db,
    company: CompanyId,
    of: Option<TemplateType>,
    page: Page,
) -> Result<PageOf<Template>, StoreError> {
    let types: Vec<TemplateType> = of.map_or_else(|| TemplateType::ALL.to_vec(), |t| vec![t]);
    let total = crate::Total::of(company, types.iter().map(|t| Counted(*t)));
    let mut base = crate::scoped("print_label_templates", company);
    if let Some(t) = of {
        base.and_where(Expr::col("template_type").eq(t.as_str()));
    }
    let rows: PageOf<TemplateRow> = crate::paged(db, base, COLUMNS, page, total).await?;
    Ok(PageOf {
        records: rows
            .records
            .into_iter()
            .map(Template::try_from)
            .collect::<Result<_, _>>()?,
        total: rows.total,
    })
}

/// What a new template is.
pub struct NewTemplate {
    pub description: String,
    pub template_type: TemplateType,
    pub sheet: Sheet,
    pub is_default: bool,
}

/// A new template; made the default, it takes over from its type's old default.
#[tracing::instrument(level = "debug", skip_all)]
pub async fn create(db: &Db, company: CompanyId, new: NewTemplate) -> Result<Template, StoreError> {
    let mut tx = db.begin().await?;
    if new.is_default {
        // Serialises new defaults of the company: on PostgreSQL the second would
        // otherwise clear nothing (the first's default not yet visible) and break the
        // one-default index.
        crate::counters::next(
            &mut tx,
            company,
            crate::counters::Sequence::LabelTemplateDefaults,
        )
        .await?;
        let clear = Query::update()
            .table("print_label_templates")
            .value("is_default", false)
            .and_where(Expr::col("company_id").eq(company.0))
            .and_where(Expr::col("template_type").eq(new.template_type.as_str()))
            .and_where(Expr::col("is_default").eq(crate::constant(true)))
            .to_owned();
        tx.execute(&clear).await?;
    }
    let template = insert(&mut tx, company, &[new], now()).await?.remove(0);
    change_log::record(
        &mut tx,
        company,
        "print_label_template",
        template.id,
        "created",
        serde_json::json!({
            "description": template.description,
            "template_type": template.template_type.as_str(),
            "default": template.is_default,
        }),
    )
    .await?;
    tx.commit().await?;
    Ok(template)
}

/// The template `id` for `of` labels, or the type's default without an id. An id that
/// is no template of the company, or one of another type, is a 422 on `template_id`.
pub async fn for_print(
    tx: &mut Tx,
    company: CompanyId,
    of: TemplateType,
    id: Option<Id<kind::LabelTemplate>>,
) -> Result<Template, StoreError> {
    let mut stmt = crate::scoped("print_label_templates", company)
        .columns(COLUMNS)
        .to_owned();
    match id {
        Some(id) => stmt.and_where(Expr::col("id").eq(id)),
        None => stmt
            .and_where(Expr::col("template_type").eq(of.as_str()))
            .and_where(Expr::col("is_default").eq(crate::constant(true))),
    };
    let template: Template = match tx.optional::<TemplateRow>(&stmt).await? {
        Some(row) => row.try_into()?,
        None => {
            return Err(StoreError::invalid(
                "template_id",
                match id {
                    Some(id) => Problem::NotInCompany {
                        list: Listed::LabelTemplates {
                            template_type: of.as_str().to_owned(),
                        },
                        value: id.to_string(),
                    },
                    None => Problem::from(format!(
                        "is needed: the company has no default {} template",
                        of.as_str()
                    )),
                },
            ));
        }
    };
    if template.template_type != of {
        return Err(StoreError::invalid(
            "template_id",
            format!(
                "{} is a template for {} labels, not {} labels",
                template.id,
                template.template_type.as_str(),
                of.as_str()
            ),
        ));
    }
    Ok(template)
}

/// The template `id` (a print's, which the foreign key keeps).
pub(crate) async fn by_id(
    tx: &mut Tx,
    company: CompanyId,
    id: i64,
) -> Result<Template, StoreError> {
    let stmt = crate::scoped("print_label_templates", company)
        .columns(COLUMNS)
        .and_where(Expr::col("id").eq(id))
        .to_owned();
    tx.one::<TemplateRow>(&stmt).await?.try_into()
}

/// Gives a new company the standard templates of every type, in the transaction
/// creating it.
pub(crate) async fn seed(
    tx: &mut Tx,
    company: CompanyId,
    at: DateTime<Utc>,
) -> Result<(), StoreError> {
    let mut all = Vec::new();
    for t in TemplateType::ALL {
        for (i, (description, spec)) in labels::STANDARD.iter().enumerate() {
            all.push(NewTemplate {
                description: (*description).to_owned(),
                template_type: *t,
                sheet: Sheet::new(*spec).expect("the standard templates fit"),
                is_default: i == 0,
            });
        }
    }
    insert(tx, company, &all, at).await?;
    Ok(())
}

/// Inserts `templates` in one statement, in order.
async fn insert(
    tx: &mut Tx,
    company: CompanyId,
    templates: &[NewTemplate],
    at: DateTime<Utc>,
) -> Result<Vec<Template>, StoreError> {
    let mut stmt = Query::insert()
        .into_table("print_label_templates")
        .columns([
            "company_id",
            "description",
            "template_type",
            "page_width",
            "page_height",
            "label_width",
            "label_height",
            "columns",
            "rows",
            "margin_left",
            "margin_top",
            "gap_x",
            "gap_y",
            "is_default",
            "created_at",
            "updated_at",
        ])
        .returning(Query::returning().columns(COLUMNS))
        .to_owned();
    for t in templates {
        let s = t.sheet.spec();
        let n = |v: u32| i64::from(v);
        stmt.values_panic([
            company.0.into(),
            t.description.clone().into(),
            t.template_type.as_str().into(),
            n(s.page_width).into(),
            n(s.page_height).into(),
            n(s.label_width).into(),
            n(s.label_height).into(),
            n(s.columns).into(),
            n(s.rows).into(),
            n(s.margin_left).into(),
            n(s.margin_top).into(),
            n(s.gap_x).into(),
            n(s.gap_y).into(),
            t.is_default.into(),
            at.into(),
            at.into(),
        ]);
    }
    let rows: Vec<TemplateRow> = tx.all(&stmt).await?;
    let mut all: Vec<Template> = rows
        .into_iter()
        .map(Template::try_from)
        .collect::<Result<_, _>>()?;
    all.sort_by_key(|t| t.id);
    Ok(all)
}

/// The partitions of `list_counts` print label templates are counted in (migration
/// 0016's trigger): one per template type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Counted(TemplateType);

impl crate::Partition for Counted {
    const ALL: &'static [Self] = &[
        Counted(TemplateType::Asset),
        Counted(TemplateType::Member),
        Counted(TemplateType::Location),
    ];

    fn key(self) -> &'static str {
        match self.0 {
            TemplateType::Asset => "print_label_templates:asset",
            TemplateType::Member => "print_label_templates:member",
            TemplateType::Location => "print_label_templates:location",
        }
    }
}
