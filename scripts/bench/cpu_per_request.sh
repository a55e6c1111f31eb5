#!/usr/bin/env bash
# Alternating A/B by CPU spent per request, for a noisy machine (issue 21): req/s moves with the VM's
# speed, but latchd's CPU time per answered request moves much less. Each binary in turn (A B A B …)
# is started in production mode, the 8 bench users are seeded and signed in, and one load runs; latchd's,
# wrk's and PostgreSQL's CPU are read from /proc over the same window as wrk's requests.
#
# usage: scripts/bench/cpu_per_request.sh refresh|verify SECONDS ROUNDS A_LATCHD B_LATCHD
#   LATCH_BENCH_POSTGRES=postgres://postgres@127.0.0.1:PORT   run on PostgreSQL (database latch_bench_cpu,
#                                                            recreated for each run) instead of SQLite
# Prints one line per run: binary, req/s, verifications/s (verify), latchd cores, postgres cores,
# and latchd's CPU milliseconds per request. needs: wrk, curl, python3 with bcrypt, psql for PostgreSQL.
set -euo pipefail
cd "$(dirname "$0")/../.."
mode="$1"; seconds="$2"; rounds="$3"; shift 3
[ "$mode" = refresh ] || [ "$mode" = verify ] || { echo "mode is refresh or verify" >&2; exit 2; }
port=18180; url="http://127.0.0.1:$port"; clients=8; hz=$(getconf CLK_TCK)
cpu() { awk '{print $14 + $15}' "/proc/$1/stat"; }
postgres_cpu() {
  local total=0
  for p in $(pgrep -u postgres postgres || true); do total=$((total + $(awk '{print $14 + $15}' "/proc/$p/stat" 2>/dev/null || echo 0))); done
  echo "$total"
}
measure() {  # latchd binary
  local work database pid
  work="$(mktemp -d /tmp/latch-cpu.XXXXXX)"
  database="sqlite://$work/bench.sqlite"
  if [ -n "${LATCH_BENCH_POSTGRES:-}" ]; then
    psql -q "$LATCH_BENCH_POSTGRES/postgres" -c "DROP DATABASE IF EXISTS latch_bench_cpu" -c "CREATE DATABASE latch_bench_cpu"
    database="$LATCH_BENCH_POSTGRES/latch_bench_cpu?sslmode=disable"
  fi
  LATCH_RATE_LIMIT_SCALE=1000 LATCH_ENV=production LATCH_DATABASE_URL="$database" LATCH_PORT=$port LATCH_ISSUER="$url" \
    LATCH_SECRET_KEY="$(head -c 32 /dev/urandom | base64)" LATCH_SMTP_URL=smtp://127.0.0.1:2525 \
    LATCH_MAIL_FROM=bench@latch.test "$1" >"$work/latchd.log" 2>&1 &
  pid=$!
  for _ in $(seq 1 100); do curl -sf "$url/health" >/dev/null && break; sleep 0.2; done
  if [ -n "${LATCH_BENCH_POSTGRES:-}" ]; then
    python3 scripts/bench/seed.py postgres "$LATCH_BENCH_POSTGRES/latch_bench_cpu" --extra 0 >/dev/null
  else
    python3 scripts/bench/seed.py sqlite "$work/bench.sqlite" --extra 0 >/dev/null
  fi
  local field=refresh_token path=token
  [ "$mode" = verify ] && field=access_token path=verifications
  : >"$work/tokens.txt"
  for n in $(seq 0 $((clients - 1))); do
    curl -sf -X POST "$url/v1/token" -H 'Content-Type: application/json' \
      -d "{\"grant_type\":\"password\",\"email\":\"bench$n@bench.test\",\"password\":\"Bench-Password-1\",\"device\":{\"id\":\"bench-device\"}}" |
      python3 -c "import json, sys; print(json.load(sys.stdin)['$field'])" >>"$work/tokens.txt"
  done
  LATCH_BENCH_TOKENS="$work/tokens.txt" wrk -t$clients -c$clients -d"${seconds}s" -s "scripts/bench/$mode.lua" \
    "$url/v1/$path" >"$work/wrk.txt" &
  local load=$!
  sleep 0.5
  local a b t0 a2 b2 t1
  a=$(cpu "$pid"); b=$(postgres_cpu); t0=$(date +%s.%N)
  sleep $((seconds - 1))
  a2=$(cpu "$pid"); b2=$(postgres_cpu); t1=$(date +%s.%N)
  wait "$load"
  kill "$pid"; wait "$pid" 2>/dev/null || true
  grep -q "Non-2xx" "$work/wrk.txt" && echo "warning: non-2xx answers" >&2
  python3 - "$1" "$work/wrk.txt" "$a" "$a2" "$b" "$b2" "$t0" "$t1" "$hz" <<'PY'
import re, sys
binary, wrk = sys.argv[1], open(sys.argv[2]).read()
a, a2, b, b2, t0, t1, hz = map(float, sys.argv[3:])
rps = float(re.search(r"Requests/sec:\s+([\d.]+)", wrk).group(1))
verifications = re.search(r"verifications_per_sec ([\d.]+)", wrk)
failures = re.findall(r"(?:refresh|verification)_failures (\d+)", wrk)
latchd, postgres = (a2 - a) / hz / (t1 - t0), (b2 - b) / hz / (t1 - t0)
extra = f" verifications/s {verifications.group(1)}" if verifications else ""
print(f"{binary}: req/s {rps:.0f}{extra} failures {'/'.join(failures)} latchd {latchd:.2f} cores "
      f"postgres {postgres:.2f} cores, latchd {1000 * latchd / rps:.3f} ms CPU per request")
PY
}
for _ in $(seq 1 "$rounds"); do
  for bin in "$@"; do measure "$bin"; done
done
