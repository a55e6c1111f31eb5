#!/usr/bin/env python3
"""Issue 10 §3: does `POST /v1/password/forgot` take the same time whether the account exists?

Starts latchd (development mode, a fresh SQLite file, bcrypt cost 4, rate limits scaled out of the
way), registers N accounts through the development outbox, then sends N forgot requests for
existing addresses and N for unknown ones, interleaved (existing, unknown, existing, ...) over one
keep-alive connection so both kinds see the same conditions. Every address is asked once, so both
kinds take the same path through the code store (no resend limit). Prints median, p90 and p99 of
each kind in milliseconds and the difference of the medians.

usage: scripts/bench/forgot_timing.py [PATH_TO_LATCHD] [N]     (defaults: .build/debug/latchd, 300)
"""
import http.client
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def request(conn, method, path, body=None):
    headers = {"Content-Type": "application/json"} if body is not None else {}
    start = time.perf_counter()
    conn.request(method, path, body=json.dumps(body) if body is not None else None, headers=headers)
    response = conn.getresponse()
    data = response.read()
    return response.status, data, (time.perf_counter() - start) * 1000


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def main():
    binary = sys.argv[1] if len(sys.argv) > 1 else ".build/debug/latchd"
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 300
    port = free_port()
    work = tempfile.mkdtemp(prefix="latch-forgot-")
    env = {k: v for k, v in os.environ.items() if not k.startswith("LATCH_")}
    env.update(LATCH_ENV="development", LATCH_PORT=str(port), LATCH_BCRYPT_COST="4", LATCH_LOG_REQUESTS="false",
               LATCH_DATABASE_URL=f"sqlite://{work}/latch.sqlite", LATCH_RATE_LIMIT_SCALE="10000")
    log = open(f"{work}/latchd.log", "w")
    latchd = subprocess.Popen([binary], env=env, stdout=log, stderr=log)
    try:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        for _ in range(100):
            try:
                if request(conn, "GET", "/health")[0] == 200:
                    break
            except OSError:
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
                time.sleep(0.2)
        else:
            sys.exit(f"latchd did not start; see {work}/latchd.log")

        for i in range(count):
            email = f"user{i}@bench.test"
            status, data, _ = request(conn, "POST", "/v1/registrations",
                                      {"email": email, "password": "Bench-Password-1", "terms_accepted": True})
            assert status == 202, data
            registration = json.loads(data)["registration_id"]
            status, data, _ = request(conn, "GET", f"/dev/outbox?to={email}")
            code = [m for m in json.loads(data) if m.get("code")][-1]["code"]
            status, data, _ = request(conn, "POST", f"/v1/registrations/{registration}/verify", {"code": code})
            assert status == 201, data

        for i in range(20):  # warm-up, not measured
            request(conn, "POST", "/v1/password/forgot", {"email": f"warmup{i}@bench.test"})
        existing, unknown = [], []
        for i in range(count):
            status, _, ms = request(conn, "POST", "/v1/password/forgot", {"email": f"user{i}@bench.test"})
            assert status == 202
            existing.append(ms)
            status, _, ms = request(conn, "POST", "/v1/password/forgot", {"email": f"nobody{i}@bench.test"})
            assert status == 202
            unknown.append(ms)

        for name, values in (("existing", existing), ("unknown", unknown)):
            print(f"{name:8s} n={len(values)} median {statistics.median(values):.3f} ms  p90 {percentile(values, 0.9):.3f} ms"
                  f"  p99 {percentile(values, 0.99):.3f} ms")
        difference = statistics.median(existing) - statistics.median(unknown)
        print(f"median difference (existing - unknown): {difference:+.3f} ms "
              f"({100 * difference / statistics.median(unknown):+.1f} %)")
    finally:
        latchd.terminate()
        latchd.wait(timeout=10)


if __name__ == "__main__":
    main()
