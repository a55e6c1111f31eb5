#!/usr/bin/env python3
"""Issue 10 §3: does `POST /v1/password/forgot` take the same time whether the account exists?

Starts latchd (development mode, a fresh SQLite file, bcrypt cost 4, rate limits scaled out of the
way), registers N accounts through the development outbox, then sends N forgot requests for
existing addresses and N for unknown ones, interleaved (existing, unknown, existing, ...) over one
keep-alive connection so both kinds see the same conditions. Every address is asked once, so both
kinds take the same path through the code store (no resend limit). Prints median, p90 and p99 of
each kind in milliseconds, the difference of the medians and the two-sided p-value of a Mann-Whitney
U test (normal approximation): a small p-value says the two kinds can be told apart.

With `--smtp` (issue 20 §3) the accounts are registered as above, then latchd is started again on the
same database with `LATCH_SMTP_URL` pointing at a local SMTP sink (aiosmtpd), so mail goes through
the durable delivery queue, and the forgot requests are measured there.

usage: scripts/bench/forgot_timing.py [PATH_TO_LATCHD] [N] [--smtp]   (defaults: .build/debug/latchd, 300)
"""
import http.client
import json
import math
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


def mann_whitney_p(a, b):
    """Two-sided p-value of the Mann-Whitney U test (normal approximation, ties given mid-ranks)."""
    values = sorted([(v, 0) for v in a] + [(v, 1) for v in b])
    ranks = [0.0] * len(values)
    i = 0
    while i < len(values):
        j = i
        while j + 1 < len(values) and values[j + 1][0] == values[i][0]:
            j += 1
        for k in range(i, j + 1):
            ranks[k] = (i + j) / 2 + 1
        i = j + 1
    rank_a = sum(r for r, (_, group) in zip(ranks, values) if group == 0)
    n1, n2 = len(a), len(b)
    u = rank_a - n1 * (n1 + 1) / 2
    mean = n1 * n2 / 2
    sd = math.sqrt(n1 * n2 * (n1 + n2 + 1) / 12)
    z = (u - mean) / sd if sd else 0.0
    return math.erfc(abs(z) / math.sqrt(2))


def start_latchd(binary, env, work, port, name):
    log = open(f"{work}/{name}.log", "w")
    latchd = subprocess.Popen([binary], env=env, stdout=log, stderr=log)
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    for _ in range(100):
        try:
            if request(conn, "GET", "/health")[0] == 200:
                return latchd, conn
        except OSError:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            time.sleep(0.2)
    latchd.terminate()
    sys.exit(f"latchd did not start; see {work}/{name}.log")


def main():
    arguments = [a for a in sys.argv[1:] if a != "--smtp"]
    smtp = "--smtp" in sys.argv[1:]
    binary = arguments[0] if len(arguments) > 0 else ".build/debug/latchd"
    count = int(arguments[1]) if len(arguments) > 1 else 300
    port = free_port()
    work = tempfile.mkdtemp(prefix="latch-forgot-")
    env = {k: v for k, v in os.environ.items() if not k.startswith("LATCH_")}
    env.update(LATCH_ENV="development", LATCH_PORT=str(port), LATCH_BCRYPT_COST="4", LATCH_LOG_REQUESTS="false",
               LATCH_DATABASE_URL=f"sqlite://{work}/latch.sqlite", LATCH_RATE_LIMIT_SCALE="10000")
    latchd, conn = start_latchd(binary, env, work, port, "latchd")
    sink = None
    try:

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

        if smtp:
            # The sink runs in a process of its own (issue 28 §2): in this process its thread shared the
            # interpreter lock with the timing client, so a mail being received slowed whichever request
            # was being timed.
            smtp_port = free_port()
            sink = subprocess.Popen(
                [sys.executable, "-m", "aiosmtpd", "-n", "-c", "aiosmtpd.handlers.Sink", "-l", f"127.0.0.1:{smtp_port}"],
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            for _ in range(100):
                try:
                    socket.create_connection(("127.0.0.1", smtp_port), timeout=1).close()
                    break
                except OSError:
                    time.sleep(0.1)
            latchd.terminate()
            latchd.wait(timeout=10)
            env.update(LATCH_SMTP_URL=f"smtp+insecure://127.0.0.1:{smtp_port}", LATCH_MAIL_FROM="latch@bench.test")
            latchd, conn = start_latchd(binary, env, work, port, "latchd-smtp")

        for i in range(20):  # warm-up, not measured
            request(conn, "POST", "/v1/password/forgot", {"email": f"warmup{i}@bench.test"})
        existing, unknown = [], []
        for i in range(count):
            status, data, ms = request(conn, "POST", "/v1/password/forgot", {"email": f"user{i}@bench.test"})
            assert status == 202, (status, data)
            existing.append(ms)
            status, data, ms = request(conn, "POST", "/v1/password/forgot", {"email": f"nobody{i}@bench.test"})
            assert status == 202, (status, data)
            unknown.append(ms)

        for name, values in (("existing", existing), ("unknown", unknown)):
            print(f"{name:8s} n={len(values)} median {statistics.median(values):.3f} ms  p90 {percentile(values, 0.9):.3f} ms"
                  f"  p99 {percentile(values, 0.99):.3f} ms")
        difference = statistics.median(existing) - statistics.median(unknown)
        print(f"median difference (existing - unknown): {difference:+.3f} ms "
              f"({100 * difference / statistics.median(unknown):+.1f} %)")
        print(f"Mann-Whitney U two-sided p = {mann_whitney_p(existing, unknown):.3g}"
              f"{'  (mail over SMTP: durable queue)' if smtp else '  (development outbox)'}")
    finally:
        latchd.terminate()
        latchd.wait(timeout=10)
        if sink:
            sink.terminate()
            sink.wait(timeout=10)


if __name__ == "__main__":
    main()
