#!/usr/bin/env bash
# Two or more builds of the server, alternating on one database that is already seeded
# (`rentrack company create`, then `rentrack-bench seed` against a server on it):
# on a noisy machine, where one build's figures move by a fifth between runs, only
# builds measured in turn on the same data compare. For each round and build: start
# the build on the database, and for each mix measure the bare axum server
# (`rentrack-bench bare`) for 2 s and then the mix; print the mix's requests/s, its
# ratio to that bare figure, and the server's CPU per request (user and system time
# from /proc, over the mix's warm-up and window), one line per build and round.
#
#   bench/run-ab.sh sqlite:///tmp/bench.db TOKEN old/rentrack new/rentrack
#   MIXES="asset-list-first member-list-end" ROUNDS=5 bench/run-ab.sh postgres://... TOKEN a b
#
# Optional: MIXES (asset-list-first asset-list-end), ROUNDS (3), DURATION (4), WARMUP
# (1), CONNECTIONS (64), BENCH_THREADS (1), PORT (3993), BARE_PORT (3992), BENCH (a
# prebuilt rentrack-bench; built in release mode otherwise).
set -euo pipefail
(($# >= 3)) || { sed -n '2,17p' "$0" >&2; exit 1; }
url=$1 token=$2
shift 2
cd "$(dirname "$0")/.."
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$HOME/.cache/rentrack-target}
if [[ -z "${BENCH:-}" ]]; then
    cargo build --release --quiet -p rentrack-bench
fi
BENCH=${BENCH:-$CARGO_TARGET_DIR/release/rentrack-bench}
MIXES=${MIXES:-asset-list-first asset-list-end}
ROUNDS=${ROUNDS:-3}
DURATION=${DURATION:-4}
WARMUP=${WARMUP:-1}
CONNECTIONS=${CONNECTIONS:-64}
PORT=${PORT:-3993}
BARE_PORT=${BARE_PORT:-3992}
export BENCH_THREADS=${BENCH_THREADS:-1}

# own-server.sh: start, stop, start_bare and rps; it drops $PG_DB at exit only when
# PG_URL is set, and this script creates no database.
unset PG_URL
PG_DB=none RENTRACK=
source bench/own-server.sh

mix_rps() { # port, mix, seconds
    "$BENCH" run --base-url "http://127.0.0.1:$1" --token "$token" --mix "$2" \
        --connections "$CONNECTIONS" --duration "$3" --warmup "$WARMUP" 2>/dev/null | rps
}

cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }

start_bare
hz=$(getconf CLK_TCK)
for round in $(seq 1 "$ROUNDS"); do
    for build in "$@"; do
        RENTRACK=$build
        start "$url"
        line="round $round $build:"
        for mix in $MIXES; do
            reference=$(mix_rps "$BARE_PORT" healthz 2)
            before=$(cpu_ticks "$server")
            got=$(mix_rps "$PORT" "$mix" "$DURATION")
            after=$(cpu_ticks "$server")
            line+=$(awk -v m="$mix" -v x="$got" -v b="$reference" -v t="$((after - before))" \
                -v hz="$hz" -v s="$((DURATION + WARMUP))" \
                'BEGIN { printf " %s %.0f req/s (%.3f of bare, %.0f µs CPU)", m, x, x / b, t / hz * 1e6 / (x * s) }')
        done
        echo "$line"
        stop
    done
done
kill "$bare_server"
wait "$bare_server" 2>/dev/null || true
bare_server=
