//! The fixed-asset record: create, list, details, update, delete, retire, activate,
//! GPS, history, search and filters.

use std::marker::PhantomData;

use axum::extract::State;
use chrono::NaiveDate;
use domain::asset_filter::AssetFilter;
use domain::item::{AssetType, MAX_DOCUMENTS, is_link};
use domain::money::Money;
use domain::pricing::{LateFee, LateFeeKind};
use domain::settings::ActivationLocation;
use domain::{Change, Name, PageSize, Vocabulary};
use store::items::{self, AssetInput, Rates, Reading, Search};
use store::retirement::{self, Retirement};

use super::{
    AssetJson, AssetsQuery, Fixed, Inventory, Kind, Scoped, ShowQuery, Shown, Stock, answer,
    answer_page, clock, today,
};
use crate::api::{Api, Doc, get, put_or_patch};
use crate::auth::Tenant;
use crate::custom_attributes;
use crate::error::ApiError;
use crate::form::{Form, MAX_LIST_ENTRIES, MAX_TEXT_CHARS, parse_id};
use crate::ids::{Number, kind};
use crate::input::{
    Amount, Coordinate, Format, IdList, Input, PageQuery, RecordId, Scalar, Shape, Word,
    read_beside,
};
use crate::params::{ListTooLong, Params};
use crate::state::AppState;
use crate::views;

/// The custom field values of an item, a write's map `cust_attr[<name>]` whose keys are
/// the company's field names and whose values' kinds are those fields' (read by
/// `custom_attributes`): texts here.
pub(crate) const CUSTOM_VALUES: (&str, &str) = (
    "cust_attr[<custom field name>]",
    "value of a custom field that applies to the kind of item; null clears, empty keeps",
);

/// The fields every kind of item takes besides its name, group and purchase date.
#[derive(Input)]
pub(crate) struct ItemFields {
    /// A subgroup of the group; null or 0 clears.
    #[input(format = RecordId)]
    sub_group_id: Change<i64>,
    /// A location of the company; null or 0 clears. For inventory and asset stock,
    /// where stock goes when a movement names none.
    #[input(format = RecordId)]
    location_id: Change<i64>,
    description: Change<String>,
    manufacturer: Change<String>,
    /// A rentrack extension (the product_model_number filter).
    product_model_number: Change<String>,
    /// An http(s) link; null clears.
    #[input(format = Link)]
    image_url: Change<String>,
    /// The identification number (searched with @).
    identifier: Change<String>,
    /// The purchase price, an amount such as 1200.00; null clears.
    #[input(format = Amount)]
    price: Change<i64>,
    /// Up to 5 http(s) links; the full new list on update (sent empty: none).
    #[input(format = DocumentUrls)]
    document_urls: Option<Vec<String>>,
    /// The rate per minute, an amount such as 25.00; null clears (an asset without a
    /// rate is tracked, not rented).
    #[input(format = Amount, rename = "rental_price_attributes][per_minute")]
    per_minute: Change<i64>,
    /// The rate per hour, as per_minute.
    #[input(format = Amount, rename = "rental_price_attributes][hourly")]
    hourly: Change<i64>,
    /// The rate per day, as per_minute.
    #[input(format = Amount, rename = "rental_price_attributes][daily")]
    daily: Change<i64>,
    /// The rate per week, as per_minute.
    #[input(format = Amount, rename = "rental_price_attributes][weekly")]
    weekly: Change<i64>,
    /// The rate per month, as per_minute.
    #[input(format = Amount, rename = "rental_price_attributes][monthly")]
    monthly: Change<i64>,
    /// A rentrack extension: the fee for a late return on an order, per started
    /// minute, hour, day, week or month, or flat; null removes the fee. Sent with
    /// amount.
    #[input(
        format = Word<LateFeeKind>,
        rename = "late_fee_attributes][kind",
        needs = "late_fee_attributes][amount"
    )]
    late_fee_kind: Change<LateFeeKind>,
    /// The late fee per started unit (or the flat fee), an amount such as 5.00; sent
    /// with kind.
    #[input(
        format = Amount,
        rename = "late_fee_attributes][amount",
        needs = "late_fee_attributes][kind"
    )]
    late_fee_amount: Change<i64>,
}

/// A new fixed asset.
#[derive(Input)]
pub(crate) struct NewFixedAsset {
    /// At least 3 characters.
    name: Name,
    /// The id of one of the company's groups.
    #[input(format = GroupId)]
    group_id: i64,
    /// The day it was bought (mm/dd/yyyy or yyyy-mm-dd).
    purchased_on: NaiveDate,
    #[input(flatten)]
    fields: ItemFields,
}

/// A new inventory or asset stock item.
#[derive(Input)]
pub(crate) struct NewStockItem {
    /// At least 3 characters.
    name: Name,
    /// The id of one of the company's groups.
    #[input(format = GroupId)]
    group_id: i64,
    /// The day it was bought (mm/dd/yyyy or yyyy-mm-dd).
    purchased_on: Option<NaiveDate>,
    #[input(flatten)]
    fields: ItemFields,
}

/// An item's changes: what is left out is kept.
#[derive(Input)]
pub(crate) struct ItemChanges {
    /// At least 3 characters.
    name: Option<Name>,
    /// The id of one of the company's groups (every item has one).
    #[input(format = GroupId)]
    group_id: Option<i64>,
    /// The day it was bought (mm/dd/yyyy or yyyy-mm-dd).
    purchased_on: Option<NaiveDate>,
    #[input(flatten)]
    fields: ItemFields,
}

/// An item's record as read, whatever the kind and request.
pub(crate) struct ItemRecord {
    name: Option<Name>,
    group_id: Option<i64>,
    purchased_on: Option<NaiveDate>,
    fields: ItemFields,
}

impl From<NewFixedAsset> for ItemRecord {
    fn from(n: NewFixedAsset) -> Self {
        ItemRecord {
            name: Some(n.name),
            group_id: Some(n.group_id),
            purchased_on: Some(n.purchased_on),
            fields: n.fields,
        }
    }
}

impl From<NewStockItem> for ItemRecord {
    fn from(n: NewStockItem) -> Self {
        ItemRecord {
            name: Some(n.name),
            group_id: Some(n.group_id),
            purchased_on: n.purchased_on,
            fields: n.fields,
        }
    }
}

impl From<ItemChanges> for ItemRecord {
    fn from(c: ItemChanges) -> Self {
        ItemRecord {
            name: c.name,
            group_id: c.group_id,
            purchased_on: c.purchased_on,
            fields: c.fields,
        }
    }
}

/// The custom taxes an item's write applies or takes off.
#[derive(Input)]
pub(crate) struct TaxChanges {
    /// Custom taxes to apply: their ids, repeated, a comma list or [1,2].
    #[input(format = TaxIds)]
    custom_tax_ids_to_add: Option<Vec<i64>>,
    /// Custom taxes to take off (update), as custom_tax_ids_to_add.
    #[input(format = TaxIds)]
    custom_tax_ids_to_remove: Option<Vec<i64>>,
}

/// A group id: every item has a group, so null and 0 are refused.
struct GroupId;

impl Scalar for GroupId {
    type Value = i64;

    fn parse(raw: &str) -> Result<i64, String> {
        match raw.trim() {
            "null" | "0" => Err("can't be blank: every asset belongs to a group".to_owned()),
            _ => RecordId::parse(raw),
        }
    }

    fn schema() -> serde_json::Value {
        <RecordId as Scalar>::schema()
    }
}

/// An http(s) link of at most 2000 characters, without spaces.
struct Link;

impl Scalar for Link {
    type Value = String;

    fn parse(raw: &str) -> Result<String, String> {
        if is_link(raw) && raw.chars().count() <= MAX_TEXT_CHARS {
            Ok(raw.to_owned())
        } else {
            Err("must be an http(s) link".to_owned())
        }
    }

    fn schema() -> serde_json::Value {
        link_schema()
    }
}

fn link_schema() -> serde_json::Value {
    serde_json::json!({
        "type": "string",
        "pattern": r"^[Hh][Tt][Tt][Pp](?:[Ss]://\S+|://\S{2,})$",
        "maxLength": MAX_TEXT_CHARS,
    })
}

/// Up to [`MAX_DOCUMENTS`] http(s) links, repeated or a comma list.
struct DocumentUrls;

impl Format for DocumentUrls {
    type Value = Vec<String>;
    const SHAPE: Shape = Shape::List;

    fn read(params: &Params, path: &str) -> Option<Result<Vec<String>, String>> {
        if !params.contains(path) {
            return None;
        }
        let urls = match params.list(path, MAX_LIST_ENTRIES) {
            Ok(urls) => urls,
            Err(bad) => return Some(Err(bad.to_string())),
        };
        if urls.len() > MAX_DOCUMENTS {
            return Some(Err(format!(
                "can hold at most {MAX_DOCUMENTS} links, not {}",
                urls.len()
            )));
        }
        let bad: Vec<String> = urls
            .iter()
            .filter(|url| Link::parse(url).is_err())
            .map(|url| format!("{url:?}"))
            .collect();
        Some(if bad.is_empty() {
            Ok(urls)
        } else {
            Err(format!("{} is not an http(s) link", bad.join(", ")))
        })
    }

    fn schema() -> serde_json::Value {
        serde_json::json!({
            "type": "array",
            "items": link_schema(),
            "maxItems": MAX_DOCUMENTS,
        })
    }
}

/// Custom tax ids: repeated (`x[]=1&x[]=2`), a comma list (`x=1,2`) or one comma list
/// in brackets (`x=[1,2]`); repeats dropped.
struct TaxIds;

impl Format for TaxIds {
    type Value = Vec<i64>;
    const SHAPE: Shape = Shape::List;

    fn read(params: &Params, path: &str) -> Option<Result<Vec<i64>, String>> {
        let inner = params
            .get(path)
            .and_then(|v| v.trim().strip_prefix('['))
            .and_then(|v| v.strip_suffix(']'));
        let Some(inner) = inner else {
            return IdList::read(params, path);
        };
        let raws: Vec<&str> = inner
            .split(',')
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .collect();
        if let Err(too_long) = ListTooLong::check(raws.len(), MAX_LIST_ENTRIES) {
            return Some(Err(too_long.to_string()));
        }
        let mut ids: Vec<i64> = Vec::with_capacity(raws.len());
        let mut bad = Vec::new();
        for raw in raws {
            match parse_id(raw) {
                Some(id) if !ids.contains(&id) => ids.push(id),
                Some(_) => {}
                None => bad.push(format!("{raw:?}")),
            }
        }
        Some(if bad.is_empty() {
            Ok(ids)
        } else {
            Err(format!(
                "must hold custom tax ids (positive whole numbers), not {}",
                bad.join(", ")
            ))
        })
    }

    fn schema() -> serde_json::Value {
        IdList::schema()
    }
}

pub(super) fn routes(api: Api) -> Api {
    api.route(
        "/assets",
        get(list::<Fixed>).post(create::<Fixed>),
        Doc::new("Fixed assets", "List fixed assets, 25 a page (GET), or create one (POST)")
            .input::<Scoped<Fixed, NewFixedAsset>>()
            .input::<TaxChanges>()
            .custom_values("", &[CUSTOM_VALUES])
            .params::<AssetsQuery>()
            .returns("asset")
            .returns_page("assets")
            .record::<AssetJson<'_>>(),
    )
    .route(
        "/assets/{sequence_num}",
        get(details::<Fixed>)
            .put_or_patch(update::<Fixed>)
            .delete(delete::<Fixed>),
        Doc::new(
            "Fixed assets",
            "Asset details (GET, any kind of item), update (PUT or PATCH; fields left out are kept), delete (refused while checked out or reserved)",
        )
        .input::<Scoped<Fixed, ItemChanges>>()
        .input::<TaxChanges>()
        .custom_values("", &[CUSTOM_VALUES])
        .params::<DetailsQuery>()
        .returns("asset")
        .record::<AssetJson<'_>>(),
    )
    .route(
        "/assets/{sequence_num}/retire",
        put_or_patch(retire),
        Doc::new("Fixed assets", "Retire an available fixed asset, or asset stock with no unit checked out (PUT or PATCH); its pending and approved reservations become removed. Inventory does not retire (409)")
            .input::<RetireInput>()
            .returns("asset")
            .record::<AssetJson<'_>>(),
    )
    .route(
        "/assets/{sequence_num}/activate",
        put_or_patch(activate),
        Doc::new(
            "Fixed assets",
            "Bring a retired fixed asset or asset stock back (PUT or PATCH); a location as the company setting retired_asset_activation_location says",
        )
        .input::<ActivateInput>()
        .returns("asset")
        .record::<AssetJson<'_>>(),
    )
    .route(
        "/assets/{sequence_num}/gps_coordinates",
        put_or_patch(gps),
        Doc::new("Fixed assets", "Record a GPS reading (PUT or PATCH); kept as a history, the latest on the asset")
            .params::<GpsQuery>()
            .returns("asset")
            .record::<AssetJson<'_>>(),
    )
    .route(
        "/assets/{sequence_num}/history_paginate",
        get(history),
        Doc::new("Fixed assets", "The asset's history, newest first, 5 a page")
            .params::<PageQuery>()
            .returns_page("history")
            .record::<super::HistoryEntryJson>(),
    )
    .route(
        "/assets/filter",
        get(filter::<Fixed>),
        Doc::new("Fixed assets", "Fixed assets by status (see docs/api.md for each status and its filter_param_val), 25 a page")
            .params::<FilterQuery<Fixed>>()
            .returns_page("assets")
            .record::<AssetJson<'_>>(),
    )
    .route(
        "/search",
        get(search),
        Doc::new("Fixed assets", "Search items of one kind by name (every word); #n the asset number, @x the identification number; 25 a page")
            .params::<SearchQuery>()
            .returns_page("assets")
            .record::<AssetJson<'_>>(),
    )
}

/// The parameters of an item's details.
#[derive(Input)]
pub(crate) struct DetailsQuery {
    #[input(flatten)]
    show: ShowQuery,
    /// Add services, the asset's latest 25, newest first (default false;
    /// /assets/<n>/services.api has them all).
    show_services_details: Option<bool>,
}

/// A retirement.
#[derive(Input)]
#[input(resource = "fixed_asset")]
struct RetireInput {
    /// The day it was retired (mm/dd/yyyy or yyyy-mm-dd).
    retired_on: NaiveDate,
    /// A retire reason of the company.
    #[input(format = RecordId)]
    retire_reason_id: i64,
    /// What it is still worth, an amount such as 120.00 (null: none).
    #[input(format = Amount)]
    salvage_value: Change<i64>,
}

/// Where a retired item comes back.
#[derive(Input)]
#[input(resource = "fixed_asset")]
struct ActivateInput {
    /// A location of the company; required when the company setting
    /// retired_asset_activation_location says so (null: none).
    #[input(format = RecordId)]
    location_id: Change<i64>,
}

/// Text of at most 255 characters.
struct Tag;

impl Scalar for Tag {
    type Value = String;

    fn parse(raw: &str) -> Result<String, String> {
        if raw.chars().count() > Name::MAX_CHARS {
            Err(format!(
                "is too long (maximum is {} characters)",
                Name::MAX_CHARS
            ))
        } else {
            Ok(raw.to_owned())
        }
    }

    fn schema() -> serde_json::Value {
        serde_json::json!({"type": "string", "maxLength": Name::MAX_CHARS})
    }
}

/// A GPS reading.
#[derive(Input)]
struct GpsQuery {
    /// -90 to 90, a decimal such as 52.5200.
    #[input(format = Coordinate<90>)]
    latitude: String,
    /// -180 to 180.
    #[input(format = Coordinate<180>)]
    longitude: String,
    /// The tracker's id, text of at most 255 characters.
    #[input(format = Tag)]
    gps_asset_id: Option<String>,
}

/// A filter's `status` for the kind of item `K`: one of the statuses docs/api.md lists
/// for it, or custom_filter_<id>.
struct FilterStatus<K>(PhantomData<K>);

impl<K: Kind> FilterStatus<K> {
    fn words() -> &'static [&'static str] {
        domain::asset_filter::statuses(K::FAMILY.kind)
    }
}

impl<K: Kind> Scalar for FilterStatus<K> {
    type Value = String;

    fn parse(raw: &str) -> Result<String, String> {
        String::parse(raw)
    }

    fn schema() -> serde_json::Value {
        let kind = K::FAMILY.kind;
        // Only where the status is one of the kind's (`parse_for`).
        let aliases = domain::asset_filter::aliases(kind)
            .iter()
            .filter(|a| *a != &"pending_audit" || Self::words().contains(&"pending audit"));
        let words: Vec<String> = Self::words()
            .iter()
            .chain(aliases)
            .map(|w| match w.strip_suffix("<id>") {
                Some(prefix) => format!("{prefix}{}", crate::input::map_key(true)),
                None => regex_syntax::escape(w),
            })
            .collect();
        serde_json::json!({"type": "string", "pattern": format!("^(?:{})$", words.join("|"))})
    }

    fn blank() -> String {
        format!("can't be blank: one of {}", Self::words().join(", "))
    }
}

/// A filter's `assets_type`: the kind of item of the path.
struct AssetsType<K>(PhantomData<K>);

impl<K: Kind> Scalar for AssetsType<K> {
    type Value = String;

    fn parse(raw: &str) -> Result<String, String> {
        String::parse(raw)
    }

    fn schema() -> serde_json::Value {
        serde_json::json!({"type": "string", "enum": [K::FAMILY.assets_type]})
    }
}

/// The parameters of a filter of items.
#[derive(Input)]
#[expect(
    dead_code,
    reason = "status, its values and assets_type are checked here for their form; `filter` reads them for the kind of item, whatever else failed"
)]
pub(crate) struct FilterQuery<K: Kind> {
    /// One of the statuses docs/api.md lists for the kind of item, or
    /// custom_filter_<id>.
    #[input(format = FilterStatus<K>)]
    status: String,
    /// The status's value: a group, location or member id; start,end for
    /// quantity_range; a day or start~end for update_time.
    filter_param_val: Option<String>,
    /// With status=group: a subgroup id.
    sub_group_param_val: Option<String>,
    /// The kind of item of the path: fixed_assets, volatile_assets or stock_assets
    /// (required with a custom filter).
    #[input(format = AssetsType<K>)]
    assets_type: Option<String>,
    #[input(flatten)]
    show: ShowQuery,
    #[input(flatten)]
    page: PageQuery,
    #[input(skip)]
    kind: PhantomData<K>,
}

/// `facet`: the kind of item searched, FixedAsset, VolatileAsset or StockAsset.
struct Facet;

impl Scalar for Facet {
    type Value = AssetType;

    fn parse(raw: &str) -> Result<AssetType, String> {
        AssetType::parse(raw.trim())
            .ok_or_else(|| format!("must be one of {}, not {raw:?}", AssetType::names()))
    }

    fn schema() -> serde_json::Value {
        let words: Vec<&str> = AssetType::ALL.iter().map(|t| t.as_str()).collect();
        serde_json::json!({"type": "string", "enum": words})
    }
}

/// What a search looks for: `#n` the item number, `@x` the identification number,
/// else every word in the name; at most 255 characters.
struct SearchText;

impl Scalar for SearchText {
    type Value = Search;

    fn parse(raw: &str) -> Result<Search, String> {
        let text = Tag::parse(raw)?;
        Ok(if let Some(n) = text.strip_prefix('#') {
            match n.trim().parse::<i64>() {
                Ok(n) if n > 0 => Search::Number(n),
                _ => return Err("#: must be followed by an asset number".to_owned()),
            }
        } else if let Some(id) = text.strip_prefix('@') {
            Search::Identifier(id.trim().to_owned())
        } else {
            Search::Name(text)
        })
    }

    fn schema() -> serde_json::Value {
        serde_json::json!({
            "type": "string",
            "maxLength": Name::MAX_CHARS,
            "pattern": r"^(?:[^#][\s\S]*|#\s*\+?0*[1-9]\d{0,17}\s*)?$",
        })
    }
}

/// The parameters of a search.
#[derive(Input)]
struct SearchQuery {
    /// The text: every word of the name; #n the asset number; @x the identification
    /// number.
    #[input(format = SearchText)]
    search: Search,
    /// The kind of item: FixedAsset (the default), VolatileAsset (inventory) or
    /// StockAsset.
    #[input(format = Facet)]
    facet: Option<AssetType>,
    #[input(flatten)]
    show: ShowQuery,
    #[input(flatten)]
    page: PageQuery,
}

/// The late fee of the fields read: set with both, removed by a kind of `null`.
fn late_fee(fields: &ItemFields) -> Change<LateFee> {
    match (&fields.late_fee_kind, &fields.late_fee_amount) {
        (Change::Set(kind), Change::Set(minor)) => Change::Set(LateFee {
            kind: *kind,
            amount: Money::from_minor(*minor),
        }),
        (Change::Clear, _) => Change::Clear,
        // The other pairs are refused as read (`needs`).
        _ => Change::Keep,
    }
}

async fn read_input<K: Kind>(
    state: &AppState,
    company: &store::companies::Company,
    params: &Params,
    creating: bool,
) -> Result<AssetInput, ApiError> {
    let family = K::FAMILY;
    let form = Form::new(params, family.scope);
    let fields = custom_attributes::fields_for_input(
        state.db(),
        company.id,
        family.target,
        &form,
        ATTRIBUTES,
    )
    .await?;
    parse_input::<K>(form, &fields, creating)
}

/// [`read_input`] with the company's custom fields of the kind at hand.
fn parse_input<K: Kind>(
    mut form: Form<'_>,
    fields: &store::custom_fields::FieldSet,
    creating: bool,
) -> Result<AssetInput, ApiError> {
    let family = K::FAMILY;
    let record: Option<ItemRecord> = if creating {
        K::New::read(&mut form).map(Into::into)
    } else {
        ItemChanges::read(&mut form).map(Into::into)
    };
    let taxes = read_beside::<TaxChanges>(&mut form, str::to_owned);
    let custom_attributes = custom_attributes::read(&mut form, ATTRIBUTES, fields, family.target);
    let (record, taxes) = form.finish_with(record.zip(taxes))?;
    let late_fee = late_fee(&record.fields);
    let f = record.fields;
    Ok(AssetInput {
        name: record.name,
        group_id: record.group_id.map(store::Id::new),
        purchased_on: record.purchased_on,
        sub_group_id: f.sub_group_id.map(store::Id::new),
        location_id: f.location_id.map(store::Id::new),
        description: f.description,
        manufacturer: f.manufacturer,
        product_model_number: f.product_model_number,
        image_url: f.image_url,
        identifier: f.identifier,
        price: f.price,
        document_urls: f.document_urls,
        rates: Rates {
            per_minute: f.per_minute,
            hourly: f.hourly,
            daily: f.daily,
            weekly: f.weekly,
            monthly: f.monthly,
        },
        late_fee,
        custom_attributes,
        custom_tax_ids_to_add: taxes.custom_tax_ids_to_add.unwrap_or_default(),
        custom_tax_ids_to_remove: taxes.custom_tax_ids_to_remove.unwrap_or_default(),
    })
}

/// Custom field values of items come as `cust_attr[<name>]`.
const ATTRIBUTES: &str = "cust_attr";

/// One row of an import of items of kind `K` (`resources::imports`), its fields as a
/// form would send them: the item numbered `key` updated, or a new one; written in
/// `tx`. `fields` are the company's custom fields of the kind.
/// Writes an import's row of items of `kind` ([`import_row_of`]); answers what it
/// did and the item's number.
pub(crate) async fn import_row(
    kind: AssetType,
    tx: &mut store::Tx,
    company: store::CompanyId,
    params: &Params,
    key: Option<i64>,
    fields: &store::custom_fields::FieldSet,
) -> Result<(super::super::imports::Written, i64), ApiError> {
    match kind {
        AssetType::FixedAsset => import_row_of::<Fixed>(tx, company, params, key, fields).await,
        AssetType::VolatileAsset => {
            import_row_of::<Inventory>(tx, company, params, key, fields).await
        }
        AssetType::StockAsset => import_row_of::<Stock>(tx, company, params, key, fields).await,
    }
}

async fn import_row_of<K: Kind>(
    tx: &mut store::Tx,
    company: store::CompanyId,
    params: &Params,
    key: Option<i64>,
    fields: &store::custom_fields::FieldSet,
) -> Result<(super::super::imports::Written, i64), ApiError> {
    use super::super::imports::Written;
    let stocked = K::FAMILY.kind != AssetType::FixedAsset;
    let mut form = Form::new(params, K::FAMILY.scope);
    // Stock kinds: the units at the row's location (empty: none on a new item, and
    // the stock of an existing one is not looked at).
    let units = match params.get(&form.path("quantity")) {
        Some(raw) if stocked && !raw.trim().is_empty() => match raw.trim().parse::<i64>() {
            Ok(n) if (0..=domain::stock::Quantity::MAX).contains(&n) => Some(n),
            _ => {
                form.error(
                    "quantity",
                    format!(
                        "must be a whole number of units from 0 to {}",
                        domain::stock::Quantity::MAX
                    ),
                );
                None
            }
        },
        _ => None,
    };
    let input = parse_input::<K>(form, fields, key.is_none())?;
    let location = input.location_id.as_set().copied();
    let kind = K::FAMILY.kind;
    let (number, written) = match key {
        None => {
            let (_, number) = items::create_in(tx, company, kind, input).await?;
            (number, Written::Created)
        }
        Some(n) => {
            items::update_in(tx, company, kind, store::Number::new(n), input)
                .await
                .map_err(ApiError::from_item_read)?;
            (n, Written::Updated)
        }
    };
    if let Some(units) = units {
        store::stock::import_level_in(
            tx,
            company,
            kind,
            number,
            location,
            units,
            written == Written::Created,
        )
        .await?;
    }
    Ok((written, number))
}

/// The columns an import of items of kind `K` reads besides its key, the names of its
/// group, subgroup and location, and custom fields' names: each with the field it
/// fills (`daily` fills `rental_price_attributes][daily`).
/// Document links are a list, which a cell does not hold: not a column. Stock kinds
/// also read `quantity`, the units at the row's location.
pub(crate) fn import_columns(kind: AssetType) -> Vec<(&'static str, &'static str)> {
    match kind {
        AssetType::FixedAsset => import_columns_of::<Fixed>(),
        AssetType::VolatileAsset => import_columns_of::<Inventory>(),
        AssetType::StockAsset => import_columns_of::<Stock>(),
    }
}

fn import_columns_of<K: Kind>() -> Vec<(&'static str, &'static str)> {
    let stocked = K::FAMILY.kind != AssetType::FixedAsset;
    K::New::fields()
        .iter()
        .filter(|f| f.name != "document_urls")
        .map(|f| {
            let column = match f.name {
                "late_fee_attributes][kind" => "late_fee_kind",
                "late_fee_attributes][amount" => "late_fee_amount",
                // `rental_price_attributes][daily` is `daily`.
                name => name.rsplit("][").next().unwrap_or(name),
            };
            (column, f.name)
        })
        .chain(stocked.then_some(("quantity", "quantity")))
        .collect()
}

pub(crate) async fn create<K: Kind>(
    State(state): State<AppState>,
    tenant: Tenant,
    params: Params,
) -> Result<views::Reply, ApiError> {
    let input = read_input::<K>(&state, &tenant.0, &params, true).await?;
    let view = items::create(
        state.db(),
        tenant.0.id,
        K::FAMILY.kind,
        input,
        today(&tenant),
    )
    .await?;
    answer(&state, &tenant.0, view, Shown::all()).await
}

pub(crate) async fn list<K: Kind>(
    State(state): State<AppState>,
    tenant: Tenant,
    params: Params,
) -> Result<views::Reply, ApiError> {
    let query = AssetsQuery::parse(&params)?;
    let (shown, page) = (query.show.shown(), query.page.page(PageSize::DEFAULT));
    let records = items::list(
        state.db(),
        tenant.0.id,
        K::FAMILY.kind,
        page,
        today(&tenant),
    )
    .await?;
    answer_page(&state, &tenant.0, page, records, shown).await
}

/// The details of an item: `/assets/<n>` answers any kind, the other kinds' paths
/// only their own (a 404 naming the right path otherwise).
pub(crate) async fn details<K: Kind>(
    State(state): State<AppState>,
    tenant: Tenant,
    Number(number): Number<kind::Item>,
    params: Params,
) -> Result<views::Reply, ApiError> {
    let query = DetailsQuery::parse(&params)?;
    let shown = Shown {
        services_details: query.show_services_details.unwrap_or(false),
        ..query.show.shown()
    };
    let view = items::find(state.db(), tenant.0.id, number, today(&tenant)).await?;
    let kind = K::FAMILY.kind;
    if let Some(asset_type) = AssetType::parse(&view.item.asset_type)
        && kind != AssetType::FixedAsset
        && asset_type != kind
    {
        return Err(ApiError::from_item_read(store::StoreError::Conflict(
            domain::refusal::Conflict::WrongKind {
                number: number.get(),
                asset_type,
                wanted: kind,
            },
        )));
    }
    if !shown.services_details {
        return answer(&state, &tenant.0, view, shown).await;
    }
    let latest =
        store::services::latest(state.db(), tenant.0.id, number, super::services::SHOWN).await?;
    let fields = super::fields_of(&state, &tenant.0, &view).await?;
    Ok(views::one(
        "asset",
        super::render(&view, tenant.0.time_zone, &fields, shown).with_services(&latest),
    ))
}

pub(crate) async fn update<K: Kind>(
    State(state): State<AppState>,
    tenant: Tenant,
    Number(number): Number<kind::Item>,
    params: Params,
) -> Result<views::Reply, ApiError> {
    let input = read_input::<K>(&state, &tenant.0, &params, false).await?;
    let view = items::update(
        state.db(),
        tenant.0.id,
        K::FAMILY.kind,
        number,
        input,
        today(&tenant),
    )
    .await?;
    answer(&state, &tenant.0, view, Shown::all()).await
}

pub(crate) async fn delete<K: Kind>(
    State(state): State<AppState>,
    tenant: Tenant,
    Number(number): Number<kind::Item>,
) -> Result<views::Reply, ApiError> {
    let gone = retirement::delete(
        state.db(),
        tenant.0.id,
        K::FAMILY.kind,
        number,
        today(&tenant),
    )
    .await?;
    answer(&state, &tenant.0, gone, Shown::all()).await
}

async fn retire(
    State(state): State<AppState>,
    tenant: Tenant,
    Number(number): Number<kind::Item>,
    params: Params,
) -> Result<views::Reply, ApiError> {
    let input = RetireInput::parse(&params)?;
    let ending = Retirement {
        retired_on: input.retired_on,
        reason: store::Id::new(input.retire_reason_id),
        salvage_value: input.salvage_value.as_set().copied(),
    };
    let view = retirement::retire(state.db(), tenant.0.id, number, ending, &clock(&tenant)).await?;
    answer(&state, &tenant.0, view, Shown::all()).await
}

async fn activate(
    State(state): State<AppState>,
    tenant: Tenant,
    Number(number): Number<kind::Item>,
    params: Params,
) -> Result<views::Reply, ApiError> {
    let mut form = Form::new(&params, "fixed_asset");
    let input = ActivateInput::read(&mut form);
    if tenant.0.retired_activation_location == ActivationLocation::Required
        && form.peek::<RecordId>("location_id").is_none()
        && !form.has_errors_for("location_id")
    {
        form.error(
            "location_id",
            "can't be blank: this company requires a location to activate a retired asset (company setting retired_asset_activation_location)",
        );
    }
    let location = form.finish_with(input)?.location_id.as_set().copied();
    let view = retirement::activate(
        state.db(),
        tenant.0.id,
        number,
        location.map(store::Id::new),
        today(&tenant),
    )
    .await?;
    answer(&state, &tenant.0, view, Shown::all()).await
}

async fn gps(
    State(state): State<AppState>,
    tenant: Tenant,
    Number(number): Number<kind::Item>,
    params: Params,
) -> Result<views::Reply, ApiError> {
    let GpsQuery {
        latitude,
        longitude,
        gps_asset_id,
    } = GpsQuery::parse(&params)?;
    let reading = Reading {
        latitude,
        longitude,
        gps_asset_id,
    };
    let view = items::record_gps(state.db(), tenant.0.id, number, reading, today(&tenant)).await?;
    answer(&state, &tenant.0, view, Shown::all()).await
}

pub(crate) async fn history(
    State(state): State<AppState>,
    tenant: Tenant,
    Number(number): Number<kind::Item>,
    params: Params,
) -> Result<views::Reply, ApiError> {
    let page = PageQuery::parse(&params)?.page(PageSize(5));
    let entries = items::history_page(state.db(), tenant.0.id, number, page).await?;
    let tz = tenant.0.time_zone;
    Ok(views::paged("history", page, &entries, |e| {
        super::history_entry(e, tz)
    }))
}

pub(crate) async fn filter<K: Kind>(
    State(state): State<AppState>,
    tenant: Tenant,
    params: Params,
) -> Result<views::Reply, ApiError> {
    let family = K::FAMILY;
    let mut form = Form::new(&params, "");
    let query = FilterQuery::<K>::read(&mut form);
    // The status and its values are read for the kind of item, whatever else failed.
    let filter = form.peek::<FilterStatus<K>>("status").and_then(|status| {
        AssetFilter::parse_for(
            family.kind,
            &status,
            params.get("filter_param_val"),
            params.get("sub_group_param_val"),
        )
        .map_err(|e| form.error(e.field, e.problem))
        .ok()
    });
    match (params.get("assets_type"), &filter) {
        (None, Some(AssetFilter::Custom(_))) => form.error(
            "assets_type",
            format!(
                "can't be blank with a custom filter: {}",
                family.assets_type
            ),
        ),
        (Some(t), _) if t != family.assets_type => form.error(
            "assets_type",
            format!(
                "must be {} here (each kind of item has its own filter endpoint: /assets, /inventory, /stock_assets)",
                family.assets_type
            ),
        ),
        _ => {}
    }
    let (query, filter) = form.finish_with(query.zip(filter))?;
    let page = query.page.page(PageSize::DEFAULT);
    let records = items::filter(
        state.db(),
        tenant.0.id,
        family.kind,
        &filter,
        page,
        &clock(&tenant),
    )
    .await?;
    answer_page(&state, &tenant.0, page, records, query.show.shown()).await
}

async fn search(
    State(state): State<AppState>,
    tenant: Tenant,
    params: Params,
) -> Result<views::Reply, ApiError> {
    let query = SearchQuery::parse(&params)?;
    let page = query.page.page(PageSize::DEFAULT);
    let kind = query.facet.unwrap_or(AssetType::FixedAsset);
    let records = items::search(
        state.db(),
        tenant.0.id,
        kind,
        &query.search,
        page,
        today(&tenant),
    )
    .await?;
    answer_page(&state, &tenant.0, page, records, query.show.shown()).await
}
