#!/bin/sh
# docker compose's secrets (the one-shot `secrets` service of docker-compose.yml): every password and
# key the containers need, made at random on the first start into the volume mounted at
# $CRM_SECRETS_DIR, one file per value, and kept on later starts (a file that exists is never
# rewritten). A value the operator sets in the environment (the shell or .env: MONGO_ROOT_PASSWORD,
# MONGO_<SERVICE>_PASSWORD, RABBITMQ_PASSWORD, RABBITMQ_<NAME>_PASSWORD, MFA_ENCRYPTION_KEY,
# BOOTSTRAP_<ROLE>_PASSWORD) is written instead of a random one. Each deployable's connection URLs
# (<deployable>/MONGO_URL, <deployable>/AMQP_URL) are derived from the kept passwords at every start,
# so COMPOSE_MONGO_HOST and COMPOSE_RABBITMQ_HOST may change.
#
# Who reads what: MongoDB's and RabbitMQ's passwords belong to their images' user (999, `mongodb` and
# `rabbitmq`; RabbitMQ's boot.sh reads them as root before the server drops to that user), every other
# file to the node apps' user (1000, docker/node-app.Dockerfile); each file is 0400, so an app
# container cannot read the database's root password. Ownership is changed only when run as root.
set -eu
export LC_ALL=C # byte ranges in tr and case patterns

dir=${CRM_SECRETS_DIR:-/run/crm-secrets}
mongo_host=${COMPOSE_MONGO_HOST:-mongo:27017}
rabbitmq_host=${COMPOSE_RABBITMQ_HOST:-rabbitmq:5672}
app_owner=${CRM_SECRETS_APP_OWNER:-1000:1000}
infra_owner=${CRM_SECRETS_INFRA_OWNER:-999:999}

# One database user per service (docker/mongo/init-service-users.js), one broker user per deployable
# (docker/rabbitmq/definitions.json); scripts/compose/make-secrets.test.ts keeps both lists in step.
mongo_services='auth appointments records rooms config notifications audit reporting payments'
bus_participants='auth appointments records rooms config audit reporting notifications payments gateway'

upper() { printf '%s' "$1" | tr 'a-z' 'A-Z'; }

# Letters and digits only: the values go into URLs and JSON strings as they are.
random() { tr -dc 'A-Za-z0-9' </dev/urandom | head -c "$1"; }

# The auth service's password rules for the staff accounts, with room to spare: 20 characters with an
# upper-case letter, a lower-case letter and a digit.
staff_password() {
  while :; do
    candidate=$(random 20)
    case $candidate in *[A-Z]*) ;; *) continue ;; esac
    case $candidate in *[a-z]*) ;; *) continue ;; esac
    case $candidate in *[0-9]*) ;; *) continue ;; esac
    printf '%s' "$candidate"
    return
  done
}

# The development values this repository publishes: the services refuse them outside loopback.
published() {
  case $(printf '%s' "$1" | tr 'A-Z' 'a-z') in
    dev-only-* | admin1234! | doctor1234! | kiosk1234!) return 0 ;;
    *) return 1 ;;
  esac
}

# protect FILE OWNER: owner-only, read-only.
protect() {
  chmod 0400 "$1"
  if [ "$(id -u)" = 0 ]; then chown "$2" "$1"; fi
}

# put FILE OWNER VALUE: written whole or not at all (a run stopped halfway leaves no truncated secret).
put() {
  rm -f "$dir/$1.tmp"
  printf '%s\n' "$3" >"$dir/$1.tmp"
  protect "$dir/$1.tmp" "$2"
  mv -f "$dir/$1.tmp" "$dir/$1"
}

# secret NAME OWNER MAKER [url-safe]: keeps $dir/NAME; else writes $NAME of the environment, else
# what MAKER prints.
secret() {
  name=$1 owner=$2 maker=$3
  if [ -s "$dir/$name" ]; then
    protect "$dir/$name" "$owner"
    return
  fi
  value=$(printenv "$name" || true)
  if [ -n "$value" ] && published "$value"; then
    # .env.example's values for `npm start`: a copy of it as .env must not give them to compose.
    echo "secrets: $name of the environment is a published development value; a random one is used" >&2
    value=
  fi
  if [ -n "$value" ] && [ "${4:-}" = url-safe ]; then
    case $value in
      *[!A-Za-z0-9._~-]*)
        echo "secrets: $name may hold only letters, digits and . _ ~ - (it goes into a URL)" >&2
        exit 1
        ;;
    esac
  fi
  if [ -z "$value" ]; then value=$($maker); fi
  put "$name" "$owner" "$value"
  echo "secrets: $name written"
}

password() { random 32; }
at_rest_key() { random 64; }

umask 077
mkdir -p "$dir"
chmod 0755 "$dir" # the files' own modes keep them private; the directory only has to be traversed

secret MONGO_ROOT_PASSWORD "$infra_owner" password url-safe
for service in $mongo_services; do
  secret "MONGO_$(upper "$service")_PASSWORD" "$infra_owner" password url-safe
done
secret RABBITMQ_PASSWORD "$infra_owner" password url-safe
for participant in $bus_participants; do
  secret "RABBITMQ_$(upper "$participant")_PASSWORD" "$infra_owner" password url-safe
done
secret MFA_ENCRYPTION_KEY "$app_owner" at_rest_key
for role in ADMIN DOCTOR KIOSK; do
  secret "BOOTSTRAP_${role}_PASSWORD" "$app_owner" staff_password
done

for participant in $bus_participants; do
  mkdir -p "$dir/$participant"
  chmod 0755 "$dir/$participant"
  case " $mongo_services " in
    *" $participant "*)
      mongo_password=$(cat "$dir/MONGO_$(upper "$participant")_PASSWORD")
      put "$participant/MONGO_URL" "$app_owner" \
        "mongodb://$participant:$mongo_password@$mongo_host/?authSource=$participant"
      ;;
  esac
  broker_password=$(cat "$dir/RABBITMQ_$(upper "$participant")_PASSWORD")
  put "$participant/AMQP_URL" "$app_owner" "amqp://$participant:$broker_password@$rabbitmq_host"
done
echo "secrets: ready in $dir (the first admin's password: docker compose run --rm secrets cat $dir/BOOTSTRAP_ADMIN_PASSWORD)"
