#!/usr/bin/env bash
# Starts a throw-away PostgreSQL server (Debian's packages) on 127.0.0.1:${PGPORT:-a free port} as the
# `postgres` user (initdb refuses root), with database `latch_test`, and prints its URL.
# Tests run it with fsync off (speed); benchmarks set LATCH_PG_DURABLE=1 for PostgreSQL's defaults.
# max_connections=3000: swift-testing runs every test at once, and each test server holds a few
# connections; at 1000 the whole suite (about 1350 tests) ran out ("too many clients").
set -euo pipefail
port="${PGPORT:-$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')}"
bindir="$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)"
durability="-c fsync=off"
[ "${LATCH_PG_DURABLE:-0}" = 1 ] && durability=""
data="$(mktemp -d /tmp/latch-pg.XXXXXX)"
chown postgres:postgres "$data"
run() { if [ "$(id -u)" = 0 ]; then su postgres -s /bin/sh -c "$*"; else sh -c "$*"; fi; }
run "'$bindir/initdb' -D '$data' -U postgres --auth=trust -E UTF8 >/dev/null"
run "'$bindir/pg_ctl' -D '$data' -l '$data/server.log' -w -o \"-p $port -k /tmp -c listen_addresses=127.0.0.1 -c max_connections=3000 ${durability}\" start >/dev/null"
run "'$bindir/createdb' -h 127.0.0.1 -p $port -U postgres latch_test"
echo "postgres://postgres@127.0.0.1:$port/latch_test"
