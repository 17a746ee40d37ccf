#!/usr/bin/env bash
# A throwaway PostgreSQL server for the tests, from Debian's postgresql package.
#
#   scripts/postgres.sh start   start it (if it is not running) and print its URL
#   scripts/postgres.sh url     print the URL of the running server
#   scripts/postgres.sh stop    stop it and delete its files
#   scripts/postgres.sh check   exit 0 when the PostgreSQL binaries are installed
#   scripts/postgres.sh mktemp  create and print a new directory for a server
#                               (for GATEHOUSE_PG_DIR: make test uses one per run)
#
# The server listens only on a unix socket in its directory
# (GATEHOUSE_PG_DIR, default gatehouse-pg-<uid> in /dev/shm when it has room,
# else in /tmp), trusts local connections, and runs with fsync off: it holds
# test data only. In memory, creating a database for a test takes tens of
# milliseconds; on a busy disk, half a second. PostgreSQL refuses to run as
# root, so as root the server runs as the postgres user.
# GATEHOUSE_PG_PORT, when set, makes it listen on 127.0.0.1:<port> as well
# (TCP, for tests that route a PostgreSQL session through Traefik).
# PG_BIN picks the binaries (default: Debian's PostgreSQL 15, or else the
# newest one installed).
set -euo pipefail

if [ -z "${PG_BIN:-}" ]; then
  PG_BIN=/usr/lib/postgresql/15/bin
  if [ ! -x "$PG_BIN/initdb" ]; then
    newest=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
    PG_BIN=${newest:-$PG_BIN}
  fi
fi
# /dev/shm when it is a writable tmpfs with 1 GiB free (Docker's default is 64 MiB).
tmp_base() {
  local free
  free=$(df -Pk /dev/shm 2>/dev/null | awk 'NR == 2 { print $4 }')
  if [ -w /dev/shm ] && [ "${free:-0}" -ge 1048576 ]; then echo /dev/shm; else echo /tmp; fi
}

# The default directory is found again wherever it was made.
default_dir() {
  local name=gatehouse-pg-$(id -u)
  if [ -d "/dev/shm/$name" ] || [ -d "/tmp/$name" ]; then
    [ -d "/dev/shm/$name" ] && echo "/dev/shm/$name" || echo "/tmp/$name"
  else
    echo "$(tmp_base)/$name"
  fi
}

DIR=${GATEHOUSE_PG_DIR:-$(default_dir)}
DATA=$DIR/data
SUPERUSER=gatehouse

as_owner() {
  if [ "$(id -u)" -eq 0 ]; then
    runuser -u postgres -- "$@"
  else
    "$@"
  fi
}

url() { echo "postgres://$SUPERUSER@/postgres?host=$DIR&port=${GATEHOUSE_PG_PORT:-5432}&sslmode=disable"; }

running() { [ -f "$DATA/postmaster.pid" ] && as_owner "$PG_BIN/pg_ctl" -D "$DATA" status >/dev/null 2>&1; }

start() {
  if [ ! -x "$PG_BIN/initdb" ]; then
    echo "postgres.sh: no PostgreSQL at $PG_BIN (apt-get install postgresql)" >&2
    exit 1
  fi
  if running; then
    url
    return
  fi
  mkdir -p "$DIR"
  chmod 700 "$DIR"
  [ "$(id -u)" -eq 0 ] && chown postgres: "$DIR"
  if [ ! -f "$DATA/PG_VERSION" ]; then
    rm -rf "$DATA"
    # C collation orders text byte by byte, as SQLite does.
    as_owner "$PG_BIN/initdb" -D "$DATA" -U "$SUPERUSER" --auth=trust --no-locale -E UTF8 >"$DIR/initdb.log" 2>&1 ||
      { cat "$DIR/initdb.log" >&2; exit 1; }
  fi
  local listen="''" port=5432
  if [ -n "${GATEHOUSE_PG_PORT:-}" ]; then
    listen="'127.0.0.1'" port=$GATEHOUSE_PG_PORT
  fi
  # Each test opens a pool of its own: allow many connections.
  as_owner "$PG_BIN/pg_ctl" -D "$DATA" -l "$DIR/server.log" -w -t 60 \
    -o "-c listen_addresses=$listen -p $port -c unix_socket_directories='$DIR' -c max_connections=400 \
        -c fsync=off -c synchronous_commit=off -c full_page_writes=off" start >/dev/null ||
    { tail -n 20 "$DIR/server.log" >&2; exit 1; }
  url
}

stop() {
  if running; then
    as_owner "$PG_BIN/pg_ctl" -D "$DATA" -m immediate -w stop >/dev/null
  fi
  rm -rf "$DIR"
}

case "${1:-}" in
  start) start ;;
  url)
    running || { echo "postgres.sh: not running (scripts/postgres.sh start)" >&2; exit 1; }
    url
    ;;
  stop) stop ;;
  check) [ -x "$PG_BIN/initdb" ] && [ -x "$PG_BIN/pg_ctl" ] ;;
  mktemp) mktemp -d "$(tmp_base)/gatehouse-pg.XXXXXX" ;;
  *)
    echo "usage: $0 start|url|stop|check|mktemp" >&2
    exit 2
    ;;
esac
