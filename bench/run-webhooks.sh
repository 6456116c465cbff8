#!/usr/bin/env bash
# Webhooks under load: what three endpoints subscribed to every event cost the API,
# and how long an event takes from its change to its receiver. Starts its own server
# (--webhook-allow-private) on a fresh SQLite file and, with PG_URL set, on a fresh
# PostgreSQL database; seeds one company; then for each round and mix measures the
# bare axum server (`rentrack-bench bare`, the machine's ceiling), the mix without
# endpoints, and the mix with three (`run --webhooks 3`, a receiver in the load
# generator answering 200 at once), alternating. Prints per round requests/s and the
# ratio to bare of both, their ratio, and the delivery lag (p50, p99: arrival less the
# event's timestamp, over every delivery of the run and its wind-down).
#
#   bench/run-webhooks.sh
#   PG_URL=postgres://postgres@127.0.0.1:5432/postgres DATABASES=postgres bench/run-webhooks.sh
#
# Optional: MIXES (asset-checkout-cycle order-cycle), ROUNDS (3), DURATION (10), WARMUP
# (2), CONNECTIONS (64), ASSETS (1000), ENDPOINTS (3), BENCH_THREADS (1), PORT (3996),
# BARE_PORT (3992), DATABASES ("sqlite postgres").
source "$(dirname "$0")/binaries.sh"
MIXES=${MIXES:-asset-checkout-cycle order-cycle}
ROUNDS=${ROUNDS:-3}
DURATION=${DURATION:-10}
WARMUP=${WARMUP:-2}
CONNECTIONS=${CONNECTIONS:-64}
ASSETS=${ASSETS:-1000}
ENDPOINTS=${ENDPOINTS:-3}
PORT=${PORT:-3996}
BARE_PORT=${BARE_PORT:-3992}
DATABASES=${DATABASES:-sqlite postgres}
export BENCH_THREADS=${BENCH_THREADS:-1}
PG_DB=rentrack_bench_webhooks

source bench/own-server.sh

run_mix() { # port, token, mix, more flags...
    local port=$1 token=$2 mix=$3
    shift 3
    "$BENCH" run --base-url "http://127.0.0.1:$port" --token "$token" --mix "$mix" \
        --connections "$CONNECTIONS" --duration "$DURATION" --warmup "$WARMUP" "$@" 2>/dev/null
}

measure() { # label, database URL, serve flags for the seed...
    local db=$1 url=$2
    shift 2
    local token round mix bare plain hooked
    token=$(company_token "$url" bench)
    start "$url" --webhook-allow-private "$@"
    "$BENCH" seed --base-url "http://127.0.0.1:$PORT" --token "$token" --locations 0 \
        --groups 0 --vendors 0 --members 5 --assets "$ASSETS" --orders 1000 \
        --order-assets $((5 * CONNECTIONS)) --concurrency 16 >/dev/null
    stop
    start "$url" --webhook-allow-private
    for round in $(seq 1 "$ROUNDS"); do
        for mix in $MIXES; do
            bare=$(run_mix "$BARE_PORT" x healthz | rps)
            plain=$(run_mix "$PORT" "$token" "$mix")
            hooked=$(run_mix "$PORT" "$token" "$mix" --webhooks "$ENDPOINTS")
            awk -v db="$db" -v r="$round" -v mix="$mix" -v bare="$bare" -v n="$ENDPOINTS" \
                -v a="$(rps <<<"$plain")" -v b="$(rps <<<"$hooked")" \
                -v ea="$(figure errors <<<"$plain")" -v eb="$(figure errors <<<"$hooked")" \
                -v got="$(figure received <<<"$hooked")" \
                -v p50="$(figure lag_p50_ms <<<"$hooked")" -v p99="$(figure lag_p99_ms <<<"$hooked")" \
                'BEGIN { printf "%s round %s %s: without %.1f req/s (%.4f of bare, %s errors), with %d endpoints %.1f req/s (%.4f of bare, %s errors): %.3f of without; %s deliveries, lag p50 %s ms, p99 %s ms\n",
                    db, r, mix, a, a / bare, ea, n, b, b / bare, eb, b / a, got, p50, p99 }'
        done
    done
    stop
}

start_bare
for_each_database
