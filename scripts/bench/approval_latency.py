#!/usr/bin/env python3
"""Issue 43's benchmark: scan-to-signed-in latency of the QR sign-in, with the `latch` CLI on both sides.

    python3 scripts/bench/approval_latency.py .build/debug/latchd [--runs 30] [--latch PATH] [--seed 43]

Starts the given latchd (development mode, SQLite in a temporary folder, on a free loopback port) and
signs up one phone: a `latch` home with Face ID on (a bound device key, the simulated sensor). Each run:
a fresh web home starts `latch login --with-phone` and prints `qr_url:` and `number:`; after a random
pause of 0–5 s (the person taking out the phone and scanning: it puts the approval at a random point of
the web's poll cycle, as a real scan is) the phone runs `latch approve URL --number NN --simulate
match`. Measured, per run, from the start of the phone's command (the human steps excluded):

- approve: until the phone's `latch approve` exits (view, verification by the device key, decision);
- signed in: until the web side prints "Signed in as" (its next poll collected the session).

Prints p50, p95 and max of both over the runs, and the goal (p95 of "signed in" ≤ 2 s).
"""
import argparse
import json
import os
import random
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

PASSWORD = "Correct-Horse-9-battery"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def percentile(values, p):
    ordered = sorted(values)
    rank = max(0, min(len(ordered) - 1, int(round(p / 100 * len(ordered) + 0.5)) - 1))  # nearest rank
    return ordered[rank]


class Bench:
    def __init__(self, latchd, latch):
        self.latch_binary = latch
        self.workdir = tempfile.mkdtemp(prefix="latch-approval-bench.")
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        env = {k: v for k, v in os.environ.items() if not k.startswith("LATCH_")}
        env.update(LATCH_ENV="development", LATCH_HOST="127.0.0.1", LATCH_PORT=str(self.port),
                   LATCH_ISSUER=self.url, LATCH_BCRYPT_COST="4", LATCH_RATE_LIMIT_SCALE="100")
        self.log = open(os.path.join(self.workdir, "latchd.log"), "w")
        self.process = subprocess.Popen([latchd], cwd=self.workdir, env=env, stdout=self.log, stderr=subprocess.STDOUT)
        deadline = time.time() + 60
        while True:
            try:
                urllib.request.urlopen(self.url + "/health", timeout=1).read()
                break
            except OSError:
                if time.time() > deadline or self.process.poll() is not None:
                    raise RuntimeError("latchd did not start:\n" + open(self.log.name).read())
                time.sleep(0.1)

    def env(self, home):
        env = {k: v for k, v in os.environ.items() if not k.startswith("LATCH_") and k not in ("LC_ALL", "LC_MESSAGES", "LANG")}
        env.update(LATCH_HOME=home, LATCH_SERVER=self.url)
        return env

    def latch(self, home, *arguments, input=None):
        run = subprocess.run([self.latch_binary, *arguments, "--lang", "en"], env=self.env(home), input=input,
                             capture_output=True, text=True, timeout=120)
        if run.returncode != 0:
            raise RuntimeError(f"latch {' '.join(arguments)} → {run.returncode}\n{run.stdout}{run.stderr}")
        return run

    def once(self, phone, pause):
        """One QR sign-in; (approve seconds, signed-in seconds), both from the start of `latch approve`."""
        web_home = os.path.join(self.workdir, "web-" + os.urandom(4).hex())
        web = subprocess.Popen([self.latch_binary, "login", "--with-phone", "--lang", "en"], env=self.env(web_home),
                               stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, bufsize=1)
        lines, printed, signed_in = {}, threading.Event(), {}

        def read():
            for line in web.stdout:
                key, _, value = line.strip().partition(": ")
                if key in ("qr_url", "number"):
                    lines[key] = value
                if "qr_url" in lines and "number" in lines:
                    printed.set()
                if line.startswith("Signed in as") and "at" not in signed_in:
                    signed_in["at"] = time.monotonic()

        reader = threading.Thread(target=read, daemon=True)
        reader.start()
        if not printed.wait(30):
            web.kill()
            raise RuntimeError("latch login --with-phone printed no qr_url/number: " + web.stderr.read())
        time.sleep(pause)
        start = time.monotonic()
        self.latch(phone, "approve", lines["qr_url"], "--number", lines["number"], "--simulate", "match",
                   "--issuer", self.url)
        approved = time.monotonic()
        status = web.wait(timeout=60)
        reader.join(10)
        if status != 0 or "at" not in signed_in:
            raise RuntimeError(f"latch login --with-phone → {status}: {web.stderr.read()}")
        return approved - start, signed_in["at"] - start

    def stop(self):
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
        self.log.close()
        shutil.rmtree(self.workdir, ignore_errors=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("latchd")
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--latch", help="the latch CLI (default: beside latchd)")
    parser.add_argument("--seed", type=int, default=43)
    options = parser.parse_args()
    latch = options.latch or os.path.join(os.path.dirname(os.path.abspath(options.latchd)), "latch")
    random.seed(options.seed)
    bench = Bench(os.path.abspath(options.latchd), latch)
    try:
        phone = os.path.join(bench.workdir, "phone")
        bench.latch(phone, "signup", "bench-phone@example.com", "--password-stdin", "--accept-terms", "--code-from-outbox",
                    input=PASSWORD + "\n")
        bench.latch(phone, "biometrics", "enable", "--simulate", "match")
        approves, signed = [], []
        for run in range(options.runs):
            approve, total = bench.once(phone, random.uniform(0, 5))
            approves.append(approve)
            signed.append(total)
            print(f"run {run + 1:2}: approve {approve:.3f} s, signed in {total:.3f} s", flush=True)
    finally:
        bench.stop()
    summary = {
        name: {"p50": percentile(values, 50), "p95": percentile(values, 95), "max": max(values),
               "mean": statistics.mean(values)}
        for name, values in (("approve", approves), ("signed_in", signed))
    }
    for name, values in summary.items():
        print(f"{name}: p50 {values['p50']:.3f} s, p95 {values['p95']:.3f} s, max {values['max']:.3f} s, mean {values['mean']:.3f} s")
    goal = summary["signed_in"]["p95"] <= 2.0
    print(f"goal p95 of signed in <= 2 s: {'met' if goal else 'NOT met'}")
    print(json.dumps({"runs": options.runs, **summary}))


if __name__ == "__main__":
    main()
