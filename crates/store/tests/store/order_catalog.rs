//! The store functions rental orders will call on the catalog they pick from (no HTTP
//! endpoint uses them yet): `coupons::for_order` with `valid_on` and `to_pricing`,
//! `group_taxes::for_order`, `custom_taxes::for_order` and `payment_options::by_name`;
//! and the payment options migration 0012 gives companies made before it. Each runs on
//! SQLite and on PostgreSQL in a schema of its own (`both!`).

use chrono::NaiveDate;
use domain::coupon::ValueType;
use domain::money::Money;
use domain::payment::PaymentKind;
use domain::pricing::{CouponEffect, CouponValue, Percent, TaxRate};
use domain::{Change, Name, Page, PageSize, Plan, Subdomain};
use store::CompanyId;
use store::companies::{self, NewCompany};
use store::coupons::{self, CouponInput};
use store::{Db, Id, Sql, StoreError, custom_taxes, group_taxes, payment_options};

use crate::unique;

use crate::url;

both!(
    coupons_for_an_order_come_in_the_order_asked_and_price_as_stored,
    coupon_writes_check_the_value_and_days_they_leave,
    taxes_for_an_order_sum_a_group_exactly,
    payment_options_are_found_by_name_whatever_its_case,
    the_migration_gives_existing_companies_their_payment_options,
);

pub(crate) async fn company(db: &Db) -> CompanyId {
    let subdomain = unique("co");
    let (company, _) = companies::create(
        db,
        NewCompany {
            name: subdomain.clone(),
            subdomain: Subdomain::parse(&subdomain).unwrap(),
            plan: Plan::Unlimited,
            owner_email: None,
            owner_password: None,
            enable_api: false,
        },
    )
    .await
    .unwrap();
    company.id
}

fn name(n: &str) -> Name {
    Name::parse_required(n).unwrap()
}

fn day(s: &str) -> NaiveDate {
    s.parse().unwrap()
}

/// The problems of a 422, by field.
fn invalid(e: StoreError) -> Vec<(String, Vec<String>)> {
    match e {
        StoreError::Invalid(errors) => errors
            .into_iter()
            .map(|(field, problems)| {
                let said = problems
                    .into_iter()
                    .map(|p| match p {
                        domain::refusal::Problem::Plain(said) => said,
                        other => panic!("not a plain problem: {other:?}"),
                    })
                    .collect();
                let store::Field::Named(field) = field else {
                    panic!("not a named field: {field:?}");
                };
                (field, said)
            })
            .collect(),
        other => panic!("not a 422: {other:?}"),
    }
}

async fn coupons_for_an_order_come_in_the_order_asked_and_price_as_stored(url: String) {
    {
        let db = Db::connect(&url).await.unwrap();
        db.migrate().await.unwrap();
        let (ours, theirs) = (company(&db).await, company(&db).await);
        let spring = coupons::create(
            &db,
            ours,
            name("Spring"),
            CouponInput {
                value_type: Some(ValueType::Flat),
                value: Some(1250),
                valid_from: Change::Set(day("2026-03-01")),
                valid_until: Change::Set(day("2026-03-31")),
                ..Default::default()
            },
        )
        .await
        .unwrap();
        let rush = coupons::create(
            &db,
            ours,
            name("Rush"),
            CouponInput {
                value_type: Some(ValueType::Percent),
                value: Some(750),
                effect: Some(CouponEffect::Surcharge),
                active: Some(false),
                ..Default::default()
            },
        )
        .await
        .unwrap();
        let other = coupons::create(
            &db,
            theirs,
            name("Theirs"),
            CouponInput {
                value_type: Some(ValueType::Flat),
                value: Some(100),
                ..Default::default()
            },
        )
        .await
        .unwrap();

        let mut tx = db.begin().await.unwrap();
        let found = coupons::for_order(&mut tx, ours, &Id::each([rush.id, spring.id, rush.id]))
            .await
            .unwrap();
        assert_eq!(found, vec![rush.clone(), spring.clone()], "{url}");
        assert!(
            coupons::for_order(&mut tx, ours, &[])
                .await
                .unwrap()
                .is_empty()
        );
        let refused = coupons::for_order(&mut tx, ours, &Id::each([spring.id, 999_999, other.id]))
            .await
            .unwrap_err();
        assert_eq!(
            invalid(refused),
            vec![(
                "coupon_ids".to_owned(),
                vec![format!("has no coupon with id 999999, {}", other.id)]
            )]
        );
        drop(tx);

        let spring_pricing = spring.to_pricing();
        assert_eq!(spring_pricing.id, spring.id);
        assert_eq!(spring_pricing.name, "Spring");
        assert_eq!(
            spring_pricing.value,
            CouponValue::Flat(Money::from_minor(1250))
        );
        assert_eq!(spring_pricing.effect, CouponEffect::Discount);
        let rush_pricing = rush.to_pricing();
        assert_eq!(
            rush_pricing.value,
            CouponValue::Percent(Percent::parse("7.5").unwrap())
        );
        assert_eq!(rush_pricing.effect, CouponEffect::Surcharge);

        // Both days count; an inactive coupon is valid on no day.
        assert!(!spring.valid_on(day("2026-02-28")));
        assert!(spring.valid_on(day("2026-03-01")));
        assert!(spring.valid_on(day("2026-03-31")));
        assert!(!spring.valid_on(day("2026-04-01")));
        assert!(!rush.valid_on(day("2026-03-15")));
        assert!(other.valid_on(day("1970-01-01")), "no days: any day");
        db.close();
    }
}

async fn coupon_writes_check_the_value_and_days_they_leave(url: String) {
    {
        let db = Db::connect(&url).await.unwrap();
        db.migrate().await.unwrap();
        let ours = company(&db).await;
        let blank = coupons::create(&db, ours, name("Blank"), CouponInput::default())
            .await
            .unwrap_err();
        assert_eq!(
            invalid(blank),
            vec![
                ("value".to_owned(), vec!["can't be blank".to_owned()]),
                ("value_type".to_owned(), vec!["can't be blank".to_owned()]),
            ]
        );
        let big = coupons::create(
            &db,
            ours,
            name("Big"),
            CouponInput {
                value_type: Some(ValueType::Flat),
                value: Some(15_000),
                valid_from: Change::Set(day("2026-06-10")),
                ..Default::default()
            },
        )
        .await
        .unwrap();
        let to_percent = CouponInput {
            value_type: Some(ValueType::Percent),
            valid_until: Change::Set(day("2026-06-09")),
            ..Default::default()
        };
        let refused = coupons::update(&db, ours, Id::new(big.id), to_percent)
            .await
            .unwrap_err();
        let fields: Vec<String> = invalid(refused).into_iter().map(|(f, _)| f).collect();
        assert_eq!(fields, ["valid_until", "value"]);
        assert_eq!(
            coupons::find(&db, ours, Id::new(big.id)).await.unwrap(),
            big
        );
        let missing = coupons::update(&db, ours, Id::new(999_999), CouponInput::default()).await;
        assert!(matches!(
            missing,
            Err(StoreError::NotFound(store::ids::Kind::Coupon))
        ));
        db.close();
    }
}

async fn taxes_for_an_order_sum_a_group_exactly(url: String) {
    {
        let db = Db::connect(&url).await.unwrap();
        db.migrate().await.unwrap();
        let (ours, theirs) = (company(&db).await, company(&db).await);
        let state = custom_taxes::create(&db, ours, name("State"), 88_750)
            .await
            .unwrap();
        let county = custom_taxes::create(&db, ours, name("County"), 11_250)
            .await
            .unwrap();
        let foreign = custom_taxes::create(&db, theirs, name("Foreign"), 50_000)
            .await
            .unwrap();
        let metro = group_taxes::create(&db, ours, name("Metro"), &Id::each([county.id, state.id]))
            .await
            .unwrap();
        let solo = group_taxes::create(&db, ours, name("Solo"), &Id::each([county.id]))
            .await
            .unwrap();
        let refused =
            group_taxes::create(&db, ours, name("Bad"), &Id::each([state.id, foreign.id]))
                .await
                .unwrap_err();
        assert_eq!(
            invalid(refused),
            vec![(
                "custom_tax_ids".to_owned(),
                vec![format!("has no custom tax with id {}", foreign.id)]
            )]
        );

        let mut tx = db.begin().await.unwrap();
        let groups = group_taxes::for_order(&mut tx, ours, &Id::each([solo.id, metro.id]))
            .await
            .unwrap();
        assert_eq!(groups, vec![solo.clone(), metro.clone()], "{url}");
        assert_eq!(metro.rate_ppm(), 100_000, "8.875 % + 1.125 %");
        assert_eq!(
            metro.components.iter().map(|c| c.id).collect::<Vec<_>>(),
            [state.id, county.id]
        );
        let tax = metro.to_pricing();
        assert_eq!((tax.id, tax.name.as_str()), (metro.id, "Metro"));
        assert_eq!(tax.rate, TaxRate::parse("10").unwrap());
        assert_eq!(tax.rate.to_string(), "10");
        let refused = group_taxes::for_order(&mut tx, ours, &Id::each([metro.id, 999_999]))
            .await
            .unwrap_err();
        assert_eq!(
            invalid(refused),
            vec![(
                "group_tax_id".to_owned(),
                vec!["has no group tax with id 999999".to_owned()]
            )]
        );

        let taxes = custom_taxes::for_order(&mut tx, ours, &Id::each([county.id, state.id]))
            .await
            .unwrap();
        assert_eq!(
            taxes.iter().map(|t| t.id).collect::<Vec<_>>(),
            [county.id, state.id]
        );
        assert_eq!(taxes[1].to_pricing().rate, TaxRate::parse("8.875").unwrap());
        let refused = custom_taxes::for_order(&mut tx, ours, &Id::each([foreign.id]))
            .await
            .unwrap_err();
        assert_eq!(
            invalid(refused),
            vec![(
                "custom_tax_id".to_owned(),
                vec![format!("has no custom tax with id {}", foreign.id)]
            )]
        );
        drop(tx);
        db.close();
    }
}

async fn payment_options_are_found_by_name_whatever_its_case(url: String) {
    {
        let db = Db::connect(&url).await.unwrap();
        db.migrate().await.unwrap();
        let (ours, theirs) = (company(&db).await, company(&db).await);
        payment_options::create(&db, theirs, name("Venmo"), PaymentKind::Other)
            .await
            .unwrap();
        let mut tx = db.begin().await.unwrap();
        let card = payment_options::by_name(&mut tx, ours, "  credit CARD ")
            .await
            .unwrap();
        assert_eq!(
            (card.name.as_str(), card.kind),
            ("Credit Card", PaymentKind::CreditCard)
        );
        let cash = payment_options::by_name(&mut tx, ours, "cash")
            .await
            .unwrap();
        assert_eq!(cash.kind, PaymentKind::Cash);
        let refused = payment_options::by_name(&mut tx, ours, "Venmo")
            .await
            .unwrap_err();
        let StoreError::Invalid(problems) = refused else {
            panic!("not a 422: {refused:?}");
        };
        assert_eq!(
            problems[&store::Field::from("payment_method_name")],
            [domain::refusal::Problem::NotInCompany {
                list: domain::refusal::Listed::PaymentOptions,
                value: "\"Venmo\"".into(),
            }]
        );
        drop(tx);
        db.close();
    }
}

/// Companies made before migration 0012 get Cash, Check and Credit Card from it,
/// counted in their list's total.
async fn the_migration_gives_existing_companies_their_payment_options(url: String) {
    {
        let insert = Sql {
            text: "INSERT INTO companies (name, subdomain, plan, created_at, updated_at) \
                   VALUES ('Old', 'old', 'trial', '2024-01-02T03:04:05+00:00', '2024-01-02T03:04:05+00:00')",
            values: sea_query::Values(Vec::new()),
        };
        let before = Db::connect(&url).await.unwrap();
        before.migrate_until(Some(11)).await.unwrap();
        before.read().execute(&insert).await.unwrap();
        before.close();
        let db = Db::connect(&url).await.unwrap();
        db.migrate().await.unwrap();
        let old = companies::find_by_subdomain(&db, "old").await.unwrap();
        let page = payment_options::list(&db, old.id, Page::new(1, PageSize::DEFAULT))
            .await
            .unwrap();
        let options: Vec<(&str, PaymentKind)> = page
            .records
            .iter()
            .map(|o| (o.name.as_str(), o.kind))
            .collect();
        assert_eq!(
            options,
            [
                ("Cash", PaymentKind::Cash),
                ("Check", PaymentKind::Check),
                ("Credit Card", PaymentKind::CreditCard)
            ],
            "{url}"
        );
        assert_eq!(page.total, 3);
        assert_eq!(
            page.records[0].created_at.to_rfc3339(),
            "2024-01-02T03:04:05+00:00",
            "dated as the company"
        );
        let mut tx = db.begin().await.unwrap();
        let check = payment_options::by_name(&mut tx, old.id, "CHECK")
            .await
            .unwrap();
        assert_eq!(check.kind, PaymentKind::Check);
        drop(tx);
        db.close();
    }
}
