#!/usr/bin/env bash
# Builds rentrack's image from nothing around a built binary (packaging/Containerfile.local)
# with Debian's buildah, checks its configuration, and runs what it holds: in a
# container with podman where this machine lets one run, otherwise (a sandbox that
# refuses containers) its root filesystem alone, with the image's working directory,
# user and environment (util-linux's unshare --root). Either way the server starts on the empty /data
# volume, `rentrack healthcheck` inside the image says ready, a company made with the
# image's binary answers over HTTP, the server stops cleanly on SIGTERM, and after a
# restart its data is still in /data.
#
#   packaging/test-image.sh target/release/rentrack
set -euo pipefail
bin=$(realpath "${1:?usage: packaging/test-image.sh PATH/TO/rentrack}")
here=$(dirname "$(realpath "$0")")
port=${PORT:-3994}
if ! command -v buildah >/dev/null || ! command -v podman >/dev/null; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq buildah podman >/dev/null
fi
work=$(mktemp -d)
store=(--storage-driver vfs --root "$work/storage" --runroot "$work/run")
server=""
cleanup() {
    if [ -n "$server" ]; then
        kill "$server" 2>/dev/null || true
        wait "$server" 2>/dev/null || true
    fi
    podman "${store[@]}" rm --force rentrack-test >/dev/null 2>&1 || true
    buildah "${store[@]}" rm --all >/dev/null 2>&1 || true
    buildah "${store[@]}" rmi --all --force >/dev/null 2>&1 || true
    rm -rf "$work"
}
trap cleanup EXIT

# The image's files: the binary, the libraries it links, the CA certificates webhooks
# are verified with (the server refuses to start without them), its user, its volume.
mkdir -p "$work/rootfs/usr/local/bin" "$work/rootfs/etc/ssl/certs" "$work/rootfs/tmp" "$work/data"
cp -L /etc/ssl/certs/ca-certificates.crt "$work/rootfs/etc/ssl/certs/"
chmod 1777 "$work/rootfs/tmp"
cp "$bin" "$work/rootfs/usr/local/bin/rentrack"
for lib in $(ldd "$bin" | grep -o '/[^ ]*'); do
    mkdir -p "$work/rootfs$(dirname "$lib")"
    cp -L "$lib" "$work/rootfs$lib"
done
printf 'root:x:0:0::/:/nonexistent\nrentrack:x:65532:65532::/data:/nonexistent\n' > "$work/rootfs/etc/passwd"
printf 'root:x:0:\nrentrack:x:65532:\n' > "$work/rootfs/etc/group"
cp "$here/Containerfile.local" "$work/"
buildah "${store[@]}" bud --quiet --isolation chroot --format docker \
    -t localhost/rentrack-test -f "$work/Containerfile.local" "$work" >/dev/null
echo "built localhost/rentrack-test from scratch ($(du -sh "$work/rootfs" | cut -f1) of files)"

# Its configuration, as a runtime reads it.
buildah "${store[@]}" inspect --type image localhost/rentrack-test | python3 -c '
import json, sys
config = json.load(sys.stdin)["Docker"]["config"]
expect = {
    "User": "65532:65532",
    "WorkingDir": "/data",
    "Entrypoint": ["/usr/local/bin/rentrack"],
    "Cmd": ["serve"],
}
for key, value in expect.items():
    assert config[key] == value, (key, config[key])
assert "/data" in config["Volumes"], config["Volumes"]
assert config["Healthcheck"]["Test"] == ["CMD", "/usr/local/bin/rentrack", "healthcheck"], config["Healthcheck"]
assert not any(e.startswith("RENTRACK_DATABASE_URL") for e in config["Env"]), config["Env"]
assert "RENTRACK_LISTEN=0.0.0.0:3000" in config["Env"], config["Env"]
print("image configuration: user 65532, working directory and volume /data, health check, environment")
'

# What the image holds, taken out of the image itself.
container=$(buildah "${store[@]}" from localhost/rentrack-test)
root=$(buildah "${store[@]}" mount "$container")
owner=$(stat -c %u:%g "$root/data")
[ "$owner" = "65532:65532" ] || { echo "/data belongs to $owner, not the image's user"; exit 1; }

if podman "${store[@]}" run --rm --network host --no-healthcheck localhost/rentrack-test --version >"$work/podman.log" 2>&1; then
    mode=podman
    inside() { podman "${store[@]}" exec rentrack-test /usr/local/bin/rentrack "$@"; }
    start() {
        podman "${store[@]}" run -d --name rentrack-test --network host \
            -e "RENTRACK_LISTEN=127.0.0.1:$port" -v "$work/volume:/data" localhost/rentrack-test >/dev/null
    }
    stop() {
        podman "${store[@]}" stop -t 40 rentrack-test >/dev/null
        local status
        status=$(podman "${store[@]}" inspect -f '{{.State.ExitCode}}' rentrack-test)
        podman "${store[@]}" logs rentrack-test >>"$work/server.log" 2>&1 || true
        podman "${store[@]}" rm rentrack-test >/dev/null
        [ "$status" -eq 0 ] || { echo "the server exited $status after SIGTERM:"; cat "$work/server.log"; exit 1; }
    }
    mkdir -p "$work/volume" && chown 65532:65532 "$work/volume"
else
    mode=rootfs
    echo "podman cannot run a container here: $(grep -m1 -i error "$work/podman.log")"
    echo "running the image's root filesystem alone instead (its root, working directory, user and environment)"
    image_env=(env -i RENTRACK_LISTEN=127.0.0.1:$port RENTRACK_LOG=warn)
    unshare=$(command -v unshare)
    image=("$unshare" --root="$root" --wd=/data --setuid=65532 --setgid=65532)
    inside() { "${image_env[@]}" "${image[@]}" /usr/local/bin/rentrack "$@"; }
    # env, then unshare, exec the server: $! is its own process.
    start() {
        "${image_env[@]}" "${image[@]}" /usr/local/bin/rentrack serve >>"$work/server.log" 2>&1 &
        server=$!
    }
    stop() {
        kill -TERM "$server"
        local status=0
        wait "$server" || status=$?
        server=""
        [ "$status" -eq 0 ] || { echo "the server exited $status after SIGTERM:"; cat "$work/server.log"; exit 1; }
    }
fi

ready() {
    for _ in $(seq 1 60); do
        inside healthcheck >/dev/null 2>&1 && return 0
        sleep 0.5
    done
    echo "the server in the image never became ready:"; cat "$work/server.log" 2>/dev/null; exit 1
}

start
ready
echo "$mode: the server is ready (rentrack healthcheck inside the image)"
token=$(inside company create --name "Image Test" --subdomain imagetest --plan unlimited --enable-api \
    | python3 -c 'import json, sys; print(json.load(sys.stdin)["token"])')
answer() {
    python3 - "$port" "$token" <<'PY'
import json, sys, urllib.request
port, token = sys.argv[1], sys.argv[2]
request = urllib.request.Request(
    f"http://127.0.0.1:{port}/locations.api",
    data=b"location%5Bname%5D=Image+Depot",
    headers={"token": token, "Content-Type": "application/x-www-form-urlencoded"},
)
created = json.load(urllib.request.urlopen(request))
print(created["location"]["name"])
PY
}
[ "$(answer)" = "Image Depot" ] || { echo "the image's server did not create a location"; exit 1; }
stop
start
ready
inside company list | grep -q '"subdomain":"imagetest"' \
    || { echo "the company made before the restart is gone from /data"; exit 1; }
stop
echo "$mode: served, stopped cleanly on SIGTERM, and kept its data in /data across a restart"
