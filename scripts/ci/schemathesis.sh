#!/usr/bin/env bash
# Fuzzes a latchd binary against its own OpenAPI document with Schemathesis.
#
#   scripts/ci/schemathesis.sh .build/debug/latchd
#
# Starts latchd (development mode, SQLite, bcrypt cost 4, Apple and WeChat configured against local
# stand-ins) on a free loopback port in a fresh temporary directory, runs
# `schemathesis run http://127.0.0.1:PORT/openapi.json --checks all` with the hooks in
# schemathesis_hooks.py (a signed-in user for the bearer-protected operations) and the configuration in
# schemathesis.toml, and stops latchd.
# Exit status: 0 when the run has no finding; 1 when it has one (listed, with per-operation answer
# counts: see schemathesis_verdict.py — every check's failure (response_schema_conformance and
# status_code_conformance included; the document closes its response-only objects with
# `additionalProperties: false`, so an undocumented member of an answer is a finding too), any 5xx, a
# lost connection, latchd dying, a required check that never ran, or a bearer-protected operation that
# only ever answered 401/403 is a finding); 2 on usage or setup problems.
#
# Environment: SCHEMATHESIS_MAX_EXAMPLES (default 100) test cases per operation; SCHEMATHESIS_SEED
# for a reproducible run; SCHEMATHESIS_REPORT_DIR to keep the NDJSON report and latchd's log
# (otherwise they are deleted with the temporary directory). Needs `schemathesis` (pip install
# schemathesis; written against 4.32) and python3 with `requests` (a dependency of schemathesis).
set -euo pipefail

usage() { echo "usage: $0 PATH_TO_LATCHD" >&2; exit 2; }
[ $# -eq 1 ] || usage
[ -x "$1" ] || { echo "$0: $1 is not an executable" >&2; exit 2; }
command -v schemathesis >/dev/null || { echo "$0: schemathesis not found (pip install schemathesis)" >&2; exit 2; }

latchd="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
here="$(cd "$(dirname "$0")" && pwd)"
workdir="$(mktemp -d "${TMPDIR:-/tmp}/latch-schemathesis.XXXXXX")"
latchd_pid=""
standins_pid=""

cleanup() {
    if [ -n "$standins_pid" ] && kill -0 "$standins_pid" 2>/dev/null; then
        kill "$standins_pid" 2>/dev/null || true
        wait "$standins_pid" 2>/dev/null || true
    fi
    if [ -n "$latchd_pid" ] && kill -0 "$latchd_pid" 2>/dev/null; then
        kill "$latchd_pid" 2>/dev/null || true
        for _ in $(seq 1 100); do kill -0 "$latchd_pid" 2>/dev/null || break; sleep 0.1; done
        kill -9 "$latchd_pid" 2>/dev/null || true
        wait "$latchd_pid" 2>/dev/null || true
    fi
    if [ -n "${SCHEMATHESIS_REPORT_DIR:-}" ]; then
        mkdir -p "$SCHEMATHESIS_REPORT_DIR"
        cp -R "$workdir/report/." "$SCHEMATHESIS_REPORT_DIR/" 2>/dev/null || true
        cp "$workdir/latchd.log" "$SCHEMATHESIS_REPORT_DIR/" 2>/dev/null || true
    fi
    rm -rf "$workdir"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')"
base="http://127.0.0.1:$port"

# Apple's key set and WeChat's API stand-ins on loopback, so both sign-in providers are configured.
mkfifo "$workdir/standins.port"
python3 "$here/schemathesis_provider_standins.py" >"$workdir/standins.port" &
standins_pid=$!
read -r standins_port <"$workdir/standins.port" || { echo "$0: the provider stand-ins did not start" >&2; exit 2; }
standins="http://127.0.0.1:$standins_port"

# A clean development environment: SQLite in the temporary directory, mail kept in the dev outbox,
# Apple and WeChat at the stand-ins. Every fuzzed request comes from 127.0.0.1, so the per-client
# rate limits are scaled up (LATCH_RATE_LIMIT_SCALE, default 1000 here) to let the requests reach the
# logic behind them; the limiter itself still runs, and its 429s are tested in RateLimitTests.
(
    cd "$workdir"
    exec env -u LATCH_DATABASE_URL -u LATCH_SMTP_URL -u LATCH_MAIL_FROM -u LATCH_SECRET_KEY -u LATCH_SMS_WEBHOOK_URL \
        LATCH_ENV=development LATCH_HOST=127.0.0.1 LATCH_PORT="$port" LATCH_ISSUER="$base" LATCH_BCRYPT_COST=4 \
        LATCH_RATE_LIMIT_SCALE="${LATCH_RATE_LIMIT_SCALE:-1000}" \
        LATCH_APPLE_CLIENT_IDS=com.example.latch.fuzz LATCH_APPLE_JWKS_URL="$standins/auth/keys" \
        LATCH_WECHAT_APP_ID=wx0000000000fuzz LATCH_WECHAT_APP_SECRET=fuzz-app-secret LATCH_WECHAT_API_BASE="$standins" \
        "$latchd" >"$workdir/latchd.log" 2>&1
) &
latchd_pid=$!

for _ in $(seq 1 300); do
    if ! kill -0 "$latchd_pid" 2>/dev/null; then
        echo "$0: latchd exited during start:" >&2
        cat "$workdir/latchd.log" >&2
        exit 2
    fi
    if python3 -c "import urllib.request, sys; urllib.request.urlopen(sys.argv[1], timeout=1)" "$base/health" 2>/dev/null; then
        break
    fi
    sleep 0.1
done
python3 -c "import urllib.request, sys; urllib.request.urlopen(sys.argv[1], timeout=1)" "$base/health" 2>/dev/null \
    || { echo "$0: latchd did not answer on $base/health" >&2; cat "$workdir/latchd.log" >&2; exit 2; }

python3 -c "import urllib.request, sys; sys.stdout.buffer.write(urllib.request.urlopen(sys.argv[1], timeout=5).read())" \
    "$base/openapi.json" >"$workdir/openapi.json"
mkdir -p "$workdir/report"

# --continue-on-failure: one finding must not end an operation's other test cases (all are reported).
# The configuration file says which refusals of schema-valid requests are the contract (a fuzzed 6-digit
# code is wrong by nature: 400 AUTH_003); the hooks check that those refusals carry exactly that error.
args=(run "$base/openapi.json" --checks all --max-examples "${SCHEMATHESIS_MAX_EXAMPLES:-100}" --continue-on-failure
    --report ndjson --report-dir "$workdir/report")
[ -n "${SCHEMATHESIS_SEED:-}" ] && args+=(--seed "$SCHEMATHESIS_SEED")

echo "schemathesis ${args[*]}"
set +e
# In the temporary directory (Schemathesis and Hypothesis keep state in the working directory), bounded
# to 20 minutes (about 70 s at 100 examples per operation on 2 busy cores).
(
    cd "$workdir"
    SCHEMATHESIS_HOOKS="$here/schemathesis_hooks.py" LATCH_FUZZ_BASE_URL="$base" LATCH_FUZZ_AUTH_LOG="$workdir/report/auth.json" \
        exec timeout --signal=INT --kill-after=30 1200 schemathesis --no-color --config-file "$here/schemathesis.toml" "${args[@]}" 2>&1
)
schemathesis_status=$?
set -e

alive=1
kill -0 "$latchd_pid" 2>/dev/null || alive=0

# Decide from the report (see schemathesis_verdict.py): any failed check, 5xx, lost connection or
# unexercised bearer-protected operation is a finding.
set +e
python3 "$here/schemathesis_verdict.py" "$workdir/report" "$workdir/openapi.json" "$alive" "$schemathesis_status"
verdict=$?
set -e
if [ "$verdict" -ne 0 ] && [ -s "$workdir/latchd.log" ]; then
    echo "--- latchd log (errors) ---"
    grep -iE "error|critical|fatal" "$workdir/latchd.log" | tail -n 50 || true
fi
exit "$verdict"
