#!/bin/sh
# The streaming replica of `postgres` (docker-compose.prod.yml, service postgres-replica): on its
# first start the data folder is empty and is filled with pg_basebackup -R (which writes
# standby.signal and primary_conninfo), then the server runs as a hot standby that follows the
# primary over streaming replication. Its volume is its own; losing it costs one base backup.
set -eu
if [ "$(id -u)" = 0 ]; then
  mkdir -p "$(dirname "$PGDATA")"
  chown postgres:postgres "$(dirname "$PGDATA")"
  exec gosu postgres "$0" "$@"
fi
if [ ! -s "$PGDATA/PG_VERSION" ]; then
  until pg_isready -h postgres -U pronet -d pronet -q; do sleep 1; done
  pg_basebackup -h postgres -U pronet -D "$PGDATA" -R -X stream -c fast
fi
exec postgres -c hot_standby=on
