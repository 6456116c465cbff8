#!/usr/bin/env bash
# Three rentrack instances on one PostgreSQL behind haproxy (packaging/instances.sh;
# docs/operations.md, "Several instances"), checked from outside:
#
# - the three start at once on an empty database (one migrates) and haproxy's /readyz
#   checks see all three up;
# - a company's rate limit holds across them: 45 requests round-robin over the three
#   against a limit of 30 are 30 answers and 15 refusals;
# - a label link printed through one instance opens through each of the others;
# - killing one (SIGKILL) while 16 clients create locations through haproxy loses no
#   acknowledged write, fails only requests sent before the kill and at most as many as
#   were in flight, and haproxy takes it out; started again, it comes back;
# - stopping one with SIGTERM under the same load loses no acknowledged write either
#   (and, in the runs so far, fails no request: the test asks what it asks of the kill).
#
#   packaging/test-instances.sh target/release/rentrack
#
# Needs haproxy (installed when missing, as root), psql, python3 and a PostgreSQL server.
# Optional: PG_URL, PORT (packaging/instances.sh), WRITERS (16), LOAD_SECS (8).
set -euo pipefail
RENTRACK=$(realpath "${1:?usage: packaging/test-instances.sh PATH/TO/rentrack}")
source "$(dirname "$0")/instances.sh"
WRITERS=${WRITERS:-16}
LOAD_SECS=${LOAD_SECS:-8}

for i in 1 2 3; do
    start_instance "$i"
done
start_haproxy 3
echo "three instances started at once on one empty database; haproxy's /readyz checks see all three up"

# The shared rate limit. Windows are aligned to their length: wait out the hour's last
# minute (a minute at most) so that the 45 requests fall in one window.
token=$(company_token "$url" limits paid)
"$RENTRACK" company set-rate-limit --database-url "$url" --subdomain limits --requests 30 --window-secs 3600 >/dev/null
left=$((3600 - $(date +%s) % 3600))
((left > 60)) || sleep "$((left + 1))"
python3 - "$base" "$token" <<'EOF'
import collections, sys, urllib.error, urllib.request
base, token = sys.argv[1:]
seen = collections.Counter()
for _ in range(45):
    request = urllib.request.Request(f"{base}/locations/get_line_item_locations.api", headers={"token": token})
    try:
        with urllib.request.urlopen(request) as answer:
            seen[answer.status, answer.headers["X-Served-By"]] += 1
    except urllib.error.HTTPError as answer:
        seen[answer.code, answer.headers["X-Served-By"]] += 1
served = sum(n for (status, _), n in seen.items() if status == 200)
refused = sum(n for (status, _), n in seen.items() if status == 429)
by = {s for (_, s) in seen}
assert (served, refused) == (30, 15), f"limit 30: {dict(seen)}"
assert by == {"r1", "r2", "r3"}, f"not served by all three: {dict(seen)}"
print(f"shared rate limit: 45 requests over r1, r2 and r3 against a limit of 30: {served} answered, {refused} refused (429)")
EOF

# A label link printed through instance 1 opens through instances 2 and 3.
token=$(company_token "$url" labels)
python3 - "$PORT" "$token" <<'EOF'
import json, sys, urllib.parse, urllib.request
port, token = int(sys.argv[1]), sys.argv[2]
def call(i, method, path, form=None):
    data = urllib.parse.urlencode(form).encode() if form else None
    request = urllib.request.Request(f"http://127.0.0.1:{port + i}{path}", data=data, method=method,
                                     headers={"token": token})
    with urllib.request.urlopen(request) as answer:
        return answer.headers["Content-Type"], answer.read()
_, body = call(1, "POST", "/locations.api", {"location[name]": "Label Depot"})
location = json.loads(body)["location"]["id"]
_, body = call(1, "POST", "/qrcode/locations.api", {"location_id": location})
link = json.loads(body)["url"]
assert link.startswith(f"http://127.0.0.1:{port}/labels/"), link
path = urllib.parse.urlsplit(link).path
pdfs = set()
for i in (2, 3):
    kind, pdf = call(i, "GET", path)
    assert kind == "application/pdf" and pdf.startswith(b"%PDF-"), (i, kind, pdf[:20])
    pdfs.add(pdf)
assert len(pdfs) == 1, "instances 2 and 3 served different PDFs for one link"
print("label link printed through instance 1 opened through instances 2 and 3 (one PDF)")
EOF

# Locations created by $WRITERS clients through haproxy for $LOAD_SECS seconds while
# instance $1 gets signal $2 halfway; then every acknowledged one must be in the
# database.
token=$(company_token "$url" load)
under_load() { # instance, signal
    local acked="$dir/acked-$2" kill_at
    python3 - "$base" "$token" "$WRITERS" "$LOAD_SECS" "$acked" "$2" <<'EOF' &
import http.client, json, sys, threading, time, urllib.parse
base, token, writers, seconds, out, label = sys.argv[1], sys.argv[2], int(sys.argv[3]), float(sys.argv[4]), sys.argv[5], sys.argv[6]
host, port = urllib.parse.urlsplit(base).hostname, urllib.parse.urlsplit(base).port
lock = threading.Lock()
acked, failed, by = [], [], {}
start = time.monotonic()
def writer(w):
    conn, i = None, 0
    while time.monotonic() - start < seconds:
        name = f"Load {label} {w}-{i}"
        i += 1
        sent = time.time()
        try:
            conn = conn or http.client.HTTPConnection(host, port, timeout=30)
            conn.request("POST", "/locations.api", urllib.parse.urlencode({"location[name]": name}),
                         {"token": token, "Content-Type": "application/x-www-form-urlencoded"})
            answer = conn.getresponse()
            body = answer.read()
            error = None if answer.status == 200 else f"{answer.status} {body[:120]!r}"
            server = answer.getheader("X-Served-By")
        except Exception as e:
            error, server = repr(e), None
            conn.close()
            conn = None
        with lock:
            if error is None:
                acked.append(name)
                by[server] = by.get(server, 0) + 1
            else:
                failed.append({"sent": sent, "answered": time.time(), "error": error})
threads = [threading.Thread(target=writer, args=(w,)) for w in range(writers)]
for t in threads:
    t.start()
for t in threads:
    t.join()
with open(out, "w") as f:
    json.dump({"acked": acked, "failed": failed, "by": by}, f)
EOF
    load_pid=$!
    sleep "$(python3 -c "print($LOAD_SECS / 2)")"
    kill_at=$(date +%s.%N)
    kill_instance "$1" "$2"
    wait "$load_pid"
    load_pid=
    await_state "$1" DOWN
    psql -qtA "$url" -c "SELECT name FROM locations WHERE name LIKE 'Load $2 %'" >"$dir/stored-$2"
    python3 - "$acked" "$dir/stored-$2" "$kill_at" "$WRITERS" "$2" "$1" <<'EOF'
import json, sys
run = json.load(open(sys.argv[1]))
stored = set(open(sys.argv[2]).read().split("\n"))
kill_at, writers, signal, instance = float(sys.argv[3]), int(sys.argv[4]), sys.argv[5], sys.argv[6]
lost = [name for name in run["acked"] if name not in stored]
assert not lost, f"{len(lost)} acknowledged writes are not in the database: {lost[:5]}"
late = [f for f in run["failed"] if f["sent"] > kill_at + 0.05]
assert not late, f"requests sent after the {signal} failed: {late[:3]}"
assert len(run["failed"]) <= writers, f"{len(run['failed'])} failed requests, more than the {writers} in flight"
assert len(run["by"]) == 3, f"the load did not reach all three instances: {run['by']}"
errors = sorted({f["error"] for f in run["failed"]})
print(f"SIG{signal} to instance {instance} under load ({writers} clients): {len(run['acked'])} writes acknowledged"
      f" ({', '.join(f'{k} {v}' for k, v in sorted(run['by'].items()))}), all in the database;"
      + (f" {len(run['failed'])} failed, all sent before the signal: {'; '.join(errors)}" if errors else " none failed"))
EOF
}

under_load 2 KILL
echo "haproxy took instance 2 out after SIGKILL"
start_instance 2
await_state 2 UP
echo "instance 2 started again; haproxy put it back"
under_load 3 TERM
