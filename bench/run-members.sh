#!/usr/bin/env bash
# Seed 1000 members, then run the healthz, member-details, member-list and
# member-list-active mixes at 64 connections for 10 s each.
#
#   BASE_URL=http://127.0.0.1:3000 TOKEN=... bench/run-members.sh
#
# Same knobs and output as run-catalog.sh: SKIP_SEED=1, MEMBERS, CONNECTIONS,
# DURATION, WARMUP, BENCH (path to a prebuilt rentrack-bench binary).
set -euo pipefail

: "${BASE_URL:?set BASE_URL, e.g. http://127.0.0.1:3000}"
: "${TOKEN:?set TOKEN to the company API token}"
export BASE_URL TOKEN
CONNECTIONS=${CONNECTIONS:-64}
DURATION=${DURATION:-10}
WARMUP=${WARMUP:-2}

if [[ -z "${BENCH:-}" ]]; then
    cd "$(dirname "$0")/.."
    export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$HOME/.cache/rentrack-target}
    cargo build --release --quiet -p rentrack-bench
    BENCH="$CARGO_TARGET_DIR/release/rentrack-bench"
fi

results=()
if [[ "${SKIP_SEED:-0}" != 1 ]]; then
    results+=("$("$BENCH" seed --locations 0 --groups 0 --vendors 0 --members "${MEMBERS:-1000}" --concurrency 16)")
fi
for mix in healthz member-details member-list member-list-active; do
    results+=("$("$BENCH" run --mix "$mix" --connections "$CONNECTIONS" \
        --duration "$DURATION" --warmup "$WARMUP")")
done

printf '%s\n' "${results[@]}"
