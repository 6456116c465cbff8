//! Customers and business contacts: one `persons` table told apart by `kind`, so the
//! persons list is one query. A deleted person keeps its row (`deleted_at`) for the
//! orders that name it, and is gone for every read.

use crate::CompanyId;
use crate::ids::{Id, Named, kind};
use chrono::{DateTime, Utc};
use domain::Vocabulary;
use domain::customer_filter::{Comparison, Op, PersonFilter};
use domain::order::OrderState;
use domain::refusal::{InUse, Record, Users};
use domain::{Change, Page};
use sea_query::{
    Cond, Expr, ExprTrait, LockType, Order, Query, QueryStatementBuilder, SelectStatement,
};

use crate::address_block::AddressBlock;
use crate::custom_fields::merge_values;
use crate::{Assignments, Db, PageOf, Reader, StoreError, Tx, change_log, removal};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Customer,
    Contact,
}

/// The id kinds of persons: an `Id<K>` names its kind.
pub trait Persons: Named {
    const PERSON: Kind;
}

impl Persons for kind::Customer {
    const PERSON: Kind = Kind::Customer;
}

impl Persons for kind::Contact {
    const PERSON: Kind = Kind::Contact;
}

impl Kind {
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Customer => "customer",
            Kind::Contact => "contact",
        }
    }
}

/// The live (not deleted) persons of one kind.
pub(crate) fn live(company: CompanyId, kind: Kind) -> SelectStatement {
    crate::scoped("persons", company)
        .and_where(Expr::col("kind").eq(kind.as_str()))
        .and_where(Expr::col("deleted_at").is_null())
        .to_owned()
}

#[derive(Debug, Clone, crate::Row)]
pub struct Person {
    pub id: i64,
    pub kind: String,
    pub first_name: Option<String>,
    pub last_name: String,
    pub description: Option<String>,
    pub employee_identification_number: Option<String>,
    pub category: Option<String>,
    pub collect_tax: bool,
    pub email: Option<String>,
    pub login_enabled: bool,
    pub subscribed_to_emails: bool,
    #[row(flatten)]
    pub address_block: AddressBlock<Option<String>>,
    pub active: bool,
    /// JSON object keyed by custom field id.
    pub custom_attributes: String,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
}

impl Person {
    pub fn full_name(&self) -> String {
        match &self.first_name {
            Some(first) => format!("{first} {}", self.last_name),
            None => self.last_name.clone(),
        }
    }

    pub fn is_contact(&self) -> bool {
        self.kind == Kind::Contact.as_str()
    }
}

/// A person with the businesses it is a contact of (empty for customers).
#[derive(Debug, Clone)]
pub struct PersonView {
    pub person: Person,
    pub business_ids: Vec<i64>,
}

/// The columns of `Person`.
fn columns() -> impl Iterator<Item = &'static str> {
    [
        "id",
        "kind",
        "first_name",
        "last_name",
        "description",
        "employee_identification_number",
        "category",
        "collect_tax",
        "email",
        "login_enabled",
        "subscribed_to_emails",
        "active",
        "custom_attributes",
        "created_at",
        "updated_at",
    ]
    .into_iter()
    .chain(AddressBlock::NAMES.into_array())
}

#[derive(Debug, Clone, Default)]
pub struct PersonInput {
    pub first_name: Change<String>,
    pub last_name: Option<String>,
    /// Lower-cased by the HTTP layer.
    pub email: Change<String>,
    pub description: Change<String>,
    pub employee_identification_number: Change<String>,
    pub category: Change<String>,
    pub address_block: AddressBlock<Change<String>>,
    pub collect_tax: Option<bool>,
    pub login_enabled: Option<bool>,
    pub subscribed_to_emails: Option<bool>,
    /// Contacts: the complete list of their businesses, when given.
    pub business_ids: Option<Vec<Id<kind::Business>>>,
    pub custom_attributes: crate::custom_fields::FieldValues,
}

#[derive(crate::Row)]
struct Link {
    business_id: i64,
    contact_id: i64,
}

async fn with_businesses(
    read: &mut Reader<'_>,
    company: CompanyId,
    persons: Vec<Person>,
) -> Result<Vec<PersonView>, StoreError> {
    let contact_ids: Vec<i64> = persons
        .iter()
        .filter(|p| p.is_contact())
        .map(|p| p.id)
        .collect();
    let links: Vec<Link> = if contact_ids.is_empty() {
        Vec::new()
    } else {
        let stmt = crate::scoped("business_contacts", company)
            .columns(["business_id", "contact_id"])
            .and_where(Expr::col("contact_id").is_in(contact_ids))
            .order_by("business_id", Order::Asc)
            .to_owned();
        read.all(&stmt).await?
    };
    Ok(persons
        .into_iter()
        .map(|p| {
            let business_ids = links
                .iter()
                .filter(|l| l.contact_id == p.id)
                .map(|l| l.business_id)
                .collect();
            PersonView {
                person: p,
                business_ids,
            }
        })
        .collect())
}

#[tracing::instrument(level = "debug", skip_all)]
pub async fn find<K: Persons>(
    db: &Db,
    company: CompanyId,
    id: Id<K>,
) -> Result<PersonView, StoreError> {
    let kind = K::PERSON;
    let mut read = db.read();
    let stmt = live(company, kind)
        .columns(columns())
        .and_where(Expr::col("id").eq(id))
        .to_owned();
    let person: Person = read.optional(&stmt).await?.ok_or(id.missing())?;
    Ok(with_businesses(&mut read, company, vec![person])
        .await?
        .remove(0))
}

/// The number of orders in `states` of the account the outer row is (`owner_table`,
/// matched on `orders.<owner_column>`), compared as asked.
fn order_count(
    owner_table: &'static str,
    owner_column: &'static str,
    states: &[OrderState],
    comparison: Comparison,
) -> Expr {
    let count = Query::select()
        .expr(Expr::col(("o", "id")).count())
        .from_as("orders", "o")
        .and_where(Expr::col(("o", "company_id")).equals((owner_table, "company_id")))
        .and_where(Expr::col(("o", owner_column)).equals((owner_table, "id")))
        .and_where(Expr::col(("o", "basket_state")).is_in(states.iter().map(|s| s.as_str())))
        .to_owned();
    let count = Expr::SubQuery(None, Box::new(count.into_sub_query_statement()));
    let n = comparison.value;
    match comparison.op {
        Op::Gt => count.gt(n),
        Op::Ge => count.gte(n),
        Op::Lt => count.lt(n),
        Op::Le => count.lte(n),
        Op::Eq => count.eq(n),
    }
}

/// Accounts with at least one order in one of `states`.
pub(crate) fn has_orders(
    owner_table: &'static str,
    owner_column: &'static str,
    states: &[OrderState],
) -> Expr {
    order_count(
        owner_table,
        owner_column,
        states,
        Comparison {
            op: Op::Gt,
            value: 0,
        },
    )
}

pub(crate) fn completed_orders(
    owner_table: &'static str,
    owner_column: &'static str,
    comparison: Comparison,
) -> Expr {
    order_count(
        owner_table,
        owner_column,
        &[OrderState::Completed],
        comparison,
    )
}

/// Contacts named as the point of contact of a business address (of one of `types`).
fn contact_of_addresses(types: &[&str]) -> Expr {
    let mut addresses = Query::select()
        .expr(Expr::val(1))
        .from_as("business_addresses", "a")
        .and_where(Expr::col(("a", "company_id")).equals(("persons", "company_id")))
        .and_where(Expr::col(("a", "contact_id")).equals(("persons", "id")))
        .to_owned();
    if !types.is_empty() {
        addresses
            .and_where(Expr::col(("a", "address_type")).is_in(types.iter().map(|t| t.to_string())));
    }
    Expr::exists(addresses)
}

/// Every word of `text` is in the first or the last name, case aside.
fn name_contains(text: &str) -> Cond {
    crate::words::in_any(text, &["first_name", "last_name"])
}

fn condition(filter: &PersonFilter) -> Cond {
    let active = Expr::col("active").eq(true);
    let only = |e: Expr| Cond::all().add(active.clone()).add(e);
    match filter {
        PersonFilter::Active => Cond::all().add(active),
        PersonFilter::All => Cond::all(),
        PersonFilter::Inactive => Cond::all().add(Expr::col("active").eq(false)),
        PersonFilter::Email(email) => only(Expr::col("email").eq(email.as_str())),
        PersonFilter::Category(c) => only(Expr::col("category").eq(c.as_str())),
        PersonFilter::Taxed => only(Expr::col("collect_tax").eq(true)),
        PersonFilter::NonTaxed => only(Expr::col("collect_tax").eq(false)),
        PersonFilter::SubscribedEmails => only(Expr::col("subscribed_to_emails").eq(true)),
        PersonFilter::NotSubscribedEmails => only(Expr::col("subscribed_to_emails").eq(false)),
        PersonFilter::LoginEnabled => only(Expr::col("login_enabled").eq(true)),
        PersonFilter::CheckedOutOrders => only(has_orders(
            "persons",
            "customer_id",
            &[OrderState::CheckedOut],
        )),
        PersonFilter::CompletedOrders(c) => only(completed_orders("persons", "customer_id", *c)),
        PersonFilter::AccountName(text) => Cond::all().add(active).add(name_contains(text)),
        PersonFilter::Customers => only(Expr::col("kind").eq(Kind::Customer.as_str())),
        PersonFilter::BusinessContacts => only(Expr::col("kind").eq(Kind::Contact.as_str())),
        PersonFilter::PrimaryContactPerson => only(contact_of_addresses(&[])),
        PersonFilter::Shipping => only(contact_of_addresses(&["shipping"])),
        PersonFilter::Billing => only(contact_of_addresses(&["billing"])),
        PersonFilter::Both => Cond::all()
            .add(active)
            .add(contact_of_addresses(&["shipping"]))
            .add(contact_of_addresses(&["billing"])),
    }
}

/// The company's live persons of kind `K` after person `after`, by id, at most `limit`:
/// an export's batch.
pub async fn after<K: Persons>(
    db: &Db,
    company: CompanyId,
    after: i64,
    limit: u64,
) -> Result<Vec<PersonView>, StoreError> {
    let (_, rows) = crate::with_columns(live(company, K::PERSON), columns());
    let persons: Vec<Person> = crate::after(db, rows, "id", after, limit).await?;
    with_businesses(&mut db.read(), company, persons).await
}

/// A page of customers, of contacts, or (`kind` None) of both: three queries.
#[tracing::instrument(level = "debug", skip_all)]
pub async fn list(
    db: &Db,
    company: CompanyId,
    kind: Option<Kind>,
    filter: &PersonFilter,
    page: Page,
) -> Result<PageOf<PersonView>, StoreError> {
    static PAGES: crate::PageMemo<(i64, Option<&'static str>, PersonFilter)> =
        crate::PageMemo::new();
    let parts = || {
        let mut base = crate::scoped("persons", company)
            .and_where(Expr::col("deleted_at").is_null())
            .cond_where(condition(filter))
            .take();
        if let Some(kind) = kind {
            base.and_where(Expr::col("kind").eq(kind.as_str()));
        }
        crate::with_columns(base, columns())
    };
    let total = total(company, kind, filter);
    // The key clones the filter only for a counted list, whose filter holds no text.
    let key = match total {
        crate::Total::Counted(..) => filter.clone(),
        crate::Total::Filtered | crate::Total::Kept { .. } => PersonFilter::All,
    };
    let persons: PageOf<Person> = crate::memo_page_of(
        db,
        (&PAGES, (company.0, kind.map(Kind::as_str), key)),
        parts,
        "id",
        page,
        total,
        crate::Columns::Own,
    )
    .await?;
    let records = with_businesses(&mut db.read(), company, persons.records).await?;
    Ok(PageOf {
        records,
        total: persons.total,
    })
}

/// Checks that every id names a business of the company.
pub(crate) async fn check_businesses(
    tx: &mut Tx,
    company: CompanyId,
    field: &str,
    ids: &[Id<kind::Business>],
) -> Result<(), StoreError> {
    match crate::unknown_ids(tx, crate::scoped("businesses", company), ids, "business").await? {
        None => Ok(()),
        Some(problem) => Err(StoreError::invalid(field, problem)),
    }
}

/// Links `contact` to each business it is not yet linked to.
pub(crate) async fn link(
    tx: &mut Tx,
    company: CompanyId,
    contact: i64,
    businesses: &[Id<kind::Business>],
) -> Result<(), StoreError> {
    let existing = crate::scoped("business_contacts", company)
        .column("business_id")
        .and_where(Expr::col("contact_id").eq(contact))
        .to_owned();
    let existing: Vec<(i64,)> = tx.all(&existing).await?;
    let new: Vec<i64> = Id::raw(businesses)
        .into_iter()
        .filter(|b| !existing.iter().any(|e| e.0 == *b))
        .collect();
    crate::insert_links(
        tx,
        company,
        "business_contacts",
        ("contact_id", contact),
        "business_id",
        &new,
    )
    .await
}

/// Removes `contact` from every business not in `keep`, and from the addresses of
/// those businesses it was the point of contact of.
async fn unlink_except(
    tx: &mut Tx,
    company: CompanyId,
    contact: i64,
    keep: &[Id<kind::Business>],
) -> Result<(), StoreError> {
    let addresses = Query::update()
        .table("business_addresses")
        .values([("contact_id", Expr::val(Option::<i64>::None))])
        .and_where(Expr::col("company_id").eq(company.0))
        .and_where(Expr::col("contact_id").eq(contact))
        .and_where(Expr::col("business_id").is_not_in(keep.to_vec()))
        .to_owned();
    tx.execute(&addresses).await?;
    let links = Query::delete()
        .from_table("business_contacts")
        .and_where(Expr::col("company_id").eq(company.0))
        .and_where(Expr::col("contact_id").eq(contact))
        .and_where(Expr::col("business_id").is_not_in(keep.to_vec()))
        .to_owned();
    tx.execute(&links).await?;
    Ok(())
}

/// Writes the fields of `input` a create and an update write alike: the one place a
/// field of `PersonInput` meets its column.
fn assign(row: &mut Assignments, input: &PersonInput) {
    let PersonInput {
        first_name,
        last_name,
        email,
        description,
        employee_identification_number,
        category,
        address_block,
        collect_tax,
        login_enabled,
        subscribed_to_emails,
        // Links, written by `link` and `unlink_except`.
        business_ids: _,
        // Merged with the stored values by the caller.
        custom_attributes: _,
    } = input;
    row.change("first_name", first_name)
        .given("last_name", last_name)
        .change("email", email)
        .change("description", description)
        .change(
            "employee_identification_number",
            employee_identification_number,
        )
        .change("category", category)
        .address_block(AddressBlock::NAMES, address_block)
        .given("collect_tax", collect_tax)
        .given("login_enabled", login_enabled)
        .given("subscribed_to_emails", subscribed_to_emails);
}

#[tracing::instrument(level = "debug", skip_all)]
pub async fn create<K: Persons>(
    db: &Db,
    company: CompanyId,
    input: PersonInput,
) -> Result<PersonView, StoreError> {
    let mut tx = db.begin().await?;
    let id = create_in::<K>(&mut tx, company, input).await?;
    tx.commit().await?;
    find(db, company, id).await
}

/// [`create`], in a transaction of the caller's (an import's): the new person's id.
pub async fn create_in<K: Persons>(
    tx: &mut Tx,
    company: CompanyId,
    input: PersonInput,
) -> Result<Id<K>, StoreError> {
    let kind = K::PERSON;
    if input.last_name.is_none() {
        return Err(StoreError::invalid("last_name", "can't be blank"));
    }
    let input = PersonInput {
        collect_tax: Some(input.collect_tax.unwrap_or(true)),
        login_enabled: Some(input.login_enabled.unwrap_or(domain::login::PERSON_DEFAULT)),
        subscribed_to_emails: Some(input.subscribed_to_emails.unwrap_or(false)),
        ..input
    };
    domain::login::check_email(
        input.login_enabled == Some(true),
        input.email.as_set().map(String::as_str),
    )
    .map_err(|problem| StoreError::invalid("email", problem))?;
    let at = crate::now();
    let mut row = Assignments::insert();
    row.set("company_id", company.0)
        .set("kind", kind.as_str())
        .set("active", true)
        .set(
            "custom_attributes",
            merge_values("{}", &input.custom_attributes),
        )
        .set("created_at", at)
        .set("updated_at", at);
    assign(&mut row, &input);
    let businesses = input.business_ids.clone().unwrap_or_default();
    check_businesses(tx, company, "business_ids", &businesses).await?;
    let (id,): (i64,) = tx
        .one(
            &row.into_insert("persons")
                .returning(Query::returning().column("id"))
                .to_owned(),
        )
        .await?;
    link(tx, company, id, &businesses).await?;
    change_log::record(
        tx,
        company,
        kind.as_str(),
        id,
        "created",
        serde_json::json!({"business_ids": businesses}),
    )
    .await?;
    Ok(Id::new(id))
}

/// A page of the company's live persons of kind `K` that have an e-mail, by id, after
/// `after`: `(id, email)`. An import reads them once and matches its rows' e-mails in
/// memory, as [`crate::items::identifiers_in`] does identifiers.
pub async fn emails_in<K: Persons>(
    tx: &mut Tx,
    company: CompanyId,
    after: i64,
    limit: u64,
) -> Result<Vec<(i64, String)>, StoreError> {
    crate::values_after(tx, live(company, K::PERSON), ("id", "email"), after, limit).await
}

async fn locked<K: Persons>(
    tx: &mut Tx,
    company: CompanyId,
    id: Id<K>,
) -> Result<Person, StoreError> {
    let kind = K::PERSON;
    let stmt = live(company, kind)
        .columns(columns())
        .and_where(Expr::col("id").eq(id))
        .lock(LockType::Update)
        .to_owned();
    tx.optional(&stmt).await?.ok_or(id.missing())
}

#[tracing::instrument(level = "debug", skip_all)]
pub async fn update<K: Persons>(
    db: &Db,
    company: CompanyId,
    id: Id<K>,
    input: PersonInput,
) -> Result<PersonView, StoreError> {
    let mut tx = db.begin().await?;
    update_in(&mut tx, company, id, input).await?;
    tx.commit().await?;
    find(db, company, id).await
}

/// [`update`], in a transaction of the caller's (an import's).
pub async fn update_in<K: Persons>(
    tx: &mut Tx,
    company: CompanyId,
    id: Id<K>,
    input: PersonInput,
) -> Result<(), StoreError> {
    let kind = K::PERSON;
    let before = locked(tx, company, id).await?;
    let email = match &input.email {
        Change::Keep => before.email.clone(),
        Change::Set(e) => Some(e.clone()),
        Change::Clear => None,
    };
    domain::login::check_email(
        input.login_enabled.unwrap_or(before.login_enabled),
        email.as_deref(),
    )
    .map_err(|problem| StoreError::invalid("email", problem))?;
    if kind == Kind::Customer && matches!(input.first_name, Change::Clear) {
        return Err(StoreError::invalid("first_name", "can't be blank"));
    }
    if let Some(businesses) = &input.business_ids {
        check_businesses(tx, company, "business_ids", businesses).await?;
    }
    let mut row = Assignments::update();
    assign(&mut row, &input);
    if !input.custom_attributes.is_empty() {
        row.set(
            "custom_attributes",
            merge_values(&before.custom_attributes, &input.custom_attributes),
        );
    }
    let details = serde_json::json!({"fields": row.columns(), "business_ids": input.business_ids});
    tx.execute(&row.into_update("persons", company, id.get()))
        .await?;
    if let Some(businesses) = &input.business_ids {
        unlink_except(tx, company, id.get(), businesses).await?;
        link(tx, company, id.get(), businesses).await?;
    }
    change_log::record(tx, company, kind.as_str(), id.get(), "updated", details).await?;
    Ok(())
}

#[tracing::instrument(level = "debug", skip_all)]
pub async fn set_active<K: Persons>(
    db: &Db,
    company: CompanyId,
    id: Id<K>,
    active: bool,
) -> Result<PersonView, StoreError> {
    let kind = K::PERSON;
    let mut tx = db.begin().await?;
    let before = locked(&mut tx, company, id).await?;
    crate::activation::set_active(
        &mut tx,
        company,
        ("persons", kind.as_str()),
        id.get(),
        before.active,
        active,
    )
    .await?;
    tx.commit().await?;
    find(db, company, id).await
}

/// Deletes a customer or contact: refused (409) while it has open orders. The row is
/// kept, marked deleted, so orders keep naming it; its business links go.
#[tracing::instrument(level = "debug", skip_all)]
pub async fn delete<K: Persons>(
    db: &Db,
    company: CompanyId,
    id: Id<K>,
) -> Result<PersonView, StoreError> {
    let kind = K::PERSON;
    let view = find(db, company, id).await?;
    let mut tx = db.begin().await?;
    let person = locked(&mut tx, company, id).await?;
    let open = crate::scoped("orders", company)
        .and_where(Expr::col("customer_id").eq(id))
        .and_where(Expr::col("basket_state").is_in(OrderState::OPEN.map(OrderState::as_str)))
        .to_owned();
    removal::refuse_if_used(&mut tx, open, |n| InUse {
        record: match kind {
            Kind::Customer => Record::Customer,
            Kind::Contact => Record::Contact,
        },
        name: person.full_name(),
        by: Users::OpenOrders(n),
    })
    .await?;
    unlink_except(&mut tx, company, id.get(), &[]).await?;
    let mut row = Assignments::update();
    row.set("deleted_at", crate::now());
    tx.execute(&row.into_update("persons", company, id.get()))
        .await?;
    change_log::record(
        &mut tx,
        company,
        kind.as_str(),
        id.get(),
        "deleted",
        serde_json::json!({"name": person.full_name()}),
    )
    .await?;
    tx.commit().await?;
    Ok(view)
}

/// Adds existing contacts to a business (those already in it stay as they are).
#[tracing::instrument(level = "debug", skip_all)]
pub async fn add_contacts_to_business(
    db: &Db,
    company: CompanyId,
    business: Id<kind::Business>,
    contacts: &[Id<kind::Contact>],
) -> Result<Vec<PersonView>, StoreError> {
    let contacts = &Id::raw(contacts)[..];
    let mut tx = db.begin().await?;
    let stmt = crate::scoped("businesses", company)
        .column("id")
        .and_where(Expr::col("id").eq(business))
        .lock(LockType::Update)
        .to_owned();
    if tx.optional::<(i64,)>(&stmt).await?.is_none() {
        return Err(StoreError::invalid(
            "business_id",
            format!("is not a business of this company: no business with id {business}"),
        ));
    }
    let contacts_of = live(company, Kind::Contact);
    if let Some(problem) = crate::unknown_ids(&mut tx, contacts_of, contacts, "contact").await? {
        return Err(StoreError::invalid("contact_ids", problem));
    }
    // Two statements whatever the number of contacts, so even the largest request
    // holds the write lock for milliseconds: the links it already has, then one insert
    // of the rest.
    let existing = crate::scoped("business_contacts", company)
        .column("contact_id")
        .and_where(Expr::col("business_id").eq(business))
        .and_where(Expr::col("contact_id").is_in(contacts.to_vec()))
        .to_owned();
    let existing: std::collections::HashSet<i64> = tx
        .all::<(i64,)>(&existing)
        .await?
        .into_iter()
        .map(|r| r.0)
        .collect();
    let new: Vec<i64> = contacts
        .iter()
        .copied()
        .filter(|c| !existing.contains(c))
        .collect();
    crate::insert_links(
        &mut tx,
        company,
        "business_contacts",
        ("business_id", business.get()),
        "contact_id",
        &new,
    )
    .await?;
    change_log::record(
        &mut tx,
        company,
        "business",
        business.get(),
        "contacts_added",
        serde_json::json!({"contact_ids": contacts}),
    )
    .await?;
    tx.commit().await?;
    let mut read = db.read();
    let stmt = live(company, Kind::Contact)
        .columns(columns())
        .and_where(Expr::col("id").is_in(contacts.to_vec()))
        .to_owned();
    let people: Vec<Person> = read.all(&stmt).await?;
    let mut views = with_businesses(&mut read, company, people).await?;
    // In the order the request named them.
    let position: std::collections::HashMap<i64, usize> =
        contacts.iter().enumerate().map(|(i, c)| (*c, i)).collect();
    views.sort_by_key(|v| position.get(&v.person.id).copied().unwrap_or(usize::MAX));
    Ok(views)
}

/// The partitions of `list_counts` persons are counted in (migration 0007's trigger):
/// by kind and status; a deleted person is in none.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Counted {
    CustomerActive,
    CustomerInactive,
    ContactActive,
    ContactInactive,
}

impl crate::Partition for Counted {
    const ALL: &'static [Self] = &[
        Counted::CustomerActive,
        Counted::CustomerInactive,
        Counted::ContactActive,
        Counted::ContactInactive,
    ];

    fn key(self) -> &'static str {
        match self {
            Counted::CustomerActive => "persons:customer:active",
            Counted::CustomerInactive => "persons:customer:inactive",
            Counted::ContactActive => "persons:contact:active",
            Counted::ContactInactive => "persons:contact:inactive",
        }
    }
}

/// The total of customers, contacts or (`kind` None) both, as `filter` narrows them:
/// counted unless it filters on more than kind and status.
fn total(company: CompanyId, kind: Option<Kind>, filter: &PersonFilter) -> crate::Total {
    use Counted::*;
    use PersonFilter as F;
    let partitions: &[Counted] = match (kind, filter) {
        (Some(Kind::Customer), F::Active) | (None, F::Customers) => &[CustomerActive],
        (Some(Kind::Customer), F::Inactive) => &[CustomerInactive],
        (Some(Kind::Customer), F::All) => &[CustomerActive, CustomerInactive],
        (Some(Kind::Contact), F::Active) | (None, F::BusinessContacts) => &[ContactActive],
        (Some(Kind::Contact), F::Inactive) => &[ContactInactive],
        (Some(Kind::Contact), F::All) => &[ContactActive, ContactInactive],
        (None, F::Active) => &[CustomerActive, ContactActive],
        (None, F::Inactive) => &[CustomerInactive, ContactInactive],
        (None, F::All) => <Counted as crate::Partition>::ALL,
        _ => return crate::Total::Filtered,
    };
    crate::Total::of(company, partitions.iter().copied())
}
