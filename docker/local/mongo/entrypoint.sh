#!/bin/sh
# PostgreSQL (local to the container, trusted from 127.0.0.1 only) under FerretDB, which is the only
# thing listening outside. The first start of an empty /data/db also creates the users.
set -eu
data=/data/db/postgresql
pg=/usr/lib/postgresql/15/bin
first_start=false
mkdir -p /data/db /run/postgresql
chown postgres:postgres /data/db /run/postgresql
as_postgres() { setpriv --reuid=postgres --regid=postgres --init-groups "$@"; }

if [ ! -s "$data/PG_VERSION" ]; then
  first_start=true
  as_postgres "$pg/initdb" --pgdata="$data" --auth=trust --username=postgres --encoding=UTF8 >/dev/null
fi
as_postgres "$pg/pg_ctl" --pgdata="$data" --wait --log="$data/server.log" \
  --options="-c listen_addresses=127.0.0.1 -c unix_socket_directories=/run/postgresql" start >/dev/null
as_postgres psql -h 127.0.0.1 -U postgres -tAc "SELECT 1 FROM pg_database WHERE datname = 'ferretdb'" | grep -q 1 ||
  as_postgres psql -h 127.0.0.1 -U postgres -qc 'CREATE DATABASE ferretdb'

root_password=${MONGO_INITDB_ROOT_PASSWORD:-}
if [ -z "$root_password" ] && [ -n "${MONGO_INITDB_ROOT_PASSWORD_FILE:-}" ]; then
  root_password=$(cat "$MONGO_INITDB_ROOT_PASSWORD_FILE")
fi
export FERRETDB_LISTEN_ADDR=0.0.0.0:27017
export FERRETDB_POSTGRESQL_URL=postgres://postgres@127.0.0.1:5432/ferretdb
mkdir -p /data/db/ferretdb && chown postgres:postgres /data/db/ferretdb
export FERRETDB_STATE_DIR=/data/db/ferretdb FERRETDB_TELEMETRY=disable FERRETDB_TEST_ENABLE_NEW_AUTH=true FERRETDB_LOG_LEVEL=warn
if [ "$first_start" = true ]; then
  export FERRETDB_SETUP_DATABASE=admin
  export FERRETDB_SETUP_USERNAME=${MONGO_INITDB_ROOT_USERNAME:-root}
  export FERRETDB_SETUP_PASSWORD=$root_password
fi
as_postgres /usr/local/bin/ferretdb &
ferretdb_pid=$!
trap 'kill -TERM $ferretdb_pid 2>/dev/null; wait $ferretdb_pid; as_postgres "$pg/pg_ctl" --pgdata="$data" --mode=fast stop >/dev/null' TERM INT
if [ "$first_start" = true ]; then
  MONGO_ROOT_PASSWORD=$root_password node /opt/crm-mongo/init-users.cjs || { kill -TERM $ferretdb_pid; exit 1; }
fi
# The health check (mongo-ping) reports ready only once the users exist.
touch /run/postgresql/crm-ready
wait $ferretdb_pid
