//! The words of the 403 and 409 answers (`domain::refusal`): why a record cannot be
//! changed or deleted, and what to do first.

use domain::refusal::{Forbidden, InUse, Record, Users};

pub fn forbidden(refusal: Forbidden) -> &'static str {
    match refusal {
        Forbidden::OwnerDetails => "The company owner's details cannot be changed through the API.",
        Forbidden::OwnerDeactivation => "The company owner cannot be deactivated.",
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
