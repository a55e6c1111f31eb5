#!/usr/bin/env bash
# Refresh throughput on PostgreSQL only (row (b) of run.sh), for quick A/B runs of two latchd builds:
#   LATCH_PG_DURABLE=1 bash scripts/ci/start-postgres.sh      # prints postgres://postgres@127.0.0.1:PORT/latch_test
#   LATCH_BENCH_POSTGRES=postgres://postgres@127.0.0.1:PORT LATCH_BENCH_BIN=/tmp/latchd-a bash scripts/bench/refresh-postgres.sh 10
# PERF="perf record -a -g -o /tmp/perf.data --" profiles the whole machine during the 8-client run.
# needs: wrk, curl, psql, python3 with bcrypt.
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds="${1:-10}"
bin="${LATCH_BENCH_BIN:-.build-release/release/latchd}"
[ -x "$bin" ] || swift build -c release --scratch-path .build-release --product latchd
pg="${LATCH_BENCH_POSTGRES:?set LATCH_BENCH_POSTGRES=postgres://user@host:port}"
work="$(mktemp -d /tmp/latch-bench.XXXXXX)"
port=18080; url="http://127.0.0.1:$port"
psql -q "$pg/postgres" -c "DROP DATABASE IF EXISTS latch_bench_small" -c "CREATE DATABASE latch_bench_small"
LATCH_RATE_LIMIT_SCALE="${LATCH_RATE_LIMIT_SCALE:-1000}" LATCH_ENV=production LATCH_DATABASE_URL="$pg/latch_bench_small?sslmode=disable" LATCH_PORT=$port LATCH_ISSUER="$url" \
  LATCH_SECRET_KEY="$(head -c 32 /dev/urandom | base64)" LATCH_SMTP_URL=smtp://127.0.0.1:2525 LATCH_MAIL_FROM=bench@latch.test \
  "$bin" >>"$work/latchd.log" 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null || true' EXIT
for _ in $(seq 1 100); do curl -sf "$url/health" >/dev/null && break; sleep 0.2; done
python3 scripts/bench/seed.py postgres "$pg/latch_bench_small" --extra 0 >/dev/null
: >"$work/refresh.txt"
for n in $(seq 0 39); do
  curl -sf -X POST "$url/v1/token" -H 'Content-Type: application/json' \
    -d "{\"grant_type\":\"password\",\"email\":\"bench$((n % 8))@bench.test\",\"password\":\"Bench-Password-1\",\"device\":{\"id\":\"bench-device\"}}" \
    | python3 -c "import json,sys; print(json.load(sys.stdin)['refresh_token'])" >>"$work/refresh.txt"
done
LATCH_BENCH_TOKENS="$work/refresh.txt" ${PERF:-} wrk -t8 -c8 -d"${seconds}s" -s scripts/bench/refresh.lua "$url/v1/token" >"$work/r8.txt"
LATCH_BENCH_TOKENS="$work/refresh.txt" LATCH_BENCH_TOKEN_OFFSET=8 wrk -t32 -c32 -d"${seconds}s" -s scripts/bench/refresh.lua \
  "$url/v1/token" >"$work/r32.txt"
rps() { awk '/Requests\/sec/ {print $2}' "$1"; }
failures() { awk '/refresh_failures/ {print $2}' "$1"; }
echo "refresh/s 8 clients: $(rps "$work/r8.txt") ($(failures "$work/r8.txt") non-200); 32 clients: $(rps "$work/r32.txt") ($(failures "$work/r32.txt") non-200)"
