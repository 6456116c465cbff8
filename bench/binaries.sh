# Sourced first by the bench/run-*.sh scripts: strict mode, the repository as the
# working directory, and RENTRACK and BENCH: the builds given in those variables, or
# release builds made now in $CARGO_TARGET_DIR (default ~/.cache/rentrack-target).
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$HOME/.cache/rentrack-target}
if [[ -z "${RENTRACK:-}" || -z "${BENCH:-}" ]]; then
    cargo build --release --quiet -p rentrack -p rentrack-bench
fi
RENTRACK=${RENTRACK:-$CARGO_TARGET_DIR/release/rentrack}
BENCH=${BENCH:-$CARGO_TARGET_DIR/release/rentrack-bench}
