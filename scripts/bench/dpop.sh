#!/usr/bin/env bash
# Issue 31's benchmark, in one run, alternating (A B A B) so a noisy moment weighs on both sides alike:
#   /v1/me with a DPoP-bound token and a fresh proof per request, against the same with a bearer token;
#   refresh with a proof (a bound session), against refresh without (a bearer session).
# Proofs are made beforehand (dpop_proofs.py, one per request, each used once), so the numbers are latchd's
# cost of checking them: the signature, the claims, and single use (memory at resources, the database at
# the token endpoint). The bound sessions sign in with proofs too.
#
# usage: scripts/bench/dpop.sh [SECONDS_PER_RUN] [PROOFS_PER_THREAD]   (LATCH_BENCH_BIN as in run.sh)
# needs: wrk, python3 with bcrypt and cryptography.
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds="${1:-8}"
per_thread="${2:-25000}"
bin="${LATCH_BENCH_BIN:-.build-release/release/latchd}"
[ -x "$bin" ] || swift build -c release --scratch-path .build-release --product latchd
work="$(mktemp -d /tmp/latch-dpop-bench.XXXXXX)"
port=18082
url="http://127.0.0.1:$port"
pid=""
trap '[ -n "$pid" ] && kill "$pid" 2>/dev/null || true' EXIT
python3 scripts/bench/dpop_proofs.py --make-keys "$work/keys"

start() {  # database
  LATCH_RATE_LIMIT_SCALE=1000 LATCH_ENV=production LATCH_DATABASE_URL="sqlite://$1" \
    LATCH_PORT=$port LATCH_ISSUER="$url" LATCH_SECRET_KEY="$(head -c 32 /dev/urandom | base64)" \
    LATCH_SMTP_URL=smtp://127.0.0.1:2525 LATCH_MAIL_FROM=bench@latch.test "$bin" >>"$work/latchd.log" 2>&1 &
  pid=$!
  for _ in $(seq 1 100); do curl -sf "$url/health" >/dev/null && break; sleep 0.2; done
  python3 scripts/bench/seed.py sqlite "$1" --extra 0 >/dev/null
}

sign_in() {  # bound(0/1) field output
  : >"$3"
  for n in $(seq 0 7); do
    local proof=()
    [ "$1" = 1 ] && proof=(-H "DPoP: $(python3 scripts/bench/dpop_proofs.py --one "$work/keys" "$n" POST "$url/v1/token")")
    curl -sf -X POST "$url/v1/token" -H 'Content-Type: application/json' "${proof[@]}" \
      -d "{\"grant_type\":\"password\",\"email\":\"bench$n@bench.test\",\"password\":\"Bench-Password-1\",\"device\":{\"id\":\"bench-device\"}}" |
      python3 -c "import sys, json; print(json.load(sys.stdin)['$2'])" >>"$3"
  done
}

run() {  # label mode bound round
  local db="$work/$1-$4.sqlite"
  start "$db"
  local field=access_token; [ "$2" = refresh ] && field=refresh_token
  sign_in "$3" "$field" "$work/tokens.txt"
  local proofs=()
  if [ "$3" = 1 ]; then
    local method=GET path=/v1/me tokens=("$work/tokens.txt")
    [ "$2" = refresh ] && { method=POST; path=/v1/token; tokens=(); }
    python3 scripts/bench/dpop_proofs.py "$work/keys" "$method" "$url$path" "$per_thread" "$work/proofs-" "${tokens[@]}"
    proofs=(LATCH_BENCH_PROOFS="$work/proofs-")
  fi
  env "${proofs[@]}" LATCH_BENCH_MODE="$2" LATCH_BENCH_TOKENS="$work/tokens.txt" \
    wrk -t8 -c8 -d"${seconds}s" -s scripts/bench/dpop.lua "$url" >"$work/$1-$4.txt"
  kill "$pid"; wait "$pid" 2>/dev/null || true; pid=""
  awk '/requests_per_sec/ {print $2}' "$work/$1-$4.txt"
}

declare -A total=([me-bearer]=0 [me-dpop]=0 [refresh-bearer]=0 [refresh-dpop]=0)
for round in 1 2; do
  for case in me-bearer me-dpop refresh-bearer refresh-dpop; do
    mode=${case%-*}; bound=0; [ "${case#*-}" = dpop ] && bound=1
    rate=$(run "$case" "$mode" "$bound" "$round")
    echo "round $round, $case: $rate requests/s ($(awk '/dpop_failures/ {print $2}' "$work/$case-$round.txt") non-2xx)"
    total[$case]=$(echo "${total[$case]} + $rate" | bc -l)
  done
done
echo
echo "| request | bearer (req/s, mean of 2) | DPoP (req/s, mean of 2) | DPoP / bearer |"
echo "|---|---|---|---|"
for mode in me refresh; do
  printf '| %s | %.0f | %.0f | %.3f |\n' "$mode" "$(echo "${total[$mode-bearer]} / 2" | bc -l)" \
    "$(echo "${total[$mode-dpop]} / 2" | bc -l)" "$(echo "${total[$mode-dpop]} / ${total[$mode-bearer]}" | bc -l)"
done
