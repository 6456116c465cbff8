#!/usr/bin/env bash
# Seed, then run some mixes at 64 connections for 10 s each. Used by
# run-catalog.sh and run-members.sh; call it directly for other blends:
#
#   BASE_URL=... TOKEN=... SEED_ARGS="--members 500" MIXES="healthz member-list" bench/run.sh
#
# Human-readable lines go to stderr as it runs; the JSON lines (one per step)
# are printed on stdout at the end, ready to paste into notes.
# Optional: SKIP_SEED=1, CONNECTIONS, DURATION, WARMUP, BENCH_THREADS,
# BENCH (path to a prebuilt rentrack-bench binary).
set -euo pipefail

: "${BASE_URL:?set BASE_URL, e.g. http://127.0.0.1:3000}"
: "${TOKEN:?set TOKEN to the company API token}"
: "${SEED_ARGS:?set SEED_ARGS, e.g. --locations 1000}"
: "${MIXES:?set MIXES, e.g. healthz location-list}"
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
    # shellcheck disable=SC2086 # SEED_ARGS is a list of flags
    results+=("$("$BENCH" seed $SEED_ARGS --concurrency 16)")
fi
for mix in $MIXES; do
    results+=("$("$BENCH" run --mix "$mix" --connections "$CONNECTIONS" \
        --duration "$DURATION" --warmup "$WARMUP")")
done

printf '%s\n' "${results[@]}"
