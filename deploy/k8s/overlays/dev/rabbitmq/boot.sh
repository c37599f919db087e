#!/bin/sh
# The broker's boot in compose and in the development Kubernetes overlay: renders definitions.json
# (one user per deployable with its permissions and topic permissions, the events exchange and the
# audit queue; generated from the event contracts by scripts/bus/definitions.ts) with the passwords
# of the environment, has RabbitMQ load it at boot (every boot, so a changed password takes effect
# on the next restart), then starts the server as the image does.
set -eu
here=$(dirname "$0")
out=/etc/rabbitmq/crm-definitions.json
umask 077
cp "$here/definitions.json" "$out.tmp"
for name in $(grep -o '@@[A-Z_]*@@' "$here/definitions.json" | sort -u | tr -d '@'); do
  value=$(printenv "$name" || true)
  if [ -z "$value" ]; then
    echo "boot.sh: $name is not set" >&2
    exit 1
  fi
  # Letters, digits and . _ ~ - only: the value goes into a URL's user part and a JSON string as is.
  case "$value" in
    *[!A-Za-z0-9._~-]*)
      echo "boot.sh: $name may hold only letters, digits and . _ ~ -" >&2
      exit 1
      ;;
  esac
  sed -i "s|@@$name@@|$value|g" "$out.tmp"
done
mv "$out.tmp" "$out"
if [ "$(id -u)" = 0 ]; then chown rabbitmq:rabbitmq "$out"; fi
echo "load_definitions = $out" >/etc/rabbitmq/conf.d/20-crm-definitions.conf
exec docker-entrypoint.sh "$@"
