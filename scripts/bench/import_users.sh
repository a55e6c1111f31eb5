#!/usr/bin/env bash
# Issue 45: `latchd admin import` of N users (default 1,000,000) on SQLite (and PostgreSQL with
# LATCH_BENCH_POSTGRES=postgres://postgres@127.0.0.1:5432), timed, with the importer's peak resident
# memory (GNU time's maximum RSS) for N/10 and N lines, so a memory that grows with the file shows.
#
# usage: scripts/bench/import_users.sh [N]        LATCH_BENCH_BIN=path/to/latchd (default: a release build)
# needs: python3 with bcrypt, /usr/bin/time (apt-get install time), psql for PostgreSQL.
set -euo pipefail
cd "$(dirname "$0")/../.."
n="${1:-1000000}"
bin="${LATCH_BENCH_BIN:-.build-release/release/latchd}"
[ -x "$bin" ] || swift build -c release --scratch-path .build-release --product latchd
work="$(mktemp -d /tmp/latch-import-bench.XXXXXX)"
python3 scripts/bench/import_users.py "$((n / 10))" "$work/small.jsonl"
python3 scripts/bench/import_users.py "$n" "$work/users.jsonl"
key="$(head -c 32 /dev/urandom | base64)"

run() { # database-url file label
  local start end
  start=$(date +%s.%N)
  LATCH_DATABASE_URL="$1" LATCH_SECRET_KEY="$key" LATCH_ISSUER=http://127.0.0.1 \
    /usr/bin/time -f "%M" -o "$work/rss" "$bin" admin import "$2" > "$work/report.json"
  end=$(date +%s.%N)
  python3 - "$3" "$start" "$end" "$work/rss" "$work/report.json" <<'PY'
import json, sys
label, start, end, rss, report = sys.argv[1], float(sys.argv[2]), float(sys.argv[3]), sys.argv[4], sys.argv[5]
r = json.load(open(report))
kib = int(open(rss).read().split()[-1])
total = r["imported"] + r["updated"] + r["unchanged"] + r["refused_count"]
print(f"{label}: {total} lines in {end - start:.1f} s ({total / (end - start):.0f} lines/s), imported {r['imported']}, "
      f"refused {r['refused_count']}, peak RSS {kib / 1024:.1f} MiB")
PY
}

run "sqlite://$work/small.sqlite" "$work/small.jsonl" "SQLite $((n / 10))"
run "sqlite://$work/users.sqlite" "$work/users.jsonl" "SQLite $n"
run "sqlite://$work/users.sqlite" "$work/users.jsonl" "SQLite $n again (all unchanged)"
if [ -n "${LATCH_BENCH_POSTGRES:-}" ]; then
  for db in latch_import_small latch_import; do
    psql "$LATCH_BENCH_POSTGRES/postgres" -qc "DROP DATABASE IF EXISTS $db" -c "CREATE DATABASE $db"
  done
  run "$LATCH_BENCH_POSTGRES/latch_import_small?sslmode=disable" "$work/small.jsonl" "PostgreSQL $((n / 10))"
  run "$LATCH_BENCH_POSTGRES/latch_import?sslmode=disable" "$work/users.jsonl" "PostgreSQL $n"
  run "$LATCH_BENCH_POSTGRES/latch_import?sslmode=disable" "$work/users.jsonl" "PostgreSQL $n again (all unchanged)"
fi
rm -rf "$work"
