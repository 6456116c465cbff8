#!/usr/bin/env bash
# Lists at scale (issue 10): with 100,000 customers, what the customers list costs
# against a customer's details. Starts its own server on a fresh SQLite file and, with
# PG_URL set, on a fresh PostgreSQL database too; seeds the customers through the API;
# then runs /healthz, customer details, the list's page 1, its last ten pages and ten
# pages in its middle, at 64 connections, ROUNDS times in turn, and prints each figure
# as a ratio of the details figure of the same round (the median of the rounds, so a
# burst of other work on the machine moves one round, not the result).
#
#   bench/run-lists.sh                                  # SQLite only; builds in release mode
#   PG_URL=postgres://postgres@127.0.0.1:5432/postgres bench/run-lists.sh
#   RENTRACK=/path/to/old/rentrack bench/run-lists.sh   # another build of the server
#
# PG_URL names a server and a database to connect to while the script creates (and
# afterwards drops) its own database, rentrack_bench_lists; it needs psql.
# Optional: CUSTOMERS (100000), CONNECTIONS (64), DURATION (10), WARMUP (2), ROUNDS (3),
# BENCH_THREADS (1), PORT (3998), SEED_CONCURRENCY (16), DATABASES ("sqlite postgres").
# Human-readable lines go to stderr as it runs; the JSON lines (one per mix, then one
# "lists" summary per database) are printed on stdout at the end.
source "$(dirname "$0")/binaries.sh"
CUSTOMERS=${CUSTOMERS:-100000}
CONNECTIONS=${CONNECTIONS:-64}
DURATION=${DURATION:-10}
WARMUP=${WARMUP:-2}
ROUNDS=${ROUNDS:-3}
PORT=${PORT:-3998}
SEED_CONCURRENCY=${SEED_CONCURRENCY:-16}
export BENCH_THREADS=${BENCH_THREADS:-1}
DATABASES=${DATABASES:-sqlite postgres}
MIXES="healthz customer-details customer-list-first customer-list-end customer-list-middle"
PG_DB=rentrack_bench_lists

source bench/own-server.sh

results=()
measure() { # label (sqlite or postgres), database URL, serve flags for the seed...
    local db=$1 url=$2
    shift 2
    local token
    token=$("$RENTRACK" company create --database-url "$url" --name Bench --subdomain bench \
        --plan unlimited --enable-api | sed 's/.*"token":"\([^"]*\)".*/\1/')
    start "$url" "$@"
    results+=("$("$BENCH" seed --base-url "http://127.0.0.1:$PORT" --token "$token" \
        --locations 0 --groups 0 --vendors 0 --customers "$CUSTOMERS" \
        --concurrency "$SEED_CONCURRENCY")")
    stop
    if [[ $db == postgres ]]; then
        # The seed commits without waiting for the disk (set when the database was
        # made); the measured server waits as usual. Then what autovacuum does a little
        # later on its own: statistics for the planner and the visibility map that lets
        # index-only scans skip the table.
        psql -q "$url" -c "ALTER DATABASE $PG_DB RESET synchronous_commit" -c "VACUUM ANALYZE" >/dev/null
    fi
    # Measured with the server's defaults (on SQLite, `serve` refreshes the planner's
    # statistics at start).
    start "$url"
    local -A got=()
    local round mix line
    for round in $(seq 1 "$ROUNDS"); do
        for mix in $MIXES; do
            line=$("$BENCH" run --base-url "http://127.0.0.1:$PORT" --token "$token" \
                --mix "$mix" --connections "$CONNECTIONS" --duration "$DURATION" --warmup "$WARMUP")
            results+=("$line")
            got[$mix]+="$(rps <<<"$line") "
        done
    done
    stop
    # Per round: each figure over the details figure; then the median of the rounds.
    results+=("$(awk -v db="$db" -v n="$CUSTOMERS" -v c="$CONNECTIONS" -v rounds="$ROUNDS" \
        -v h="${got[healthz]}" -v d="${got[customer-details]}" -v f="${got[customer-list-first]}" \
        -v e="${got[customer-list-end]}" -v m="${got[customer-list-middle]}" '
        function median(list,    a, k, i, j, t) {
            k = split(list, a, " ")
            for (i = 1; i <= k; i++) for (j = i + 1; j <= k; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
            return k % 2 ? a[(k + 1) / 2] : (a[k / 2] + a[k / 2 + 1]) / 2
        }
        function ratios(list,    a, b, k, i, out) {
            k = split(list, a, " "); split(d, b, " ")
            for (i = 1; i <= k; i++) out = out sprintf("%.3f ", a[i] / b[i])
            return out
        }
        BEGIN {
            printf "{\"bench\":\"lists\",\"database\":\"%s\",\"customers\":%d,\"connections\":%d,\"rounds\":%d,", db, n, c, rounds
            printf "\"rps\":{\"healthz\":%.1f,\"customer_details\":%.1f,\"list_first\":%.1f,\"list_end\":%.1f,\"list_middle\":%.1f},", median(h), median(d), median(f), median(e), median(m)
            printf "\"ratio_to_details\":{\"healthz\":%.2f,\"list_first\":%.2f,\"list_end\":%.2f,\"list_middle\":%.2f}}\n", median(ratios(h)), median(ratios(f)), median(ratios(e)), median(ratios(m))
        }')")
    echo "${results[-1]}" >&2
}

for_each_database

printf '%s\n' "${results[@]}"
