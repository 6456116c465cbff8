#!/usr/bin/env bash
# Checks packaging/rentrack.service with `systemd-analyze verify` (installed if
# missing), its ExecStart pointed at a built binary: any complaint fails.
#
#   packaging/check-unit.sh target/release/rentrack
set -euo pipefail
bin=$(realpath "${1:?usage: packaging/check-unit.sh PATH/TO/rentrack}")
here=$(dirname "$(realpath "$0")")
if ! command -v systemd-analyze >/dev/null; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq systemd >/dev/null
fi
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
sed "s|^ExecStart=/usr/local/bin/rentrack|ExecStart=$bin|" "$here/rentrack.service" > "$dir/rentrack.service"
out=$(systemd-analyze verify "$dir/rentrack.service" 2>&1) || { echo "$out"; exit 1; }
if [ -n "$out" ]; then
    echo "systemd-analyze verify complained:"
    echo "$out"
    exit 1
fi
echo "packaging/rentrack.service: systemd-analyze verify found nothing to say"
