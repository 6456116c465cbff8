//! The fixed-asset record: create, list, details, update, delete, retire, activate,
//! GPS, history, search and filters.

use axum::extract::State;
use domain::asset_filter::AssetFilter;
use domain::item::{MAX_DOCUMENTS, is_link, parse_coordinate};
use domain::money::Money;
use domain::pricing::{LateFee, LateFeeKind};
use domain::settings::ActivationLocation;
use domain::wire::parse_date;
use domain::{Change, Name, PageSize, Vocabulary};
use store::items::{self, AssetInput, Rates, Reading, Retirement, Search};

use super::{AssetJson, Fixed, Kind, Shown, answer, answer_page, clock, today};
use crate::api::{Api, Doc, get, put_or_patch};
use crate::auth::Tenant;
use crate::custom_attributes;
use crate::error::ApiError;
use crate::form::{Form, MAX_LIST_ENTRIES};
use crate::ids::{Number, kind};
use crate::params::Params;
use crate::state::AppState;
use crate::views;

const FIELDS: &[(&str, &str)] = &[
    ("name", "required, at least 3 characters"),
    (
        "group_id",
        "required: the id of one of the company's groups",
    ),
    ("purchased_on", "required date (mm/dd/yyyy or yyyy-mm-dd)"),
    ("sub_group_id", "a subgroup of the group; null clears"),
    ("location_id", "a location of the company; null clears"),
];

/// The fields of every kind of item besides name, group and purchase date.
pub(crate) const ITEM_FIELDS: &[(&str, &str)] = &[
    ("description", "text"),
    ("manufacturer", "text"),
    (
        "product_model_number",
        "text (rentrack extension; the product_model_number filter)",
    ),
    ("image_url", "an http(s) link"),
    (
        "identifier",
        "text: the identification number (searched with @)",
    ),
    ("price", "purchase price, an amount such as 1200.00"),
    (
        "document_urls][",
        "up to 5 http(s) links; the full new list on update",
    ),
    (
        "rental_price_attributes][per_minute",
        "rate per minute, an amount such as 25.00; optional (an asset without a rate is tracked, not rented)",
    ),
    (
        "rental_price_attributes][hourly",
        "rate per hour, an amount such as 25.00; optional (an asset without a rate is tracked, not rented)",
    ),
    (
        "rental_price_attributes][daily",
        "rate per day, an amount such as 25.00; optional (an asset without a rate is tracked, not rented)",
    ),
    (
        "rental_price_attributes][weekly",
        "rate per week, an amount such as 25.00; optional (an asset without a rate is tracked, not rented)",
    ),
    (
        "rental_price_attributes][monthly",
        "rate per month, an amount such as 25.00; optional (an asset without a rate is tracked, not rented)",
    ),
    (
        "late_fee_attributes][kind",
        "rentrack extension: the fee for a late return on an order, per minute, hour, day, week or month, or flat; null removes the fee",
    ),
    (
        "late_fee_attributes][amount",
        "the late fee per started unit (or the flat fee), an amount such as 5.00; required with kind",
    ),
];

pub(crate) const TAXES: &[(&str, &str)] = &[
    (
        "cust_attr[<custom field name>]",
        "value of a custom field that applies to the kind of item",
    ),
    (
        "custom_tax_ids_to_add",
        "custom tax ids, a comma list (also [1,2] or repeated [])",
    ),
    (
        "custom_tax_ids_to_remove",
        "custom tax ids, a comma list (update)",
    ),
];

pub(super) fn routes(api: Api) -> Api {
    api.route(
        "/assets",
        get(list::<Fixed>).post(create::<Fixed>),
        Doc::new("Fixed assets", "List fixed assets, 25 a page (GET), or create one (POST)")
            .form("fixed_asset", FIELDS)
            .form("fixed_asset", ITEM_FIELDS)
            .query(TAXES)
            .query(super::SHOW_FLAGS)
            .query(&[("page", "page number, default 1")])
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
        .form("fixed_asset", FIELDS)
        .form("fixed_asset", ITEM_FIELDS)
        .query(TAXES)
        .query(super::SHOW_FLAGS)
        .query(&[("show_services_details", "boolean: add services, the asset's latest 25 (newest first; /assets/<n>/services.api has them all)")])
        .returns("asset")
        .record::<AssetJson<'_>>(),
    )
    .route(
        "/assets/{sequence_num}/retire",
        put_or_patch(retire),
        Doc::new("Fixed assets", "Retire an available fixed asset, or asset stock with no unit checked out (PUT or PATCH); its pending and approved reservations become removed. Inventory does not retire (409)")
            .form(
                "fixed_asset",
                &[
                    ("retired_on", "required date"),
                    ("retire_reason_id", "required: a retire reason of the company"),
                    ("salvage_value", "an amount"),
                ],
            )
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
        .form("fixed_asset", &[("location_id", "a location of the company")])
        .returns("asset")
        .record::<AssetJson<'_>>(),
    )
    .route(
        "/assets/{sequence_num}/gps_coordinates",
        put_or_patch(gps),
        Doc::new("Fixed assets", "Record a GPS reading (PUT or PATCH); kept as a history, the latest on the asset")
            .query(&[
                ("latitude", "required, -90 to 90"),
                ("longitude", "required, -180 to 180"),
                ("gps_asset_id", "text: the tracker's id"),
            ])
            .returns("asset")
            .record::<AssetJson<'_>>(),
    )
    .route(
        "/assets/{sequence_num}/history_paginate",
        get(history),
        Doc::new("Fixed assets", "The asset's history, newest first, 5 a page")
            .query(&[("page", "page number, default 1")])
            .returns_page("history")
            .record::<super::HistoryEntryJson>(),
    )
    .route(
        "/assets/filter",
        get(filter::<Fixed>),
        Doc::new("Fixed assets", "Fixed assets by status (see docs/api.md for each status and its filter_param_val), 25 a page")
            .query(&[
                ("status", "required: one of the statuses in docs/api.md, or custom_filter_<id>"),
                ("filter_param_val", "the status's value"),
                ("sub_group_param_val", "with status=group: a subgroup id"),
                ("assets_type", "fixed_assets (required with a custom filter)"),
                ("page", "page number, default 1"),
            ])
            .query(super::SHOW_FLAGS)
            .returns_page("assets")
            .record::<AssetJson<'_>>(),
    )
    .route(
        "/search",
        get(search),
        Doc::new("Fixed assets", "Search items of one kind by name (every word); #n the asset number, @x the identification number; 25 a page")
            .query(&[
                ("search", "required: the text"),
                ("facet", "FixedAsset (the default), VolatileAsset (inventory) or StockAsset"),
                ("page", "page number, default 1"),
            ])
            .query(super::SHOW_FLAGS)
            .returns_page("assets")
            .record::<AssetJson<'_>>(),
    )
}

/// `late_fee_attributes][kind` and `][amount`: both to set the fee, `kind=null` to
/// remove it.
fn late_fee(form: &mut Form<'_>) -> Change<LateFee> {
    let (kind_field, amount_field) = ("late_fee_attributes][kind", "late_fee_attributes][amount");
    let kind = match form.text(kind_field) {
        Change::Set(raw) => match LateFeeKind::parse(&raw) {
            Some(k) => Change::Set(k),
            None => {
                form.error(
                    kind_field,
                    format!("must be one of {}, not {raw:?}", LateFeeKind::names()),
                );
                return Change::Keep;
            }
        },
        Change::Clear => Change::Clear,
        Change::Keep => Change::Keep,
    };
    let amount = amount(form, amount_field);
    match (kind, amount) {
        (Change::Set(kind), Change::Set(minor)) => Change::Set(LateFee {
            kind,
            amount: Money::from_minor(minor),
        }),
        (Change::Clear, _) => Change::Clear,
        (Change::Keep, Change::Keep) => Change::Keep,
        (Change::Set(_), _) => {
            form.error(amount_field, "can't be blank: give the fee with its kind");
            Change::Keep
        }
        (Change::Keep, _) => {
            form.error(kind_field, "can't be blank: give the kind with the fee");
            Change::Keep
        }
    }
}

pub(crate) fn amount(form: &mut Form<'_>, field: &str) -> Change<i64> {
    match form.text(field) {
        Change::Set(raw) => match Money::parse(&raw) {
            Ok(m) => Change::Set(m.minor()),
            Err(problem) => {
                form.error(field, problem);
                Change::Keep
            }
        },
        Change::Clear => Change::Clear,
        Change::Keep => Change::Keep,
    }
}

fn date(form: &mut Form<'_>, field: &str, required: bool) -> Option<chrono::NaiveDate> {
    match form.text(field) {
        Change::Set(raw) => match parse_date(&raw) {
            Ok(d) => Some(d),
            Err(problem) => {
                form.error(field, problem.to_string());
                None
            }
        },
        _ if required => {
            form.error(field, "can't be blank");
            None
        }
        _ => None,
    }
}

async fn read_input<K: Kind>(
    state: &AppState,
    company: &store::companies::Company,
    params: &Params,
    creating: bool,
) -> Result<AssetInput, ApiError> {
    let family = K::FAMILY;
    let mut form = Form::new(params, family.scope);
    let fields = custom_attributes::fields_for_input(
        state.db(),
        company.id,
        family.target,
        &form,
        ATTRIBUTES,
    )
    .await?;
    let name = if creating {
        form.name("name", Name::parse)
    } else {
        form.optional_name("name", Name::parse)
    };
    let group_id = if creating {
        form.required_id("group_id")
    } else {
        match form.id("group_id") {
            Change::Set(g) => Some(g),
            Change::Clear => {
                form.error("group_id", "can't be blank: every asset belongs to a group");
                None
            }
            Change::Keep => None,
        }
    };
    let purchased_on = date(
        &mut form,
        "purchased_on",
        creating && family.kind == domain::item::AssetType::FixedAsset,
    );
    let image_url = form.text("image_url");
    if let Change::Set(url) = &image_url
        && !is_link(url)
    {
        form.error("image_url", "must be an http(s) link");
    }
    let documents = format!("{}[document_urls]", family.scope);
    let document_urls = if params.contains(&documents) {
        let urls = params
            .list(&documents, MAX_LIST_ENTRIES)
            .unwrap_or_default();
        if urls.len() > MAX_DOCUMENTS {
            form.error(
                "document_urls",
                format!("can hold at most {MAX_DOCUMENTS} links, not {}", urls.len()),
            );
        }
        for url in &urls {
            if !is_link(url) || url.chars().count() > crate::form::MAX_TEXT_CHARS {
                form.error("document_urls", format!("{url:?} is not an http(s) link"));
            }
        }
        Some(urls)
    } else {
        None
    };
    let rates = Rates {
        per_minute: amount(&mut form, "rental_price_attributes][per_minute"),
        hourly: amount(&mut form, "rental_price_attributes][hourly"),
        daily: amount(&mut form, "rental_price_attributes][daily"),
        weekly: amount(&mut form, "rental_price_attributes][weekly"),
        monthly: amount(&mut form, "rental_price_attributes][monthly"),
    };
    let late_fee = late_fee(&mut form);
    let custom_tax_ids_to_add = form.bracketed_ids_at(
        "custom_tax_ids_to_add",
        "custom_tax_ids_to_add",
        "custom tax ids",
    );
    let custom_tax_ids_to_remove = form.bracketed_ids_at(
        "custom_tax_ids_to_remove",
        "custom_tax_ids_to_remove",
        "custom tax ids",
    );
    let input = AssetInput {
        name,
        group_id,
        purchased_on,
        sub_group_id: form.id("sub_group_id"),
        location_id: form.id("location_id"),
        description: form.text("description"),
        manufacturer: form.text("manufacturer"),
        product_model_number: form.text("product_model_number"),
        image_url,
        identifier: form.text("identifier"),
        price: amount(&mut form, "price"),
        document_urls,
        rates,
        late_fee,
        custom_attributes: custom_attributes::read(&mut form, ATTRIBUTES, &fields, family.target),
        custom_tax_ids_to_add,
        custom_tax_ids_to_remove,
    };
    form.finish()?;
    Ok(input)
}

/// Custom field values of items come as `cust_attr[<name>]`.
const ATTRIBUTES: &str = "cust_attr";

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
    let shown = Shown::read(&params)?;
    let page = views::page(&params, PageSize::DEFAULT)?;
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
    Number(number, _): Number<kind::Item>,
    params: Params,
) -> Result<views::Reply, ApiError> {
    let shown = Shown::read(&params)?;
    let view = items::find(state.db(), tenant.0.id, number, today(&tenant))
        .await
        .map_err(ApiError::from_item)?;
    let kind = K::FAMILY.kind;
    if let Some(asset_type) = domain::item::AssetType::parse(&view.item.asset_type)
        && kind != domain::item::AssetType::FixedAsset
        && asset_type != kind
    {
        return Err(ApiError::from_item_read(store::StoreError::Conflict(
            domain::refusal::Conflict::WrongKind {
                number,
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
    Number(number, _): Number<kind::Item>,
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
    .await
    .map_err(ApiError::from_item)?;
    answer(&state, &tenant.0, view, Shown::all()).await
}

pub(crate) async fn delete<K: Kind>(
    State(state): State<AppState>,
    tenant: Tenant,
    Number(number, _): Number<kind::Item>,
) -> Result<views::Reply, ApiError> {
    let gone = items::delete(
        state.db(),
        tenant.0.id,
        K::FAMILY.kind,
        number,
        today(&tenant),
    )
    .await
    .map_err(ApiError::from_item)?;
    answer(&state, &tenant.0, gone, Shown::all()).await
}

async fn retire(
    State(state): State<AppState>,
    tenant: Tenant,
    Number(number, _): Number<kind::Item>,
    params: Params,
) -> Result<views::Reply, ApiError> {
    let mut form = Form::new(&params, "fixed_asset");
    let retired_on = date(&mut form, "retired_on", true);
    let reason = form.required_id("retire_reason_id");
    let salvage = amount(&mut form, "salvage_value");
    form.finish()?;
    let (Some(retired_on), Some(reason)) = (retired_on, reason) else {
        unreachable!("reported by finish");
    };
    let retirement = Retirement {
        retired_on,
        reason,
        salvage_value: salvage.as_set().copied(),
    };
    let view = items::retire(state.db(), tenant.0.id, number, retirement, &clock(&tenant))
        .await
        .map_err(ApiError::from_item)?;
    answer(&state, &tenant.0, view, Shown::all()).await
}

async fn activate(
    State(state): State<AppState>,
    tenant: Tenant,
    Number(number, _): Number<kind::Item>,
    params: Params,
) -> Result<views::Reply, ApiError> {
    let mut form = Form::new(&params, "fixed_asset");
    let location = form.id("location_id").as_set().copied();
    if tenant.0.retired_activation_location == ActivationLocation::Required
        && location.is_none()
        && !form.has_errors_for("location_id")
    {
        form.error(
            "location_id",
            "can't be blank: this company requires a location to activate a retired asset (company setting retired_asset_activation_location)",
        );
    }
    form.finish()?;
    let view = items::activate(state.db(), tenant.0.id, number, location, today(&tenant))
        .await
        .map_err(ApiError::from_item)?;
    answer(&state, &tenant.0, view, Shown::all()).await
}

async fn gps(
    State(state): State<AppState>,
    tenant: Tenant,
    Number(number, _): Number<kind::Item>,
    params: Params,
) -> Result<views::Reply, ApiError> {
    let mut errors = store::FieldErrors::new();
    let mut coordinate = |name: &str, max: u32| match params.get(name) {
        None => {
            errors.insert(name.into(), vec!["can't be blank".into()]);
            None
        }
        Some(raw) => parse_coordinate(raw, max)
            .map_err(|p| errors.insert(name.into(), vec![p]))
            .ok(),
    };
    let latitude = coordinate("latitude", 90);
    let longitude = coordinate("longitude", 180);
    let gps_asset_id = params.get("gps_asset_id").map(str::to_owned);
    if gps_asset_id
        .as_ref()
        .is_some_and(|g| g.chars().count() > Name::MAX_CHARS)
    {
        errors.insert(
            "gps_asset_id".into(),
            vec!["is too long (maximum is 255 characters)".into()],
        );
    }
    let (Some(latitude), Some(longitude), true) = (latitude, longitude, errors.is_empty()) else {
        return Err(ApiError::Invalid(errors));
    };
    let reading = Reading {
        latitude,
        longitude,
        gps_asset_id,
    };
    let view = items::record_gps(state.db(), tenant.0.id, number, reading, today(&tenant))
        .await
        .map_err(ApiError::from_item)?;
    answer(&state, &tenant.0, view, Shown::all()).await
}

pub(crate) async fn history(
    State(state): State<AppState>,
    tenant: Tenant,
    Number(number, _): Number<kind::Item>,
    params: Params,
) -> Result<views::Reply, ApiError> {
    let page = views::page(&params, PageSize(5))?;
    let entries = items::history_page(state.db(), tenant.0.id, number, page)
        .await
        .map_err(ApiError::from_item)?;
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
    let shown = Shown::read(&params)?;
    let page = views::page(&params, PageSize::DEFAULT)?;
    let Some(status) = params.get("status") else {
        return Err(ApiError::field(
            "status",
            format!(
                "can't be blank: one of {}",
                domain::asset_filter::STATUSES.join(", ")
            ),
        ));
    };
    let family = K::FAMILY;
    let filter = AssetFilter::parse_for(
        family.kind,
        status,
        params.get("filter_param_val"),
        params.get("sub_group_param_val"),
    )
    .map_err(|e| ApiError::field(e.field, e.problem))?;
    match (params.get("assets_type"), &filter) {
        (None, AssetFilter::Custom(_)) => {
            return Err(ApiError::field(
                "assets_type",
                format!(
                    "can't be blank with a custom filter: {}",
                    family.assets_type
                ),
            ));
        }
        (Some(t), _) if t != family.assets_type => {
            return Err(ApiError::field(
                "assets_type",
                format!(
                    "must be {} here (each kind of item has its own filter endpoint: /assets, /inventory, /stock_assets)",
                    family.assets_type
                ),
            ));
        }
        _ => {}
    }
    let records = items::filter(
        state.db(),
        tenant.0.id,
        family.kind,
        &filter,
        page,
        &clock(&tenant),
    )
    .await?;
    answer_page(&state, &tenant.0, page, records, shown).await
}

async fn search(
    State(state): State<AppState>,
    tenant: Tenant,
    params: Params,
) -> Result<views::Reply, ApiError> {
    let shown = Shown::read(&params)?;
    let page = views::page(&params, PageSize::DEFAULT)?;
    let kind = match params.get("facet") {
        None => domain::item::AssetType::FixedAsset,
        Some(raw) => domain::item::AssetType::parse(raw.trim()).ok_or_else(|| {
            ApiError::field(
                "facet",
                format!(
                    "must be one of {}, not {raw:?}",
                    domain::item::AssetType::names()
                ),
            )
        })?,
    };
    let Some(text) = params.get("search") else {
        return Err(ApiError::field("search", "can't be blank"));
    };
    if text.chars().count() > Name::MAX_CHARS {
        return Err(ApiError::field(
            "search",
            "is too long (maximum is 255 characters)",
        ));
    }
    let query = if let Some(n) = text.strip_prefix('#') {
        match n.trim().parse::<i64>() {
            Ok(n) if n > 0 => Search::Number(n),
            _ => {
                return Err(ApiError::field(
                    "search",
                    "#: must be followed by an asset number",
                ));
            }
        }
    } else if let Some(id) = text.strip_prefix('@') {
        Search::Identifier(id.trim().to_owned())
    } else {
        Search::Name(text.to_owned())
    };
    let records =
        items::search(state.db(), tenant.0.id, kind, &query, page, today(&tenant)).await?;
    answer_page(&state, &tenant.0, page, records, shown).await
}
