#!/usr/bin/env bash
# Issue 30's benchmark: a one-factor verification (start, fund password, redeem: verify.lua) with a
# policy file loaded against the same without one, in one run, alternating A B C A B C so a noisy
# moment weighs on every side alike. B's policy names the amount and tiers that 1.5 BTC does not reach;
# C adds a daily limit (every start and redemption then sums the user's redeemed amounts of 24 hours).
#
# usage: scripts/bench/policy.sh [SECONDS_PER_RUN]   (LATCH_BENCH_BIN as in run.sh)
# needs: wrk, python3 with bcrypt.
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds="${1:-10}"
bin="${LATCH_BENCH_BIN:-.build-release/release/latchd}"
[ -x "$bin" ] || swift build -c release --scratch-path .build-release --product latchd
work="$(mktemp -d /tmp/latch-policy-bench.XXXXXX)"
port=18081
url="http://127.0.0.1:$port"
pid=""
trap '[ -n "$pid" ] && kill "$pid" 2>/dev/null || true' EXIT

tiers='"amount": {"parameter": "amount", "unit": "asset"}, "tiers": [{"above": {"BTC": "100"}, "factors": 2}]'
echo "{\"actions\": {\"withdrawal\": {$tiers}}}" >"$work/tiers.json"
echo "{\"actions\": {\"withdrawal\": {$tiers, \"daily_limit\": {\"BTC\": \"100000000\"}}}}" >"$work/limit.json"

run() {  # label policy-file-or-empty round
  local db="$work/$1-$3.sqlite"
  LATCH_POLICY_FILE="$2" LATCH_RATE_LIMIT_SCALE=1000 LATCH_ENV=production LATCH_DATABASE_URL="sqlite://$db" \
    LATCH_PORT=$port LATCH_ISSUER="$url" LATCH_SECRET_KEY="$(head -c 32 /dev/urandom | base64)" \
    LATCH_SMTP_URL=smtp://127.0.0.1:2525 LATCH_MAIL_FROM=bench@latch.test "$bin" >>"$work/latchd.log" 2>&1 &
  pid=$!
  for _ in $(seq 1 100); do curl -sf "$url/health" >/dev/null && break; sleep 0.2; done
  python3 scripts/bench/seed.py sqlite "$db" --extra 0 >/dev/null
  : >"$work/access.txt"
  for n in $(seq 0 7); do
    curl -sf -X POST "$url/v1/token" -H 'Content-Type: application/json' \
      -d "{\"grant_type\":\"password\",\"email\":\"bench$n@bench.test\",\"password\":\"Bench-Password-1\",\"device\":{\"id\":\"bench-device\"}}" |
      python3 -c "import sys, json; print(json.load(sys.stdin)['access_token'])" >>"$work/access.txt"
  done
  LATCH_BENCH_TOKENS="$work/access.txt" wrk -t8 -c8 -d"${seconds}s" -s scripts/bench/verify.lua "$url/v1/verifications" \
    >"$work/$1-$3.txt"
  kill "$pid"; wait "$pid" 2>/dev/null || true; pid=""
  awk '/verifications_per_sec/ {print $2}' "$work/$1-$3.txt"
}

declare -A total=([none]=0 [tiers]=0 [limit]=0)
for round in 1 2; do
  for label in none tiers limit; do
    file=""; [ "$label" != none ] && file="$work/$label.json"
    rate=$(run "$label" "$file" "$round")
    echo "round $round, $label: $rate verifications/s ($(awk '/verification_failures/ {print $2}' "$work/$label-$round.txt") non-2xx)"
    total[$label]=$(echo "${total[$label]} + $rate" | bc -l)
  done
done
echo
echo "| policy | verifications/s (mean of 2) | ratio to none |"
echo "|---|---|---|"
for label in none tiers limit; do
  printf '| %s | %.0f | %.3f |\n' "$label" "$(echo "${total[$label]} / 2" | bc -l)" "$(echo "${total[$label]} / ${total[none]}" | bc -l)"
done
