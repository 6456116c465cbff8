//! Addresses of members (`/users/{id}/shipping_addresses...`), customers
//! (`/customers/{id}/shipping_addresses...`) and businesses
//! (`/businesses/{id}/shipping_addresses...`, with a default billing address too).

use axum::extract::State;
use domain::{Change, PageSize};
use rust_decimal::Decimal;
use serde::Serialize;
use std::str::FromStr;
use store::addresses::{self, Address, AddressInput, AddressType, Owner};

use crate::api::{Api, Doc, Methods, get};
use crate::auth::Tenant;
use crate::error::ApiError;
use crate::form::{Form, parse_id};
use crate::ids::{Id, Under, kind};
use crate::params::Params;
use crate::state::AppState;
use crate::views::{self, Moment, moment};

const FIELDS: &[(&str, &str)] = &[
    ("name", "text"),
    ("street1", "required on create"),
    ("street2", "text"),
    ("city", "text (a rentrack addition)"),
    ("state", "text, kept as given"),
    ("zipcode", "text"),
    ("country", "two-letter code (ISO 3166-1 alpha-2)"),
    ("longi", "longitude, -180 to 180"),
    ("lati", "latitude, -90 to 90"),
    ("email", "e-mail address"),
    ("phone_number", "text"),
    ("active", "boolean, default true"),
];

const EXTRA: &[(&str, &str)] = &[
    (
        "default_address",
        "boolean: true makes this the member's only default address (a member's first address becomes the default)",
    ),
    (
        "created_by_id",
        "id of the member who records the address (on create)",
    ),
];

/// Whose addresses a route family serves.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Family {
    Member,
    Customer,
    Business,
}

impl Family {
    fn owner(self, id: i64) -> Owner {
        match self {
            Family::Member => Owner::Member(id),
            Family::Customer => Owner::Customer(id),
            Family::Business => Owner::Business(id),
        }
    }

    fn base(self) -> &'static str {
        match self {
            Family::Member => "/users/{owner_id}/shipping_addresses",
            Family::Customer => "/customers/{owner_id}/shipping_addresses",
            Family::Business => "/businesses/{owner_id}/shipping_addresses",
        }
    }

    fn tag(self) -> &'static str {
        match self {
            Family::Member => "Member addresses",
            Family::Customer => "Customer addresses",
            Family::Business => "Business addresses",
        }
    }

    fn extra(self) -> &'static [(&'static str, &'static str)] {
        match self {
            Family::Member => &[],
            Family::Customer => &[(
                "billing_address",
                "boolean: a billing address (meaningful with credit card payments), default false",
            )],
            Family::Business => &[
                (
                    "address_type",
                    "shipping (default), billing or other; each type has its own default address",
                ),
                (
                    "contact_id",
                    "the point of contact: a contact of this business; null clears",
                ),
            ],
        }
    }
}

pub fn routes(api: Api) -> Api {
    let api = family::<kind::Member, MemberAddressJson<'_>>(api, Family::Member);
    let api = family::<kind::Customer, CustomerAddressJson<'_>>(api, Family::Customer);
    family::<kind::Business, BusinessAddressJson<'_>>(api, Family::Business)
}

/// The routes of `f`, whose owners are `O`s (named in the 404 of a bad owner id) and
/// whose addresses are written as `V`.
fn family<O: crate::ids::Kind, V: utoipa::ToSchema>(api: Api, f: Family) -> Api {
    let fields: Vec<(&str, &str)> = FIELDS.iter().chain(f.extra()).copied().collect();
    let list_route: Methods = get(
        move |s: State<AppState>, t: Tenant, Under(o, _): Under<O>, q: Params| list(f, s, t, o, q),
    )
    .post(
        move |s: State<AppState>, t: Tenant, Under(o, _): Under<O>, q: Params| {
            create(f, s, t, o, q)
        },
    );
    let one_route: Methods = get(
        move |s: State<AppState>,
              t: Tenant,
              Under(o, _): Under<O>,
              Id(id, _): Id<kind::Address>| { details(f, s, t, o, id) },
    )
    .put_or_patch(
        move |s: State<AppState>,
              t: Tenant,
              Under(o, _): Under<O>,
              Id(id, _): Id<kind::Address>,
              q: Params| { update(f, s, t, o, id, q) },
    );
    let default_route = get(
        move |s: State<AppState>, t: Tenant, Under(o, _): Under<O>| {
            default_address(f, None, s, t, o)
        },
    );
    let default_summary = if f == Family::Business {
        "The default shipping address (404 when none)"
    } else {
        "The default address (404 when none)"
    };
    let api = api
        .route(
            f.base(),
            list_route,
            Doc::new(
                f.tag(),
                "List addresses, 25 a page (GET), or add one (POST)",
            )
            .form("shipping_address", &fields)
            .query(EXTRA)
            .query(&[("page", "page number, default 1")])
            .returns_page("shipping_addresses")
            .returns("shipping_address")
            .record::<V>(),
        )
        .route(
            &format!("{}/default_address", f.base()),
            default_route,
            Doc::new(f.tag(), default_summary)
                .returns("shipping_address")
                .record::<V>(),
        )
        .route(
            &format!("{}/{{id}}", f.base()),
            one_route,
            Doc::new(f.tag(), "One address (GET) or update (PUT or PATCH)")
                .form("shipping_address", &fields)
                .query(EXTRA)
                .returns("shipping_address")
                .record::<V>(),
        );
    if f == Family::Business {
        let billing = get(
            move |s: State<AppState>, t: Tenant, Under(o, _): Under<O>| {
                default_address(f, Some(AddressType::Billing), s, t, o)
            },
        );
        api.route(
            &format!("{}/default_billing_address", f.base()),
            billing,
            Doc::new(f.tag(), "The default billing address (404 when none)")
                .returns("shipping_address")
                .record::<V>(),
        )
    } else {
        api
    }
}

/// The view of each family's addresses: the fields all addresses share, then the
/// family's own (`$field: $type = $value`, `a` being the address), and `new`, which
/// renders an address.
macro_rules! address_view {
    ($(#[$doc:meta])* $view:ident as $name:ident {
        $($(#[$meta:meta])* $field:ident: $type:ty = |$a:ident| $value:expr,)*
    }) => {
        $(#[$doc])*
        #[derive(Serialize, utoipa::ToSchema)]
        #[schema(as = $name)]
        pub struct $view<'a> {
            id: i64,
            name: &'a Option<String>,
            street1: &'a str,
            street2: &'a Option<String>,
            city: &'a Option<String>,
            state: &'a Option<String>,
            zipcode: &'a Option<String>,
            /// Two-letter ISO 3166-1 alpha-2 code, upper-case.
            country: &'a Option<String>,
            /// The longitude, a decimal from -180 to 180, as text.
            #[schema(value_type = Option<String>, pattern = r"^-?\d+(\.\d+)?$")]
            longi: &'a Option<String>,
            /// The latitude, a decimal from -90 to 90, as text.
            #[schema(value_type = Option<String>, pattern = r"^-?\d+(\.\d+)?$")]
            lati: &'a Option<String>,
            email: &'a Option<String>,
            phone_number: &'a Option<String>,
            active: bool,
            /// Whether this is the owner's default address (of its type, for a business).
            default_address: bool,
            /// The member who recorded the address, when one was named.
            created_by_id: Option<i64>,
            created_at: Moment,
            updated_at: Moment,
            $($(#[$meta])* $field: $type,)*
        }

        impl<'a> $view<'a> {
            fn new(a: &'a Address, tz: chrono_tz::Tz) -> Self {
                $(let $field = { let $a = a; $value };)*
                $view {
                    id: a.id,
                    name: &a.name,
                    street1: &a.street1,
                    street2: &a.street2,
                    city: &a.city,
                    state: &a.state,
                    zipcode: &a.zipcode,
                    country: &a.country,
                    longi: &a.longi,
                    lati: &a.lati,
                    email: &a.email,
                    phone_number: &a.phone_number,
                    active: a.active,
                    default_address: a.is_default,
                    created_by_id: a.created_by_id,
                    created_at: moment(a.created_at, tz),
                    updated_at: moment(a.updated_at, tz),
                    $($field,)*
                }
            }
        }
    };
}

address_view!(
    /// A member's address as the contract shows it.
    MemberAddressJson as MemberAddress {
        /// The member.
        user_id: i64 = |a| a.owner_id,
    }
);

address_view!(
    /// A customer's address as the contract shows it.
    CustomerAddressJson as CustomerAddress {
        /// The customer.
        customer_id: i64 = |a| a.owner_id,
        /// Whether it is a billing address.
        billing_address: bool = |a| a.billing_address.unwrap_or(false),
    }
);

address_view!(
    /// A business's address as the contract shows it.
    BusinessAddressJson as BusinessAddress {
        /// The business.
        business_id: i64 = |a| a.owner_id,
        /// Each type has its own default address.
        #[schema(value_type = String, pattern = "^(shipping|billing|other)$")]
        address_type: &'a str = |a| a.address_type.as_deref().unwrap_or("shipping"),
        /// The point of contact: a contact of the business.
        contact_id: Option<i64> = |a| a.contact_id,
    }
);

/// An address of any family, written as its family's view.
#[derive(Serialize)]
#[serde(untagged)]
enum AddressJson<'a> {
    Member(MemberAddressJson<'a>),
    Customer(CustomerAddressJson<'a>),
    Business(BusinessAddressJson<'a>),
}

fn render(f: Family, a: &Address, tz: chrono_tz::Tz) -> AddressJson<'_> {
    match f {
        Family::Member => AddressJson::Member(MemberAddressJson::new(a, tz)),
        Family::Customer => AddressJson::Customer(CustomerAddressJson::new(a, tz)),
        Family::Business => AddressJson::Business(BusinessAddressJson::new(a, tz)),
    }
}

/// A coordinate in `[-limit, limit]`, stored as the decimal text given (normalised).
fn coordinate(form: &mut Form<'_>, field: &str, limit: i64) -> Change<String> {
    match form.text(field) {
        Change::Set(raw) => match Decimal::from_str(&raw) {
            Ok(d) if d.abs() <= Decimal::from(limit) => Change::Set(d.normalize().to_string()),
            _ => {
                form.error(field, format!("must be a number from -{limit} to {limit}"));
                Change::Keep
            }
        },
        other => other,
    }
}

fn read_input(f: Family, params: &Params, creating: bool) -> Result<AddressInput, ApiError> {
    let mut form = Form::new(params, "shipping_address");
    let street1 = if creating {
        form.required_text("street1")
    } else {
        form.optional_required_text("street1")
    };
    let name = form.text("name");
    let street2 = form.text("street2");
    let city = form.text("city");
    let state = form.text("state");
    let zipcode = form.text("zipcode");
    let country = form.country("country");
    let longi = coordinate(&mut form, "longi", 180);
    let lati = coordinate(&mut form, "lati", 90);
    let email = form.email("email");
    let phone_number = form.text("phone_number");
    let active = form.boolean("active");
    let default_address = form
        .boolean("default_address")
        .or_else(|| top_level_bool(&mut form, "default_address"));
    let created_by_id = match params.get("created_by_id") {
        Some(raw) if creating => {
            let id = parse_id(raw);
            if id.is_none() {
                form.error(
                    "created_by_id",
                    "must be a member id (a positive whole number)",
                );
            }
            id
        }
        _ => None,
    };
    let billing_address = if f == Family::Customer {
        form.boolean("billing_address")
            .or_else(|| top_level_bool(&mut form, "billing_address"))
    } else {
        None
    };
    let (address_type, contact_id) = if f == Family::Business {
        let address_type = params
            .get("shipping_address[address_type]")
            .and_then(|raw| {
                let parsed = AddressType::parse(raw);
                if parsed.is_none() {
                    form.error(
                        "address_type",
                        format!("must be one of {}", AddressType::NAMES),
                    );
                }
                parsed
            });
        (address_type, form.id("contact_id"))
    } else {
        (None, Change::Keep)
    };
    form.finish()?;
    Ok(AddressInput {
        street1,
        name,
        street2,
        city,
        state,
        zipcode,
        country,
        longi,
        lati,
        email,
        phone_number,
        active,
        default_address,
        created_by_id,
        billing_address,
        address_type,
        contact_id,
    })
}

/// A boolean sent at the top level (`default_address=true`) rather than inside
/// `shipping_address[...]`.
fn top_level_bool(form: &mut Form<'_>, name: &str) -> Option<bool> {
    let raw = form.params().get(name)?;
    let parsed = domain::wire::parse_bool(raw);
    if parsed.is_none() {
        form.error(name, "must be true or false");
    }
    parsed
}

async fn list(
    f: Family,
    State(state): State<AppState>,
    Tenant(company): Tenant,
    owner: i64,
    params: Params,
) -> Result<views::Reply, ApiError> {
    let owner = f.owner(owner);
    let page = views::page(&params, PageSize::DEFAULT)?;
    let records = addresses::list(state.db(), company.id, owner, page).await?;
    Ok(views::paged("shipping_addresses", page, &records, |a| {
        render(f, a, company.time_zone)
    }))
}

async fn create(
    f: Family,
    State(state): State<AppState>,
    Tenant(company): Tenant,
    owner: i64,
    params: Params,
) -> Result<views::Reply, ApiError> {
    let owner = f.owner(owner);
    let input = read_input(f, &params, true)?;
    let address = addresses::create(state.db(), company.id, owner, input).await?;
    Ok(views::one(
        "shipping_address",
        render(f, &address, company.time_zone),
    ))
}

async fn default_address(
    f: Family,
    address_type: Option<AddressType>,
    State(state): State<AppState>,
    Tenant(company): Tenant,
    owner: i64,
) -> Result<views::Reply, ApiError> {
    let owner = f.owner(owner);
    let address_type = address_type.or((f == Family::Business).then_some(AddressType::Shipping));
    let address = addresses::default_address(state.db(), company.id, owner, address_type)
        .await
        .map_err(|e| match e {
            store::StoreError::NotFound => ApiError::NotFound(format!(
                "There is no default {}address here (or no such {} in this company).",
                address_type
                    .map(|t| format!("{} ", t.as_str()))
                    .unwrap_or_default(),
                match f {
                    Family::Member => "member",
                    Family::Customer => "customer",
                    Family::Business => "business",
                }
            )),
            other => other.into(),
        })?;
    Ok(views::one(
        "shipping_address",
        render(f, &address, company.time_zone),
    ))
}

async fn details(
    f: Family,
    State(state): State<AppState>,
    Tenant(company): Tenant,
    owner: i64,
    id: i64,
) -> Result<views::Reply, ApiError> {
    let address = addresses::find(state.db(), company.id, f.owner(owner), id).await?;
    Ok(views::one(
        "shipping_address",
        render(f, &address, company.time_zone),
    ))
}

async fn update(
    f: Family,
    State(state): State<AppState>,
    Tenant(company): Tenant,
    owner: i64,
    id: i64,
    params: Params,
) -> Result<views::Reply, ApiError> {
    let owner = f.owner(owner);
    let input = read_input(f, &params, false)?;
    let address = addresses::update(state.db(), company.id, owner, id, input).await?;
    Ok(views::one(
        "shipping_address",
        render(f, &address, company.time_zone),
    ))
}
