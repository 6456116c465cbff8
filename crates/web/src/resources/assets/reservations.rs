//! Reservation requests of fixed assets, their decisions, and the dates an asset is
//! reserved or booked.

use axum::extract::State;
use chrono::NaiveDate;
use domain::reservation::{Decision, ReservationStatus, parse_status_filter};
use domain::stock::Quantity;
use domain::{Change, PageSize, Vocabulary};
use serde::Serialize;
use store::reservations::{self, NewReservation, Reservation, ReservationFilter};

use super::today;
use crate::api::{Api, Doc, get, put_or_patch};
use crate::auth::Tenant;
use crate::error::ApiError;
use crate::form::Form;
use crate::ids::{Id, Number, kind};
use crate::input::{Format, Input, PageQuery, RecordId, Scalar, Units, Word, read_beside};
use crate::params::Params;
use crate::state::AppState;
use crate::views::{self, Day, Moment, moment};

pub(super) fn routes(api: Api) -> Api {
    api.route(
        "/assets/{sequence_num}/reservation_requests",
        get(list_for_asset).post(create),
        Doc::new("Reservations", "Reservation requests of an asset, 25 a page (GET), or a new one, pending until decided (POST)")
            .input::<NewReservationInput>()
            .input::<ReservationMember>()
            .params::<ReservationsQuery>()
            .returns("reservation_request")
            .returns_page("reservation_requests")
            .record::<ReservationJson<'_>>(),
    )
    .route(
        "/assets/{sequence_num}/reservation_requests/{id}",
        get(details),
        Doc::new("Reservations", "One reservation request of the item, by its id (a rentrack extension: what webhook events of reservations carry)")
            .returns("reservation_request")
            .record::<ReservationJson<'_>>(),
    )
    .route(
        "/assets/{sequence_num}/reservation_requests/{id}/update_status",
        put_or_patch(decide),
        Doc::new("Reservations", "Approve (approve_request: pending to approved; refused for a fixed asset when it overlaps an approved reservation, for inventory and asset stock when approved reservations would need more units on a day than the item has) or deny (deny: pending or approved to denied) a request (PUT or PATCH)")
            .params::<DecisionQuery>()
            .returns("reservation_request")
            .record::<ReservationJson<'_>>(),
    )
    .route(
        "/checkout_requests/filter",
        get(filter),
        Doc::new("Reservations", "What starts on a day: reservation requests (pending only unless all=true) as reservation_requests, and orders expected to go out that day (Draft, Web Order or Booked unless all=true) as baskets; the two lists are paged side by side, 25 of each a page, total_pages the longer one's")
            .params::<StartingQuery>()
            .answers::<StartingJson<'_>>(),
    )
    .route(
        "/assets/{sequence_num}/reserved_dates",
        get(reserved_dates),
        Doc::new("Reservations", "The approved reservations of an asset that have not ended, 25 a page")
            .params::<PageQuery>()
            .answers::<ReservedDatesJson<'_>>(),
    )
    .route(
        "/assets/{sequence_num}/booked_dates",
        get(booked_dates),
        Doc::new("Reservations", "Every period the asset is taken: its current check-out and the orders it is booked or rented out to (first, on page 1), and its approved reservations, 25 a page")
            .params::<PageQuery>()
            .answers::<BookedDatesJson<'_>>(),
    )
    .route(
        "/members/{id}/reservation_requests",
        get(for_member::<true>),
        Doc::new("Members", "The member's reservation requests of fixed assets, 25 a page")
            .params::<PageQuery>()
            .returns_page("reservation_requests")
            .record::<ReservationJson<'_>>(),
    )
    .route(
        "/members/{id}/inventory_reservations",
        get(for_member::<false>),
        Doc::new("Members", "The member's reservation requests of inventory and asset stock, 25 a page")
            .params::<PageQuery>()
            .returns_page("reservation_requests")
            .record::<ReservationJson<'_>>(),
    )
}

/// A reservation request as the contract shows it.
#[derive(Serialize, utoipa::ToSchema)]
#[schema(as = ReservationRequest)]
// Closes the schema where it is nested too (`serde` reads it on deserializing only).
#[serde(deny_unknown_fields)]
struct ReservationJson<'a> {
    id: i64,
    /// The item's number.
    sequence_num: i64,
    asset_name: &'a str,
    /// The member it is for.
    user_id: i64,
    user_full_name: &'a str,
    /// The first day reserved.
    from: Day,
    /// The last day reserved.
    to: Day,
    #[schema(required)]
    note: Option<&'a str>,
    /// Units reserved (1 for a fixed asset).
    quantity: i64,
    /// `fullfilled` is the spec's spelling.
    #[schema(value_type = String, pattern = "^(pending|approved|denied|fullfilled|removed)$")]
    status: &'a str,
    created_at: Moment,
    updated_at: Moment,
}

fn render(r: &Reservation, tz: chrono_tz::Tz) -> ReservationJson<'_> {
    ReservationJson {
        id: r.id,
        sequence_num: r.sequence_num,
        asset_name: &r.asset_name,
        user_id: r.member_id,
        user_full_name: &r.member_name,
        from: Day(r.from_on),
        to: Day(r.to_on),
        note: r.note.as_deref(),
        quantity: r.quantity,
        status: &r.status,
        created_at: moment(r.created_at, tz),
        updated_at: moment(r.updated_at, tz),
    }
}

/// A reservation request's own fields.
#[derive(Input)]
#[input(resource = "reservation_request")]
struct NewReservationInput {
    /// The first day (mm/dd/yyyy or yyyy-mm-dd), today or later.
    from: NaiveDate,
    /// The last day, not before from.
    to: NaiveDate,
    /// Text (null: none).
    note: Change<String>,
    /// Inventory and asset stock: the units wanted, 1 to 1000000000 (left out or
    /// empty: 1); a fixed asset takes none (it is reserved whole).
    #[input(format = OptionalUnits)]
    quantity: Option<Quantity>,
}

/// Units that may be sent empty, which is none.
struct OptionalUnits;

impl Format for OptionalUnits {
    type Value = Quantity;

    fn read(params: &Params, path: &str) -> Option<Result<Quantity, String>> {
        params
            .get(path)
            .filter(|raw| !raw.is_empty())
            .map(Units::parse)
    }

    fn schema() -> serde_json::Value {
        <Units as Scalar>::schema()
    }
}

/// The member a request is for: `user[id]`, or `user_id` (one is required on create).
#[derive(Input)]
struct ReservationMember {
    /// The member (active); user_id is read when it is left out.
    #[input(rename = "user[id]", format = RecordId, or = "user_id")]
    id: Option<i64>,
    /// The member, when user[id] is left out.
    #[input(format = RecordId)]
    user_id: Option<i64>,
}

/// `status`: one status of a request (requested for pending, fulfilled for
/// fullfilled), or all.
struct StatusWord;

impl Scalar for StatusWord {
    /// `None`: every status.
    type Value = Option<ReservationStatus>;

    fn parse(raw: &str) -> Result<Option<ReservationStatus>, String> {
        parse_status_filter(raw)
    }

    fn schema() -> serde_json::Value {
        let mut words: Vec<&str> = ReservationStatus::ALL.iter().map(|s| s.as_str()).collect();
        words.extend(["requested", "fulfilled", "all"]);
        serde_json::json!({"type": "string", "enum": words})
    }
}

/// The parameters of a list of reservation requests.
#[derive(Input)]
struct ReservationsQuery {
    /// pending (also requested), approved, denied, fullfilled, removed or all (the
    /// default).
    #[input(format = StatusWord)]
    status: Option<Option<ReservationStatus>>,
    /// One member's requests (on create, the member when user[id] is left out).
    #[input(format = RecordId)]
    user_id: Option<i64>,
    #[input(flatten)]
    page: PageQuery,
}

async fn create(
    State(state): State<AppState>,
    tenant: Tenant,
    Number(number): Number<kind::Item>,
    params: Params,
) -> Result<views::Reply, ApiError> {
    let mut form = Form::new(&params, "reservation_request");
    let input = NewReservationInput::read(&mut form);
    if let (Some(from), Some(to)) = (form.peek::<NaiveDate>("from"), form.peek::<NaiveDate>("to"))
        && to < from
    {
        form.error("to", "can't be before from");
    }
    let member =
        read_beside::<ReservationMember>(&mut form, str::to_owned).and_then(|m| m.id.or(m.user_id));
    let (input, member) = form.finish_with(input.zip(member))?;
    let new = NewReservation {
        member: store::Id::new(member),
        from: input.from,
        to: input.to,
        note: input.note.as_set().cloned(),
        quantity: input.quantity,
    };
    let r = reservations::create(state.db(), tenant.0.id, number, new, today(&tenant))
        .await
        .map_err(|e| {
            ApiError::from(e)
                .renamed("from", "reservation_request[from]")
                .renamed("quantity", "reservation_request[quantity]")
                .renamed("member", "user[id]")
        })?;
    Ok(views::one(
        "reservation_request",
        render(&r, tenant.0.time_zone),
    ))
}

async fn details(
    State(state): State<AppState>,
    tenant: Tenant,
    Number(number): Number<kind::Item>,
    Id(id): Id<kind::ReservationRequest>,
) -> Result<views::Reply, ApiError> {
    let r = reservations::find(state.db(), tenant.0.id, number, id).await?;
    Ok(views::one(
        "reservation_request",
        render(&r, tenant.0.time_zone),
    ))
}

async fn list_for_asset(
    State(state): State<AppState>,
    tenant: Tenant,
    Number(number): Number<kind::Item>,
    params: Params,
) -> Result<views::Reply, ApiError> {
    let query = ReservationsQuery::parse(&params)?;
    let page = query.page.page(PageSize::DEFAULT);
    let filter = ReservationFilter {
        item_number: Some(number),
        member: query.user_id.map(store::Id::new),
        status: query.status.flatten(),
        ..ReservationFilter::default()
    };
    page_of(&state, &tenant, &filter, page).await
}

async fn page_of(
    state: &AppState,
    tenant: &Tenant,
    filter: &ReservationFilter,
    page: domain::Page,
) -> Result<views::Reply, ApiError> {
    let records = reservations::list(state.db(), tenant.0.id, filter, page).await?;
    let tz = tenant.0.time_zone;
    Ok(views::paged("reservation_requests", page, &records, |r| {
        render(r, tz)
    }))
}

/// A decision on a request.
#[derive(Input)]
struct DecisionQuery {
    /// approve_request (pending to approved) or deny (pending or approved to denied).
    #[input(format = Word<Decision>)]
    request_action: Decision,
}

/// The parameters of what starts on a day.
#[derive(Input)]
struct StartingQuery {
    /// The first day of the requests and orders (mm/dd/yyyy or yyyy-mm-dd); default
    /// today.
    start_date: Option<NaiveDate>,
    /// Every status, not only pending requests and orders waiting to go out (default
    /// false).
    all: Option<bool>,
    #[input(flatten)]
    page: PageQuery,
}

async fn decide(
    State(state): State<AppState>,
    tenant: Tenant,
    Number(number): Number<kind::Item>,
    Id(id): Id<kind::ReservationRequest>,
    params: Params,
) -> Result<views::Reply, ApiError> {
    let decision = DecisionQuery::parse(&params)?.request_action;
    let r = reservations::decide(
        state.db(),
        tenant.0.id,
        number,
        id,
        decision,
        tenant.0.time_zone,
    )
    .await?;
    Ok(views::one(
        "reservation_request",
        render(&r, tenant.0.time_zone),
    ))
}

async fn filter(
    State(state): State<AppState>,
    tenant: Tenant,
    params: Params,
) -> Result<views::Reply, ApiError> {
    let query = StartingQuery::parse(&params)?;
    let page = query.page.page(PageSize::DEFAULT);
    let day = query.start_date.unwrap_or(today(&tenant).0);
    let all = query.all.unwrap_or(false);
    let filter = ReservationFilter {
        item_number: None,
        member: None,
        status: (!all).then_some(ReservationStatus::Pending),
        starting_on: Some(day),
        ..ReservationFilter::default()
    };
    let requests = reservations::list(state.db(), tenant.0.id, &filter, page).await?;
    // The orders (baskets) going out that day, in the company's time zone.
    let tz = tenant.0.time_zone;
    let midnight = |d: NaiveDate| domain::item::local_moment(d, Some(chrono::NaiveTime::MIN), tz);
    let next = day.succ_opt().unwrap_or(day);
    let orders = store::orders::starting(
        state.db(),
        tenant.0.id,
        (midnight(day), midnight(next)),
        all,
        page,
    )
    .await?;
    // Two lists paged side by side: page n holds the n-th page of each.
    Ok(views::Reply::of(&StartingJson {
        reservation_requests: requests.records.iter().map(|r| render(r, tz)).collect(),
        baskets: orders
            .records
            .iter()
            .map(|o| crate::resources::orders::summary(o, tz))
            .collect(),
        total_pages: page
            .total_pages(requests.total)
            .max(page.total_pages(orders.total)),
        current_page: page.number,
    }))
}

/// What starts on a day: reservation requests and orders, two lists paged side by
/// side.
#[derive(Serialize, utoipa::ToSchema)]
#[schema(as = StartingOnADay)]
struct StartingJson<'a> {
    reservation_requests: Vec<ReservationJson<'a>>,
    /// Orders expected to go out that day, each as the order lists show it.
    baskets: Vec<crate::resources::orders::SummaryJson<'a>>,
    /// The longer list's.
    total_pages: u64,
    current_page: u32,
}

/// A member's reservation requests: of fixed assets (`FIXED`), or of inventory and
/// asset stock.
async fn for_member<const FIXED: bool>(
    State(state): State<AppState>,
    tenant: Tenant,
    Id(member): Id<kind::Member>,
    params: Params,
) -> Result<views::Reply, ApiError> {
    let page = PageQuery::parse(&params)?.page(PageSize::DEFAULT);
    store::members::find(state.db(), tenant.0.id, member).await?;
    let filter = ReservationFilter {
        member: Some(member),
        fixed_assets: Some(FIXED),
        ..ReservationFilter::default()
    };
    page_of(&state, &tenant, &filter, page).await
}

/// An approved reservation among the dates an asset is taken.
#[derive(Serialize, utoipa::ToSchema)]
#[schema(as = ReservedDate)]
#[serde(deny_unknown_fields)]
struct PeriodJson<'a> {
    /// The reservation request's id.
    id: i64,
    from: Day,
    to: Day,
    /// The reservation request's id again.
    reservation_id: i64,
    user_id: i64,
    user_full_name: &'a str,
    quantity: i64,
}

fn period(r: &Reservation) -> PeriodJson<'_> {
    PeriodJson {
        id: r.id,
        from: Day(r.from_on),
        to: Day(r.to_on),
        reservation_id: r.id,
        user_id: r.member_id,
        user_full_name: &r.member_name,
        quantity: r.quantity,
    }
}

/// A page (25) of the approved reservations of an asset that have not ended, in the
/// order they were requested.
async fn reserved_page(
    state: &AppState,
    tenant: &Tenant,
    number: i64,
    page: domain::Page,
) -> Result<store::PageOf<Reservation>, ApiError> {
    let filter = ReservationFilter {
        item_number: Some(store::Number::new(number)),
        status: Some(ReservationStatus::Approved),
        ending_from: Some(today(tenant).0),
        ..ReservationFilter::default()
    };
    Ok(reservations::list(state.db(), tenant.0.id, &filter, page).await?)
}

/// The approved reservations of an asset that have not ended, a page of them.
#[derive(Serialize, utoipa::ToSchema)]
#[schema(as = ReservedDates)]
struct ReservedDatesJson<'a> {
    /// The asset's number.
    sequence_num: i64,
    reserved_dates: Vec<PeriodJson<'a>>,
    total_pages: u64,
    current_page: u32,
}

async fn reserved_dates(
    State(state): State<AppState>,
    tenant: Tenant,
    Number(number): Number<kind::Item>,
    params: Params,
) -> Result<views::Reply, ApiError> {
    let page = PageQuery::parse(&params)?.page(PageSize::DEFAULT);
    let found = reserved_page(&state, &tenant, number.get(), page).await?;
    Ok(views::Reply::of(&ReservedDatesJson {
        sequence_num: number.get(),
        reserved_dates: found.records.iter().map(period).collect(),
        total_pages: page.total_pages(found.total),
        current_page: page.number,
    }))
}

/// One period an asset is taken: its current check-out, an order it is booked or
/// rented out to, or an approved reservation. The keys say which: `checked_out`, then
/// `order_number`, else `reservation_id`.
#[derive(Serialize, utoipa::ToSchema)]
#[schema(as = BookedDate)]
#[serde(untagged)]
enum BookedJson<'a> {
    CheckedOut(CheckedOutPeriod<'a>),
    Order(OrderPeriod<'a>),
    Reserved(PeriodJson<'a>),
}

/// The asset's current check-out: from and to are days.
#[derive(Serialize, utoipa::ToSchema)]
#[schema(as = CheckedOutPeriod)]
#[serde(deny_unknown_fields)]
struct CheckedOutPeriod<'a> {
    from: Day,
    /// The due day; null: no end.
    #[schema(required)]
    to: Option<Day>,
    /// Always true.
    checked_out: bool,
    #[schema(required)]
    user_id: Option<i64>,
    #[schema(required)]
    user_full_name: Option<&'a str>,
}

/// An order the asset is booked or rented out to: from and to are moments.
#[derive(Serialize, utoipa::ToSchema)]
#[schema(as = OrderPeriod)]
#[serde(deny_unknown_fields)]
struct OrderPeriod<'a> {
    #[schema(required)]
    from: Option<Moment>,
    #[schema(required)]
    to: Option<Moment>,
    order_number: i64,
    basket_state: &'a str,
    /// The units of the item on the order.
    quantity: i64,
}

/// Every period an asset is taken, a page of them.
#[derive(Serialize, utoipa::ToSchema)]
#[schema(as = BookedDates)]
struct BookedDatesJson<'a> {
    /// The asset's number.
    sequence_num: i64,
    booked_dates: Vec<BookedJson<'a>>,
    total_pages: u64,
    current_page: u32,
}

async fn booked_dates(
    State(state): State<AppState>,
    tenant: Tenant,
    Number(number): Number<kind::Item>,
    params: Params,
) -> Result<views::Reply, ApiError> {
    let page = PageQuery::parse(&params)?.page(PageSize::DEFAULT);
    let item = store::items::find(state.db(), tenant.0.id, number, today(&tenant))
        .await?
        .item;
    let found = reserved_page(&state, &tenant, number.get(), page).await?;
    let tz = tenant.0.time_zone;
    let orders = if page.number == 1 {
        store::orders::item_bookings(state.db(), tenant.0.id, number, super::clock(&tenant).now)
            .await?
    } else {
        Vec::new()
    };
    let mut booked: Vec<BookedJson<'_>> = Vec::new();
    if let (Some(out), 1) = (item.checkout_on, page.number) {
        booked.push(BookedJson::CheckedOut(CheckedOutPeriod {
            from: Day(out.with_timezone(&tz).date_naive()),
            to: item
                .checkin_due_on
                .map(|d| Day(d.with_timezone(&tz).date_naive())),
            checked_out: true,
            user_id: item.assigned_to_id,
            user_full_name: item.assigned_to_name.as_deref(),
        }));
    }
    booked.extend(orders.iter().map(|b| {
        BookedJson::Order(OrderPeriod {
            from: b.starts.map(|m| moment(m, tz)),
            to: b.ends.map(|m| moment(m, tz)),
            order_number: b.order_number,
            basket_state: &b.basket_state,
            quantity: b.units,
        })
    }));
    booked.extend(
        found
            .records
            .iter()
            .map(|r| BookedJson::Reserved(period(r))),
    );
    Ok(views::Reply::of(&BookedDatesJson {
        sequence_num: number.get(),
        booked_dates: booked,
        total_pages: page.total_pages(found.total),
        current_page: page.number,
    }))
}
