//! Members: `/members.api`, `/members/{id}.api`, `/members/{id}/activate.api`,
//! `/members/{id}/deactivate.api`.

use axum::extract::State;
use domain::custom_field::Target;
use domain::member::{MemberFilter, Role};
use domain::refusal::Forbidden;
use domain::{Change, PageSize, Vocabulary};
use serde::ser::{Serialize, Serializer};
use store::CompanyId;
use store::address_block::AddressBlock;
use store::custom_fields::FieldSet;
use store::members::{self, MemberInput, MemberView};

use crate::address_block::{self, AddressInput};
use crate::api::{Api, Doc, get, put_or_patch};
use crate::auth::Tenant;
use crate::custom_attributes::{self, CustomAttributes, IncludeQuery, Keyed, WithFields};
use crate::error::ApiError;
use crate::form::{Form, parse_id};
use crate::ids::{Id, kind};
use crate::input::{Email, IdList, Input, PageQuery, Scalar, ShortText, Word, read_top_level};
use crate::params::Params;
use crate::state::AppState;
use crate::views::{self, Moment, Object, moment};

pub fn routes(api: Api) -> Api {
    api.route(
        "/members",
        get(list).post(create),
        Doc::new("Members", "List members, 25 a page (GET), or create one (POST)")
            .input::<NewMember>()
            .custom_values("user", custom_attributes::FIELDS)
            .input::<WriteQuery>()
            .params::<ListQuery>()
            .returns_page("members")
            .returns("member")
            .record::<Keyed<MemberShape>>(),
    )
    .route(
        "/members/{id}",
        get(details).put_or_patch(update),
        Doc::new("Members", "Member details (GET) or update (PUT or PATCH: fields left out are kept; 403 for the company owner)")
            .input::<MemberChanges>()
            .custom_values("user", custom_attributes::FIELDS)
            .params::<IncludeQuery>()
            .input::<WriteQuery>()
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

/// A member's role: 1 administrator, 2 staff, or the id of a custom role (whose
/// existence the store checks). A member always has one: `null` and 0 are refused.
struct RoleId;

impl Scalar for RoleId {
    type Value = Role;

    fn parse(raw: &str) -> Result<Role, String> {
        if matches!(raw.trim(), "null" | "0") {
            return Err("can't be blank: a member has a role".to_owned());
        }
        parse_id(raw)
            .and_then(Role::from_id)
            .ok_or_else(|| "must be 1 (administrator), 2 (staff) or a custom role id".to_owned())
    }

    fn schema() -> serde_json::Value {
        crate::input::id_schema()
    }
}

/// What a member's create and update both take.
#[derive(Input)]
#[input(resource = "user")]
struct MemberFields {
    /// Required unless login_enabled is false; unique in the company (case aside);
    /// stored lower-case. On update, `null` clears it only for a member who cannot
    /// log in.
    #[input(format = Email)]
    email: Change<String>,
    /// The employee identification number.
    employee_id: Change<String>,
    user_listing_id: Change<String>,
    /// The ids of the company's teams; on update the full new list (send it empty to
    /// clear).
    #[input(format = IdList)]
    team_ids: Option<Vec<i64>>,
    #[input(flatten)]
    address_block: AddressInput<address_block::Member>,
    /// Whether the member can log in (true by default).
    login_enabled: Option<bool>,
    /// true by default.
    subscribed_to_emails: Option<bool>,
}

/// A new member.
#[derive(Input)]
#[input(resource = "user")]
struct NewMember {
    #[input(format = ShortText)]
    first_name: String,
    #[input(format = ShortText)]
    last_name: String,
    /// 1 administrator, 2 staff, or the id of a custom role.
    #[input(format = RoleId)]
    role_id: Role,
    #[input(flatten)]
    fields: MemberFields,
}

/// A member's changes: what is left out is kept; the names and the role cannot be
/// cleared (docs/api.md, "Updates").
#[derive(Input)]
#[input(resource = "user")]
struct MemberChanges {
    #[input(format = ShortText)]
    first_name: Option<String>,
    #[input(format = ShortText)]
    last_name: Option<String>,
    /// 1 administrator, 2 staff, or the id of a custom role.
    #[input(format = RoleId)]
    role_id: Option<Role>,
    #[input(flatten)]
    fields: MemberFields,
}

/// The top-level parameters of a member's create and update.
#[derive(Input)]
struct WriteQuery {
    /// Accepted for the hosted service's clients (rentrack sends no e-mail).
    #[input(rename = "skip_confirmation_email")]
    _skip_confirmation_email: Option<bool>,
}

/// The words of the member list's `filter` (`employee_id` is read as
/// `employee_identification_number`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct FilterName(&'static str);

impl Vocabulary for FilterName {
    const ALL: &'static [Self] = &[
        FilterName("email"),
        FilterName("employee_identification_number"),
        FilterName("status"),
        FilterName("name"),
    ];

    fn as_str(self) -> &'static str {
        self.0
    }

    fn parse_loosely(raw: &str) -> Option<Self> {
        match raw
            .trim()
            .to_ascii_lowercase()
            .replace([' ', '-'], "_")
            .as_str()
        {
            "employee_id" => Some(FilterName("employee_identification_number")),
            word => Self::parse(word),
        }
    }
}

/// The parameters of the member list.
#[derive(Input)]
struct ListQuery {
    /// Which members: every one unless filtered by email, employee_identification_number,
    /// status or name (with filter_val).
    #[input(format = Word<FilterName>)]
    filter: Option<FilterName>,
    /// The e-mail (URL-encoded), the employee id, a status (active, inactive, login,
    /// non_login or all, the default), or for name words each found in the first name,
    /// last name or e-mail, any case (not in the hosted service's interface).
    filter_val: Option<String>,
    #[input(flatten)]
    page: PageQuery,
    #[input(flatten)]
    include: IncludeQuery,
}

/// The list's parameters and its filter (a filter_val that suits the filter).
fn read_list_query(params: &Params) -> Result<(ListQuery, MemberFilter), ApiError> {
    let mut form = Form::new(params, "");
    let query = ListQuery::read(&mut form);
    let filter = if form.has_errors_for("filter") || form.has_errors_for("filter_val") {
        None
    } else {
        // Read whatever else failed, so one 422 names every problem.
        let (name, value) = match &query {
            Some(q) => (q.filter, q.filter_val.clone()),
            None => (
                form.peek::<Word<FilterName>>("filter"),
                form.peek::<String>("filter_val"),
            ),
        };
        MemberFilter::parse(name.map(FilterName::as_str), value.as_deref())
            .map_err(|(field, problem)| form.error(field, problem))
            .ok()
    };
    form.finish_with(query.zip(filter))
}

/// Reads `user[...]` as `T`, the custom field values and the top-level parameters:
/// the input, or one 422 naming every problem. On create, an e-mail is required
/// unless login is disabled (said here so that one 422 names every missing field; on
/// update only the store knows whether the member can log in).
async fn read_input<T: Input>(
    state: &AppState,
    company: CompanyId,
    params: &Params,
    creating: bool,
) -> Result<(T, store::custom_fields::FieldValues), ApiError> {
    let mut form = Form::new(params, "user");
    let input = T::read(&mut form);
    if creating
        && !form.has_errors_for("email")
        && let Err(problem) = domain::login::check_email(
            form.peek::<bool>("login_enabled")
                .unwrap_or(domain::login::MEMBER_DEFAULT),
            form.peek::<Email>("email").as_deref(),
        )
    {
        form.error("email", problem);
    }
    let query = read_top_level::<WriteQuery>(&mut form);
    let values =
        custom_attributes::read_values(state.db(), company, Target::Members, &mut form).await?;
    let (input, _) = form.finish_with(input.zip(query))?;
    Ok((input, values))
}

fn member_input(
    names: (Option<String>, Option<String>),
    role: Option<Role>,
    f: MemberFields,
    custom_attributes: store::custom_fields::FieldValues,
) -> MemberInput {
    let email = match f.email {
        Change::Set(e) => Change::Set(e.to_lowercase()),
        other => other,
    };
    MemberInput {
        email,
        first_name: names.0,
        last_name: names.1,
        role,
        team_ids: f.team_ids.map(store::Id::each),
        employee_id: f.employee_id,
        user_listing_id: f.user_listing_id,
        address_block: f.address_block.into_block(),
        login_enabled: f.login_enabled,
        subscribed_to_emails: f.subscribed_to_emails,
        custom_attributes,
    }
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
    let (new, values) = read_input::<NewMember>(&state, company.id, &params, true).await?;
    let names = (Some(new.first_name), Some(new.last_name));
    let input = member_input(names, Some(new.role_id), new.fields, values);
    let member = members::create(state.db(), company.id, input).await?;
    answer(&state, &company, member, true).await
}

async fn list(
    State(state): State<AppState>,
    Tenant(company): Tenant,
    params: Params,
) -> Result<views::Reply, ApiError> {
    let (query, filter) = read_list_query(&params)?;
    let (include, page) = (query.include.include(), query.page.page(PageSize::DEFAULT));
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
    Id(id): Id<kind::Member>,
    params: Params,
) -> Result<views::Reply, ApiError> {
    let include = IncludeQuery::parse(&params)?.include();
    let member = members::find(state.db(), company.id, id).await?;
    answer(&state, &company, member, include).await
}

async fn update(
    State(state): State<AppState>,
    Tenant(company): Tenant,
    Id(id): Id<kind::Member>,
    params: Params,
) -> Result<views::Reply, ApiError> {
    let existing = members::find(state.db(), company.id, id).await?;
    if existing.member.is_owner {
        return Err(store::StoreError::Forbidden(Forbidden::OwnerDetails).into());
    }
    let (changes, values) = read_input::<MemberChanges>(&state, company.id, &params, false).await?;
    let names = (changes.first_name, changes.last_name);
    let input = member_input(names, changes.role_id, changes.fields, values);
    let member = members::update(state.db(), company.id, id, input).await?;
    answer(&state, &company, member, true).await
}

async fn activate(
    State(state): State<AppState>,
    Tenant(company): Tenant,
    Id(id): Id<kind::Member>,
) -> Result<views::Reply, ApiError> {
    let member = members::set_active(state.db(), company.id, id, true).await?;
    answer(&state, &company, member, true).await
}

async fn deactivate(
    State(state): State<AppState>,
    Tenant(company): Tenant,
    Id(id): Id<kind::Member>,
) -> Result<views::Reply, ApiError> {
    let member = members::set_active(state.db(), company.id, id, false).await?;
    answer(&state, &company, member, true).await
}

/// Writes one import row as a new member (`key` none) or as changes to member `key`,
/// in the import's transaction. The owner's details are refused as on update.
pub(crate) async fn import_row(
    state: &AppState,
    tx: &mut store::Tx,
    company: CompanyId,
    params: &Params,
    key: Option<i64>,
) -> Result<super::imports::Written, ApiError> {
    use super::imports::Written;
    match key {
        None => {
            let (new, values) = read_input::<NewMember>(state, company, params, true).await?;
            let names = (Some(new.first_name), Some(new.last_name));
            let input = member_input(names, Some(new.role_id), new.fields, values);
            members::create_in(tx, company, input).await?;
            Ok(Written::Created)
        }
        Some(id) => {
            let (changes, values) =
                read_input::<MemberChanges>(state, company, params, false).await?;
            let names = (changes.first_name, changes.last_name);
            let input = member_input(names, changes.role_id, changes.fields, values);
            members::update_in(tx, company, store::Id::new(id), input).await?;
            Ok(Written::Updated)
        }
    }
}

/// The columns a member import reads besides `id` and custom fields' names.
pub(crate) fn import_columns() -> Vec<&'static str> {
    NewMember::fields().iter().map(|f| f.name).collect()
}
