# Sourced by the scripts that start their own server (run-lists.sh, run-assets.sh):
# a scratch directory removed at exit, `start` and `stop` of the server on $PORT,
# `rps` to read a run's figure, and `for_each_database`, which calls
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
