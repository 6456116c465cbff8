//! Fixed assets: the record and its lists (`records.rs`), check-out, check-in and the
//! members' views (`checkouts.rs`), reservation requests and reserved dates
//! (`reservations.rs`). This module holds the routes and the JSON of an asset.

pub(crate) mod checkouts;
pub(crate) mod records;
mod reservations;
pub(crate) mod services;

use std::marker::PhantomData;

use chrono::Utc;
use domain::Vocabulary;
use domain::custom_field::Target;
use domain::item::{AssetType, ItemState, shown_state};
use domain::money::Money;
use serde::Serialize;
use serde::ser::{SerializeMap, Serializer};
use serde_json::{Map, Value, json};
use store::custom_fields::FieldSet;
use store::items::{Clock, ItemView, Today};

use crate::api::Api;
use crate::auth::Tenant;
use crate::custom_attributes;
use crate::error::ApiError;
use crate::input::{Input, PageQuery};
use crate::views::{self, Object, moment};

pub fn routes(api: Api) -> Api {
    let api = records::routes(api);
    let api = checkouts::routes(api);
    let api = services::routes(api);
    reservations::routes(api)
}

/// One kind of item as the API addresses it: its paths, its form's name, the custom
/// fields that apply to it.
#[derive(Clone, Copy)]
pub(crate) struct Family {
    pub kind: AssetType,
    /// `fixed_asset`, `volatile_asset`, `stock_asset`: the form's name.
    pub scope: &'static str,
    pub target: Target,
    /// The `assets_type` of its filters.
    pub assets_type: &'static str,
}

/// A kind of item, for the handlers every kind shares.
pub(crate) trait Kind: Send + Sync + 'static {
    const FAMILY: Family;
    /// What a create of the kind reads (a fixed asset needs its purchase date).
    type New: Input + Into<records::ItemRecord>;
}

pub(crate) struct Fixed;
pub(crate) struct Inventory;
pub(crate) struct Stock;

impl Kind for Fixed {
    type New = records::NewFixedAsset;
    const FAMILY: Family = Family {
        kind: AssetType::FixedAsset,
        scope: "fixed_asset",
        target: Target::FixedAssets,
        assets_type: "fixed_assets",
    };
}

impl Kind for Inventory {
    type New = records::NewStockItem;
    const FAMILY: Family = Family {
        kind: AssetType::VolatileAsset,
        scope: "volatile_asset",
        target: Target::Inventory,
        assets_type: "volatile_assets",
    };
}

impl Kind for Stock {
    type New = records::NewStockItem;
    const FAMILY: Family = Family {
        kind: AssetType::StockAsset,
        scope: "stock_asset",
        target: Target::AssetStock,
        assets_type: "stock_assets",
    };
}

/// The family of the kind of item `kind`.
pub(crate) fn family(kind: AssetType) -> Family {
    match kind {
        AssetType::FixedAsset => Fixed::FAMILY,
        AssetType::VolatileAsset => Inventory::FAMILY,
        AssetType::StockAsset => Stock::FAMILY,
    }
}

/// The custom fields that apply to items of a kind.
pub(crate) fn target_of(kind: &str) -> Target {
    match AssetType::parse(kind) {
        Some(AssetType::VolatileAsset) => Target::Inventory,
        Some(AssetType::StockAsset) => Target::AssetStock,
        _ => Target::FixedAssets,
    }
}

/// The company's clock: now, today and the day's bounds in its time zone.
pub(crate) fn clock(tenant: &Tenant) -> Clock {
    Clock::new(Utc::now(), tenant.0.time_zone)
}

pub(crate) fn today(tenant: &Tenant) -> Today {
    Today(clock(tenant).today)
}

/// Which optional parts of an asset a request asks for.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Shown {
    pub include_custom_fields: bool,
    pub document_urls: bool,
    pub image_urls: bool,
    pub document_details: bool,
    pub services_details: bool,
    /// The asset type also as `item_type` (the list of what a member holds names it so).
    pub item_type: bool,
}

impl Shown {
    /// Everything: what a create, update or action answers.
    pub(crate) fn all() -> Self {
        Shown {
            include_custom_fields: true,
            document_urls: true,
            image_urls: true,
            document_details: true,
            services_details: false,
            item_type: false,
        }
    }
}

/// Which optional parts of the assets a read shows.
#[derive(Input)]
pub(crate) struct ShowQuery {
    /// Custom field values as top-level keys too (default false).
    include_custom_fields: Option<bool>,
    /// Add document_urls (default false).
    show_document_urls: Option<bool>,
    /// Add image_urls (default false).
    show_image_urls: Option<bool>,
    /// Add documents, the url and file name of each (default false).
    show_document_details: Option<bool>,
}

impl ShowQuery {
    pub(crate) fn shown(&self) -> Shown {
        Shown {
            include_custom_fields: self.include_custom_fields.unwrap_or(false),
            document_urls: self.show_document_urls.unwrap_or(false),
            image_urls: self.show_image_urls.unwrap_or(false),
            document_details: self.show_document_details.unwrap_or(false),
            services_details: false,
            item_type: false,
        }
    }
}

/// The parameters of a page of assets.
#[derive(Input)]
pub(crate) struct AssetsQuery {
    #[input(flatten)]
    pub(crate) show: ShowQuery,
    #[input(flatten)]
    pub(crate) page: PageQuery,
}

/// `T`'s fields under the form name of the kind `K` (`fixed_asset[name]`,
/// `volatile_asset[name]`, `stock_asset[name]`): the record handlers are one for
/// every kind.
pub(crate) struct Scoped<K, T>(pub(crate) T, PhantomData<K>);

impl<K: Kind, T: Input> Input for Scoped<K, T> {
    const RESOURCE: &'static str = K::FAMILY.scope;

    fn read(form: &mut crate::form::Form<'_>) -> Option<Self> {
        T::read(form).map(|t| Scoped(t, PhantomData))
    }

    fn document(fields: &mut Vec<crate::input::FieldDoc>) {
        T::document(fields);
    }
}

/// An amount of an item's as the contract writes money: a decimal string, or null.
pub(crate) fn price(minor: Option<i64>) -> Option<String> {
    minor.map(|units| Money::from_minor(units).to_decimal_string())
}

impl custom_attributes::Attributed for ItemView {
    fn stored_values(&self) -> &str {
        &self.item.custom_attributes
    }
}

/// An asset as the contract shows it.
pub(crate) fn render<'a>(
    view: &'a ItemView,
    tz: chrono_tz::Tz,
    fields: &'a FieldSet,
    shown: Shown,
) -> AssetJson<'a> {
    AssetJson {
        view,
        tz,
        fields,
        shown,
        services: None,
    }
}

pub(crate) struct AssetJson<'a> {
    view: &'a ItemView,
    tz: chrono_tz::Tz,
    fields: &'a FieldSet,
    shown: Shown,
    /// The latest services, shown as `services` (details with
    /// `show_services_details`).
    services: Option<&'a [store::services::Service]>,
}

impl<'a> AssetJson<'a> {
    pub(crate) fn with_services(self, services: &'a [store::services::Service]) -> Self {
        AssetJson {
            services: Some(services),
            ..self
        }
    }
}

// The document's shape of an asset: every key `AssetJson` writes (its serializer is
// written by hand, for speed and for the custom fields shown as keys). Keys written
// only with a flag or for some kinds of item are not required.
/// An item (fixed asset, inventory or asset stock) as the contract shows it; with
/// `include_custom_fields`, each custom field's value is also a key of its own.
#[derive(utoipa::ToSchema)]
#[schema(as = Asset)]
#[allow(dead_code)]
struct AssetShape {
    id: i64,
    /// The item's number (`<ASSET#>`), one counter for all three kinds of item.
    sequence_num: i64,
    name: String,
    #[schema(required)]
    description: Option<String>,
    /// The identification number (searched with `@`).
    #[schema(required)]
    identifier: Option<String>,
    #[schema(value_type = String, pattern = "^(FixedAsset|VolatileAsset|StockAsset)$")]
    asset_type: (),
    /// The asset type again, in the list of what a member holds
    /// (`/members/{id}/checked_out_items`) only.
    #[schema(value_type = String, pattern = "^(FixedAsset|VolatileAsset|StockAsset)$", required = false)]
    item_type: (),
    /// What the item is now: `reserved` is an available item an approved reservation
    /// covers today.
    #[schema(value_type = String, pattern = "^(available|checked_out|retired|in_service|reserved)$")]
    state: (),
    #[schema(value_type = String, pattern = "^(active|retired)$")]
    status: (),
    group_id: i64,
    group_name: String,
    #[schema(required)]
    sub_group_id: Option<i64>,
    #[schema(required)]
    sub_group_name: Option<String>,
    #[schema(required)]
    location_id: Option<i64>,
    #[schema(required)]
    location_name: Option<String>,
    #[schema(required)]
    manufacturer: Option<String>,
    #[schema(required)]
    product_model_number: Option<String>,
    #[schema(required)]
    purchased_on: Option<views::Day>,
    /// The purchase price, two decimal places.
    #[schema(required, pattern = r"^\d+\.\d{2}$")]
    price: Option<String>,
    /// Set when retired: an amount, two decimal places.
    #[schema(required, pattern = r"^\d+\.\d{2}$")]
    salvage_value: Option<String>,
    /// 1 for a fixed asset; the units on hand, all locations together, for inventory
    /// and asset stock.
    net_quantity: i64,
    /// A fixed asset's current check-out.
    #[schema(required)]
    checkout_on: Option<views::Moment>,
    #[schema(required)]
    checkin_due_on: Option<views::Moment>,
    /// The member a fixed asset is checked out to.
    #[schema(required)]
    assigned_to_user_id: Option<i64>,
    #[schema(required)]
    assigned_to_user_name: Option<String>,
    #[schema(required)]
    retired_on: Option<views::Day>,
    #[schema(required)]
    retire_reason_id: Option<i64>,
    /// The retire reason's name.
    #[schema(required)]
    retire_reason: Option<String>,
    rental_prices: RentalPricesShape,
    /// A rentrack extension; null: no fee for a late return.
    #[schema(required)]
    late_fee: Option<LateFee<'static>>,
    /// The latest GPS reading, a decimal as sent.
    #[schema(required)]
    latitude: Option<String>,
    #[schema(required)]
    longitude: Option<String>,
    #[schema(required)]
    gps_updated_at: Option<views::Moment>,
    #[schema(required)]
    image_url: Option<String>,
    /// The custom taxes applied to the item, ascending.
    custom_tax_ids: Vec<i64>,
    created_at: views::Moment,
    updated_at: views::Moment,
    /// Inventory and asset stock only: the units on hand.
    #[schema(required = false)]
    available_quantity: i64,
    /// Inventory and asset stock only: the units checked out to members (asset stock).
    #[schema(required = false)]
    checked_out_quantity: i64,
    /// Inventory and asset stock only: on hand and checked out together.
    #[schema(required = false)]
    total_quantity: i64,
    /// With `show_document_urls` (and in the answers of writes).
    #[schema(required = false)]
    document_urls: Vec<String>,
    /// With `show_image_urls` (and in the answers of writes): the image's link, if any.
    #[schema(required = false)]
    image_urls: Vec<String>,
    /// With `show_document_details` (and in the answers of writes).
    #[schema(required = false)]
    documents: Vec<Document<'static>>,
    /// With `show_services_details` (details only): the latest services, newest first.
    #[schema(required = false)]
    services: Vec<services::ServiceJson<'static>>,
    custom_attributes: custom_attributes::CustomAttributes,
}

impl custom_attributes::Shape for AssetShape {}

/// The asset's schema is its shape's, with custom fields as keys.
impl utoipa::PartialSchema for AssetJson<'_> {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        <custom_attributes::Keyed<AssetShape> as utoipa::PartialSchema>::schema()
    }
}

impl utoipa::ToSchema for AssetJson<'_> {
    fn name() -> std::borrow::Cow<'static, str> {
        <custom_attributes::Keyed<AssetShape> as utoipa::ToSchema>::name()
    }

    fn schemas(
        schemas: &mut Vec<(
            String,
            utoipa::openapi::RefOr<utoipa::openapi::schema::Schema>,
        )>,
    ) {
        <custom_attributes::Keyed<AssetShape> as utoipa::ToSchema>::schemas(schemas);
    }
}

impl Serialize for AssetJson<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let (i, tz, shown) = (&self.view.item, self.tz, self.shown);
        let at = |m: Option<chrono::DateTime<Utc>>| m.map(|m| moment(m, tz));
        let state = i.state();
        let fixed = i.asset_type == AssetType::FixedAsset.as_str();
        let mut o = Object::start(s)?;
        o.entry("id", &i.id)?;
        o.entry("sequence_num", &i.sequence_num)?;
        o.entry("name", &i.name)?;
        o.entry("description", &i.description)?;
        o.entry("identifier", &i.identifier)?;
        o.entry("asset_type", &i.asset_type)?;
        if shown.item_type {
            o.entry("item_type", &i.asset_type)?;
        }
        o.entry("state", &shown_state(state, i.reserved_today))?;
        o.entry(
            "status",
            if state == ItemState::Retired {
                "retired"
            } else {
                "active"
            },
        )?;
        o.entry("group_id", &i.group_id)?;
        o.entry("group_name", &i.group_name)?;
        o.entry("sub_group_id", &i.sub_group_id)?;
        o.entry("sub_group_name", &i.sub_group_name)?;
        o.entry("location_id", &i.location_id)?;
        o.entry("location_name", &i.location_name)?;
        o.entry("manufacturer", &i.manufacturer)?;
        o.entry("product_model_number", &i.product_model_number)?;
        o.entry("purchased_on", &views::day(i.purchased_on))?;
        o.entry("price", &price(i.price))?;
        o.entry("salvage_value", &price(i.salvage_value))?;
        o.entry("net_quantity", &if fixed { 1 } else { i.quantity })?;
        o.entry("checkout_on", &at(i.checkout_on))?;
        o.entry("checkin_due_on", &at(i.checkin_due_on))?;
        o.entry("assigned_to_user_id", &i.assigned_to_id)?;
        o.entry("assigned_to_user_name", &i.assigned_to_name)?;
        o.entry("retired_on", &views::day(i.retired_on))?;
        o.entry("retire_reason_id", &i.retire_reason_id)?;
        o.entry("retire_reason", &i.retire_reason_name)?;
        o.entry("rental_prices", &RentalPrices(i))?;
        o.entry(
            "late_fee",
            &i.late_fee_kind.as_ref().map(|kind| LateFee {
                kind,
                amount: price(i.late_fee_amount),
            }),
        )?;
        o.entry("latitude", &i.latitude)?;
        o.entry("longitude", &i.longitude)?;
        o.entry("gps_updated_at", &at(i.gps_updated_at))?;
        o.entry("image_url", &i.image_url)?;
        o.entry("custom_tax_ids", &self.view.custom_tax_ids)?;
        o.entry("created_at", &moment(i.created_at, tz))?;
        o.entry("updated_at", &moment(i.updated_at, tz))?;
        if !fixed {
            o.entry("available_quantity", &i.quantity)?;
            o.entry("checked_out_quantity", &i.checked_out_quantity)?;
            o.entry("total_quantity", &(i.quantity + i.checked_out_quantity))?;
        }
        let urls = if shown.document_urls || shown.document_details {
            i.document_urls()
        } else {
            Vec::new()
        };
        if shown.document_urls {
            o.entry("document_urls", &urls)?;
        }
        if shown.image_urls {
            o.entry("image_urls", i.image_url.as_slice())?;
        }
        if shown.document_details {
            let documents: Vec<Document<'_>> = urls
                .iter()
                .map(|url| Document {
                    url,
                    file_name: url
                        .rsplit('/')
                        .next()
                        .filter(|f| !f.is_empty())
                        .unwrap_or(url),
                })
                .collect();
            o.entry("documents", &documents)?;
        }
        if let Some(services) = self.services {
            let services: Vec<_> = services.iter().map(|s| services::render(s, tz)).collect();
            o.entry("services", &services)?;
        }
        custom_attributes::write(
            &mut o,
            self.fields,
            &i.custom_attributes,
            shown.include_custom_fields,
        )?;
        o.end()
    }
}

struct RentalPrices<'a>(&'a store::items::Item);

// The document's shape of `RentalPrices` (written by hand above for speed).
/// The item's rental rates; null: not rented by that unit.
#[derive(Serialize, utoipa::ToSchema)]
#[schema(as = RentalPrices)]
// Closes the schema (`serde` reads it on deserializing only).
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct RentalPricesShape {
    /// An amount per started minute, two decimal places.
    #[schema(required, pattern = r"^\d+\.\d{2}$")]
    per_minute: Option<String>,
    /// An amount per started hour.
    #[schema(required, pattern = r"^\d+\.\d{2}$")]
    hourly: Option<String>,
    /// An amount per started day.
    #[schema(required, pattern = r"^\d+\.\d{2}$")]
    daily: Option<String>,
    /// An amount per started week.
    #[schema(required, pattern = r"^\d+\.\d{2}$")]
    weekly: Option<String>,
    /// An amount per started month.
    #[schema(required, pattern = r"^\d+\.\d{2}$")]
    monthly: Option<String>,
}

impl Serialize for RentalPrices<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let i = self.0;
        let mut map = s.serialize_map(Some(5))?;
        map.serialize_entry("per_minute", &price(i.rate_per_minute))?;
        map.serialize_entry("hourly", &price(i.rate_hourly))?;
        map.serialize_entry("daily", &price(i.rate_daily))?;
        map.serialize_entry("weekly", &price(i.rate_weekly))?;
        map.serialize_entry("monthly", &price(i.rate_monthly))?;
        map.end()
    }
}

/// The fee for a late return on an order (a rentrack extension).
#[derive(Serialize, utoipa::ToSchema)]
#[schema(as = LateFee)]
#[serde(deny_unknown_fields)]
struct LateFee<'a> {
    /// The unit of lateness each started one of which costs the amount, or one flat fee.
    #[schema(value_type = String, pattern = "^(minute|hour|day|week|month|flat)$")]
    kind: &'a String,
    /// The fee per started unit (or the flat fee), two decimal places.
    #[schema(required, pattern = r"^\d+\.\d{2}$")]
    amount: Option<String>,
}

/// One of an asset's documents (with `show_document_details`).
#[derive(Serialize, utoipa::ToSchema)]
#[schema(as = AssetDocument)]
#[serde(deny_unknown_fields)]
struct Document<'a> {
    url: &'a str,
    /// The link's last path segment (the whole link when it has none).
    file_name: &'a str,
}

/// `{"asset": {...}}`, with its custom fields.
pub(crate) async fn answer(
    state: &crate::state::AppState,
    company: &store::companies::Company,
    view: ItemView,
    shown: Shown,
) -> Result<views::Reply, ApiError> {
    let fields = fields_of(state, company, &view).await?;
    Ok(views::one(
        "asset",
        render(&view, company.time_zone, &fields, shown),
    ))
}

/// The custom fields needed to render one asset.
pub(crate) async fn fields_of(
    state: &crate::state::AppState,
    company: &store::companies::Company,
    view: &ItemView,
) -> Result<FieldSet, ApiError> {
    custom_attributes::fields_for_output(
        state.db(),
        company.id,
        &[target_of(&view.item.asset_type)],
        [view],
    )
    .await
}

/// A page of assets, `{"assets": [...], "total_pages": n, "current_page": p}`.
pub(crate) async fn answer_page(
    state: &crate::state::AppState,
    company: &store::companies::Company,
    page: domain::Page,
    records: store::PageOf<ItemView>,
    shown: Shown,
) -> Result<views::Reply, ApiError> {
    let mut targets: Vec<Target> = records
        .records
        .iter()
        .map(|v| target_of(&v.item.asset_type))
        .collect();
    targets.sort();
    targets.dedup();
    let fields =
        custom_attributes::fields_for_output(state.db(), company.id, &targets, &records.records)
            .await?;
    Ok(views::paged("assets", page, &records, |v| {
        render(v, company.time_zone, &fields, shown)
    }))
}

/// An entry of an item's history: what happened and when, with the details the action
/// recorded as keys of their own (stock movements: `order_type`, `quantity`,
/// `quantity_after_transaction`, `price`, `user_full_name`, locations and comments;
/// check-outs: the member and the due moment; ...). Moments among them are in the
/// company's time zone.
#[derive(utoipa::ToSchema)]
#[schema(as = ItemHistoryEntry)]
#[allow(dead_code)]
struct HistoryShape {
    id: i64,
    /// What happened (`created`, `checked_out`, `gps`, `service_started`, ...).
    action: String,
    created_at: views::Moment,
}

/// The document's view of `history_entry` (written as a `Value`: its details are the
/// action's own): its own keys, and any others.
pub(crate) struct HistoryEntryJson;

impl utoipa::PartialSchema for HistoryEntryJson {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        let mut schema = <HistoryShape as utoipa::PartialSchema>::schema();
        if let utoipa::openapi::RefOr::T(utoipa::openapi::schema::Schema::Object(object)) =
            &mut schema
        {
            object.additional_properties = Some(Box::new(
                utoipa::openapi::schema::AdditionalProperties::FreeForm(true),
            ));
        }
        schema
    }
}

impl utoipa::ToSchema for HistoryEntryJson {
    fn name() -> std::borrow::Cow<'static, str> {
        <HistoryShape as utoipa::ToSchema>::name()
    }

    fn schemas(
        schemas: &mut Vec<(
            String,
            utoipa::openapi::RefOr<utoipa::openapi::schema::Schema>,
        )>,
    ) {
        <HistoryShape as utoipa::ToSchema>::schemas(schemas);
    }
}

/// Renders a history entry: its details, moments in the company's time zone.
pub(crate) fn history_entry(e: &store::items::HistoryEntry, tz: chrono_tz::Tz) -> Value {
    let mut out = Map::new();
    out.insert("id".into(), json!(e.id));
    out.insert("action".into(), json!(e.action));
    if let Ok(Value::Object(details)) = serde_json::from_str::<Value>(&e.details) {
        for (k, v) in details {
            let v = match &v {
                Value::String(s) => chrono::DateTime::parse_from_rfc3339(s)
                    .map(|m| json!(moment(m.to_utc(), tz)))
                    .unwrap_or(v),
                _ => v,
            };
            out.insert(k, v);
        }
    }
    out.insert("created_at".into(), json!(moment(e.created_at, tz)));
    Value::Object(out)
}
