#!/usr/bin/env bash
# Seed 1000 members, then run the healthz, member-details, member-list and
# member-list-active mixes (see run.sh for the knobs).
#
#   BASE_URL=http://127.0.0.1:3000 TOKEN=... bench/run-members.sh
SEED_ARGS=${SEED_ARGS:-"--locations 0 --groups 0 --vendors 0 --members 1000"} \
MIXES=${MIXES:-"healthz member-details member-list member-list-active"} \
    exec "$(dirname "$0")/run.sh"
