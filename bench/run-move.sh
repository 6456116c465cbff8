#!/usr/bin/env bash
# A company moved between databases (`rentrack export`, `rentrack import-company`):
# rows a second, each command's peak memory, and what a move into a database a server
# is serving costs that server's requests.
#
# Seeds a company on a fresh SQLite file with $ROWS fixed assets (the CSV import of
# run-import.sh, through the API), exports it, imports it into a fresh PostgreSQL
# database (PG_URL) on which a server runs for another company, sampling that
# company's vendor details idle and during the import; then exports it from
# PostgreSQL and imports it into a fresh SQLite file. Prints one line a step: the rows
# of every table, the seconds, rows/s, the command's peak resident memory, and for the
# import into PostgreSQL the details' p50 and p99 idle and during, with their ratio.
#
#   PG_URL=postgres://postgres@127.0.0.1:5432/postgres bench/run-move.sh
#
# Optional: ROWS (100000), PORT (3998).
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$HOME/.cache/rentrack-target}
if [[ -z "${RENTRACK:-}" ]]; then
    cargo build --release --quiet -p rentrack
fi
RENTRACK=${RENTRACK:-$CARGO_TARGET_DIR/release/rentrack}
ROWS=${ROWS:-100000}
PORT=${PORT:-3998}
PG_DB=rentrack_bench_move
: "${PG_URL:?PG_URL names the PostgreSQL server to move to}"

source bench/own-server.sh

pg_url=${PG_URL%/*}/$PG_DB
psql -q "$PG_URL" -c "DROP DATABASE IF EXISTS $PG_DB" -c "CREATE DATABASE $PG_DB" >/dev/null

python3 - "$dir/assets.csv" "$ROWS" <<'EOF'
import sys
path, rows = sys.argv[1], int(sys.argv[2])
with open(path, "w", newline="") as f:
    f.write("name,group,location,purchased_on,identifier,daily\r\n")
    for i in range(rows):
        f.write(f'Asset {i},Bench,Shelf {i % 50},03/15/2024,ID-{i},"1,{i % 1000:03}.50"\r\n')
EOF

# Runs a rentrack command; prints its seconds and peak resident memory (KiB), and its
# standard output into $dir/out.
timed() {
    python3 - "$dir/out" "$RENTRACK" "$@" <<'EOF'
import resource, subprocess, sys, time
out, command = sys.argv[1], sys.argv[2:]
t = time.monotonic()
with open(out, "w") as f:
    subprocess.run(command, stdout=f, check=True)
seconds = time.monotonic() - t
print(f"{seconds:.2f} {resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss}")
EOF
}

# The rows of every table a manifest or an import's answer counts.
rows_moved() {
    python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(sum(d["tables"].values()))' "$1"
}

report() { # step, seconds, KiB, rows, [extra]
    awk -v step="$1" -v s="$2" -v kib="$3" -v rows="$4" -v extra="${5:-}" \
        'BEGIN { printf "%s: %d rows in %.1f s, %.0f rows/s; peak RSS %.0f MiB%s\n", step, rows, s, rows / s, kib / 1024, extra }'
}

# The seed: fixed assets through the API's import, on SQLite.
sqlite_url="sqlite://$dir/source.db"
token=$(company_token "$sqlite_url" moving)
start "$sqlite_url"
import_file "$token" fixed_assets "$dir/assets.csv"
stop

read -r s kib < <(timed export --database-url "$sqlite_url" --subdomain moving --to "$dir/from-sqlite")
report "SQLite export" "$s" "$kib" "$(rows_moved "$dir/from-sqlite/manifest.json")"

# The target serves another company while the move goes in.
other=$(company_token "$pg_url" serving)
start "$pg_url"
base="http://127.0.0.1:$PORT"
vendor=$(curl -sf -H "token: $other" -d 'vendor[name]=Probe' "$base/vendors.api" |
    python3 -c 'import json,sys; print(json.load(sys.stdin)["vendor"]["id"])')
details="$base/vendors/$vendor.api"
read -r idle50 idle99 _ < <(sample "$details" 5 /nonexistent "$other")
sample "$details" 3600 "$dir/done" "$other" >"$dir/busy" &
sampler=$!
read -r s kib < <(timed import-company --database-url "$pg_url" --from "$dir/from-sqlite" --subdomain moving)
touch "$dir/done"
wait "$sampler"
read -r busy50 busy99 busy_n <"$dir/busy"
report "PostgreSQL import-company" "$s" "$kib" "$(rows_moved "$dir/out")" \
    "; the server's details idle p50 $idle50 ms p99 $idle99 ms, during p50 $busy50 ms p99 $busy99 ms ($busy_n): p99 $(echo "scale=2; $busy99 / $idle99" | bc)x idle"
stop

read -r s kib < <(timed export --database-url "$pg_url" --subdomain moving --to "$dir/from-postgres")
report "PostgreSQL export" "$s" "$kib" "$(rows_moved "$dir/from-postgres/manifest.json")"
read -r s kib < <(timed import-company --database-url "sqlite://$dir/target.db" --from "$dir/from-postgres" --subdomain moving)
report "SQLite import-company" "$s" "$kib" "$(rows_moved "$dir/out")"
