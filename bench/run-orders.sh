#!/usr/bin/env bash
# Rental orders: what a page of the order list, an order's details (its lines and
# priced totals), an order cycle (create a draft with a fixed asset and 2 units of
# asset stock, then book it for a far-future period) and a full rental cycle (create,
# put 5 items on, book, rent out, return with a cash payment of the balance: completed)
# cost, next to /healthz. Starts its own server on a fresh SQLite file and, with PG_URL
# set, on a fresh PostgreSQL database; seeds one company through the API (`seed
# --orders N`: a customer, rentable fixed assets, a rentable asset stock item with
# 1,000,000 units, N draft orders); runs each mix at 64 connections, ROUNDS times in
# turn, and prints each figure with its p99 and as a ratio of /healthz in the same
# round (the median of the rounds), each step of a cycle on a row of its own.
#
#   bench/run-orders.sh                                  # SQLite only; builds in release mode
#   ORDERS=100000 MIXES="healthz order-list order-full-cycle" \
#       PG_URL=postgres://postgres@127.0.0.1:5432/postgres bench/run-orders.sh
#
# PG_URL names a server and a database to connect to while the script creates (and
# afterwards drops) its own database, rentrack_bench_orders; it needs psql.
# Optional: ORDERS (2000; the seed makes one request per order and reports its rate),
# ORDER_ASSETS (5 × CONNECTIONS: one per connection for order-cycle, four for
# order-full-cycle, which takes them from the other end of the list),
# CONNECTIONS (64), DURATION (10), WARMUP (2), ROUNDS (3), BENCH_THREADS (1),
# PORT (3995), SEED_CONCURRENCY (16), DATABASES ("sqlite postgres"), MIXES (healthz
# must be one).
# Human-readable lines go to stderr (a table per database at its end); the JSON lines
# (the seed, one per mix, then one "orders" summary per database) are printed on
# stdout at the end. Every request of an order mix must succeed: if any run counts an
# error (in the window, in its warm-up or while it finishes its cycles after the
# window), the script names it and exits 1 at the end.
source "$(dirname "$0")/binaries.sh"
ORDERS=${ORDERS:-2000}
CONNECTIONS=${CONNECTIONS:-64}
ORDER_ASSETS=${ORDER_ASSETS:-$((5 * CONNECTIONS))}
DURATION=${DURATION:-10}
WARMUP=${WARMUP:-2}
ROUNDS=${ROUNDS:-3}
PORT=${PORT:-3995}
SEED_CONCURRENCY=${SEED_CONCURRENCY:-16}
export BENCH_THREADS=${BENCH_THREADS:-1}
DATABASES=${DATABASES:-sqlite postgres}
MIXES=${MIXES:-"healthz order-list order-details order-full-cycle order-cycle"}
PG_DB=rentrack_bench_orders

source bench/own-server.sh

results=()
failures=()
measure() { # label (sqlite or postgres), database URL, serve flags for the seed...
    local db=$1 url=$2
    shift 2
    local token seed
    token=$(company_token "$url" bench)
    start "$url" "$@"
    seed=$("$BENCH" seed --base-url "http://127.0.0.1:$PORT" --token "$token" \
        --locations 0 --groups 0 --vendors 0 --orders "$ORDERS" --order-assets "$ORDER_ASSETS" \
        --concurrency "$SEED_CONCURRENCY")
    results+=("$seed")
    restart_after_seed "$db" "$url"
    local -A got=() p99s=()
    run_rounds "$db" "$token"
    stop
    # Per round: each figure over /healthz; then the median of the rounds.
    local took
    took=$(sed -n 's/.*"orders_elapsed_s":\([0-9.]*\).*/\1/p' <<<"$seed")
    summarize orders "$db" "$db, $ORDERS orders (seeded in ${took}s), $CONNECTIONS connections" \
        "\"orders\":$ORDERS,\"orders_seed_s\":$took,"
}

for_each_database
finish
