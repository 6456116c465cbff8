#!/usr/bin/env bash
# The health checks against the machine's limit (issue 40): `/livez` (asks nothing of
# the database), `/readyz` (the database answers within 2 s) and `/healthz`, each sent
# by wrk (Debian's package, installed when missing) at $CONNECTIONS connections on one
# thread, beside the bare axum server (`rentrack-bench bare`) in the same round; prints
# the medians of $ROUNDS rounds as requests/s and their ratio to the bare server. On a
# fresh SQLite file and, with PG_URL set, on a fresh PostgreSQL database.
#
#   bench/run-health.sh
#   PG_URL=postgres://postgres@127.0.0.1:5432/postgres bench/run-health.sh
#
# Optional: CONNECTIONS (64), DURATION (10), ROUNDS (3), PORT (3995), BARE_PORT (3994),
# DATABASES ("sqlite postgres").
source "$(dirname "$0")/binaries.sh"
CONNECTIONS=${CONNECTIONS:-64}
DURATION=${DURATION:-10}
ROUNDS=${ROUNDS:-3}
PORT=${PORT:-3995}
BARE_PORT=${BARE_PORT:-3994}
DATABASES=${DATABASES:-sqlite postgres}
PG_DB=rentrack_bench_health
PATHS="livez readyz healthz"

if ! command -v wrk >/dev/null 2>&1; then
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq && apt-get install -y -qq wrk >/dev/null
fi

source bench/own-server.sh

# Requests a second wrk reaches on $1 (every answer must be a 200).
wrk_rps() { # url
    local out
    out=$(wrk -t1 -c "$CONNECTIONS" -d "${DURATION}s" "$1")
    if grep -q "Non-2xx" <<<"$out"; then
        echo "answers other than 200 from $1: $out" >&2
        exit 1
    fi
    awk '/^Requests\/sec:/ {print $2}' <<<"$out"
}

start_bare
measure() { # label (sqlite or postgres), database URL
    local db=$1 round path
    local -A got=()
    start "$2"
    for round in $(seq 1 "$ROUNDS"); do
        got[bare]+="$(wrk_rps "http://127.0.0.1:$BARE_PORT/healthz") "
        for path in $PATHS; do
            got[$path]+="$(wrk_rps "http://127.0.0.1:$PORT/$path") "
        done
    done
    stop
    printf '%s, %d connections, median of %d rounds:\n  %-10s %12s %8s\n' "$db" "$CONNECTIONS" "$ROUNDS" path "req/s" "/bare" >&2
    for path in bare $PATHS; do
        printf '  %-10s %12.0f %8.3f\n' "/$path" "$(median_of "${got[$path]}")" \
            "$(median_of "${got[$path]}" "${got[bare]}")" >&2
    done
}
for_each_database
