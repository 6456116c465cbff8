#!/usr/bin/env bash
# A flame graph of the server answering one mix (default: location details) at 64
# connections: starts its own server on a fresh SQLite file (or PostgreSQL with
# DATABASE=postgres and PG_URL), seeds 1,000 locations, members and assets, samples the
# server with `perf record` (software clock, DWARF call graphs) while `rentrack-bench
# run` drives the mix, and folds the samples into an SVG with inferno.
#
#   bench/flamegraph.sh docs/flamegraphs/location-details.svg
#   MIX=member-details RENTRACK=/path/to/old/rentrack bench/flamegraph.sh old.svg
#
# Installs what it needs: Debian's linux-perf (perf) and, with cargo, inferno
# (inferno-collapse-perf, inferno-flamegraph). Optional: MIX (location-details),
# DURATION (10), FREQUENCY (299 samples a second), PORT (3991), DATABASE (sqlite),
# FOLDED (a file to keep the folded stacks in, for reading them as text), SAMPLE
# (`server`, the default, or `machine`: every process, so PostgreSQL's processes and
# the bench client are in the graph beside the server, each under its own name).
OUT=${1:?name the SVG to write}
# `dist` with line tables and symbols: what packages run, with names in the graph.
PROFILE=${PROFILE:-profiling}
source "$(dirname "$0")/binaries.sh"
MIX=${MIX:-location-details}
DURATION=${DURATION:-10}
FREQUENCY=${FREQUENCY:-299}
PORT=${PORT:-3991}
DATABASE=${DATABASE:-sqlite}
PG_DB=rentrack_bench_flame

if ! command -v perf >/dev/null 2>&1; then
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq && apt-get install -y -qq linux-perf >/dev/null
fi
if ! command -v inferno-flamegraph >/dev/null 2>&1; then
    cargo install --quiet --locked inferno
fi

source bench/own-server.sh

case $DATABASE in
sqlite) url="sqlite://$dir/bench.db" ;;
postgres)
    : "${PG_URL:?set PG_URL for DATABASE=postgres}"
    psql -q "$PG_URL" -c "DROP DATABASE IF EXISTS $PG_DB" -c "CREATE DATABASE $PG_DB" >/dev/null
    url="${PG_URL%/*}/$PG_DB"
    ;;
*) echo "DATABASE is sqlite or postgres" >&2; exit 1 ;;
esac
token=$(company_token "$url" flame)
start "$url"
"$BENCH" seed --base-url "http://127.0.0.1:$PORT" --token "$token" --locations 1000 --groups 0 \
    --vendors 0 --members 1000 --assets 1000 --concurrency 16 >/dev/null
restart_after_seed "$DATABASE" "$url"
case ${SAMPLE:-server} in
server) target=(-p "$server") ;;
machine) target=(-a) ;;
*) echo "SAMPLE is server or machine" >&2; exit 1 ;;
esac
perf record -q -F "$FREQUENCY" --call-graph dwarf,16384 "${target[@]}" -o "$dir/perf.data" \
    -- sleep "$((DURATION + 2))" 2>/dev/null &
recorder=$!
BENCH_THREADS=1 "$BENCH" run --base-url "http://127.0.0.1:$PORT" --token "$token" --mix "$MIX" \
    --connections 64 --duration "$DURATION" --warmup 2 | tee "$dir/run.json" >&2
wait "$recorder" || true
mkdir -p "$(dirname "$OUT")"
perf script -i "$dir/perf.data" 2>/dev/null | inferno-collapse-perf >"$dir/folded"
rps=$(rps <"$dir/run.json")
inferno-flamegraph --minwidth 1 --title "rentrack $MIX, $DATABASE, 64 connections ($rps req/s while sampled; ${SAMPLE:-server})" \
    <"$dir/folded" >"$OUT"
if [[ -n "${FOLDED:-}" ]]; then cp "$dir/folded" "$FOLDED"; fi
echo "wrote $OUT" >&2
