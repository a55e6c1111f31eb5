#!/usr/bin/env bash
# The benchmarks of docs/PERFORMANCE.md, against a release build of latchd in production mode
# (no per-request logs), everything on loopback, every run bounded in time.
#
# usage: scripts/bench/run.sh [SECONDS_PER_RUN]
#   LATCH_BENCH_POSTGRES=postgres://postgres@127.0.0.1:5432   also run on PostgreSQL (databases are created)
#   LATCH_BENCH_USERS=1000000                                  size of the large database (d); 0 skips (d)
#   LATCH_BENCH_BIN=path/to/latchd                             the binary to measure (default: a release build)
#   LATCH_BENCH_STORM=0                                        skip the sign-in storm (c)
#   LATCH_BENCH_SQLITE=0                                       skip the SQLite databases (e.g. PostgreSQL (d) alone)
# needs: wrk (apt-get install wrk), python3 with bcrypt (pip install bcrypt), psql for PostgreSQL.
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds="${1:-10}"
large="${LATCH_BENCH_USERS:-1000000}"
bin="${LATCH_BENCH_BIN:-.build-release/release/latchd}"
[ -x "$bin" ] || swift build -c release --scratch-path .build-release --product latchd
work="$(mktemp -d /tmp/latch-bench.XXXXXX)"
port=18080
url="http://127.0.0.1:$port"
pid=""

# Every request comes from 127.0.0.1: the per-client rate limits (issue 10) are scaled out of the way
# (the limiter still runs on every priced request), and the bcrypt queue holds all 32 storm clients,
# so (c) measures what it measured before instead of 429s spinning.
start_latchd() {
  LATCH_RATE_LIMIT_SCALE="${LATCH_RATE_LIMIT_SCALE:-1000}" LATCH_BCRYPT_QUEUE="${LATCH_BCRYPT_QUEUE:-64}" \
  LATCH_ENV=production LATCH_DATABASE_URL="$1" LATCH_PORT=$port LATCH_ISSUER="$url" \
    LATCH_SECRET_KEY="$(head -c 32 /dev/urandom | base64)" \
    LATCH_SMTP_URL=smtp://127.0.0.1:2525 LATCH_MAIL_FROM=bench@latch.test \
    "$bin" >>"$work/latchd.log" 2>&1 &
  pid=$!
  for _ in $(seq 1 100); do curl -sf "$url/health" >/dev/null && return 0; sleep 0.2; done
  echo "latchd did not start; see $work/latchd.log" >&2; exit 1
}
stop_latchd() { kill "$pid"; wait "$pid" 2>/dev/null || true; }
trap '[ -n "$pid" ] && kill "$pid" 2>/dev/null || true' EXIT

sign_in_all() {  # 40 sessions of the 8 users (8 for one run, 32 for the other): tokens one per line
  : >"$work/access.txt"; : >"$work/refresh.txt"
  for n in $(seq 0 39); do
    i=$((n % 8))
    curl -sf -X POST "$url/v1/token" -H 'Content-Type: application/json' \
      -d "{\"grant_type\":\"password\",\"email\":\"bench$i@bench.test\",\"password\":\"Bench-Password-1\",\"device\":{\"id\":\"bench-device\"}}" >"$work/t.json"
    python3 -c "import json; print(json.load(open('$work/t.json'))['access_token'])" >>"$work/access.txt"
    python3 -c "import json; print(json.load(open('$work/t.json'))['refresh_token'])" >>"$work/refresh.txt"
  done
}
rps() { awk '/Requests\/sec/ {print $2}' "$1"; }

# (a) /v1/me vs /health, (b) refresh throughput, on one database.
measure() {  # label database-url seed-kind seed-target extra-users
  local label="$1"
  start_latchd "$2"
  python3 scripts/bench/seed.py "$3" "$4" --extra "$5" >"$work/seed.txt"
  sign_in_all
  local access; access="$(head -n 1 "$work/access.txt")"
  # Two alternating rounds each, summed, so a noisy moment weighs on both sides alike.
  for round in 1 2; do
    wrk -t2 -c32 -d"${seconds}s" "$url/health" >"$work/$label-health-$round.txt"
    wrk -t2 -c32 -d"${seconds}s" -H "Authorization: Bearer $access" "$url/v1/me" >"$work/$label-me-$round.txt"
  done
  # (e) step-up verifications: start, answer with the fund password, redeem (verify.lua), 8 sessions.
  LATCH_BENCH_TOKENS="$work/access.txt" wrk -t8 -c8 -d"${seconds}s" -s scripts/bench/verify.lua "$url/v1/verifications" \
    >"$work/$label-verify.txt"
  LATCH_BENCH_TOKENS="$work/refresh.txt" wrk -t8 -c8 -d"${seconds}s" -s scripts/bench/refresh.lua "$url/v1/token" \
    >"$work/$label-refresh.txt"
  LATCH_BENCH_TOKENS="$work/refresh.txt" LATCH_BENCH_TOKEN_OFFSET=8 wrk -t32 -c32 -d"${seconds}s" -s scripts/bench/refresh.lua "$url/v1/token" \
    >"$work/$label-refresh32.txt"
  local memory; memory=$(awk '/VmHWM/ {printf "%.0f", $2 / 1024}' "/proc/$pid/status")
  stop_latchd
  local health me refresh failures verify
  health=$(echo "($(rps "$work/$label-health-1.txt") + $(rps "$work/$label-health-2.txt")) / 2" | bc -l)
  me=$(echo "($(rps "$work/$label-me-1.txt") + $(rps "$work/$label-me-2.txt")) / 2" | bc -l)
  refresh=$(rps "$work/$label-refresh.txt"); refresh32=$(rps "$work/$label-refresh32.txt")
  verify="$(awk '/verifications_per_sec/ {print $2}' "$work/$label-verify.txt")"
  if grep -q "Non-2xx" "$work/$label-me-1.txt" "$work/$label-me-2.txt"; then echo "warning: /v1/me answered non-2xx" >&2; fi
  failures="$(awk '/refresh_failures/ {print $2}' "$work/$label-refresh.txt") / $(awk '/refresh_failures/ {print $2}' "$work/$label-refresh32.txt")"
  printf '| %s | %s | %.0f | %.0f | %.2f | %.0f | %.0f | %s | %.0f | %s | %s |\n' "$label" "$(cat "$work/seed.txt")" "$health" "$me" \
    "$(echo "$me / $health" | bc -l)" "$refresh" "$refresh32" "$failures" "$verify" \
    "$(awk '/verification_failures/ {print $2}' "$work/$label-verify.txt")" "$memory"
}

echo "machine: $(nproc) cores, $(free -g | awk '/Mem/ {print $2}') GiB, $(uname -sr); ${seconds}s per run; work dir $work"
echo
echo "| database | users | /health req/s | /v1/me req/s | me/health | refresh/s, 8 clients | refresh/s, 32 clients | refresh non-200 (8 / 32) | verifications/s, 8 clients | verification non-2xx | latchd peak resident MiB |"
echo "|---|---|---|---|---|---|---|---|---|---|---|"
if [ "${LATCH_BENCH_SQLITE:-1}" != 0 ]; then
  measure sqlite-small "sqlite://$work/small.sqlite" sqlite "$work/small.sqlite" 0
  [ "$large" -gt 0 ] && measure sqlite-large "sqlite://$work/large.sqlite" sqlite "$work/large.sqlite" "$large"
fi
if [ -n "${LATCH_BENCH_POSTGRES:-}" ]; then
  for size in small large; do
    psql -q "$LATCH_BENCH_POSTGRES/postgres" -c "DROP DATABASE IF EXISTS latch_bench_$size" -c "CREATE DATABASE latch_bench_$size"
  done
  measure postgres-small "$LATCH_BENCH_POSTGRES/latch_bench_small?sslmode=disable" postgres "$LATCH_BENCH_POSTGRES/latch_bench_small" 0
  [ "$large" -gt 0 ] && measure postgres-large "$LATCH_BENCH_POSTGRES/latch_bench_large?sslmode=disable" postgres "$LATCH_BENCH_POSTGRES/latch_bench_large" "$large"
fi

# (c) sign-in storm: 32 concurrent password sign-ins while /health is measured.
[ "${LATCH_BENCH_STORM:-1}" = 0 ] && exit 0
echo
bcrypt_ms=$(LATCH_BCRYPT_COST=12 LATCH_SECRET_KEY="$(head -c 32 /dev/urandom | base64)" "$bin" bcrypt-time)
start_latchd "sqlite://$work/storm.sqlite"
python3 scripts/bench/seed.py sqlite "$work/storm.sqlite" --extra 0 >/dev/null
wrk -t2 -c32 -d"${seconds}s" --timeout 30s -s scripts/bench/signin.lua "$url/v1/token" >"$work/storm-signin.txt" &
storm=$!
sleep 1
python3 scripts/bench/latency_probe.py "$url/health" "$((seconds - 2))" 200 >"$work/storm-health.txt"
wait "$storm"
stop_latchd
signin=$(rps "$work/storm-signin.txt")
target=$(echo "0.9 * $(nproc) * 1000 / $bcrypt_ms" | bc -l)
echo "sign-in storm: one bcrypt check (cost 12, latchd bcrypt-time) ${bcrypt_ms} ms; target sign-ins/s >= 0.9 x $(nproc) / that = $(printf %.2f "$target")"
echo "sign-ins/s $signin ($(awk '/signin_failures/ {print $2}' "$work/storm-signin.txt") non-200), $(printf %.2f "$(echo "$signin / $target * 0.9" | bc -l)") x (cores / bcrypt time)"
echo "/health during the storm, probed at 200 req/s: $(cat "$work/storm-health.txt")"
