//! A company moved between databases, table by table (`rentrack export` and
//! `rentrack import-company`, docs/import.md). [`read`] gives each of the company's
//! rows as a JSON object, its values by column type, the same from either database;
//! [`Importer`] writes them under a new company in one transaction, each record given
//! an id by the target and every reference to it rewritten.

use std::collections::HashMap;

use chrono::{DateTime, SecondsFormat, Utc};
use sea_query::{Alias, Expr, ExprTrait, Query, Value, Values};
use serde_json::{Map, Value as Json};

use crate::engine::{Loose, sqlite};
use crate::{Backend, CompanyId, Db, Statement, StoreError, Tx};

/// A table of a company's records and the columns in it that hold another record's id.
#[derive(Debug, Clone, Copy)]
pub struct Table {
    pub name: &'static str,
    /// Each column holding an id, with the table the id is of ([`ADDRESS`]: an
    /// order's address, of its customer or of its business).
    refs: &'static [(&'static str, &'static str)],
}

/// The order's addresses are the customer's or the business's.
const ADDRESS: &str = "(address)";

const fn table(name: &'static str, refs: &'static [(&'static str, &'static str)]) -> Table {
    Table { name, refs }
}

/// Every table a move copies, each after the tables its required references name (a
/// reference to its own table or a later one is written once every row is in).
pub const TABLES: &[Table] = &[
    table("owners", &[]),
    table("api_tokens", &[]),
    table("company_counters", &[]),
    table("locations", &[("parent_id", "locations")]),
    table("asset_groups", &[]),
    table(
        "sub_groups",
        &[("group_id", "asset_groups"), ("parent_id", "sub_groups")],
    ),
    table("vendors", &[]),
    table("custom_roles", &[]),
    table("teams", &[]),
    table("retire_reasons", &[]),
    table("custom_fields", &[]),
    table(
        "custom_field_options",
        &[("custom_field_id", "custom_fields")],
    ),
    table("listings", &[]),
    table("members", &[("custom_role_id", "custom_roles")]),
    table(
        "member_teams",
        &[("member_id", "members"), ("team_id", "teams")],
    ),
    table(
        "member_addresses",
        &[("member_id", "members"), ("created_by_id", "members")],
    ),
    table("persons", &[]),
    table("businesses", &[]),
    table(
        "business_contacts",
        &[("business_id", "businesses"), ("contact_id", "persons")],
    ),
    table(
        "customer_addresses",
        &[("customer_id", "persons"), ("created_by_id", "members")],
    ),
    table(
        "business_addresses",
        &[
            ("business_id", "businesses"),
            ("contact_id", "persons"),
            ("created_by_id", "members"),
        ],
    ),
    table("custom_taxes", &[]),
    table("group_taxes", &[]),
    table(
        "group_tax_components",
        &[
            ("group_tax_id", "group_taxes"),
            ("custom_tax_id", "custom_taxes"),
        ],
    ),
    table("coupons", &[]),
    table("payment_options", &[]),
    table("bundles", &[]),
    table("print_label_templates", &[]),
    table("custom_filters", &[]),
    table("webhooks", &[]),
    table("imports", &[]),
    table(
        "orders",
        &[
            ("customer_id", "persons"),
            ("business_id", "businesses"),
            ("location_id", "locations"),
            ("pick_up_location_id", "locations"),
            ("assigned_to_id", "members"),
            ("shipping_address_id", ADDRESS),
            ("pick_up_address_id", ADDRESS),
        ],
    ),
    table(
        "items",
        &[
            ("group_id", "asset_groups"),
            ("sub_group_id", "sub_groups"),
            ("location_id", "locations"),
            ("assigned_to_id", "members"),
            ("retire_reason_id", "retire_reasons"),
            ("rented_order_id", "orders"),
        ],
    ),
    table("stock_levels", &[("location_id", "locations")]),
    table(
        "asset_checkouts",
        &[
            ("item_id", "items"),
            ("member_id", "members"),
            ("checkout_location_id", "locations"),
            ("checkin_location_id", "locations"),
        ],
    ),
    table(
        "reservation_requests",
        &[("item_id", "items"), ("member_id", "members")],
    ),
    table(
        "verifications",
        &[("item_id", "items"), ("member_id", "members")],
    ),
    table("gps_readings", &[("item_id", "items")]),
    table(
        "item_custom_taxes",
        &[("item_id", "items"), ("custom_tax_id", "custom_taxes")],
    ),
    table(
        "stock_thresholds",
        &[("item_id", "items"), ("location_id", "locations")],
    ),
    table(
        "stock_line_items",
        &[
            ("item_id", "items"),
            ("member_id", "members"),
            ("location_id", "locations"),
            ("checked_out_to_location_id", "locations"),
        ],
    ),
    table(
        "stock_checkins",
        &[
            ("line_item_id", "stock_line_items"),
            ("location_id", "locations"),
        ],
    ),
    table("item_services", &[("item_id", "items")]),
    table(
        "bundle_items",
        &[("bundle_id", "bundles"), ("item_id", "items")],
    ),
    table(
        "order_line_items",
        &[
            ("order_id", "orders"),
            ("item_id", "items"),
            ("location_id", "locations"),
            ("bundle_id", "bundles"),
        ],
    ),
    table("payment_histories", &[("order_id", "orders")]),
    table(
        "order_coupons",
        &[("order_id", "orders"), ("coupon_id", "coupons")],
    ),
    table(
        "order_taxes",
        &[
            ("order_id", "orders"),
            ("custom_tax_id", "custom_taxes"),
            ("group_tax_id", "group_taxes"),
        ],
    ),
    table("order_custom_entries", &[("order_id", "orders")]),
    table("order_sub_rent_items", &[("order_id", "orders")]),
    table("label_prints", &[("template_id", "print_label_templates")]),
    // Its `subject_id` is of the table its `subject_type` names ([`SUBJECTS`]).
    table("change_log", &[]),
];

/// A company's tables a move leaves behind, and why.
pub const LEFT_BEHIND: &[(&str, &str)] = &[
    ("sessions", "console log-ins end with the move"),
    ("staff_sessions", "staff log-ins end with the move"),
    (
        "staff_invitations",
        "an invitation link is made again where the company is",
    ),
    ("rate_limit_windows", "a rate limit's window starts afresh"),
    ("api_usage", "usage is counted where requests are served"),
    ("list_counts", "the target counts the rows as they go in"),
    ("webhook_events", "events already sent are not sent again"),
    (
        "webhook_deliveries",
        "a delivery log belongs to the instance that sent",
    ),
];

/// Integer columns named like references that are rewritten by a rule of their own: a
/// member's `role_id` is its `custom_role_id` when it has one.
#[cfg(test)]
const NOT_REFERENCES: &[(&str, &str)] = &[("members", "role_id")];

/// Text columns (of any table) and keys of the change log's details holding a JSON map
/// keyed by custom field id: the values of custom fields.
const FIELD_VALUES: &[&str] = &[
    "custom_attributes",
    "checkout_values",
    "checkin_values",
    "item_custom_attribute_values",
];

/// The table of each `subject_type` of the change log.
const SUBJECTS: &[(&str, &str)] = &[
    ("item", "items"),
    ("order", "orders"),
    ("customer", "persons"),
    ("contact", "persons"),
    ("member", "members"),
    ("location", "locations"),
    ("business", "businesses"),
    ("vendor", "vendors"),
    ("group", "asset_groups"),
    ("sub_group", "sub_groups"),
    ("listing", "listings"),
    ("custom_field", "custom_fields"),
    ("coupon", "coupons"),
    ("print_label_template", "print_label_templates"),
    ("payment_option", "payment_options"),
    ("owner", "owners"),
    ("group_tax", "group_taxes"),
    ("custom_tax", "custom_taxes"),
    ("custom_filter", "custom_filters"),
    ("bundle", "bundles"),
    ("webhook", "webhooks"),
    ("custom_role", "custom_roles"),
    ("team", "teams"),
    ("retire_reason", "retire_reasons"),
    ("member_address", "member_addresses"),
    ("customer_address", "customer_addresses"),
    ("business_address", "business_addresses"),
];

/// The keys of the change log's details that hold ids (or lists of ids), anywhere in
/// them, each with the table the ids are of: for any subject (`""`) or for one.
const DETAILS: &[(&str, &str, &str)] = &[
    ("", "location_id", "locations"),
    ("", "from_location_id", "locations"),
    ("", "checked_out_to_location_id", "locations"),
    ("", "group_id", "asset_groups"),
    ("", "member_id", "members"),
    ("", "user_id", "members"),
    ("", "assigned_to_id", "members"),
    ("", "sold_to_id", "members"),
    ("", "verification_id", "verifications"),
    ("", "reservation_id", "reservation_requests"),
    ("", "service_id", "item_services"),
    ("", "payment_history_id", "payment_histories"),
    ("", "retire_reason_id", "retire_reasons"),
    ("", "customer_id", "persons"),
    ("", "business_ids", "businesses"),
    ("", "contact_ids", "persons"),
    ("", "team_ids", "teams"),
    ("", "group_tax_ids", "group_taxes"),
    ("", "custom_tax_ids", "custom_taxes"),
    ("", "coupon_ids", "coupons"),
    ("", "bundle_ids", "bundles"),
    ("", "sub_rent_item_ids", "order_sub_rent_items"),
    ("order", "line_item_id", "order_line_items"),
    ("item", "line_item_id", "stock_line_items"),
    ("location", "parent_id", "locations"),
    ("member_address", "owner_id", "members"),
    ("customer_address", "owner_id", "persons"),
    ("business_address", "owner_id", "businesses"),
];

/// The table of the ids under `key` in the details of a `subject`'s entry, if it holds ids.
fn detail_table(subject: &str, key: &str) -> Option<&'static str> {
    DETAILS
        .iter()
        .find(|(s, k, _)| *k == key && (*s == subject || s.is_empty()))
        .map(|(.., table)| *table)
}

/// A column as both databases describe it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Column {
    pub name: String,
    /// The declared type, upper case (`BIGINT`, `TIMESTAMP WITH TIME ZONE`, ...).
    pub declared: String,
}

impl Column {
    fn kind(&self) -> Kind {
        match self.declared.as_str() {
            "INTEGER" | "BIGINT" => Kind::Integer,
            "BOOLEAN" => Kind::Boolean,
            "DATE" => Kind::Date,
            "BLOB" | "BYTEA" => Kind::Bytes,
            t if t.starts_with("TIMESTAMP") => Kind::Moment,
            _ => Kind::Text,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Integer,
    Boolean,
    Date,
    Bytes,
    Moment,
    Text,
}

/// The columns of every table of the database, by table, in each table's order.
pub async fn schema(db: &Db) -> Result<HashMap<String, Vec<Column>>, StoreError> {
    let mut tables: HashMap<String, Vec<Column>> = HashMap::new();
    for (table, name, declared, _) in db.columns().await? {
        tables
            .entry(table)
            .or_default()
            .push(Column { name, declared });
    }
    Ok(tables)
}

/// The number of the last migration applied: a move needs the same on both sides.
pub async fn schema_version(db: &Db) -> Result<i64, StoreError> {
    let stmt = Query::select()
        .expr(Expr::col("version").max())
        .from("_rentrack_migrations")
        .to_owned();
    let (version,): (Option<i64>,) = db.read().one(&stmt).await?;
    Ok(version.unwrap_or(0))
}

/// A SELECT of a table's columns as text, worded for each database.
struct Select {
    sqlite: String,
    postgres: String,
    values: Values,
}

impl Statement for Select {
    fn render(&self, backend: Backend) -> (String, Values) {
        match backend {
            Backend::Sqlite => (self.sqlite.clone(), self.values.clone()),
            Backend::Postgres => (self.postgres.clone(), self.values.clone()),
        }
    }
}

/// How many rows [`read`] reads at a time.
const BATCH: i64 = 2_000;

/// Hands each of the company's rows of `table` to `each`, as a JSON object of its
/// columns but `company_id`, in the order of its id (or of its columns), read
/// [`BATCH`] at a time in `tx` (a read transaction: one moment's rows). The table
/// `companies` gives the company's own row.
pub async fn read(
    tx: &mut Tx,
    company: CompanyId,
    table: &str,
    columns: &[Column],
    each: &mut (dyn FnMut(Map<String, Json>) -> Result<(), MoveError> + Send),
) -> Result<u64, MoveError> {
    let own: Vec<&Column> = columns.iter().filter(|c| c.name != "company_id").collect();
    let has_id = own.iter().any(|c| c.name == "id");
    let scope = if table == "companies" {
        "id"
    } else {
        "company_id"
    };
    let quoted = |c: &Column| format!("\"{}\"", c.name);
    let as_text = |c: &Column| match c.kind() {
        Kind::Moment => format!(
            "to_char({} AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.US\"Z\"')",
            quoted(c)
        ),
        Kind::Bytes => format!("encode({}, 'hex')", quoted(c)),
        _ => format!("{}::text", quoted(c)),
    };
    // Qualified: on PostgreSQL a bare name would be the column as text.
    let order: Vec<String> = match has_id {
        true => vec![format!("\"{table}\".\"id\"")],
        false => own
            .iter()
            .map(|c| format!("\"{table}\".{}", quoted(c)))
            .collect(),
    };
    let text = |list: Vec<String>, after: &str| {
        format!(
            "SELECT {} FROM \"{table}\" WHERE {scope} = $1{after} ORDER BY {} LIMIT $3 OFFSET $4",
            list.join(", "),
            order.join(", ")
        )
    };
    let after = if has_id {
        " AND id > $2"
    } else {
        " AND $2 = $2"
    };
    let sqlite_text = text(own.iter().map(|c| quoted(c)).collect(), after);
    let postgres_text = text(own.iter().map(|c| as_text(c)).collect(), after);
    let mut last = 0_i64;
    let mut offset = 0_i64;
    let mut count = 0;
    loop {
        let stmt = Select {
            sqlite: sqlite_text.clone(),
            postgres: postgres_text.clone(),
            values: Values(vec![
                company.0.into(),
                last.into(),
                BATCH.into(),
                offset.into(),
            ]),
        };
        let rows: Vec<Loose> = tx.all(&stmt).await?;
        let read = rows.len() as i64;
        for Loose(cells) in rows {
            let mut object = Map::new();
            for (column, cell) in own.iter().zip(cells) {
                let value = json(column, cell)
                    .map_err(|e| refused(format!("{table}.{}: {e}", column.name)))?;
                object.insert(column.name.clone(), value);
            }
            if has_id {
                last = object.get("id").and_then(Json::as_i64).unwrap_or(last);
            }
            each(object)?;
            count += 1;
        }
        if read < BATCH {
            return Ok(count);
        }
        if !has_id {
            offset += BATCH;
        }
    }
}

/// A cell's text as the JSON value of its column's type.
fn json(column: &Column, cell: Option<String>) -> Result<Json, String> {
    let Some(text) = cell else {
        return Ok(Json::Null);
    };
    Ok(match column.kind() {
        Kind::Integer => text
            .parse::<i64>()
            .map(Json::from)
            .map_err(|_| format!("{text:?} is no whole number"))?,
        Kind::Boolean => Json::Bool(matches!(text.as_str(), "1" | "true" | "t")),
        Kind::Moment => {
            let at = DateTime::parse_from_rfc3339(&text)
                .map(|t| t.with_timezone(&Utc))
                .ok()
                .or_else(|| sqlite::moment(&text))
                .ok_or_else(|| format!("{text:?} is no moment"))?;
            Json::String(at.to_rfc3339_opts(SecondsFormat::Micros, true))
        }
        Kind::Date | Kind::Bytes | Kind::Text => Json::String(text),
    })
}

/// A JSON value as the value of a column of the target.
fn value(column: &Column, json: &Json, backend: Backend) -> Result<Value, String> {
    let wrong = || {
        format!(
            "{json} is no value of {} ({})",
            column.name, column.declared
        )
    };
    if json.is_null() {
        return Ok(match column.kind() {
            Kind::Integer => Value::BigInt(None),
            Kind::Boolean => Value::Bool(None),
            Kind::Moment => Value::ChronoDateTimeUtc(None),
            Kind::Date => Value::ChronoDate(None),
            Kind::Bytes => Value::Bytes(None),
            Kind::Text => Value::String(None),
        });
    }
    Ok(match column.kind() {
        Kind::Integer => {
            let n = json.as_i64().ok_or_else(wrong)?;
            // PostgreSQL's INTEGER is 32 bits and takes no 64-bit parameter.
            match (backend, column.declared.as_str()) {
                (Backend::Postgres, "INTEGER") => i32::try_from(n).map_err(|_| wrong())?.into(),
                _ => n.into(),
            }
        }
        Kind::Boolean => json.as_bool().ok_or_else(wrong)?.into(),
        Kind::Moment => {
            let text = json.as_str().ok_or_else(wrong)?;
            DateTime::parse_from_rfc3339(text)
                .map_err(|_| wrong())?
                .with_timezone(&Utc)
                .into()
        }
        Kind::Date => {
            let text = json.as_str().ok_or_else(wrong)?;
            chrono::NaiveDate::parse_from_str(text, "%Y-%m-%d")
                .map_err(|_| wrong())?
                .into()
        }
        Kind::Bytes => {
            let text = json.as_str().ok_or_else(wrong)?;
            let bytes: Option<Vec<u8>> = (0..text.len())
                .step_by(2)
                .map(|i| {
                    text.get(i..i + 2)
                        .and_then(|b| u8::from_str_radix(b, 16).ok())
                })
                .collect();
            bytes.ok_or_else(wrong)?.into()
        }
        Kind::Text => match json {
            Json::String(s) => s.clone().into(),
            other => other.to_string().into(),
        },
    })
}

/// What stops an import of a company.
#[derive(Debug, thiserror::Error)]
pub enum MoveError {
    /// The export cannot go into this database (or out of that one), in words.
    #[error("{0}")]
    Refused(String),
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// A refusal in words.
pub fn refused(message: impl Into<String>) -> MoveError {
    MoveError::Refused(message.into())
}

/// A company written into the target a table at a time, in one transaction.
pub struct Importer {
    tx: Tx,
    backend: Backend,
    company: CompanyId,
    schema: HashMap<String, std::sync::Arc<[Column]>>,
    /// Each table's old id to its new one.
    ids: HashMap<&'static str, HashMap<i64, i64>>,
    /// Each address's owner in the source (customer or business), by its table.
    address_owners: HashMap<(&'static str, i64), i64>,
    /// References written once every row is in: table, new id, column, table of the
    /// id, old id.
    later: Vec<(&'static str, i64, &'static str, &'static str, i64)>,
    /// The API token issued when the export's is in use in this database (a copy
    /// beside its original).
    token: Option<crate::companies::IssuedToken>,
    /// By table, the ids taken from PostgreSQL's sequence not given yet, or on SQLite
    /// the last id given ([`Importer::new_row_id`]).
    ahead: HashMap<&'static str, std::collections::VecDeque<i64>>,
    /// Rows not written yet, of one table: written together ([`Importer::flush`]).
    pending: Option<Pending>,
}

/// Rows of one table waiting to be written in one statement.
struct Pending {
    table: &'static str,
    columns: Vec<Alias>,
    rows: Vec<Vec<sea_query::SimpleExpr>>,
}

/// How many values one statement of an import writes at most (both databases take
/// 32,766 parameters or more).
const VALUES_A_STATEMENT: usize = 16_000;

impl Importer {
    /// Creates the company from its exported row, as `subdomain`.
    pub async fn begin(
        db: &Db,
        company: &Map<String, Json>,
        subdomain: &str,
    ) -> Result<Importer, MoveError> {
        let schema = schema(db).await?;
        let backend = db.backend();
        let mut tx = db.begin().await?;
        // Its list counts added once at commit, not row by row.
        tx.bulk().await?;
        let taken = Query::select()
            .column("id")
            .from("companies")
            .and_where(Expr::col("subdomain").eq(subdomain))
            .to_owned();
        let existing: Option<(i64,)> = tx.optional(&taken).await?;
        if existing.is_some() {
            return Err(refused(format!(
                "the subdomain {subdomain} is taken in the target database: choose another"
            )));
        }
        let columns = schema
            .get("companies")
            .ok_or_else(|| refused("the target database has no companies table: migrate it"))?;
        let mut names = Vec::new();
        let mut values = Vec::new();
        for column in columns.iter().filter(|c| c.name != "id") {
            let json = match column.name.as_str() {
                "subdomain" => Json::String(subdomain.to_owned()),
                name => company.get(name).cloned().unwrap_or(Json::Null),
            };
            names.push(Alias::new(column.name.as_str()));
            values.push(Expr::val(value(column, &json, backend).map_err(refused)?));
        }
        let insert = Query::insert()
            .into_table("companies")
            .columns(names)
            .values(values)
            .map_err(|e| refused(e.to_string()))?
            .returning_col("id")
            .to_owned();
        let (id,): (i64,) = tx.one(&insert).await?;
        Ok(Importer {
            tx,
            backend,
            company: CompanyId(id),
            schema: schema.into_iter().map(|(t, c)| (t, c.into())).collect(),
            ids: HashMap::new(),
            address_owners: HashMap::new(),
            later: Vec::new(),
            token: None,
            ahead: HashMap::new(),
            pending: None,
        })
    }

    /// The new id of the record `old` of `table`, if it was written.
    fn new_id(&self, table: &str, old: i64) -> Option<i64> {
        self.ids.get(table).and_then(|ids| ids.get(&old)).copied()
    }

    /// Writes one exported row of `table`.
    pub async fn row(&mut self, table: &Table, row: &Map<String, Json>) -> Result<(), MoveError> {
        let columns = self.schema.get(table.name).cloned().ok_or_else(|| {
            refused(format!(
                "the target database has no table {}: migrate it",
                table.name
            ))
        })?;
        let old_id = row.get("id").and_then(Json::as_i64);
        let mut names = Vec::new();
        let mut values = Vec::new();
        let mut later = Vec::new();
        for column in columns.iter().filter(|c| c.name != "id") {
            let mut json = match column.name.as_str() {
                "company_id" => Json::from(self.company.0),
                name => row.get(name).cloned().unwrap_or(Json::Null),
            };
            let target = table
                .refs
                .iter()
                .find(|(c, _)| *c == column.name)
                .map(|(c, t)| (*c, *t));
            if let (Some((name, of)), Some(old)) = (target, json.as_i64()) {
                let of = match of {
                    ADDRESS => self.address_table(row, old)?,
                    of => of,
                };
                match self.new_id(of, old) {
                    Some(new) => json = Json::from(new),
                    None if of == table.name || !self.ids.contains_key(of) => {
                        later.push((name, of, old));
                        json = Json::Null;
                    }
                    None => {
                        return Err(refused(format!(
                            "{} {}: its {name} names {of} {old}, which the export does not hold",
                            table.name,
                            old_id.unwrap_or(0)
                        )));
                    }
                }
            }
            match (table.name, column.name.as_str()) {
                // A token in use here (the company copied beside itself): a new one,
                // for the API; a label link's stops working in the copy.
                ("api_tokens" | "label_prints", "token_hash")
                    if self.taken(table.name, &json).await? =>
                {
                    let token = crate::tokens::generate_token();
                    json = Json::String(crate::tokens::hash_token(&token.0));
                    if table.name == "api_tokens" {
                        self.token = Some(token);
                    }
                }
                ("change_log", "subject_id") => json = Json::from(self.subject(row)?),
                ("change_log", "details") => json = self.details(row, json),
                ("members", "role_id") => {
                    // A custom role's member has its id as `role_id` too.
                    let custom = row.get("custom_role_id").and_then(Json::as_i64);
                    if let Some(new) = custom.and_then(|old| self.new_id("custom_roles", old)) {
                        json = Json::from(new);
                    }
                }
                (_, name) if FIELD_VALUES.contains(&name) => {
                    if let Some(text) = json.as_str() {
                        let mut values = serde_json::from_str(text).unwrap_or(Json::Null);
                        self.rewrite_field_ids(&mut values);
                        if values.is_object() {
                            json = Json::String(values.to_string());
                        }
                    }
                }
                _ => {}
            }
            names.push(Alias::new(column.name.as_str()));
            values.push(Expr::val(
                value(column, &json, self.backend)
                    .map_err(|e| refused(format!("{}: {e}", table.name)))?,
            ));
        }
        let name = table.name;
        if let Some(old) = old_id {
            let new = self.new_row_id(name).await?;
            self.ids.entry(name).or_default().insert(old, new);
            names.push(Alias::new("id"));
            values.push(Expr::val(new));
            for (column, of, old_ref) in later {
                self.later.push((name, new, column, of, old_ref));
            }
            for (addresses, owner) in [
                ("customer_addresses", "customer_id"),
                ("business_addresses", "business_id"),
            ] {
                if name == addresses
                    && let Some(o) = row.get(owner).and_then(Json::as_i64)
                {
                    self.address_owners.insert((addresses, old), o);
                }
            }
        }
        if self.pending.as_ref().is_some_and(|p| p.table != name) {
            self.flush().await?;
        }
        let width = names.len().max(1);
        let pending = self.pending.get_or_insert_with(|| Pending {
            table: name,
            columns: names,
            rows: Vec::new(),
        });
        pending.rows.push(values);
        if pending.rows.len() * width >= VALUES_A_STATEMENT {
            self.flush().await?;
        }
        Ok(())
    }

    /// Writes the rows waiting, in one statement.
    async fn flush(&mut self) -> Result<(), MoveError> {
        let Some(Pending {
            table,
            columns,
            rows,
        }) = self.pending.take()
        else {
            return Ok(());
        };
        let mut insert = Query::insert();
        insert.into_table(Alias::new(table)).columns(columns);
        for row in rows {
            insert
                .values(row)
                .map_err(|e| refused(format!("{table}: {e}")))?;
        }
        self.tx.execute(&insert).await?;
        Ok(())
    }

    /// An id for a new row of `table`: on PostgreSQL from the table's sequence, a
    /// block at a time; on SQLite counted on from the largest the table has had (the
    /// import's transaction holds the database's write lock).
    async fn new_row_id(&mut self, table: &'static str) -> Result<i64, MoveError> {
        if let Some(ids) = self.ahead.get_mut(table) {
            match self.backend {
                Backend::Sqlite => {
                    let next = ids.back().map_or(1, |last| last + 1);
                    ids.clear();
                    ids.push_back(next);
                    return Ok(next);
                }
                Backend::Postgres => {
                    if let Some(id) = ids.pop_front() {
                        return Ok(id);
                    }
                }
            }
        }
        const BLOCK: i64 = 1_000;
        let (sqlite, postgres, values) = match self.backend {
            Backend::Sqlite => (
                format!(
                    "SELECT max(coalesce((SELECT max(id) FROM \"{table}\"), 0), \
                     coalesce((SELECT seq FROM sqlite_sequence WHERE name = $1), 0)) + 1"
                ),
                String::new(),
                vec![table.into()],
            ),
            Backend::Postgres => (
                String::new(),
                "SELECT nextval(pg_get_serial_sequence($1, 'id')) FROM generate_series(1, $2)"
                    .to_owned(),
                vec![table.into(), BLOCK.into()],
            ),
        };
        let stmt = Select {
            sqlite,
            postgres,
            values: Values(values),
        };
        let taken: Vec<(i64,)> = self.tx.all(&stmt).await?;
        let ids = self.ahead.entry(table).or_default();
        ids.extend(taken.into_iter().map(|t| t.0));
        match self.backend {
            // The last id given stays, for the next to follow it.
            Backend::Sqlite => ids.back().copied(),
            Backend::Postgres => ids.pop_front(),
        }
        .ok_or_else(|| refused(format!("{table}: the database gave no id")))
    }

    /// Whether a row of `table` (over all companies) has the token hash `hash`.
    async fn taken(&mut self, table: &'static str, hash: &Json) -> Result<bool, StoreError> {
        let hash = hash.as_str().unwrap_or("");
        if self.backend == Backend::Postgres {
            // Copies of one export going in at once would each find its token free, and
            // all but the first fail on the unique key at insert: they take turns on the
            // token until commit (SQLite's writes take turns already).
            let turn = Query::select()
                .expr(Expr::cust_with_values(
                    "(SELECT 1::BIGINT FROM pg_advisory_xact_lock(hashtextextended($1, 0)))",
                    [hash],
                ))
                .to_owned();
            let _: (i64,) = self.tx.one(&turn).await?;
        }
        let stmt = Query::select()
            .column("token_hash")
            .from(Alias::new(table))
            .and_where(Expr::col("token_hash").eq(hash))
            .to_owned();
        let found: Option<(String,)> = self.tx.optional(&stmt).await?;
        Ok(found.is_some())
    }

    /// The table of the address `old` an order names: its customer's or its business's.
    fn address_table(
        &self,
        order: &Map<String, Json>,
        old: i64,
    ) -> Result<&'static str, MoveError> {
        for (table, owner) in [
            ("customer_addresses", "customer_id"),
            ("business_addresses", "business_id"),
        ] {
            let of_order = order.get(owner).and_then(Json::as_i64);
            if of_order.is_some() && self.address_owners.get(&(table, old)).copied() == of_order {
                return Ok(table);
            }
        }
        Err(refused(format!(
            "order {}: address {old} is neither its customer's nor its business's",
            order.get("id").unwrap_or(&Json::Null)
        )))
    }

    /// The new id of a change log entry's subject.
    fn subject(&self, row: &Map<String, Json>) -> Result<i64, MoveError> {
        let kind = row.get("subject_type").and_then(Json::as_str).unwrap_or("");
        let old = row.get("subject_id").and_then(Json::as_i64).unwrap_or(0);
        if kind == "company" {
            return Ok(self.company.0);
        }
        let table = SUBJECTS
            .iter()
            .find(|(k, _)| *k == kind)
            .map(|(_, t)| *t)
            .ok_or_else(|| {
                refused(format!(
                    "the history names records of an unknown kind: {kind}"
                ))
            })?;
        // A record since deleted keeps its history under an id nothing else has.
        Ok(self.new_id(table, old).unwrap_or(-old))
    }

    /// A change log entry's details with the ids in them rewritten; an id of a record
    /// the export does not hold (deleted since) becomes null.
    fn details(&self, row: &Map<String, Json>, text: Json) -> Json {
        let subject = row.get("subject_type").and_then(Json::as_str).unwrap_or("");
        let Some(mut details) = text
            .as_str()
            .and_then(|t| serde_json::from_str::<Json>(t).ok())
        else {
            return text;
        };
        self.rewrite(subject, &mut details);
        Json::String(details.to_string())
    }

    fn rewrite(&self, subject: &str, details: &mut Json) {
        match details {
            Json::Object(map) => {
                for (key, value) in map.iter_mut() {
                    match detail_table(subject, key) {
                        Some(table) => self.rewrite_ids(table, value),
                        None if FIELD_VALUES.contains(&key.as_str()) => {
                            self.rewrite_field_ids(value)
                        }
                        None => self.rewrite(subject, value),
                    }
                }
            }
            Json::Array(values) => values.iter_mut().for_each(|v| self.rewrite(subject, v)),
            _ => {}
        }
    }

    /// The values of custom fields keyed by their new ids; a deleted field's left out.
    fn rewrite_field_ids(&self, values: &mut Json) {
        if let Json::Object(map) = values {
            *map = std::mem::take(map)
                .into_iter()
                .filter_map(|(key, value)| {
                    let old = key.parse::<i64>().ok()?;
                    let new = self.new_id("custom_fields", old)?;
                    Some((new.to_string(), value))
                })
                .collect();
        }
    }

    fn rewrite_ids(&self, table: &str, value: &mut Json) {
        match value {
            Json::Number(n) => {
                if let Some(old) = n.as_i64() {
                    *value = self.new_id(table, old).map_or(Json::Null, Json::from);
                }
            }
            Json::Array(values) => values.iter_mut().for_each(|v| self.rewrite_ids(table, v)),
            _ => {}
        }
    }

    /// Writes the references that waited for their rows, and commits; answers the
    /// company, and the API token issued when the export's was in use here.
    pub async fn finish(
        mut self,
    ) -> Result<(CompanyId, Option<crate::companies::IssuedToken>), MoveError> {
        self.flush().await?;
        for (table, id, column, of, old) in std::mem::take(&mut self.later) {
            let new = self.new_id(of, old).ok_or_else(|| {
                refused(format!(
                    "{table}: its {column} names {of} {old}, which the export does not hold"
                ))
            })?;
            let update = Query::update()
                .table(Alias::new(table))
                .value(Alias::new(column), new)
                .and_where(Expr::col("company_id").eq(self.company.0))
                .and_where(Expr::col("id").eq(id))
                .to_owned();
            self.tx.execute(&update).await?;
        }
        self.tx.commit().await?;
        Ok((self.company, self.token))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every table of a company's is moved or left behind, and every column that holds
    /// another record's id (a foreign key, or an integer named `..._id`) is rewritten.
    #[tokio::test]
    async fn every_table_and_reference_is_known() {
        let db = Db::connect("sqlite::memory:").await.expect("connects");
        db.migrate().await.expect("migrates");
        let schema = schema(&db).await.expect("reads the schema");
        let known = |t: &str| TABLES.iter().find(|k| k.name == t);
        for (name, columns) in &schema {
            if !columns.iter().any(|c| c.name == "company_id") {
                continue;
            }
            let left = LEFT_BEHIND.iter().any(|(t, _)| t == name);
            let Some(table) = known(name) else {
                assert!(left, "{name} is neither moved nor left behind");
                continue;
            };
            for column in columns {
                let named = column.name.ends_with("_id")
                    && column.name != "company_id"
                    && column.kind() == Kind::Integer;
                let listed = table.refs.iter().any(|(c, _)| *c == column.name)
                    || NOT_REFERENCES.contains(&(name.as_str(), column.name.as_str()))
                    || (*name == "change_log" && column.name == "subject_id");
                assert!(!named || listed, "{name}.{} is not rewritten", column.name);
            }
        }
        for table in TABLES {
            assert!(
                schema.contains_key(table.name),
                "{} is no table",
                table.name
            );
            for (column, of) in table.refs {
                assert!(
                    *of == ADDRESS || known(of).is_some(),
                    "{}.{column} names {of}, not moved",
                    table.name
                );
                let columns = &schema[table.name];
                assert!(
                    columns.iter().any(|c| c.name == *column),
                    "{}.{column} is no column",
                    table.name
                );
            }
        }
        let fks: Vec<(String, String, String)> = db
            .read()
            .all(&crate::Sql {
                text: "SELECT m.name, f.\"from\", f.\"table\" FROM sqlite_master m \
                       JOIN pragma_foreign_key_list(m.name) f \
                       WHERE m.type = 'table' AND f.\"from\" <> 'company_id'",
                values: Values(vec![]),
            })
            .await
            .expect("reads the keys");
        for (table, column, of) in fks {
            let Some(moved) = known(&table) else { continue };
            assert!(
                moved.refs.iter().any(|(c, t)| *c == column && *t == of),
                "{table}.{column} references {of}, not rewritten"
            );
        }
    }
}
