//! The words of the 403 and 409 answers (`domain::refusal`): why a record cannot be
//! changed or deleted, and what to do first.

use domain::Vocabulary;
use domain::item::AssetType;
use domain::refusal::{Conflict, Forbidden, InUse, Record, Users};

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
        Conflict::NotAvailable {
            number,
            name,
            wanted,
            units,
            promised,
        } => {
            if *units == 1 && *wanted == 1 {
                format!(
                    "Asset #{number} ({name}) is taken for part of this period (booked, rented out, reserved or checked out); choose other dates or take it off the order."
                )
            } else {
                format!(
                    "Asset #{number} ({name}) has {units} unit(s) and {promised} are promised for part of this period, so {wanted} more do not fit; choose other dates or fewer units."
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
        Conflict::PromisedDuring { number, name } => format!(
            "Asset #{number} ({name}) is promised for part of that period (booked or rented out on an order, reserved or checked out); give the service an expected end before then, or free the asset first."
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
