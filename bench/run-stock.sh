#!/usr/bin/env bash
# Stock movements: what adding stock, a sale, a transfer between two locations and an
# asset stock check-out + check-in cycle cost, each with every connection on an item of
# its own and (the -contended mixes) with every connection on one item, next to
# /healthz. Starts its own server on a fresh SQLite file and, with PG_URL set, on a
# fresh PostgreSQL database; seeds one company through the API (`seed --stock N`: N
# inventory and N asset stock items, 1,000,000 units of each at two locations, a
# member); runs each mix at 64 connections, ROUNDS times in turn, and prints each
# figure with its p99 and as a ratio of /healthz in the same round (the median of the
# rounds).
#
#   bench/run-stock.sh                                  # SQLite only; builds in release mode
#   PG_URL=postgres://postgres@127.0.0.1:5432/postgres bench/run-stock.sh
#
# PG_URL names a server and a database to connect to while the script creates (and
# afterwards drops) its own database, rentrack_bench_stock; it needs psql.
# Optional: STOCK (100, at least CONNECTIONS), CONNECTIONS (64), DURATION (10),
# WARMUP (2), ROUNDS (3), BENCH_THREADS (1), PORT (3996), SEED_CONCURRENCY (16),
# DATABASES ("sqlite postgres"), MIXES (healthz must be one).
# Human-readable lines go to stderr (a table per database at its end); the JSON lines
# (the seed, one per mix, then one "stock" summary per database) are printed on stdout
# at the end. Every request of a stock mix must succeed: if any run counts an error
# (in the window or in its warm-up), the script names it and exits 1 at the end.
source "$(dirname "$0")/binaries.sh"
STOCK=${STOCK:-100}
CONNECTIONS=${CONNECTIONS:-64}
DURATION=${DURATION:-10}
WARMUP=${WARMUP:-2}
ROUNDS=${ROUNDS:-3}
PORT=${PORT:-3996}
SEED_CONCURRENCY=${SEED_CONCURRENCY:-16}
export BENCH_THREADS=${BENCH_THREADS:-1}
DATABASES=${DATABASES:-sqlite postgres}
MIXES=${MIXES:-"healthz stock-add stock-sale stock-transfer stock-checkout-cycle stock-add-contended stock-sale-contended stock-transfer-contended stock-checkout-cycle-contended"}
PG_DB=rentrack_bench_stock

source bench/own-server.sh

results=()
failures=()
measure() { # label (sqlite or postgres), database URL, serve flags for the seed...
    local db=$1 url=$2
    shift 2
    local token
    token=$(company_token "$url" bench)
    start "$url" "$@"
    results+=("$("$BENCH" seed --base-url "http://127.0.0.1:$PORT" --token "$token" \
        --locations 0 --groups 0 --vendors 0 --stock "$STOCK" --concurrency "$SEED_CONCURRENCY")")
    restart_after_seed "$db" "$url"
    local -A got=() p99s=()
    run_rounds "$db" "$token"
    stop
    # Per round: each figure over /healthz; then the median of the rounds.
    summarize stock "$db" "$db, $CONNECTIONS connections" "\"stock\":$STOCK,"
}

for_each_database
finish
