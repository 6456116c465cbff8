//! Fixed assets: the record and its lists (`records.rs`), check-out, check-in and the
//! members' views (`checkouts.rs`), reservation requests and reserved dates
//! (`reservations.rs`). This module holds the routes and the JSON of an asset.

pub(crate) mod checkouts;
pub(crate) mod records;
mod reservations;

use chrono::Utc;
use domain::Vocabulary;
use domain::custom_field::Target;
use domain::item::{AssetType, ItemState, shown_state};
use domain::money::Money;
use serde_json::{Map, Value, json};
use store::custom_fields::FieldSet;
use store::items::{Clock, ItemView, Today};

use crate::api::Api;
use crate::auth::Tenant;
use crate::custom_attributes;
use crate::error::ApiError;
use crate::params::Params;
use crate::views::{self, moment};

pub fn routes(api: Api) -> Api {
    let api = records::routes(api);
    let api = checkouts::routes(api);
    reservations::routes(api)
}

/// One kind of item as the API addresses it: its paths, its form's name, the custom
/// fields that apply to it.
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
}

pub(crate) struct Fixed;
pub(crate) struct Inventory;
pub(crate) struct Stock;

impl Kind for Fixed {
    const FAMILY: Family = Family {
        kind: AssetType::FixedAsset,
        scope: "fixed_asset",
        target: Target::FixedAssets,
        assets_type: "fixed_assets",
    };
}

impl Kind for Inventory {
    const FAMILY: Family = Family {
        kind: AssetType::VolatileAsset,
        scope: "volatile_asset",
        target: Target::Inventory,
        assets_type: "volatile_assets",
    };
}

impl Kind for Stock {
    const FAMILY: Family = Family {
        kind: AssetType::StockAsset,
        scope: "stock_asset",
        target: Target::AssetStock,
        assets_type: "stock_assets",
    };
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
}

impl Shown {
    pub(crate) fn read(params: &Params) -> Result<Self, ApiError> {
        Ok(Shown {
            include_custom_fields: views::flag(params, "include_custom_fields")?,
            document_urls: views::flag(params, "show_document_urls")?,
            image_urls: views::flag(params, "show_image_urls")?,
            document_details: views::flag(params, "show_document_details")?,
            services_details: views::flag(params, "show_services_details")?,
        })
    }

    /// Everything: what a create, update or action answers.
    pub(crate) fn all() -> Self {
        Shown {
            include_custom_fields: true,
            document_urls: true,
            image_urls: true,
            document_details: true,
            services_details: false,
        }
    }
}

pub(crate) const SHOW_FLAGS: &[(&str, &str)] = &[
    (
        "include_custom_fields",
        "boolean: custom field values as top-level keys too",
    ),
    ("show_document_urls", "boolean: add document_urls"),
    ("show_image_urls", "boolean: add image_urls"),
    (
        "show_document_details",
        "boolean: add documents (url and file name of each)",
    ),
];

fn money(units: Option<i64>) -> Value {
    units.map_or(Value::Null, |u| {
        json!(Money::from_minor(u).to_decimal_string())
    })
}

impl custom_attributes::Attributed for ItemView {
    fn stored_values(&self) -> &str {
        &self.item.custom_attributes
    }
}

/// An asset as the contract shows it.
pub(crate) fn render(view: &ItemView, tz: chrono_tz::Tz, fields: &FieldSet, shown: Shown) -> Value {
    let i = &view.item;
    let at = |m: Option<chrono::DateTime<Utc>>| m.map(|m| moment(m, tz));
    let state = i.state();
    let fixed = i.asset_type == AssetType::FixedAsset.as_str();
    let mut body = json!({
        "id": i.id,
        "sequence_num": i.sequence_num,
        "name": i.name,
        "description": i.description,
        "identifier": i.identifier,
        "asset_type": i.asset_type,
        "state": shown_state(state, i.reserved_today),
        "status": if state == ItemState::Retired { "retired" } else { "active" },
        "group_id": i.group_id,
        "group_name": i.group_name,
        "sub_group_id": i.sub_group_id,
        "sub_group_name": i.sub_group_name,
        "location_id": i.location_id,
        "location_name": i.location_name,
        "manufacturer": i.manufacturer,
        "product_model_number": i.product_model_number,
        "purchased_on": i.purchased_on.map(|d| d.to_string()),
        "price": money(i.price),
        "salvage_value": money(i.salvage_value),
        "net_quantity": if fixed { 1 } else { i.quantity },
        "checkout_on": at(i.checkout_on),
        "checkin_due_on": at(i.checkin_due_on),
        "assigned_to_user_id": i.assigned_to_id,
        "assigned_to_user_name": i.assigned_to_name,
        "retired_on": i.retired_on.map(|d| d.to_string()),
        "retire_reason_id": i.retire_reason_id,
        "retire_reason": i.retire_reason_name,
        "rental_prices": {
            "per_minute": money(i.rate_per_minute),
            "hourly": money(i.rate_hourly),
            "daily": money(i.rate_daily),
            "weekly": money(i.rate_weekly),
            "monthly": money(i.rate_monthly),
        },
        "late_fee": i.late_fee_kind.as_ref().map(|kind| json!({
            "kind": kind,
            "amount": money(i.late_fee_amount),
        })),
        "latitude": i.latitude,
        "longitude": i.longitude,
        "gps_updated_at": at(i.gps_updated_at),
        "image_url": i.image_url,
        "custom_tax_ids": view.custom_tax_ids,
        "created_at": moment(i.created_at, tz),
        "updated_at": moment(i.updated_at, tz),
    });
    let Value::Object(map) = &mut body else {
        return body;
    };
    if !fixed {
        map.insert("available_quantity".into(), json!(i.quantity));
        map.insert("checked_out_quantity".into(), json!(i.checked_out_quantity));
        map.insert(
            "total_quantity".into(),
            json!(i.quantity + i.checked_out_quantity),
        );
    }
    let urls = i.document_urls();
    if shown.document_urls {
        map.insert("document_urls".into(), json!(urls));
    }
    if shown.image_urls {
        map.insert(
            "image_urls".into(),
            json!(i.image_url.iter().collect::<Vec<_>>()),
        );
    }
    if shown.document_details {
        let documents: Vec<Value> = urls
            .iter()
            .map(|u| {
                let file = u.rsplit('/').next().filter(|f| !f.is_empty()).unwrap_or(u);
                json!({"url": u, "file_name": file})
            })
            .collect();
        map.insert("documents".into(), Value::Array(documents));
    }
    if shown.services_details {
        // No endpoint of the interface puts an asset in service (docs/api.md).
        map.insert("services".into(), Value::Array(Vec::new()));
    }
    custom_attributes::render_into(
        &mut body,
        fields,
        &i.custom_attributes,
        shown.include_custom_fields,
    );
    body
}

/// `{"asset": {...}}`, with its custom fields.
pub(crate) async fn answer(
    state: &crate::state::AppState,
    company: &store::companies::Company,
    view: ItemView,
    shown: Shown,
) -> Result<axum::Json<Value>, ApiError> {
    let fields = custom_attributes::fields_for_output(
        state.db(),
        company.id,
        &[target_of(&view.item.asset_type)],
        [&view],
    )
    .await?;
    Ok(axum::Json(views::one(
        "asset",
        render(&view, company.time_zone, &fields, shown),
    )))
}

/// A page of assets, `{"assets": [...], "total_pages": n, "current_page": p}`.
pub(crate) async fn answer_page(
    state: &crate::state::AppState,
    company: &store::companies::Company,
    page: domain::Page,
    records: store::PageOf<ItemView>,
    shown: Shown,
) -> Result<axum::Json<Value>, ApiError> {
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
    Ok(axum::Json(views::paged("assets", page, records, |v| {
        render(v, company.time_zone, &fields, shown)
    })))
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
