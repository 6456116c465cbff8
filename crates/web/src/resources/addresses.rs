//! Addresses of members (`/users/{id}/shipping_addresses...`), customers
//! (`/customers/{id}/shipping_addresses...`) and businesses
//! (`/businesses/{id}/shipping_addresses...`, with a default billing address too).

use axum::extract::State;
use domain::{Change, PageSize};
use serde::Serialize;
use store::addresses::{self, Address, AddressInput, AddressType, Owner};

use crate::api::{Api, Doc, Methods, get};
use crate::auth::Tenant;
use crate::error::ApiError;
use crate::form::Form;
use crate::ids::{Id, Under, kind};
use crate::input::{
    Coordinate, Country, Email, Input, PageQuery, RecordId, Scalar, ShortText, read_top_level,
};
use crate::params::Params;
use crate::state::AppState;
use crate::views::{self, Moment, moment};

/// Whose addresses a route family serves.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Family {
    Member,
    Customer,
    Business,
}

impl Family {
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

    /// The family's own fields, and top-level parameters, in the document of its
    /// writes.
    fn document(self, doc: Doc) -> Doc {
        match self {
            Family::Member => doc,
            Family::Customer => doc
                .input::<CustomerExtras>()
                .input::<CustomerAddressQuery>(),
            Family::Business => doc.input::<BusinessExtras>(),
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
fn family<O: crate::ids::Kind, V: utoipa::ToSchema>(api: Api, f: Family) -> Api
where
    Owner: From<store::Id<O>>,
{
    let list_route: Methods = get(
        move |s: State<AppState>, t: Tenant, Under(o): Under<O>, q: Params| {
            list(f, s, t, o.into(), q)
        },
    )
    .post(
        move |s: State<AppState>, t: Tenant, Under(o): Under<O>, q: Params| {
            create(f, s, t, o.into(), q)
        },
    );
    let one_route: Methods = get(
        move |s: State<AppState>, t: Tenant, Under(o): Under<O>, Id(id): Id<kind::Address>| {
            details(f, s, t, o.into(), id)
        },
    )
    .put_or_patch(
        move |s: State<AppState>,
              t: Tenant,
              Under(o): Under<O>,
              Id(id): Id<kind::Address>,
              q: Params| { update(f, s, t, o.into(), id, q) },
    );
    let default_route = get(move |s: State<AppState>, t: Tenant, Under(o): Under<O>| {
        default_address(f, None, s, t, o.into())
    });
    let default_summary = if f == Family::Business {
        "The default shipping address (404 when none)"
    } else {
        "The default address (404 when none)"
    };
    let api = api
        .route(
            f.base(),
            list_route,
            f.document(
                Doc::new(
                    f.tag(),
                    "List addresses, 25 a page (GET), or add one (POST)",
                )
                .input::<NewAddress>(),
            )
            .input::<NewAddressQuery>()
            .params::<PageQuery>()
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
            f.document(
                Doc::new(f.tag(), "One address (GET) or update (PUT or PATCH)")
                    .input::<AddressChanges>(),
            )
            .input::<AddressQuery>()
            .returns("shipping_address")
            .record::<V>(),
        );
    if f == Family::Business {
        let billing = get(move |s: State<AppState>, t: Tenant, Under(o): Under<O>| {
            default_address(f, Some(AddressType::Billing), s, t, o.into())
        });
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

/// A business address's type.
struct TypeWord;

impl Scalar for TypeWord {
    type Value = AddressType;

    fn parse(raw: &str) -> Result<AddressType, String> {
        AddressType::parse(raw).ok_or_else(|| format!("must be one of {}", AddressType::NAMES))
    }

    fn schema() -> serde_json::Value {
        serde_json::json!({"type": "string", "enum": ["shipping", "billing", "other"]})
    }
}

/// What an address's create and update both take.
#[derive(Input)]
#[input(resource = "shipping_address")]
struct AddressFields {
    /// The address's own name.
    name: Change<String>,
    street2: Change<String>,
    /// A rentrack addition.
    city: Change<String>,
    /// Kept as given.
    state: Change<String>,
    zipcode: Change<String>,
    /// Two-letter ISO 3166-1 code, any case; stored upper-case.
    #[input(format = Country)]
    country: Change<String>,
    /// The longitude, from -180 to 180.
    #[input(format = Coordinate<180>)]
    longi: Change<String>,
    /// The latitude, from -90 to 90.
    #[input(format = Coordinate<90>)]
    lati: Change<String>,
    #[input(format = Email)]
    email: Change<String>,
    phone_number: Change<String>,
    /// true by default.
    active: Option<bool>,
    /// true makes this the owner's only default address (of its type, for a
    /// business); a member's first address becomes the default. Also read at the top
    /// level (default_address=true).
    default_address: Option<bool>,
}

/// A new address.
#[derive(Input)]
#[input(resource = "shipping_address")]
struct NewAddress {
    /// The street address, at most 255 characters.
    #[input(format = ShortText)]
    street1: String,
    #[input(flatten)]
    fields: AddressFields,
}

/// An address's changes: what is left out is kept.
#[derive(Input)]
#[input(resource = "shipping_address")]
struct AddressChanges {
    /// The street address, at most 255 characters; it cannot be cleared.
    #[input(format = ShortText)]
    street1: Option<String>,
    #[input(flatten)]
    fields: AddressFields,
}

/// A customer address's own field.
#[derive(Input)]
#[input(resource = "shipping_address")]
struct CustomerExtras {
    /// A billing address (meaningful with credit card payments); false by default.
    /// Also read at the top level.
    billing_address: Option<bool>,
}

/// A business address's own fields.
#[derive(Input)]
#[input(resource = "shipping_address")]
struct BusinessExtras {
    /// shipping (the default), billing or other; each type has its own default
    /// address.
    #[input(format = TypeWord)]
    address_type: Option<AddressType>,
    /// The point of contact: a contact of this business; `null` or 0 clears.
    #[input(format = RecordId)]
    contact_id: Change<i64>,
}

/// The top-level parameters of an address's create.
#[derive(Input)]
struct NewAddressQuery {
    /// As shipping_address[default_address], which wins when both are sent.
    default_address: Option<bool>,
    /// The member who records the address.
    #[input(format = RecordId)]
    created_by_id: Option<i64>,
}

/// The top-level parameters of an address's update.
#[derive(Input)]
struct AddressQuery {
    /// As shipping_address[default_address], which wins when both are sent.
    default_address: Option<bool>,
}

/// The top-level parameters of a customer address's writes.
#[derive(Input)]
struct CustomerAddressQuery {
    /// As shipping_address[billing_address], which wins when both are sent.
    billing_address: Option<bool>,
}

/// A family's own fields: `billing_address`, `address_type` and `contact_id`.
type Extras = (Option<bool>, Option<AddressType>, Change<i64>);

fn read_extras(f: Family, form: &mut Form<'_>) -> Option<Extras> {
    match f {
        Family::Member => Some((None, None, Change::Keep)),
        Family::Customer => {
            let own = CustomerExtras::read(form);
            let top = read_top_level::<CustomerAddressQuery>(form);
            let (own, top) = own.zip(top)?;
            Some((
                own.billing_address.or(top.billing_address),
                None,
                Change::Keep,
            ))
        }
        Family::Business => {
            BusinessExtras::read(form).map(|b| (None, b.address_type, b.contact_id))
        }
    }
}

fn read_input(f: Family, params: &Params, creating: bool) -> Result<AddressInput, ApiError> {
    let mut form = Form::new(params, "shipping_address");
    let own = if creating {
        NewAddress::read(&mut form).map(|n| (Some(n.street1), n.fields))
    } else {
        AddressChanges::read(&mut form).map(|c| (c.street1, c.fields))
    };
    let extras = read_extras(f, &mut form);
    let top = if creating {
        read_top_level::<NewAddressQuery>(&mut form).map(|q| (q.default_address, q.created_by_id))
    } else {
        read_top_level::<AddressQuery>(&mut form).map(|q| (q.default_address, None))
    };
    let ((street1, fields), ((billing_address, address_type, contact_id), top)) =
        form.finish_with(own.zip(extras.zip(top)))?;
    let (default_address, created_by_id) = top;
    Ok(AddressInput {
        street1,
        name: fields.name,
        street2: fields.street2,
        city: fields.city,
        state: fields.state,
        zipcode: fields.zipcode,
        country: fields.country,
        longi: fields.longi,
        lati: fields.lati,
        email: fields.email,
        phone_number: fields.phone_number,
        active: fields.active,
        default_address: fields.default_address.or(default_address),
        created_by_id,
        billing_address,
        address_type,
        contact_id,
    })
}

async fn list(
    f: Family,
    State(state): State<AppState>,
    Tenant(company): Tenant,
    owner: Owner,
    params: Params,
) -> Result<views::Reply, ApiError> {
    let page = PageQuery::parse(&params)?.page(PageSize::DEFAULT);
    let records = addresses::list(state.db(), company.id, owner, page).await?;
    Ok(views::paged("shipping_addresses", page, &records, |a| {
        render(f, a, company.time_zone)
    }))
}

async fn create(
    f: Family,
    State(state): State<AppState>,
    Tenant(company): Tenant,
    owner: Owner,
    params: Params,
) -> Result<views::Reply, ApiError> {
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
    owner: Owner,
) -> Result<views::Reply, ApiError> {
    let address_type = address_type.or((f == Family::Business).then_some(AddressType::Shipping));
    let address = addresses::default_address(state.db(), company.id, owner, address_type)
        .await
        .map_err(|e| match e {
            store::StoreError::NotFound(store::ids::Kind::DefaultAddress) => {
                ApiError::NotFound(format!(
                    "There is no default {}address here (or no such {} in this company).",
                    address_type
                        .map(|t| format!("{} ", t.as_str()))
                        .unwrap_or_default(),
                    match f {
                        Family::Member => "member",
                        Family::Customer => "customer",
                        Family::Business => "business",
                    }
                ))
            }
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
    owner: Owner,
    id: store::Id<kind::Address>,
) -> Result<views::Reply, ApiError> {
    let address = addresses::find(state.db(), company.id, owner, id).await?;
    Ok(views::one(
        "shipping_address",
        render(f, &address, company.time_zone),
    ))
}

async fn update(
    f: Family,
    State(state): State<AppState>,
    Tenant(company): Tenant,
    owner: Owner,
    id: store::Id<kind::Address>,
    params: Params,
) -> Result<views::Reply, ApiError> {
    let input = read_input(f, &params, false)?;
    let address = addresses::update(state.db(), company.id, owner, id, input).await?;
    Ok(views::one(
        "shipping_address",
        render(f, &address, company.time_zone),
    ))
}
