#!/usr/bin/env bash
# What PostgreSQL itself can do on this machine for a check-out cycle (issue 39): on a
# database seeded as run-writes.sh seeds its own, each round runs rentrack's
# asset-checkout-cycle (and /healthz) at $CONNECTIONS connections, then pgbench of the
# least a cycle writes (bench/pgbench/checkout-least.sql, a statement a round trip) and
# of the same writes as one statement a half-cycle (checkout-one-statement.sql), with
# $CLIENTS clients: as many connections as rentrack's pool gives transactions. pgbench
# runs on the same cores as PostgreSQL, as rentrack and its bench client do; a
# pgbench transaction is two half-cycles, so its figure is printed doubled.
#
#   PG_URL=postgres://postgres@127.0.0.1:5432/postgres bench/run-ceiling.sh
#
# Needs psql and pgbench (Debian's postgresql-client; installed with apt-get when
# missing). Optional: CONNECTIONS (64), CLIENTS (rentrack's transaction connections on
# this machine: 4 per core, 4 to 32, less the shared ones), DURATION (8), WARMUP (2),
# ROUNDS (3), PORT (3991). Prints one line per figure and round.
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
PG_DB=rentrack_bench_ceiling
if ! command -v pgbench >/dev/null; then
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql-client >/dev/null
fi

source bench/own-server.sh

url=${PG_URL%/*}/$PG_DB
psql -q "$PG_URL" -c "DROP DATABASE IF EXISTS $PG_DB" -c "CREATE DATABASE $PG_DB"
token=$(company_token "$url" ceiling)
start "$url"
"$BENCH" seed --base-url "http://127.0.0.1:$PORT" --token "$token" --locations 0 --groups 0 \
    --vendors 0 --members "$CONNECTIONS" --assets 1000 --stock "$CONNECTIONS" --orders 1000 \
    --order-assets "$((5 * CONNECTIONS))" >/dev/null
restart_after_seed postgres "$url"
stop

# pgbench's clients take the company's first fixed assets that no order names, one
# each, by id: first, first + 1, ... must all be such assets.
sql() { psql -qAt "$url" -c "$1"; }
company=$(sql "SELECT min(company_id) FROM items")
member=$(sql "SELECT min(id) FROM members WHERE company_id = $company AND active")
free="company_id = $company AND asset_type = 'FixedAsset'
    AND id NOT IN (SELECT item_id FROM order_line_items WHERE company_id = $company)"
first=$(sql "SELECT min(id) FROM items WHERE $free")
if [[ $(sql "SELECT count(*) FROM items WHERE $free AND id < $first + $CLIENTS") != "$CLIENTS" ]]; then
    echo "the first $CLIENTS free fixed assets are not in a row from id $first" >&2
    exit 1
fi
reset="UPDATE items SET state = 'available', assigned_to_id = NULL, checkout_on = NULL,
    checkin_due_on = NULL WHERE company_id = $company AND id >= $first AND id < $first + $CLIENTS;
    UPDATE asset_checkouts SET checkin_on = now() WHERE company_id = $company AND checkin_on IS NULL"

for round in $(seq 1 "$ROUNDS"); do
    start "$url"
    for mix in healthz asset-checkout-cycle; do
        line=$("$BENCH" run --base-url "http://127.0.0.1:$PORT" --token "$token" --mix "$mix" \
            --connections "$CONNECTIONS" --duration "$DURATION" --warmup "$WARMUP")
        echo "round $round: rentrack $mix, $CONNECTIONS connections: $(rps <<<"$line") requests/s, p99 $(p99 <<<"$line") ms"
    done
    stop
    for script in checkout-least checkout-one-statement; do
        sql "$reset"
        tps=$(pgbench -n -M prepared -c "$CLIENTS" -j "$cores" -T "$DURATION" \
            -D company="$company" -D member="$member" -D first="$first" \
            -f "bench/pgbench/$script.sql" "$url" 2>&1 | sed -n 's/^tps = \([0-9.]*\).*/\1/p')
        [[ -n "$tps" ]] || { echo "pgbench $script failed" >&2; exit 1; }
        echo "round $round: pgbench $script, $CLIENTS clients: $(printf "%.0f" "$(echo "2 * $tps" | bc)") half-cycles/s"
    done
done
