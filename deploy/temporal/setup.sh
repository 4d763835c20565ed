#!/bin/sh
# Prepares a Temporal cluster on PostgreSQL, and again safely on every start:
#   setup.sh schema     the databases and schemas (temporal-sql-tool, as Temporal documents it);
#                       run before the server starts, and to upgrade the schema after a new server
#   setup.sh indexes    after `schema`: the visibility indexes of mostly-NULL columns made partial
#                       (visibility-indexes.sql, with psql); a no-op once they are
#   setup.sh namespace  once the server answers: the namespace with its retention and the search
#                       attributes the workflows set
# The same script runs in docker-compose.yml (`schema` and `namespace` in temporalio/admin-tools
# containers, `indexes` in a postgres one, for its psql) and in `npm run cluster`.
#
# Needs: temporal-sql-tool and temporal (the CLI) on PATH, and psql for `indexes`; for `schema`:
# SCHEMA_DIR (the server's schema/postgresql/v12 folder); for `schema` and `indexes`:
# POSTGRES_SEEDS, DB_PORT, POSTGRES_USER, POSTGRES_PWD; for `namespace`: TEMPORAL_ADDRESS,
# NAMESPACE and NAMESPACE_RETENTION (default: default, 72h).
# Against a server that authorizes (TEMPORAL_AUTH_JWKS_URL in production.yaml), TEMPORAL_API_KEY: an
# admin's access token (creating a namespace and search attributes needs the admin role); the CLI
# reads it itself.
set -eu
step="${1:?usage: setup.sh schema|indexes|namespace}"
DB_PORT="${DB_PORT:-5432}"
DBNAME="${DBNAME:-temporal}"
VISIBILITY_DBNAME="${VISIBILITY_DBNAME:-temporal_visibility}"
NAMESPACE="${NAMESPACE:-default}"
NAMESPACE_RETENTION="${NAMESPACE_RETENTION:-72h}"

schema() {
: "${SCHEMA_DIR:?SCHEMA_DIR: the server's schema/postgresql/v12 folder}"
: "${POSTGRES_SEEDS:?}" "${POSTGRES_USER:?}" "${POSTGRES_PWD:?}"
sql() { temporal-sql-tool --plugin postgres12 --ep "$POSTGRES_SEEDS" -p "$DB_PORT" -u "$POSTGRES_USER" --pw "$POSTGRES_PWD" "$@"; }

for pair in "$DBNAME:temporal" "$VISIBILITY_DBNAME:visibility"; do
  db="${pair%%:*}"; schema="${pair#*:}"
  echo "setup: database $db, schema $schema"
  # create-database fails when it exists: that is the normal case after the first start.
  sql --db "$db" create-database 2>/dev/null || true
  # setup-schema -v 0.0 only creates the version table; update-schema applies every version
  # above the recorded one, so both are no-ops on a database that is up to date.
  sql --db "$db" setup-schema -v 0.0
  sql --db "$db" update-schema -d "$SCHEMA_DIR/$schema/versioned"
done
}

indexes() {
: "${POSTGRES_SEEDS:?}" "${POSTGRES_USER:?}" "${POSTGRES_PWD:?}"
echo "setup: visibility indexes of mostly-NULL columns, partial ($VISIBILITY_DBNAME)"
PGPASSWORD="$POSTGRES_PWD" psql -X -q -v ON_ERROR_STOP=1 -h "$POSTGRES_SEEDS" -p "$DB_PORT" -U "$POSTGRES_USER" \
  -d "$VISIBILITY_DBNAME" -f "$(dirname "$0")/visibility-indexes.sql"
}

namespace() {
: "${TEMPORAL_ADDRESS:?}"
echo "setup: waiting for the Temporal server at $TEMPORAL_ADDRESS"
tries=0
until temporal operator cluster health --address "$TEMPORAL_ADDRESS" >/dev/null 2>&1; do
  tries=$((tries + 1))
  if [ "$tries" -ge 120 ]; then echo "setup: the server did not answer within 2 minutes" >&2; exit 1; fi
  sleep 1
done

if temporal operator namespace describe --address "$TEMPORAL_ADDRESS" --namespace "$NAMESPACE" >/dev/null 2>&1; then
  temporal operator namespace update --address "$TEMPORAL_ADDRESS" --namespace "$NAMESPACE" --retention "$NAMESPACE_RETENTION"
else
  temporal operator namespace create --address "$TEMPORAL_ADDRESS" --namespace "$NAMESPACE" --retention "$NAMESPACE_RETENTION"
fi

# The custom search attributes of src/temporal/search-attributes.ts (a test keeps the two equal).
# Creating one that exists with the same type succeeds, so this is safe on every start.
tries=0
until temporal operator search-attribute create --address "$TEMPORAL_ADDRESS" --namespace "$NAMESPACE" \
  --name ProcessStatus --type Keyword \
  --name WalletId --type Keyword \
  --name AccountId --type Keyword \
  --name UserId --type Keyword \
  --name WaitingOnEndUser --type Bool \
  --name BalanceDrift --type Bool; do
  # A namespace just created takes a moment to reach every service.
  tries=$((tries + 1))
  if [ "$tries" -ge 30 ]; then exit 1; fi
  sleep 1
done
echo "setup: done (namespace $NAMESPACE, retention $NAMESPACE_RETENTION)"
}

case "$step" in
  schema) schema ;;
  indexes) indexes ;;
  namespace) namespace ;;
  *) echo "usage: setup.sh schema|indexes|namespace" >&2; exit 2 ;;
esac
