//! What the staff pages need: invitations (a link the owner hands a member, with which
//! they set their password), checking a member's password, and sessions kept in the
//! database (so any instance can serve them). Only active members whose log-in is
//! enabled sign in or keep a session; the owner signs in with the console's password.

use chrono::{DateTime, Duration, Utc};
use domain::member::Role;
use sea_query::{Expr, ExprTrait, Func, Query};

use crate::companies::{self, Company, CompanyRow};
use crate::console::{self, Sessions};
use crate::ids::{Id, Kind, kind};
use crate::tokens::{hash_token, random_token};
use crate::{Assignments, CompanyId, Db, StoreError, change_log, now};

/// How long a session lasts without signing in again: as the console's.
pub const SESSION_DAYS: i64 = console::SESSION_DAYS;

/// How long an invitation link can be used.
pub const INVITATION_DAYS: i64 = 7;

/// A signed-in member.
#[derive(Debug, Clone)]
pub struct Session {
    pub company: Company,
    pub member_id: Id<kind::Member>,
    pub name: String,
    pub email: String,
    pub role: Role,
    pub csrf_token: String,
}

/// Why a member cannot be invited.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NotInvited {
    /// The member is deactivated.
    Inactive,
    /// The owner logs in with the console's password.
    Owner,
}

/// An invitation made: the link's token (only its hash is stored) and its end.
#[derive(Debug, Clone)]
pub struct Invitation {
    pub token: String,
    pub email: String,
    pub expires_at: DateTime<Utc>,
}

#[derive(crate::Row)]
struct Invitee {
    id: i64,
    email: Option<String>,
    active: bool,
    is_owner: bool,
}

/// A new invitation link for the member with this e-mail (any case), replacing any
/// earlier one (one live link per member); the member's password is unchanged until
/// the link is used.
#[tracing::instrument(level = "debug", skip_all)]
pub async fn invite(
    db: &Db,
    company: CompanyId,
    email: &str,
) -> Result<Result<Invitation, NotInvited>, StoreError> {
    let mut tx = db.begin().await?;
    let find = crate::scoped("members", company)
        .columns(["id", "email", "active", "is_owner"])
        .and_where(Expr::expr(Func::lower(Expr::col("email"))).eq(email.trim().to_lowercase()))
        .limit(1)
        .to_owned();
    let Some(invitee): Option<Invitee> = tx.optional(&find).await? else {
        return Err(StoreError::NotFound(Kind::Member));
    };
    let member = Id::<kind::Member>::new(invitee.id);
    if invitee.is_owner {
        return Ok(Err(NotInvited::Owner));
    }
    if !invitee.active {
        return Ok(Err(NotInvited::Inactive));
    }
    let email = invitee.email.unwrap_or_default();
    let earlier = Query::delete()
        .from_table("staff_invitations")
        .and_where(Expr::col("company_id").eq(company.0))
        .and_where(Expr::col("member_id").eq(member))
        .to_owned();
    tx.execute(&earlier).await?;
    let token = random_token();
    let created = now();
    let expires_at = created + Duration::days(INVITATION_DAYS);
    let insert = Query::insert()
        .into_table("staff_invitations")
        .columns([
            "token_hash",
            "company_id",
            "member_id",
            "created_at",
            "expires_at",
        ])
        .values_panic([
            hash_token(&token).into(),
            company.0.into(),
            member.into(),
            created.into(),
            expires_at.into(),
        ])
        .to_owned();
    tx.execute(&insert).await?;
    change_log::record(
        &mut tx,
        company,
        "member",
        member.get(),
        "invited",
        serde_json::json!({"expires_at": expires_at}),
    )
    .await?;
    tx.commit().await?;
    Ok(Ok(Invitation {
        token,
        email,
        expires_at,
    }))
}

/// Whom a live invitation link is for.
#[derive(Debug, Clone, crate::Row)]
pub struct Invited {
    pub company_name: String,
    pub subdomain: String,
    pub first_name: String,
    pub last_name: String,
    pub email: Option<String>,
}

/// The member a live invitation link names (an active one), if any.
#[tracing::instrument(level = "debug", skip_all)]
pub async fn invited(db: &Db, token: &str) -> Result<Option<Invited>, StoreError> {
    let stmt = Query::select()
        .expr_as(Expr::col(("companies", "name")), "company_name")
        .column(("companies", "subdomain"))
        .columns([
            ("members", "first_name"),
            ("members", "last_name"),
            ("members", "email"),
        ])
        .from("staff_invitations")
        .inner_join(
            "members",
            Expr::col(("members", "company_id"))
                .equals(("staff_invitations", "company_id"))
                .and(Expr::col(("members", "id")).equals(("staff_invitations", "member_id"))),
        )
        .inner_join(
            "companies",
            Expr::col(("companies", "id")).equals(("staff_invitations", "company_id")),
        )
        .and_where(Expr::col(("staff_invitations", "token_hash")).eq(hash_token(token)))
        .and_where(Expr::col(("staff_invitations", "expires_at")).gt(now()))
        .and_where(Expr::col(("members", "active")).eq(true))
        .to_owned();
    db.read().optional(&stmt).await
}

/// Uses a live invitation link: sets the member's password (`hash`, from
/// `passwords::hash`), enables their log-in and ends their sessions, all at once; the
/// link then no longer works. `None` when the link is unknown, used or expired, or
/// the member was deactivated since.
#[tracing::instrument(level = "debug", skip_all)]
pub async fn accept(
    db: &Db,
    token: &str,
    hash: String,
) -> Result<Option<(CompanyId, Id<kind::Member>)>, StoreError> {
    let mut tx = db.begin().await?;
    let used = Query::delete()
        .from_table("staff_invitations")
        .and_where(Expr::col("token_hash").eq(hash_token(token)))
        .and_where(Expr::col("expires_at").gt(now()))
        .returning(Query::returning().columns(["company_id", "member_id"]))
        .to_owned();
    let Some((company, member)): Option<(i64, i64)> = tx.optional(&used).await? else {
        return Ok(None);
    };
    let (company, member) = (CompanyId(company), Id::<kind::Member>::new(member));
    let mut row = Assignments::update();
    row.set("password_hash", hash);
    row.set("login_enabled", true);
    let mut update = row.into_update("members", company, member.get());
    update.and_where(Expr::col("active").eq(true));
    if tx.execute(&update).await? == 0 {
        return Ok(None);
    }
    let sessions = Query::delete()
        .from_table("staff_sessions")
        .and_where(Expr::col("company_id").eq(company.0))
        .and_where(Expr::col("member_id").eq(member))
        .to_owned();
    tx.execute(&sessions).await?;
    change_log::record(
        &mut tx,
        company,
        "member",
        member.get(),
        "password_set",
        serde_json::json!({}),
    )
    .await?;
    tx.commit().await?;
    Ok(Some((company, member)))
}

#[derive(crate::Row)]
struct LoginRow {
    id: i64,
    is_owner: bool,
    password_hash: Option<String>,
    owner_hash: Option<String>,
}

/// The active, log-in enabled member of company `subdomain` with this e-mail (any
/// case) and password, if they match. An unknown company or member costs the same time
/// as a wrong password.
#[tracing::instrument(level = "debug", skip_all)]
pub async fn check_password(
    db: &Db,
    subdomain: &str,
    email: &str,
    password: &str,
) -> Result<Option<(CompanyId, Id<kind::Member>)>, StoreError> {
    let company = match companies::find_by_subdomain(db, subdomain).await {
        Ok(c) => Some(c.id),
        Err(StoreError::NotFound(_)) => None,
        Err(e) => return Err(e),
    };
    let member = match company {
        Some(company) => {
            let stmt = Query::select()
                .columns([
                    ("members", "id"),
                    ("members", "is_owner"),
                    ("members", "password_hash"),
                ])
                .expr_as(Expr::col(("owners", "password_hash")), "owner_hash")
                .from("members")
                .left_join(
                    "owners",
                    Expr::col(("owners", "company_id"))
                        .equals(("members", "company_id"))
                        .and(Expr::col(("owners", "email")).equals(("members", "email")))
                        .and(Expr::col(("members", "is_owner")).eq(true)),
                )
                .and_where(Expr::col(("members", "company_id")).eq(company.0))
                .and_where(
                    Expr::expr(Func::lower(Expr::col(("members", "email"))))
                        .eq(email.trim().to_lowercase()),
                )
                .and_where(Expr::col(("members", "active")).eq(true))
                .and_where(Expr::col(("members", "login_enabled")).eq(true))
                .limit(1)
                .to_owned();
            db.read().optional::<LoginRow>(&stmt).await?
        }
        None => None,
    };
    let hash = member.as_ref().and_then(|m| {
        if m.is_owner {
            m.owner_hash.clone()
        } else {
            m.password_hash.clone()
        }
    });
    let matches = crate::passwords::verify(password, hash).await?;
    Ok(match (company, member) {
        (Some(c), Some(m)) if matches => Some((c, Id::new(m.id))),
        _ => None,
    })
}

/// Starts a session; returns the cookie token (only its hash is stored).
#[tracing::instrument(level = "debug", skip_all)]
pub async fn start_session(
    db: &Db,
    company: CompanyId,
    member: Id<kind::Member>,
) -> Result<String, StoreError> {
    let sessions = Sessions {
        table: "staff_sessions",
        who: "member_id",
        subject: "member",
    };
    console::start_in(db, &sessions, company, member.get()).await
}

#[derive(crate::Row)]
struct SessionRow {
    member_id: i64,
    csrf_token: String,
    first_name: String,
    last_name: String,
    email: Option<String>,
    role_id: i64,
    #[row(flatten)]
    company: CompanyRow,
}

/// The live session a cookie token names, while its member is active and may log in,
/// with its company: one statement.
#[tracing::instrument(level = "debug", skip_all)]
pub async fn session(db: &Db, token: &str) -> Result<Option<Session>, StoreError> {
    let stmt = Query::select()
        .columns([
            ("staff_sessions", "member_id"),
            ("staff_sessions", "csrf_token"),
        ])
        .columns([
            ("members", "first_name"),
            ("members", "last_name"),
            ("members", "email"),
            ("members", "role_id"),
        ])
        .columns(companies::COLUMNS.map(|c| ("companies", c)))
        .from("staff_sessions")
        .inner_join(
            "members",
            Expr::col(("members", "company_id"))
                .equals(("staff_sessions", "company_id"))
                .and(Expr::col(("members", "id")).equals(("staff_sessions", "member_id"))),
        )
        .inner_join(
            "companies",
            Expr::col(("companies", "id")).equals(("staff_sessions", "company_id")),
        )
        .and_where(Expr::col(("staff_sessions", "token_hash")).eq(hash_token(token)))
        .and_where(Expr::col(("staff_sessions", "expires_at")).gt(now()))
        .and_where(Expr::col(("members", "active")).eq(true))
        .and_where(Expr::col(("members", "login_enabled")).eq(true))
        .to_owned();
    let Some(row): Option<SessionRow> = db.read().optional(&stmt).await? else {
        return Ok(None);
    };
    Ok(Some(Session {
        company: Company::from(row.company),
        member_id: Id::new(row.member_id),
        name: format!("{} {}", row.first_name, row.last_name)
            .trim()
            .to_owned(),
        email: row.email.unwrap_or_default(),
        role: Role::from_id(row.role_id).unwrap_or(Role::Staff),
        csrf_token: row.csrf_token,
    }))
}

#[tracing::instrument(level = "debug", skip_all)]
pub async fn end_session(db: &Db, token: &str) -> Result<(), StoreError> {
    console::end_in(db, "staff_sessions", token).await
}

/// Deletes expired sessions and invitations; returns how many of each. `serve` runs it
/// every few minutes.
#[tracing::instrument(level = "debug", skip_all)]
pub async fn purge_expired(db: &Db) -> Result<(u64, u64), StoreError> {
    let sessions = Query::delete()
        .from_table("staff_sessions")
        .and_where(Expr::col("expires_at").lte(now()))
        .to_owned();
    let invitations = Query::delete()
        .from_table("staff_invitations")
        .and_where(Expr::col("expires_at").lte(now()))
        .to_owned();
    let mut read = db.read();
    Ok((
        read.execute(&sessions).await?,
        read.execute(&invitations).await?,
    ))
}
