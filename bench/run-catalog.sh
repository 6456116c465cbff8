#!/usr/bin/env bash
# Seed 1000 locations / 100 groups / 100 vendors, then run the healthz,
# location-details and location-list mixes (see run.sh for the knobs).
#
#   BASE_URL=http://127.0.0.1:3000 TOKEN=... bench/run-catalog.sh
SEED_ARGS=${SEED_ARGS:-"--locations 1000 --groups 100 --vendors 100"} \
MIXES=${MIXES:-"healthz location-details location-list"} \
    exec "$(dirname "$0")/run.sh"
