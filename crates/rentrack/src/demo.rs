//! `rentrack demo`: a company with sample catalog data on the embedded database,
//! ready to try.

use domain::item::AssetType;
use domain::stock::{OrderType, Quantity};
use domain::{Change, Name, Plan, Subdomain};
use store::companies::{self, NewCompany};
use store::locations::{self, LocationFields};
use store::{Db, groups, sub_groups, vendors};

use crate::cli::{ServeArgs, open};

const SUBDOMAIN: &str = "demo";

pub async fn run(args: ServeArgs) -> anyhow::Result<()> {
    crate::serve::init_logging();
    store::backup::hold(&args.db.database_url)?;
    let db = open(&args.db).await?;
    let (token, dana, sam) = prepare(&db).await?;
    crate::serve::run(db, args, |base_url| {
        let welcome = format!(
            "\nrentrack demo is running at {base_url}\ntoken: {token}\n\n\
             try:  curl -H 'token: {token}' {base_url}/locations/get_line_item_locations.api\n      \
             curl -H 'token: {token}' {base_url}/assets/classification_view.api\n\n\
             staff pages: set a password and log in as\n      \
             Dana (administrator): {base_url}/staff/invitations/{dana}\n      \
             Sam (staff):          {base_url}/staff/invitations/{sam}\n\n"
        );
        // Not `println!`, which panics when stdout is a pipe already closed.
        let _ = std::io::Write::write_all(&mut std::io::stdout(), welcome.as_bytes());
    })
    .await
}

fn name(s: &str) -> Name {
    Name::parse(s).expect("demo names are valid")
}

/// Creates the demo company the first time, and issues a fresh token and staff
/// invitation links (Dana's and Sam's) every start.
async fn prepare(db: &Db) -> anyhow::Result<(String, String, String)> {
    let company = match companies::find_by_subdomain(db, SUBDOMAIN).await {
        Ok(c) => c,
        Err(store::StoreError::NotFound(_)) => {
            let new = NewCompany {
                name: "Demo Rentals".into(),
                subdomain: Subdomain::parse(SUBDOMAIN).expect("valid"),
                plan: Plan::Unlimited,
                owner_email: Some("owner@demo.rentrack.test".into()),
                owner_password: None,
                enable_api: true,
            };
            let (company, _) = companies::create(db, new).await?;
            seed(db, company.id).await?;
            company
        }
        Err(e) => return Err(e.into()),
    };
    companies::set_api_enabled(db, SUBDOMAIN, true).await?;
    let token = companies::regenerate_token(db, company.id).await?.0;
    let mut links = Vec::new();
    for email in ["dana@demo.rentrack.test", "sam@demo.rentrack.test"] {
        match store::staff::invite(db, company.id, email).await? {
            Ok(invitation) => links.push(invitation.token),
            Err(why) => anyhow::bail!("cannot invite the demo member {email}: {why:?}"),
        }
    }
    let sam = links.pop().unwrap_or_default();
    let dana = links.pop().unwrap_or_default();
    Ok((token, dana, sam))
}

async fn seed(db: &Db, company: store::CompanyId) -> anyhow::Result<()> {
    let city = |c: &str| LocationFields {
        city: Change::Set(c.into()),
        country: Change::Set("US".into()),
        ..Default::default()
    };
    let warehouse = locations::create(db, company, name("Main Warehouse"), city("Denver")).await?;
    locations::create(
        db,
        company,
        name("Aisle A"),
        LocationFields {
            parent_id: Change::Set(store::Id::new(warehouse.id)),
            ..city("Denver")
        },
    )
    .await?;
    locations::create(
        db,
        company,
        name("Aisle B"),
        LocationFields {
            parent_id: Change::Set(store::Id::new(warehouse.id)),
            ..city("Denver")
        },
    )
    .await?;
    locations::create(db, company, name("Downtown Shop"), city("Boulder")).await?;
    let mut group_ids = Vec::new();
    for (group_name, subs) in [
        ("Cameras", &["Cinema", "Mirrorless"][..]),
        ("Lighting", &["LED Panels", "Tungsten"]),
        ("Audio", &["Microphones"]),
    ] {
        let input = groups::GroupInput {
            name: name(group_name),
            description: Change::Keep,
            mode: None,
            rates: None,
        };
        let group = groups::create(db, company, input).await?;
        group_ids.push(group.id);
        for sub in subs {
            let input = sub_groups::SubGroupInput {
                name: name(sub),
                description: Change::Keep,
                parent_id: Change::Keep,
            };
            sub_groups::create(db, company, store::Id::new(group.id), input).await?;
        }
    }
    for (asset, group, daily) in [
        ("Canon EOS R5", group_ids[0], Some(4500)),
        ("Sony FX6", group_ids[0], Some(12000)),
        ("Aputure 600d", group_ids[1], None),
        ("Shure SM7B", group_ids[2], Some(1500)),
    ] {
        let input = store::items::AssetInput {
            name: Some(name(asset)),
            group_id: Some(store::Id::new(group)),
            purchased_on: chrono::NaiveDate::from_ymd_opt(2026, 1, 15),
            location_id: Change::Set(store::Id::new(warehouse.id)),
            rates: store::items::Rates {
                daily: daily.map_or(Change::Keep, Change::Set),
                ..Default::default()
            },
            ..Default::default()
        };
        let today = store::items::Today(chrono::Utc::now().date_naive());
        store::items::create(db, company, AssetType::FixedAsset, input, today).await?;
    }
    // Stock to try the movements on: batteries are sold, cables lent out and back.
    for (item, kind, group, units, price) in [
        (
            "AA Batteries (4-pack)",
            AssetType::VolatileAsset,
            group_ids[1],
            40,
            599,
        ),
        (
            "XLR Cable 10m",
            AssetType::StockAsset,
            group_ids[2],
            25,
            1899,
        ),
    ] {
        // Batteries sell at their price with an order; cables rent by the day.
        let (price_set, rates) = match kind {
            AssetType::VolatileAsset => (Change::Set(price), store::items::Rates::default()),
            _ => (
                Change::Keep,
                store::items::Rates {
                    daily: Change::Set(250),
                    ..Default::default()
                },
            ),
        };
        let input = store::items::AssetInput {
            name: Some(name(item)),
            group_id: Some(store::Id::new(group)),
            location_id: Change::Set(store::Id::new(warehouse.id)),
            price: price_set,
            rates,
            ..Default::default()
        };
        let today = store::items::Today(chrono::Utc::now().date_naive());
        let created = store::items::create(db, company, kind, input, today).await?;
        let movement = store::stock::Movement {
            order_type: OrderType::AddStock,
            quantity: Quantity::new(units).map_err(|p| anyhow::anyhow!(p))?,
            price: Some(price),
            location: None,
            comments: Some("Opening stock".into()),
            values: Default::default(),
            member: None,
            override_conflicting: false,
        };
        store::stock::order(
            db,
            company,
            kind,
            store::Number::new(created.item.sequence_num),
            movement,
            &store::items::Clock::new(chrono::Utc::now(), chrono_tz::UTC),
        )
        .await?;
    }
    for (vendor, email) in [
        ("Acme Camera Supply", "sales@acme.test"),
        ("Bright Lights Inc", "orders@bright.test"),
    ] {
        let input = vendors::VendorInput {
            email: Change::Set(email.into()),
            ..Default::default()
        };
        vendors::create(db, company, name(vendor), input).await?;
    }
    seed_people(db, company).await
}

async fn seed_people(db: &Db, company: store::CompanyId) -> anyhow::Result<()> {
    use domain::custom_field::{FieldType, Target, Targets};
    use domain::member::Role;
    use store::{custom_fields, members, reference_data};
    let crew = reference_data::create(
        db,
        company,
        reference_data::Kind::Team,
        "Field Crew".into(),
        Change::Keep,
    )
    .await?;
    let tech = reference_data::create(
        db,
        company,
        reference_data::Kind::CustomRole,
        "Technician".into(),
        Change::Keep,
    )
    .await?;
    reference_data::create(
        db,
        company,
        reference_data::Kind::RetireReason,
        "Damaged beyond repair".into(),
        Change::Keep,
    )
    .await?;
    let badge = custom_fields::create(
        db,
        company,
        custom_fields::FieldInput {
            name: Some("Badge Number".into()),
            field_type: Some(FieldType::Number),
            applies_to: Targets::new([Target::Members]),
            options: None,
        },
    )
    .await?;
    let mut first_member = None;
    for (first, last, email, role, badge_number) in [
        (
            "Dana",
            "Lopez",
            "dana@demo.rentrack.test",
            Role::Administrator,
            "101",
        ),
        (
            "Sam",
            "Okafor",
            "sam@demo.rentrack.test",
            Role::Staff,
            "102",
        ),
        (
            "Kim",
            "Tanaka",
            "kim@demo.rentrack.test",
            Role::Custom(tech.id),
            "103",
        ),
    ] {
        let input = members::MemberInput {
            email: Change::Set(email.into()),
            first_name: Some(first.into()),
            last_name: Some(last.into()),
            role: Some(role),
            team_ids: Some(vec![store::Id::new(crew.id)]),
            custom_attributes: [(store::Id::new(badge.id), Change::Set(badge_number.into()))]
                .into(),
            ..Default::default()
        };
        let member = members::create(db, company, input).await?;
        first_member.get_or_insert(member.member.id);
    }
    if let Some(member) = first_member {
        let input = store::addresses::AddressInput {
            street1: Some("400 Market St".into()),
            ..Default::default()
        };
        store::addresses::create(
            db,
            company,
            store::addresses::Owner::Member(store::Id::new(member)),
            input,
        )
        .await?;
    }
    seed_customers(db, company).await
}

/// Customers, a business with a contact, and an address for each kind of owner.
async fn seed_customers(db: &Db, company: store::CompanyId) -> anyhow::Result<()> {
    use store::addresses::{self, AddressInput, Owner};
    use store::businesses::{self, BusinessInput};
    use store::ids::kind;
    use store::persons::{self, PersonInput};
    let person = |first: &str, last: &str, email: &str| PersonInput {
        first_name: Change::Set(first.into()),
        last_name: Some(last.into()),
        email: Change::Set(email.into()),
        ..Default::default()
    };
    let street = |street: &str| AddressInput {
        street1: Some(street.into()),
        ..Default::default()
    };
    let ada = persons::create::<kind::Customer>(
        db,
        company,
        person("Ada", "Lovelace", "ada@example.com"),
    )
    .await?;
    persons::create::<kind::Customer>(db, company, person("Grace", "Hopper", "grace@example.com"))
        .await?;
    addresses::create(
        db,
        company,
        Owner::Customer(store::Id::new(ada.person.id)),
        street("12 Analytical Row"),
    )
    .await?;
    let business = businesses::create(
        db,
        company,
        BusinessInput {
            name: Some("Northwind Film".into()),
            ..Default::default()
        },
    )
    .await?;
    let contact = PersonInput {
        business_ids: Some(vec![store::Id::new(business.id)]),
        ..person("Bob", "Builder", "bob@northwind.test")
    };
    persons::create::<kind::Contact>(db, company, contact).await?;
    addresses::create(
        db,
        company,
        Owner::Business(store::Id::new(business.id)),
        street("1 Dock Rd"),
    )
    .await?;
    Ok(())
}
