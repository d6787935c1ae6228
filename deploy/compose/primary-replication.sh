#!/bin/sh
# Run once by the postgres image when it creates the database (/docker-entrypoint-initdb.d): lets
# the replica (postgres-replica) stream the write-ahead log, as the owner role with its password.
set -eu
echo "host replication ${POSTGRES_USER} all scram-sha-256" >> "$PGDATA/pg_hba.conf"
