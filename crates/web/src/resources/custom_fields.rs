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
use crate::params::Params;
use crate::state::AppState;
use crate::views::{self, Moment, moment};

/// The most options a dropdown or checkbox field may have: every response that
/// shows the field lists them all.
pub const MAX_OPTIONS: usize = 500;

const FIELDS: &[(&str, &str)] = &[
    (
        "name",
        "required, unique in the company (case, spaces and underscores aside), at most 255 characters",
    ),
    (
        "field_type",
        "text, text_area, number, date, dropdown, checkbox, email or url; cannot change after creation",
    ),
    (
        "options][",
        "option names, in order, for dropdown and checkbox fields (required for them, refused for others); on update the full new list",
    ),
    (
        "applies_to][",
        "one or more of fixed_assets, inventory, asset_stock, members, vendors, customers, businesses, contacts, orders",
    ),
];

pub fn routes(api: Api) -> Api {
    api.route(
        "/custom_fields",
        get(list).post(create),
        Doc::new("Custom fields", "List custom fields, 25 a page, or create one (POST); a rentrack extension")
            .form("custom_field", FIELDS)
            .query(&[("page", "page number, default 1")])
            .returns_page("custom_fields")
            .returns("custom_field")
            .record::<CustomFieldJson<'_>>(),
    )
    .route(
        "/custom_fields/{id}",
        get(details).put_or_patch(update).delete(delete),
        Doc::new("Custom fields", "Custom field details (GET), update (PUT or PATCH) or delete (DELETE; records lose their values for it)")
            .form("custom_field", FIELDS)
            .returns("custom_field")
            .record::<CustomFieldJson<'_>>(),
    )
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

fn read_input(params: &Params, creating: bool) -> Result<FieldInput, ApiError> {
    let mut form = Form::new(params, "custom_field");
    let name = if creating {
        form.required_text("name")
    } else {
        form.optional_required_text("name")
    };
    let field_type = match params.get("custom_field[field_type]") {
        None if creating => {
            form.error(
                "field_type",
                format!("can't be blank: use one of {}", FieldType::names()),
            );
            None
        }
        None => None,
        Some(raw) => {
            let parsed = FieldType::parse_loosely(raw);
            if parsed.is_none() {
                form.error(
                    "field_type",
                    format!("must be one of {}", FieldType::names()),
                );
            }
            parsed
        }
    };
    let applies_to = if params.contains("custom_field[applies_to]") || creating {
        let mut targets = Vec::new();
        match params.list("custom_field[applies_to]", MAX_LIST_ENTRIES) {
            Ok(raws) => {
                for raw in raws {
                    match Target::parse_loosely(&raw) {
                        Some(t) => targets.push(t),
                        None => form.error(
                            "applies_to",
                            format!("has {raw:?}, which is not one of {}", Target::names()),
                        ),
                    }
                }
            }
            Err(too_long) => form.error("applies_to", too_long.to_string()),
        }
        let set = Targets::new(targets);
        if set.is_none() && !form.has_errors_for("applies_to") {
            form.error(
                "applies_to",
                format!("can't be blank: use one or more of {}", Target::names()),
            );
        }
        set
    } else {
        None
    };
    let options = if params.contains("custom_field[options]") {
        match params.list("custom_field[options]", MAX_OPTIONS) {
            Ok(names) => {
                let mut seen = HashSet::with_capacity(names.len());
                for name in &names {
                    if name.chars().count() > domain::Name::MAX_CHARS {
                        form.error(
                            "options",
                            format!("{name:?} is too long (maximum is 255 characters)"),
                        );
                    } else if name.contains(',') {
                        form.error(
                            "options",
                            format!("{name:?} has a comma, which separates checkbox choices"),
                        );
                    } else if !seen.insert(name.to_ascii_lowercase()) {
                        form.error("options", format!("{name:?} appears twice"));
                    }
                }
                Some(names)
            }
            Err(too_long) => {
                form.error("options", too_long.to_string());
                None
            }
        }
    } else {
        None
    };
    // On update only the store knows the field's type.
    if creating
        && !form.has_errors_for("options")
        && let Some(t) = field_type
        && let Err(problem) = t.check_options(options.as_deref(), true)
    {
        form.error("options", problem);
    }
    form.finish()?;
    Ok(FieldInput {
        name,
        field_type,
        applies_to,
        options,
    })
}

async fn list(
    State(state): State<AppState>,
    Tenant(company): Tenant,
    params: Params,
) -> Result<views::Reply, ApiError> {
    let page = views::page(&params, PageSize::DEFAULT)?;
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
    let input = read_input(&params, true)?;
    let field = custom_fields::create(state.db(), company.id, input).await?;
    Ok(views::one(
        "custom_field",
        render(&field, company.time_zone),
    ))
}

async fn details(
    State(state): State<AppState>,
    Tenant(company): Tenant,
    Id(id, _): Id<kind::CustomField>,
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
    Id(id, _): Id<kind::CustomField>,
    params: Params,
) -> Result<views::Reply, ApiError> {
    let input = read_input(&params, false)?;
    let field = custom_fields::update(state.db(), company.id, id, input).await?;
    Ok(views::one(
        "custom_field",
        render(&field, company.time_zone),
    ))
}

async fn delete(
    State(state): State<AppState>,
    Tenant(company): Tenant,
    Id(id, _): Id<kind::CustomField>,
) -> Result<views::Reply, ApiError> {
    let field = custom_fields::delete(state.db(), company.id, id).await?;
    Ok(views::one(
        "custom_field",
        render(&field, company.time_zone),
    ))
}
