#!/usr/bin/env bash
# Same-run A/B of benchmarks (a)–(c) of docs/PERFORMANCE.md: two latchd release binaries (e.g. the
# previous landing and this one), measured alternately, A B A B, with scripts/bench/run.sh on SQLite
# (add LATCH_BENCH_POSTGRES=… for PostgreSQL), without the large database (d).
#
# usage: scripts/bench/ab.sh A_LATCHD B_LATCHD [SECONDS_PER_RUN] [ROUNDS]
# Each round prints run.sh's table and storm lines for A, then for B; compare the sums.
set -euo pipefail
cd "$(dirname "$0")/../.."
[ $# -ge 2 ] || { echo "usage: $0 A_LATCHD B_LATCHD [SECONDS] [ROUNDS]" >&2; exit 2; }
a="$1"; b="$2"; seconds="${3:-10}"; rounds="${4:-2}"
for round in $(seq 1 "$rounds"); do
  for side in A B; do
    bin="$a"; [ "$side" = B ] && bin="$b"
    echo "=== round $round, $side: $bin"
    LATCH_BENCH_BIN="$bin" LATCH_BENCH_USERS=0 bash scripts/bench/run.sh "$seconds"
  done
done
