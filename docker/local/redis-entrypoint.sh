#!/bin/sh
# redis-server runs as the redis user (owning /data); any other command runs as given.
set -eu
if [ "${1:-}" = redis-server ] && [ "$(id -u)" = 0 ]; then
  chown -R redis:redis /data
  exec setpriv --reuid=redis --regid=redis --init-groups "$@"
fi
exec "$@"
