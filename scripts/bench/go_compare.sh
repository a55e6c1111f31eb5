#!/usr/bin/env bash
# Issue 21 P5/P6: latchd against the Go comparison server (scripts/bench/goserver) in one run, on one
# SQLite file, release latchd in production mode, wrk on loopback; prints req/s, the ratios and each
# server's resident memory (VmHWM) after its load.
#
# usage: scripts/bench/go_compare.sh [SECONDS_PER_RUN]
#   LATCH_BENCH_BIN=path/to/latchd (default: .build-release/release/latchd, built when missing)
#   LATCH_BENCH_USERS=N extra users in the file (default 0)
#   LATCH_BENCH_GOSERVER=path/to/goserver (default: built from scripts/bench/goserver into the work dir)
#   LATCH_BENCH_HUMMINGBIRD=path/to/hbserver, or `build` (swift build -c release in
#     scripts/bench/hummingbird/hbserver): also measures latchd's hot path on Hummingbird 2 (issue 21 step 3)
#     in the same rounds, and prints its req/s, its ratios to latchd and Go, and its VmHWM; unset: not run
# needs: wrk, python3 with bcrypt, golang-go golang-github-golang-jwt-jwt-dev golang-github-mattn-go-sqlite3-dev
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds="${1:-10}"
bin="${LATCH_BENCH_BIN:-.build-release/release/latchd}"
[ -x "$bin" ] || swift build -c release --scratch-path .build-release --product latchd
work="$(mktemp -d /tmp/latch-go.XXXXXX)"
goserver="${LATCH_BENCH_GOSERVER:-$work/goserver}"
[ -x "$goserver" ] || GO111MODULE=off GOPATH=/usr/share/gocode go build -o "$goserver" scripts/bench/goserver/main.go
hb="${LATCH_BENCH_HUMMINGBIRD:-}"
if [ "$hb" = build ]; then
  (cd scripts/bench/hummingbird/hbserver && swift build -c release >&2)
  hb=scripts/bench/hummingbird/hbserver/.build/release/hbserver
fi
[ -z "$hb" ] || [ -x "$hb" ] || { echo "LATCH_BENCH_HUMMINGBIRD: no executable at $hb" >&2; exit 1; }
port=18080; goport=18081; url="http://127.0.0.1:$port"; gourl="http://127.0.0.1:$goport"
LATCH_RATE_LIMIT_SCALE=1000 LATCH_ENV=production LATCH_DATABASE_URL="sqlite://$work/bench.sqlite" LATCH_PORT=$port \
  LATCH_ISSUER="$url" LATCH_SECRET_KEY="$(head -c 32 /dev/urandom | base64)" \
  LATCH_SMTP_URL=smtp://127.0.0.1:2525 LATCH_MAIL_FROM=bench@latch.test "$bin" >"$work/latchd.log" 2>&1 &
latchd=$!
trap 'kill $latchd ${go:-} ${hbpid:-} 2>/dev/null || true' EXIT
for _ in $(seq 1 100); do curl -sf "$url/health" >/dev/null && break; sleep 0.2; done
python3 scripts/bench/seed.py sqlite "$work/bench.sqlite" --extra "${LATCH_BENCH_USERS:-0}" >/dev/null
access=$(curl -sf -X POST "$url/v1/token" -H 'Content-Type: application/json' \
  -d '{"grant_type":"password","email":"bench0@bench.test","password":"Bench-Password-1","device":{"id":"bench-device"}}' |
  python3 -c 'import json,sys; print(json.load(sys.stdin)["access_token"])')
"$goserver" -db "$work/bench.sqlite" -addr "127.0.0.1:$goport" -tokens "$work/go-tokens.txt" -count 1 &
go=$!
for _ in $(seq 1 50); do curl -sf "$gourl/health" >/dev/null && break; sleep 0.1; done
gotoken=$(head -n 1 "$work/go-tokens.txt")
if [ -n "$hb" ]; then
  # Its own ES256 tokens for the same first user as the Go server's, each with a live sessions row.
  hbport=18082; hburl="http://127.0.0.1:$hbport"
  "$hb" -db "$work/bench.sqlite" -addr "127.0.0.1:$hbport" -tokens "$work/hb-tokens.txt" -count 1 >"$work/hbserver.log" 2>&1 &
  hbpid=$!
  for _ in $(seq 1 100); do curl -sf "$hburl/health" >/dev/null && break; sleep 0.1; done
  hbtoken=$(head -n 1 "$work/hb-tokens.txt")
  # The same user, so the same bytes (the Go server answers latchd's bytes, checked on one file).
  cmp -s <(curl -sf -H "Authorization: Bearer $gotoken" "$gourl/user") \
    <(curl -sf -H "Authorization: Bearer $hbtoken" "$hburl/v1/me") ||
    echo "warning: Hummingbird /v1/me and Go /user answer different bodies for one user" >&2
fi
rps() { awk '/Requests\/sec/ {print $2}' "$1"; }
hwm() { awk '/VmHWM/ {print $2 / 1024 " MiB"}' "/proc/$1/status"; }
for round in 1 2; do  # alternate, so a noisy moment weighs on both
  wrk -t2 -c64 -d"${seconds}s" "$url/health" >"$work/l-health-$round.txt"
  wrk -t2 -c64 -d"${seconds}s" "$gourl/health" >"$work/g-health-$round.txt"
  wrk -t2 -c64 -d"${seconds}s" -H "Authorization: Bearer $access" "$url/v1/me" >"$work/l-me-$round.txt"
  wrk -t2 -c64 -d"${seconds}s" -H "Authorization: Bearer $gotoken" "$gourl/user" >"$work/g-user-$round.txt"
  if [ -n "$hb" ]; then
    wrk -t2 -c64 -d"${seconds}s" "$hburl/health" >"$work/h-health-$round.txt"
    wrk -t2 -c64 -d"${seconds}s" -H "Authorization: Bearer $hbtoken" "$hburl/v1/me" >"$work/h-me-$round.txt"
  fi
done
avg() { echo "($(rps "$work/$1-1.txt") + $(rps "$work/$1-2.txt")) / 2" | bc -l; }
lh=$(avg l-health); gh=$(avg g-health); lm=$(avg l-me); gu=$(avg g-user)
grep -l "Non-2xx" "$work"/*.txt && echo "warning: non-2xx answers in the files above" >&2 || true
printf '| latchd /health | Go /health | latchd /v1/me | Go /user | P5 health ratio | P6 me/user | P1 me/health |\n|---|---|---|---|---|---|---|\n'
printf '| %.0f | %.0f | %.0f | %.0f | %.2f | %.2f | %.2f |\n' "$lh" "$gh" "$lm" "$gu" "$(echo "$lh/$gh" | bc -l)" \
  "$(echo "$lm/$gu" | bc -l)" "$(echo "$lm/$lh" | bc -l)"
if [ -n "$hb" ]; then
  hh=$(avg h-health); hm=$(avg h-me)
  printf '\n| Hummingbird /health | Hummingbird /v1/me | health HB/latchd | health HB/Go | me HB/latchd | HB me / Go user | HB me/health |\n|---|---|---|---|---|---|---|\n'
  printf '| %.0f | %.0f | %.2f | %.2f | %.2f | %.2f | %.2f |\n' "$hh" "$hm" "$(echo "$hh/$lh" | bc -l)" \
    "$(echo "$hh/$gh" | bc -l)" "$(echo "$hm/$lm" | bc -l)" "$(echo "$hm/$gu" | bc -l)" "$(echo "$hm/$hh" | bc -l)"
  echo "resident memory after the load (VmHWM): latchd $(hwm $latchd), Go $(hwm $go), Hummingbird $(hwm $hbpid)"
else
  echo "resident memory after the load (VmHWM): latchd $(hwm $latchd), Go $(hwm $go)"
fi
