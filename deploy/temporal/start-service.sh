#!/bin/sh
# Starts one of Temporal's services in its own container of docker-compose.yml, from
# production.yaml beside this file, announcing the container's own address to the other services
# (they find each other through PostgreSQL's cluster_membership table). `npm run cluster` starts
# the same command per process, with loopback ports of each process's own.
#   start-service.sh frontend|history|matching|worker|internal-frontend
# (internal-frontend: the system worker's frontend when the server authorizes, production.yaml)
set -eu
service="${1:?usage: start-service.sh frontend|history|matching|worker|internal-frontend}"
case "$service" in
  frontend | history | matching | worker | internal-frontend) ;;
  *) echo "start-service.sh: no Temporal service named $service (frontend, history, matching, worker or internal-frontend)" >&2; exit 2 ;;
esac
TEMPORAL_BROADCAST_ADDRESS="${TEMPORAL_BROADCAST_ADDRESS:-$(hostname -i)}"
export TEMPORAL_BROADCAST_ADDRESS
exec temporal-server --root / --config etc/temporal/payflows --env production start --service="$service"
