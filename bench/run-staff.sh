#!/usr/bin/env bash
# The staff pages against the machine's limit (issue 41): an item read through the
# staff proxy with a member's session (`/staff/api/assets/1.api`: the session looked
# up, the role checked, then the API's own route) beside the same read with the
# company's token (`/assets/1.api`), the Find page's shell (`/staff/find`: the session
# and the page), the script (`/staff/assets/staff.js`, from the binary) and
# `/healthz`, each sent by wrk (Debian's package, installed when missing) at
# $CONNECTIONS connections on one thread, beside the bare axum server
# (`rentrack-bench bare`) in the same round; prints the medians of $ROUNDS rounds as
# requests/s and their ratio to the bare server. On a fresh SQLite file and, with
# PG_URL set, on a fresh PostgreSQL database.
#
#   bench/run-staff.sh
#   PG_URL=postgres://postgres@127.0.0.1:5432/postgres bench/run-staff.sh
#
# Optional: CONNECTIONS (64), DURATION (10), ROUNDS (3), PORT (3993), BARE_PORT (3992),
# DATABASES ("sqlite postgres").
source "$(dirname "$0")/binaries.sh"
CONNECTIONS=${CONNECTIONS:-64}
DURATION=${DURATION:-10}
ROUNDS=${ROUNDS:-3}
PORT=${PORT:-3993}
BARE_PORT=${BARE_PORT:-3992}
DATABASES=${DATABASES:-sqlite postgres}
PG_DB=rentrack_bench_staff
PASSWORD=bench-staff-password

if ! command -v wrk >/dev/null 2>&1; then
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq && apt-get install -y -qq wrk >/dev/null
fi

source bench/own-server.sh
source packaging/company.sh

# Requests a second wrk reaches on $1 with the header $2 (every answer must be a 200).
wrk_rps() { # url, header
    local out
    out=$(wrk -t1 -c "$CONNECTIONS" -d "${DURATION}s" -H "$2" "$1")
    if grep -q "Non-2xx" <<<"$out"; then
        echo "answers other than 200 from $1: $out" >&2
        exit 1
    fi
    awk '/^Requests\/sec:/ {print $2}' <<<"$out"
}

# A member of the company (token $2) signed in through an invitation: their session
# cookie. The group, the item and the member are made through the API.
staff_session() { # database URL, token
    local base="http://127.0.0.1:$PORT" path jar="$dir/jar" csrf
    curl -sf -H "token: $2" "$base/groups.api" -d 'group[name]=Tools' >/dev/null
    curl -sf -H "token: $2" "$base/assets.api" -d 'fixed_asset[name]=Drill' \
        -d 'fixed_asset[group_id]=1' -d 'fixed_asset[purchased_on]=2026-01-15' >/dev/null
    curl -sf -H "token: $2" "$base/members.api" -d 'user[first_name]=Sam' \
        -d 'user[last_name]=Okafor' -d 'user[email]=sam@bench.test' -d 'user[role_id]=2' >/dev/null
    path=$("$RENTRACK" staff invite --database-url "$1" --subdomain bench --email sam@bench.test |
        sed 's/.*"path":"\([^"]*\)".*/\1/')
    csrf=$(curl -sf -c "$jar" "$base$path" | sed -n 's/.*name="csrf_token" value="\([^"]*\)".*/\1/p')
    curl -sf -b "$jar" -c "$jar" "$base$path" -d "csrf_token=$csrf" \
        -d "password=$PASSWORD" -d "password_confirmation=$PASSWORD" >/dev/null
    awk '$6 == "rentrack_staff" {print $7}' "$jar"
}

start_bare
measure() { # label (sqlite or postgres), database URL
    local db=$1 round name token cookie
    local -A got=() url=() header=()
    token=$(company_token "$2" bench)
    start "$2"
    cookie=$(staff_session "$2" "$token")
    url[proxy]="http://127.0.0.1:$PORT/staff/api/assets/1.api"
    header[proxy]="Cookie: rentrack_staff=$cookie"
    url[token]="http://127.0.0.1:$PORT/assets/1.api"
    header[token]="token: $token"
    url[find]="http://127.0.0.1:$PORT/staff/find"
    header[find]="Cookie: rentrack_staff=$cookie"
    url[script]="http://127.0.0.1:$PORT/staff/assets/staff.js"
    header[script]="Accept: */*"
    url[healthz]="http://127.0.0.1:$PORT/healthz"
    header[healthz]="Accept: */*"
    local names="healthz token proxy find script"
    for round in $(seq 1 "$ROUNDS"); do
        got[bare]+="$(wrk_rps "http://127.0.0.1:$BARE_PORT/healthz" "Accept: */*") "
        for name in $names; do
            got[$name]+="$(wrk_rps "${url[$name]}" "${header[$name]}") "
        done
    done
    stop
    printf '%s, %d connections, median of %d rounds:\n  %-34s %10s %8s %9s\n' "$db" \
        "$CONNECTIONS" "$ROUNDS" request "req/s" "/bare" "/healthz" >&2
    printf '  %-34s %10.0f %8.3f\n' "bare /healthz" "$(median_of "${got[bare]}")" 1 >&2
    for name in $names; do
        printf '  %-34s %10.0f %8.3f %9.3f\n' "${url[$name]#http://127.0.0.1:$PORT}" \
            "$(median_of "${got[$name]}")" "$(median_of "${got[$name]}" "${got[bare]}")" \
            "$(median_of "${got[$name]}" "${got[healthz]}")" >&2
    done
}
for_each_database
