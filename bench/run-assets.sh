#!/usr/bin/env bash
# Fixed assets at scale (issue 11): with 100,000 fixed assets in one company and 10 other
# companies of 10,000 each, what asset details, the list, a filter, a search (first and
# last pages) and a check-out + check-in cycle cost, next to /healthz. Starts its own
# server on a fresh SQLite file and, with PG_URL set, on a fresh PostgreSQL database;
# seeds through the API; runs each mix at 64 connections, ROUNDS times in turn, and
# prints each figure as a ratio of asset details in the same round (the median of the
# rounds).
#
#   bench/run-assets.sh                                  # SQLite only; builds in release mode
#   PG_URL=postgres://postgres@127.0.0.1:5432/postgres bench/run-assets.sh
#
# PG_URL names a server and a database to connect to while the script creates (and
# afterwards drops) its own database, rentrack_bench_assets; it needs psql.
# Optional: ASSETS (100000), OTHER_COMPANIES (10), OTHER_ASSETS (10000), CONNECTIONS (64),
# DURATION (10), WARMUP (2), ROUNDS (3), BENCH_THREADS (1), PORT (3997),
# SEED_CONCURRENCY (16), DATABASES ("sqlite postgres"), MIXES (asset-details must be one).
# Human-readable lines go to stderr; the JSON lines (one per mix, then one "assets"
# summary per database) are printed on stdout at the end.
source "$(dirname "$0")/binaries.sh"
ASSETS=${ASSETS:-100000}
OTHER_COMPANIES=${OTHER_COMPANIES:-10}
OTHER_ASSETS=${OTHER_ASSETS:-10000}
CONNECTIONS=${CONNECTIONS:-64}
DURATION=${DURATION:-10}
WARMUP=${WARMUP:-2}
ROUNDS=${ROUNDS:-3}
PORT=${PORT:-3997}
SEED_CONCURRENCY=${SEED_CONCURRENCY:-16}
export BENCH_THREADS=${BENCH_THREADS:-1}
DATABASES=${DATABASES:-sqlite postgres}
MIXES=${MIXES:-"healthz asset-details asset-list-first asset-list-end asset-filter-first asset-filter-end asset-search-first asset-search-end asset-checkout-cycle asset-service-cycle"}
PG_DB=rentrack_bench_assets

source bench/own-server.sh

results=()
measure() { # label (sqlite or postgres), database URL, serve flags for the seed...
    local db=$1 url=$2
    shift 2
    local token other i
    token=$(company_token "$url" bench)
    start "$url" "$@"
    # The other companies first, so the measured company's records are not the only
    # ones in the tables and indexes.
    for i in $(seq 1 "$OTHER_COMPANIES"); do
        other=$(company_token "$url" "other$i")
        "$BENCH" seed --base-url "http://127.0.0.1:$PORT" --token "$other" --locations 0 \
            --groups 0 --vendors 0 --assets "$OTHER_ASSETS" --concurrency "$SEED_CONCURRENCY" >/dev/null
    done
    results+=("$("$BENCH" seed --base-url "http://127.0.0.1:$PORT" --token "$token" \
        --locations 0 --groups 0 --vendors 0 --members 5 --assets "$ASSETS" \
        --concurrency "$SEED_CONCURRENCY")")
    stop
    if [[ $db == postgres ]]; then
        psql -q "$url" -c "ALTER DATABASE $PG_DB RESET synchronous_commit" -c "VACUUM ANALYZE" >/dev/null
    fi
    start "$url"
    local -A got=()
    local round mix line
    for round in $(seq 1 "$ROUNDS"); do
        for mix in $MIXES; do
            line=$("$BENCH" run --base-url "http://127.0.0.1:$PORT" --token "$token" \
                --mix "$mix" --connections "$CONNECTIONS" --duration "$DURATION" --warmup "$WARMUP")
            results+=("$line")
            got[$mix]+="$(rps <<<"$line") "
        done
    done
    stop
    # Per round: each figure over asset details; then the median of the rounds.
    local summary="{\"bench\":\"assets\",\"database\":\"$db\",\"assets\":$ASSETS,\"other_companies\":$OTHER_COMPANIES,\"connections\":$CONNECTIONS,\"rounds\":$ROUNDS"
    results+=("$summary,$(medians rps got %.1f),$(medians ratio_to_details got %.3f asset-details)}")
    echo "${results[-1]}" >&2
}

for_each_database

printf '%s\n' "${results[@]}"
