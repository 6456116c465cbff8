#!/usr/bin/env bash
# Throughput of one, two and three instances on one PostgreSQL behind haproxy
# (packaging/instances.sh; issue 40), against one instance reached directly, in the
# same round: seeds 1,000 fixed assets and a member per connection through haproxy,
# then runs each mix of $MIXES on $CONNECTIONS connections through haproxy with 1, 2
# and 3 instances in service (the others put in maintenance on haproxy's admin
# socket), and on instance 1 alone without haproxy (`direct`). Prints a JSON line per
# run and a table of medians (requests/s, and the ratio to `direct` in the same round).
#
#   bench/run-instances.sh
#   PG_URL=postgres://postgres@127.0.0.1:5432/postgres ROUNDS=5 bench/run-instances.sh
#
# Needs haproxy (installed when missing, as root), psql, python3 and a PostgreSQL server.
# Optional: PG_URL, PORT (packaging/instances.sh), CONNECTIONS (64), DURATION (10),
# WARMUP (2), ROUNDS (3), BENCH_THREADS (1), MIXES ("healthz asset-details
# asset-checkout-cycle"). On a machine of few cores the load generator, haproxy, the
# instances and PostgreSQL share them: say so with the figures.
source "$(dirname "$0")/binaries.sh"
source packaging/instances.sh
CONNECTIONS=${CONNECTIONS:-64}
DURATION=${DURATION:-10}
WARMUP=${WARMUP:-2}
ROUNDS=${ROUNDS:-3}
export BENCH_THREADS=${BENCH_THREADS:-1}
MIXES=${MIXES:-"healthz asset-details asset-checkout-cycle"}

for i in 1 2 3; do
    start_instance "$i"
done
start_haproxy 3
token=$(company_token "$url" bench)
"$BENCH" seed --base-url "$base" --token "$token" --locations 10 --groups 0 --vendors 0 \
    --members "$CONNECTIONS" --assets 1000 --concurrency 16 >/dev/null
psql -q "$url" -c "VACUUM ANALYZE" >/dev/null

# Puts instances 1..N in service on haproxy and the others in maintenance.
serve_with() { # N
    local i
    for i in 1 2 3; do
        haproxy_command "set server rentrack/r$i state $( ((i <= $1)) && echo ready || echo maint)" >/dev/null
    done
    for i in $(seq 1 "$1"); do
        await_state "$i" UP
    done
}

lines="$dir/lines"
for round in $(seq 1 "$ROUNDS"); do
    for setup in direct 1 2 3; do
        target=$base
        if [[ $setup == direct ]]; then
            target=http://127.0.0.1:$((PORT + 1))
        else
            serve_with "$setup"
        fi
        for mix in $MIXES; do
            line=$("$BENCH" run --base-url "$target" --token "$token" --mix "$mix" \
                --connections "$CONNECTIONS" --duration "$DURATION" --warmup "$WARMUP")
            echo "{\"round\":$round,\"setup\":\"$setup\",\"mix\":\"$mix\",\"run\":$line}" | tee -a "$lines"
        done
    done
done

python3 - "$lines" "$CONNECTIONS" "$ROUNDS" <<'EOF' >&2
import json, statistics, sys
runs = [json.loads(line) for line in open(sys.argv[1])]
rps = {(r["round"], r["setup"], r["mix"]): r["run"]["rps"] for r in runs}
errors = sum(r["run"].get("errors", 0) for r in runs)
mixes = list(dict.fromkeys(r["mix"] for r in runs))
rounds = sorted({r["round"] for r in runs})
print(f"{sys.argv[2]} connections, median of {sys.argv[3]} rounds: requests/s (ratio to one instance reached directly)")
print(f"  {'mix':<24}" + "".join(f"{s:>22}" for s in ("direct", "1 behind haproxy", "2 behind haproxy", "3 behind haproxy")))
for mix in mixes:
    cells = []
    for setup in ("direct", "1", "2", "3"):
        value = statistics.median(rps[k, setup, mix] for k in rounds)
        ratio = statistics.median(rps[k, setup, mix] / rps[k, "direct", mix] for k in rounds)
        cells.append(f"{value:>12.0f} ({ratio:.2f})")
    print(f"  {mix:<24}" + "".join(f"{c:>22}" for c in cells))
print(f"failed requests in all runs: {errors}")
EOF
