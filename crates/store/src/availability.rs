//! One availability: every way an item is promised (an order's booking, rent-out or
//! sale, a member's check-out or approved reservation, a service) is read here as a
//! hold of units for a period, and every new promise is weighed against all of them:
//! what is held at any moment of its period plus what it asks must fit what the item
//! has (`units`). Callers lock the item's row first (`item_core::lock`), so two promises
//! of one item, whatever their kinds, queue on that lock and the second sees the
//! first. A hold past its due moment and not yet back (overdue) holds until now.

use crate::CompanyId;
use chrono::{DateTime, Duration, Utc};
use domain::Vocabulary;
use domain::availability::{Held, Holder, peak};
use domain::item::{AssetType, ItemState, start_of_day};
use domain::order::OrderState;
use domain::refusal::Conflict;
use sea_query::{Cond, Expr, ExprTrait, Query};

use crate::item_core::{self, Locked};
use crate::{StoreError, Tx};

/// A moment after any period (holds without an end end there): the last second of
/// year 9999, since moments compare as text on SQLite, where a later year's text sorts
/// before this one's.
pub(crate) fn open_end() -> DateTime<Utc> {
    chrono::NaiveDate::from_ymd_opt(9999, 12, 31)
        .and_then(|d| d.and_hms_opt(23, 59, 59))
        .map_or(DateTime::<Utc>::MAX_UTC, |t| t.and_utc())
}

/// A period from one moment to another, both inclusive.
pub(crate) type Window = (DateTime<Utc>, DateTime<Utc>);

/// Units of an item held from `from` to `to` (both inclusive) by `by`.
#[derive(Debug, Clone)]
pub(crate) struct Hold {
    pub from: DateTime<Utc>,
    pub to: DateTime<Utc>,
    pub units: i64,
    pub by: Holder,
}

/// What an item has to promise: a fixed asset itself; asset stock its units on hand
/// and out; inventory its units on hand.
pub(crate) fn units(item: &Locked) -> i64 {
    match item.kind() {
        AssetType::FixedAsset => 1,
        AssetType::StockAsset => item.quantity + item.checked_out_quantity,
        AssetType::VolatileAsset => item.quantity,
    }
}

/// Everything that holds `item` at some moment of `from..=to`, except the lines of
/// order `except` (an order weighing its own period). The item's row is locked.
pub(crate) async fn holds(
    tx: &mut Tx,
    company: CompanyId,
    item: &Locked,
    window: Window,
    except: Option<i64>,
    tz: chrono_tz::Tz,
) -> Result<Vec<Hold>, StoreError> {
    let mut each = holds_of(tx, company, &[(item, window)], except, tz).await?;
    Ok(each.pop().unwrap_or_default())
}

/// What holds each of `items` in its own period, as [`holds`] reads it for one, in
/// the order given: the orders', members' reservations' and (asset stock) check-outs'
/// holds of them all read together, one round trip on PostgreSQL whatever their
/// number (an order weighing its lines).
pub(crate) async fn holds_of(
    tx: &mut Tx,
    company: CompanyId,
    items: &[(&Locked, Window)],
    except: Option<i64>,
    tz: chrono_tz::Tz,
) -> Result<Vec<Vec<Hold>>, StoreError> {
    let weighing: Vec<Weighing> = items
        .iter()
        .map(|(item, window)| Weighing {
            item: item.id,
            stock: item.kind() == AssetType::StockAsset,
            // Only an item with units out can have an overdue line of a rented-out order.
            out: item.rented_order.is_some() || item.checked_out_quantity > 0,
            window: *window,
        })
        .collect();
    let reads = holds_reads(company, &weighing, except, tz);
    let together: Vec<&(dyn crate::Statement + Sync)> = reads
        .iter()
        .map(|r| r as &(dyn crate::Statement + Sync))
        .collect();
    let mut reads = tx.read_together(&together).await?;
    let items: Vec<(&Locked, &Weighing)> =
        items.iter().map(|(item, _)| *item).zip(&weighing).collect();
    holds_read(tx, &mut reads, company, &items, tz).await
}

/// An item to weigh, as [`holds_reads`] reads what holds it: known before its lock
/// (an order's line names its item and kind), so the reads can follow the lock in its
/// round trip.
pub(crate) struct Weighing {
    pub item: i64,
    /// Asset stock, whose members' check-outs hold units too.
    pub stock: bool,
    /// Whether it may have units out, so an overdue line of a rented-out order may
    /// hold it past the line's end (`true` when unknown: read more, never less).
    pub out: bool,
    pub window: Window,
}

/// The reads of what holds each of `items` in its window, except the lines of order
/// `except`, in order: [`holds_read`] takes their rows.
pub(crate) fn holds_reads(
    company: CompanyId,
    items: &[Weighing],
    except: Option<i64>,
    tz: chrono_tz::Tz,
) -> Vec<sea_query::SelectStatement> {
    let mut reads = Vec::with_capacity(3 * items.len());
    for weighing in items {
        let (from, to) = weighing.window;
        let (from_day, to_day) = (
            from.with_timezone(&tz).date_naive(),
            to.with_timezone(&tz).date_naive(),
        );
        reads.push(order_holds_read(
            company,
            weighing.item,
            (from, to),
            except,
            weighing.out,
        ));
        reads.push(approved_read(
            company,
            weighing.item,
            from_day,
            Some(to_day),
        ));
        if weighing.stock {
            reads.push(stock_holds_read(company, weighing.item));
        }
    }
    reads
}

/// What holds each of `items` (locked, each with what its reads were made of), from
/// the rows of [`holds_reads`] of those `Weighing`s, in the same order, that `reads`
/// holds next.
pub(crate) async fn holds_read(
    tx: &mut Tx,
    reads: &mut crate::Together,
    company: CompanyId,
    items: &[(&Locked, &Weighing)],
    tz: chrono_tz::Tz,
) -> Result<Vec<Vec<Hold>>, StoreError> {
    let now = crate::now();
    let mut each = Vec::with_capacity(items.len());
    for (_, weighing) in items {
        let mut holds = order_holds(reads.next(tx)?, now);
        holds.extend(reservation_holds(reads.next(tx)?, tz));
        if weighing.stock {
            holds.extend(stock_holds(reads.next(tx)?, now));
        }
        each.push(holds);
    }
    for ((item, weighing), holds) in items.iter().zip(&mut each) {
        let (from, to) = weighing.window;
        held_otherwise(tx, company, item, holds, now).await?;
        holds.retain(|h| h.from <= to && h.to >= from);
        holds.sort_by_key(|h| h.from);
    }
    Ok(each)
}

/// Adds to `holds` what holds `item` without a row of its own to read: its open
/// service, or (a fixed asset) its check-out to a member.
async fn held_otherwise(
    tx: &mut Tx,
    company: CompanyId,
    item: &Locked,
    holds: &mut Vec<Hold>,
    now: DateTime<Utc>,
) -> Result<(), StoreError> {
    if item.state() == ItemState::InService
        && let Some(service) = open_service(tx, company, item.id).await?
    {
        holds.push(Hold {
            from: service.started_at,
            to: service.expected_end_at.unwrap_or_else(open_end),
            units: 1,
            by: Holder::Service {
                id: service.id,
                service_type: service.service_type,
            },
        });
    }
    match item.kind() {
        // Out to a member (out on an order, its line counts it).
        AssetType::FixedAsset
            if item.state() == ItemState::CheckedOut && item.rented_order.is_none() =>
        {
            let member_id = item.assigned_to_id.unwrap_or(0);
            holds.push(Hold {
                from: item.checkout_on.unwrap_or(now),
                to: Ord::max(item.checkin_due_on.unwrap_or_else(open_end), now),
                units: 1,
                by: Holder::Checkout {
                    member_id,
                    member: item_core::holder_name(tx, company, item.assigned_to_id).await?,
                },
            });
        }
        _ => {}
    }
    Ok(())
}

/// Lines of booked and rented-out orders holding item `item` in the period; with
/// `out` (the item has units out), also the overdue lines of rented-out orders, which
/// hold until they are back. Either way they are read from the index of the lines not
/// all back (`order_line_items_open`, migration 0028), so lines returned are not read.
fn order_holds_read(
    company: CompanyId,
    item: i64,
    (from, to): (DateTime<Utc>, DateTime<Utc>),
    except: Option<i64>,
    out: bool,
) -> sea_query::SelectStatement {
    let l = |c: &'static str| ("order_line_items", c);
    // The line's order by its key (`crate::by_key`), not joined: under the item's lock,
    // a join planned without statistics scanned the company's orders for each line.
    let of_order =
        |c: &'static str| crate::by_key("orders", Expr::col(("orders", c)), l("order_id"));
    let rented_out = OrderState::CheckedOut.as_str();
    Query::select()
        .from("order_line_items")
        .columns(["held_from", "held_until", "for_sale", "asset_type"].map(l))
        .expr_as(
            Expr::col(l("quantity")).sub(Expr::col(l("quantity_returned"))),
            "units",
        )
        .expr_as(of_order("sequence_num"), "number")
        .expr_as(of_order("basket_state"), "basket_state")
        .and_where(Expr::col(l("company_id")).eq(company.0))
        .and_where(Expr::col(l("item_id")).eq(item))
        .and_where(Expr::col(l("held_from")).is_not_null())
        .and_where(Expr::col(l("held_from")).lte(to))
        .and_where(Expr::col(l("quantity_returned")).lt(Expr::col(l("quantity"))))
        .cond_where({
            let current = Cond::any().add(Expr::col(l("held_until")).gte(from));
            if out {
                current.add(of_order("basket_state").eq(rented_out))
            } else {
                current
            }
        })
        .and_where(Expr::col(l("order_id")).ne(except.unwrap_or(0)))
        .to_owned()
}

/// A line of [`order_holds_read`].
#[derive(crate::Row)]
struct HeldLine {
    held_from: DateTime<Utc>,
    held_until: DateTime<Utc>,
    units: i64,
    number: i64,
    basket_state: String,
    for_sale: bool,
    asset_type: String,
}

/// The holds of `lines`; a rented-out order's overdue line holds until `now`.
fn order_holds(lines: Vec<HeldLine>, now: DateTime<Utc>) -> Vec<Hold> {
    lines
        .into_iter()
        .map(|line| {
            let state = OrderState::parse(&line.basket_state).unwrap_or(OrderState::Booked);
            let kind = AssetType::parse(&line.asset_type).unwrap_or(AssetType::FixedAsset);
            let selling = domain::order::sold_line(kind, line.for_sale);
            let to = if state == OrderState::CheckedOut {
                Ord::max(line.held_until, now)
            } else {
                line.held_until
            };
            Hold {
                from: line.held_from,
                to,
                units: line.units,
                by: Holder::Order {
                    number: line.number,
                    state,
                    selling,
                },
            }
        })
        .collect()
}

/// An approved reservation and who made it.
#[derive(crate::Row)]
pub(crate) struct Reserved {
    pub(crate) id: i64,
    pub(crate) member_id: i64,
    pub(crate) from_on: chrono::NaiveDate,
    pub(crate) to_on: chrono::NaiveDate,
    pub(crate) quantity: i64,
    pub(crate) member_name: String,
}

/// The open service of an item.
#[derive(crate::Row)]
struct OpenService {
    id: i64,
    service_type: String,
    started_at: DateTime<Utc>,
    expected_end_at: Option<DateTime<Utc>>,
}

/// The open service of item `item`, if any.
async fn open_service(
    tx: &mut Tx,
    company: CompanyId,
    item: i64,
) -> Result<Option<OpenService>, StoreError> {
    let stmt = crate::scoped("item_services", company)
        .columns(["id", "service_type", "started_at", "expected_end_at"])
        .and_where(Expr::col("item_id").eq(item))
        .and_where(Expr::col("completed_at").is_null())
        .to_owned();
    tx.optional(&stmt).await
}

/// The 409 for an action on `item` while it is in service.
pub(crate) async fn in_service(
    tx: &mut Tx,
    company: CompanyId,
    item: &Locked,
) -> Result<StoreError, StoreError> {
    let open = open_service(tx, company, item.id).await?;
    Ok(StoreError::Conflict(Conflict::InService {
        number: item.sequence_num,
        service: open.as_ref().map_or(0, |s| s.id),
        service_type: open.map(|s| s.service_type).unwrap_or_default(),
    }))
}

/// Members' approved reservations of item `item` that share a day with `from..=to`
/// (`to` `None`: without end), earliest first.
pub(crate) async fn approved(
    tx: &mut Tx,
    company: CompanyId,
    item: i64,
    from: chrono::NaiveDate,
    to: Option<chrono::NaiveDate>,
) -> Result<Vec<Reserved>, StoreError> {
    tx.all(&approved_read(company, item, from, to)).await
}

/// The read of [`approved`].
fn approved_read(
    company: CompanyId,
    item: i64,
    from: chrono::NaiveDate,
    to: Option<chrono::NaiveDate>,
) -> sea_query::SelectStatement {
    let mut stmt = Query::select()
        .from("reservation_requests")
        .columns(
            ["id", "member_id", "from_on", "to_on", "quantity"]
                .map(|c| ("reservation_requests", c)),
        )
        .expr_as(
            Expr::cust(r#""members"."first_name" || ' ' || "members"."last_name""#),
            "member_name",
        )
        .inner_join(
            "members",
            Cond::all()
                .add(
                    Expr::col(("members", "company_id"))
                        .equals(("reservation_requests", "company_id")),
                )
                .add(Expr::col(("members", "id")).equals(("reservation_requests", "member_id"))),
        )
        .and_where(Expr::col(("reservation_requests", "company_id")).eq(company.0))
        .and_where(Expr::col(("reservation_requests", "item_id")).eq(item))
        .and_where(
            Expr::col(("reservation_requests", "status"))
                .eq(domain::reservation::ReservationStatus::Approved.as_str()),
        )
        .and_where(Expr::col(("reservation_requests", "to_on")).gte(from))
        .order_by(("reservation_requests", "from_on"), sea_query::Order::Asc)
        .to_owned();
    if let Some(to) = to {
        stmt.and_where(Expr::col(("reservation_requests", "from_on")).lte(to));
    }
    stmt
}

/// The holds of approved reservations (read by [`approved_read`]), each from the start
/// of its first day to the end of its last in the company's time zone `tz`.
fn reservation_holds(approved: Vec<Reserved>, tz: chrono_tz::Tz) -> Vec<Hold> {
    approved
        .into_iter()
        .map(|r| Hold {
            from: start_of_day(r.from_on, tz),
            to: start_of_day(r.to_on + Duration::days(1), tz) - Duration::seconds(1),
            units: r.quantity,
            by: Holder::Reservation {
                id: r.id,
                member_id: r.member_id,
                member: r.member_name,
            },
        })
        .collect()
}

/// The read of asset stock `item`'s units checked out to members (`stock_holds`).
fn stock_holds_read(company: CompanyId, item: i64) -> sea_query::SelectStatement {
    let li = |c: &'static str| ("stock_line_items", c);
    Query::select()
        .from("stock_line_items")
        .columns(
            [
                "id",
                "member_id",
                "checkout_on",
                "checkin_due_on",
                "quantity_out",
            ]
            .map(li),
        )
        .expr_as(
            crate::by_key(
                "members",
                Expr::cust(r#""members"."first_name" || ' ' || "members"."last_name""#),
                li("member_id"),
            ),
            "member_name",
        )
        .and_where(Expr::col(li("company_id")).eq(company.0))
        .and_where(Expr::col(li("item_id")).eq(item))
        .and_where(Expr::col(li("quantity_out")).gt(crate::constant(0)))
        .to_owned()
}

/// A check-out line of [`stock_holds_read`].
#[derive(crate::Row)]
struct StockOut {
    id: i64,
    member_id: i64,
    member_name: String,
    checkout_on: DateTime<Utc>,
    checkin_due_on: Option<DateTime<Utc>>,
    quantity_out: i64,
}

/// The holds of asset stock checked out (`out`), each until its due moment, or `now`
/// when overdue (for good without one).
fn stock_holds(out: Vec<StockOut>, now: DateTime<Utc>) -> Vec<Hold> {
    out.into_iter()
        .map(|o| Hold {
            from: o.checkout_on,
            to: Ord::max(o.checkin_due_on.unwrap_or_else(open_end), now),
            units: o.quantity_out,
            by: Holder::StockCheckout {
                line: o.id,
                member_id: o.member_id,
                member: o.member_name,
            },
        })
        .collect()
}

/// Whether `wanted` more units of `item` fit beside `holds` at every moment of
/// `from..=to`; when not, the 409 naming the first hold in the way at the fullest
/// moment.
pub(crate) fn fit(
    item: &Locked,
    holds: &[Hold],
    (from, to): (DateTime<Utc>, DateTime<Utc>),
    wanted: i64,
    tz: chrono_tz::Tz,
) -> Result<(), StoreError> {
    let claims: Vec<_> = holds.iter().map(|h| (h.from, h.to, h.units)).collect();
    let (promised, at) = peak(&claims, from, to);
    let units = units(item);
    if promised + wanted <= units {
        return Ok(());
    }
    let held = holds
        .iter()
        .find(|h| h.from <= at && at <= h.to)
        .map(|h| Box::new(described(h, tz)));
    Err(StoreError::Conflict(Conflict::Held {
        number: item.sequence_num,
        name: item.name.clone(),
        wanted,
        units,
        promised,
        held,
    }))
}

/// A hold in the company's time zone, its end `None` when it has none.
pub(crate) fn described(hold: &Hold, tz: chrono_tz::Tz) -> Held {
    let local = |t: DateTime<Utc>| t.with_timezone(&tz).naive_local();
    Held {
        by: hold.by.clone(),
        from: local(hold.from),
        until: (hold.to < open_end()).then(|| local(hold.to)),
    }
}
