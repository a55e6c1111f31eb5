#!/usr/bin/env bash
# Issue 29 §3: same-run refresh throughput of several latchd release builds and of the Go refresh peer
# (scripts/bench/goserver's POST /token: latchd's two SQLite statements on go-sqlite3, ES256 with golang-jwt).
# Every server runs at once (each latchd on its own port and SQLite file, the Go peer on the first latchd's
# file with that latchd's LATCH_SECRET_KEY, idle while another is measured), and each round loads each of
# them in turn with scripts/bench/refresh.lua, so a noisy moment weighs on all alike.
#
# usage: scripts/bench/refresh_compare.sh SECONDS ROUNDS LABEL=path/to/latchd [LABEL=path …]
#   LATCH_BENCH_GOSERVER=path/to/goserver (default: built from scripts/bench/goserver)
#   LATCH_BENCH_GOSERVER_FLAGS="-prepared -writer-conns 0" extra goserver flags (default none; see its header)
#   LATCH_BENCH_CLIENTS=8 (wrk -t and -c: refresh.lua follows one refresh chain per connection)
#   LATCH_BENCH_PROBE_RATE=100 also probe the loaded server's GET /health at this rate meanwhile
#     (latency_probe.py): its p99 and max across the rounds, so a build that blocks its event loops shows
# Every server gets CLIENTS fresh sessions per round, signed in by latchd's password grant before any load
# (the Go peer's on the first latchd), so every request of every round is a real rotation. Prints refresh/s
# per server (mean of the rounds), the refreshes not answered 200, each latchd's refresh / Go refresh, and
# each server's resident memory (VmHWM) after the load.
# needs: wrk, curl, python3 with bcrypt, Go (see go_compare.sh).
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds="$1"; rounds="$2"; shift 2
work="$(mktemp -d /tmp/latch-refresh-compare.XXXXXX)"
goserver="${LATCH_BENCH_GOSERVER:-$work/goserver}"
[ -x "$goserver" ] || GO111MODULE=off GOPATH=/usr/share/gocode go build -o "$goserver" scripts/bench/goserver/main.go
clients="${LATCH_BENCH_CLIENTS:-8}"
sessions=$((rounds * clients))
pids=(); labels=(); ports=(); keys=()
trap 'kill ${pids[*]} 2>/dev/null || true' EXIT
sign_in() {  # url count file: the refresh tokens of COUNT new sessions of bench0..7, one per line
  : >"$3"
  for n in $(seq 0 $(($2 - 1))); do
    curl -sf -X POST "$1/v1/token" -H 'Content-Type: application/json' \
      -d "{\"grant_type\":\"password\",\"email\":\"bench$((n % 8))@bench.test\",\"password\":\"Bench-Password-1\",\"device\":{\"id\":\"bench-device\"}}" |
      python3 -c 'import json,sys; print(json.load(sys.stdin)["refresh_token"])' >>"$3"
  done
}
port=18090
for spec in "$@"; do
  label="${spec%%=*}"; bin="${spec#*=}"; url="http://127.0.0.1:$port"; key="$(head -c 32 /dev/urandom | base64)"
  LATCH_RATE_LIMIT_SCALE=1000 LATCH_ENV=production LATCH_DATABASE_URL="sqlite://$work/$label.sqlite" LATCH_PORT=$port \
    LATCH_ISSUER="$url" LATCH_SECRET_KEY="$key" \
    LATCH_SMTP_URL=smtp://127.0.0.1:2525 LATCH_MAIL_FROM=bench@latch.test "$bin" >"$work/$label.log" 2>&1 &
  pids+=($!); labels+=("$label"); ports+=($port); keys+=("$key")
  for _ in $(seq 1 100); do curl -sf "$url/health" >/dev/null && break; sleep 0.2; done
  python3 scripts/bench/seed.py sqlite "$work/$label.sqlite" --extra 0 >/dev/null
  sign_in "$url" "$sessions" "$work/$label-refresh.txt"
  port=$((port + 1))
done
sign_in "http://127.0.0.1:${ports[0]}" "$sessions" "$work/go-refresh.txt"
# shellcheck disable=SC2086 # the extra flags are words
LATCH_SECRET_KEY="${keys[0]}" "$goserver" -db "$work/${labels[0]}.sqlite" -addr 127.0.0.1:18081 \
  ${LATCH_BENCH_GOSERVER_FLAGS:-} >"$work/goserver.log" 2>&1 &
gopid=$!; pids+=($gopid)
for _ in $(seq 1 50); do curl -sf http://127.0.0.1:18081/health >/dev/null && break; sleep 0.1; done
run() {  # name url tokens-file: one refresh chain per connection, this round's sessions
  local probe=""
  if [ -n "${LATCH_BENCH_PROBE_RATE:-}" ]; then
    local health="${2%/token}"; health="${health%/v1}/health"
    python3 scripts/bench/latency_probe.py "$health" "$seconds" "$LATCH_BENCH_PROBE_RATE" >"$work/$1-$round.probe" &
    probe=$!
  fi
  LATCH_BENCH_TOKENS="$3" LATCH_BENCH_TOKEN_OFFSET=$(((round - 1) * clients)) \
    wrk -t"$clients" -c"$clients" -d"${seconds}s" -s scripts/bench/refresh.lua "$2" >"$work/$1-$round.txt"
  [ -z "$probe" ] || wait "$probe"
}
for round in $(seq 1 "$rounds"); do
  for i in "${!labels[@]}"; do
    run "${labels[$i]}" "http://127.0.0.1:${ports[$i]}/v1/token" "$work/${labels[$i]}-refresh.txt"
  done
  run go http://127.0.0.1:18081/token "$work/go-refresh.txt"
done
mean() { cat "$work/$1"-[0-9]*.txt | awk '/Requests\/sec/ {s += $2; n++} END {printf "%.0f", s / n}'; }
failures() { cat "$work/$1"-[0-9]*.txt | awk '/refresh_failures/ {s += $2} END {print s + 0}'; }
hwm() { awk '/VmHWM/ {printf "%.0f MiB", $2 / 1024}' "/proc/$1/status"; }
go=$(mean go)
echo "machine: $(nproc) cores; wrk -t$clients -c$clients refresh.lua, ${seconds}s per run, $rounds rounds; work dir $work"
echo "| server | refresh/s | refreshes not 200 | refresh / Go refresh | VmHWM |"
echo "|---|---|---|---|---|"
for i in "${!labels[@]}"; do
  r=$(mean "${labels[$i]}")
  printf '| %s | %s | %s | %.2f | %s |\n' "${labels[$i]}" "$r" "$(failures "${labels[$i]}")" "$(echo "$r/$go" | bc -l)" \
    "$(hwm "${pids[$i]}")"
done
printf '| Go net/http (POST /token) | %s | %s | | %s |\n' "$go" "$(failures go)" "$(hwm $gopid)"
if [ -n "${LATCH_BENCH_PROBE_RATE:-}" ]; then
  echo
  echo "GET /health at ${LATCH_BENCH_PROBE_RATE}/s beside the refresh load (each round's p99 and max, ms):"
  for name in "${labels[@]}" go; do
    echo "- $name: $(for f in "$work/$name"-[0-9]*.probe; do awk '{printf "p99 %s max %s; ", $4, $6}' "$f"; done)"
  done
fi
for name in "${labels[@]}" go; do
  [ "$(failures "$name")" = 0 ] || echo "warning: $name answered refreshes with non-200 (see $work/$name-*.txt)" >&2
done
