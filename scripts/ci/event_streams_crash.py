#!/usr/bin/env python3
"""Issue 42 §3 proof: kill -9 during a storm of changes loses no committed change's event.

`python3 scripts/ci/event_streams_crash.py LATCHD_BINARY`. A development latchd (SQLite) with a webhook stream to
a receiver on loopback that is down (503); eight clients freeze and unfreeze accounts through the admin API as
fast as it answers; after a few seconds latchd is killed with SIGKILL. Then latchd starts again on the same
database and the receiver comes up. Checks:

1. every change a client saw answered (204) before the kill has its event: each account gets at least as many
   `account.frozen` and `account.unfrozen` events as its client saw freezes and unfreezes answered;
2. every event in `outbound_events` was queued for the stream (`event_deliveries`), in the same transaction;
3. the receiver gets every one of them after the restart (duplicates only with the same id), and each account's
   events arrive in the order they were written.
Exit 0 when every check holds, 1 with the failed checks listed.
"""
import http.server
import json
import os
import shutil
import sqlite3
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request

from latchd_process import free_port, start_latchd, stop_latchd

HOST = "127.0.0.1"
ADMIN_KEY = "crash-admin-key-0123456789abcdef"
USERS = 16
CLIENTS = 8
STORM_SECONDS = 4


class Receiver(http.server.ThreadingHTTPServer):
    def __init__(self, port):
        self.up = False
        self.events = []  # decoded bodies, in arrival order
        self.lock = threading.Lock()
        super().__init__((HOST, port), Handler)


class Handler(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        if self.server.up:
            with self.server.lock:
                self.server.events.append(json.loads(body))
        self.send_response(204 if self.server.up else 503)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *args):
        pass


def call(base, method, path, body=None, bearer=None, timeout=30):
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(base + path, data=data, method=method)
    if data is not None:
        request.add_header("Content-Type", "application/json")
    if bearer:
        request.add_header("Authorization", "Bearer " + bearer)
    try:
        with urllib.request.urlopen(request, timeout=timeout) as answer:
            status, text = answer.status, answer.read().decode()
    except urllib.error.HTTPError as error:
        status, text = error.code, error.read().decode()
    return status, (json.loads(text) if text.startswith(("{", "[")) else None)


def main():
    binary = os.path.abspath(sys.argv[1])
    failures = []

    def check(condition, what):
        print(("ok   " if condition else "FAIL ") + what)
        if not condition:
            failures.append(what)

    receiver = Receiver(free_port())
    threading.Thread(target=receiver.serve_forever, daemon=True).start()
    folder = tempfile.mkdtemp(prefix="latch-crash-")
    settings = {"LATCH_BCRYPT_COST": "4", "LATCH_ADMIN_KEYS": ADMIN_KEY, "LATCH_EVENT_STREAMS_ALLOW_PRIVATE": "1",
                "LATCH_RATE_LIMIT_SCALE": "1000"}
    process, port, _ = start_latchd(binary, folder, settings)
    base = f"http://{HOST}:{port}"
    try:
        status, added = call(base, "POST", "/v1/admin/event-streams",
                             {"kind": "webhook", "url": f"http://{HOST}:{receiver.server_port}/hook"}, ADMIN_KEY)
        check(status == 201, f"a webhook stream is added ({status})")
        users = []
        for index in range(USERS):
            email = f"crash{index}@example.com"
            _, registration = call(base, "POST", "/v1/registrations",
                                   {"email": email, "password": "Crash-Storm-7-heron", "terms_accepted": True})
            _, outbox = call(base, "GET", "/dev/outbox?to=" + urllib.request.quote(email, safe=""))
            code = [m["code"] for m in outbox if m.get("code")][-1]
            _, tokens = call(base, "POST", f"/v1/registrations/{registration['registration_id']}/verify",
                             {"code": code, "device": {"id": f"crash-device-{index}"}})
            users.append(tokens["user"]["id"])

        answered = {user: {"account.frozen": 0, "account.unfrozen": 0} for user in users}
        refused = []  # statuses other than 204 before the kill
        stop = threading.Event()

        def storm(mine):
            frozen = {user: False for user in mine}
            while not stop.is_set():
                for user in mine:
                    action = "unfreeze" if frozen[user] else "freeze"
                    try:
                        status, _ = call(base, "POST", f"/v1/admin/users/{user}/{action}", bearer=ADMIN_KEY, timeout=5)
                    except OSError:
                        return  # latchd is gone
                    if status == 204:
                        answered[user]["account.unfrozen" if frozen[user] else "account.frozen"] += 1
                        frozen[user] = not frozen[user]
                    elif not stop.is_set():
                        refused.append(status)

        threads = [threading.Thread(target=storm, args=(users[i::CLIENTS],)) for i in range(CLIENTS)]
        for thread in threads:
            thread.start()
        time.sleep(STORM_SECONDS)
        process.kill()  # SIGKILL, in the middle of the storm
        process.wait()
        stop.set()
        for thread in threads:
            thread.join()
        total = sum(sum(counts.values()) for counts in answered.values())
        check(total > 50, f"the storm had changes answered before the kill ({total})")
        check(not [s for s in refused if s >= 500], f"no change answered 5xx during the storm ({sorted(set(refused))})")

        database = sqlite3.connect(f"file:{folder}/latch.sqlite?mode=ro", uri=True)
        events = database.execute("SELECT seq, id, type FROM outbound_events ORDER BY seq").fetchall()
        queued = {row[0] for row in database.execute("SELECT event_seq FROM event_deliveries")}
        database.close()
        check(all(seq in queued for seq, _, _ in events), f"every one of the {len(events)} events was queued for the stream")

        receiver.up = True
        shutil.copy(f"{folder}/latchd.log", f"{folder}/latchd-before-kill.log")
        process, port, _ = start_latchd(binary, folder, settings)
        deadline = time.time() + 120
        ids = {event_id for _, event_id, _ in events}
        while time.time() < deadline:
            with receiver.lock:
                got = {event["data"]["id"] for event in receiver.events}
            if ids <= got:
                break
            time.sleep(0.5)
        with receiver.lock:
            received = list(receiver.events)
        got = {event["data"]["id"] for event in received}
        check(ids <= got, f"after the restart the receiver got all {len(ids)} events ({len(ids - got)} missing)")
        for user in users:
            first_seen = []
            for event in received:
                if event["data"].get("user_id") == user and event["data"]["id"] not in first_seen:
                    first_seen.append(event["data"]["id"])
            types = [e["type"] for e in received if e["data"].get("user_id") == user]
            for kind, count in answered[user].items():
                if types.count(kind) < count:
                    check(False, f"{user}: {count} {kind} answered, {types.count(kind)} delivered")
            order = [event_id for _, event_id, _ in events if event_id in set(first_seen)]
            if first_seen != order:
                check(False, f"{user}: events arrived out of the order they were written")
        check(not [f for f in failures if ": " in f and f.startswith(tuple(users))],
              "every answered change has its event, and each account's events arrived in order")
    finally:
        if process.poll() is None:
            stop_latchd(process)
        receiver.shutdown()
        if failures:
            for line in open(f"{folder}/latchd-before-kill.log", errors="replace"):
                if " error " in line or "warning" in line:
                    print("latchd: " + line.rstrip()[:400])
        shutil.rmtree(folder, ignore_errors=True)
    if failures:
        print(f"{len(failures)} check(s) failed")
        sys.exit(1)
    print("kill -9 during a storm: no committed change's event lost")


if __name__ == "__main__":
    main()
