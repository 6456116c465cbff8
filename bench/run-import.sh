#!/usr/bin/env bash
# CSV imports: rows a second, the server's peak memory, and what an import running
# costs other requests. Starts its own server on a fresh SQLite file and, with PG_URL
# set, on a fresh PostgreSQL database; for each, writes a file of $ROWS records of
# $KIND: vendors (name, e-mail, address, website, a quoted field with a line break in
# every tenth row) or fixed_assets (name, group, location among 50, purchase date,
# identifier, daily rate with a thousands separator; the group and locations made by
# import[create_missing]),
# samples the latency of a vendor's details while idle, then imports the file
# (`POST /imports.api`, multipart) while sampling the same details again, and prints
# one line: rows/s, the server's peak resident memory (VmHWM) before and after, and
# the details' p50 and p99 idle and during the import, with their ratio; then exports
# the kind (`GET /exports/<kind>.api`, read to the end) while sampling again, and prints
# records/s, the peak memory and the details' p99 during the export.
#
#   bench/run-import.sh
#   PG_URL=postgres://postgres@127.0.0.1:5432/postgres DATABASES=postgres bench/run-import.sh
#
# Optional: ROWS (100000), KIND (vendors), PORT (3997), DATABASES ("sqlite postgres").
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$HOME/.cache/rentrack-target}
if [[ -z "${RENTRACK:-}" ]]; then
    cargo build --release --quiet -p rentrack
fi
RENTRACK=${RENTRACK:-$CARGO_TARGET_DIR/release/rentrack}
ROWS=${ROWS:-100000}
KIND=${KIND:-vendors}
PORT=${PORT:-3997}
DATABASES=${DATABASES:-sqlite postgres}
PG_DB=rentrack_bench_import

source bench/own-server.sh

python3 - "$dir/import.csv" "$ROWS" "$KIND" <<'EOF'
import sys
path, rows, kind = sys.argv[1], int(sys.argv[2]), sys.argv[3]
with open(path, "w", newline="") as f:
    if kind == "vendors":
        f.write("name,email,address,website\r\n")
        for i in range(rows):
            address = f'"{i} Main St\r\nSpringfield"' if i % 10 == 0 else f"{i} Main St"
            f.write(f"Vendor {i},v{i}@example.com,{address},example.com/{i}\r\n")
    else:
        f.write("name,group,location,purchased_on,identifier,daily\r\n")
        for i in range(rows):
            f.write(f'Asset {i},Bench,Shelf {i % 50},03/15/2024,ID-{i},"1,{i % 1000:03}.50"\r\n')
EOF

peak_kb() { awk '/VmHWM/ { print $2 }' "/proc/$server/status"; }

measure() { # label, database URL, serve flags...
    local db=$1 url=$2
    shift 2
    token=$(company_token "$url" bench)
    start "$url"
    local base="http://127.0.0.1:$PORT"
    local vendor
    vendor=$(curl -sf -H "token: $token" -d 'vendor[name]=Probe' "$base/vendors.api" |
        python3 -c 'import json,sys; print(json.load(sys.stdin)["vendor"]["id"])')
    local details="$base/vendors/$vendor.api"
    read -r idle50 idle99 idle_n < <(sample "$details" 5 /nonexistent "$token")
    local before
    before=$(peak_kb)
    rm -f "$dir/done"
    sample "$details" 3600 "$dir/done" "$token" >"$dir/busy" &
    local sampler=$! t0 state
    t0=$(date +%s.%N)
    state=$(await_import "$token" "$(send_import "$token" "$KIND" "$dir/import.csv")")
    local t1
    t1=$(date +%s.%N)
    touch "$dir/done"
    wait "$sampler"
    read -r busy50 busy99 busy_n <"$dir/busy"
    awk -v db="$db" -v kind="$KIND" -v rows="$ROWS" -v s="$(echo "$t1 - $t0" | bc)" -v state="$state" \
        -v before="$before" -v after="$(peak_kb)" -v i50="$idle50" -v i99="$idle99" \
        -v b50="$busy50" -v b99="$busy99" -v idle_n="$idle_n" -v busy_n="$busy_n" \
        'BEGIN { printf "%s: %d rows in %.1f s, %.0f rows/s (%s); peak RSS %.0f MiB before, %.0f MiB after; details idle p50 %s ms p99 %s ms (%d), during p50 %s ms p99 %s ms (%d): p99 %.2fx idle\n",
            db " " kind, rows, s, rows / s, state, before / 1024, after / 1024, i50, i99, idle_n, b50, b99, busy_n, b99 / i99 }'
    # The export of what was imported, read to the end while the details are sampled.
    before=$(peak_kb)
    rm -f "$dir/done"
    sample "$details" 3600 "$dir/done" "$token" >"$dir/busy" &
    sampler=$!
    t0=$(date +%s.%N)
    local bytes lines
    curl -sf -H "token: $token" "$base/exports/$KIND.api" -o "$dir/export.csv"
    t1=$(date +%s.%N)
    touch "$dir/done"
    wait "$sampler"
    read -r busy50 busy99 busy_n <"$dir/busy"
    bytes=$(stat -c %s "$dir/export.csv")
    lines=$(python3 -c 'import csv,sys; print(sum(1 for _ in csv.reader(open(sys.argv[1], newline=""))) - 1)' "$dir/export.csv")
    awk -v db="$db" -v kind="$KIND" -v rows="$lines" -v bytes="$bytes" -v s="$(echo "$t1 - $t0" | bc)" \
        -v before="$before" -v after="$(peak_kb)" -v i99="$idle99" -v b50="$busy50" -v b99="$busy99" -v busy_n="$busy_n" \
        'BEGIN { printf "%s export: %d records (%.1f MiB) in %.1f s, %.0f records/s; peak RSS %.0f MiB before, %.0f MiB after; details during p50 %s ms p99 %s ms (%d): p99 %.2fx idle\n",
            db " " kind, rows, bytes / 1048576, s, rows / s, before / 1024, after / 1024, b50, b99, busy_n, b99 / i99 }'
    stop
}

for_each_database
