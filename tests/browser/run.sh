#!/usr/bin/env bash
# Runs the browser tests of the owner console and the staff pages: installs what they
# need (Debian's chromium, ffmpeg and poppler-utils, playwright-core from npm), starts
# rentrack on a fresh SQLite file, drives it with console.mjs and staff.mjs, and stops
# it.
#
#   bash tests/browser/run.sh            (RENTRACK=path/to/rentrack to skip the build)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"

if [[ ! -x /usr/bin/chromium ]] || ! command -v ffmpeg >/dev/null || ! command -v pdftoppm >/dev/null; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium ffmpeg poppler-utils >/dev/null
fi
if ! command -v node >/dev/null; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nodejs npm >/dev/null
fi
(cd "$here" && npm ci --no-audit --no-fund --silent)

if [[ -z "${RENTRACK:-}" ]]; then
    export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$HOME/.cache/rentrack-target}
    (cd "$root" && cargo build --quiet -p rentrack)
    RENTRACK="$CARGO_TARGET_DIR/debug/rentrack"
fi

work="$(mktemp -d)"
port=$((20000 + RANDOM % 20000))
"$RENTRACK" serve --listen "127.0.0.1:$port" --database-url "sqlite://$work/console.db" 2>"$work/server.log" &
server=$!
cleanup() { kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT
for _ in $(seq 1 100); do
    (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break
    sleep 0.1
done

BASE_URL="http://localhost:$port" node "$here/console.mjs"
BASE_URL="http://localhost:$port" RENTRACK="$RENTRACK" DATABASE_URL="sqlite://$work/console.db" \
    node "$here/staff.mjs"
