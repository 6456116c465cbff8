#!/usr/bin/env bash
# Labels (issue 14): how long 1,000 item labels take and how big their PDF is. Starts
# its own server on a fresh SQLite file and, with PG_URL set, on a fresh PostgreSQL
# database; seeds LABELS fixed assets through the API; then, ROUNDS times, asks for
# labels of all of them (POST /qrcodes.api on the US Letter sheet of 30) and fetches the
# PDF (GET of the answer's url, no token), timing each with curl, next to a /healthz in
# the same round. Prints the medians as a table on stderr and one JSON line per
# database on stdout.
#
#   bench/run-labels.sh                                  # SQLite only; builds in release mode
#   PG_URL=postgres://postgres@127.0.0.1:5432/postgres bench/run-labels.sh
#
# Optional: LABELS (1000, at most 1000), ROUNDS (5), PORT (3994), SEED_CONCURRENCY (16),
# DATABASES ("sqlite postgres"). Needs curl (and psql for PostgreSQL).
source "$(dirname "$0")/binaries.sh"
LABELS=${LABELS:-1000}
ROUNDS=${ROUNDS:-5}
PORT=${PORT:-3994}
SEED_CONCURRENCY=${SEED_CONCURRENCY:-16}
DATABASES=${DATABASES:-sqlite postgres}
PG_DB=rentrack_bench_labels

source bench/own-server.sh

results=()
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

measure() { # label (sqlite or postgres), database URL, serve flags for the seed...
    local db=$1 url=$2
    shift 2
    local token base="http://127.0.0.1:$PORT"
    token=$(company_token "$url" labels)
    start "$url" "$@"
    "$BENCH" seed --base-url "$base" --token "$token" --locations 0 --groups 0 --vendors 0 \
        --assets "$LABELS" --concurrency "$SEED_CONCURRENCY" >/dev/null
    restart_after_seed "$db" "$url"
    local template numbers
    template=$(curl -sf -H "token: $token" "$base/print_label_templates.api?template_type=asset" \
        | grep -o '"id":[0-9]*,"label_height":25.4' | head -1 | sed 's/"id":\([0-9]*\).*/\1/')
    numbers=$(seq -s, 1 "$LABELS")
    local posts=() gets=() healths=() size=0 pages=0
    for _ in $(seq 1 "$ROUNDS"); do
        healths+=("$(curl -s -o /dev/null -w '%{time_total}' "$base/healthz")")
        local answer url
        answer=$(curl -s -w '\n%{time_total}' -H "token: $token" -d "asset_seq=$numbers" \
            -d "template_id=$template" "$base/qrcodes.api")
        posts+=("$(tail -n1 <<<"$answer")")
        url=$(head -n1 <<<"$answer" | sed 's/.*"url":"\([^"]*\)".*/\1/')
        pages=$(head -n1 <<<"$answer" | sed 's/.*"pages":\([0-9]*\).*/\1/')
        local got
        got=$(curl -s -o "$dir/labels.pdf" -w '%{http_code} %{time_total} %{size_download}' "$url")
        [[ ${got%% *} == 200 ]] || { echo "GET of the PDF answered ${got%% *}" >&2; exit 1; }
        gets+=("$(cut -d' ' -f2 <<<"$got")")
        size=$(cut -d' ' -f3 <<<"$got")
    done
    stop
    local post get health
    post=$(printf '%s\n' "${posts[@]}" | median)
    get=$(printf '%s\n' "${gets[@]}" | median)
    health=$(printf '%s\n' "${healths[@]}" | median)
    printf '%s, %s labels (%s pages, US Letter sheet of 30), median of %s rounds:\n' "$db" "$LABELS" "$pages" "$ROUNDS" >&2
    printf '  %-36s %10s s\n' "POST /qrcodes.api (look up, keep)" "$post" "GET the PDF (draw, send)" "$get" "GET /healthz (one request)" "$health" >&2
    printf '  %-36s %10s bytes\n' "PDF size" "$size" >&2
    results+=("{\"bench\":\"labels\",\"database\":\"$db\",\"labels\":$LABELS,\"pages\":$pages,\"rounds\":$ROUNDS,\"post_s\":$post,\"get_pdf_s\":$get,\"healthz_s\":$health,\"pdf_bytes\":$size}")
}

for_each_database
printf '%s\n' "${results[@]}"
