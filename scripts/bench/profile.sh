#!/usr/bin/env bash
# Issue 21 step 1: where latchd's time goes under load. Starts a release latchd (production mode,
# SQLite), seeds the bench users, loads one route with wrk and records latchd with `perf record -g`
# meanwhile, then prints the top frames by self time and the split by library.
#
# usage: scripts/bench/profile.sh health|me|refresh [SECONDS]
#   LATCH_BENCH_BIN=path/to/latchd (default: .build-release/release/latchd)
#   LATCH_PROFILE_OUT=dir           keep perf.data and the reports there (default: a temporary directory)
#   LATCH_PROFILE_POSTGRES=URL      profile on this PostgreSQL database (emptied first) instead of SQLite
# needs: wrk, perf (Debian's linux-perf), python3 with bcrypt.
set -euo pipefail
cd "$(dirname "$0")/../.."
target="${1:?usage: $0 health|me|refresh [SECONDS]}"
seconds="${2:-10}"
bin="${LATCH_BENCH_BIN:-.build-release/release/latchd}"
work="${LATCH_PROFILE_OUT:-$(mktemp -d /tmp/latch-profile.XXXXXX)}"
mkdir -p "$work"
port=18080
url="http://127.0.0.1:$port"
rm -f "$work/profile.sqlite"*
database="sqlite://$work/profile.sqlite"
if [ -n "${LATCH_PROFILE_POSTGRES:-}" ]; then
  database="$LATCH_PROFILE_POSTGRES"
  psql -q "${database%%\?*}" -c "DROP SCHEMA public CASCADE" -c "CREATE SCHEMA public"
fi
LATCH_RATE_LIMIT_SCALE=1000 LATCH_ENV=production LATCH_DATABASE_URL="$database" LATCH_PORT=$port \
  LATCH_ISSUER="$url" LATCH_SECRET_KEY="$(head -c 32 /dev/urandom | base64)" \
  LATCH_SMTP_URL=smtp://127.0.0.1:2525 LATCH_MAIL_FROM=bench@latch.test "$bin" >"$work/latchd.log" 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null || true' EXIT
for _ in $(seq 1 100); do curl -sf "$url/health" >/dev/null && break; sleep 0.2; done
if [ -n "${LATCH_PROFILE_POSTGRES:-}" ]; then
  python3 scripts/bench/seed.py postgres "${database%%\?*}" --extra 0 >/dev/null
else
  python3 scripts/bench/seed.py sqlite "$work/profile.sqlite" --extra 0 >/dev/null
fi
: >"$work/access.txt"; : >"$work/refresh.txt"
for n in $(seq 0 7); do
  curl -sf -X POST "$url/v1/token" -H 'Content-Type: application/json' \
    -d "{\"grant_type\":\"password\",\"email\":\"bench$n@bench.test\",\"password\":\"Bench-Password-1\",\"device\":{\"id\":\"bench-device\"}}" \
    >"$work/t.json"
  python3 -c "import json; t = json.load(open('$work/t.json')); print(t['access_token']); print(t['refresh_token'], file=open('$work/refresh.txt', 'a'))" \
    >>"$work/access.txt"
done
case "$target" in
  health) load=(wrk -t2 -c32 -d"${seconds}s" "$url/health") ;;
  me) load=(wrk -t2 -c32 -d"${seconds}s" -H "Authorization: Bearer $(head -n 1 "$work/access.txt")" "$url/v1/me") ;;
  refresh) load=(env LATCH_BENCH_TOKENS="$work/refresh.txt" wrk -t8 -c8 -d"${seconds}s" -s scripts/bench/refresh.lua "$url/v1/token") ;;
  *) echo "unknown target $target" >&2; exit 2 ;;
esac
"${load[@]}" >"$work/wrk.txt" &
load_pid=$!
sleep 1 # past the first connections
perf record -q -F 999 -g -p "$pid" -o "$work/perf.data" -- sleep "$((seconds - 2))" 2>"$work/perf-record.log"
wait "$load_pid"
echo "== $target: $(awk '/Requests\/sec/ {print $2}' "$work/wrk.txt") req/s under perf ($work)"
perf report -i "$work/perf.data" --no-children --stdio --sort dso -g none --percent-limit 2 2>/dev/null |
  grep -v '^#' | grep -v '^$' | head -12
echo "-- top symbols (self time)"
perf report -i "$work/perf.data" --no-children --stdio --sort sym -g none --percent-limit 0.7 2>/dev/null |
  grep -v '^#' | grep -v '^$' | head -40
