//! Exports (a rentrack extension): every record of a kind, as CSV or JSON lines, in the
//! columns its import reads, so that an export imports back unchanged. The file is
//! streamed a batch at a time (by id, from the index), so it costs the same memory
//! however many records there are, and it has no page cap.

use axum::body::{Body, Bytes};
use axum::extract::State;
use axum::http::header;
use axum::response::{IntoResponse, Response};
use domain::Vocabulary;
use domain::item::AssetType;
use serde_json::Value;
use std::collections::HashMap;
use store::custom_fields::FieldSet;

use super::imports::ImportKind;
use crate::api::{Api, Doc, get};
use crate::auth::Tenant;
use crate::error::ApiError;
use crate::ids::kind;
use crate::input::{Input, Word};
use crate::params::Params;
use crate::state::AppState;

/// Records read a statement.
const BATCH: u64 = 500;

/// Batches rendered ahead of the client.
const AHEAD: usize = 4;

pub fn routes(api: Api) -> Api {
    ImportKind::ALL.iter().fold(api, |api, &kind| {
        api.route(
            &format!("/exports/{}", kind.as_str()),
            get(
                move |state: State<AppState>, tenant: Tenant, params: Params| async move {
                    export(state, tenant, params, kind).await
                },
            ),
            Doc::new(
                "Exports",
                "Every record of the kind, streamed as CSV (format=csv, the default) or JSON lines (format=jsonl), in the columns its import reads: an export imports back unchanged",
            )
            .params::<ExportQuery>()
            .streams(MEDIA_TYPES),
        )
    })
}

/// How an export is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Csv,
    Jsonl,
}

impl Vocabulary for Format {
    const ALL: &'static [Self] = &[Format::Csv, Format::Jsonl];

    fn as_str(self) -> &'static str {
        match self {
            Format::Csv => "csv",
            Format::Jsonl => "jsonl",
        }
    }
}

/// The media types of the formats, in their order.
const MEDIA_TYPES: &[&str] = &["text/csv", "application/x-ndjson"];

impl Format {
    fn media_type(self) -> &'static str {
        MEDIA_TYPES[self as usize]
    }
}

#[derive(Input)]
struct ExportQuery {
    /// csv (the default: a header row, then a row a record) or jsonl (an object a line,
    /// under the same names).
    #[input(format = Word<Format>)]
    format: Option<Format>,
}

/// A column of an export: its header, and the field of the record's view it shows.
struct Column {
    header: String,
    field: Field,
}

enum Field {
    /// A field of the record's view: `rental_price_attributes][daily` is the view's
    /// `rental_prices.daily`.
    Own(&'static str),
    /// A custom field's value, by its name.
    Custom(String),
}

impl Column {
    fn of(view: &Value, field: &Field) -> Value {
        match field {
            Field::Own(name) => match name.split_once("][") {
                Some(("rental_price_attributes", part)) => view["rental_prices"][part].clone(),
                Some(("late_fee_attributes", part)) => view["late_fee"][part].clone(),
                Some((group, part)) => view[group][part].clone(),
                None => view[*name].clone(),
            },
            Field::Custom(name) => view["custom_attributes"][name.as_str()].clone(),
        }
    }
}

/// The columns of `kind`'s export: its key, its fields, then its custom fields.
fn columns(kind: ImportKind, fields: &FieldSet) -> Vec<Column> {
    let key = kind.key();
    std::iter::once(Column {
        header: key.to_owned(),
        field: Field::Own(key),
    })
    .chain(kind.fields().into_iter().map(|(header, field)| Column {
        header: header.to_owned(),
        field: Field::Own(field),
    }))
    .chain(fields.0.iter().map(|f| Column {
        header: f.name.clone(),
        field: Field::Custom(f.name.clone()),
    }))
    .collect()
}

async fn export(
    State(state): State<AppState>,
    tenant: Tenant,
    params: Params,
    kind: ImportKind,
) -> Result<Response, ApiError> {
    let format = ExportQuery::parse(&params)?.format.unwrap_or(Format::Csv);
    let mut receive = chunks(state, &tenant, kind, format).await?;
    let body = Body::from_stream(futures_util::stream::poll_fn(move |cx| {
        receive.poll_recv(cx)
    }));
    let file = format!("{}.{}", kind.as_str(), format.as_str());
    Ok((
        [
            (header::CONTENT_TYPE, format.media_type().to_owned()),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"{file}\""),
            ),
        ],
        body,
    )
        .into_response())
}

/// The file of every record of `kind` of the tenant's, a chunk at a time (a batch of
/// records), written by a task of its own; an `Err` chunk ends a file that stopped.
/// The first batch is read before it answers, so that a database out of reach is an
/// error and not a cut file.
pub(crate) async fn chunks(
    state: AppState,
    tenant: &Tenant,
    kind: ImportKind,
    format: Format,
) -> Result<tokio::sync::mpsc::Receiver<Result<Bytes, std::io::Error>>, ApiError> {
    let company = tenant.0.id;
    let fields = match kind.custom_target() {
        Some(target) => store::custom_fields::for_targets(state.db(), company, &[target]).await?,
        None => FieldSet::default(),
    };
    let batches = Batches {
        state,
        company,
        tz: tenant.0.time_zone,
        today: super::assets::today(tenant),
        kind,
        fields,
    };
    let columns = columns(kind, &batches.fields);
    let first = batches.read(0).await?;
    let (send, receive) = tokio::sync::mpsc::channel::<Result<Bytes, std::io::Error>>(AHEAD);
    tokio::spawn(async move {
        let mut chunk = match format {
            Format::Csv => csv_line(columns.iter().map(|c| Value::String(c.header.clone()))),
            Format::Jsonl => Vec::new(),
        };
        let mut batch = first;
        while let Some(&(last, _)) = batch.last() {
            for (_, view) in &batch {
                let cells = columns.iter().map(|c| Column::of(view, &c.field));
                match format {
                    Format::Csv => chunk.extend(csv_line(cells)),
                    Format::Jsonl => json_line(&mut chunk, columns.iter().zip(cells)),
                }
            }
            if send
                .send(Ok(Bytes::from(std::mem::take(&mut chunk))))
                .await
                .is_err()
            {
                // The reader went away.
                return;
            }
            if (batch.len() as u64) < BATCH {
                break;
            }
            batch = match batches.read(last).await {
                Ok(b) => b,
                Err(e) => {
                    tracing::warn!(error = %ApiError::from(e).message(), "exports: a batch could not be read; the file is cut");
                    let _ = send
                        .send(Err(std::io::Error::other("the export stopped")))
                        .await;
                    return;
                }
            };
        }
        if !chunk.is_empty() {
            let _ = send.send(Ok(Bytes::from(chunk))).await;
        }
    });
    Ok(receive)
}

/// One JSON object of `cells` under their columns' headers, in the columns' order, and
/// a line break.
fn json_line<'a>(out: &mut Vec<u8>, cells: impl Iterator<Item = (&'a Column, Value)>) {
    out.push(b'{');
    for (n, (column, value)) in cells.enumerate() {
        if n > 0 {
            out.push(b',');
        }
        // Texts and JSON values always serialize.
        let _ = serde_json::to_writer(&mut *out, &column.header);
        out.push(b':');
        let _ = serde_json::to_writer(&mut *out, &value);
    }
    out.extend_from_slice(b"}\n");
}

/// One CSV line of `cells`: text as is, numbers and booleans as JSON writes them, a
/// list as a comma list, null empty; quoted where a spreadsheet needs it.
fn csv_line(cells: impl Iterator<Item = Value>) -> Vec<u8> {
    let mut writer = csv::WriterBuilder::new().from_writer(Vec::new());
    let texts: Vec<String> = cells
        .map(|v| match v {
            Value::Null => String::new(),
            Value::String(s) => s,
            // A list of ids (a member's teams), as an import reads one.
            Value::Array(items) => items
                .iter()
                .map(|i| i.to_string())
                .collect::<Vec<_>>()
                .join(","),
            other => other.to_string(),
        })
        .collect();
    // Writing to memory cannot fail.
    let _ = writer.write_record(&texts);
    writer.into_inner().unwrap_or_default()
}

fn json(view: impl serde::Serialize) -> Value {
    serde_json::to_value(view).unwrap_or_default()
}

/// Reads an export's records a batch at a time, each record as its API view.
struct Batches {
    state: AppState,
    company: store::CompanyId,
    tz: chrono_tz::Tz,
    today: store::items::Today,
    kind: ImportKind,
    fields: FieldSet,
}

impl Batches {
    /// The records after id `after`, each with its id.
    async fn read(&self, after: i64) -> Result<Vec<(i64, Value)>, store::StoreError> {
        let (db, company, tz, fields) = (self.state.db(), self.company, self.tz, &self.fields);
        Ok(match self.kind {
            ImportKind::Vendors => store::vendors::after(db, company, after, BATCH)
                .await?
                .iter()
                .map(|v| (v.id, json(super::vendors::render(v, tz, fields, false))))
                .collect(),
            ImportKind::Locations => store::locations::after(db, company, after, BATCH)
                .await?
                .iter()
                .map(|l| (l.id, json(super::locations::render(l, tz))))
                .collect(),
            ImportKind::Items(kind) => {
                let items =
                    store::items::after(db, company, kind, after, BATCH, self.today).await?;
                // Stock kinds: the units at each location, one statement; an item's
                // row holds those at its own location, and a row after it each other
                // location's (key, identifier, location_id and quantity only).
                let numbers: Vec<i64> = items.iter().map(|v| v.item.sequence_num).collect();
                let mut levels: HashMap<i64, Vec<(i64, i64)>> = HashMap::new();
                if kind != AssetType::FixedAsset {
                    for (n, location, quantity) in
                        store::stock::levels_of(db, company, &numbers).await?
                    {
                        levels.entry(n).or_default().push((location, quantity));
                    }
                }
                let mut rows = Vec::with_capacity(items.len());
                for v in &items {
                    let shown = super::assets::Shown::default();
                    let mut view = json(super::assets::render(v, tz, fields, shown));
                    let number = v.item.sequence_num;
                    let own = v.item.location_id;
                    let held = levels.remove(&number).unwrap_or_default();
                    if kind != AssetType::FixedAsset && own.is_some() {
                        let here = held.iter().find(|(l, _)| Some(*l) == own);
                        view["quantity"] = here.map_or(0, |(_, q)| *q).into();
                    }
                    let identifier = view["identifier"].clone();
                    rows.push((v.item.id, view));
                    for (location, quantity) in
                        held.into_iter().filter(|(l, q)| Some(*l) != own && *q > 0)
                    {
                        let elsewhere = serde_json::json!({
                            "sequence_num": number,
                            "identifier": identifier,
                            "location_id": location,
                            "quantity": quantity,
                        });
                        rows.push((v.item.id, elsewhere));
                    }
                }
                rows
            }
            ImportKind::Groups => store::groups::after(db, company, after, BATCH)
                .await?
                .iter()
                .map(|g| (g.id, json(super::groups::render(g, tz))))
                .collect(),
            ImportKind::SubGroups => store::sub_groups::after(db, company, after, BATCH)
                .await?
                .iter()
                .map(|s| (s.id, json(super::sub_groups::render(s, tz))))
                .collect(),
            ImportKind::Members => store::members::after(db, company, after, BATCH)
                .await?
                .iter()
                .map(|m| {
                    (
                        m.member.id,
                        json(super::members::render(m, tz, fields, false)),
                    )
                })
                .collect(),
            ImportKind::Businesses => store::businesses::after(db, company, after, BATCH)
                .await?
                .iter()
                .map(|b| (b.id, json(super::businesses::render(b, tz, fields, false))))
                .collect(),
            ImportKind::Contacts => {
                store::persons::after::<kind::Contact>(db, company, after, BATCH)
                    .await?
                    .iter()
                    .map(|p| {
                        (
                            p.person.id,
                            json(super::persons::render(p, tz, fields, false)),
                        )
                    })
                    .collect()
            }
            ImportKind::Customers => {
                store::persons::after::<kind::Customer>(db, company, after, BATCH)
                    .await?
                    .iter()
                    .map(|p| {
                        (
                            p.person.id,
                            json(super::persons::render(p, tz, fields, false)),
                        )
                    })
                    .collect()
            }
        })
    }
}
