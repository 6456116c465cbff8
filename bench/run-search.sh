#!/usr/bin/env bash
# Name search as a company grows: for each size of $SIZES, a company of that many fixed
# assets (imported through `POST /imports.api`), every one named `Bench Asset <n>`
# but 25, spread through the list, named `Rare Gizmo <k>`; then, on $CONNECTIONS
# connections, /healthz, an asset's details, a search matching the 25
# (`asset-search-few`), and a search matching every asset, its first page and its
# last ten (`asset-search-first`, `asset-search-end`). Prints a line a size and
# database with each mix's requests/s and its ratio to the details of the same run,
# and writes them to $OUT (a JSON line each). The companies of all sizes share one
# database, so the larger ones are searched beside the smaller.
#
#   bench/run-search.sh
#   SIZES="1000 100000 1000000" PG_URL=postgres://postgres@127.0.0.1:5432/postgres bench/run-search.sh
#
# Optional: SIZES ("1000 100000"), DATABASES ("sqlite postgres"), CONNECTIONS (64),
# DURATION (10), WARMUP (2), PORT (3997), OUT (bench/search.jsonl), RENTRACK, BENCH.
source "$(dirname "$0")/binaries.sh"
SIZES=${SIZES:-1000 100000}
DATABASES=${DATABASES:-sqlite postgres}
CONNECTIONS=${CONNECTIONS:-64}
DURATION=${DURATION:-10}
WARMUP=${WARMUP:-2}
PORT=${PORT:-3997}
OUT=${OUT:-bench/search.jsonl}
export BENCH_THREADS=${BENCH_THREADS:-1}
PG_DB=rentrack_bench_search
MIXES="healthz asset-details asset-search-few asset-search-first asset-search-end"

source bench/own-server.sh

measure() { # label, database URL, serve flags...
    local db=$1 url=$2 size token t0 seeded mix line json
    shift 2
    start "$url" "$@"
    for size in $SIZES; do
        token=$(company_token "$url" "search$size")
        write_assets "$dir/assets.csv" "$size"
        t0=$(date +%s.%N)
        import_file "$token" fixed_assets "$dir/assets.csv"
        seeded=$(echo "$(date +%s.%N) - $t0" | bc)
        restart_after_seed "$db" "$url"
        declare -A got=()
        for mix in $MIXES; do
            line=$("$BENCH" run --base-url "http://127.0.0.1:$PORT" --token "$token" --mix "$mix" \
                --connections "$CONNECTIONS" --duration "$DURATION" --warmup "$WARMUP" --id-pages 40)
            [[ $(failures_of <<<"$line") == "" ]] || { echo "$mix: $(failures_of <<<"$line") $(first_error <<<"$line")" >&2; exit 1; }
            got[$mix]=$(rps <<<"$line")
        done
        json="{\"bench\":\"search\",\"database\":\"$db\",\"assets\":$size,\"seed_s\":$seeded"
        for mix in $MIXES; do
            json+=",\"$mix\":${got[$mix]}"
        done
        echo "$json}" >>"$OUT"
        awk -v db="$db" -v n="$size" -v s="$seeded" -v h="${got[healthz]}" -v d="${got[asset-details]}" \
            -v f="${got[asset-search-few]}" -v a="${got[asset-search-first]}" -v e="${got[asset-search-end]}" \
            'BEGIN { printf "%s, %d assets (imported in %.0f s): healthz %.0f, details %.0f (%.3f of healthz); search of 25 %.0f (%.3f of details), of all: page 1 %.0f (%.3f), last pages %.0f (%.3f)\n",
                db, n, s, h, d, d / h, f, f / d, a, a / d, e, e / d }'
        stop
        start "$url" "$@"
    done
    stop
}

for_each_database
