//! Custom fields: their definitions and options, and the values records hold for them.
//! Records keep values in a JSON object keyed by field id, so renaming a field or an
//! option never touches the records, and a deleted field's values simply vanish.

use crate::CompanyId;
use crate::ids::{Id, Kind, kind};
use chrono::{DateTime, Utc};
use domain::Vocabulary;
use domain::custom_field::{FieldOption, FieldType, Target, Targets, lookup_key};
use domain::{Change, Page};
use sea_query::{Expr, ExprTrait, LockType, Order, Query, SelectStatement, Value};
use std::collections::{BTreeMap, HashMap};

use crate::{Db, PageOf, Reader, StoreError, Tx, change_log, now};

#[derive(Debug, Clone)]
pub struct CustomField {
    pub id: i64,
    pub name: String,
    pub field_type: FieldType,
    pub applies_to: Targets,
    pub options: Vec<FieldOption>,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
}

#[derive(crate::Row)]
struct FieldRow {
    id: i64,
    name: String,
    field_type: String,
    applies_to: String,
    created_at: DateTime<Utc>,
    updated_at: DateTime<Utc>,
}

#[derive(crate::Row)]
struct OptionRow {
    id: i64,
    custom_field_id: i64,
    name: String,
}

const COLUMNS: [&str; 6] = [
    "id",
    "name",
    "field_type",
    "applies_to",
    "created_at",
    "updated_at",
];

pub struct FieldInput {
    pub name: Option<String>,
    pub field_type: Option<FieldType>,
    pub applies_to: Option<Targets>,
    /// The full list of option names, in order, when given.
    pub options: Option<Vec<String>>,
}

/// The fields of a company that apply to one kind of record, in id order: what a
/// record's values are checked against and rendered with.
#[derive(Debug, Clone, Default)]
pub struct FieldSet(pub Vec<CustomField>);

impl FieldSet {
    pub fn by_name(&self, name: &str) -> Option<&CustomField> {
        let key = lookup_key(name);
        self.0.iter().find(|f| lookup_key(&f.name) == key)
    }

    /// Values by field name, for a record's stored JSON (keyed by field id).
    pub fn named_values(&self, stored: &str) -> BTreeMap<String, String> {
        if self.0.is_empty() {
            // Nothing to show: the stored text is not read.
            return BTreeMap::new();
        }
        let values: BTreeMap<String, String> = serde_json::from_str(stored).unwrap_or_default();
        self.0
            .iter()
            .filter_map(|f| {
                values
                    .get(&f.id.to_string())
                    .map(|v| (f.name.clone(), v.clone()))
            })
            .collect()
    }
}

/// Changes to a record's custom field values, by field.
pub type FieldValues = BTreeMap<Id<kind::CustomField>, Change<String>>;

/// Applies changes (by field id) to a record's stored values and returns the new JSON.
pub fn merge_values(stored: &str, changes: &FieldValues) -> String {
    let mut values: BTreeMap<String, String> = serde_json::from_str(stored).unwrap_or_default();
    for (id, change) in changes {
        match change {
            Change::Keep => {}
            Change::Set(v) => {
                values.insert(id.to_string(), v.clone());
            }
            Change::Clear => {
                values.remove(&id.to_string());
            }
        }
    }
    serde_json::to_string(&values).unwrap_or_else(|_| "{}".into())
}

/// The selects of the company's field definitions and their options, in order (of one
/// field with `only`).
fn definition_selects(company: CompanyId, only: Option<i64>) -> (SelectStatement, SelectStatement) {
    let mut fields = crate::scoped("custom_fields", company)
        .columns(COLUMNS)
        .order_by("id", Order::Asc)
        .to_owned();
    let mut options = crate::scoped("custom_field_options", company)
        .columns(["id", "custom_field_id", "name"])
        .order_by("custom_field_id", Order::Asc)
        .order_by("position", Order::Asc)
        .to_owned();
    if let Some(id) = only {
        fields.and_where(Expr::col("id").eq(id));
        options.and_where(Expr::col("custom_field_id").eq(id));
    }
    (fields, options)
}

async fn load(
    read: &mut Reader<'_>,
    company: CompanyId,
    only: Option<i64>,
) -> Result<Vec<CustomField>, StoreError> {
    let (fields, options) = definition_selects(company, only);
    let rows: Vec<FieldRow> = read.all(&fields).await?;
    let option_rows: Vec<OptionRow> = read.all(&options).await?;
    Ok(assemble(rows, option_rows))
}

fn assemble(rows: Vec<FieldRow>, option_rows: Vec<OptionRow>) -> Vec<CustomField> {
    rows.into_iter()
        .map(|r| CustomField {
            id: r.id,
            options: option_rows
                .iter()
                .filter(|o| o.custom_field_id == r.id)
                .map(|o| FieldOption {
                    id: o.id,
                    name: o.name.clone(),
                })
                .collect(),
            name: r.name,
            field_type: FieldType::parse_loosely(&r.field_type).unwrap_or(FieldType::Text),
            applies_to: Targets::from_stored(&r.applies_to),
            created_at: r.created_at,
            updated_at: r.updated_at,
        })
        .collect()
}

/// The company's fields that apply to any of `targets`, in id order (two queries,
/// whatever the count).
#[tracing::instrument(level = "debug", skip_all)]
pub async fn for_targets(
    db: &Db,
    company: CompanyId,
    targets: &[Target],
) -> Result<FieldSet, StoreError> {
    let fields = load(&mut db.read(), company, None).await?;
    Ok(FieldSet(
        fields
            .into_iter()
            .filter(|f| targets.iter().any(|t| f.applies_to.contains(*t)))
            .collect(),
    ))
}

#[tracing::instrument(level = "debug", skip_all)]
pub async fn list(
    db: &Db,
    company: CompanyId,
    page: Page,
) -> Result<PageOf<CustomField>, StoreError> {
    let rows: PageOf<FieldRow> = crate::paged(
        db,
        crate::scoped("custom_fields", company),
        COLUMNS,
        page,
        crate::Total::whole(company, "custom_fields"),
    )
    .await?;
    let ids: Vec<i64> = rows.records.iter().map(|r| r.id).collect();
    let options = crate::scoped("custom_field_options", company)
        .columns(["id", "custom_field_id", "name"])
        .and_where(Expr::col("custom_field_id").is_in(ids))
        .order_by("custom_field_id", Order::Asc)
        .order_by("position", Order::Asc)
        .to_owned();
    let option_rows: Vec<OptionRow> = db.read().all(&options).await?;
    Ok(PageOf {
        records: assemble(rows.records, option_rows),
        total: rows.total,
    })
}

#[tracing::instrument(level = "debug", skip_all)]
pub async fn find(
    db: &Db,
    company: CompanyId,
    id: Id<kind::CustomField>,
) -> Result<CustomField, StoreError> {
    load(&mut db.read(), company, Some(id.get()))
        .await?
        .pop()
        .ok_or(StoreError::NotFound(Kind::CustomField))
}

/// Writes the option list: names already present keep their ids (matched without
/// regard to case), new names get new ids, names left out are removed.
async fn write_options(
    tx: &mut Tx,
    company: CompanyId,
    field: i64,
    names: &[String],
    existing: &[FieldOption],
) -> Result<(), StoreError> {
    let by_name: HashMap<String, i64> = existing
        .iter()
        .map(|o| (o.name.to_ascii_lowercase(), o.id))
        .collect();
    let kept: Vec<i64> = names
        .iter()
        .filter_map(|n| by_name.get(&n.to_ascii_lowercase()).copied())
        .collect();
    let remove = Query::delete()
        .from_table("custom_field_options")
        .and_where(Expr::col("company_id").eq(company.0))
        .and_where(Expr::col("custom_field_id").eq(field))
        .and_where(Expr::col("id").is_not_in(kept))
        .to_owned();
    tx.execute(&remove).await?;
    for (position, name) in names.iter().enumerate() {
        let position = position as i64;
        match by_name.get(&name.to_ascii_lowercase()) {
            Some(&id) => {
                let stmt = Query::update()
                    .table("custom_field_options")
                    .values([
                        ("name", Expr::val(name.clone())),
                        ("position", Expr::val(position)),
                    ])
                    .and_where(Expr::col("company_id").eq(company.0))
                    .and_where(Expr::col("id").eq(id))
                    .to_owned();
                tx.execute(&stmt).await?;
            }
            None => {
                let stmt = Query::insert()
                    .into_table("custom_field_options")
                    .columns(["company_id", "custom_field_id", "name", "position"])
                    .values_panic([
                        company.0.into(),
                        field.into(),
                        name.clone().into(),
                        position.into(),
                    ])
                    .to_owned();
                tx.execute(&stmt).await?;
            }
        }
    }
    Ok(())
}

/// Creates a field; the HTTP layer has checked that name, type and targets are
/// present and that options come exactly with the types that take them.
#[tracing::instrument(level = "debug", skip_all)]
pub async fn create(
    db: &Db,
    company: CompanyId,
    input: FieldInput,
) -> Result<CustomField, StoreError> {
    let (Some(name), Some(field_type), Some(applies_to)) =
        (input.name, input.field_type, input.applies_to)
    else {
        return Err(StoreError::invalid("name", "can't be blank"));
    };
    let at = now();
    let stmt = Query::insert()
        .into_table("custom_fields")
        .columns([
            "company_id",
            "name",
            "lookup_key",
            "field_type",
            "applies_to",
            "created_at",
            "updated_at",
        ])
        .values_panic([
            company.0.into(),
            name.clone().into(),
            lookup_key(&name).into(),
            field_type.as_str().into(),
            applies_to.to_stored().into(),
            at.into(),
            at.into(),
        ])
        .returning(Query::returning().column("id"))
        .to_owned();
    let mut tx = db.begin().await?;
    let (id,): (i64,) = tx.one(&stmt).await?;
    write_options(
        &mut tx,
        company,
        id,
        &input.options.unwrap_or_default(),
        &[],
    )
    .await?;
    change_log::record(
        &mut tx,
        company,
        "custom_field",
        id,
        "created",
        serde_json::json!({"name": name, "field_type": field_type.as_str()}),
    )
    .await?;
    tx.commit().await?;
    find(db, company, Id::new(id)).await
}

/// Updates a field. Its type cannot change and the options sent must suit it
/// (`FieldType::check_kept` and `check_options`).
#[tracing::instrument(level = "debug", skip_all)]
pub async fn update(
    db: &Db,
    company: CompanyId,
    id: Id<kind::CustomField>,
    input: FieldInput,
) -> Result<CustomField, StoreError> {
    let mut tx = db.begin().await?;
    let current = {
        let (mut fields, options) = definition_selects(company, Some(id.get()));
        let fields: Vec<FieldRow> = tx.all(&fields.lock(LockType::Update).to_owned()).await?;
        let options: Vec<OptionRow> = tx.all(&options).await?;
        assemble(fields, options)
            .pop()
            .ok_or(StoreError::NotFound(Kind::CustomField))?
    };
    if let Some(t) = input.field_type {
        current
            .field_type
            .check_kept(t)
            .map_err(|problem| StoreError::invalid("field_type", problem))?;
    }
    current
        .field_type
        .check_options(input.options.as_deref(), false)
        .map_err(|problem| StoreError::invalid("options", problem))?;
    let mut values: Vec<(&'static str, Value)> = vec![("updated_at", now().into())];
    if let Some(name) = &input.name {
        values.push(("name", name.clone().into()));
        values.push(("lookup_key", lookup_key(name).into()));
    }
    if let Some(targets) = &input.applies_to {
        values.push(("applies_to", targets.to_stored().into()));
    }
    let stmt = Query::update()
        .table("custom_fields")
        .values(values.into_iter().map(|(c, v)| (c, Expr::val(v))))
        .and_where(Expr::col("company_id").eq(company.0))
        .and_where(Expr::col("id").eq(id))
        .to_owned();
    tx.execute(&stmt).await?;
    if let Some(names) = &input.options {
        write_options(&mut tx, company, id.get(), names, &current.options).await?;
    }
    change_log::record(
        &mut tx,
        company,
        "custom_field",
        id.get(),
        "updated",
        serde_json::json!({"name": input.name.unwrap_or(current.name)}),
    )
    .await?;
    tx.commit().await?;
    find(db, company, id).await
}

#[tracing::instrument(level = "debug", skip_all)]
pub async fn delete(
    db: &Db,
    company: CompanyId,
    id: Id<kind::CustomField>,
) -> Result<CustomField, StoreError> {
    let field = find(db, company, id).await?;
    let mut tx = db.begin().await?;
    crate::removal::delete(
        &mut tx,
        company,
        "custom_fields",
        id,
        "custom_field",
        &field.name,
    )
    .await?;
    tx.commit().await?;
    Ok(field)
}
