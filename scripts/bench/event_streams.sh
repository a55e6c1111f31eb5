#!/usr/bin/env bash
# Issue 42's benchmark (scripts/bench/event_streams.py): events delivered per second to a local receiver,
# commit-to-receiver latency at 100 changes/s, and the cost of three streams on a sign-out.
#
# usage: scripts/bench/event_streams.sh [EVENTS] [SECONDS]
#   LATCH_BENCH_BIN=path/to/latchd (default: .build-release/release/latchd, built when missing)
# needs: golang-go (the receiver uses Go's standard library only), sqlite3, python3
set -euo pipefail
cd "$(dirname "$0")/../.."
bin="${LATCH_BENCH_BIN:-.build-release/release/latchd}"
[ -x "$bin" ] || swift build -c release --scratch-path .build-release --product latchd
work="$(mktemp -d /tmp/latch-events.XXXXXX)"
trap 'rm -rf "$work"' EXIT
(cd scripts/bench/eventreceiver && GO111MODULE=off go build -o "$work/eventreceiver" main.go)
python3 scripts/bench/event_streams.py "$bin" "$work/eventreceiver" --events "${1:-10000}" --seconds "${2:-30}"
