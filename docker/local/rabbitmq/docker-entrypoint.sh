#!/bin/sh
# Starts the given command as the rabbitmq user, as the official image does, logging to the
# container's output. Debian's /usr/sbin/rabbitmq-server sends the server's output to files, so
# the server is started from /usr/lib/rabbitmq/bin.
set -eu
if [ "${1:-}" = rabbitmq-server ]; then
  shift
  set -- /usr/lib/rabbitmq/bin/rabbitmq-server "$@"
fi
export RABBITMQ_LOGS=- HOME=/var/lib/rabbitmq
cd /var/lib/rabbitmq
if [ "$(id -u)" = 0 ]; then
  chown -R rabbitmq:rabbitmq /var/lib/rabbitmq
  exec setpriv --reuid=rabbitmq --regid=rabbitmq --init-groups "$@"
fi
exec "$@"
