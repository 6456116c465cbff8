//! The words of the 403, 409 and the store's 422 answers (`domain::refusal`): why a
//! record cannot be changed or deleted, what is wrong with a field, and what to do first.

use domain::Vocabulary;
use domain::availability::{Held, Holder};
use domain::item::AssetType;
use domain::order::OrderState;
use domain::refusal::{
    Conflict, Forbidden, InUse, Listed, Moment, Must, Out, Problem, Record, Users,
};

pub fn forbidden(refusal: Forbidden) -> &'static str {
    match refusal {
        Forbidden::OwnerDetails => "The company owner's details cannot be changed through the API.",
        Forbidden::OwnerDeactivation => "The company owner cannot be deactivated.",
        Forbidden::CreditCardPayment => {
            "Credit card payments can't be charged or voided through the API; use another payment option (GET /payment_options.api)."
        }
    }
}

pub fn in_use(refusal: &InUse) -> String {
    let InUse { record, name, by } = refusal;
    match (record, by) {
        (Record::Group, Users::Subgroups(n)) => {
            format!(
                "Group {name:?} still has {n} subgroup(s); delete them or move their items first."
            )
        }
        (Record::Group, Users::Items(n)) => format!(
            "Group {name:?} still has {n} item(s); move them to another group or delete them first."
        ),
        (Record::Subgroup, Users::Subgroups(n)) => {
            format!("Subgroup {name:?} still has {n} child subgroup(s); delete or move them first.")
        }
        (Record::Subgroup, Users::Items(n)) => format!(
            "Subgroup {name:?} still has {n} item(s); move them to another subgroup or delete them first."
        ),
        (Record::RetireReason, Users::Items(n)) => format!(
            "Retire reason {name:?} is the reason {n} asset(s) were retired; activate them or retire them with another reason first."
        ),
        (Record::CustomRole, Users::Members(n)) => {
            format!(
                "Custom role {name:?} is the role of {n} member(s); give them another role first."
            )
        }
        (Record::Customer | Record::Contact, Users::OpenOrders(n)) => format!(
            "{} {name} has {n} open order(s) (draft, booked, rented out or returned); complete or cancel them first, or mark the {} inactive.",
            title(*record),
            title(*record).to_lowercase()
        ),
        (record, _) => format!("{} {name:?} is still in use.", title(*record)),
    }
}

pub fn conflict(refusal: &Conflict) -> String {
    let date = |d: &chrono::NaiveDate| d.format("%Y-%m-%d").to_string();
    match refusal {
        Conflict::WrongKind {
            number,
            asset_type,
            wanted,
        } => {
            let what = |kind: &AssetType| match kind {
                AssetType::VolatileAsset => ("an inventory item", "/inventory"),
                AssetType::StockAsset => ("an asset stock item", "/stock_assets"),
                AssetType::FixedAsset => ("a fixed asset", "/assets"),
            };
            let (is, path) = what(asset_type);
            let (not, _) = what(wanted);
            format!("Asset #{number} is {is}, not {not}; use the {path} endpoints for it.")
        }
        Conflict::StockReserved {
            number,
            reserved,
            on_hand,
            member,
            from,
            to,
        } => format!(
            "Asset #{number} has {on_hand} unit(s) on hand and {reserved} are reserved for the period by other members (the first: {member}, {from} to {to}); take fewer, or set remove_stock_values[override_conflicting_reservations]=true to remove those reservations."
        ),
        Conflict::StockOverbooked {
            number,
            wanted,
            units,
            reserved,
        } => format!(
            "Asset #{number} has {units} unit(s) and approved reservations already need {reserved} of them on a day of this request, so {wanted} more do not fit; deny another reservation, add stock, or ask for fewer units or other dates."
        ),
        Conflict::OrderFieldsLocked {
            number,
            state,
            fields,
        } => {
            let names: Vec<&str> = fields.iter().map(|f| f.as_str()).collect();
            let open: Vec<&str> = state.changeable().iter().map(|f| f.as_str()).collect();
            format!(
                "Order #{number} is {}; {} can't be changed in that state (it allows {}). Nothing was changed.",
                state.display_name(),
                names.join(", "),
                if open.is_empty() {
                    "no changes".to_owned()
                } else {
                    open.join(", ")
                }
            )
        }
        Conflict::OrderState {
            number,
            state,
            action,
        } => format!(
            "Order #{number} is {}; you can't {action} an order in that state.",
            state.display_name()
        ),
        Conflict::Held {
            number,
            name,
            wanted,
            units,
            promised,
            held,
        } => {
            let by = held.as_deref().map(holder).unwrap_or_default();
            if *units == 1 && *wanted == 1 {
                format!(
                    "Asset #{number} ({name}) is {by}; choose another period, or free it first."
                )
            } else if *promised == 0 {
                format!(
                    "Asset #{number} ({name}) has {units} unit(s), so {wanted} do not fit; ask for fewer, or add stock."
                )
            } else {
                format!(
                    "Asset #{number} ({name}) has {units} unit(s) and {promised} are promised at one moment of that period (the first: {by}), so {wanted} more do not fit; choose another period or fewer units."
                )
            }
        }
        Conflict::OnOrder { number } => format!(
            "Asset #{number} is on an order; take it off the order (or delete the order) first."
        ),
        Conflict::PaymentVoided { number, id } => {
            format!("Payment {id} of order #{number} is voided already.")
        }
        Conflict::RentedOut { number, order } => format!(
            "Asset #{number} is rented out on order #{order}; it comes back with the order's return (/baskets/{order}/checkin.api)."
        ),
        Conflict::StockCheckedOut { number, quantity } => {
            format!(
                "Asset #{number} has {quantity} unit(s) checked out; check them in first (/stock_assets/{number}/get_current_checkouts.api lists them)."
            )
        }
        Conflict::Retired { number } => format!(
            "Asset #{number} is retired; activate it (/assets/{number}/activate.api) first."
        ),
        Conflict::CheckedOut { number, to } => {
            format!("Asset #{number} is checked out to {to}; check it in first.")
        }
        Conflict::NotCheckedOut { number } => {
            format!("Asset #{number} is not checked out (it is available, in service or retired).")
        }
        Conflict::InService {
            number,
            service,
            service_type,
        } => format!(
            "Asset #{number} is in service ({service_type}); complete the service (/assets/{number}/services/{service}/complete.api) first."
        ),
        Conflict::ServiceCompleted { number, service } => {
            format!("Service {service} of asset #{number} was completed already.")
        }
        Conflict::NotRetired { number } => {
            format!("Asset #{number} is not retired; only a retired asset can be activated.")
        }
        Conflict::Reserved {
            number,
            member,
            from,
            to,
            mine,
        } => {
            let flag = if *mine {
                "override_my_conflicting_reservations"
            } else {
                "override_conflicting_reservations"
            };
            format!(
                "Asset #{number} is reserved for {member} from {} to {} (approved); choose another period, or send checkout_values[{flag}]=true to override the reservation.",
                date(from),
                date(to)
            )
        }
        Conflict::ReservationOverlap {
            number,
            other,
            from,
            to,
        } => format!(
            "Asset #{number} is already reserved from {} to {} (approved reservation {other}); deny that one first or choose other dates.",
            date(from),
            date(to)
        ),
        Conflict::ReservationDecided {
            id,
            status,
            decision,
        } => format!(
            "Reservation request {id} is {}; {} applies only to {} requests.",
            status.as_str(),
            decision.as_str(),
            match decision {
                domain::reservation::Decision::Approve => "pending",
                domain::reservation::Decision::Deny => "pending or approved",
            }
        ),
        Conflict::VerificationPending { number } => format!(
            "Asset #{number} already has a pending verification request; wait for the answer or cancel it first."
        ),
        Conflict::NoPendingVerification { number } => {
            format!("Asset #{number} has no pending verification request to cancel.")
        }
        Conflict::WebhookLimit { max } => format!(
            "A company may have at most {max} webhook endpoints; delete one, or subscribe an existing one to more events."
        ),
    }
}

/// Who holds an item and for when: "booked on order #12 from 2026-03-01 10:00 to
/// 2026-03-05 10:00".
fn holder(held: &Held) -> String {
    let who = match &held.by {
        Holder::Order {
            number,
            state,
            selling,
        } => {
            let how = match (selling, state) {
                (true, _) => "to be sold",
                (false, OrderState::CheckedOut) => "rented out",
                (false, _) => "booked",
            };
            format!("{how} on order #{number}")
        }
        Holder::Reservation { id, member, .. } => {
            format!("reserved for {member} (approved reservation {id})")
        }
        Holder::Checkout { member, .. } => format!("checked out to {member}"),
        Holder::StockCheckout { line, member, .. } => {
            format!("checked out to {member} (line item {line})")
        }
        Holder::Service { id, service_type } => {
            format!("in service ({service_type}, service {id})")
        }
    };
    // A whole day's hold (a reservation) reads as days.
    let whole_days = held.from.time() == chrono::NaiveTime::MIN
        && held.until.is_some_and(|u| {
            u.time() == chrono::NaiveTime::from_hms_opt(23, 59, 59).unwrap_or_default()
        });
    let moment = |t: &chrono::NaiveDateTime| {
        if whole_days {
            t.format("%Y-%m-%d").to_string()
        } else {
            t.format("%Y-%m-%d %H:%M").to_string()
        }
    };
    match &held.until {
        Some(until) => format!("{who} from {} to {}", moment(&held.from), moment(until)),
        None => format!("{who} from {} with no end", moment(&held.from)),
    }
}

/// The kind of record as a sentence starts with it.
fn title(record: Record) -> &'static str {
    match record {
        Record::Group => "Group",
        Record::Subgroup => "Subgroup",
        Record::CustomRole => "Custom role",
        Record::Team => "Team",
        Record::RetireReason => "Retire reason",
        Record::Customer => "Customer",
        Record::Contact => "Contact",
    }
}

/// The words of a field problem the store found.
pub fn problem(refusal: &Problem) -> String {
    match refusal {
        Problem::NotInCompany { list, value } => match list {
            Listed::Listings => {
                format!("is not a listing of this company: {value} (GET /listings.api lists them)")
            }
            Listed::ActiveListings => format!(
                "is not an active listing of this company: {value} (GET /listings.api lists them)"
            ),
            Listed::RetireReasons => {
                format!("is not a retire reason of this company: {value} (see /retire_reasons.api)")
            }
            Listed::PaymentOptions => format!(
                "{value} is not a payment option of this company; GET /payment_options.api lists them"
            ),
            Listed::LabelTemplates { template_type } => format!(
                "{value} is not a label template of this company; GET /print_label_templates.api?template_type={template_type} lists them"
            ),
            Listed::CustomFilters { assets_type } => format!(
                "custom_filter_{value} is not a custom filter of {assets_type} in this company (see /custom_filters.api?assets_type={assets_type})"
            ),
        },
        Problem::InactiveMember { id, name } => format!(
            "{name} (member {id}) is inactive; activate the member (/members/{id}/activate.api) first"
        ),
        Problem::NotForSale { items } => format!(
            "are not for sale: {items}; mark them with sale_items_for_drafted_basket.api (with their sale prices) or take them off first"
        ),
        Problem::NeverPriced { number, name } => format!(
            "#{number} ({name}) is inventory that never had a price: add stock with line_item[price] (its latest addition's price is the unit price), give the item a price, or send volatile_assets_values[{number}][price]"
        ),
        Problem::NotOpenCheckouts { number, line_items } => {
            let ids: Vec<String> = line_items.iter().map(i64::to_string).collect();
            format!(
                "are not open check-outs of asset #{number}: {} (see /stock_assets/{number}/get_current_checkouts.api)",
                ids.join(", ")
            )
        }
        Problem::NoBundleItems => {
            "can't be blank: give bundle[items][<asset number>]=<quantity> for each item".into()
        }
        Problem::NoRentalRate { number, name } => format!(
            "#{number} ({name}) has no rental rate: give it one (rental_price_attributes) before renting it out"
        ),
        Problem::CouponsNotValid { day, coupons } => format!(
            "are not valid on {day} (inactive, or outside their valid_from..valid_until): {}",
            coupons.join(", ")
        ),
        Problem::AmbiguousBusiness { name, count } => {
            format!("{name:?} names {count} businesses: give business_id")
        }
        Problem::OtherBusiness { named, given } => {
            format!("names business {named}, not business_id {given}")
        }
        Problem::SeveralBusinesses {
            customer,
            businesses,
        } => format!(
            "can't be blank: customer {customer} is a contact of several businesses ({}); give business_id or business_name",
            businesses.join(", ")
        ),
        Problem::BillingEndsBeforeStart => {
            "must be later than the start of billing (bill_from, or the rent-out moment)".into()
        }
        Problem::NothingToReturn => "names nothing to return: give fixed_asset_ids, stock_asset_with_quantity, subrent_item_ids or bundle_with_quantity".into(),
        Problem::NotOut {
            order,
            what,
            entries,
        } => {
            let entries = entries.join(", ");
            match what {
                Out::FixedAssets => {
                    format!("are not fixed assets out on order #{order}: {entries}")
                }
                Out::SubRentals => format!(
                    "are not sub-rental items out on order #{order}: {entries} (see baskets_sub_rent_items)"
                ),
                Out::StockLine => format!(
                    "{entries} is not a line of asset stock out on order #{order} (see order_line_items)"
                ),
                Out::Bundle => format!("{entries} is not a bundle out on order #{order}"),
            }
        }
        Problem::LateWithoutEnd { items } => format!(
            "can't be blank: {} come(s) back after the due moment with a late fee; give late_due_date (and late_due_time), or use_current_datetime_for_late_return=true, for the moment the fee runs to",
            items.join(", ")
        ),
        Problem::ReservedWhole { number } => {
            format!("asset #{number} is a fixed asset, reserved whole: leave quantity out")
        }
        Problem::OutOfOrder { must, other } => {
            let must = match must {
                Must::BeLater => "must be later than",
                Must::NotBeBefore => "can't be before",
                Must::NotBeAfter => "can't be after",
            };
            let other = match other {
                Moment::ExpectedCheckout => "expected_checkout_date",
                Moment::Due => "due_date",
                Moment::BillFrom => "bill_from",
                Moment::From => "from",
            };
            format!("{must} {other}")
        }
        Problem::Each(problems) => {
            let worded: Vec<String> = problems.iter().map(problem).collect();
            worded.join("; ")
        }
        Problem::Plain(said) => said.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reference_the_delete_did_not_count_is_still_in_use() {
        let refusal = InUse {
            record: Record::RetireReason,
            name: "Damaged".into(),
            by: Users::Records,
        };
        assert_eq!(
            in_use(&refusal),
            "Retire reason \"Damaged\" is still in use."
        );
    }
}
