#!/usr/bin/env bash
# The request path against the machine's limit (issue 15): a bare axum server answering
# /healthz with a constant JSON (`rentrack-bench bare`), rentrack's /healthz, the
# details of a location, a member and an asset, and a page of the location and member
# lists, each as a ratio of the bare server measured in the same round. Starts its own
# server on a fresh SQLite file and, with PG_URL set, on a fresh PostgreSQL database;
# seeds LOCATIONS locations, MEMBERS members and ASSETS fixed assets through the API;
# runs each mix at 64 connections, ROUNDS times in turn, and prints the medians (a
# table on stderr, one "path" JSON line per database on stdout) with the server's
# resident memory at rest and at most under the load.
#
#   bench/run-path.sh                                  # SQLite only; builds in release mode
#   PG_URL=postgres://postgres@127.0.0.1:5432/postgres bench/run-path.sh
#   PG_URL=postgres://postgres@%2Fvar%2Frun%2Fpostgresql/postgres bench/run-path.sh
#                                                      # PostgreSQL through its Unix socket
#   RENTRACK=/path/to/old/rentrack bench/run-path.sh   # another build of the server
#   LOCATIONS=100000 MEMBERS=100000 ASSETS=100000 CUSTOMERS=100000 MIXES="bare healthz \
#       location-list-first location-list-end member-list-first member-list-end \
#       asset-list-first asset-list-end customer-list-first customer-list-end" bench/run-path.sh
#                                                      # list pages at 100,000 records
#
# Optional: LOCATIONS (1000), MEMBERS (1000), ASSETS (1000), CUSTOMERS (0), CONNECTIONS (64),
# DURATION (10), WARMUP (2), ROUNDS (3), BENCH_THREADS (1), PORT (3993), BARE_PORT
# (3992), SEED_CONCURRENCY (16), DATABASES ("sqlite postgres"), MIXES (bare and healthz
# must be among them).
source "$(dirname "$0")/binaries.sh"
LOCATIONS=${LOCATIONS:-1000}
MEMBERS=${MEMBERS:-1000}
ASSETS=${ASSETS:-1000}
CUSTOMERS=${CUSTOMERS:-0}
CONNECTIONS=${CONNECTIONS:-64}
DURATION=${DURATION:-10}
WARMUP=${WARMUP:-2}
ROUNDS=${ROUNDS:-3}
PORT=${PORT:-3993}
BARE_PORT=${BARE_PORT:-3992}
SEED_CONCURRENCY=${SEED_CONCURRENCY:-16}
export BENCH_THREADS=${BENCH_THREADS:-1}
DATABASES=${DATABASES:-sqlite postgres}
MIXES=${MIXES:-"bare healthz location-details member-details asset-details location-list member-list"}
PG_DB=rentrack_bench_path

source bench/own-server.sh

results=()
failures=()
start_bare
measure() { # label (sqlite or postgres), database URL, serve flags for the seed...
    local db=$1 url=$2
    shift 2
    local token
    token=$(company_token "$url" path)
    start "$url" "$@"
    results+=("$("$BENCH" seed --base-url "http://127.0.0.1:$PORT" --token "$token" \
        --locations "$LOCATIONS" --groups 0 --vendors 0 --members "$MEMBERS" \
        --assets "$ASSETS" --customers "$CUSTOMERS" --concurrency "$SEED_CONCURRENCY")")
    restart_after_seed "$db" "$url"
    # The server's resident memory after its start (at rest) and the most seen while
    # the mixes run (sampled every 0.2 s).
    local rest watcher
    sleep 1
    rest=$(rss_kb "$server")
    echo "$rest" >"$dir/rss_peak"
    watch_rss "$server" "$dir/rss_peak" &
    watcher=$!
    local -A got=() p99s=()
    run_rounds "$db" "$token"
    kill "$watcher"
    wait "$watcher" 2>/dev/null || true
    stop
    local peak
    peak=$(cat "$dir/rss_peak")
    summarize path "$db" "$db, $LOCATIONS locations, $MEMBERS members, $ASSETS assets, $CUSTOMERS customers, $CONNECTIONS connections; RSS $((rest / 1024)) MB at rest, $((peak / 1024)) MB at most under load" \
        "\"locations\":$LOCATIONS,\"members\":$MEMBERS,\"assets\":$ASSETS,\"customers\":$CUSTOMERS,\"rss_rest_kb\":$rest,\"rss_peak_kb\":$peak,"
}

rss_kb() { # pid: its resident memory in kB
    awk '/^VmRSS:/ {print $2}' "/proc/$1/status" 2>/dev/null || echo 0
}

watch_rss() { # pid, file: keeps the largest resident memory seen in the file
    local max now
    max=$(cat "$2")
    while :; do
        now=$(rss_kb "$1")
        if ((now > max)); then
            max=$now
            echo "$max" >"$2"
        fi
        sleep 0.2
    done
}

for_each_database
finish
