#!/usr/bin/env bash
# What a company's size costs (issue 39): for each size N of $SIZES, a company of N
# fixed assets (25 of them gizmos, imported through `POST /imports.api`), N/10 members
# (imported) and N/10 draft orders (`rentrack-bench seed --orders`, a request each);
# before the largest size, $CROWD other companies of $CROWD_ASSETS fixed assets each
# (`rentrack-bench copy-company` of one exported company). Then, on $CONNECTIONS
# connections: /healthz, an asset's details, the asset list's first and last pages,
# a filter's (available assets) first and last pages, the searches of run-search.sh
# (25 matches; every asset, first and last pages), a member's details, the member
# list's first and last pages, an order's details, the order list's first and last
# pages and all its pages in turn. Each size is a company of its own in one database
# that keeps the smaller ones.
#
# SQLite is seeded through the API; PostgreSQL gets the same companies moved in with
# `rentrack export` / `import-company` (and the same crowd with `copy-company`), so
# PostgreSQL needs SQLite measured first in the same run.
#
#   bench/run-scale.sh                                          # SQLite only
#   PG_URL=postgres://postgres@127.0.0.1:5432/postgres bench/run-scale.sh
#   SIZES="1000 10000" CROWD=100 bench/run-scale.sh            # a quick try
#
# Prints a table per size and database (requests/s, p99, ratio to /healthz of the same
# run), the seeding times and the server's peak resident memory under the load
# (VmHWM, the server process alone); appends a JSON line per size and database to $OUT,
# which bench/plot-scale.py draws (docs/scale.svg).
# Optional: SIZES ("1000 100000 1000000"), CROWD (10000), CROWD_ASSETS (100),
# DATABASES ("sqlite postgres"), CONNECTIONS (64), DURATION (8), WARMUP (2), ROUNDS (1),
# PORT (3989), OUT (bench/scale.jsonl), RENTRACK, BENCH.
source "$(dirname "$0")/binaries.sh"
SIZES=${SIZES:-1000 100000 1000000}
CROWD=${CROWD:-10000}
CROWD_ASSETS=${CROWD_ASSETS:-100}
DATABASES=${DATABASES:-sqlite postgres}
CONNECTIONS=${CONNECTIONS:-64}
DURATION=${DURATION:-8}
WARMUP=${WARMUP:-2}
ROUNDS=${ROUNDS:-1}
PORT=${PORT:-3989}
OUT=${OUT:-bench/scale.jsonl}
export BENCH_THREADS=${BENCH_THREADS:-1}
PG_DB=rentrack_bench_scale
MIXES="healthz asset-details asset-list-first asset-list-end asset-filter-first asset-filter-end
asset-search-few asset-search-first asset-search-end member-details member-list-first
member-list-end order-details order-list-first order-list-end order-list"
largest=$(tr ' ' '\n' <<<"$SIZES" | sort -n | tail -1)

source bench/own-server.sh

results=()
failures=()
declare -A tokens=()

# Seconds since $1 (a `date +%s.%N`).
since() { printf "%.2f" "$(echo "$(date +%s.%N) - $1" | bc)"; }

write_members() { # path, rows
    python3 - "$1" "$2" <<'PYEOF'
import sys
path, rows = sys.argv[1], int(sys.argv[2])
with open(path, "w", newline="") as f:
    f.write("first_name,last_name,email,role_id\r\n")
    for i in range(rows):
        f.write(f"Bench,Member {i},member{i}@example.com,2\r\n")
PYEOF
}

# The crowd: $CROWD companies copied from $dir/crowd; prints the seconds it took.
copies() { # database URL, concurrency
    "$BENCH" copy-company --database-url "$1" --from "$dir/crowd" --copies "$CROWD" \
        --concurrency "$2" | sed -n 's/.*"elapsed_s":\([0-9.]*\).*/\1/p' | xargs printf "%.2f"
}

# Runs the mixes against company $4 (size $3) and sums them up, with the seed's JSON
# fields $5 and the server's peak memory.
measure_size() { # label, database URL, size, token, seed JSON fields
    local db=$1 size=$3 token=$4 rss
    local -A got=() p99s=()
    run_rounds "$db" "$token"
    rss=$(awk '/^VmHWM:/ { printf "%.0f", $2 / 1024 }' "/proc/$server/status")
    stop
    summarize scale "$db" "$db, $size assets, $((size / 10)) members and orders, seeded ${5#*\"seed_s\":}, peak RSS $rss MiB" \
        "\"assets\":$size,\"members\":$((size / 10)),\"orders\":$((size / 10)),$5,\"rss_peak_mib\":$rss,"
    echo "${results[-1]}" >>"$OUT"
}

# On SQLite, through the server's API: the crowd (before the largest size), then each
# size; each company is exported into $dir/scale<N> for PostgreSQL.
sqlite_url="sqlite://$dir/scale.db"
for size in $(tr ' ' '\n' <<<"$SIZES" | sort -n); do
    crowd_s=0
    start "$sqlite_url" --sqlite-synchronous normal
    if [[ $size == "$largest" && $CROWD -gt 0 ]]; then
        token=$(company_token "$sqlite_url" crowdsource)
        { echo "name,group,purchased_on"; for i in $(seq 1 "$CROWD_ASSETS"); do echo "Crowd Asset $i,Crowd,03/15/2024"; done; } >"$dir/crowd.csv"
        import_file "$token" fixed_assets "$dir/crowd.csv"
        # Another process writing without a pause keeps the server from writing.
        stop
        "$RENTRACK" export --database-url "$sqlite_url" --subdomain crowdsource --to "$dir/crowd" >/dev/null
        crowd_s=$(copies "$sqlite_url" 1)
        start "$sqlite_url" --sqlite-synchronous normal
    fi
    token=$(company_token "$sqlite_url" "scale$size")
    write_assets "$dir/assets.csv" "$size"
    t0=$(date +%s.%N)
    import_file "$token" fixed_assets "$dir/assets.csv"
    assets_s=$(since "$t0")
    write_members "$dir/members.csv" $((size / 10))
    t0=$(date +%s.%N)
    import_file "$token" members "$dir/members.csv"
    members_s=$(since "$t0")
    orders_s=$("$BENCH" seed --base-url "http://127.0.0.1:$PORT" --token "$token" --locations 0 \
        --groups 0 --vendors 0 --orders $((size / 10)) --order-assets 10 --concurrency 16 |
        sed -n 's/.*"orders_elapsed_s":\([0-9.]*\).*/\1/p')
    tokens[$size]=$token
    if [[ " $DATABASES " == *" sqlite "* ]]; then
        restart_after_seed sqlite "$sqlite_url"
        measure_size sqlite "$sqlite_url" "$size" "$token" \
            "\"crowd\":$((size == largest ? CROWD : 0)),\"seed_s\":{\"crowd\":$crowd_s,\"assets\":$assets_s,\"members\":$members_s,\"orders\":$orders_s}"
    else
        stop
    fi
    if [[ " $DATABASES " == *" postgres "* && -n ${PG_URL:-} ]]; then
        "$RENTRACK" export --database-url "$sqlite_url" --subdomain "scale$size" --to "$dir/scale$size" >/dev/null
    fi
done

# On PostgreSQL, the same companies moved in.
if [[ " $DATABASES " == *" postgres "* ]]; then
    if [[ -z ${PG_URL:-} ]]; then
        echo "PG_URL not set: PostgreSQL skipped" >&2
    else
        psql -q "$PG_URL" -c "DROP DATABASE IF EXISTS $PG_DB" -c "CREATE DATABASE $PG_DB" \
            -c "ALTER DATABASE $PG_DB SET synchronous_commit = off" >/dev/null
        pg_url="${PG_URL%/*}/$PG_DB"
        "$RENTRACK" migrate --database-url "$pg_url" >/dev/null
        for size in $(tr ' ' '\n' <<<"$SIZES" | sort -n); do
            crowd_s=0
            if [[ $size == "$largest" && $CROWD -gt 0 ]]; then
                crowd_s=$(copies "$pg_url" 4)
            fi
            t0=$(date +%s.%N)
            "$RENTRACK" import-company --database-url "$pg_url" --from "$dir/scale$size" \
                --subdomain "scale$size" >/dev/null
            moved_s=$(since "$t0")
            start "$pg_url"
            restart_after_seed postgres "$pg_url"
            measure_size postgres "$pg_url" "$size" "${tokens[$size]}" \
                "\"crowd\":$((size == largest ? CROWD : 0)),\"seed_s\":{\"crowd\":$crowd_s,\"import_company\":$moved_s}"
        done
    fi
fi
finish
