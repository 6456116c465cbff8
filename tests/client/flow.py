"""A real flow through the client openapi-python-client generated from /openapi.json.

Run by tests/client/run.sh, with the generated package `rentrack_client` on PYTHONPATH
and RENTRACK_URL and RENTRACK_TOKEN set. Every call goes through the generated function
and model types; every answer is parsed by them (an answer the document does not
describe fails here), and the records are read back and compared.
"""

import datetime
import os
import sys

from rentrack_client import AuthenticatedClient
from rentrack_client.api.check_out_and_check_in import (
    put_assets_sequence_num_checkin_api,
    put_assets_sequence_num_checkout_api,
)
from rentrack_client.api.customers import get_customers_id_api, post_customers_api
from rentrack_client.api.fixed_assets import get_assets_sequence_num_api, post_assets_api
from rentrack_client.api.groups import get_groups_id_api, post_groups_api
from rentrack_client.api.locations import get_locations_id_api, post_locations_api
from rentrack_client.api.members import get_members_id_api, post_members_api
from rentrack_client.api.orders import (
    get_baskets_sequence_num_api,
    post_baskets_api,
    put_baskets_sequence_num_checkin_api,
    put_baskets_sequence_num_checkout_api,
    put_baskets_sequence_num_reservation_api,
    put_baskets_sequence_num_update_basket_from_show_api,
)
from rentrack_client.models import (
    Error,
    PostAssetsApiJsonBody,
    PostAssetsApiJsonBodyFixedAsset,
    PostAssetsApiJsonBodyFixedAssetRentalPriceAttributes,
    PostBasketsApiJsonBody,
    PostBasketsApiJsonBodyBasket,
    PostCustomersApiJsonBody,
    PostCustomersApiJsonBodyCustomer,
    PostGroupsApiJsonBody,
    PostGroupsApiJsonBodyGroup,
    PostLocationsApiJsonBody,
    PostLocationsApiJsonBodyLocation,
    PostMembersApiJsonBody,
    PostMembersApiJsonBodyUser,
    PutAssetsSequenceNumCheckinApiJsonBody,
    PutAssetsSequenceNumCheckinApiJsonBodyCheckinValues,
    PutBasketsSequenceNumCheckinApiJsonBody,
    PutBasketsSequenceNumCheckinApiJsonBodyBasket,
    PutBasketsSequenceNumCheckoutApiJsonBody,
    PutBasketsSequenceNumReservationApiJsonBody,
    PutBasketsSequenceNumUpdateBasketFromShowApiJsonBody,
)


def ok(step, response):
    """The parsed 200 answer of `response`, or the failure explained."""
    if response.status_code != 200 or response.parsed is None or isinstance(response.parsed, Error):
        sys.exit(f"{step}: {response.status_code} {response.content.decode(errors='replace')}")
    return response.parsed


def documented(step, record):
    """Every key of the record is one the document names: a record whose schema allows
    other keys (custom fields shown as keys) keeps them in `additional_properties`,
    which holds nothing here."""
    extra = getattr(record, "additional_properties", {})
    if extra:
        sys.exit(f"{step}: keys the document does not name: {sorted(extra)}")
    return record


def same(step, got, expected):
    if got != expected:
        sys.exit(f"{step}: {got!r}, expected {expected!r}")


def main():
    client = AuthenticatedClient(
        base_url=os.environ["RENTRACK_URL"],
        token=os.environ["RENTRACK_TOKEN"],
        auth_header_name="token",
        prefix="",
        raise_on_unexpected_status=True,
    )
    # Unique per run, so the flow runs again on the same database.
    run = datetime.datetime.now().strftime("%H%M%S%f")
    with client as c:
        location = ok(
            "create a location",
            post_locations_api.sync_detailed(
                client=c,
                body=PostLocationsApiJsonBody(
                    location=PostLocationsApiJsonBodyLocation(name="Client Depot", city="Oslo")
                ),
            ),
        ).location
        same("location name", location.name, "Client Depot")
        read = ok("read the location", get_locations_id_api.sync_detailed(location.id, client=c)).location
        documented("location", read)
        same("location read back", (read.id, read.name, read.city), (location.id, "Client Depot", "Oslo"))

        group = ok(
            "create a group",
            post_groups_api.sync_detailed(
                client=c,
                body=PostGroupsApiJsonBody(group=PostGroupsApiJsonBodyGroup(name="Client Cameras")),
            ),
        ).group
        read = ok("read the group", get_groups_id_api.sync_detailed(group.id, client=c)).group
        documented("group", read)
        same("group read back", (read.id, read.name), (group.id, "Client Cameras"))

        member = ok(
            "create a member",
            post_members_api.sync_detailed(
                client=c,
                body=PostMembersApiJsonBody(
                    user=PostMembersApiJsonBodyUser(
                        first_name="Cleo",
                        last_name="Client",
                        email=f"cleo.{run}@example.com",
                        role_id=2,  # staff
                    )
                ),
            ),
        ).member
        read = ok("read the member", get_members_id_api.sync_detailed(member.id, client=c)).member
        documented("member", read)
        same("member read back", (read.id, read.email), (member.id, f"cleo.{run}@example.com"))

        asset = ok(
            "create a fixed asset",
            post_assets_api.sync_detailed(
                client=c,
                body=PostAssetsApiJsonBody(
                    fixed_asset=PostAssetsApiJsonBodyFixedAsset(
                        name="Client Camera",
                        group_id=group.id,
                        location_id=location.id,
                        purchased_on=datetime.date.today(),
                        rental_price_attributes=PostAssetsApiJsonBodyFixedAssetRentalPriceAttributes(daily="25.00"),
                    )
                ),
            ),
        ).asset
        number = asset.sequence_num
        same("new asset", (asset.name, asset.group_id, asset.location_id), ("Client Camera", group.id, location.id))

        out = ok(
            "check the asset out",
            put_assets_sequence_num_checkout_api.sync_detailed(number, client=c, user_id=member.id),
        ).asset
        same("checked out to", out.assigned_to_user_id, member.id)
        back = ok(
            "check the asset in",
            put_assets_sequence_num_checkin_api.sync_detailed(
                number,
                client=c,
                body=PutAssetsSequenceNumCheckinApiJsonBody(
                    checkin_values=PutAssetsSequenceNumCheckinApiJsonBodyCheckinValues(location_id=location.id)
                ),
            ),
        ).asset
        same("checked in", back.assigned_to_user_id, None)
        read = ok("read the asset", get_assets_sequence_num_api.sync_detailed(number, client=c)).asset
        documented("asset", read)
        same("asset read back", (read.sequence_num, read.assigned_to_user_id), (number, None))

        customer = ok(
            "create a customer",
            post_customers_api.sync_detailed(
                client=c,
                body=PostCustomersApiJsonBody(
                    customer=PostCustomersApiJsonBodyCustomer(
                        first_name="Rita", last_name="Renter", email=f"rita.{run}@example.com"
                    )
                ),
            ),
        ).customer
        read = ok("read the customer", get_customers_id_api.sync_detailed(customer.id, client=c)).customer
        documented("customer", read)
        same("customer read back", (read.id, read.email), (customer.id, f"rita.{run}@example.com"))

        start = datetime.date.today() + datetime.timedelta(days=30)
        end = start + datetime.timedelta(days=3)
        order = ok(
            "create an order",
            post_baskets_api.sync_detailed(
                client=c,
                body=PostBasketsApiJsonBody(
                    basket=PostBasketsApiJsonBodyBasket(customer_id=customer.id),
                    expected_checkout_date=start,
                    due_date=end,
                ),
            ),
        ).basket
        n = order.sequence_num
        order = ok(
            "add the asset",
            put_baskets_sequence_num_update_basket_from_show_api.sync_detailed(
                n, client=c, body=PutBasketsSequenceNumUpdateBasketFromShowApiJsonBody(asset_ids=[str(number)])
            ),
        ).basket
        same("order lines", [line.sequence_num for line in order.order_line_items], [number])
        order = ok(
            "book the order",
            put_baskets_sequence_num_reservation_api.sync_detailed(
                n, client=c, body=PutBasketsSequenceNumReservationApiJsonBody(from_=start, to=end)
            ),
        ).basket
        same("booked", order.basket_state, "booked")
        order = ok(
            "rent it out",
            put_baskets_sequence_num_checkout_api.sync_detailed(
                n, client=c, body=PutBasketsSequenceNumCheckoutApiJsonBody(use_current_datetime=True)
            ),
        ).basket
        same("rented out", order.basket_state, "checked_out")
        order = ok(
            "return and pay",
            put_baskets_sequence_num_checkin_api.sync_detailed(
                n,
                client=c,
                body=PutBasketsSequenceNumCheckinApiJsonBody(
                    use_current_datetime=True,
                    basket=PutBasketsSequenceNumCheckinApiJsonBodyBasket(cash_paid=order.balance_due),
                ),
            ),
        ).basket
        read = ok("read the order", get_baskets_sequence_num_api.sync_detailed(n, client=c)).basket
        documented("order", read)
        for line in read.order_line_items:
            documented("order line", line)
        same("completed", read.basket_state, "completed")
        same("order read back", (read.sequence_num, read.basket_state), (n, order.basket_state))
        same("paid in full", read.balance_due, "0.00")
        print(
            f"generated client: location {location.id}, group {group.id}, member {member.id}, "
            f"asset {number}, customer {customer.id}, order {n} ({read.order_state}) read back"
        )


if __name__ == "__main__":
    main()
