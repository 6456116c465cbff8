#!/usr/bin/env bash
# What PostgreSQL itself can do on this machine for a check-out cycle (issue 39): on a
# database seeded as run-writes.sh seeds its own, each round runs rentrack's
# asset-checkout-cycle (and /healthz) at $CONNECTIONS connections, then pgbench of the
# least a cycle writes (bench/pgbench/checkout-least.sql, a statement a round trip), of
# the same writes as one statement a half-cycle (checkout-one-statement.sql) and of
# them grouped ($GROUP check-outs in one transaction, a savepoint each, then $GROUP
# check-ins), with $CLIENTS clients: as many connections as rentrack's pool gives
# transactions. pgbench runs on the same cores as PostgreSQL, as rentrack and its bench
# client do; its figures are half-cycles a second.
#
#   PG_URL=postgres://postgres@127.0.0.1:5432/postgres bench/run-ceiling.sh
#
# Needs psql and pgbench (Debian's postgresql-client; installed with apt-get when
# missing). Optional: CONNECTIONS (64), CLIENTS (rentrack's transaction connections on
# this machine: 4 per core, 4 to 32, less the shared ones), GROUP (8), DURATION (8),
# WARMUP (2), ROUNDS (3), PORT (3991), BENCH_THREADS (1). Prints one line per figure
# and round.
source "$(dirname "$0")/binaries.sh"
: "${PG_URL:?PG_URL names the PostgreSQL server (and a database to connect to)}"
CONNECTIONS=${CONNECTIONS:-64}
cores=$(nproc)
pool=$((4 * cores < 4 ? 4 : (4 * cores > 32 ? 32 : 4 * cores)))
shared=$((cores > pool / 2 ? pool / 2 : cores))
CLIENTS=${CLIENTS:-$((pool - shared))}
DURATION=${DURATION:-8}
WARMUP=${WARMUP:-2}
ROUNDS=${ROUNDS:-3}
PORT=${PORT:-3991}
GROUP=${GROUP:-8}
export BENCH_THREADS=${BENCH_THREADS:-1}
PG_DB=rentrack_bench_ceiling
if ! command -v pgbench >/dev/null; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql-client >/dev/null
fi

source bench/own-server.sh

fresh_write_database ceiling

# pgbench's clients take the company's first fixed assets, $GROUP each, by id: first,
# first + 1, ... must all be fixed assets. (Writes of pgbench's own: that orders name
# some of them changes nothing the scripts read.)
sql() { psql -qAt "$url" -c "$1"; }
company=$(sql "SELECT min(company_id) FROM items")
member=$(sql "SELECT min(id) FROM members WHERE company_id = $company AND active")
fixed="company_id = $company AND asset_type = 'FixedAsset'"
first=$(sql "SELECT min(id) FROM items WHERE $fixed")
last=$((first + CLIENTS * GROUP))
if [[ $(sql "SELECT count(*) FROM items WHERE $fixed AND id < $last") != "$((last - first))" ]]; then
    echo "the first $((last - first)) fixed assets are not in a row from id $first" >&2
    exit 1
fi
reset="UPDATE items SET state = 'available', assigned_to_id = NULL, checkout_on = NULL,
    checkin_due_on = NULL WHERE company_id = $company AND id >= $first AND id < $last;
    UPDATE asset_checkouts SET checkin_on = now() WHERE company_id = $company AND checkin_on IS NULL
    AND item_id >= $first AND item_id < $last"

# checkout-least.sql's writes, $GROUP check-outs in one transaction (a savepoint each,
# as SQLite's group commit runs them), then $GROUP check-ins in another.
grouped=$dir/checkout-grouped.sql
{
    echo "\\set b :first + :client_id * $GROUP"
    for way in out in; do
        echo "BEGIN;"
        for k in $(seq 0 $((GROUP - 1))); do
            echo "\\set i :b + $k"
            echo "SAVEPOINT w;"
            sed -n "/^-- $way\$/,/^-- end\$/p" bench/pgbench/checkout-least.sql | grep -v '^--'
            echo "RELEASE SAVEPOINT w;"
        done
        echo "COMMIT;"
    done
} >"$grouped"

for round in $(seq 1 "$ROUNDS"); do
    start "$url"
    for mix in healthz asset-checkout-cycle; do
        line=$("$BENCH" run --base-url "http://127.0.0.1:$PORT" --token "$token" --mix "$mix" \
            --connections "$CONNECTIONS" --duration "$DURATION" --warmup "$WARMUP")
        echo "round $round: rentrack $mix, $CONNECTIONS connections: $(rps <<<"$line") requests/s, p99 $(p99 <<<"$line") ms"
    done
    stop
    for script in checkout-least checkout-one-statement grouped; do
        file=bench/pgbench/$script.sql halves=2
        if [[ $script == grouped ]]; then
            file=$grouped halves=$((2 * GROUP))
        fi
        sql "$reset"
        out=$(pgbench -n -M prepared -c "$CLIENTS" -j "$cores" -T "$DURATION" \
            -D company="$company" -D member="$member" -D first="$first" \
            -f "$file" "$url" 2>&1) || { echo "$out" >&2; exit 1; }
        tps=$(sed -n 's/^tps = \([0-9.]*\).*/\1/p' <<<"$out")
        echo "round $round: pgbench $script, $CLIENTS clients: $(awk -v t="$tps" -v h="$halves" 'BEGIN { printf "%.0f", h * t }') half-cycles/s"
    done
done
