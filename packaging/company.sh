# Sourced by packaging/instances.sh and bench/own-server.sh: `company_token URL
# SUBDOMAIN [PLAN]` makes a company on the database URL with the API enabled, on the
# plan (unlimited unless named), and prints its token. Needs RENTRACK (the binary).
company_token() { # database URL, subdomain, [plan]
    "$RENTRACK" company create --database-url "$1" --name "Company $2" --subdomain "$2" \
        --plan "${3:-unlimited}" --enable-api | sed 's/.*"token":"\([^"]*\)".*/\1/'
}
