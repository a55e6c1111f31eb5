#!/usr/bin/env python3
"""Issue 42's benchmark: outbound events delivered by one latchd to a local receiver.

usage: event_streams.py LATCHD RECEIVER [--events N] [--seconds S]
  LATCHD: a latchd binary (release for numbers that count; scripts/bench/event_streams.sh builds one)
  RECEIVER: scripts/bench/eventreceiver built with Go (it records arrival and change times)

Three measurements in one run, on one SQLite file, development mode (codes from the outbox), bcrypt cost 4,
request logs off:
1. throughput: N events are written with no stream (freezes and unfreezes of 64 accounts by the admin API), then
   a webhook stream is added and replayed from the start; events/s = N / (last arrival - replay).
2. latency: 100 changes a second for S seconds (freeze or unfreeze, paced) with the stream live; commit-to-receiver
   is the arrival time minus the event's own timestamp (the change's time); p50, p99, max.
3. change-path cost: sign-outs (POST /v1/logout) timed one after another on a latchd with three webhook streams
   and on one with none, alternating rounds on the same machine; the ratio of their mean times.
Prints one JSON object.
"""
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "ci"))
from latchd_process import free_port, start_latchd, stop_latchd  # noqa: E402

HOST = "127.0.0.1"
ADMIN = "bench-admin-key-0123456789abcdef"
PASSWORD = "Bench-Events-7-lynx"
ACCOUNTS = 64


def call(base, method, path, body=None, bearer=None):
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(base + path, data=data, method=method)
    if data is not None:
        request.add_header("Content-Type", "application/json")
    if bearer:
        request.add_header("Authorization", "Bearer " + bearer)
    try:
        with urllib.request.urlopen(request, timeout=60) as answer:
            status, text = answer.status, answer.read().decode()
    except urllib.error.HTTPError as error:
        status, text = error.code, error.read().decode()
    return status, (json.loads(text) if text.startswith(("{", "[")) else None)


def register(base, email):
    _, registration = call(base, "POST", "/v1/registrations",
                           {"email": email, "password": PASSWORD, "terms_accepted": True})
    _, outbox = call(base, "GET", "/dev/outbox?to=" + urllib.request.quote(email, safe=""))
    code = [m["code"] for m in outbox if m.get("code")][-1]
    _, tokens = call(base, "POST", f"/v1/registrations/{registration['registration_id']}/verify",
                     {"code": code, "device": {"id": "bench-device"}})
    return tokens["user"]["id"]


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))] if ordered else None


def toggle_all(base, users, changes, threads=8):
    """`changes` freezes/unfreezes spread over `users`, from `threads` clients; answers how many succeeded."""
    done = [0]
    lock = threading.Lock()

    def work(mine, count):
        frozen = {u: False for u in mine}
        for index in range(count):
            user = mine[index % len(mine)]
            status, _ = call(base, "POST", f"/v1/admin/users/{user}/{'unfreeze' if frozen[user] else 'freeze'}",
                             bearer=ADMIN)
            if status == 204:
                frozen[user] = not frozen[user]
                with lock:
                    done[0] += 1
        for user, is_frozen in frozen.items():
            if is_frozen:
                call(base, "POST", f"/v1/admin/users/{user}/unfreeze", bearer=ADMIN)

    workers = [threading.Thread(target=work, args=(users[i::threads], changes // threads)) for i in range(threads)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    return done[0]


def receiver_stats(port):
    with urllib.request.urlopen(f"http://{HOST}:{port}/stats", timeout=60) as answer:
        return json.load(answer)


def main():
    binary, receiver_binary = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    wanted = int(sys.argv[sys.argv.index("--events") + 1]) if "--events" in sys.argv else 10_000
    seconds = int(sys.argv[sys.argv.index("--seconds") + 1]) if "--seconds" in sys.argv else 30
    receiver_port = free_port()
    receiver = subprocess.Popen([receiver_binary, "-listen", f"{HOST}:{receiver_port}"])
    time.sleep(0.5)
    hook = f"http://{HOST}:{receiver_port}/hook"
    settings = {"LATCH_BCRYPT_COST": "4", "LATCH_ADMIN_KEYS": ADMIN, "LATCH_EVENT_STREAMS_ALLOW_PRIVATE": "1",
                "LATCH_RATE_LIMIT_SCALE": "10000", "LATCH_LOG_REQUESTS": "false"}
    folders = [tempfile.mkdtemp(prefix="latch-bench-events-") for _ in range(2)]
    result = {"binary": binary}
    processes = []
    try:
        process, port, _ = start_latchd(binary, folders[0], settings)
        processes.append(process)
        base = f"http://{HOST}:{port}"
        users = [register(base, f"events{i}@bench.test") for i in range(ACCOUNTS)]
        # 1. throughput: write the events first, then replay them to a new stream.
        started = time.time()
        while True:
            _, count = call(base, "GET", "/v1/admin/event-streams", bearer=ADMIN)
            written = int(subprocess.run(
                ["sqlite3", os.path.join(folders[0], "latch.sqlite"), "SELECT COUNT(*) FROM outbound_events"],
                capture_output=True, text=True).stdout.strip() or 0)
            if written >= wanted:
                break
            toggle_all(base, users, max(64, (wanted - written) // 2))
        result["events_written"] = written
        result["writing_seconds"] = round(time.time() - started, 1)
        _, added = call(base, "POST", "/v1/admin/event-streams", {"kind": "webhook", "url": hook}, bearer=ADMIN)
        stream = added["stream"]["id"]
        replay_at = time.time()
        _, replay = call(base, "POST", f"/v1/admin/event-streams/{stream}/replay",
                         {"since": "1970-01-01T00:00:00Z"}, bearer=ADMIN)
        deadline = time.time() + 600
        while time.time() < deadline and receiver_stats(receiver_port)["distinct"] < replay["queued"]:
            time.sleep(0.2)
        stats = receiver_stats(receiver_port)
        result["throughput"] = {
            "queued": replay["queued"], "received": stats["distinct"], "duplicates": stats["count"] - stats["distinct"],
            "seconds": round(stats["last"] - replay_at, 2),
            "events_per_second": round(stats["distinct"] / max(stats["last"] - replay_at, 1e-6))}
        # 2. latency at 100 changes a second.
        urllib.request.urlopen(f"http://{HOST}:{receiver_port}/reset").read()
        frozen = {u: False for u in users}
        sent = 0
        t0 = time.time()
        for tick in range(seconds * 100):
            target = t0 + tick / 100
            pause = target - time.time()
            if pause > 0:
                time.sleep(pause)
            user = users[tick % len(users)]
            status, _ = call(base, "POST", f"/v1/admin/users/{user}/{'unfreeze' if frozen[user] else 'freeze'}",
                             bearer=ADMIN)
            if status == 204:
                frozen[user] = not frozen[user]
                sent += 1
        result["paced_changes_per_second"] = round(sent / (time.time() - t0), 1)
        time.sleep(5)
        latencies = receiver_stats(receiver_port)["latencies_ms"]
        result["latency_ms"] = {"events": len(latencies), "p50": percentile(latencies, 0.5),
                                "p99": percentile(latencies, 0.99), "max": max(latencies) if latencies else None}
        for user, is_frozen in frozen.items():
            if is_frozen:
                call(base, "POST", f"/v1/admin/users/{user}/unfreeze", bearer=ADMIN)
        stop_latchd(process)
        processes.remove(process)

        # 3. change-path cost: sign-outs with three streams against none.
        servers = {}
        for label, folder, streams in (("with_streams", folders[0], 3), ("without", folders[1], 0)):
            process, port, _ = start_latchd(binary, folder, settings)
            processes.append(process)
            base = f"http://{HOST}:{port}"
            _, existing = call(base, "GET", "/v1/admin/event-streams", bearer=ADMIN)
            for old in existing["streams"]:
                call(base, "DELETE", f"/v1/admin/event-streams/{old['id']}", bearer=ADMIN)
            for _ in range(streams):
                call(base, "POST", "/v1/admin/event-streams", {"kind": "webhook", "url": hook}, bearer=ADMIN)
            email = f"signout-{label}@bench.test"
            register(base, email)
            servers[label] = (base, email)
        times = {label: [] for label in servers}
        for _ in range(5):
            for label, (base, email) in servers.items():
                tokens = [call(base, "POST", "/v1/token", {"grant_type": "password", "email": email,
                                                           "password": PASSWORD, "device": {"id": "bench-device"}})[1]
                          ["access_token"] for _ in range(100)]
                for token in tokens:
                    begin = time.perf_counter()
                    status, _ = call(base, "POST", "/v1/logout", {}, bearer=token)
                    times[label].append(time.perf_counter() - begin)
                    assert status in (200, 204), status
        means = {label: statistics.mean(values) * 1000 for label, values in times.items()}
        medians = {label: statistics.median(values) * 1000 for label, values in times.items()}
        result["sign_out_ms"] = {"mean": {k: round(v, 3) for k, v in means.items()},
                                 "median": {k: round(v, 3) for k, v in medians.items()},
                                 "cost_ratio_mean": round(means["with_streams"] / means["without"], 3),
                                 "cost_ratio_median": round(medians["with_streams"] / medians["without"], 3)}
    finally:
        for process in processes:
            stop_latchd(process)
        receiver.terminate()
        for folder in folders:
            shutil.rmtree(folder, ignore_errors=True)
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
