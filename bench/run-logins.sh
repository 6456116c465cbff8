#!/usr/bin/env bash
# What 64 parallel owner log-ins (each one argon2 run) cost everybody else: /healthz
# measured alone, then with the log-ins going on in the background. Starts its own
# server on a fresh SQLite file (with --trusted-proxy 127.0.0.1, so the log-ins'
# forwarded addresses are believed); RENTRACK may name another build of the server (to
# compare two versions; SERVE_ARGS then replaces the extra serve flags), BENCH the
# load tool.
#
#   bench/run-logins.sh                       # builds both in release mode
#   RENTRACK=/path/to/old/rentrack bench/run-logins.sh
#
# Optional: LOGINS (64), CONNECTIONS (16), DURATION (8), WARMUP (2), BENCH_THREADS (1), PORT (3999).
source "$(dirname "$0")/binaries.sh"
LOGINS=${LOGINS:-64}
CONNECTIONS=${CONNECTIONS:-16}
DURATION=${DURATION:-8}
WARMUP=${WARMUP:-2}
PORT=${PORT:-3999}
export BENCH_THREADS=${BENCH_THREADS:-1}

dir=$(mktemp -d)
trap 'kill "${server:-0}" 2>/dev/null || true; rm -rf "$dir"' EXIT
db="sqlite://$dir/bench.db"
token=$("$RENTRACK" company create --database-url "$db" --name Bench --subdomain bench \
    --plan unlimited --enable-api | sed 's/.*"token":"\([^"]*\)".*/\1/')
# shellcheck disable=SC2086 # SERVE_ARGS is a list of flags
RENTRACK_LOG=warn "$RENTRACK" serve --database-url "$db" --listen "127.0.0.1:$PORT" \
    ${SERVE_ARGS---trusted-proxy 127.0.0.1} &
server=$!
for _ in $(seq 1 100); do curl -sf "http://127.0.0.1:$PORT/healthz" >/dev/null && break; sleep 0.1; done

run() {
    "$BENCH" run --base-url "http://127.0.0.1:$PORT" --token "$token" --mix healthz \
        --connections "$CONNECTIONS" --duration "$DURATION" --warmup "$WARMUP" "$@"
}
run
run --logins "$LOGINS" --login-subdomain bench
