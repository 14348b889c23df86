#!/bin/bash
# First start of the primary (docker-entrypoint-initdb.d): let the standby stream from it.
set -e
echo "host replication ${POSTGRES_USER} all scram-sha-256" >> "$PGDATA/pg_hba.conf"
