# Sourced by the scripts that start their own server (run-lists.sh, run-assets.sh,
# run-stock.sh, run-orders.sh): a scratch directory removed at exit, `start` and `stop`
# of the server on $PORT, `rps` and `p99` to read a run's figures, `median_of` and
# `medians` to sum up rounds, and `for_each_database`, which calls
# `measure <label> <database URL> [seed serve flags]` for each of $DATABASES (a fresh
# SQLite file; a fresh PostgreSQL database $PG_DB on the server $PG_URL names, dropped
# at exit). Needs RENTRACK, PORT and PG_DB.

dir=$(mktemp -d)
server=
cleanup() {
    [[ -n "$server" ]] && kill "$server" 2>/dev/null && wait "$server" 2>/dev/null
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

stop() {
    kill "$server"
    wait "$server" 2>/dev/null || true
    server=
}

rps() { sed -n 's/.*"rps":\([0-9.]*\).*/\1/p'; }
p99() { sed -n 's/.*"p99_ms":\([0-9.]*\).*/\1/p'; }

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

# `"<key>":{"<mix>":<median>,...}` over the mixes of $MIXES, each `median_of` the
# figures in <array>[<mix>] (and, with a reference mix, of <array>[<reference>]),
# printed with <format>.
medians() { # key, name of an associative array of figures by mix, format, [reference mix]
    local key=$1 format=$3 ref=${4:-} mix json=""
    local -n figures_by_mix=$2
    for mix in $MIXES; do
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
