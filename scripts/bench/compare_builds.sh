#!/usr/bin/env bash
# Same-run comparison of several latchd release builds and the Go comparison server on /health and
# /v1/me (Go: /user): every server runs at once on its own port and SQLite file (idle while another is
# measured), and each round loads each of them in turn, so a noisy moment weighs on all alike.
#
# usage: scripts/bench/compare_builds.sh SECONDS ROUNDS LABEL=path/to/latchd [LABEL=path …]
#   LATCH_BENCH_GOSERVER=path/to/goserver (default: built from scripts/bench/goserver)
#   LATCH_BENCH_CONNECTIONS=64 (wrk -c)
#   LATCH_BENCH_HUMMINGBIRD=path/to/hbserver (scripts/bench/hummingbird/hbserver, issue 21 step 3): measured too
# Prints req/s per server and route (mean of the rounds), each latchd's me/health (P1), health/Go health
# (P5) and me/Go user (P6), and each server's resident memory (VmHWM) after the load.
# needs: wrk, curl, python3 with bcrypt, Go (see go_compare.sh).
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds="$1"; rounds="$2"; shift 2
work="$(mktemp -d /tmp/latch-compare.XXXXXX)"
goserver="${LATCH_BENCH_GOSERVER:-$work/goserver}"
[ -x "$goserver" ] || GO111MODULE=off GOPATH=/usr/share/gocode go build -o "$goserver" scripts/bench/goserver/main.go
connections="${LATCH_BENCH_CONNECTIONS:-64}"
pids=(); labels=(); ports=(); tokens=()
trap 'kill ${pids[*]} 2>/dev/null || true' EXIT
port=18090
for spec in "$@"; do
  label="${spec%%=*}"; bin="${spec#*=}"; url="http://127.0.0.1:$port"
  LATCH_RATE_LIMIT_SCALE=1000 LATCH_ENV=production LATCH_DATABASE_URL="sqlite://$work/$label.sqlite" LATCH_PORT=$port \
    LATCH_ISSUER="$url" LATCH_SECRET_KEY="$(head -c 32 /dev/urandom | base64)" \
    LATCH_SMTP_URL=smtp://127.0.0.1:2525 LATCH_MAIL_FROM=bench@latch.test "$bin" >"$work/$label.log" 2>&1 &
  pids+=($!); labels+=("$label"); ports+=($port)
  for _ in $(seq 1 100); do curl -sf "$url/health" >/dev/null && break; sleep 0.2; done
  python3 scripts/bench/seed.py sqlite "$work/$label.sqlite" --extra 0 >/dev/null
  tokens+=("$(curl -sf -X POST "$url/v1/token" -H 'Content-Type: application/json' \
    -d '{"grant_type":"password","email":"bench0@bench.test","password":"Bench-Password-1","device":{"id":"bench-device"}}' |
    python3 -c 'import json,sys; print(json.load(sys.stdin)["access_token"])')")
  port=$((port + 1))
done
"$goserver" -db "$work/${labels[0]}.sqlite" -addr 127.0.0.1:18081 -tokens "$work/go-tokens.txt" -count 1 &
gopid=$!; pids+=($gopid)
for _ in $(seq 1 50); do curl -sf http://127.0.0.1:18081/health >/dev/null && break; sleep 0.1; done
gotoken=$(head -n 1 "$work/go-tokens.txt")
hb="${LATCH_BENCH_HUMMINGBIRD:-}"
if [ -n "$hb" ]; then
  "$hb" -db "$work/${labels[0]}.sqlite" -addr 127.0.0.1:18082 -issuer http://127.0.0.1:18082 -tokens "$work/hb-tokens.txt" \
    -count 1 >"$work/hbserver.log" 2>&1 &
  hbpid=$!; pids+=($hbpid)
  for _ in $(seq 1 50); do curl -sf http://127.0.0.1:18082/health >/dev/null && break; sleep 0.1; done
  hbtoken=$(head -n 1 "$work/hb-tokens.txt")
fi
run() {  # name url [token]
  local auth=(); [ -n "${3:-}" ] && auth=(-H "Authorization: Bearer $3")
  wrk -t2 -c"$connections" -d"${seconds}s" "${auth[@]}" "$2" >"$work/$1-$round.txt"
  grep -q "Non-2xx" "$work/$1-$round.txt" && echo "warning: $1 answered non-2xx" >&2 || true
}
for round in $(seq 1 "$rounds"); do
  for i in "${!labels[@]}"; do
    run "${labels[$i]}-health" "http://127.0.0.1:${ports[$i]}/health"
    run "${labels[$i]}-me" "http://127.0.0.1:${ports[$i]}/v1/me" "${tokens[$i]}"
  done
  if [ -n "$hb" ]; then
    run hb-health http://127.0.0.1:18082/health
    run hb-me http://127.0.0.1:18082/v1/me "$hbtoken"
  fi
  run go-health http://127.0.0.1:18081/health
  run go-user http://127.0.0.1:18081/user "$gotoken"
done
mean() { cat "$work/$1"-*.txt | awk '/Requests\/sec/ {s += $2; n++} END {printf "%.0f", s / n}'; }
hwm() { awk '/VmHWM/ {printf "%.0f MiB", $2 / 1024}' "/proc/$1/status"; }
gh=$(mean go-health); gu=$(mean go-user)
echo "machine: $(nproc) cores; wrk -t2 -c$connections, ${seconds}s per run, $rounds rounds; work dir $work"
echo "| server | /health req/s | /v1/me (Go: /user) req/s | P1 me/health | P5 health / Go health | P6 me / Go user | VmHWM |"
echo "|---|---|---|---|---|---|---|"
for i in "${!labels[@]}"; do
  h=$(mean "${labels[$i]}-health"); m=$(mean "${labels[$i]}-me")
  printf '| %s | %s | %s | %.2f | %.2f | %.2f | %s |\n' "${labels[$i]}" "$h" "$m" "$(echo "$m/$h" | bc -l)" \
    "$(echo "$h/$gh" | bc -l)" "$(echo "$m/$gu" | bc -l)" "$(hwm "${pids[$i]}")"
done
if [ -n "$hb" ]; then
  h=$(mean hb-health); m=$(mean hb-me)
  printf '| Hummingbird 2 (hbserver) | %s | %s | %.2f | %.2f | %.2f | %s |\n' "$h" "$m" "$(echo "$m/$h" | bc -l)" \
    "$(echo "$h/$gh" | bc -l)" "$(echo "$m/$gu" | bc -l)" "$(hwm "$hbpid")"
fi
printf '| Go net/http | %s | %s | | | | %s |\n' "$gh" "$gu" "$(hwm $gopid)"
