# Sourced by packaging/test-instances.sh and bench/run-instances.sh: rentrack instances
# on one PostgreSQL database behind Debian's haproxy (installed when missing), which
# checks each instance's /readyz every second and balances round-robin
# (docs/operations.md, "Several instances").
#
# Needs RENTRACK (the binary). Optional: PG_URL (postgres://postgres@127.0.0.1:5432/postgres:
# the server where the scratch database $PG_DB is made, and dropped at exit), PORT
# (4100: haproxy; instance i listens on PORT + i), PG_DB (rentrack_instances).
#
# Sets `url` (the scratch database), `dir` (a scratch directory removed at exit; its
# logs are printed first when the script fails) and `base` (haproxy's URL). A process
# whose pid the caller puts in `load_pid` is killed at exit too. `start_instance i`, `kill_instance i SIGNAL`, `start_haproxy
# N` (instances 1..N behind it), `haproxy_command` (its admin socket), `await_state
# i UP|DOWN`, `company_token "$url" subdomain [plan]` (packaging/company.sh).
set -euo pipefail
PG_URL=${PG_URL:-postgres://postgres@127.0.0.1:5432/postgres}
PORT=${PORT:-4100}
PG_DB=${PG_DB:-rentrack_instances}

if ! command -v haproxy >/dev/null 2>&1; then
    echo "installing haproxy from Debian's packages" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq && apt-get install -y -qq haproxy >/dev/null
fi

dir=$(mktemp -d)
url=${PG_URL%/*}/$PG_DB
base=http://127.0.0.1:$PORT
declare -A instance_pids=()
haproxy_pid=
load_pid=
cleanup() {
    local status=$? pid log
    for pid in "${instance_pids[@]}" $haproxy_pid $load_pid; do
        { kill -KILL "$pid" && wait "$pid"; } 2>/dev/null || true
    done
    if ((status != 0)); then
        for log in "$dir"/*.log; do
            [[ -s $log ]] && { echo "== $log (its end)"; tail -n 20 "$log"; } >&2
        done
    fi
    psql -q "$PG_URL" -c "DROP DATABASE IF EXISTS $PG_DB WITH (FORCE)" >/dev/null 2>&1 || true
    rm -rf "$dir"
}
trap cleanup EXIT
trap 'exit 143' TERM
trap 'exit 130' INT
PGOPTIONS=--client-min-messages=warning psql -q "$PG_URL" -c "DROP DATABASE IF EXISTS $PG_DB WITH (FORCE)" -c "CREATE DATABASE $PG_DB" >/dev/null

# Starts instance i on PORT + i (its log in $dir/instance-i.log); returns at once: the
# instances migrate the new database together (they take turns on an advisory lock).
start_instance() { # i, extra serve flags...
    local i=$1
    shift
    RENTRACK_LOG=warn "$RENTRACK" serve --database-url "$url" --listen "127.0.0.1:$((PORT + i))" \
        --public-url "$base" --trusted-proxy 127.0.0.1 "$@" >>"$dir/instance-$i.log" 2>&1 &
    instance_pids[$i]=$!
}

kill_instance() { # i, signal
    kill "-$2" "${instance_pids[$1]}"
    wait "${instance_pids[$1]}" 2>/dev/null || true
    unset "instance_pids[$1]"
}

# haproxy in front of instances 1..N: each checked with GET /readyz every second (down
# after 2 failures, up after 2 successes), a refused connection retried on another
# instance, and the instance that answered named in X-Served-By.
start_haproxy() { # N
    local i servers=
    for i in $(seq 1 "$1"); do
        servers+="    server r$i 127.0.0.1:$((PORT + i)) check inter 1s fall 2 rise 2"$'\n'
    done
    cat >"$dir/haproxy.cfg" <<EOF
global
    maxconn 4096
    stats socket $dir/haproxy.sock level admin

defaults
    mode http
    timeout connect 2s
    timeout client 60s
    timeout server 60s
    retries 3
    option redispatch
    option forwardfor

frontend api
    bind 127.0.0.1:$PORT
    default_backend rentrack

backend rentrack
    balance roundrobin
    option httpchk GET /readyz
    http-check expect status 200
    http-response set-header X-Served-By %s
$servers
EOF
    haproxy -db -f "$dir/haproxy.cfg" >"$dir/haproxy.log" 2>&1 &
    haproxy_pid=$!
    for i in $(seq 1 "$1"); do
        await_state "$i" UP
    done
}

# A command on haproxy's admin socket; prints the answer.
haproxy_command() { # command
    python3 - "$dir/haproxy.sock" "$1" <<'EOF'
import socket, sys, time
for _ in range(50):
    try:
        s = socket.socket(socket.AF_UNIX)
        s.connect(sys.argv[1])
        break
    except OSError:
        time.sleep(0.1)
else:
    sys.exit(f"haproxy's admin socket {sys.argv[1]} does not answer (haproxy.log says why)")
s.sendall(sys.argv[2].encode() + b"\n")
out = b""
while chunk := s.recv(65536):
    out += chunk
sys.stdout.write(out.decode())
EOF
}

# Waits (300 tries, 0.1 s apart) until haproxy's health checks see instance i UP or DOWN.
await_state() { # i, UP or DOWN
    local status
    for _ in $(seq 1 300); do
        status=$(haproxy_command "show stat" | awk -F, -v s="r$1" '$1 == "rentrack" && $2 == s { print $18 }')
        [[ $status == "$2" ]] && return
        sleep 0.1
    done
    echo "instance $1 is not $2 for haproxy (status: ${status:-none}); its log:" >&2
    cat "$dir/instance-$1.log" >&2
    exit 1
}

# A new company with the API enabled (plan: unlimited unless named); prints its token.
source "$(dirname "${BASH_SOURCE[0]}")/company.sh"
