//! Members: the people of a company who hold items. The company owner is a member
//! with the administrator role whose details the API cannot change.

use crate::CompanyId;
use crate::ids::{Id, Kind, kind};
use chrono::{DateTime, Utc};
use domain::member::{MemberFilter, Role, StatusFilter};
use domain::refusal::Forbidden;
use domain::refusal::{Listed, Problem};
use domain::{Change, Page};
use sea_query::{Cond, Expr, ExprTrait, LockType, Order, Query, SelectStatement, Values};

use crate::address_block::AddressBlock;
use crate::custom_fields::merge_values;
use crate::links::{Linked, linked};
use crate::shapes::Shape;
use crate::{Assignments, Db, PageOf, StoreError, Tx, change_log, now};

#[derive(Debug, Clone, crate::Row)]
pub struct Member {
    pub id: i64,
    pub email: Option<String>,
    pub first_name: String,
    pub last_name: String,
    pub employee_id: Option<String>,
    pub user_listing_id: Option<String>,
    pub role_id: i64,
    /// Its zip code is the column `zipcode`.
    #[row(flatten)]
    pub address_block: AddressBlock<Option<String>>,
    pub login_enabled: bool,
    pub subscribed_to_emails: bool,
    pub active: bool,
    pub is_owner: bool,
    /// JSON object keyed by custom field id.
    pub custom_attributes: String,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
    /// The custom role's name (joined); `None` for the built-in roles.
    pub custom_role_name: Option<String>,
}

impl Member {
    pub fn role(&self) -> Role {
        Role::from_id(self.role_id).unwrap_or(Role::Staff)
    }

    pub fn role_name(&self) -> String {
        self.role()
            .builtin_name()
            .map(str::to_owned)
            .or_else(|| self.custom_role_name.clone())
            .unwrap_or_default()
    }
}

/// A member with the ids of its teams, read in one row.
#[derive(Debug, Clone, crate::Row)]
pub struct MemberView {
    #[row(flatten)]
    pub member: Member,
    pub team_ids: Linked,
}

/// The columns of `Member` besides its address block and custom role name.
const COLUMNS: [&str; 15] = [
    "id",
    "email",
    "first_name",
    "last_name",
    "employee_id",
    "user_listing_id",
    "role_id",
    "login_enabled",
    "subscribed_to_emails",
    "active",
    "is_owner",
    "custom_attributes",
    "created_at",
    "updated_at",
    "custom_role_id",
];

#[derive(Debug, Clone, Default)]
pub struct MemberInput {
    /// Lower-cased by the HTTP layer.
    pub email: Change<String>,
    pub first_name: Option<String>,
    pub last_name: Option<String>,
    pub role: Option<Role>,
    /// The complete list of teams, when given.
    pub team_ids: Option<Vec<Id<kind::Team>>>,
    pub employee_id: Change<String>,
    pub user_listing_id: Change<String>,
    pub address_block: AddressBlock<Change<String>>,
    pub login_enabled: Option<bool>,
    pub subscribed_to_emails: Option<bool>,
    pub custom_attributes: crate::custom_fields::FieldValues,
}

fn select(company: CompanyId) -> SelectStatement {
    let mut select = Query::select();
    AddressBlock::MEMBER_NAMES.select_into(&mut select, "members");
    select
        .from("members")
        .columns(COLUMNS.map(|c| ("members", c)))
        .expr_as(Expr::col(("custom_roles", "name")), "custom_role_name")
        .expr_as(
            linked("members", "member_teams", ("member_id", "team_id"), company),
            "team_ids",
        )
        .left_join(
            "custom_roles",
            Cond::all()
                .add(Expr::col(("custom_roles", "company_id")).equals(("members", "company_id")))
                .add(Expr::col(("custom_roles", "id")).equals(("members", "custom_role_id"))),
        )
        .and_where(Expr::col(("members", "company_id")).eq(company.0))
        .take()
}

#[tracing::instrument(level = "debug", skip_all)]
pub async fn find(
    db: &Db,
    company: CompanyId,
    id: Id<kind::Member>,
) -> Result<MemberView, StoreError> {
    static FIND: Shape = Shape::new();
    let stmt = FIND.bind(
        db.backend(),
        || {
            select(company)
                .and_where(Expr::col(("members", "id")).eq(id))
                .take()
        },
        Values(vec![company.0.into(), company.0.into(), id.into()]),
    );
    db.read()
        .optional(&stmt)
        .await?
        .ok_or(StoreError::NotFound(Kind::Member))
}

/// A page of members (one or two statements: the count when not known, the page).
/// The company's members but its owner (whose details only the owner changes) after
/// member `after`, by id, at most `limit`: an export's batch.
pub async fn after(
    db: &Db,
    company: CompanyId,
    after: i64,
    limit: u64,
) -> Result<Vec<MemberView>, StoreError> {
    let rows = select(company)
        .and_where(Expr::col(("members", "is_owner")).eq(false))
        .order_by(("members", "id"), Order::Asc)
        .take();
    crate::after(db, rows, ("members", "id"), after, limit).await
}

/// A page of the company's members that have an e-mail, by id, after `after`:
/// `(id, email)`. An import reads them once and matches its rows' e-mails in memory.
pub async fn emails_in(
    tx: &mut Tx,
    company: CompanyId,
    after: i64,
    limit: u64,
) -> Result<Vec<(i64, String)>, StoreError> {
    let members = crate::scoped("members", company);
    crate::values_after(tx, members, ("id", "email"), after, limit).await
}

#[tracing::instrument(level = "debug", skip_all)]
pub async fn list(
    db: &Db,
    company: CompanyId,
    filter: &MemberFilter,
    page: Page,
) -> Result<PageOf<MemberView>, StoreError> {
    let condition = match filter {
        MemberFilter::Status(StatusFilter::All) => Cond::all(),
        MemberFilter::Email(email) => {
            Cond::all().add(Expr::col(("members", "email")).eq(email.as_str()))
        }
        MemberFilter::EmployeeId(id) => {
            Cond::all().add(Expr::col(("members", "employee_id")).eq(id.as_str()))
        }
        MemberFilter::Status(StatusFilter::Active) => {
            Cond::all().add(Expr::col(("members", "active")).eq(true))
        }
        MemberFilter::Status(StatusFilter::Inactive) => {
            Cond::all().add(Expr::col(("members", "active")).eq(false))
        }
        MemberFilter::Status(StatusFilter::Login) => {
            Cond::all().add(Expr::col(("members", "login_enabled")).eq(true))
        }
        MemberFilter::Status(StatusFilter::NonLogin) => {
            Cond::all().add(Expr::col(("members", "login_enabled")).eq(false))
        }
        MemberFilter::Name(text) => crate::words::in_any(
            text,
            &[
                ("members", "first_name"),
                ("members", "last_name"),
                ("members", "email"),
            ],
        ),
    };
    let parts = || {
        let base = crate::scoped("members", company)
            .cond_where(condition.clone())
            .take();
        let rows = select(company)
            .cond_where(condition.clone())
            .order_by(("members", "id"), Order::Asc)
            .take();
        (base, rows)
    };
    static PAGES: crate::PageMemo<(i64, Option<StatusFilter>)> = crate::PageMemo::new();
    let status = match filter {
        MemberFilter::Status(status) => Some(*status),
        MemberFilter::Email(_) | MemberFilter::EmployeeId(_) | MemberFilter::Name(_) => None,
    };
    let total = total(company, filter);
    crate::memo_page_of(
        db,
        (&PAGES, (company.0, status)),
        parts,
        ("members", "id"),
        page,
        total,
        crate::Columns::Computed,
    )
    .await
}

/// Checks a role and team list against the company's records, naming each problem.
async fn check_references(
    tx: &mut Tx,
    company: CompanyId,
    input: &MemberInput,
) -> Result<(), StoreError> {
    let mut errors = crate::FieldErrors::new();
    if let Some(role_id) = input.role.and_then(Role::custom_role_id) {
        let stmt = crate::scoped("custom_roles", company)
            .column("id")
            .and_where(Expr::col("id").eq(role_id))
            .to_owned();
        if tx.optional::<(i64,)>(&stmt).await?.is_none() {
            errors.insert("role_id".into(), vec![format!("is not a role of this company: use 1 (administrator), 2 (staff) or a custom role id, not {role_id}").into()]);
        }
    }
    if let Change::Set(listing) = &input.user_listing_id
        && !crate::listings::is_listing_id(tx, company, listing).await?
    {
        errors.insert(
            "user_listing_id".into(),
            vec![Problem::NotInCompany {
                list: Listed::Listings,
                value: format!("{listing:?}"),
            }],
        );
    }
    if let Some(team_ids) = input.team_ids.as_ref().filter(|t| !t.is_empty()) {
        let teams = crate::scoped("teams", company);
        if let Some(problem) = crate::unknown_ids(tx, teams, team_ids, "team").await? {
            errors.insert("team_ids".into(), vec![problem.into()]);
        }
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(StoreError::Invalid(errors))
    }
}

async fn write_teams(
    tx: &mut Tx,
    company: CompanyId,
    member: i64,
    team_ids: &[Id<kind::Team>],
) -> Result<(), StoreError> {
    let clear = Query::delete()
        .from_table("member_teams")
        .and_where(Expr::col("company_id").eq(company.0))
        .and_where(Expr::col("member_id").eq(member))
        .to_owned();
    tx.execute(&clear).await?;
    crate::insert_links(
        tx,
        company,
        "member_teams",
        ("member_id", member),
        "team_id",
        team_ids,
    )
    .await
}

/// A role or team deleted while the request ran.
fn write_error(e: StoreError) -> StoreError {
    if e.is_foreign_key_violation() {
        StoreError::invalid("role_id", "names a role or team that no longer exists")
    } else {
        e
    }
}

/// Writes the fields of `input` a create and an update write alike: the one place a
/// field of `MemberInput` meets its column.
fn assign(row: &mut Assignments, input: &MemberInput) {
    let MemberInput {
        email,
        first_name,
        last_name,
        role,
        // Written by `write_teams`.
        team_ids: _,
        employee_id,
        user_listing_id,
        address_block,
        login_enabled,
        subscribed_to_emails,
        // Merged with the stored values by the caller.
        custom_attributes: _,
    } = input;
    row.change("email", email)
        .given("first_name", first_name)
        .given("last_name", last_name)
        .change("employee_id", employee_id)
        .change("user_listing_id", user_listing_id)
        .address_block(AddressBlock::MEMBER_NAMES, address_block)
        .given("login_enabled", login_enabled)
        .given("subscribed_to_emails", subscribed_to_emails);
    if let Some(role) = role {
        row.set("role_id", role.id())
            .set("custom_role_id", role.custom_role_id());
    }
}

#[tracing::instrument(level = "debug", skip_all)]
pub async fn create(
    db: &Db,
    company: CompanyId,
    input: MemberInput,
) -> Result<MemberView, StoreError> {
    let mut tx = db.begin().await?;
    let id = create_in(&mut tx, company, input).await?;
    tx.commit().await?;
    find(db, company, id).await
}

/// [`create`], in a transaction of the caller's (an import's): the new member's id.
pub async fn create_in(
    tx: &mut Tx,
    company: CompanyId,
    input: MemberInput,
) -> Result<Id<kind::Member>, StoreError> {
    if input.first_name.is_none() || input.last_name.is_none() || input.role.is_none() {
        return Err(StoreError::invalid("first_name", "can't be blank"));
    }
    let input = MemberInput {
        login_enabled: Some(input.login_enabled.unwrap_or(domain::login::MEMBER_DEFAULT)),
        subscribed_to_emails: Some(input.subscribed_to_emails.unwrap_or(true)),
        ..input
    };
    domain::login::check_email(
        input.login_enabled == Some(true),
        input.email.as_set().map(String::as_str),
    )
    .map_err(|problem| StoreError::invalid("email", problem))?;
    let role_id = input.role.map(Role::id);
    let at = now();
    let mut row = Assignments::insert();
    row.set("company_id", company.0)
        .set("active", true)
        .set("is_owner", false)
        .set(
            "custom_attributes",
            merge_values("{}", &input.custom_attributes),
        )
        .set("created_at", at)
        .set("updated_at", at);
    assign(&mut row, &input);
    let insert = row
        .into_insert("members")
        .returning(Query::returning().column("id"))
        .to_owned();
    check_references(tx, company, &input).await?;
    let (id,): (i64,) = tx.one(&insert).await.map_err(write_error)?;
    write_teams(
        tx,
        company,
        id,
        input.team_ids.as_deref().unwrap_or_default(),
    )
    .await
    .map_err(write_error)?;
    change_log::record(
        tx,
        company,
        "member",
        id,
        "created",
        serde_json::json!({"role_id": role_id}),
    )
    .await?;
    Ok(Id::new(id))
}

/// Reads a member under a row lock (PostgreSQL; SQLite's write transaction already
/// excludes other writers), so concurrent changes to one member run one after the other.
async fn locked(
    tx: &mut Tx,
    company: CompanyId,
    id: Id<kind::Member>,
) -> Result<Member, StoreError> {
    let stmt = select(company)
        .and_where(Expr::col(("members", "id")).eq(id))
        .lock_with_tables(LockType::Update, ["members"])
        .to_owned();
    tx.optional(&stmt)
        .await?
        .ok_or(StoreError::NotFound(Kind::Member))
}

#[tracing::instrument(level = "debug", skip_all)]
pub async fn update(
    db: &Db,
    company: CompanyId,
    id: Id<kind::Member>,
    input: MemberInput,
) -> Result<MemberView, StoreError> {
    let mut tx = db.begin().await?;
    update_in(&mut tx, company, id, input).await?;
    tx.commit().await?;
    find(db, company, id).await
}

/// [`update`], in a transaction of the caller's (an import's).
pub async fn update_in(
    tx: &mut Tx,
    company: CompanyId,
    id: Id<kind::Member>,
    input: MemberInput,
) -> Result<(), StoreError> {
    let before = locked(tx, company, id).await?;
    if before.is_owner {
        return Err(StoreError::Forbidden(Forbidden::OwnerDetails));
    }
    // A member who can log in keeps an e-mail: one left out is kept, one cleared is
    // refused.
    let email = match &input.email {
        Change::Keep => before.email.as_deref(),
        Change::Set(e) => Some(e.as_str()),
        Change::Clear => None,
    };
    domain::login::check_email(input.login_enabled.unwrap_or(before.login_enabled), email)
        .map_err(|problem| StoreError::invalid("email", problem))?;
    check_references(tx, company, &input).await?;
    let mut row = Assignments::update();
    assign(&mut row, &input);
    if !input.custom_attributes.is_empty() {
        row.set(
            "custom_attributes",
            merge_values(&before.custom_attributes, &input.custom_attributes),
        );
    }
    let details = serde_json::json!({"fields": row.columns(), "team_ids": input.team_ids});
    let stmt = row.into_update("members", company, id.get());
    tx.execute(&stmt).await.map_err(write_error)?;
    if let Some(team_ids) = &input.team_ids {
        write_teams(tx, company, id.get(), team_ids)
            .await
            .map_err(write_error)?;
    }
    let new_email = matches!(&input.email, Change::Set(e) if Some(e.as_str()) != before.email.as_deref())
        || matches!(input.email, Change::Clear);
    if input.login_enabled == Some(false) || new_email {
        end_log_ins(tx, company, id).await?;
    }
    change_log::record(tx, company, "member", id.get(), "updated", details).await?;
    Ok(())
}

/// Ends the member's staff sessions and drops their invitation link: when they are
/// deactivated, lose their log-in, or change e-mail (the link named the old one).
async fn end_log_ins(
    tx: &mut Tx,
    company: CompanyId,
    id: Id<kind::Member>,
) -> Result<(), StoreError> {
    for table in ["staff_sessions", "staff_invitations"] {
        let stmt = Query::delete()
            .from_table(table)
            .and_where(Expr::col("company_id").eq(company.0))
            .and_where(Expr::col("member_id").eq(id))
            .to_owned();
        tx.execute(&stmt).await?;
    }
    Ok(())
}

/// Activates or deactivates a member. Deactivating the owner is refused. A member
/// deactivated while holding items keeps them (they can be checked in as usual) and
/// becomes a non-login member, so that nobody signs in as them while they hold the
/// company's items ("items checked out to the member become non-login state"). New
/// check-outs to an inactive member are refused.
#[tracing::instrument(level = "debug", skip_all)]
pub async fn set_active(
    db: &Db,
    company: CompanyId,
    id: Id<kind::Member>,
    active: bool,
) -> Result<MemberView, StoreError> {
    let mut tx = db.begin().await?;
    let before = locked(&mut tx, company, id).await?;
    if before.is_owner && !active {
        return Err(StoreError::Forbidden(Forbidden::OwnerDeactivation));
    }
    crate::activation::set_active(
        &mut tx,
        company,
        ("members", "member"),
        id.get(),
        before.active,
        active,
    )
    .await?;
    if !active {
        end_log_ins(&mut tx, company, id).await?;
    }
    if !active && before.active {
        let holding = crate::scoped("items", company)
            .column("id")
            .and_where(Expr::col("assigned_to_id").eq(id))
            .limit(1)
            .to_owned();
        if tx.optional::<(i64,)>(&holding).await?.is_some() {
            let mut row = Assignments::update();
            row.set("login_enabled", false);
            tx.execute(&row.into_update("members", company, id.get()))
                .await?;
            change_log::record(
                &mut tx,
                company,
                "member",
                id.get(),
                "login_disabled",
                serde_json::json!({"reason": "deactivated while holding items"}),
            )
            .await?;
        }
    }
    tx.commit().await?;
    find(db, company, id).await
}

/// True when the member exists in the company (for references such as `created_by_id`).
#[tracing::instrument(level = "debug", skip_all)]
pub async fn exists(
    tx: &mut Tx,
    company: CompanyId,
    id: Id<kind::Member>,
) -> Result<bool, StoreError> {
    crate::has(tx, "members", company, id).await
}

/// Lists the owner as a member; called in the transaction that creates the company.
pub(crate) async fn insert_owner(
    tx: &mut Tx,
    company: CompanyId,
    email: &str,
    at: DateTime<Utc>,
) -> Result<(), StoreError> {
    let mut row = Assignments::insert();
    row.set("company_id", company.0)
        .set("email", email)
        .set("first_name", "Account")
        .set("last_name", "Owner")
        .set("role_id", Role::ADMINISTRATOR_ID)
        .set("login_enabled", true)
        .set("subscribed_to_emails", true)
        .set("active", true)
        .set("is_owner", true)
        .set("custom_attributes", "{}")
        .set("created_at", at)
        .set("updated_at", at);
    let insert = row.into_insert("members");
    tx.execute(&insert).await?;
    Ok(())
}

/// Who an asset goes to: `user_id`, or else `user_email`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MemberRef {
    Id(Id<kind::Member>),
    Email(String),
}

#[derive(Debug, crate::Row)]
pub(crate) struct MemberRow {
    pub(crate) id: i64,
    pub(crate) active: bool,
    pub(crate) name: String,
}

/// The active member `id` of the company and their name; `field` names the parameter
/// in the 422 otherwise.
pub(crate) async fn active_member(
    tx: &mut Tx,
    company: CompanyId,
    id: Id<kind::Member>,
    field: &str,
) -> Result<String, StoreError> {
    let m = member(tx, company, &MemberRef::Id(id), field).await?;
    Ok(m.name)
}

pub(crate) async fn member(
    tx: &mut Tx,
    company: CompanyId,
    who: &MemberRef,
    field: &str,
) -> Result<MemberRow, StoreError> {
    let found: Option<MemberRow> = tx.optional(&member_read(company, who)).await?;
    found_member(found, who, field)
}

/// The read of [`member`].
pub(crate) fn member_read(company: CompanyId, who: &MemberRef) -> SelectStatement {
    crate::scoped("members", company)
        .columns(["id", "active"])
        .expr_as(Expr::cust(r#""first_name" || ' ' || "last_name""#), "name")
        .and_where(match who {
            MemberRef::Id(id) => Expr::col("id").eq(*id),
            MemberRef::Email(e) => Expr::col("email").eq(e.to_lowercase()),
        })
        .to_owned()
}

/// The member [`member_read`] found for `who`, refused (422 on `field`) when there is
/// none or they are inactive.
pub(crate) fn found_member(
    found: Option<MemberRow>,
    who: &MemberRef,
    field: &str,
) -> Result<MemberRow, StoreError> {
    let Some(m) = found else {
        let what = match who {
            MemberRef::Id(id) => format!("is not a member of this company: {id}"),
            MemberRef::Email(e) => format!("is not the e-mail of a member of this company: {e}"),
        };
        return Err(StoreError::invalid(field, what));
    };
    if !m.active {
        return Err(StoreError::invalid(
            field,
            Problem::InactiveMember {
                id: m.id,
                name: m.name,
            },
        ));
    }
    Ok(m)
}

/// The partitions of `list_counts` members are counted in (migration 0007's trigger):
/// by status and by whether they can log in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Counted {
    active: bool,
    login: bool,
}

impl crate::Partition for Counted {
    const ALL: &'static [Self] = &[
        Counted {
            active: true,
            login: true,
        },
        Counted {
            active: true,
            login: false,
        },
        Counted {
            active: false,
            login: true,
        },
        Counted {
            active: false,
            login: false,
        },
    ];

    fn key(self) -> &'static str {
        match (self.active, self.login) {
            (true, true) => "members:active:login",
            (true, false) => "members:active:non_login",
            (false, true) => "members:inactive:login",
            (false, false) => "members:inactive:non_login",
        }
    }
}

/// The total of the members `filter` shows: counted unless it looks for one member.
fn total(company: CompanyId, filter: &MemberFilter) -> crate::Total {
    use crate::Partition;
    let shown = |c: &&Counted| match filter {
        MemberFilter::Status(StatusFilter::All) => true,
        MemberFilter::Status(StatusFilter::Active) => c.active,
        MemberFilter::Status(StatusFilter::Inactive) => !c.active,
        MemberFilter::Status(StatusFilter::Login) => c.login,
        MemberFilter::Status(StatusFilter::NonLogin) => !c.login,
        MemberFilter::Email(_) | MemberFilter::EmployeeId(_) | MemberFilter::Name(_) => false,
    };
    match filter {
        MemberFilter::Email(_) | MemberFilter::EmployeeId(_) | MemberFilter::Name(_) => {
            crate::Total::Filtered
        }
        MemberFilter::Status(_) => {
            crate::Total::of(company, Counted::ALL.iter().filter(shown).copied())
        }
    }
}
