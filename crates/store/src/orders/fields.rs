//! The order's own fields: what a create or an update carries, where each one is
//! written, what they must refer to, and what the state lets an update change.

use crate::CompanyId;
use crate::ids::{Id, Number, kind};
use chrono::{DateTime, Utc};
use domain::order::{OrderField, OrderState};
use domain::pricing::{Ceiling, Percent};
use domain::refusal::Conflict;
use domain::refusal::{Listed, Moment, Must, Problem};
use domain::{Change, Vocabulary};
use sea_query::{Expr, ExprTrait, Query};
use serde_json::json;

use super::lines::{Additions, add_in};
use super::priced::{OrderView, reprice};
use super::{Order, lock};
use crate::custom_fields::merge_values;
use crate::{Assignments, Db, StoreError, Tx, change_log, counters, now};
use counters::Sequence;

/// The fields of an order a create or an update carries.
#[derive(Debug, Clone, Default)]
pub struct OrderInput {
    /// Required on create.
    pub customer_id: Option<Id<kind::Customer>>,
    pub business_id: Change<Id<kind::Business>>,
    /// The business by name (`business_name`); turned into `business_id` in the
    /// write's transaction (`choose_business`).
    pub business_name: Option<String>,
    pub description: Change<String>,
    pub identification_number: Change<String>,
    pub invoice_heading: Change<String>,
    pub expected_checkout_at: Change<DateTime<Utc>>,
    pub due_at: Change<DateTime<Utc>>,
    pub bill_from: Change<DateTime<Utc>>,
    pub bill_to: Change<DateTime<Utc>>,
    pub location_id: Change<Id<kind::Location>>,
    pub pick_up_location_id: Change<Id<kind::Location>>,
    pub shipping_address_id: Change<Id<kind::Address>>,
    pub pick_up_address_id: Change<Id<kind::Address>>,
    pub location_for_delivery: Option<bool>,
    pub location_for_pickup: Option<bool>,
    pub order_discount: Option<Percent>,
    pub assigned_to_id: Change<Id<kind::Member>>,
    pub user_listing_name: Change<String>,
    pub custom_attributes: crate::custom_fields::FieldValues,
}

impl OrderInput {
    /// The attributes this input changes, for the state's table.
    pub fn fields(&self) -> Vec<OrderField> {
        use OrderField as F;
        let OrderInput {
            customer_id,
            business_id,
            business_name,
            description,
            identification_number,
            invoice_heading,
            expected_checkout_at,
            due_at,
            bill_from,
            bill_to,
            location_id,
            pick_up_location_id,
            shipping_address_id,
            pick_up_address_id,
            location_for_delivery,
            location_for_pickup,
            order_discount,
            assigned_to_id,
            user_listing_name,
            custom_attributes,
        } = self;
        let sent = |c: bool, f: OrderField| c.then_some(f);
        let keeps = |c: &Change<_>| !matches!(c, Change::Keep);
        [
            sent(customer_id.is_some(), F::CustomerId),
            sent(
                !matches!(business_id, Change::Keep) || business_name.is_some(),
                F::Business,
            ),
            sent(keeps(description), F::Description),
            sent(keeps(identification_number), F::IdentificationNumber),
            sent(keeps(invoice_heading), F::InvoiceHeading),
            sent(
                !matches!(expected_checkout_at, Change::Keep),
                F::ExpectedCheckoutDate,
            ),
            sent(!matches!(due_at, Change::Keep), F::DueDate),
            sent(!matches!(bill_from, Change::Keep), F::BillFrom),
            sent(!matches!(bill_to, Change::Keep), F::BillTo),
            sent(!matches!(location_id, Change::Keep), F::LocationId),
            sent(
                !matches!(pick_up_location_id, Change::Keep),
                F::PickUpLocationId,
            ),
            sent(
                !matches!(shipping_address_id, Change::Keep),
                F::ShippingAddressId,
            ),
            sent(
                !matches!(pick_up_address_id, Change::Keep),
                F::PickUpAddressId,
            ),
            sent(
                location_for_delivery.is_some() || location_for_pickup.is_some(),
                F::Delivery,
            ),
            sent(order_discount.is_some(), F::OrderDiscount),
            sent(!matches!(assigned_to_id, Change::Keep), F::AssignedToId),
            sent(keeps(user_listing_name), F::UserListingName),
            sent(!custom_attributes.is_empty(), F::CustomAttributes),
        ]
        .into_iter()
        .flatten()
        .collect()
    }
}

/// Writes the fields of `input`: the one place a field meets its column.
fn assign(row: &mut Assignments, input: &OrderInput) {
    let OrderInput {
        customer_id,
        business_id,
        // Turned into business_id by choose_business.
        business_name: _,
        description,
        identification_number,
        invoice_heading,
        expected_checkout_at,
        due_at,
        bill_from,
        bill_to,
        location_id,
        pick_up_location_id,
        shipping_address_id,
        pick_up_address_id,
        location_for_delivery,
        location_for_pickup,
        order_discount,
        assigned_to_id,
        user_listing_name,
        // Merged with the stored values by the caller.
        custom_attributes: _,
    } = input;
    row.given("customer_id", customer_id)
        .change("business_id", business_id)
        .change("description", description)
        .change("identification_number", identification_number)
        .change("invoice_heading", invoice_heading)
        .change("expected_checkout_at", expected_checkout_at)
        .change("due_at", due_at)
        .change("bill_from", bill_from)
        .change("bill_to", bill_to)
        .change("location_id", location_id)
        .change("pick_up_location_id", pick_up_location_id)
        .change("shipping_address_id", shipping_address_id)
        .change("pick_up_address_id", pick_up_address_id)
        .given("location_for_delivery", location_for_delivery)
        .given("location_for_pickup", location_for_pickup)
        .given("order_discount", &order_discount.map(Percent::hundredths))
        .change("assigned_to_id", assigned_to_id)
        .change("user_listing_name", user_listing_name);
}

/// The moment `change` leaves, given what is stored.
fn after<T: Clone>(change: &Change<T>, stored: Option<T>) -> Option<T> {
    match change {
        Change::Keep => stored,
        Change::Set(v) => Some(v.clone()),
        Change::Clear => None,
    }
}

fn add(errors: &mut crate::FieldErrors, field: &str, problem: impl Into<Problem>) {
    errors.entry(field.into()).or_default().push(problem.into());
}

/// Sets the business of an order whose input names one by `business_name`, or whose
/// customer (new, or changed by an update) is a contact of businesses: a contact of
/// one business orders for it; a contact of several must say which (`business_id` or
/// `business_name`), as the spec requires; a customer who is no business's contact
/// leaves the order without one. Names are matched exactly (after trimming).
async fn choose_business(
    tx: &mut Tx,
    company: CompanyId,
    input: &mut OrderInput,
    before: Option<&Order>,
) -> Result<(), StoreError> {
    let by_contact = matches!(input.business_id, Change::Keep) && input.customer_id.is_some();
    if input.business_name.is_none() && !by_contact {
        return Ok(());
    }
    let customer = input
        .customer_id
        .or_else(|| before.and_then(|b| b.customer_id).map(Id::new));
    let of_customer = match customer {
        Some(c) => {
            let stmt = Query::select()
                .from("business_contacts")
                .expr_as(Expr::col(("businesses", "id")), "id")
                .expr_as(Expr::col(("businesses", "name")), "name")
                .inner_join(
                    "businesses",
                    sea_query::Cond::all()
                        .add(
                            Expr::col(("businesses", "company_id"))
                                .equals(("business_contacts", "company_id")),
                        )
                        .add(
                            Expr::col(("businesses", "id"))
                                .equals(("business_contacts", "business_id")),
                        ),
                )
                .and_where(Expr::col(("business_contacts", "company_id")).eq(company.0))
                .and_where(Expr::col(("business_contacts", "contact_id")).eq(c))
                .order_by(("businesses", "id"), sea_query::Order::Asc)
                .to_owned();
            tx.all::<(i64, String)>(&stmt).await?
        }
        None => Vec::new(),
    };
    if let Some(name) = input.business_name.take() {
        let stmt = crate::scoped("businesses", company)
            .column("id")
            .and_where(Expr::col("name").eq(name.as_str()))
            .order_by("id", sea_query::Order::Asc)
            .to_owned();
        let named: Vec<i64> = tx
            .all::<(i64,)>(&stmt)
            .await?
            .into_iter()
            .map(|r| r.0)
            .collect();
        let theirs: Vec<i64> = named
            .iter()
            .copied()
            .filter(|id| of_customer.iter().any(|b| b.0 == *id))
            .collect();
        let id = match (named.as_slice(), theirs.as_slice()) {
            ([], _) => {
                return Err(StoreError::invalid(
                    "business_name",
                    format!("is not the name of a business of this company: {name:?}"),
                ));
            }
            ([one], _) | (_, [one]) => *one,
            _ => {
                return Err(StoreError::invalid(
                    "business_name",
                    Problem::AmbiguousBusiness {
                        name: name.clone(),
                        count: named.len(),
                    },
                ));
            }
        };
        if let Change::Set(given) = input.business_id
            && given != Id::new(id)
        {
            return Err(StoreError::invalid(
                "business_name",
                Problem::OtherBusiness {
                    named: id,
                    given: given.get(),
                },
            ));
        }
        input.business_id = Change::Set(Id::new(id));
        return Ok(());
    }
    match of_customer.as_slice() {
        [] if before.is_some_and(|b| b.business_id.is_some()) => {
            input.business_id = Change::Clear;
        }
        [] => {}
        [(one, _)] => input.business_id = Change::Set(Id::new(*one)),
        several => {
            let names: Vec<String> = several
                .iter()
                .map(|(id, name)| format!("{name} ({id})"))
                .collect();
            let problem = Problem::SeveralBusinesses {
                customer: customer.map_or(0, Id::get),
                businesses: names,
            };
            let mut errors = crate::FieldErrors::new();
            add(&mut errors, "business_id", problem.clone());
            add(&mut errors, "business_name", problem);
            return Err(StoreError::Invalid(errors));
        }
    }
    Ok(())
}

/// Whether address `id` is one of the customer's, or of the order's business (a
/// business order may ship to its business's addresses,
/// `/businesses/<id>/shipping_addresses.api`).
async fn address_of(
    tx: &mut Tx,
    company: CompanyId,
    id: Id<kind::Address>,
    customer: Option<Id<kind::Customer>>,
    business: Option<Id<kind::Business>>,
) -> Result<bool, StoreError> {
    let owners = [
        ("customer_addresses", "customer_id", customer.map(Id::get)),
        ("business_addresses", "business_id", business.map(Id::get)),
    ];
    for (table, owner, of) in owners {
        let Some(of) = of else { continue };
        let stmt = crate::scoped(table, company)
            .column("id")
            .and_where(Expr::col("id").eq(id))
            .and_where(Expr::col(owner).eq(of))
            .to_owned();
        if tx.optional::<(i64,)>(&stmt).await?.is_some() {
            return Ok(true);
        }
    }
    Ok(false)
}

/// Checks what `input` refers to and the order of its moments, against `before` (an
/// update) or nothing (a create); every problem at once.
async fn check(
    tx: &mut Tx,
    company: CompanyId,
    input: &OrderInput,
    before: Option<&Order>,
) -> Result<(), StoreError> {
    let mut errors = crate::FieldErrors::new();
    let customer = input
        .customer_id
        .or_else(|| before.and_then(|b| b.customer_id).map(Id::new));
    if let Some(id) = input.customer_id {
        let stmt = crate::scoped("persons", company)
            .column("id")
            .and_where(Expr::col("id").eq(id))
            .and_where(Expr::col("deleted_at").is_null())
            .to_owned();
        if tx.optional::<(i64,)>(&stmt).await?.is_none() {
            add(
                &mut errors,
                "customer_id",
                format!("is not a customer or business contact of this company: {id}"),
            );
        }
    }
    let business = after(
        &input.business_id,
        before.and_then(|b| b.business_id).map(Id::new),
    );
    if let Change::Set(b) = input.business_id {
        if !crate::has(tx, "businesses", company, b).await? {
            add(
                &mut errors,
                "business_id",
                format!("is not a business of this company: {b}"),
            );
        } else if let Some(c) = customer {
            let stmt = crate::scoped("business_contacts", company)
                .column("contact_id")
                .and_where(Expr::col("business_id").eq(b))
                .and_where(Expr::col("contact_id").eq(c))
                .to_owned();
            if tx.optional::<(i64,)>(&stmt).await?.is_none() {
                add(
                    &mut errors,
                    "business_id",
                    format!("customer {c} is not a contact of business {b}"),
                );
            }
        }
    }
    for (field, change) in [
        ("location_id", &input.location_id),
        ("pick_up_location_id", &input.pick_up_location_id),
    ] {
        if let Change::Set(l) = change
            && !crate::has(tx, "locations", company, *l).await?
        {
            add(
                &mut errors,
                field,
                format!("is not a location of this company: {l}"),
            );
        }
    }
    for (field, change) in [
        ("shipping_address_id", &input.shipping_address_id),
        ("pick_up_address_id", &input.pick_up_address_id),
    ] {
        if let Change::Set(a) = change
            && !address_of(tx, company, *a, customer, business).await?
        {
            add(
                &mut errors,
                field,
                match business {
                    Some(b) => format!(
                        "is not an address of the order's customer or of its business {b}: {a}"
                    ),
                    None => format!("is not an address of the order's customer: {a}"),
                },
            );
        }
    }
    if let Change::Set(name) = &input.user_listing_name
        && !crate::listings::is_active_name(tx, company, name).await?
    {
        add(
            &mut errors,
            "user_listing_name",
            Problem::NotInCompany {
                list: Listed::ActiveListings,
                value: format!("{name:?}"),
            },
        );
    }
    if let Change::Set(m) = input.assigned_to_id
        && !crate::has(tx, "members", company, m).await?
    {
        add(
            &mut errors,
            "assigned_to_id",
            format!("is not a member of this company: {m}"),
        );
    }
    let from = after(
        &input.expected_checkout_at,
        before.and_then(|b| b.expected_checkout_at),
    );
    let due = after(&input.due_at, before.and_then(|b| b.due_at));
    let bill_from = after(&input.bill_from, before.and_then(|b| b.bill_from));
    let bill_to = after(&input.bill_to, before.and_then(|b| b.bill_to));
    if let (Some(f), Some(d)) = (from, due)
        && d <= f
    {
        add(
            &mut errors,
            "due_date",
            Problem::OutOfOrder {
                must: Must::BeLater,
                other: Moment::ExpectedCheckout,
            },
        );
    }
    if let (Some(f), Some(b)) = (from, bill_from)
        && b < f
    {
        add(
            &mut errors,
            "bill_from",
            Problem::OutOfOrder {
                must: Must::NotBeBefore,
                other: Moment::ExpectedCheckout,
            },
        );
    }
    if let (Some(d), Some(b)) = (due, bill_to)
        && b > d
    {
        add(
            &mut errors,
            "bill_to",
            Problem::OutOfOrder {
                must: Must::NotBeAfter,
                other: Moment::Due,
            },
        );
    }
    if let (Some(f), Some(t)) = (bill_from, bill_to)
        && t <= f
    {
        add(
            &mut errors,
            "bill_to",
            Problem::OutOfOrder {
                must: Must::BeLater,
                other: Moment::BillFrom,
            },
        );
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(StoreError::Invalid(errors))
    }
}

/// Creates a draft order, with `additions` on it.
#[tracing::instrument(level = "debug", skip_all)]
pub async fn create(
    db: &Db,
    company: CompanyId,
    mut input: OrderInput,
    additions: Additions,
) -> Result<OrderView, StoreError> {
    let mut tx = db.begin().await?;
    choose_business(&mut tx, company, &mut input, None).await?;
    check(&mut tx, company, &input, None).await?;
    let number = counters::next(&mut tx, company, Sequence::Orders).await?;
    let at = now();
    let mut row = Assignments::insert();
    row.set("company_id", company.0)
        .set("sequence_num", number)
        .set("basket_state", OrderState::Drafted.as_str())
        .set(
            "custom_attributes",
            merge_values("{}", &input.custom_attributes),
        )
        .set("created_at", at)
        .set("updated_at", at);
    assign(&mut row, &input);
    let (id,): (i64,) = tx
        .one(
            &row.into_insert("orders")
                .returning(Query::returning().column("id"))
                .to_owned(),
        )
        .await?;
    change_log::record(
        &mut tx,
        company,
        "order",
        id,
        "created",
        json!({"sequence_num": number, "basket_state": OrderState::Drafted.as_str(), "customer_id": input.customer_id}),
    )
    .await?;
    if !additions.is_empty() {
        add_in(&mut tx, company, id, &additions).await?;
    }
    let view = reprice(&mut tx, company, id, Ceiling::refuse()).await?;
    tx.commit().await?;
    Ok(view)
}

/// Changes what the order's state allows; any other attribute sent is a 409 naming
/// them, and nothing changes.
#[tracing::instrument(level = "debug", skip_all)]
pub async fn update(
    db: &Db,
    company: CompanyId,
    number: Number<kind::Order>,
    mut input: OrderInput,
    tz: chrono_tz::Tz,
) -> Result<OrderView, StoreError> {
    let mut tx = db.begin().await?;
    let before = lock(&mut tx, company, number).await?;
    let state = before.state();
    let locked: Vec<OrderField> = input
        .fields()
        .into_iter()
        .filter(|f| !state.changeable().contains(f))
        .collect();
    if !locked.is_empty() {
        return Err(StoreError::Conflict(Conflict::OrderFieldsLocked {
            number: number.get(),
            state,
            fields: locked,
        }));
    }
    choose_business(&mut tx, company, &mut input, Some(&before)).await?;
    check(&mut tx, company, &input, Some(&before)).await?;
    // A rented-out order kept longer must still have its items for the longer period.
    if let (OrderState::CheckedOut, Change::Set(due)) = (state, &input.due_at) {
        let from = before
            .checked_out_on
            .or(before.expected_checkout_at)
            .unwrap_or_else(now);
        if *due <= now() || *due <= from {
            return Err(StoreError::invalid(
                "due_date",
                "must be later than now and than the rent-out: the items are still out",
            ));
        }
        let lines = super::lines::lines_of(&mut tx, company, before.id).await?;
        let period = (from, *due);
        super::booking::lock_and_promise(&mut tx, company, &before, &lines, period, tz).await?;
        super::rent_out::keep_until(&mut tx, company, before.id, (from, *due)).await?;
    }
    // Only words, places and people: an order past the ceiling can still be described.
    let ceiling = if input.fields().into_iter().any(OrderField::prices) {
        Ceiling::refuse()
    } else {
        Ceiling::clamp()
    };
    let mut row = Assignments::update();
    assign(&mut row, &input);
    if !input.custom_attributes.is_empty() {
        row.set(
            "custom_attributes",
            merge_values(&before.custom_attributes, &input.custom_attributes),
        );
    }
    let fields = row.columns();
    tx.execute(&row.into_update("orders", company, before.id))
        .await?;
    change_log::record(
        &mut tx,
        company,
        "order",
        before.id,
        "updated",
        json!({"fields": fields}),
    )
    .await?;
    let view = reprice(&mut tx, company, before.id, ceiling).await?;
    tx.commit().await?;
    Ok(view)
}
