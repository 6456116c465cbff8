#!/usr/bin/env bash
# Where a PostgreSQL check-out cycle's cores go, and what its commit costs (issue 39):
# on a database seeded as run-writes.sh seeds its own, each round runs rentrack's
# asset-checkout-cycle at $CONNECTIONS connections once for each of $VARIANTS, the
# server restarted for each: `default`, a database setting (`synchronous_commit=off`,
# `commit_delay=1000`: set on the database, reset after) or a pool size (`pool=16`:
# RENTRACK_DB_POOL). For each run it prints the half-cycles a second, the p99, how busy
# the machine's cores were, and the milliseconds of a core each half-cycle cost
# PostgreSQL's processes (every one on this machine: run it against a local server),
# the server and the bench client, from their user and system ticks in /proc over the
# run; "all" is every process of the machine, anything else running included. Each
# round starts one variant further on, so none always runs on the oldest database.
#
#   PG_URL=postgres://postgres@127.0.0.1:5432/postgres bench/run-commit.sh
#
# `synchronous_commit=off` acknowledges writes a crash can lose: a reference for what
# the commit's wait for the disk costs, not a setting to run with. Needs psql and a
# PostgreSQL server on this machine. Optional:
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
if [[ -z $(pgrep -x postgres) ]]; then
    echo "no PostgreSQL process on this machine: its share cannot be counted" >&2
    exit 1
fi

fresh_write_database commit

ticks() { # pid: its user and system ticks
    awk '{ print $14 + $15 }' "/proc/$1/stat" 2>/dev/null || echo 0
}
# "pid ticks" of each PostgreSQL process of this machine.
pg_ticks() {
    local pid
    for pid in $(pgrep -x postgres); do
        echo "$pid $(ticks "$pid")"
    done
}
busy() { awk '/^cpu / { print $2 + $3 + $4 + $7 + $8 }' /proc/stat; }
children() { awk '{ print $16 + $17 }' "/proc/$$/stat"; } # reaped children's ticks
cycle() { # seconds, warm-up seconds: prints the run's JSON line
    "$BENCH" run --base-url "http://127.0.0.1:$PORT" --token "$token" \
        --mix asset-checkout-cycle --connections "$CONNECTIONS" --duration "$1" --warmup "$2"
}

hz=$(getconf CLK_TCK)
cores=$(nproc)
read -ra variants <<<"$VARIANTS"
for round in $(seq 1 "$ROUNDS"); do
    # Each round starts one variant further on: the database grows with every run.
    for k in $(seq 0 $((${#variants[@]} - 1))); do
        variant=${variants[$(((k + round - 1) % ${#variants[@]}))]}
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
        pg_ticks >"$dir/pg0"
        read -r t0 srv0 all0 kids0 <<<"$(date +%s%N) $(ticks "$server") $(busy) $(children)"
        cycle "$DURATION" 0 >"$dir/run.json" 2>/dev/null
        read -r t1 srv1 all1 kids1 <<<"$(date +%s%N) $(ticks "$server") $(busy) $(children)"
        pg_ticks >"$dir/pg1"
        stop
        # A process that started during the run counts whole; one that ended is lost.
        pg=$(awk 'NR == FNR { before[$1] = $2; next } { sum += $2 - before[$1] } END { print sum + 0 }' \
            "$dir/pg0" "$dir/pg1")
        line=$(<"$dir/run.json")
        awk -v r="$round" -v v="$variant" -v rate="$(rps <<<"$line")" -v p99="$(p99 <<<"$line")" \
            -v pg="$pg" -v srv=$((srv1 - srv0)) -v kids=$((kids1 - kids0)) \
            -v all=$((all1 - all0)) -v hz="$hz" -v cores="$cores" -v wall=$(((t1 - t0) / 1000000)) 'BEGIN {
                # The ticks span the whole run (its connections opened, its last
                # requests ended): per half-cycle at the rate of the run over that time.
                s = wall / 1000; ms = 1000 / hz / (rate * s)
                printf "round %d, %s: %.0f half-cycles/s, p99 %.1f ms, cores %.0f%% busy; ms of a core a half-cycle: PostgreSQL %.3f, server %.3f, bench %.3f, all %.3f\n",
                    r, v, rate, p99, 100 * all / (hz * cores * s), pg * ms, srv * ms, kids * ms, all * ms
            }'
    done
done
psql -q "$url" -c "ALTER DATABASE $PG_DB RESET ALL"
