#!/usr/bin/env bash
# Writes at 64 connections (issue 39): a fixed asset's check-out + check-in cycle, the
# stock movements (add, sale, transfer, check-out + check-in of asset stock), each on
# an item per connection and contended (every connection on one item), and the full
# order cycle (create, add 5 items, book, rent out, return and pay), next to /healthz
# and asset details. Starts its own server on a fresh SQLite file and, with PG_URL
# set, on a fresh PostgreSQL database; seeds one company through the API (assets and
# members, `--stock`, `--orders`); runs each mix ROUNDS times in turn and prints each
# figure with its p99 and as a ratio of /healthz in the same round (the median of the
# rounds), each step of a cycle on a row of its own.
#
#   bench/run-writes.sh                                  # SQLite only; builds in release mode
#   PG_URL=postgres://postgres@127.0.0.1:5432/postgres bench/run-writes.sh
#   RENTRACK=/path/to/old/rentrack BENCH=... bench/run-writes.sh   # another build
#
# PG_URL names a server and a database to connect to while the script creates (and
# afterwards drops) its own database, rentrack_bench_writes; it needs psql.
# Optional: ASSETS (1000, at least CONNECTIONS), STOCK (CONNECTIONS), ORDERS (1000),
# CONNECTIONS (64), DURATION (10), WARMUP (2), ROUNDS (3), BENCH_THREADS (1),
# PORT (3990), SEED_CONCURRENCY (16), DATABASES ("sqlite postgres"), MIXES (healthz
# must be one).
# Human-readable lines go to stderr (a table per database at its end); the JSON lines
# are printed on stdout at the end. Every request must succeed: if any run counts an
# error, the script names it and exits 1 at the end.
source "$(dirname "$0")/binaries.sh"
CONNECTIONS=${CONNECTIONS:-64}
ASSETS=${ASSETS:-1000}
STOCK=${STOCK:-$CONNECTIONS}
ORDERS=${ORDERS:-1000}
DURATION=${DURATION:-10}
WARMUP=${WARMUP:-2}
ROUNDS=${ROUNDS:-3}
PORT=${PORT:-3990}
SEED_CONCURRENCY=${SEED_CONCURRENCY:-16}
export BENCH_THREADS=${BENCH_THREADS:-1}
DATABASES=${DATABASES:-sqlite postgres}
MIXES=${MIXES:-"healthz asset-details asset-checkout-cycle stock-add stock-sale stock-transfer stock-checkout-cycle stock-add-contended stock-sale-contended stock-transfer-contended stock-checkout-cycle-contended order-full-cycle"}
PG_DB=rentrack_bench_writes

source bench/own-server.sh

results=()
failures=()
measure() { # label (sqlite or postgres), database URL, serve flags for the seed...
    local db=$1 url=$2
    shift 2
    local token
    token=$(company_token "$url" writes)
    start "$url" "$@"
    results+=("$(seed_writes "$token" "$ASSETS" "$STOCK" "$ORDERS" "$SEED_CONCURRENCY")")
    restart_after_seed "$db" "$url"
    local -A got=() p99s=()
    run_rounds "$db" "$token"
    stop
    summarize writes "$db" "$db, $ASSETS assets, $STOCK stock items, $ORDERS orders, $CONNECTIONS connections" \
        "\"assets\":$ASSETS,\"stock\":$STOCK,\"orders\":$ORDERS,"
}

for_each_database
finish
