"""Schemathesis hooks for tests/fuzz/run.sh.

Generated ids are mostly large numbers that name no record, so most requests would stop
at a 404. Half the time each path id (a valid one: a negative case's is kept) is
replaced by a small one (1 to 8), which names
one of the records `rentrack demo` seeds (locations, groups, subgroups, vendors,
members, teams, customers, contacts, businesses, addresses), so the request reaches the
handler's real work. Hypothesis draws the choice, so a seed still reproduces a run.

`positive_data_acceptance` fails a request the document says is valid and the server
refuses. Some rules no schema can carry: they depend on records the company holds, on
the clock, or compare two values (`WORLD_RULES`), or join two query parameters, which
OpenAPI describes one by one (`PAIR_RULES`; a body's schema states them). A 422 whose
every problem is one of those rules, matched on the server's own wording, is not
counted; any other problem still fails the run. docs/api.md lists the rules.

Schemathesis draws a "positive" body field by field: it does not follow the rules
between two fields that the document states (`dependentSchemas`, an `anyOf` of
`required`). A body it calls positive that the document's own schema refuses (checked
with `jsonschema`, draft 2020-12, as OpenAPI 3.1 reads it) is no valid request, and its
refusal is not counted. Nor is an empty list a form "sends": a form cannot carry one.
"""

import json
import re

import schemathesis
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

SEEDED_IDS = st.integers(min_value=1, max_value=8)
# What a path id's schema takes: an id drawn outside it (a negative case's) is kept.
MAX_ID = 2**63 - 1


def is_id(value):
    return isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= MAX_ID


@schemathesis.hook
def flatmap_path_parameters(context, path_parameters):
    if not path_parameters:
        return st.just(path_parameters)
    return st.fixed_dictionaries(
        {
            name: st.one_of(st.just(value), SEEDED_IDS) if is_id(value) else st.just(value)
            for name, value in path_parameters.items()
        }
    )


@schemathesis.hook
def before_call(context, case, kwargs):
    """A parameter sent both in the query string and in the body is read from the body
    (`Params`), which the document allows. Unless the body is the case's invalid part,
    its copy is left out, so the query string's value (valid or not) is the one read."""
    if not isinstance(case.body, dict) or not case.query:
        return
    in_query = {name.removesuffix("[]") for name in case.query}
    twice = [key for key in case.body if key.removesuffix("[]") in in_query]
    if not twice:
        return
    meta = getattr(case, "_meta", None)
    body = meta.components.get("body") if meta is not None else None
    if body is not None and getattr(body.mode, "value", body.mode) == "negative":
        return
    case.body = {key: value for key, value in case.body.items() if key not in twice}


# Each rule, by the words of its problem in a 422's `errors`.
WORLD_RULES = [
    # Records the company holds: names taken, ids and numbers of records it has or not,
    # the stored kind of a record, the company's settings.
    r"has already been taken",
    r"is not a custom field for ",
    r"is not the id of a custom field ",
    r"^has no [a-z ]+ (numbered|with id) ",
    r"^is not an? [a-z ]+ of this (company|business)",
    r"^#?\d+ is not an? [a-z ]+ of this company",
    r"^is not the e-mail of a member of this company",
    r"^is not the name of a business of this company",
    r"^customer \d+ is not a contact of business ",
    r"^can't be changed \(it is ",
    r"^is more than in stock: ",
    r"^are not open check-outs of ",
    r"^names business \d+, not business_id ",
    r"^is not the custodian of ",
    r"is a fixed asset: its quantity is 1",
    r"is a fixed asset, reserved whole",
    r"has no items to sell",
    r"^is not an address of ",
    r" is retired",
    r" has no rental rate: ",
    r"has no location of its own",
    r"^is not a subgroup of group ",
    r"^not on this order: ",
    r"^names no [a-z ]+ of this company",
    r"^location \d+ does not exist",
    r"^must be 1 \(administrator\), 2 \(staff\) or a custom role id",
    r"is a template for [a-z ]+ labels, not ",
    r"names \d+ businesses: give business_id",
    r"would make the subgroup its own ancestor",
    r"this company requires a location",
    r"^are only for dropdown and checkbox fields, not ",
    r"can't be blank unless login_enabled is false",
    r" is inactive; activate the member ",
    r"has no items to (rent out|book)",
    r"^are not valid on \d{4}-\d{2}-\d{2} ",
    r"^are not on order #\d+: ",
    r"^are on order #\d+ already: ",
    r" is not a payment option of this company",
    r" is not a custom filter of [a-z_]+ in this company",
    r" is on this order already",
    # A value whose range depends on another field, sent or stored (a group's rates
    # on its depreciation mode).
    r"^must be a whole number of months from 1 to 1200",
    r"^must be a percentage greater than 0 and at most 100",
    r"^must be a percentage from \d+ to \d+",
    r"^can't be blank for a dropdown or checkbox field",
    r"^needs partial_return=true",
    r" does not fit mode ",
    # The clock.
    r"must be later than now",
    r"can't be before today",
    r"^is in the past: ",
    # Two values compared.
    r"^must differ from ",
    r"can't be marked for sale and for rent at once",
    r"^is too (narrow|short): the ",
    # A map's keys against a list's values: a sale price for each item marked for sale.
    r"^can't be blank: the price it is sold at",
    # Texts equal but for case or spaces (JSON Schema's `uniqueItems` compares exactly).
    r"appears twice",
    r"^must be later than [a-z_]+$",
    r"^can't be before [a-z_]+$",
    r"^can't be before valid_from ",
    # The world's DNS: where a webhook's host resolves.
    r" is or resolves to ",
    r"^names a host that could not be resolved",
]
WORLD = re.compile("|".join(f"(?:{rule})" for rule in WORLD_RULES))

# Rules between two parameters, which a body's schema states (`dependentRequired`) but
# OpenAPI cannot for query parameters: not counted when the field is one.
PAIR_RULES = [
    r"^can't be given without ",
    r"^is required with filter=",
    r"^can't be combined with another filters\[",
    r"^send exactly one of ",
    r"^can't be blank with a custom filter",
    r"^can't be blank with filter_val",
    r"^can't be blank: give user_id or user_email",
]
PAIR = re.compile("|".join(f"(?:{rule})" for rule in PAIR_RULES))
# Rules between a query parameter and a body field (OpenAPI states neither): a stock
# check-in's quantity with its selected line items, the price that stock added needs,
# the member units checked out go to (`order_type` chooses).
CROSS_RULES = [
    r"^applies to one line item: select one",
    r"^can't be blank: the price per unit of the stock added",
    r"^can't be blank: the member the units go to",
]
CROSS = re.compile("|".join(f"(?:{rule})" for rule in CROSS_RULES))
# The values of custom fields, whose kind (text, number, date, ...) is stored data.
CUSTOM_VALUES = re.compile(r"(custom_attribute|c_attr_vals|cust_attr)[a-z_]*\[")
# Body fields whose every problem depends on another field: a custom filter's
# conditions, whose words depend on its `assets_type` and whose values on their status.
DEPENDENT_BODY = {"conditions"}
# Query parameters whose form depends on another's value (a filter's value on its
# `status` or `filter`): every problem of theirs joins two parameters.
DEPENDENT = {"filter_param_val", "sub_group_param_val", "filter_val"}


def query_names(case):
    names = set()
    for parameter in case.operation.iter_parameters():
        if getattr(parameter.location, "value", parameter.location) == "query":
            names.add(parameter.name)
    return names


def counted(field, problem, query):
    if WORLD.search(problem) or CROSS.search(problem) or CUSTOM_VALUES.search(field):
        return False
    if field in DEPENDENT_BODY and field not in query:
        return False
    # `filters[state]` is one of the query's `filters` object.
    in_query = field in query or field.split("[")[0] in query
    return not (in_query and (PAIR.search(problem) or field in DEPENDENT))


VALIDATORS = {}
FORMS = ("application/x-www-form-urlencoded", "multipart/form-data")


def body_validator(case):
    """The validator of the body schema the document gives the case's media type."""
    key = (case.operation.label, case.media_type)
    if key not in VALIDATORS:
        content = case.operation.definition.raw.get("requestBody", {}).get("content", {})
        schema = content.get(case.media_type, {}).get("schema")
        if schema is None:
            VALIDATORS[key] = None
        else:
            root = case.operation.schema.raw_schema
            VALIDATORS[key] = Draft202012Validator(dict(schema, components=root.get("components", {})))
    return VALIDATORS[key]


def documented_body(case):
    """False when the case's body breaks the document's own schema for it."""
    validator = body_validator(case)
    if validator is None:
        return True
    # No body at all is an empty form; a form sends no name for an empty list.
    body = case.body if isinstance(case.body, (dict, list, str, int, float, bool)) else {}
    if case.media_type in FORMS and isinstance(body, dict):
        body = whole_floats_as_sent({name: value for name, value in body.items() if value != []})
    return validator.is_valid(body)


def wire_text(value):
    """A form field's value as schemathesis writes it: `null`, booleans and containers
    in their JSON spelling (`true`, `{...}`), numbers as Python prints them (`11.0`)."""
    if isinstance(value, list):
        return [wire_text(item) for item in value]
    if value is None or isinstance(value, (bool, dict)):
        return json.dumps(value)
    return str(value)


def whole_floats_as_sent(body):
    """A float such as `11.0` is a JSON Schema integer, but a form sends it as the text
    `11.0`, which is no whole number's text: it is kept as that text."""
    if not isinstance(body, dict):
        return body

    def sent(value):
        if isinstance(value, list):
            return [sent(item) for item in value]
        return str(value) if isinstance(value, float) and value.is_integer() else value

    return {name: sent(value) for name, value in body.items()}


def valid_as_sent(validator, body):
    """True when the form's body, as its text arrives, is one the schema takes. A text is
    read as the type the schema asks for (`true` a boolean, `5` an integer), so each field
    the schema refuses is tried once more as its text. An empty list sends nothing."""
    if not isinstance(body, dict):
        return validator.is_valid(body)
    # An empty list sends no name at all.
    body = {name: value for name, value in body.items() if value != []}
    tried = set()
    while True:
        errors = list(validator.iter_errors(body))
        if not errors:
            return True
        names = {error.absolute_path[0] for error in errors if error.absolute_path} - tried
        names = {name for name in names if name in body}
        if not names:
            return False
        for name in names:
            body[name] = wire_text(body[name])
        tried |= names


def required_query_sent(case):
    """False when the case leaves out a query parameter the document requires (the
    stateful phase builds some requests from links alone)."""
    sent = case.query or {}
    for parameter in case.operation.definition.raw.get("parameters", []):
        if parameter.get("in") == "query" and parameter.get("required") and parameter.get("name") not in sent:
            return False
    return True


@schemathesis.hook
def filter_failure(context, failure, case, response):
    # A form cannot send an empty list (it is no name at all): a list "with fewer items
    # than minItems" that schemathesis sends in a form arrives as a list not sent.
    if (
        failure.code == "ST201"
        and case.media_type in FORMS
        and "fewer items than allowed by minItems" in str(getattr(failure, "message", ""))
    ):
        return False
    # A list's field named bare beside its `x[]` (a stateful link's name): the server
    # reads the bare name as a comma list, which the document has no name for in a form.
    if failure.code == "ST201" and case.media_type in FORMS and isinstance(case.body, dict):
        if any(f"{name}[]" in case.body for name in case.body):
            return False
    # A form's invalid `null`, boolean or object arrives as its text, which may be valid.
    if failure.code == "ST201" and case.media_type in FORMS:
        validator = body_validator(case)
        if validator is not None and valid_as_sent(validator, case.body):
            return False
    if failure.code != "ST202":
        return True
    if not documented_body(case) or not required_query_sent(case):
        return False
    if response.status_code != 422:
        return True
    try:
        errors = json.loads(response.content)["errors"]
    except (ValueError, KeyError, TypeError):
        return True
    query = query_names(case)
    problems = [(field, problem) for field, problems in errors.items() for problem in problems]
    return not problems or any(counted(field, problem, query) for field, problem in problems)
