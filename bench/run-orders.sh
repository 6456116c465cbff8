#!/usr/bin/env bash
# Rental orders: what a page of the order list, an order's details (its lines and
# priced totals) and an order cycle (create a draft with a fixed asset and 2 units of
# asset stock, then book it for a far-future period) cost, next to /healthz. Starts
# its own server on a fresh SQLite file and, with PG_URL set, on a fresh PostgreSQL
# database; seeds one company through the API (`seed --orders N`: a customer, rentable
# fixed assets, a rentable asset stock item with 1,000,000 units, N draft orders); runs
# each mix at 64 connections, ROUNDS times in turn, and prints each figure with its
# p99 and as a ratio of /healthz in the same round (the median of the rounds).
#
#   bench/run-orders.sh                                  # SQLite only; builds in release mode
#   ORDERS=100000 PG_URL=postgres://postgres@127.0.0.1:5432/postgres bench/run-orders.sh
#
# PG_URL names a server and a database to connect to while the script creates (and
# afterwards drops) its own database, rentrack_bench_orders; it needs psql.
# Optional: ORDERS (2000; the issue asks for 100,000 eventually: the seed makes one
# request per order and reports its rate), ORDER_ASSETS (100, at least CONNECTIONS),
# CONNECTIONS (64), DURATION (10), WARMUP (2), ROUNDS (3), BENCH_THREADS (1),
# PORT (3995), SEED_CONCURRENCY (16), DATABASES ("sqlite postgres"), MIXES (healthz
# must be one).
# Human-readable lines go to stderr (a table per database at its end); the JSON lines
# (the seed, one per mix, then one "orders" summary per database) are printed on
# stdout at the end. Every request of an order mix must succeed: if any run counts an
# error (in the window or in its warm-up), the script names it and exits 1 at the end.
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$HOME/.cache/rentrack-target}
if [[ -z "${RENTRACK:-}" || -z "${BENCH:-}" ]]; then
    cargo build --release --quiet -p rentrack -p rentrack-bench
fi
RENTRACK=${RENTRACK:-$CARGO_TARGET_DIR/release/rentrack}
BENCH=${BENCH:-$CARGO_TARGET_DIR/release/rentrack-bench}
ORDERS=${ORDERS:-2000}
ORDER_ASSETS=${ORDER_ASSETS:-100}
CONNECTIONS=${CONNECTIONS:-64}
DURATION=${DURATION:-10}
WARMUP=${WARMUP:-2}
ROUNDS=${ROUNDS:-3}
PORT=${PORT:-3995}
SEED_CONCURRENCY=${SEED_CONCURRENCY:-16}
export BENCH_THREADS=${BENCH_THREADS:-1}
DATABASES=${DATABASES:-sqlite postgres}
MIXES=${MIXES:-"healthz order-list order-details order-cycle"}
PG_DB=rentrack_bench_orders

source bench/own-server.sh

# Errors of a run line, in its window and its warm-up.
errors() { sed -n 's/.*"errors":\([0-9]*\).*"warmup_errors":\([0-9]*\).*/\1 \2/p'; }

results=()
failures=()
measure() { # label (sqlite or postgres), database URL, serve flags for the seed...
    local db=$1 url=$2
    shift 2
    local token
    token=$("$RENTRACK" company create --database-url "$url" --name "Bench" --subdomain bench \
        --plan unlimited --enable-api | sed 's/.*"token":"\([^"]*\)".*/\1/')
    start "$url" "$@"
    results+=("$("$BENCH" seed --base-url "http://127.0.0.1:$PORT" --token "$token" \
        --locations 0 --groups 0 --vendors 0 --orders "$ORDERS" --order-assets "$ORDER_ASSETS" \
        --concurrency "$SEED_CONCURRENCY")")
    stop
    if [[ $db == postgres ]]; then
        psql -q "$url" -c "ALTER DATABASE $PG_DB RESET synchronous_commit" -c "VACUUM ANALYZE" >/dev/null
    fi
    start "$url"
    local -A got=() p99s=()
    local round mix line counted
    for round in $(seq 1 "$ROUNDS"); do
        for mix in $MIXES; do
            line=$("$BENCH" run --base-url "http://127.0.0.1:$PORT" --token "$token" \
                --mix "$mix" --connections "$CONNECTIONS" --duration "$DURATION" --warmup "$WARMUP")
            results+=("$line")
            got[$mix]+="$(rps <<<"$line") "
            p99s[$mix]+="$(p99 <<<"$line") "
            counted=$(errors <<<"$line")
            if [[ $counted != "0 0" ]]; then
                failures+=("$db $mix round $round: errors/warm-up errors $counted, first: $(sed -n 's/.*"first_error":\("\([^"\\]\|\\.\)*"\|null\).*/\1/p' <<<"$line")")
            fi
        done
    done
    stop
    # Per round: each figure over /healthz; then the median of the rounds.
    results+=("{\"bench\":\"orders\",\"database\":\"$db\",\"orders\":$ORDERS,\"connections\":$CONNECTIONS,\"rounds\":$ROUNDS,$(medians rps got %.1f),$(medians p99_ms p99s %.3f),$(medians ratio_to_healthz got %.3f healthz)}")
    echo "${results[-1]}" >&2
    {
        printf '%s, %d orders, %d connections, median of %d rounds:\n' "$db" "$ORDERS" "$CONNECTIONS" "$ROUNDS"
        printf '  %-32s %10s %10s %10s\n' mix "req/s" "p99 ms" "/healthz"
        for mix in $MIXES; do
            printf '  %-32s %10.1f %10.3f %10.3f\n' "$mix" "$(median_of "${got[$mix]}")" \
                "$(median_of "${p99s[$mix]}")" "$(median_of "${got[$mix]}" "${got[healthz]}")"
        done
    } >&2
}

for_each_database

printf '%s\n' "${results[@]}"
if ((${#failures[@]})); then
    printf 'FAILED: %s\n' "${failures[@]}" >&2
    exit 1
fi
