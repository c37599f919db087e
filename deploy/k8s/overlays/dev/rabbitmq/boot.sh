#!/bin/sh
# The broker's boot in compose and in the development Kubernetes overlay: renders definitions.json
# (one user per deployable with its permissions and topic permissions, the events exchange and the
# audit queue; generated from the event contracts by scripts/bus/definitions.ts) with the passwords
# of the environment, or for a variable the environment lacks, of the file $CRM_SECRETS_DIR/<NAME>
# (compose: the secrets service's volume), has RabbitMQ load it at boot (every boot, so a changed
# password takes effect on the next restart), then starts the server as the image does.
# CRM_RABBITMQ_CONF_DIR (default /etc/rabbitmq) is where the rendered files go.
set -eu
here=$(dirname "$0")
conf=${CRM_RABBITMQ_CONF_DIR:-/etc/rabbitmq}
out=$conf/crm-definitions.json
umask 077
cp "$here/definitions.json" "$out.tmp"
for name in $(grep -o '@@[A-Z_]*@@' "$here/definitions.json" | sort -u | tr -d '@'); do
  value=$(printenv "$name" || true)
  if [ -z "$value" ] && [ -n "${CRM_SECRETS_DIR:-}" ] && [ -f "$CRM_SECRETS_DIR/$name" ]; then
    value=$(cat "$CRM_SECRETS_DIR/$name")
  fi
  if [ -z "$value" ]; then
    echo "boot.sh: $name is not set${CRM_SECRETS_DIR:+ (nor in $CRM_SECRETS_DIR)}" >&2
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
echo "load_definitions = $out" >"$conf/conf.d/20-crm-definitions.conf"
# The server runs as the image's `rabbitmq` user (absent when a test runs this script outside the image).
if [ "$(id -u)" = 0 ] && id rabbitmq >/dev/null 2>&1; then
  chown rabbitmq:rabbitmq "$out" "$conf/conf.d/20-crm-definitions.conf"
fi
exec docker-entrypoint.sh "$@"
