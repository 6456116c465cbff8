# Sourced first by the bench/run-*.sh scripts: strict mode, the repository as the
# working directory, and RENTRACK and BENCH: the builds given in those variables, or
# builds of the profile $PROFILE (`release`, `dist` as packages are built, or
# `profiling`: Cargo.toml) made now in $CARGO_TARGET_DIR (default
# ~/.cache/rentrack-target).
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$HOME/.cache/rentrack-target}
PROFILE=${PROFILE:-release}
if [[ -z "${RENTRACK:-}" || -z "${BENCH:-}" ]]; then
    cargo build --profile "$PROFILE" --quiet -p rentrack -p rentrack-bench
fi
RENTRACK=${RENTRACK:-$CARGO_TARGET_DIR/$PROFILE/rentrack}
BENCH=${BENCH:-$CARGO_TARGET_DIR/$PROFILE/rentrack-bench}
