# Sourced by the scripts that start their own server (run-lists.sh, run-assets.sh,
# run-stock.sh, run-orders.sh, run-import.sh, run-move.sh, run-search.sh, run-scale.sh,
# run-writes.sh, run-ceiling.sh, run-commit.sh): a scratch directory removed at exit,
# `start` and `stop` of the server on $PORT, `write_assets` and `import_file`
# (`send_import`, `await_import`) to seed through the API's import, `seed_writes` to
# seed what the write mixes need (`fresh_write_database` on PostgreSQL), `sample` of
# one path's latency, `rps` and `p99` to read a run's figures, `median_of` and
# `medians` to sum up rounds, and `for_each_database`, which calls `measure <label>
# <database URL> [seed serve flags]` for each of $DATABASES (a fresh SQLite file; a
# fresh PostgreSQL database $PG_DB on the server $PG_URL names, dropped at exit).
# Needs RENTRACK, PORT and PG_DB.
#
# For scripts whose every request must succeed, measured against /healthz in the same
# round (run-stock.sh, run-orders.sh): `run_rounds` runs $MIXES $ROUNDS times,
# `summarize` prints the medians (a JSON line and a table) and `finish` prints the JSON
# lines and fails when any run counted an error. Those need BENCH, CONNECTIONS,
# DURATION, WARMUP, ROUNDS and MIXES (with healthz among them).
dir=$(mktemp -d)
server=
cleanup() {
    # A killed server's wait answers 143: not a failure of the script (set -e).
    if [[ -n "$server" ]] && kill "$server" 2>/dev/null; then
        wait "$server" 2>/dev/null || true
    fi
    if [[ -n "${bare_server:-}" ]] && kill "$bare_server" 2>/dev/null; then
        wait "$bare_server" 2>/dev/null || true
    fi
    rm -rf "$dir"
    if [[ -n "${PG_URL:-}" ]]; then
        psql -q "$PG_URL" -c "DROP DATABASE IF EXISTS $PG_DB" >/dev/null 2>&1 || true
    fi
}
trap cleanup EXIT

start() { # database URL, extra serve flags...
    local url=$1
    shift
    RENTRACK_LOG=warn "$RENTRACK" serve --database-url "$url" --listen "127.0.0.1:$PORT" "$@" &
    server=$!
    for _ in $(seq 1 100); do
        curl -sf "http://127.0.0.1:$PORT/healthz" >/dev/null && return
        sleep 0.1
    done
    echo "the server did not start" >&2
    exit 1
}

# The bare axum server (`rentrack-bench bare`) on $BARE_PORT, stopped at exit.
bare_server=
start_bare() {
    "$BENCH" bare --listen "127.0.0.1:$BARE_PORT" 2>/dev/null &
    bare_server=$!
    for _ in $(seq 1 100); do
        curl -sf "http://127.0.0.1:$BARE_PORT/healthz" >/dev/null && return
        sleep 0.1
    done
    echo "the bare server did not start" >&2
    exit 1
}

# Prints p50 and p99 (ms) of GETs of $1, one at a time with the token $4, for $2
# seconds or until the file $3 exists, and how many there were.
sample() { # url, seconds, stop file, token
    python3 - "$1" "$2" "$3" "$4" <<'EOF'
import os, sys, time, urllib.request
url, seconds, stop, token = sys.argv[1], float(sys.argv[2]), sys.argv[3], sys.argv[4]
times, start = [], time.monotonic()
# One sample at least, however soon the stop file comes (a tiny import ends first).
while not times or (time.monotonic() - start < seconds and not os.path.exists(stop)):
    t = time.monotonic()
    urllib.request.urlopen(urllib.request.Request(url, headers={"token": token})).read()
    times.append((time.monotonic() - t) * 1000)
times.sort()
print(f"{times[len(times) // 2]:.2f} {times[int(len(times) * 0.99)]:.2f} {len(times)}")
EOF
}

stop() {
    kill "$server"
    wait "$server" 2>/dev/null || true
    server=
}

# company_token: a new company on the unlimited plan; prints its token.
source "$(dirname "${BASH_SOURCE[0]}")/../packaging/company.sh"

# A CSV file of $2 fixed assets of the group Bench, 25 of them (spread through the
# file) named `Rare Gizmo <k>` and the others `Bench Asset <i>`: what the search mixes
# look for (`gizmo`, `bench`).
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

# Imports the CSV file $3 of kind $2 (`POST /imports.api`, creating missing groups and
# locations) into the company of token $1 on the server on $PORT, and waits for it to
# end; exits when it did not end done without a bad row.
import_file() { # token, kind, path
    local state
    state=$(await_import "$1" "$(send_import "$1" "$2" "$3")")
    [[ $state == "done "*" 0" ]] || { echo "import of $3: $state" >&2; exit 1; }
}

# Sends the file $3 as an import of kind $2 (creating missing groups and the like);
# prints the import's id.
send_import() { # token, kind, path
    curl -sf -H "token: $1" -F "import[kind]=$2" -F 'import[create_missing]=true' \
        -F "import[file]=@$3" "http://127.0.0.1:$PORT/imports.api" |
        python3 -c 'import json,sys; print(json.load(sys.stdin)["import"]["id"])'
}

# Waits for the import $2 to end; prints its state, rows created, bad rows and message.
await_import() { # token, id
    local state
    while :; do
        state=$(curl -sf -H "token: $1" "http://127.0.0.1:$PORT/imports/$2.api" |
            python3 -c 'import json,sys; i=json.load(sys.stdin)["import"]; print(*[v for v in (i["state"], i["created"], i["errors_total"], i.get("message")) if v is not None])')
        [[ $state == done* || $state == failed* ]] && break
        sleep 0.2
    done
    echo "$state"
}

# Seeds the company of token $1 through the server on $PORT as run-writes.sh measures
# it: $CONNECTIONS active members, $2 fixed assets, $3 stock items and $4 orders, whose
# lines name five rentable assets per connection; prints the seed's JSON line.
seed_writes() { # token, assets, stock items, orders, [concurrent requests]
    "$BENCH" seed --base-url "http://127.0.0.1:$PORT" --token "$1" --locations 0 --groups 0 \
        --vendors 0 --members "$CONNECTIONS" --assets "$2" --stock "$3" --orders "$4" \
        --order-assets "$((5 * CONNECTIONS))" --concurrency "${5:-16}"
}

# A fresh PostgreSQL database $PG_DB on the server $PG_URL names, with a company seeded
# as run-writes.sh seeds its own (`seed_writes`: 1,000 fixed assets, $CONNECTIONS stock
# items, 1,000 orders) and analysed; sets `url` and `token` and leaves no server running.
fresh_write_database() { # subdomain
    url=${PG_URL%/*}/$PG_DB
    psql -q "$PG_URL" -c "DROP DATABASE IF EXISTS $PG_DB" -c "CREATE DATABASE $PG_DB"
    token=$(company_token "$url" "$1")
    start "$url"
    seed_writes "$token" 1000 "$CONNECTIONS" 1000 >/dev/null
    restart_after_seed postgres "$url"
    stop
}

# Stops the server that seeded and starts it again with the plain serve flags; on
# PostgreSQL, commits are synchronous again and the planner sees the seeded tables.
restart_after_seed() { # label (sqlite or postgres), database URL
    stop
    if [[ $1 == postgres ]]; then
        psql -q "$2" -c "ALTER DATABASE $PG_DB RESET synchronous_commit" -c "VACUUM ANALYZE" >/dev/null
    fi
    start "$2"
}

# The first `"<name>":<number>` of a JSON line: a run's own figure, not a step's (the
# keys come sorted, and `steps` after the figures).
figure() { # name
    awk -v key="\"$1\":" 'i = index($0, key) {
        rest = substr($0, i + length(key))
        if (match(rest, /^[0-9.]+/)) print substr(rest, 1, RLENGTH)
        exit
    }'
}
rps() { figure rps; }
p99() { figure p99_ms; }

# The median of figures (space-separated, one a round); with reference figures of the
# same rounds, the median of each round's figure divided by its reference.
median_of() { # figures, [reference figures]
    awk -v xs="$1" -v ds="${2:-}" '
        function median(list,    a, k, i, j, t) {
            k = split(list, a, " ")
            for (i = 1; i <= k; i++) for (j = i + 1; j <= k; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
            return k % 2 ? a[(k + 1) / 2] : (a[k / 2] + a[k / 2 + 1]) / 2
        }
        BEGIN {
            if (ds != "") {
                k = split(xs, a, " "); split(ds, b, " "); xs = ""
                for (i = 1; i <= k; i++) xs = xs sprintf("%.4f ", a[i] / b[i])
            }
            printf "%.6f", median(xs)
        }'
}

# `"<key>":{"<mix>":<median>,...}` over the mixes of $MIXES (or the rows of $rows, which
# `run_rounds` sets: each mix, then each step of it), each `median_of` the figures in
# <array>[<mix>] (and, with a reference mix, of <array>[<reference>]), printed with
# <format>.
medians() { # key, name of an associative array of figures by mix, format, [reference mix]
    local key=$1 format=$3 ref=${4:-} mix json=""
    local -n figures_by_mix=$2
    for mix in ${rows:-$MIXES}; do
        # shellcheck disable=SC2059 # the format is the caller's
        json+="\"$mix\":$(printf "$format" "$(median_of "${figures_by_mix[$mix]}" "${ref:+${figures_by_mix[$ref]}}")"),"
    done
    printf '"%s":{%s}' "$key" "${json%,}"
}

for_each_database() {
    local db
    for db in $DATABASES; do
        case $db in
        sqlite)
            # The seed commits with synchronous=normal, which only makes it quicker.
            measure sqlite "sqlite://$dir/bench.db" --sqlite-synchronous normal
            ;;
        postgres)
            if [[ -z "${PG_URL:-}" ]]; then
                echo "PG_URL not set: PostgreSQL skipped" >&2
                continue
            fi
            psql -q "$PG_URL" -c "DROP DATABASE IF EXISTS $PG_DB" -c "CREATE DATABASE $PG_DB" \
                -c "ALTER DATABASE $PG_DB SET synchronous_commit = off" >/dev/null
            measure postgres "${PG_URL%/*}/$PG_DB"
            ;;
        *)
            echo "unknown database $db: use sqlite or postgres" >&2
            exit 1
            ;;
        esac
    done
}

# The failure counts of a run's JSON line that are not 0 (`errors` in the window,
# `warmup_errors`, `wind_down_errors` after it), as `errors 3 warmup_errors 1`; nothing
# when there were none.
failures_of() {
    awk '{
        seen = 0; out = ""
        while (match($0, /"(errors|warmup_errors|wind_down_errors)":[0-9]+/)) {
            kv = substr($0, RSTART + 1, RLENGTH - 1)
            sub(/":/, " ", kv)
            split(kv, p, " ")
            if (p[1] == "errors") seen = 1
            if (p[2] != 0) out = out (out == "" ? "" : " ") kv
            $0 = substr($0, RSTART + RLENGTH)
        }
        printf "%s", seen ? out : "no error count in the answer"
    }'
}

# The first error of a run's JSON line (a JSON string, or null).
first_error() { sed -n 's/.*"first_error":\("\([^"\\]\|\\.\)*"\|null\).*/\1/p'; }

# The steps of a cycle as the run reports them (`"steps":{"create":{...},...}`).
STEPS="create add-items book rent-out return check-out check-in"

# A figure (rps, p99_ms, ...) of step <step> of a run's JSON line.
step_figure() { # step, figure
    sed -n "s/.*\"steps\":{.*\"$1\":{[^}]*\"$2\":\([0-9.]*\).*/\1/p"
}

# Runs each mix of $MIXES, $ROUNDS times in turn, on $CONNECTIONS connections against
# the server on $PORT. Every JSON line goes to `results`; each run's requests/s and p99
# to the caller's associative arrays `got` and `p99s` (one figure a round, by mix, and
# by `<mix>/<step>` for each step of a cycle); `rows` lists the mixes and steps seen;
# a run that counted any error adds a line to `failures`.
#
# The mix `bare` is the healthz mix sent to the bare axum server (`rentrack-bench bare`,
# which `start_bare` starts on $BARE_PORT): the machine's ceiling, measured in the same
# round; `summarize` then adds each row's ratio to it.
run_rounds() { # label (sqlite or postgres), token
    local db=$1 token=$2 round mix line bad step steps url sent
    rows=
    for round in $(seq 1 "$ROUNDS"); do
        for mix in $MIXES; do
            url="http://127.0.0.1:$PORT" sent=$mix
            if [[ $mix == bare ]]; then
                url="http://127.0.0.1:$BARE_PORT" sent=healthz
            fi
            line=$("$BENCH" run --base-url "$url" --token "$token" \
                --mix "$sent" --connections "$CONNECTIONS" --duration "$DURATION" --warmup "$WARMUP")
            results+=("$line")
            got[$mix]+="$(rps <<<"$line") "
            p99s[$mix]+="$(p99 <<<"$line") "
            ((round > 1)) || rows+="$mix "
            steps=
            if [[ $line == *'"steps":{"'* ]]; then
                steps=$STEPS
            fi
            for step in $steps; do
                if [[ $line == *"\"$step\":{"* ]]; then
                    got[$mix/$step]+="$(step_figure "$step" rps <<<"$line") "
                    p99s[$mix/$step]+="$(step_figure "$step" p99_ms <<<"$line") "
                    ((round > 1)) || rows+="$mix/$step "
                fi
            done
            bad=$(failures_of <<<"$line")
            if [[ -n $bad ]]; then
                failures+=("$db $mix round $round: $bad, first: $(first_error <<<"$line")")
            fi
        done
    done
}

# Sums the rounds of `run_rounds` up: a `"bench":<kind>` JSON line with each row's
# median requests/s, p99 and ratio to /healthz in the same round (added to `results`
# and shown on stderr), and a table of them on stderr.
summarize() { # kind, label (sqlite or postgres), title of the table, more JSON fields ("\"k\":v,")
    local kind=$1 db=$2 title=$3 more=${4:-} row
    local bare=
    [[ -n ${got[bare]:-} ]] && bare=",$(medians ratio_to_bare got %.3f bare)"
    results+=("{\"bench\":\"$kind\",\"database\":\"$db\",$more\"connections\":$CONNECTIONS,\"rounds\":$ROUNDS,$(medians rps got %.1f),$(medians p99_ms p99s %.3f),$(medians ratio_to_healthz got %.3f healthz)$bare}")
    echo "${results[-1]}" >&2
    {
        printf '%s, median of %d rounds:\n' "$title" "$ROUNDS"
        printf '  %-40s %10s %10s %10s %10s\n' mix "req/s" "p99 ms" "/healthz" "${bare:+/bare}"
        for row in $rows; do
            printf '  %-40s %10.1f %10.3f %10.3f %10s\n' "$row" "$(median_of "${got[$row]}")" \
                "$(median_of "${p99s[$row]}")" "$(median_of "${got[$row]}" "${got[healthz]}")" \
                "${bare:+$(printf '%.3f' "$(median_of "${got[$row]}" "${got[bare]}")")}"
        done
    } >&2
}

# Prints the JSON lines, then fails (exit 1) naming each run that counted an error.
finish() {
    printf '%s\n' "${results[@]}"
    if ((${#failures[@]})); then
        printf 'FAILED: %s\n' "${failures[@]}" >&2
        exit 1
    fi
}
