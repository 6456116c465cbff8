//! CSV imports (a rentrack extension): `POST /imports.api` takes a file and answers at
//! once; the rows are read and written in the background, all or nothing, each row
//! parsed by the same input as the record's own create or update. `GET /imports.api`
//! and `GET /imports/{id}.api` tell how it went. See docs/import.md.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::extract::{Request, State};
use domain::custom_field::Target;
use domain::item::AssetType;
use domain::{Change, Name, PageSize, Vocabulary};
use serde::Serialize;
use store::imports::{self, Import, Outcome, State as ImportState};

use crate::api::{Api, Doc, get, post};
use crate::auth::Tenant;
use crate::error::ApiError;
use crate::ids::{Id, kind};
use crate::input::{Input, PageQuery, Scalar, Word};
use crate::params::{FilePart, Params};
use crate::state::AppState;
use crate::views::{self, Moment, moment};

/// The largest file an import takes.
pub const MAX_FILE_BYTES: u64 = 512 * 1024 * 1024;

/// The largest multipart field without a file name read back as the text of
/// `import[file]` (to be checked as any field); a larger one is a file's text.
const FIELD_READ_BACK: u64 = 1024 * 1024;

/// The most columns a row may have.
pub const MAX_COLUMNS: usize = 200;

/// How often a running import writes its progress.
const PROGRESS_EVERY: Duration = Duration::from_secs(1);

pub fn routes(api: Api) -> Api {
    api.route(
        "/imports",
        post(create)
            .get(list)
            .body_limit(MAX_FILE_BYTES as usize + 1024 * 1024),
        Doc::new(
            "Imports",
            "Start an import of a CSV file (POST; answered at once, the rows are written in the background, all or nothing), or list the company's imports (GET, 25 a page)",
        )
        .input::<NewImport>()
        .map::<String>(
            "import[columns][<header>]",
            "the field a column of the file holds, under the column's header, when the header is not the field's name",
        )
        .params::<PageQuery>()
        .returns("import")
        .returns_page("imports")
        .record::<ImportJson>(),
    )
    .route(
        "/imports/{id}",
        get(details),
        Doc::new(
            "Imports",
            "An import: its state, its progress, what it wrote, and every bad row",
        )
        .returns("import")
        .record::<ImportJson>(),
    )
}

/// The kinds of records an import writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ImportKind {
    Vendors,
    Locations,
    Customers,
    Members,
    Groups,
    SubGroups,
    Businesses,
    Contacts,
    /// Fixed assets, inventory or stock.
    Items(AssetType),
}

impl Vocabulary for ImportKind {
    const ALL: &'static [Self] = &[
        ImportKind::Vendors,
        ImportKind::Locations,
        ImportKind::Items(AssetType::FixedAsset),
        ImportKind::Customers,
        ImportKind::Members,
        ImportKind::Groups,
        ImportKind::SubGroups,
        ImportKind::Businesses,
        ImportKind::Contacts,
        ImportKind::Items(AssetType::VolatileAsset),
        ImportKind::Items(AssetType::StockAsset),
    ];

    fn as_str(self) -> &'static str {
        match self {
            ImportKind::Vendors => "vendors",
            ImportKind::Locations => "locations",
            ImportKind::Customers => "customers",
            ImportKind::Members => "members",
            ImportKind::Groups => "groups",
            ImportKind::SubGroups => "sub_groups",
            ImportKind::Businesses => "businesses",
            ImportKind::Contacts => "contacts",
            ImportKind::Items(AssetType::FixedAsset) => "fixed_assets",
            ImportKind::Items(AssetType::VolatileAsset) => "inventory",
            ImportKind::Items(AssetType::StockAsset) => "stock_assets",
        }
    }
}

impl ImportKind {
    /// The kind of item, for the kinds of items.
    pub(crate) fn items(self) -> Option<AssetType> {
        match self {
            ImportKind::Items(kind) => Some(kind),
            _ => None,
        }
    }

    /// The column naming an existing record to update.
    pub(crate) fn key(self) -> &'static str {
        match self {
            ImportKind::Vendors
            | ImportKind::Customers
            | ImportKind::Members
            | ImportKind::Groups
            | ImportKind::SubGroups
            | ImportKind::Businesses
            | ImportKind::Contacts => "id",
            ImportKind::Locations | ImportKind::Items(_) => "sequence_num",
        }
    }

    /// The resource a row's fields nest under, as a form sends them.
    fn resource(self) -> &'static str {
        match self {
            ImportKind::Vendors => "vendor",
            ImportKind::Locations => "location",
            ImportKind::Customers => "customer",
            ImportKind::Members => "user",
            ImportKind::Groups => "group",
            ImportKind::SubGroups => "sub_group",
            ImportKind::Businesses => "business",
            ImportKind::Contacts => "contact",
            ImportKind::Items(kind) => super::assets::family(kind).scope,
        }
    }

    /// The columns of the record's own fields, each with the field it fills.
    pub(crate) fn fields(self) -> Vec<(&'static str, &'static str)> {
        let same = |fields: Vec<&'static str>| fields.into_iter().map(|f| (f, f)).collect();
        match self {
            ImportKind::Vendors => same(super::vendors::import_columns()),
            ImportKind::Locations => same(super::locations::import_columns()),
            ImportKind::Customers => same(super::persons::import_columns::<kind::Customer>()),
            ImportKind::Members => same(super::members::import_columns()),
            ImportKind::Groups => same(super::groups::import_columns()),
            ImportKind::SubGroups => same(super::sub_groups::import_columns()),
            ImportKind::Businesses => same(super::businesses::import_columns()),
            ImportKind::Contacts => same(super::persons::import_columns::<kind::Contact>()),
            ImportKind::Items(kind) => super::assets::records::import_columns(kind),
        }
    }

    /// The columns that name a record by its name, each with the field its id fills.
    fn named(self) -> &'static [(&'static str, Named, &'static str)] {
        match self {
            ImportKind::Vendors
            | ImportKind::Customers
            | ImportKind::Members
            | ImportKind::Groups
            | ImportKind::Businesses
            | ImportKind::Contacts => &[],
            ImportKind::SubGroups => &[
                ("group", Named::Group, "group_id"),
                ("parent", Named::SubGroup, "parent_id"),
            ],
            ImportKind::Locations => &[("parent", Named::Location, "parent_id")],
            ImportKind::Items(_) => &[
                ("group", Named::Group, "group_id"),
                ("sub_group", Named::SubGroup, "sub_group_id"),
                ("location", Named::Location, "location_id"),
            ],
        }
    }

    /// What else than the key names an existing record, for the kinds that have one.
    fn natural_key(self) -> Option<NaturalKey> {
        match self {
            ImportKind::Items(kind) => Some(NaturalKey::Identifier(kind)),
            ImportKind::Customers => Some(NaturalKey::Email(Emails::Customers)),
            ImportKind::Members => Some(NaturalKey::Email(Emails::Members)),
            ImportKind::Contacts => Some(NaturalKey::Email(Emails::Contacts)),
            ImportKind::Vendors
            | ImportKind::Locations
            | ImportKind::Groups
            | ImportKind::SubGroups
            | ImportKind::Businesses => None,
        }
    }

    /// Where a custom field's value goes, if the kind has custom fields.
    pub(crate) fn custom_target(self) -> Option<Target> {
        match self {
            ImportKind::Vendors => Some(Target::Vendors),
            ImportKind::Locations | ImportKind::Groups | ImportKind::SubGroups => None,
            ImportKind::Items(kind) => Some(super::assets::family(kind).target),
            ImportKind::Customers => Some(Target::Customers),
            ImportKind::Members => Some(Target::Members),
            ImportKind::Businesses => Some(Target::Businesses),
            ImportKind::Contacts => Some(Target::Contacts),
        }
    }

    /// What the column headed `header` holds; `None`: nothing the kind takes.
    fn column(self, header: &str) -> Option<Column> {
        if header == self.key() {
            return Some(Column::Key);
        }
        if let Some((_, named, field)) = self.named().iter().find(|(h, ..)| *h == header) {
            return Some(Column::Named(*named, field));
        }
        if let Some((_, field)) = self.fields().into_iter().find(|(h, _)| *h == header) {
            return Some(Column::Field(field));
        }
        self.custom_target().map(|_| Column::Custom)
    }

    /// Whether the field is an amount of money.
    fn is_money(self, field: &str) -> bool {
        self.items().is_some()
            && (field == "price"
                || field == "late_fee_attributes][amount"
                || field.starts_with("rental_price_attributes]["))
    }

    /// The parameter a custom field's value is sent as.
    fn custom_param(self, name: &str) -> String {
        match self {
            ImportKind::Items(_) => format!("cust_attr[{name}]"),
            _ => format!("{}[custom_attributes][{name}]", self.resource()),
        }
    }

    /// The columns it takes, for a message: the key, named records, fields.
    fn column_list(self) -> String {
        let mut all = vec![self.key()];
        all.extend(self.named().iter().map(|(h, ..)| *h));
        all.extend(self.fields().into_iter().map(|(h, _)| h));
        all.join(", ")
    }
}

/// `1,250.00` as `1250.00`: spreadsheets write amounts with thousands separators.
/// `None` when the text is not digits in groups of three after the first.
fn without_thousands(value: &str) -> Option<String> {
    let (whole, cents) = match value.split_once('.') {
        Some((whole, cents)) => (whole, Some(cents)),
        None => (value, None),
    };
    let groups: Vec<&str> = whole.split(',').collect();
    let digits = |g: &str| !g.is_empty() && g.bytes().all(|b| b.is_ascii_digit());
    let grouped = groups.len() > 1
        && groups[0].len() <= 3
        && groups.iter().all(|g| digits(g))
        && groups[1..].iter().all(|g| g.len() == 3);
    grouped.then(|| match cents {
        Some(cents) => format!("{}.{cents}", groups.concat()),
        None => groups.concat(),
    })
}

/// A column besides the key that names one existing record, when only one has it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum NaturalKey {
    /// An item's identification number.
    Identifier(AssetType),
    /// A customer's or a member's e-mail (stored lower-case).
    Email(Emails),
}

/// Whose e-mails a natural key's are.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Emails {
    Customers,
    Contacts,
    Members,
}

impl NaturalKey {
    fn column(self) -> &'static str {
        match self {
            NaturalKey::Identifier(_) => "identifier",
            NaturalKey::Email(_) => "email",
        }
    }

    /// The value as stored and compared.
    fn normal(self, value: &str) -> std::borrow::Cow<'_, str> {
        match self {
            NaturalKey::Identifier(_) => value.trim().into(),
            NaturalKey::Email(_) => value.trim().to_lowercase().into(),
        }
    }

    /// What it is and what it names, for messages.
    fn nouns(self) -> (&'static str, &'static str) {
        match self {
            NaturalKey::Identifier(_) => ("identification number", "item"),
            NaturalKey::Email(Emails::Customers) => ("e-mail", "customer"),
            NaturalKey::Email(Emails::Members) => ("e-mail", "member"),
            NaturalKey::Email(Emails::Contacts) => ("e-mail", "contact"),
        }
    }
}

/// What a column holds.
#[derive(Debug, Clone, Copy)]
enum Column {
    /// The record's key: a row that names one updates it.
    Key,
    /// A record named by its name, whose id fills the field.
    Named(Named, &'static str),
    /// One of the record's fields (as its input names it).
    Field(&'static str),
    /// A custom field's value, under the column's header.
    Custom,
}

/// The records a row may name by name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
enum Named {
    Group,
    SubGroup,
    Location,
}

/// A CSV file's text, sent as a form field or as a multipart file part.
pub struct CsvFile;

impl Scalar for CsvFile {
    type Value = String;

    fn parse(raw: &str) -> Result<String, String> {
        Ok(raw.to_owned())
    }

    fn schema() -> serde_json::Value {
        serde_json::json!({"type": "string", "minLength": 1})
    }
}

/// A new import.
#[derive(Input)]
#[input(resource = "import")]
struct NewImport {
    /// The kind of records the file holds, one a row.
    #[input(format = Word<ImportKind>)]
    kind: ImportKind,
    /// The CSV file: a multipart file part (up to 512 MiB), or its text as a form
    /// field. UTF-8 with or without BOM, `,` or `;` between fields, a header row.
    #[input(format = CsvFile)]
    file: String,
    /// true: check every row as the import would, and write nothing.
    dry_run: Option<bool>,
    /// true: groups, subgroups and locations that rows name and the company lacks are
    /// created (in the import's transaction); otherwise such a row is bad.
    create_missing: Option<bool>,
}

/// What a row did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Written {
    Created,
    Updated,
    /// A further row of a stock item: its units at another location, counted in
    /// neither `created` nor `updated`.
    Stock,
}

/// One bad row: its number as a spreadsheet shows it (the header is row 1), the column
/// and value at fault (none for a problem of the whole row), and what is wrong.
#[derive(Debug, Clone, Serialize, serde::Deserialize, utoipa::ToSchema)]
pub struct RowError {
    row: u64,
    column: Option<String>,
    value: Option<String>,
    message: String,
}

/// An import as the interface shows it.
#[derive(Serialize, utoipa::ToSchema)]
#[schema(as = Import)]
pub struct ImportJson {
    id: i64,
    kind: String,
    /// queued, running, done (every row good: written, or on a dry run writable) or
    /// failed (nothing written: `errors` names the bad rows, or `message` the failure).
    state: String,
    dry_run: bool,
    file_name: Option<String>,
    /// Data rows in the file (known once it is read).
    rows_total: i64,
    /// Rows read and checked so far.
    rows_done: i64,
    /// Records written new (on a dry run, that would be).
    created: i64,
    /// Records named by their key and updated (on a dry run, that would be).
    updated: i64,
    /// The first 1,000 bad rows, in file order.
    errors: Vec<RowError>,
    /// How many rows had problems (one row may have several).
    errors_total: i64,
    message: Option<String>,
    finished_at: Option<Moment>,
    created_at: Moment,
    updated_at: Moment,
}

/// The imports this instance runs: their progress by id (newer than the database's
/// while a transaction holds their writes), and their turns: one at a time, since each
/// holds a write transaction from start to end.
pub struct Running {
    progress: Mutex<HashMap<i64, i64>>,
    turn: tokio::sync::Semaphore,
}

impl Default for Running {
    fn default() -> Self {
        Running {
            progress: Mutex::default(),
            turn: tokio::sync::Semaphore::new(1),
        }
    }
}

impl Running {
    fn progress(&self) -> std::sync::MutexGuard<'_, HashMap<i64, i64>> {
        self.progress.lock().expect("not poisoned")
    }

    fn set(&self, id: i64, rows_done: i64) {
        self.progress().insert(id, rows_done);
    }

    fn end(&self, id: i64) {
        self.progress().remove(&id);
    }

    fn rows_done(&self, id: i64) -> Option<i64> {
        self.progress().get(&id).copied()
    }

    fn ids(&self) -> Vec<i64> {
        self.progress().keys().copied().collect()
    }
}

/// Fails the imports whose instance stopped (no heartbeat for
/// [`imports::ABANDONED_AFTER`]), but for those this instance runs. The server runs it
/// every minute.
pub async fn sweep(state: &AppState) {
    let before =
        store::now() - chrono::Duration::from_std(imports::ABANDONED_AFTER).unwrap_or_default();
    let running = state.inner().imports.ids();
    match imports::fail_abandoned(state.db(), before, &running).await {
        Ok(0) => {}
        Ok(n) => tracing::warn!(imports = n, "imports: failed imports whose server stopped"),
        Err(e) => tracing::warn!(error = %e, "imports: could not fail abandoned imports"),
    }
}

fn render(state: &AppState, i: &Import, tz: chrono_tz::Tz) -> ImportJson {
    let rows_done = state
        .inner()
        .imports
        .rows_done(i.id)
        .unwrap_or(i.rows_done)
        .max(i.rows_done);
    ImportJson {
        id: i.id,
        kind: i.kind.clone(),
        state: i.state.clone(),
        dry_run: i.dry_run,
        file_name: i.file_name.clone(),
        rows_total: i.rows_total,
        rows_done,
        created: i.created,
        updated: i.updated,
        errors: serde_json::from_str(&i.errors).unwrap_or_default(),
        errors_total: i.errors_total,
        message: i.message.clone(),
        finished_at: i.finished_at.map(|t| moment(t, tz)),
        created_at: moment(i.created_at, tz),
        updated_at: moment(i.updated_at, tz),
    }
}

/// A temporary file, deleted when dropped.
struct Spool(PathBuf);

impl Spool {
    async fn new() -> Result<(Spool, tokio::fs::File), ApiError> {
        let name = format!("rentrack-import-{:016x}.csv", rand::random::<u64>());
        let path = std::env::temp_dir().join(name);
        let file = tokio::fs::File::create(&path)
            .await
            .map_err(|e| ApiError::Internal(format!("creating an import's file: {e}")))?;
        Ok((Spool(path), file))
    }
}

impl Drop for Spool {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

async fn create(
    State(state): State<AppState>,
    Tenant(company): Tenant,
    req: Request,
) -> Result<views::Reply, ApiError> {
    use tokio::io::AsyncWriteExt;
    let (spool, mut file) = Spool::new().await?;
    let mut part = FilePart {
        name: "import[file]",
        to: &mut file,
        max: MAX_FILE_BYTES,
        received: None,
    };
    let mut params = Params::read(req, &state, Some(&mut part)).await?;
    let received = part.received.take();
    match &received {
        // A file part: the field is sent.
        Some(Some(_)) => {
            params.add_pairs([("import[file]".to_owned(), "(file part)".to_owned())])?;
        }
        // A part without a file name is a form field: read as any other (trimmed, blank
        // refused), unless it is too large to be blank but for spaces.
        Some(None) => {
            // What the part wrote is on disk only once flushed: tokio's file writes
            // on a thread of its own, and reading back before could find nothing.
            file.flush()
                .await
                .map_err(|e| ApiError::Internal(format!("spooling an import: {e}")))?;
            let size = file
                .metadata()
                .await
                .map_err(|e| ApiError::Internal(format!("spooling an import: {e}")))?
                .len();
            let text = if size <= FIELD_READ_BACK {
                tokio::fs::read_to_string(&spool.0)
                    .await
                    .map_err(|_| ApiError::BadRequest("The file is not UTF-8 text.".into()))?
            } else {
                "(a large form field)".to_owned()
            };
            params.add_pairs([("import[file]".to_owned(), text)])?;
        }
        None => {}
    }
    let new = NewImport::parse(&params)?;
    let columns = column_names(&params)?;
    let file_name = match received {
        Some(name) => name,
        None => {
            file.write_all(new.file.as_bytes())
                .await
                .map_err(|e| ApiError::Internal(format!("spooling an import: {e}")))?;
            None
        }
    };
    file.flush()
        .await
        .map_err(|e| ApiError::Internal(format!("spooling an import: {e}")))?;
    drop(file);
    let import = imports::create(
        state.db(),
        company.id,
        new.kind.as_str(),
        new.dry_run.unwrap_or(false),
        file_name.as_deref(),
    )
    .await?;
    let job = Job {
        state: state.clone(),
        company: company.id,
        id: import.id,
        kind: new.kind,
        dry_run: import.dry_run,
        create_missing: new.create_missing.unwrap_or(false),
        columns,
        file: spool.0.clone(),
        spool: Some(spool),
    };
    tokio::spawn(job.run());
    Ok(views::one(
        "import",
        render(&state, &import, company.time_zone),
    ))
}

/// An import of a file on this machine (`rentrack import`): the same rules as
/// `POST /imports.api`, and the same record of it.
pub struct FileImport {
    pub kind: ImportKind,
    pub path: PathBuf,
    pub dry_run: bool,
    pub create_missing: bool,
    /// Header to field ([`check_columns`]).
    pub columns: HashMap<String, String>,
}

/// Starts `import`; answers its id and the task that runs it. Its progress is
/// [`rows_done`] while it runs, and its end is the import's record.
pub async fn start_file(
    state: &AppState,
    company: store::CompanyId,
    import: FileImport,
) -> Result<(i64, tokio::task::JoinHandle<()>), ApiError> {
    let file_name = import
        .path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned());
    let record = imports::create(
        state.db(),
        company,
        import.kind.as_str(),
        import.dry_run,
        file_name.as_deref(),
    )
    .await?;
    let job = Job {
        state: state.clone(),
        company,
        id: record.id,
        kind: import.kind,
        dry_run: import.dry_run,
        create_missing: import.create_missing,
        columns: import.columns,
        file: import.path,
        spool: None,
    };
    Ok((record.id, tokio::spawn(job.run())))
}

/// The rows an import running in this process has read so far.
pub fn rows_done(state: &AppState, id: i64) -> Option<i64> {
    state.inner().imports.rows_done(id)
}

/// The data rows of the CSV file at `path`, as an import counts them (empty lines are
/// not rows): for a progress bar's end.
pub fn count_rows(path: &std::path::Path) -> std::io::Result<u64> {
    let mut reader = csv::ReaderBuilder::new()
        .delimiter(separator_of(path)?)
        .flexible(true)
        .from_path(path)
        .map_err(std::io::Error::other)?;
    let mut record = csv::ByteRecord::new();
    let mut rows = 0;
    while reader.read_byte_record(&mut record).unwrap_or(false) {
        if record.iter().any(|c| !c.trim_ascii().is_empty()) {
            rows += 1;
        }
    }
    Ok(rows)
}

/// An import's errors as a table: a row each, tab-separated, under a header.
pub fn error_table(import: &Import) -> String {
    let errors: Vec<RowError> = serde_json::from_str(&import.errors).unwrap_or_default();
    let mut table = String::from("row\tcolumn\tvalue\tmessage\n");
    for e in errors {
        table.push_str(&format!(
            "{}\t{}\t{}\t{}\n",
            e.row,
            e.column.unwrap_or_default(),
            e.value.unwrap_or_default().replace(['\t', '\r', '\n'], " "),
            e.message
        ));
    }
    table
}

/// An import as the interface shows it, in UTC.
pub fn json(state: &AppState, import: &Import) -> serde_json::Value {
    serde_json::to_value(render(state, import, chrono_tz::UTC)).unwrap_or_default()
}

/// `import[columns][<header>]=<field>` ([`check_columns`]).
fn column_names(params: &Params) -> Result<HashMap<String, String>, ApiError> {
    let mut form = crate::form::Form::new(params, "import");
    form.check_map("import[columns]", "columns");
    form.finish()?;
    check_columns(params.map("import[columns]"))
}

/// Header to field, each field text of the usual length (problems under
/// `columns][<header>`). A field the kind does not take is a bad column of every row
/// (the file's header named), as an unmapped one is.
pub fn check_columns(
    pairs: impl IntoIterator<Item = (String, String)>,
) -> Result<HashMap<String, String>, ApiError> {
    let mut errors = crate::error::FieldErrors::new();
    let mut map = HashMap::new();
    for (header, field) in pairs {
        // The rules of a map's keys (`input::map_key`).
        if header.is_empty() || header.contains(['[', ']', '"', '\\']) {
            errors
                .entry(format!("columns][{header}"))
                .or_default()
                .push("names a header: not empty, without brackets, quotes or backslashes".into());
            continue;
        }
        // The text rules of the map's values (`Doc::map::<String>`).
        if let Err(problem) = <String as Scalar>::parse(&field) {
            errors
                .entry(format!("columns][{header}"))
                .or_default()
                .push(problem);
            continue;
        }
        map.insert(header, field);
    }
    if errors.is_empty() {
        Ok(map)
    } else {
        Err(ApiError::Invalid(errors))
    }
}

async fn list(
    State(state): State<AppState>,
    Tenant(company): Tenant,
    params: Params,
) -> Result<views::Reply, ApiError> {
    let page = PageQuery::parse(&params)?.page(PageSize::DEFAULT);
    let records = imports::list(state.db(), company.id, page).await?;
    Ok(views::paged("imports", page, &records, |i| {
        render(&state, i, company.time_zone)
    }))
}

async fn details(
    State(state): State<AppState>,
    Tenant(company): Tenant,
    Id(id): Id<kind::Import>,
) -> Result<views::Reply, ApiError> {
    let import = imports::find(state.db(), company.id, id).await?;
    Ok(views::one(
        "import",
        render(&state, &import, company.time_zone),
    ))
}

/// One import's work.
struct Job {
    state: AppState,
    company: store::CompanyId,
    id: i64,
    kind: ImportKind,
    dry_run: bool,
    create_missing: bool,
    /// Header to field.
    columns: HashMap<String, String>,
    /// The file read.
    file: PathBuf,
    /// The upload's copy of it, deleted at the end; `None` for a file of the caller's.
    spool: Option<Spool>,
}

/// What an import keeps from row to row.
struct Context {
    kind: ImportKind,
    company: store::CompanyId,
    create_missing: bool,
    /// The company's custom fields of the kind, read once.
    fields: store::custom_fields::FieldSet,
    /// The records rows named, found (or created) once: by what, its scope (a
    /// subgroup's group) and name.
    names: HashMap<(Named, i64, String), i64>,
    /// The values of the kind's natural key, hashed ([`Identifiers`]).
    identifiers: Identifiers,
    /// The file's columns (those with a header), each with what it holds, resolved
    /// once from the header row; a row's cells are in their order.
    columns: Arc<[(String, Option<Column>)]>,
    /// Stock kinds: each item the file's rows wrote, by number ([`Stocked`]).
    stocked: HashMap<i64, Stocked>,
    /// Stock kinds: the number of each item the file's rows wrote, by its
    /// identification number (hashed as [`Identifiers`] hashes them).
    stocked_by_identifier: HashMap<u128, i64>,
}

/// A stock item the file's rows wrote: whether the file created it, and the row that
/// gave its stock at each location named.
struct Stocked {
    created: bool,
    locations: HashMap<i64, u64>,
}

/// The values of a natural key (identification numbers, e-mails), each as a 128-bit
/// hash: 16 bytes whatever its length, and no two of a million alike short of once in
/// 10^26.
#[derive(Default)]
struct Identifiers {
    hasher: (std::hash::RandomState, std::hash::RandomState),
    /// The company's records that have one, read at the start: the record's key, or
    /// `None` when several records share it.
    existing: HashMap<u128, Option<i64>>,
    /// The file's rows so far that have one, with their row: one value names one record.
    rows: HashMap<u128, u64>,
}

impl Identifiers {
    fn hash(&self, identifier: &str) -> u128 {
        use std::hash::BuildHasher;
        (u128::from(self.hasher.0.hash_one(identifier)) << 64)
            | u128::from(self.hasher.1.hash_one(identifier))
    }

    /// The company's records that have a value of `key`, read a page at a time in `tx`.
    async fn read(
        tx: &mut store::Tx,
        company: store::CompanyId,
        key: Option<NaturalKey>,
    ) -> Result<Self, store::StoreError> {
        let mut ids = Identifiers::default();
        let Some(key) = key else {
            return Ok(ids);
        };
        let mut after = 0;
        loop {
            const PAGE: u64 = 10_000;
            let page = match key {
                NaturalKey::Identifier(kind) => {
                    store::items::identifiers_in(tx, company, kind, after, PAGE).await?
                }
                NaturalKey::Email(Emails::Customers) => {
                    store::persons::emails_in::<kind::Customer>(tx, company, after, PAGE).await?
                }
                NaturalKey::Email(Emails::Contacts) => {
                    store::persons::emails_in::<kind::Contact>(tx, company, after, PAGE).await?
                }
                NaturalKey::Email(Emails::Members) => {
                    store::members::emails_in(tx, company, after, PAGE).await?
                }
            };
            let Some((last, _)) = page.last() else {
                return Ok(ids);
            };
            after = *last;
            for (number, value) in page {
                let hash = ids.hash(&key.normal(&value));
                ids.existing
                    .entry(hash)
                    .and_modify(|n| *n = None)
                    .or_insert(Some(number));
            }
        }
    }
}

/// A row as read: its number and its cells, in the order of the header's columns.
struct Row {
    number: u64,
    cells: Vec<String>,
}

/// What the file reader sends.
enum Read {
    /// The names of the columns (those with a header, after `import[columns]`), first.
    Header(Vec<String>),
    Row(Row),
    /// The file cannot be read as CSV from here on.
    Broken(RowError),
}

impl Job {
    async fn run(self) {
        let Job {
            state,
            company,
            id,
            kind,
            dry_run,
            create_missing,
            columns,
            file,
            spool,
        } = self;
        let db = state.db().clone();
        let running = &state.inner().imports;
        // Queued: not swept as abandoned while it waits its turn.
        running.set(id, 0);
        let Ok(_turn) = running.turn.acquire().await else {
            return;
        };
        if let Err(e) = imports::progress(&db, company, id, 0).await {
            tracing::warn!(error = %e, "imports: could not mark an import running");
        }
        // Shows the import alive while its transaction runs (on SQLite, the write waits
        // for the import's lock and may not land: one instance has nothing to tell).
        let heartbeat = tokio::spawn({
            let (state, db) = (state.clone(), db.clone());
            async move {
                loop {
                    tokio::time::sleep(imports::HEARTBEAT).await;
                    let done = state.inner().imports.rows_done(id).unwrap_or(0);
                    if let Err(e) = imports::progress(&db, company, id, done).await {
                        tracing::debug!(error = %e, "imports: no heartbeat written");
                    }
                }
            }
        });
        let (send, mut rows) = tokio::sync::mpsc::channel::<Read>(1024);
        let path = file;
        // Problems name the file's own header, also of a mapped column.
        let header_of: HashMap<String, String> = columns
            .iter()
            .map(|(header, field)| (field.clone(), header.clone()))
            .collect();
        let reader = tokio::task::spawn_blocking(move || read_file(&path, &columns, &send));
        let mut tally = Tally::default();
        let mut last = Instant::now();
        // The row whose failure ended the transaction (PostgreSQL), if one did.
        let mut cut = None;
        let result: Result<bool, store::StoreError> = async {
            let fields = match kind.custom_target() {
                Some(target) => store::custom_fields::for_targets(&db, company, &[target]).await?,
                None => Default::default(),
            };
            let mut context = Context {
                kind,
                company,
                create_missing,
                fields,
                names: HashMap::new(),
                identifiers: Identifiers::default(),
                columns: Arc::new([]),
                stocked: HashMap::new(),
                stocked_by_identifier: HashMap::new(),
            };
            let mut tx = db.begin().await?;
            tx.bulk().await?;
            context.identifiers = Identifiers::read(&mut tx, company, kind.natural_key()).await?;
            while let Some(read) = rows.recv().await {
                match read {
                    Read::Header(names) => {
                        context.columns = names
                            .into_iter()
                            .map(|name| {
                                let column = kind.column(&name);
                                (name, column)
                            })
                            .collect();
                    }
                    Read::Broken(error) => tally.error(error),
                    Read::Row(row) => {
                        tally.rows += 1;
                        match write_row(&state, &mut tx, &mut context, &row).await {
                            Ok(Written::Created) => tally.created += 1,
                            Ok(Written::Updated) => tally.updated += 1,
                            Ok(Written::Stock) => {}
                            Err(errors) => {
                                for mut e in errors {
                                    if let Some(header) =
                                        e.column.as_ref().and_then(|c| header_of.get(c))
                                    {
                                        e.column = Some(header.clone());
                                    }
                                    tally.error(e);
                                }
                                if !tx.usable().await {
                                    cut = Some(row.number);
                                    break;
                                }
                            }
                        }
                    }
                }
                if last.elapsed() >= PROGRESS_EVERY {
                    last = Instant::now();
                    running.set(id, tally.rows as i64);
                }
            }
            if tally.total_errors == 0 && !dry_run {
                // The rows and the import's end, together.
                imports::finish_in(&mut tx, company, id, tally.outcome(None)).await?;
                tx.commit().await?;
                db.outbox_signal().notify_one();
                return Ok(true);
            }
            Ok(false)
        }
        .await;
        heartbeat.abort();
        let _ = reader.await;
        drop(spool);
        let outcome = match result {
            Ok(true) => None,
            Ok(false) => Some(tally.outcome(cut.map(|row| {
                format!(
                    "row {row} failed in the database, which ends the import's transaction: \
                     the rows after it were not checked; nothing was written"
                )
            }))),
            Err(e) => Some(tally.outcome(Some(failure(e)))),
        };
        if let Some(outcome) = outcome
            && let Err(e) = imports::finish(&db, company, id, outcome).await
        {
            tracing::error!(error = %e, import = id, "imports: could not write an import's end");
        }
        running.end(id);
    }
}

/// The words of an import's failure other than bad rows.
fn failure(e: store::StoreError) -> String {
    match ApiError::from(e) {
        ApiError::Unavailable(_) | ApiError::TimedOut(_) => {
            "the database was busy or out of reach; nothing was written: send the file again"
                .to_owned()
        }
        other => format!(
            "the import stopped ({}); nothing was written",
            other.status()
        ),
    }
}

#[derive(Default)]
struct Tally {
    rows: u64,
    created: i64,
    updated: i64,
    errors: Vec<RowError>,
    total_errors: i64,
    /// Rows with at least one problem, counted once.
    last_bad_row: Option<u64>,
}

impl Tally {
    fn error(&mut self, e: RowError) {
        if self.last_bad_row != Some(e.row) {
            self.last_bad_row = Some(e.row);
            self.total_errors += 1;
        }
        if self.errors.len() < imports::MAX_ERRORS {
            self.errors.push(e);
        }
    }

    fn outcome(&self, message: Option<String>) -> Outcome {
        let failed = message.is_some() || self.total_errors > 0;
        Outcome {
            state: if failed {
                ImportState::Failed
            } else {
                ImportState::Done
            },
            rows_total: self.rows as i64,
            created: if failed { 0 } else { self.created },
            updated: if failed { 0 } else { self.updated },
            errors: serde_json::to_string(&self.errors).unwrap_or_else(|_| "[]".into()),
            errors_total: self.total_errors,
            message,
        }
    }
}

/// Reads the CSV file at `path` row by row into `send`: `,` or `;` (whichever the
/// header row holds more of), a UTF-8 BOM skipped, quoted fields, CRLF or LF.
fn read_file(
    path: &std::path::Path,
    columns: &HashMap<String, String>,
    send: &tokio::sync::mpsc::Sender<Read>,
) {
    let broken = |row: u64, message: String| {
        let _ = send.blocking_send(Read::Broken(RowError {
            row,
            column: None,
            value: None,
            message,
        }));
    };
    let separator = match separator_of(path) {
        Ok(s) => s,
        Err(e) => return broken(1, format!("the file cannot be read: {e}")),
    };
    let mut reader = match csv::ReaderBuilder::new()
        .delimiter(separator)
        .flexible(true)
        .from_path(path)
    {
        Ok(r) => r,
        Err(e) => return broken(1, format!("the file cannot be read: {e}")),
    };
    let headers: Vec<String> = match reader.headers() {
        Ok(h) => h
            .iter()
            .map(|h| {
                let h = h.trim_start_matches('\u{feff}').trim();
                columns.get(h).cloned().unwrap_or_else(|| h.to_owned())
            })
            .collect(),
        Err(e) => return broken(1, format!("the header row cannot be read: {e}")),
    };
    if headers.iter().all(String::is_empty) {
        return broken(
            1,
            "the file has no header row: its first row names the columns".into(),
        );
    }
    if headers.len() > MAX_COLUMNS {
        return broken(
            1,
            format!(
                "the file has {} columns, over the limit of {MAX_COLUMNS}",
                headers.len()
            ),
        );
    }
    let mut seen = std::collections::HashSet::new();
    for h in headers.iter().filter(|h| !h.is_empty()) {
        if !seen.insert(h.as_str()) {
            return broken(1, format!("two columns are named {h:?}: name each once"));
        }
    }
    let named: Vec<String> = headers.iter().filter(|h| !h.is_empty()).cloned().collect();
    if send.blocking_send(Read::Header(named)).is_err() {
        return;
    }
    for (index, record) in reader.records().enumerate() {
        let number = index as u64 + 2;
        let record = match record {
            Ok(r) => r,
            Err(e) => return broken(number, format!("the row cannot be read as CSV: {e}")),
        };
        if record.iter().all(|c| c.trim().is_empty()) {
            continue;
        }
        if record.len() > headers.len() {
            broken(
                number,
                format!(
                    "the row has {} fields and the header {}: quote fields that hold the separator",
                    record.len(),
                    headers.len()
                ),
            );
            continue;
        }
        let cells = headers
            .iter()
            .zip(record.iter())
            .filter(|(h, _)| !h.is_empty())
            .map(|(_, v)| v.to_owned())
            .collect();
        if send
            .blocking_send(Read::Row(Row { number, cells }))
            .is_err()
        {
            return;
        }
    }
}

/// `;` when the header row holds more of them than of `,`.
fn separator_of(path: &std::path::Path) -> std::io::Result<u8> {
    use std::io::BufRead;
    let mut first = String::new();
    std::io::BufReader::new(std::fs::File::open(path)?).read_line(&mut first)?;
    let count = |c: char| first.chars().filter(|x| *x == c).count();
    Ok(if count(';') > count(',') { b';' } else { b',' })
}

/// Writes one row in `tx`, or answers its problems.
async fn write_row(
    state: &AppState,
    tx: &mut store::Tx,
    context: &mut Context,
    row: &Row,
) -> Result<Written, Vec<RowError>> {
    let kind = context.kind;
    let resource = kind.resource();
    let error =
        |column: &str, value: Option<&str>, message: String| row.problem(column, value, message);
    let mut key = None;
    let mut pairs = Vec::new();
    let mut errors = Vec::new();
    // The field each problem is reported under, to its column.
    let mut column_of: HashMap<String, &str> = HashMap::new();
    let mut named: Vec<(Named, &'static str, &str, &str)> = Vec::new();
    let columns = Arc::clone(&context.columns);
    for ((header, column), value) in columns.iter().zip(&row.cells) {
        let value = value.trim();
        // A file's text is held to what any parameter is (`Params`).
        if let Some(problem) = crate::params::control_problem(value) {
            errors.push(error(header, Some(value), problem));
            continue;
        }
        match *column {
            Some(Column::Key) => {
                column_of.insert(header.clone(), header);
                if value.is_empty() {
                    continue;
                }
                match crate::form::parse_id(value) {
                    Some(n) => key = Some(n),
                    None => errors.push(error(
                        header,
                        Some(value),
                        "must be a whole number above 0 naming an existing record, or empty for a new one"
                            .into(),
                    )),
                }
            }
            Some(Column::Named(what, field)) => {
                column_of.insert(field.to_owned(), header);
                if !value.is_empty() {
                    named.push((what, field, header, value));
                }
            }
            Some(Column::Field(field)) => {
                column_of.insert(field.to_owned(), header);
                let value = match kind.is_money(field) {
                    true => without_thousands(value).unwrap_or_else(|| value.to_owned()),
                    false => value.to_owned(),
                };
                pairs.push((format!("{resource}[{field}]"), value));
            }
            Some(Column::Custom) => {
                column_of.insert(format!("custom_attributes[{header}]"), header);
                pairs.push((kind.custom_param(header), value.to_owned()));
            }
            None => errors.push(error(
                header,
                None,
                format!(
                    "is no column of {}: use {} or map it with import[columns]",
                    kind.as_str(),
                    kind.column_list()
                ),
            )),
        }
    }
    let value_of = |column: &str| row.cell(&columns, column);
    // Groups before their subgroups.
    named.sort_by_key(|(what, ..)| *what);
    let mut group = value_of("group_id").and_then(crate::form::parse_id);
    for (what, field, header, value) in named {
        let scope = match what {
            Named::SubGroup => match group {
                Some(g) => g,
                None => {
                    errors.push(error(
                        header,
                        Some(value),
                        "needs the row's group: a group or group_id column".into(),
                    ));
                    continue;
                }
            },
            _ => 0,
        };
        match context.find(tx, what, scope, value).await {
            Ok(id) => {
                if what == Named::Group {
                    group = Some(id);
                }
                pairs.push((format!("{resource}[{field}]"), id.to_string()));
            }
            Err(message) => errors.push(error(header, Some(value), message)),
        }
    }
    let natural = kind.natural_key().and_then(|natural| {
        let value = value_of(natural.column()).filter(|v| !v.is_empty())?;
        Some((
            natural,
            value,
            context.identifiers.hash(&natural.normal(value)),
        ))
    });
    // Stock kinds: a row naming an item an earlier row wrote gives its stock at
    // another location.
    let stock_item = kind.items().filter(|k| *k != AssetType::FixedAsset);
    let further = stock_item.and_then(|_| {
        key.filter(|n| context.stocked.contains_key(n)).or_else(|| {
            let (.., hash) = natural?;
            context.stocked_by_identifier.get(&hash).copied()
        })
    });
    if let (Some(items), Some(number)) = (stock_item, further) {
        let location = pairs
            .iter()
            .find(|(p, _)| p.strip_prefix(resource) == Some("[location_id]"))
            .and_then(|(_, v)| crate::form::parse_id(v));
        let further = Further {
            items,
            number,
            location,
            columns: &columns,
            column_of: &column_of,
        };
        return further.write(tx, context, row, errors).await;
    }
    if let Some((natural, value, hash)) = natural {
        let (noun, record) = natural.nouns();
        let ids = &mut context.identifiers;
        if let Some(first) = ids.rows.insert(hash, row.number) {
            errors.push(error(
                natural.column(),
                Some(value),
                format!("is also row {first}'s: one {noun} names one {record}"),
            ));
        } else if key.is_none() {
            match ids.existing.get(&hash) {
                None => {}
                Some(Some(number)) => key = Some(*number),
                Some(None) => errors.push(error(
                    natural.column(),
                    Some(value),
                    format!("names several {record}s: give the row their {}", kind.key()),
                )),
            }
        }
    }
    let mut params = Params::default();
    if let Err(e) = params.add_pairs(pairs) {
        errors.push(RowError {
            row: row.number,
            column: None,
            value: None,
            message: message_of(e),
        });
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    let company = context.company;
    let written = match kind {
        ImportKind::Vendors => super::vendors::import_row(state, tx, company, &params, key).await,
        ImportKind::Locations => super::locations::import_row(tx, company, &params, key).await,
        ImportKind::Customers => {
            super::persons::import_row::<kind::Customer>(state, tx, company, &params, key).await
        }
        ImportKind::Members => super::members::import_row(state, tx, company, &params, key).await,
        ImportKind::Groups => super::groups::import_row(tx, company, &params, key).await,
        ImportKind::Businesses => {
            super::businesses::import_row(state, tx, company, &params, key).await
        }
        ImportKind::Contacts => {
            super::persons::import_row::<kind::Contact>(state, tx, company, &params, key).await
        }
        ImportKind::SubGroups => super::sub_groups::import_row(tx, company, &params, key).await,
        ImportKind::Items(items) => {
            let written = super::assets::records::import_row(
                items,
                tx,
                company,
                &params,
                key,
                &context.fields,
            )
            .await;
            match written {
                Ok((written, number)) if stock_item.is_some() => {
                    let location = params
                        .get(&format!("{resource}[location_id]"))
                        .and_then(crate::form::parse_id);
                    let stocked = Stocked {
                        created: written == Written::Created,
                        locations: location.map(|l| (l, row.number)).into_iter().collect(),
                    };
                    context.stocked.insert(number, stocked);
                    if let Some((.., hash)) = natural {
                        context.stocked_by_identifier.insert(hash, number);
                    }
                    Ok(written)
                }
                other => other.map(|(written, _)| written),
            }
        }
    };
    // What the row sent ahead (its history, a total) is checked with the row, so that
    // a refusal of it is the row's and not the next one's.
    let written = match written {
        Ok(written) => tx.flush().await.map(|()| written).map_err(Into::into),
        refused => refused,
    };
    finish_row(written, row, kind, &columns, &column_of)
}

/// A further row of a stock item an earlier row wrote: its units at another location.
struct Further<'a> {
    items: AssetType,
    number: i64,
    /// The row's location's id, if it names one that exists.
    location: Option<i64>,
    columns: &'a [(String, Option<Column>)],
    column_of: &'a HashMap<String, &'a str>,
}

impl Further<'_> {
    /// Checks the row (adding to the problems found in reading it) and writes it.
    async fn write(
        self,
        tx: &mut store::Tx,
        context: &mut Context,
        row: &Row,
        mut errors: Vec<RowError>,
    ) -> Result<Written, Vec<RowError>> {
        let number = self.number;
        for ((header, column), value) in self.columns.iter().zip(&row.cells) {
            let value = value.trim();
            let stock = matches!(
                column,
                Some(Column::Key | Column::Named(Named::Location, _))
                    | Some(Column::Field("location_id" | "quantity"))
            ) || header == "identifier";
            if !stock && !value.is_empty() {
                errors.push(row.problem(
                    header,
                    Some(value),
                    format!("is for item #{number}'s first row: a further row of an item gives its stock at another location, with location and quantity only"),
                ));
            }
        }
        let at = self
            .column_of
            .get("location_id")
            .copied()
            .unwrap_or("location");
        let given = context.stocked.get(&number).and_then(|s| {
            let location = self.location?;
            s.locations.get(&location)
        });
        match (self.location, given) {
            (None, _) => errors.push(row.problem(
                at,
                None,
                format!(
                    "is needed: a further row of item #{number} gives its stock at another location"
                ),
            )),
            (Some(_), Some(first)) => errors.push(row.problem(
                at,
                row.cell(self.columns, at),
                format!("is where row {first} gave item #{number}'s stock already"),
            )),
            (Some(_), None) => {}
        }
        let quantity = row.cell(self.columns, "quantity");
        let units = quantity
            .and_then(|q| q.parse::<i64>().ok())
            .filter(|n| (0..=domain::stock::Quantity::MAX).contains(n));
        if units.is_none() {
            errors.push(row.problem(
                "quantity",
                quantity,
                format!(
                    "is needed: the units of item #{number} at the row's location, a whole number from 0 to {}",
                    domain::stock::Quantity::MAX
                ),
            ));
        }
        let (Some(location), Some(units), true) = (self.location, units, errors.is_empty()) else {
            return Err(errors);
        };
        let stocked = context.stocked.entry(number).or_insert(Stocked {
            created: false,
            locations: HashMap::new(),
        });
        stocked.locations.insert(location, row.number);
        let written = store::stock::import_level_in(
            tx,
            context.company,
            self.items,
            number,
            Some(store::Id::new(location)),
            units,
            stocked.created,
        )
        .await
        .map(|()| Written::Stock)
        .map_err(ApiError::from);
        finish_row(written, row, context.kind, self.columns, self.column_of)
    }
}

impl Row {
    /// A problem of the row's cell under `column` (holding `value`).
    fn problem(&self, column: &str, value: Option<&str>, message: String) -> RowError {
        RowError {
            row: self.number,
            column: Some(column.to_owned()),
            value: value.map(str::to_owned),
            message,
        }
    }

    /// The row's cell under `column` (trimmed), if the file has the column.
    fn cell<'a>(&'a self, columns: &[(String, Option<Column>)], column: &str) -> Option<&'a str> {
        let i = columns.iter().position(|(h, _)| h == column)?;
        self.cells.get(i).map(|v| v.trim())
    }
}

/// A row's outcome, its problems named by the file's columns.
fn finish_row(
    written: Result<Written, ApiError>,
    row: &Row,
    kind: ImportKind,
    columns: &[(String, Option<Column>)],
    column_of: &HashMap<String, &str>,
) -> Result<Written, Vec<RowError>> {
    let resource = kind.resource();
    let position = |column: &str| columns.iter().position(|(h, _)| h == column);
    let value_of = |column: &str| row.cell(columns, column);
    let column = |field: &str| -> String {
        // `location[name]` is the field `name`.
        let field = field
            .strip_prefix(resource)
            .and_then(|f| f.strip_prefix('['))
            .and_then(|f| f.strip_suffix(']'))
            .unwrap_or(field);
        column_of.get(field).map_or(field, |c| c).to_owned()
    };
    match written {
        Ok(w) => Ok(w),
        Err(ApiError::Invalid(problems)) => {
            let mut errors: Vec<RowError> = problems
                .into_iter()
                .flat_map(|(field, messages)| {
                    let column = column(&field);
                    let value = value_of(&column).map(str::to_owned);
                    messages.into_iter().map(move |message| RowError {
                        row: row.number,
                        column: Some(column.clone()),
                        value: value.clone(),
                        message,
                    })
                })
                .collect();
            // In the order of the file's columns.
            errors.sort_by_key(|e| e.column.as_deref().and_then(position).unwrap_or(usize::MAX));
            Err(errors)
        }
        Err(ApiError::NotFound(message)) => {
            Err(vec![row.problem(kind.key(), value_of(kind.key()), message)])
        }
        Err(other) => Err(vec![RowError {
            row: row.number,
            column: None,
            value: None,
            message: message_of(other),
        }]),
    }
}

impl Context {
    /// The id of the record of `what` named `name` (in `scope`: a subgroup's group),
    /// created when missing and the import says so; or what is wrong.
    async fn find(
        &mut self,
        tx: &mut store::Tx,
        what: Named,
        scope: i64,
        name: &str,
    ) -> Result<i64, String> {
        let entry = (what, scope, name.to_owned());
        if let Some(id) = self.names.get(&entry) {
            return Ok(*id);
        }
        let company = self.company;
        let found: Vec<i64> = match what {
            Named::Group => store::groups::named_in(tx, company, name)
                .await
                .map(|ids| ids.into_iter().map(|i| i.get()).collect()),
            Named::SubGroup => {
                store::sub_groups::named_in(tx, company, store::Id::new(scope), name)
                    .await
                    .map(|ids| ids.into_iter().map(|i| i.get()).collect())
            }
            Named::Location => store::locations::named_in(tx, company, name)
                .await
                .map(|ids| ids.into_iter().map(|i| i.get()).collect()),
        }
        .map_err(failure)?;
        let id = match found.as_slice() {
            [one] => *one,
            [] if self.create_missing => self.create(tx, what, scope, name).await?,
            [] => {
                return Err(format!(
                    "names no {}: create it first (in an earlier row, or before the import), or send import[create_missing]=true",
                    what.noun()
                ));
            }
            _ => {
                return Err(format!(
                    "names several {}s: give each a name of its own",
                    what.noun()
                ));
            }
        };
        self.names.insert(entry, id);
        Ok(id)
    }

    async fn create(
        &self,
        tx: &mut store::Tx,
        what: Named,
        scope: i64,
        name: &str,
    ) -> Result<i64, String> {
        let company = self.company;
        let created = match what {
            Named::Group => {
                let name = Name::parse(name).map_err(|e| format!("{e}, to create the group"))?;
                let input = store::groups::GroupInput {
                    name,
                    description: Change::Keep,
                    mode: None,
                    rates: None,
                };
                store::groups::create_in(tx, company, input)
                    .await
                    .map(|g| g.id)
            }
            Named::SubGroup => {
                let name = Name::parse(name).map_err(|e| format!("{e}, to create the subgroup"))?;
                let input = store::sub_groups::SubGroupInput {
                    name,
                    description: Change::Keep,
                    parent_id: Change::Keep,
                };
                store::sub_groups::create_in(tx, company, store::Id::new(scope), input)
                    .await
                    .map(|s| s.id)
            }
            Named::Location => {
                let name = Name::parse_required(name)
                    .map_err(|e| format!("{e}, to create the location"))?;
                store::locations::create_in(tx, company, name, Default::default())
                    .await
                    .map(|l| l.id)
            }
        };
        created.map_err(failure)
    }
}

impl Named {
    fn noun(self) -> &'static str {
        match self {
            Named::Group => "group",
            Named::SubGroup => "subgroup of the row's group",
            Named::Location => "location",
        }
    }
}

fn message_of(e: ApiError) -> String {
    match e {
        ApiError::BadRequest(m)
        | ApiError::Forbidden(m)
        | ApiError::NotFound(m)
        | ApiError::Conflict(m) => m,
        other => format!("the row cannot be written ({})", other.status()),
    }
}

#[cfg(test)]
mod tests {
    use super::without_thousands;

    #[test]
    fn thousands_separators_are_dropped_from_amounts_only() {
        assert_eq!(without_thousands("1,250.00").as_deref(), Some("1250.00"));
        assert_eq!(without_thousands("12,500").as_deref(), Some("12500"));
        assert_eq!(
            without_thousands("1,234,567.5").as_deref(),
            Some("1234567.5")
        );
        for not in [
            "1250.00", "1,25", "12,50", "1,2500", ",250", "1,,250", "a,bcd", "1234,567",
        ] {
            assert_eq!(without_thousands(not), None, "{not}");
        }
    }
}
