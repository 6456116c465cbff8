//! Labels: `GET /print_label_templates.api` (and, as a rentrack extension, `POST` to
//! add a template), `POST /qrcodes.api`, `/qrcode/members.api` and
//! `/qrcode/locations.api`, which answer with a link to a PDF of the labels. The link
//! (`GET /labels/<token>.pdf`, outside the API: [`pdf`]) works without the API token
//! until it expires ([`store::label_prints::LINK_LIFETIME`]), is revoked or the company's
//! API is disabled; its PDF is rendered once and kept. Each label's QR code holds
//! the record's scan link (`/scan/<company>/<assets|members|locations>/<n>`, [`scan`]).

use axum::Json;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use domain::label::{MAX_LABELS, TemplateType};
use domain::rate_limit::Decision;
use domain::{PageSize, Vocabulary};
use labels::{Label, Sheet, SheetSpec};
use serde::Serialize;
use serde_json::{Value, json};
use store::label_prints::{self, Print};
use store::label_templates::{self, NewTemplate, Template};

use crate::api::{Api, Doc, get, post};
use crate::auth::Tenant;
use crate::client_addr::ClientAddr;
use crate::error::ApiError;
use crate::form::Form;
use crate::input::{Format, IdList, Input, PageQuery, RecordId, Scalar, Shape, ShortText, Word};
use crate::params::Params;
use crate::state::AppState;
use crate::views::{self, Moment, moment};

pub fn routes(api: Api) -> Api {
    let api = api.route(
        "/print_label_templates",
        get(list).post(create),
        Doc::new(
            "Labels",
            "The company's label templates, 25 a page, all or of one template_type (GET); a new template (POST, rentrack extension). Every company starts with, for each type, a 62 x 29 mm roll label (the default), a 4 x 6 in shipping label, a US Letter sheet of 30 and an A4 sheet of 24",
        )
        .input::<NewTemplateInput>()
        .params::<ListQuery>()
        .returns("print_label_template")
        .returns_page("print_label_templates")
        .record::<TemplateJson<'_>>(),
    );
    PRINTS
        .into_iter()
        .fold(api, |api, (path, of, field, summary, read, doc)| {
            api.route(
                path,
                post(
                    move |s: State<AppState>, t: Tenant, h: HeaderMap, p: Params| {
                        print(s, t, h, p, of, field, read)
                    },
                ),
                doc(Doc::new("Labels", summary)).answers::<PrintJson>(),
            )
        })
}

/// Reads a print request: the records' keys and the template, or one 422.
type ReadPrint = fn(&Params) -> Result<(Vec<i64>, Option<i64>), ApiError>;

/// One label request: path, the records it prints, the list parameter naming them,
/// the summary, and the request's reader and document.
type PrintRoute = (
    &'static str,
    TemplateType,
    &'static str,
    &'static str,
    ReadPrint,
    fn(Doc) -> Doc,
);

/// The three label requests.
const PRINTS: [PrintRoute; 3] = [
    (
        "/qrcodes",
        TemplateType::Asset,
        "asset_seq",
        "A link to a PDF of item labels (fixed assets, inventory, asset stock)",
        read_print::<AssetPrint>,
        Doc::input::<AssetPrint>,
    ),
    (
        "/qrcode/members",
        TemplateType::Member,
        "member_id",
        "A link to a PDF of member labels",
        read_print::<MemberPrint>,
        Doc::input::<MemberPrint>,
    ),
    (
        "/qrcode/locations",
        TemplateType::Location,
        "location_id",
        "A link to a PDF of location labels",
        read_print::<LocationPrint>,
        Doc::input::<LocationPrint>,
    ),
];

/// A print request of one kind of record: its keys under their own name.
macro_rules! print_input {
    ($name:ident, $field:literal, $what:literal) => {
        #[doc = concat!("A print of ", $what, " labels.")]
        #[derive(Input)]
        struct $name {
            #[doc = concat!("The ", $what, " to print: a comma list or repeated, at most 1000.")]
            #[input(rename = $field, format = LabelKeys)]
            keys: Vec<i64>,
            /// A template of the matching template_type; the type's default when
            /// absent.
            #[input(format = RecordId)]
            template_id: Option<i64>,
        }

        impl From<$name> for (Vec<i64>, Option<i64>) {
            fn from(p: $name) -> Self {
                (p.keys, p.template_id)
            }
        }
    };
}

print_input!(AssetPrint, "asset_seq", "item numbers");
print_input!(MemberPrint, "member_id", "member ids");
print_input!(LocationPrint, "location_id", "location ids");

fn read_print<P: Input + Into<(Vec<i64>, Option<i64>)>>(
    params: &Params,
) -> Result<(Vec<i64>, Option<i64>), ApiError> {
    P::parse(params).map(Into::into)
}

/// The keys of the records to print: ids as `IdList` reads them, at least one and at
/// most [`MAX_LABELS`].
struct LabelKeys;

impl Format for LabelKeys {
    type Value = Vec<i64>;
    const SHAPE: Shape = Shape::List;

    fn read(params: &Params, path: &str) -> Option<Result<Vec<i64>, String>> {
        match IdList::read(params, path)? {
            Ok(keys) if keys.is_empty() => None,
            Ok(keys) if keys.len() > MAX_LABELS => Some(Err(format!(
                "asks for {} labels; at most {MAX_LABELS} a request",
                keys.len()
            ))),
            other => Some(other),
        }
    }

    fn schema() -> Value {
        let mut schema = IdList::schema();
        schema["minItems"] = 1.into();
        schema["maxItems"] = MAX_LABELS.into();
        schema
    }

    fn blank() -> String {
        "can't be blank: name the records to print, comma-separated".to_owned()
    }
}

/// The parameters of the template list.
#[derive(Input)]
struct ListQuery {
    /// asset, member or location; all when absent.
    #[input(format = Word<TemplateType>)]
    template_type: Option<TemplateType>,
    #[input(flatten)]
    page: PageQuery,
}

/// A new label template; lengths in millimetres, one decimal at most.
#[derive(Input)]
#[expect(
    dead_code,
    reason = "the sheet's lengths and counts are checked here; `create` reads them into the sheet, whatever else failed"
)]
#[input(resource = "print_label_template")]
struct NewTemplateInput {
    #[input(format = ShortText)]
    description: String,
    /// The records it prints labels of.
    #[input(format = Word<TemplateType>)]
    template_type: TemplateType,
    /// More than 0, up to 1000.
    #[input(format = Millimetres<Page>)]
    page_width: u32,
    /// More than 0, up to 1000.
    #[input(format = Millimetres<Page>)]
    page_height: u32,
    /// At least 20.
    #[input(format = Millimetres<LabelWidth>)]
    label_width: u32,
    /// At least 10.
    #[input(format = Millimetres<LabelHeight>)]
    label_height: u32,
    /// Labels across the page, 1 to 50; default 1.
    #[input(format = GridCount)]
    columns: Option<u32>,
    /// Labels down the page, 1 to 50; default 1.
    #[input(format = GridCount)]
    rows: Option<u32>,
    /// From the page's left edge to the first column; default 0.
    #[input(format = Millimetres)]
    margin_left: Option<u32>,
    /// From the page's top edge to the first row; default 0.
    #[input(format = Millimetres)]
    margin_top: Option<u32>,
    /// Between columns; default 0.
    #[input(format = Millimetres)]
    gap_x: Option<u32>,
    /// Between rows; default 0.
    #[input(format = Millimetres)]
    gap_y: Option<u32>,
    /// true makes it its type's default (the old default stops being one).
    default: Option<bool>,
}

/// Millimetres with one decimal at most (62, 66.7), read as tenths (667); `R` says
/// which lengths the document shows (`Sheet::new` checks them, and how they fit).
struct Millimetres<R = AnyLength>(std::marker::PhantomData<R>);

/// The lengths of one measurement of a sheet, as a pattern of the text sent.
trait Lengths {
    const PATTERN: &'static str;
}

/// A margin or a gap: from 0.
struct AnyLength;
/// A side of the page: more than 0, at most 1000.
struct Page;
/// A label's width: at least 20.
struct LabelWidth;
/// A label's height: at least 10.
struct LabelHeight;

impl Lengths for AnyLength {
    const PATTERN: &'static str = r"^\s*(?:\d{1,5}(?:\.\d)?|\.\d)\s*$";
}

impl Lengths for Page {
    const PATTERN: &'static str = r"^\s*(?:[1-9]\d{0,2}(?:\.\d)?|0?\.[1-9]|1000(?:\.0)?)\s*$";
}

impl Lengths for LabelWidth {
    const PATTERN: &'static str = r"^\s*(?:[2-9]\d|[1-9]\d{2,4})(?:\.\d)?\s*$";
}

impl Lengths for LabelHeight {
    const PATTERN: &'static str = r"^\s*[1-9]\d{1,4}(?:\.\d)?\s*$";
}

impl<R: Lengths> Scalar for Millimetres<R> {
    type Value = u32;

    fn parse(raw: &str) -> Result<u32, String> {
        tenths(raw).ok_or_else(|| {
            format!("must be millimetres with one decimal at most (e.g. 62 or 66.7), not {raw:?}")
        })
    }

    fn schema() -> Value {
        json!({"type": "string", "pattern": R::PATTERN})
    }

    fn blank() -> String {
        "can't be blank: millimetres, e.g. 62 or 66.7".to_owned()
    }
}

/// Labels across or down a page.
struct GridCount;

impl Scalar for GridCount {
    type Value = u32;

    fn parse(raw: &str) -> Result<u32, String> {
        raw.trim()
            .parse::<u32>()
            .ok()
            .filter(|n| *n > 0)
            .ok_or_else(|| {
                format!(
                    "must be a whole number from 1 to {}",
                    labels::sheet::MAX_GRID
                )
            })
    }

    fn schema() -> Value {
        json!({"type": "integer", "minimum": 1, "maximum": labels::sheet::MAX_GRID})
    }
}

/// A print of labels: where its PDF is, until when, and what it holds.
#[derive(Serialize, utoipa::ToSchema)]
#[schema(as = LabelPrint)]
struct PrintJson {
    /// The PDF's link, `<base>/labels/<token>.pdf`: it needs no token, and works until
    /// `expires_at` unless revoked or the company's API is disabled.
    url: String,
    expires_at: Moment,
    /// Labels in the PDF, one a record.
    labels: usize,
    /// Pages in the PDF.
    pages: usize,
    /// The template printed with.
    template_id: i64,
}

/// Tenths of a millimetre as millimetres for JSON: 667 is 66.7.
fn mm(t: u32) -> f64 {
    f64::from(t) / 10.0
}

/// A label template as the contract shows it; lengths in millimetres.
#[derive(Serialize, utoipa::ToSchema)]
#[schema(as = LabelTemplate)]
struct TemplateJson<'a> {
    id: i64,
    description: &'a str,
    /// The records it prints labels of.
    #[schema(value_type = String, pattern = "^(asset|member|location)$")]
    template_type: &'static str,
    /// The label's size (and the sheet's, when a page holds several), in words.
    size: String,
    /// Its type's default template.
    default: bool,
    page_width: f64,
    page_height: f64,
    label_width: f64,
    label_height: f64,
    /// Labels across the page.
    columns: u32,
    /// Labels down the page.
    rows: u32,
    /// From the page's left edge to the first column.
    margin_left: f64,
    /// From the page's top edge to the first row.
    margin_top: f64,
    /// Between columns.
    gap_x: f64,
    /// Between rows.
    gap_y: f64,
    /// columns × rows.
    labels_per_page: u32,
    created_at: Moment,
}

fn render(t: &Template, tz: chrono_tz::Tz) -> TemplateJson<'_> {
    let s = t.sheet.spec();
    let size = if s.columns * s.rows == 1 {
        format!(
            "{} x {} mm",
            labels::sheet::mm(s.label_width.into()),
            labels::sheet::mm(s.label_height.into())
        )
    } else {
        format!(
            "{} x {} mm, {} a page ({} x {} mm page)",
            labels::sheet::mm(s.label_width.into()),
            labels::sheet::mm(s.label_height.into()),
            s.columns * s.rows,
            labels::sheet::mm(s.page_width.into()),
            labels::sheet::mm(s.page_height.into())
        )
    };
    TemplateJson {
        id: t.id,
        description: &t.description,
        template_type: t.template_type.as_str(),
        size,
        default: t.is_default,
        page_width: mm(s.page_width),
        page_height: mm(s.page_height),
        label_width: mm(s.label_width),
        label_height: mm(s.label_height),
        columns: s.columns,
        rows: s.rows,
        margin_left: mm(s.margin_left),
        margin_top: mm(s.margin_top),
        gap_x: mm(s.gap_x),
        gap_y: mm(s.gap_y),
        labels_per_page: s.columns * s.rows,
        created_at: moment(t.created_at, tz),
    }
}

async fn list(
    State(state): State<AppState>,
    Tenant(company): Tenant,
    params: Params,
) -> Result<views::Reply, ApiError> {
    let query = ListQuery::parse(&params)?;
    let page = query.page.page(PageSize::DEFAULT);
    let records = label_templates::list(state.db(), company.id, query.template_type, page).await?;
    Ok(views::paged("print_label_templates", page, &records, |t| {
        render(t, company.time_zone)
    }))
}

/// Millimetres with one decimal at most, as tenths: "66.7" is 667.
fn tenths(raw: &str) -> Option<u32> {
    let (whole, fraction) = raw.trim().split_once('.').unwrap_or((raw.trim(), "0"));
    if whole.is_empty() && fraction.is_empty()
        || whole.len() > 5
        || fraction.len() != 1
        || !whole.bytes().all(|b| b.is_ascii_digit())
        || !fraction.bytes().all(|b| b.is_ascii_digit())
    {
        return None;
    }
    let whole: u32 = if whole.is_empty() {
        0
    } else {
        whole.parse().ok()?
    };
    Some(whole * 10 + fraction.parse::<u32>().ok()?)
}

async fn create(
    State(state): State<AppState>,
    Tenant(company): Tenant,
    params: Params,
) -> Result<views::Reply, ApiError> {
    let mut form = Form::new(&params, "print_label_template");
    let input = NewTemplateInput::read(&mut form);
    // The sheet's geometry, checked whatever else failed.
    let length = |form: &Form<'_>, field: &str, default: Option<u32>| {
        form.peek::<Millimetres>(field).or(default)
    };
    let count = |form: &Form<'_>, field: &str| form.peek::<GridCount>(field).or(Some(1));
    let spec = (|| {
        Some(SheetSpec {
            page_width: length(&form, "page_width", None)?,
            page_height: length(&form, "page_height", None)?,
            label_width: length(&form, "label_width", None)?,
            label_height: length(&form, "label_height", None)?,
            columns: count(&form, "columns")?,
            rows: count(&form, "rows")?,
            margin_left: length(&form, "margin_left", Some(0))?,
            margin_top: length(&form, "margin_top", Some(0))?,
            gap_x: length(&form, "gap_x", Some(0))?,
            gap_y: length(&form, "gap_y", Some(0))?,
        })
    })();
    let sheet = spec.and_then(|s| match Sheet::new(s) {
        Ok(sheet) => Some(sheet),
        Err(e) => {
            form.error(e.field, e.message);
            None
        }
    });
    let (input, sheet) = form.finish_with(input.zip(sheet))?;
    let template = label_templates::create(
        state.db(),
        company.id,
        NewTemplate {
            description: input.description,
            template_type: input.template_type,
            sheet,
            is_default: input.default.unwrap_or(false),
        },
    )
    .await?;
    Ok(views::one(
        "print_label_template",
        render(&template, company.time_zone),
    ))
}

/// The path segment of a record kind in scan links and API paths.
fn segment(of: TemplateType) -> &'static str {
    match of {
        TemplateType::Asset => "assets",
        TemplateType::Member => "members",
        TemplateType::Location => "locations",
    }
}

/// Where this server is reached: the configured public URL, else the request's host
/// over http.
pub(crate) fn base_url(state: &AppState, headers: &HeaderMap) -> String {
    if let Some(url) = &state.config().public_url {
        return url.trim_end_matches('/').to_owned();
    }
    let host = headers
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .filter(|h| !h.is_empty() && h.bytes().all(|b| b.is_ascii_graphic()))
        .unwrap_or("localhost");
    format!("http://{host}")
}

async fn print(
    State(state): State<AppState>,
    Tenant(company): Tenant,
    headers: HeaderMap,
    params: Params,
    of: TemplateType,
    field: &'static str,
    read: ReadPrint,
) -> Result<views::Reply, ApiError> {
    let (keys, template) = read(&params)?;
    let template = template.map(store::Id::new);
    let (template, records) =
        label_prints::prepare(state.db(), company.id, of, template, &keys, field).await?;
    let base = base_url(&state, &headers);
    let labels: Vec<Value> = records
        .iter()
        .map(|r| {
            json!({
                "link": format!("{base}/scan/{}/{}/{}", company.id.get(), segment(of), r.key),
                "name": r.name,
                "number": format!("#{}", r.number),
                "identifier": r.identifier,
                "company": company.name,
            })
        })
        .collect();
    let saved = label_prints::save(
        state.db(),
        company.id,
        &template,
        Value::Array(labels).to_string(),
        records.len(),
    )
    .await?;
    Ok(views::Reply::of(&PrintJson {
        url: format!("{base}/labels/{}.pdf", saved.token),
        expires_at: moment(saved.expires_at, company.time_zone),
        labels: records.len(),
        pages: records.len().div_ceil(template.sheet.per_page()),
        template_id: template.id,
    }))
}

/// `GET /labels/<token>.pdf`: the PDF of a print, without an API token, while its link
/// works; else a JSON 404. The PDF is rendered at the link's first GET (at most
/// `Config::label_renders` at once in this instance; a GET that waits longer than
/// `Config::label_render_wait` for one is a 503) and kept in the database for the
/// link's life, so later GETs, on any instance, answer the same bytes. GETs are limited
/// per client address (`Config::label_link_limit`, then 429).
pub async fn pdf(
    State(state): State<AppState>,
    ClientAddr(address): ClientAddr,
    Path(file): Path<String>,
) -> Result<Response, ApiError> {
    if let Decision::Refused {
        retry_after_secs, ..
    } = state.inner().label_links.check(&address)
    {
        state.inner().metrics.rate_limited();
        return Err(ApiError::RateLimited {
            message: format!(
                "Too many label link requests from your address. Retry after {retry_after_secs} s (Retry-After)."
            ),
            retry_after_secs,
        });
    }
    let gone = || {
        ApiError::NotFound(
            "No such label link: it has expired (links work for an hour) or been revoked, or its company's API is disabled. Ask for the labels again."
                .into(),
        )
    };
    let token = file.strip_suffix(".pdf").ok_or_else(gone)?;
    if token.len() != 64 || !token.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(gone());
    }
    let body = match label_prints::fetch(state.db(), token)
        .await?
        .ok_or_else(gone)?
    {
        Print::Rendered(pdf) => pdf,
        Print::ToRender { .. } => {
            let inner = state.inner();
            let Ok(Ok(_permit)) = tokio::time::timeout(
                state.config().label_render_wait,
                inner.label_renders.acquire(),
            )
            .await
            else {
                return Ok(crate::error::unavailable(Json(json!({
                    "message": "Label PDFs are being rendered for other requests. Retry after the number of seconds in Retry-After."
                }))));
            };
            // Another GET of this link may have rendered it while this one waited.
            match label_prints::fetch(state.db(), token)
                .await?
                .ok_or_else(gone)?
            {
                Print::Rendered(pdf) => pdf,
                Print::ToRender { sheet, labels } => {
                    let labels = parse_labels(&labels)?;
                    let pdf = tokio::task::spawn_blocking(move || labels::render(&sheet, &labels))
                        .await
                        .map_err(|e| ApiError::Internal(format!("label rendering: {e}")))?
                        .map_err(|e| ApiError::Internal(e.to_string()))?;
                    inner.metrics.label_rendered();
                    label_prints::keep_pdf(state.db(), token, &pdf).await?;
                    pdf
                }
            }
        }
    };
    Ok((
        StatusCode::OK,
        [
            (header::CONTENT_TYPE, "application/pdf"),
            (
                header::CONTENT_DISPOSITION,
                "inline; filename=\"labels.pdf\"",
            ),
            (header::CACHE_CONTROL, "private, no-store"),
        ],
        body,
    )
        .into_response())
}

/// The labels of a print from the JSON kept with it.
fn parse_labels(json: &str) -> Result<Vec<Label>, ApiError> {
    Ok(serde_json::from_str::<Vec<Value>>(json)
        .map_err(|e| ApiError::Internal(format!("label print JSON: {e}")))?
        .into_iter()
        .map(|l| Label {
            link: l["link"].as_str().unwrap_or_default().to_owned(),
            name: l["name"].as_str().unwrap_or_default().to_owned(),
            number: l["number"].as_str().unwrap_or_default().to_owned(),
            identifier: l["identifier"].as_str().map(str::to_owned),
            company: l["company"].as_str().unwrap_or_default().to_owned(),
        })
        .collect())
}

/// `GET /scan/<company>/<assets|members|locations>/<n>`: what a label's QR code holds,
/// answered without a token with where the record is in the API (no record data: the
/// API needs the company's token). A browser (its Accept names HTML) scanning an
/// asset's label is sent to the item's staff page, through the log-in when needed.
pub async fn scan(
    Path((company, kind, key)): Path<(String, String, String)>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let gone = || ApiError::NotFound("No such label link.".into());
    let number = |raw: &str| raw.parse::<i64>().ok().filter(|n| *n > 0);
    let (Some(company), Some(key)) = (number(&company), number(&key)) else {
        return Err(gone());
    };
    let record = match kind.as_str() {
        "assets" => "asset",
        "members" => "member",
        "locations" => "location",
        _ => return Err(gone()),
    };
    if record == "asset" && crate::staff::wants_page(&headers) {
        let to = format!("/staff/items/{key}?company={company}");
        return Ok(crate::html::redirect(&to, vec![]));
    }
    Ok(Json(json!({
        "label": {
            "company_id": company,
            "record": record,
            "number": key,
            "api_path": format!("/{kind}/{key}.api"),
        }
    }))
    .into_response())
}
