//! Custom fields (a rentrack extension): `/custom_fields.api`, `/custom_fields/{id}.api`.

use axum::extract::State;
use domain::PageSize;
use domain::Vocabulary;
use domain::custom_field::{FieldType, Target, Targets};
use serde::{Serialize, Serializer};
use std::collections::HashSet;
use store::custom_fields::{self, CustomField, FieldInput};

use crate::api::{Api, Doc, get};
use crate::auth::Tenant;
use crate::error::ApiError;
use crate::form::{Form, MAX_LIST_ENTRIES};
use crate::ids::{Id, kind};
use crate::input::{Format, Input, PageQuery, Shape, ShortText, Word};
use crate::params::Params;
use crate::state::AppState;
use crate::views::{self, Moment, moment};

/// The most options a dropdown or checkbox field may have: every response that
/// shows the field lists them all.
pub const MAX_OPTIONS: usize = 500;

pub fn routes(api: Api) -> Api {
    api.route(
        "/custom_fields",
        get(list).post(create),
        Doc::new("Custom fields", "List custom fields, 25 a page, or create one (POST); a rentrack extension")
            .input::<NewField>()
            .params::<PageQuery>()
            .returns_page("custom_fields")
            .returns("custom_field")
            .record::<CustomFieldJson<'_>>(),
    )
    .route(
        "/custom_fields/{id}",
        get(details).put_or_patch(update).delete(delete),
        Doc::new("Custom fields", "Custom field details (GET), update (PUT or PATCH) or delete (DELETE; records lose their values for it)")
            .input::<FieldChanges>()
            .returns("custom_field")
            .record::<CustomFieldJson<'_>>(),
    )
}

/// A new custom field.
#[derive(Input)]
#[input(resource = "custom_field")]
struct NewField {
    /// Unique in the company (case, spaces and underscores aside), at most 255
    /// characters.
    #[input(format = ShortText)]
    name: String,
    /// It cannot change after creation.
    #[input(format = Word<FieldType>)]
    field_type: FieldType,
    /// The kinds of record it applies to: one or more.
    #[input(format = TargetList)]
    applies_to: Targets,
    /// Option names, in order, for dropdown and checkbox fields (required for them,
    /// refused for others).
    #[input(format = OptionNames)]
    options: Option<Vec<String>>,
}

/// A custom field's changes: what is left out is kept.
#[derive(Input)]
#[input(resource = "custom_field")]
struct FieldChanges {
    /// Unique in the company (case, spaces and underscores aside), at most 255
    /// characters.
    #[input(format = ShortText)]
    name: Option<String>,
    /// The field's type: it cannot change, so only its own type is taken.
    #[input(format = Word<FieldType>)]
    field_type: Option<FieldType>,
    /// The kinds of record it applies to: one or more.
    #[input(format = TargetList)]
    applies_to: Option<Targets>,
    /// The full new list of option names, in order (dropdown and checkbox fields
    /// only; never empty).
    #[input(format = OptionNames)]
    options: Option<Vec<String>>,
}

/// The kinds of record a field applies to: repeated `applies_to[]` or a comma list,
/// each a word of [`Target`]; sent, it must name one.
struct TargetList;

impl Format for TargetList {
    type Value = Targets;
    const SHAPE: Shape = Shape::List;

    fn read(params: &Params, path: &str) -> Option<Result<Targets, String>> {
        if !params.contains(path) {
            return None;
        }
        let raws = match params.list(path, MAX_LIST_ENTRIES) {
            Ok(raws) => raws,
            Err(bad) => return Some(Err(bad.to_string())),
        };
        let mut targets = Vec::with_capacity(raws.len());
        let mut bad = Vec::new();
        for raw in raws {
            match Target::parse_loosely(&raw) {
                Some(t) => targets.push(t),
                None => bad.push(format!("{raw:?}")),
            }
        }
        if !bad.is_empty() {
            return Some(Err(format!(
                "has {}, which is not one of {}",
                bad.join(", "),
                Target::names()
            )));
        }
        Some(Targets::new(targets).ok_or_else(Self::blank))
    }

    fn schema() -> serde_json::Value {
        let words: Vec<&str> = Target::ALL.iter().map(|t| t.as_str()).collect();
        serde_json::json!({
            "type": "array",
            "items": {"type": "string", "enum": words},
            "minItems": 1,
            "maxItems": MAX_LIST_ENTRIES,
        })
    }

    fn blank() -> String {
        format!("can't be blank: use one or more of {}", Target::names())
    }
}

/// Option names: repeated `options[]` (or a comma list), at most [`MAX_OPTIONS`],
/// each at most 255 characters, without a comma, and no two the same but for case.
struct OptionNames;

impl Format for OptionNames {
    type Value = Vec<String>;
    const SHAPE: Shape = Shape::List;

    fn read(params: &Params, path: &str) -> Option<Result<Vec<String>, String>> {
        if !params.contains(path) {
            return None;
        }
        let names = match params.list(path, MAX_OPTIONS) {
            Ok(names) => names,
            Err(bad) => return Some(Err(bad.to_string())),
        };
        let mut seen = HashSet::with_capacity(names.len());
        let mut problems = Vec::new();
        for name in &names {
            if name.chars().count() > domain::Name::MAX_CHARS {
                problems.push(format!("{name:?} is too long (maximum is 255 characters)"));
            } else if name.contains(',') {
                problems.push(format!(
                    "{name:?} has a comma, which separates checkbox choices"
                ));
            } else if !seen.insert(name.to_ascii_lowercase()) {
                problems.push(format!("{name:?} appears twice"));
            }
        }
        Some(if problems.is_empty() {
            Ok(names)
        } else {
            Err(problems.join("; "))
        })
    }

    fn schema() -> serde_json::Value {
        serde_json::json!({
            "type": "array",
            "items": {
                "type": "string",
                "minLength": 1,
                "maxLength": domain::Name::MAX_CHARS,
                "pattern": r"^\s*[^,\s](?:[^,]*[^,\s])?\s*$",
            },
            "maxItems": MAX_OPTIONS,
            // Case aside too, which no schema says.
            "uniqueItems": true,
        })
    }
}

/// A custom field as the contract shows it.
#[derive(Serialize, utoipa::ToSchema)]
#[schema(as = CustomField)]
pub struct CustomFieldJson<'a> {
    id: i64,
    name: &'a str,
    #[schema(
        value_type = String,
        pattern = "^(text|text_area|number|date|dropdown|checkbox|email|url)$"
    )]
    field_type: &'static str,
    /// The kinds of record the field applies to.
    applies_to: Vec<AppliesTo>,
    /// Its options, in order (dropdown and checkbox fields; empty for others).
    options: Vec<OptionJson<'a>>,
    created_at: Moment,
    updated_at: Moment,
}

/// A kind of record a custom field applies to.
pub struct AppliesTo(Target);

impl Serialize for AppliesTo {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.0.as_str())
    }
}

impl utoipa::PartialSchema for AppliesTo {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        utoipa::openapi::ObjectBuilder::new()
            .schema_type(utoipa::openapi::schema::Type::String)
            .enum_values(Some(Target::ALL.iter().map(|t| t.as_str())))
            .description(Some("A kind of record a custom field applies to"))
            .into()
    }
}

impl utoipa::ToSchema for AppliesTo {
    fn name() -> std::borrow::Cow<'static, str> {
        "CustomFieldTarget".into()
    }
}

/// An option of a dropdown or checkbox field: records hold its id.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(as = CustomFieldOption)]
struct OptionJson<'a> {
    id: i64,
    name: &'a str,
}

pub fn render(f: &CustomField, tz: chrono_tz::Tz) -> CustomFieldJson<'_> {
    CustomFieldJson {
        id: f.id,
        name: &f.name,
        field_type: f.field_type.as_str(),
        applies_to: f.applies_to.iter().map(AppliesTo).collect(),
        options: f
            .options
            .iter()
            .map(|o| OptionJson {
                id: o.id,
                name: &o.name,
            })
            .collect(),
        created_at: moment(f.created_at, tz),
        updated_at: moment(f.updated_at, tz),
    }
}

/// A new field, with its options checked against its type whatever else failed.
fn read_new(params: &Params) -> Result<FieldInput, ApiError> {
    let mut form = Form::new(params, "custom_field");
    let input = NewField::read(&mut form);
    if !form.has_errors_for("options")
        && let Some(t) = form.peek::<Word<FieldType>>("field_type")
        && let Err(problem) = t.check_options(form.peek::<OptionNames>("options").as_deref(), true)
    {
        form.error("options", problem);
    }
    let input = form.finish_with(input)?;
    Ok(FieldInput {
        name: Some(input.name),
        field_type: Some(input.field_type),
        applies_to: Some(input.applies_to),
        options: input.options,
    })
}

async fn list(
    State(state): State<AppState>,
    Tenant(company): Tenant,
    params: Params,
) -> Result<views::Reply, ApiError> {
    let page = PageQuery::parse(&params)?.page(PageSize::DEFAULT);
    let records = custom_fields::list(state.db(), company.id, page).await?;
    Ok(views::paged("custom_fields", page, &records, |f| {
        render(f, company.time_zone)
    }))
}

async fn create(
    State(state): State<AppState>,
    Tenant(company): Tenant,
    params: Params,
) -> Result<views::Reply, ApiError> {
    let input = read_new(&params)?;
    let field = custom_fields::create(state.db(), company.id, input).await?;
    Ok(views::one(
        "custom_field",
        render(&field, company.time_zone),
    ))
}

async fn details(
    State(state): State<AppState>,
    Tenant(company): Tenant,
    Id(id): Id<kind::CustomField>,
) -> Result<views::Reply, ApiError> {
    let field = custom_fields::find(state.db(), company.id, id).await?;
    Ok(views::one(
        "custom_field",
        render(&field, company.time_zone),
    ))
}

async fn update(
    State(state): State<AppState>,
    Tenant(company): Tenant,
    Id(id): Id<kind::CustomField>,
    params: Params,
) -> Result<views::Reply, ApiError> {
    // On update only the store knows the field's type, and checks the options.
    let changes = FieldChanges::parse(&params)?;
    let input = FieldInput {
        name: changes.name,
        field_type: changes.field_type,
        applies_to: changes.applies_to,
        options: changes.options,
    };
    let field = custom_fields::update(state.db(), company.id, id, input).await?;
    Ok(views::one(
        "custom_field",
        render(&field, company.time_zone),
    ))
}

async fn delete(
    State(state): State<AppState>,
    Tenant(company): Tenant,
    Id(id): Id<kind::CustomField>,
) -> Result<views::Reply, ApiError> {
    let field = custom_fields::delete(state.db(), company.id, id).await?;
    Ok(views::one(
        "custom_field",
        render(&field, company.time_zone),
    ))
}
