#!/bin/bash
# First start: initdb with the official image's variables (the superuser POSTGRES_USER with
# POSTGRES_PASSWORD, or the file POSTGRES_PASSWORD_FILE names, password logins over TCP, database
# POSTGRES_DB), then the server replaces this shell so it receives the container's signals.
set -euo pipefail

if [ -n "${POSTGRES_PASSWORD_FILE:-}" ]; then POSTGRES_PASSWORD=$(< "$POSTGRES_PASSWORD_FILE"); fi

user=${POSTGRES_USER:-postgres}
db=${POSTGRES_DB:-$user}
if [ ! -s "$PGDATA/PG_VERSION" ]; then
  : "${POSTGRES_PASSWORD:?the superuser needs a password: set POSTGRES_PASSWORD}"
  mkdir -p "$PGDATA" && chmod 700 "$PGDATA"
  initdb -D "$PGDATA" --username="$user" --pwfile=<(printf '%s\n' "$POSTGRES_PASSWORD") \
    --auth-local=trust --auth-host=scram-sha-256 --encoding=UTF8 --locale=C >/dev/null
  printf "\nlisten_addresses = '*'\nunix_socket_directories = '/var/run/postgresql'\n" >> "$PGDATA/postgresql.conf"
  printf 'host all all all scram-sha-256\n' >> "$PGDATA/pg_hba.conf"
  if [ "$db" != postgres ]; then
    # Single-user mode runs as the bootstrap superuser: no server, no client needed.
    printf 'CREATE DATABASE "%s" OWNER "%s";\n' "${db//\"/\"\"}" "${user//\"/\"\"}" \
      | postgres --single -D "$PGDATA" -j postgres >/dev/null
  fi
  echo "docker-entrypoint: initialised $PGDATA (user $user, database $db)"
fi
if [ "${1:-}" = postgres ]; then shift; exec postgres -D "$PGDATA" "$@"; fi
exec "$@"
