"""Schemathesis hooks for tests/fuzz/run.sh.

Generated ids are mostly large numbers that name no record, so most requests would stop
at a 404. Half the time each path id is replaced by a small one (1 to 8), which names
one of the records `rentrack demo` seeds (locations, groups, subgroups, vendors,
members, teams, customers, contacts, businesses, addresses), so the request reaches the
handler's real work. Hypothesis draws the choice, so a seed still reproduces a run.

`positive_data_acceptance` fails a request the document says is valid and the server
refuses. Some rules no schema can carry: they depend on records the company holds, on
the clock, or compare two values (`WORLD_RULES`), or join two query parameters, which
OpenAPI describes one by one (`PAIR_RULES`; a body's schema states them). A 422 whose
every problem is one of those rules, matched on the server's own wording, is not
counted; any other problem still fails the run. docs/api.md lists the rules.
"""

import json
import re

import schemathesis
from hypothesis import strategies as st

SEEDED_IDS = st.integers(min_value=1, max_value=8)


@schemathesis.hook
def flatmap_path_parameters(context, path_parameters):
    if not path_parameters:
        return st.just(path_parameters)
    return st.fixed_dictionaries(
        {
            name: st.one_of(st.just(value), SEEDED_IDS) if isinstance(value, int) else st.just(value)
            for name, value in path_parameters.items()
        }
    )


# Each rule, by the words of its problem in a 422's `errors`.
WORLD_RULES = [
    # Records the company holds: names taken, ids and numbers of records it has or not,
    # the stored kind of a record, the company's settings.
    r"has already been taken",
    r"is not a custom field for ",
    r"is not the id of a custom field ",
    r"^has no [a-z ]+ (numbered|with id) ",
    r"^is not an? [a-z ]+ of this (company|business)",
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
    # A value whose range depends on another field, sent or stored (a group's rates
    # on its depreciation mode).
    r"^must be a whole number of months from 1 to 1200",
    r"^must be a percentage greater than 0 and at most 100",
    r"^must be a percentage from \d+ to \d+",
    # The clock.
    r"must be later than now",
    r"can't be before today",
    r"^is in the past: ",
    # Two values compared.
    r"^must differ from ",
    r"^must be later than from",
    r"^can't be before valid_from ",
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
    if WORLD.search(problem):
        return False
    # `filters[state]` is one of the query's `filters` object.
    in_query = field in query or field.split("[")[0] in query
    return not (in_query and (PAIR.search(problem) or field in DEPENDENT))


@schemathesis.hook
def filter_failure(context, failure, case, response):
    if failure.code != "ST202" or response.status_code != 422:
        return True
    try:
        errors = json.loads(response.content)["errors"]
    except (ValueError, KeyError, TypeError):
        return True
    query = query_names(case)
    problems = [(field, problem) for field, problems in errors.items() for problem in problems]
    return not problems or any(counted(field, problem, query) for field, problem in problems)
