#!/usr/bin/env bash
# Seed 100,000 customers (a tenth not taxed), then run the healthz, customer-list,
# customer-list-non-taxed and customer-list-email mixes (see run.sh for the knobs).
#
#   BASE_URL=http://127.0.0.1:3000 TOKEN=... bench/run-customers.sh
SEED_ARGS=${SEED_ARGS:-"--locations 0 --groups 0 --vendors 0 --customers 100000"} \
MIXES=${MIXES:-"healthz customer-list customer-list-non-taxed customer-list-email"} \
    exec "$(dirname "$0")/run.sh"
