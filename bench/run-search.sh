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
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$HOME/.cache/rentrack-target}
if [[ -z "${RENTRACK:-}" || -z "${BENCH:-}" ]]; then
    cargo build --release --quiet -p rentrack -p rentrack-bench
fi
RENTRACK=${RENTRACK:-$CARGO_TARGET_DIR/release/rentrack}
BENCH=${BENCH:-$CARGO_TARGET_DIR/release/rentrack-bench}
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

# The import file of $2 assets, 25 of them gizmos.
write_assets() { # path, rows
    python3 - "$1" "$2" <<'PYEOF'
import sys
path, rows = sys.argv[1], int(sys.argv[2])
every = max(rows // 25, 1)
with open(path, "w", newline="") as f:
    f.write("name,group,purchased_on\r\n")
    for i in range(rows):
        name = f"Rare Gizmo {i // every}" if i % every == every // 2 and i // every < 25 else f"Bench Asset {i}"
        f.write(f"{name},Bench,03/15/2024\r\n")
PYEOF
}

# Imports the file $2 into the company of token $1 and waits for it to end.
import_assets() { # token, path
    local base="http://127.0.0.1:$PORT" id state
    id=$(curl -sf -H "token: $1" -F "import[kind]=fixed_assets" -F 'import[create_missing]=true' \
        -F "import[file]=@$2" "$base/imports.api" |
        python3 -c 'import json,sys; print(json.load(sys.stdin)["import"]["id"])')
    while :; do
        state=$(curl -sf -H "token: $1" "$base/imports/$id.api" |
            python3 -c 'import json,sys; i=json.load(sys.stdin)["import"]; print(i["state"], i["created"], i["errors_total"])')
        [[ $state == done* || $state == failed* ]] && break
        sleep 0.5
    done
    [[ $state == "done "*" 0" ]] || { echo "import: $state" >&2; exit 1; }
}

measure() { # label, database URL, serve flags...
    local db=$1 url=$2 size token t0 seeded mix line json
    shift 2
    start "$url" "$@"
    for size in $SIZES; do
        token=$(company_token "$url" "search$size")
        write_assets "$dir/assets.csv" "$size"
        t0=$(date +%s.%N)
        import_assets "$token" "$dir/assets.csv"
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
