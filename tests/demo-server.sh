# Sourced by tests/fuzz/run.sh and tests/client/run.sh: builds rentrack unless RENTRACK
# names a binary, starts `rentrack demo` (a company on the unlimited plan with its API
# enabled and sample records of every resource family) on $database_url, logging to
# $server_log, waits until it answers, and sets base_url and token. The caller sets
# root, work, database_url and server_log; the server and $work go at exit.

if [[ -z "${RENTRACK:-}" ]]; then
    export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$HOME/.cache/rentrack-target}
    (cd "$root" && cargo build --quiet -p rentrack)
    RENTRACK="$CARGO_TARGET_DIR/debug/rentrack"
fi

RENTRACK_LOG=${RENTRACK_LOG:-warn} "$RENTRACK" demo --listen 127.0.0.1:0 --database-url "$database_url" \
    >"$work/demo.out" 2>"$server_log" &
server=$!
cleanup() {
    kill "$server" 2>/dev/null || true
    wait "$server" 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT

for _ in $(seq 1 300); do
    grep -q '^try:' "$work/demo.out" 2>/dev/null && break
    kill -0 "$server" 2>/dev/null || { cat "$server_log" >&2; echo "rentrack demo did not start" >&2; exit 1; }
    sleep 0.1
done
base_url="$(sed -n 's/^rentrack demo is running at //p' "$work/demo.out")"
token="$(sed -n 's/^token: //p' "$work/demo.out")"
[[ -n "$base_url" && -n "$token" ]] || { echo "rentrack demo printed no URL or token" >&2; exit 1; }
