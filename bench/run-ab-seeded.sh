#!/usr/bin/env bash
# Two builds whose schemas differ (a newer build's migrations stop an older one from
# starting on its database), each on its own fresh database seeded the same way by
# that build, measured in turn: for each round and build, start the build on its
# database, and for each mix measure the bare axum server (`rentrack-bench bare`) for
# 2 s and then the mix; print requests/s and the ratio to that bare figure, one line
# per build and round. The seed makes what the check-out and order cycles need.
#
#   bench/run-ab-seeded.sh old/rentrack new/rentrack
#
# Build the two binaries in two target folders (CARGO_TARGET_DIR): cargo's hashes
# are relative to the workspace, so a second worktree built into the first one's
# folder can reuse its artifacts and yield the same binary twice.
#   MIXES="asset-checkout-cycle order-cycle" ROUNDS=5 bench/run-ab-seeded.sh a b
#   PG_URL=postgres://postgres@127.0.0.1:5432/postgres bench/run-ab-seeded.sh a b
#
# Optional: MIXES (asset-checkout-cycle order-cycle), ROUNDS (3), DURATION (5), WARMUP
# (1), CONNECTIONS (64), ASSETS (1000), ORDERS (1000), BENCH_THREADS (1), PORT (3993),
# BARE_PORT (3992), BENCH (a prebuilt rentrack-bench; built in release mode otherwise),
# PG_URL (PostgreSQL instead of SQLite: the script creates and drops rentrack_ab_0 and
# rentrack_ab_1 there; needs psql).
set -euo pipefail
(($# == 2)) || { sed -n '2,21p' "$0" >&2; exit 1; }
builds=("$1" "$2")
cd "$(dirname "$0")/.."
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$HOME/.cache/rentrack-target}
if [[ -z "${BENCH:-}" ]]; then
    cargo build --release --quiet -p rentrack-bench
fi
BENCH=${BENCH:-$CARGO_TARGET_DIR/release/rentrack-bench}
MIXES=${MIXES:-asset-checkout-cycle order-cycle}
ROUNDS=${ROUNDS:-3}
DURATION=${DURATION:-5}
WARMUP=${WARMUP:-1}
CONNECTIONS=${CONNECTIONS:-64}
ASSETS=${ASSETS:-1000}
ORDERS=${ORDERS:-1000}
PORT=${PORT:-3993}
BARE_PORT=${BARE_PORT:-3992}
export BENCH_THREADS=${BENCH_THREADS:-1}

# own-server.sh: start, stop, start_bare, company_token and rps. It drops $PG_DB at
# exit when PG_URL is set; this script drops its own two databases.
pg=${PG_URL:-}
unset PG_URL
PG_DB=none RENTRACK=
source bench/own-server.sh
drop_dbs() {
    [[ -z "$pg" ]] && return
    for i in 0 1; do psql -q "$pg" -c "DROP DATABASE IF EXISTS rentrack_ab_$i" >/dev/null 2>&1 || true; done
}
trap 'cleanup; drop_dbs' EXIT

run_mix() { # port, token, mix, seconds: the run's JSON line
    "$BENCH" run --base-url "http://127.0.0.1:$1" --token "$2" --mix "$3" \
        --connections "$CONNECTIONS" --duration "$4" --warmup "$WARMUP" 2>/dev/null
}

urls=() tokens=()
drop_dbs
for i in 0 1; do
    if [[ -n "$pg" ]]; then
        psql -q "$pg" -c "CREATE DATABASE rentrack_ab_$i" >/dev/null
        urls+=("${pg%/*}/rentrack_ab_$i")
    else
        urls+=("sqlite://$dir/ab_$i.db")
    fi
    RENTRACK=${builds[$i]}
    tokens+=("$(company_token "${urls[$i]}" "ab$i")")
    start "${urls[$i]}"
    "$BENCH" seed --base-url "http://127.0.0.1:$PORT" --token "${tokens[$i]}" --locations 0 \
        --groups 0 --vendors 0 --members 5 --assets "$ASSETS" --orders "$ORDERS" \
        --order-assets $((5 * CONNECTIONS)) \
        --concurrency 16 >/dev/null
    stop
done
start_bare
for round in $(seq 1 "$ROUNDS"); do
    for i in 0 1; do
        RENTRACK=${builds[$i]}
        start "${urls[$i]}"
        line="round $round ${builds[$i]}:"
        for mix in $MIXES; do
            reference=$(run_mix "$BARE_PORT" x healthz 2 | rps)
            out=$(run_mix "$PORT" "${tokens[$i]}" "$mix" "$DURATION")
            got=$(rps <<<"$out")
            line+=" $mix $got req/s $(awk -v a="$got" -v b="$reference" 'BEGIN { printf "%.4f", a / b }') of bare"
            line+=" ($(figure errors <<<"$out") errors)"
        done
        stop
        echo "$line"
    done
done
