#!/usr/bin/env bash
# Where a PostgreSQL check-out cycle's cores go, and what its commit costs (issue 39):
# on a database seeded as run-writes.sh seeds its own, each round runs rentrack's
# asset-checkout-cycle at $CONNECTIONS connections once for each of $VARIANTS, the
# server restarted for each: `default`, a database setting (`synchronous_commit=off`,
# `commit_delay=1000`: set on the database, reset after) or a pool size (`pool=16`:
# RENTRACK_DB_POOL). For each run it prints the half-cycles a second, the p99, how busy
# the machine's cores were, and the milliseconds of a core each half-cycle cost
# PostgreSQL's processes, the server and the bench client (their user and system
# ticks from /proc; anything else running counts in "busy" only).
#
#   PG_URL=postgres://postgres@127.0.0.1:5432/postgres bench/run-commit.sh
#
# `synchronous_commit=off` acknowledges writes a crash can lose: a bound on what the
# commit's wait for the disk costs, not a setting to run with. Needs psql. Optional:
# VARIANTS ("default synchronous_commit=off commit_delay=1000 pool=16"), CONNECTIONS
# (64), DURATION (8), ROUNDS (2), PORT (3992), BENCH_THREADS (1).
source "$(dirname "$0")/binaries.sh"
: "${PG_URL:?PG_URL names the PostgreSQL server (and a database to connect to)}"
VARIANTS=${VARIANTS:-default synchronous_commit=off commit_delay=1000 pool=16}
CONNECTIONS=${CONNECTIONS:-64}
DURATION=${DURATION:-8}
ROUNDS=${ROUNDS:-2}
PORT=${PORT:-3992}
export BENCH_THREADS=${BENCH_THREADS:-1}
PG_DB=rentrack_bench_commit
source bench/own-server.sh

fresh_write_database commit

ticks() { # pids...: their user and system ticks
    local pid total=0
    for pid in "$@"; do
        total=$((total + $(awk '{ print $14 + $15 }' "/proc/$pid/stat" 2>/dev/null || echo 0)))
    done
    echo "$total"
}
busy() { awk '/^cpu / { print $2 + $3 + $4 + $7 + $8 }' /proc/stat; }
children() { awk '{ print $16 + $17 }' "/proc/$$/stat"; } # reaped children's ticks
cycle() { # seconds, warm-up seconds: prints the run's JSON line
    "$BENCH" run --base-url "http://127.0.0.1:$PORT" --token "$token" \
        --mix asset-checkout-cycle --connections "$CONNECTIONS" --duration "$1" --warmup "$2"
}

hz=$(getconf CLK_TCK)
cores=$(nproc)
for round in $(seq 1 "$ROUNDS"); do
    for variant in $VARIANTS; do
        pool=
        psql -q "$url" -c "ALTER DATABASE $PG_DB RESET ALL"
        case $variant in
        default) ;;
        pool=*) pool=${variant#pool=} ;;
        *=*) psql -q "$url" -c "ALTER DATABASE $PG_DB SET ${variant%%=*} = '${variant#*=}'" ;;
        *)
            echo "unknown variant $variant" >&2
            exit 1
            ;;
        esac
        if [[ -n $pool ]]; then
            RENTRACK_DB_POOL=$pool start "$url"
        else
            start "$url"
        fi
        cycle 2 0 >/dev/null 2>&1 # opens the pool's connections
        mapfile -t pg < <(pgrep -x postgres)
        read -r pg0 srv0 all0 kids0 <<<"$(ticks "${pg[@]}") $(ticks "$server") $(busy) $(children)"
        cycle "$DURATION" 0 >"$dir/run.json" 2>/dev/null
        read -r pg1 srv1 all1 kids1 <<<"$(ticks "${pg[@]}") $(ticks "$server") $(busy) $(children)"
        stop
        line=$(<"$dir/run.json")
        rate=$(rps <<<"$line")
        awk -v r="$round" -v v="$variant" -v rate="$rate" -v p99="$(p99 <<<"$line")" \
            -v pg=$((pg1 - pg0)) -v srv=$((srv1 - srv0)) -v kids=$((kids1 - kids0)) \
            -v all=$((all1 - all0)) -v hz="$hz" -v cores="$cores" -v d="$DURATION" 'BEGIN {
                n = rate * d; ms = 1000 / hz / n
                printf "round %d, %s: %.0f half-cycles/s, p99 %.1f ms, cores %.0f%% busy; ms of a core a half-cycle: PostgreSQL %.3f, server %.3f, bench %.3f, all %.3f\n",
                    r, v, rate, p99, 100 * all / (hz * cores * d), pg * ms, srv * ms, kids * ms, all * ms
            }'
    done
done
psql -q "$url" -c "ALTER DATABASE $PG_DB RESET ALL"
