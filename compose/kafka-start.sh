#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# How docker-compose.yml starts the Kafka image: SASL on every listener, the broker's own login
# (the admin principal) read from the kafka_admin_password secret into its JAAS settings here,
# so the password is never in the container's configuration. Then the image's own start ("$@").
#  - Fresh storage: formatted with the admin's SCRAM credentials (kafka-storage.sh --add-scram).
#  - Storage from before SASL, or the admin password changed: a broker on this container's
#    loopback only, without SASL, sets them once (kafka-configs.sh), then stops.
set -euo pipefail

secret=/run/secrets/kafka_admin_password
data=${KAFKA_LOG_DIRS:-/var/lib/kafka/data}
cluster_id=${CLUSTER_ID:-5L6g3nShT-eMCtK--X86sw} # the image's default: the id existing volumes have
work=/tmp/tailsync
say() { echo "kafka-start: $*" >&2; }

[ -s "$secret" ] || { say "the kafka_admin_password secret is missing or empty (README, \"Operators\")"; exit 2; }
password=$(<"$secret") # without its final newline
# It goes into JAAS and --add-scram syntax: no quotes, commas, brackets or '=' (e.g. openssl rand -hex 32).
[[ "$password" =~ ^[A-Za-z0-9._~-]{16,}$ ]] || { say "kafka_admin_password must be 16+ letters, digits, '.', '_', '~' or '-' (e.g. openssl rand -hex 32)"; exit 2; }

scram_login="org.apache.kafka.common.security.scram.ScramLoginModule required username=\"admin\" password=\"$password\";"
for listener in INTERNAL EXTERNAL; do
  for mechanism in SCRAM___SHA___512 SCRAM___SHA___256; do export "KAFKA_LISTENER_NAME_${listener}_${mechanism}_SASL_JAAS_CONFIG=$scram_login"; done
done
# KRaft's controller listener cannot use SCRAM (its users live in the metadata it serves): PLAIN, the same admin.
export KAFKA_LISTENER_NAME_CONTROLLER_PLAIN_SASL_JAAS_CONFIG="org.apache.kafka.common.security.plain.PlainLoginModule required username=\"admin\" password=\"$password\" user_admin=\"$password\";"

umask 077
mkdir -p "$work"
# The admin's client settings in this container: the health check and Kafka's tools use them.
printf 'security.protocol=SASL_PLAINTEXT\nsasl.mechanism=SCRAM-SHA-512\nsasl.jaas.config=%s\n' "$scram_login" > "$work/admin.properties"

# The KAFKA_* variables as server properties, converted as the image converts them.
server_properties() {
  env | grep -E '^KAFKA_[A-Z0-9_]+=' \
    | grep -Ev '^KAFKA_(HEAP_OPTS|JVM_PERFORMANCE_OPTS|OPTS|LOG4J_OPTS|GC_LOG_OPTS|JMX_OPTS|JMX_HOSTNAME|JMX_PORT|DEBUG|VERSION|LOG4J_ROOT_LOGLEVEL|LOG4J_LOGGERS|TOOLS_LOG4J_LOGLEVEL)=' \
    | while IFS='=' read -r name value; do
        key=${name#KAFKA_}; key=${key,,}; key=${key//___/-}; key=${key//__/@}; key=${key//_/.}; key=${key//@/_}
        printf '%s=%s\n' "$key" "$value"
      done
}

marker="$data/tailsync-admin-scram.sha256"
digest=$(printf '%s' "$password" | sha256sum | cut -d' ' -f1)
bin=/opt/kafka/bin

if [ ! -e "$data/meta.properties" ]; then
  server_properties > "$work/format.properties"
  "$bin/kafka-storage.sh" format --cluster-id "$cluster_id" -c "$work/format.properties" --ignore-formatted \
    --add-scram "SCRAM-SHA-512=[name=admin,password=$password]" --add-scram "SCRAM-SHA-256=[name=admin,password=$password]" >&2
  rm -f "$work/format.properties"
  echo "$digest" > "$marker"
elif [ "$(cat "$marker" 2>/dev/null)" != "$digest" ]; then
  say "setting the admin's SCRAM credentials on storage formatted without them (once)"
  {
    server_properties | grep -Ev '^(listeners|advertised\.listeners|listener\.security\.protocol\.map|inter\.broker\.listener\.name|controller\.quorum\.voters|authorizer\.class\.name|super\.users|allow\.everyone\.if\.no\.acl\.found|sasl\.[^=]*|listener\.name\.[^=]*)='
    echo 'listeners=BOOT://127.0.0.1:29092,CONTROLLER://127.0.0.1:29093'
    echo 'advertised.listeners=BOOT://127.0.0.1:29092'
    echo 'listener.security.protocol.map=BOOT:PLAINTEXT,CONTROLLER:PLAINTEXT'
    echo 'inter.broker.listener.name=BOOT'
    echo 'controller.quorum.voters=1@127.0.0.1:29093'
  } > "$work/boot.properties"
  # On the command line, as --add-scram above: kafka-configs.sh's --add-config-file rejects SCRAM
  # settings, and only this container's own processes see its arguments. One mechanism per
  # request: Kafka refuses two changes of one user in one.
  set_admin() {
    for mechanism in SCRAM-SHA-512 SCRAM-SHA-256; do
      "$bin/kafka-configs.sh" --bootstrap-server 127.0.0.1:29092 --alter --entity-type users --entity-name admin \
        --add-config "$mechanism=[iterations=8192,password=$password]" || return 1
    done
  }
  "$bin/kafka-server-start.sh" "$work/boot.properties" > "$work/boot.log" 2>&1 &
  boot=$!
  for attempt in $(seq 1 40); do
    if set_admin > "$work/configs.log" 2>&1; then break; fi
    kill -0 "$boot" 2> /dev/null || { say "the bootstrap broker stopped:"; tail -n 30 "$work/boot.log" >&2; exit 1; }
    # Its messages may quote the file: the last line only, passwords masked.
    [ "$attempt" -lt 40 ] || { say "could not set the admin's credentials: $(tail -n 1 "$work/configs.log" | sed 's/password=[^],]*/password=…/g')"; kill "$boot"; exit 1; }
    sleep 3
  done
  kill -TERM "$boot"
  wait "$boot" || true
  rm -f "$work/boot.properties" "$work/boot.log" "$work/configs.log"
  echo "$digest" > "$marker"
fi

exec "$@"
