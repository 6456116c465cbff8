//! Members: `/members.api`, `/members/{id}.api`, `/members/{id}/activate.api`,
//! `/members/{id}/deactivate.api`.

use axum::extract::State;
use domain::custom_field::Target;
use domain::member::{MemberFilter, Role};
use domain::refusal::Forbidden;
use domain::{Change, CompanyId, PageSize};
use serde::ser::{Serialize, Serializer};
use store::address_block::AddressBlock;
use store::custom_fields::FieldSet;
use store::members::{self, MemberInput, MemberView};

use crate::address_block;
use crate::api::{Api, Doc, get, put_or_patch};
use crate::auth::Tenant;
use crate::custom_attributes::{self, CustomAttributes, Keyed, WithFields};
use crate::error::ApiError;
use crate::form::Form;
use crate::ids::{Id, kind};
use crate::params::Params;
use crate::state::AppState;
use crate::views::{self, Moment, Object, moment};

const FIELDS: &[(&str, &str)] = &[
    (
        "email",
        "required unless login_enabled is false; unique in the company (case aside)",
    ),
    ("first_name", "required"),
    ("last_name", "required"),
    (
        "role_id",
        "required: 1 administrator, 2 staff, or the id of a custom role",
    ),
    ("employee_id", "text: the employee identification number"),
    ("user_listing_id", "text"),
    (
        "team_ids][",
        "ids of the company's teams; on update the full new list (send it empty to clear)",
    ),
    ("address_name", "text"),
    ("address", "text"),
    ("address_line_2", "text"),
    ("city", "text"),
    ("state", "text"),
    ("zipcode", "text"),
    ("country", "two-letter code (ISO 3166-1 alpha-2)"),
    ("phone_number", "text"),
    ("fax", "text"),
    ("login_enabled", "boolean, default true"),
    ("subscribed_to_emails", "boolean, default true"),
    (
        "custom_attributes][<field name>",
        "value of a custom field that applies to members; underscores stand for spaces; null clears",
    ),
];

const ATTRIBUTES: &str = "user[custom_attributes]";

pub fn routes(api: Api) -> Api {
    api.route(
        "/members",
        get(list).post(create),
        Doc::new("Members", "List members, 25 a page (GET), or create one (POST)")
            .form("user", FIELDS)
            .query(&[
                ("skip_confirmation_email", "boolean; accepted (rentrack sends no e-mail)"),
                ("page", "page number, default 1"),
                ("filter", "email, employee_identification_number or status"),
                ("filter_val", "the e-mail (URL-encoded), the employee id, or a status: active, inactive, login, non_login, all"),
                ("include_custom_fields", "boolean: custom field values also as top-level keys"),
            ])
            .returns_page("members")
            .returns("member")
            .record::<Keyed<MemberShape>>(),
    )
    .route(
        "/members/{id}",
        get(details).put_or_patch(update),
        Doc::new("Members", "Member details (GET) or update (PUT or PATCH: fields left out are kept; 403 for the company owner)")
            .form("user", FIELDS)
            .query(&[("include_custom_fields", "boolean"), ("skip_confirmation_email", "boolean; accepted")])
            .returns("member")
            .record::<Keyed<MemberShape>>(),
    )
    .route("/members/{id}/activate", put_or_patch(activate), Doc::new("Members", "Activate a member (PUT or PATCH)").returns("member").record::<Keyed<MemberShape>>())
    .route(
        "/members/{id}/deactivate",
        put_or_patch(deactivate),
        Doc::new("Members", "Deactivate a member (PUT or PATCH; 403 for the company owner)")
            .returns("member")
            .record::<Keyed<MemberShape>>(),
    )
}

/// A member as the contract shows it.
// For the document only: `WithFields<MemberView>` writes these keys by hand, the address
// block's too (`extend`), and custom fields as keys (`custom_attributes::Keyed`).
#[derive(utoipa::ToSchema)]
#[schema(as = Member)]
#[allow(dead_code)]
pub struct MemberShape {
    id: i64,
    /// `null` for a member who cannot log in and was given none.
    email: Option<String>,
    first_name: String,
    last_name: String,
    /// The first and last name, with a space between.
    full_name: String,
    /// The employee identification number (sent as `employee_id`).
    employee_identification_number: Option<String>,
    user_listing_id: Option<String>,
    /// 1 administrator, 2 staff, or the id of a custom role.
    role_id: i64,
    /// `Administrator`, `Staff`, or the custom role's name.
    role_name: String,
    #[schema(value_type = String, pattern = "^(active|inactive)$")]
    status: &'static str,
    login_enabled: bool,
    subscribed_to_emails: bool,
    /// Whether the member is the company's owner (whose details the API does not change).
    owner: bool,
    /// The ids of the member's teams, ascending.
    team_ids: Vec<i64>,
    created_at: Moment,
    updated_at: Moment,
    custom_attributes: CustomAttributes,
}

impl custom_attributes::Shape for MemberShape {
    fn extend(record: &mut utoipa::openapi::schema::Object) {
        address_block::document(record, AddressBlock::MEMBER_NAMES);
    }
}

pub fn render<'a>(
    view: &'a MemberView,
    tz: chrono_tz::Tz,
    fields: &'a FieldSet,
    include: bool,
) -> WithFields<'a, MemberView> {
    WithFields::new(view, tz, fields, include)
}

impl Serialize for WithFields<'_, MemberView> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let (m, tz) = (&self.record.member, self.tz);
        let mut o = Object::start(s)?;
        o.entry("id", &m.id)?;
        o.entry("email", &m.email)?;
        o.entry("first_name", &m.first_name)?;
        o.entry("last_name", &m.last_name)?;
        o.entry(
            "full_name",
            &format_args!("{} {}", m.first_name, m.last_name),
        )?;
        o.entry("employee_identification_number", &m.employee_id)?;
        o.entry("user_listing_id", &m.user_listing_id)?;
        o.entry("role_id", &m.role_id)?;
        o.entry("role_name", &m.role_name())?;
        o.entry("status", if m.active { "active" } else { "inactive" })?;
        o.entry("login_enabled", &m.login_enabled)?;
        o.entry("subscribed_to_emails", &m.subscribed_to_emails)?;
        o.entry("owner", &m.is_owner)?;
        o.entry("team_ids", &self.record.team_ids)?;
        o.entry("created_at", &moment(m.created_at, tz))?;
        o.entry("updated_at", &moment(m.updated_at, tz))?;
        address_block::write(&mut o, AddressBlock::MEMBER_NAMES, &m.address_block)?;
        custom_attributes::write(&mut o, self.fields, &m.custom_attributes, self.include)?;
        o.end()
    }
}

/// Reads `user[...]`. First and last name, role and (unless login is disabled) e-mail
/// are required on create; an update may leave them out (kept) but not clear them
/// (docs/api.md, "Updates"), and the store decides about the e-mail, since it knows
/// whether the member can log in.
async fn read_input(
    state: &AppState,
    company: CompanyId,
    params: &Params,
    creating: bool,
) -> Result<MemberInput, ApiError> {
    let mut form = Form::new(params, "user");
    let fields = custom_attributes::fields_for_input(
        state.db(),
        company,
        Target::Members,
        &form,
        ATTRIBUTES,
    )
    .await?;
    let login_enabled = form.boolean("login_enabled");
    let email = form.email("email").map(|e| e.to_lowercase());
    // Said here on create so that one 422 names every missing field; on update only
    // the store knows whether the member can log in.
    if creating
        && !form.has_errors_for("email")
        && let Err(problem) = domain::login::check_email(
            login_enabled.unwrap_or(domain::login::MEMBER_DEFAULT),
            email.as_set().map(String::as_str),
        )
    {
        form.error("email", problem);
    }
    let (first_name, last_name, role) = match creating {
        true => (
            form.required_text("first_name"),
            form.required_text("last_name"),
            form.required_id("role_id"),
        ),
        false => (
            form.optional_required_text("first_name"),
            form.optional_required_text("last_name"),
            match form.id("role_id") {
                Change::Set(id) => Some(id),
                Change::Keep => None,
                Change::Clear => {
                    form.error("role_id", "can't be blank: a member has a role");
                    None
                }
            },
        ),
    };
    let role = role.and_then(|id| {
        let role = Role::from_id(id);
        if role.is_none() {
            form.error(
                "role_id",
                "must be 1 (administrator), 2 (staff) or a custom role id",
            );
        }
        role
    });
    let team_ids = form.id_list("team_ids");
    let employee_id = form.text("employee_id");
    let user_listing_id = form.text("user_listing_id");
    let address_block = address_block::read(&mut form, AddressBlock::MEMBER_NAMES);
    let subscribed_to_emails = form.boolean("subscribed_to_emails");
    if let Some(raw) = params.get("skip_confirmation_email")
        && domain::wire::parse_bool(raw).is_none()
    {
        form.error("skip_confirmation_email", "must be true or false");
    }
    let custom_attributes =
        custom_attributes::read(&mut form, ATTRIBUTES, &fields, Target::Members);
    form.finish()?;
    Ok(MemberInput {
        email,
        first_name,
        last_name,
        role,
        team_ids,
        employee_id,
        user_listing_id,
        address_block,
        login_enabled,
        subscribed_to_emails,
        custom_attributes,
    })
}

impl custom_attributes::Attributed for MemberView {
    fn stored_values(&self) -> &str {
        &self.member.custom_attributes
    }
}

async fn answer(
    state: &AppState,
    company: &store::companies::Company,
    view: MemberView,
    include: bool,
) -> Result<views::Reply, ApiError> {
    let fields =
        custom_attributes::fields_for_output(state.db(), company.id, &[Target::Members], [&view])
            .await?;
    Ok(views::one(
        "member",
        render(&view, company.time_zone, &fields, include),
    ))
}

async fn create(
    State(state): State<AppState>,
    Tenant(company): Tenant,
    params: Params,
) -> Result<views::Reply, ApiError> {
    let input = read_input(&state, company.id, &params, true).await?;
    let member = members::create(state.db(), company.id, input).await?;
    answer(&state, &company, member, true).await
}

async fn list(
    State(state): State<AppState>,
    Tenant(company): Tenant,
    params: Params,
) -> Result<views::Reply, ApiError> {
    let include = views::flag(&params, "include_custom_fields")?;
    let page = views::page(&params, PageSize::DEFAULT)?;
    let filter = MemberFilter::parse(params.get("filter"), params.get("filter_val"))
        .map_err(ApiError::filter)?;
    let records = members::list(state.db(), company.id, &filter, page).await?;
    let fields = custom_attributes::fields_for_output(
        state.db(),
        company.id,
        &[Target::Members],
        &records.records,
    )
    .await?;
    Ok(views::paged("members", page, &records, |m| {
        render(m, company.time_zone, &fields, include)
    }))
}

async fn details(
    State(state): State<AppState>,
    Tenant(company): Tenant,
    Id(id, _): Id<kind::Member>,
    params: Params,
) -> Result<views::Reply, ApiError> {
    let include = views::flag(&params, "include_custom_fields")?;
    let member = members::find(state.db(), company.id, id).await?;
    answer(&state, &company, member, include).await
}

async fn update(
    State(state): State<AppState>,
    Tenant(company): Tenant,
    Id(id, _): Id<kind::Member>,
    params: Params,
) -> Result<views::Reply, ApiError> {
    let existing = members::find(state.db(), company.id, id).await?;
    if existing.member.is_owner {
        return Err(store::StoreError::Forbidden(Forbidden::OwnerDetails).into());
    }
    let input = read_input(&state, company.id, &params, false).await?;
    let member = members::update(state.db(), company.id, id, input).await?;
    answer(&state, &company, member, true).await
}

async fn activate(
    State(state): State<AppState>,
    Tenant(company): Tenant,
    Id(id, _): Id<kind::Member>,
) -> Result<views::Reply, ApiError> {
    let member = members::set_active(state.db(), company.id, id, true).await?;
    answer(&state, &company, member, true).await
}

async fn deactivate(
    State(state): State<AppState>,
    Tenant(company): Tenant,
    Id(id, _): Id<kind::Member>,
) -> Result<views::Reply, ApiError> {
    let member = members::set_active(state.db(), company.id, id, false).await?;
    answer(&state, &company, member, true).await
}
