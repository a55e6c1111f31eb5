#!/usr/bin/env python3
"""Issue 45 §2: the time of a sign-in against each imported hash format, against latchd's own bcrypt and
against an unknown address (the existence-oracle question), in one run.

Starts latchd (development mode, a fresh SQLite file, the given bcrypt cost, rate limits scaled out of
the way), imports one user per format with `latchd admin import` (hashes made here by Python's bcrypt,
argon2-cffi, passlib, hashlib and firebase-scrypt, at the costs their own tools use by default; latchd's
own bcrypt for the native user, written in the export form), then sends N wrong-password sign-ins per
user and N for an unknown address, interleaved, from the user's known device. Prints the median and p90
of each in milliseconds and the ratio of the median to the unknown address's. A right password would
replace the imported hash at once, so only wrong ones are measured (the ladder is scaled out of the way by
using a fresh account per 4 tries would change the answer: the measured tries stay under the 5-failure
lock by resetting each user's count with `latchd admin unlock`).

usage: scripts/bench/imported_signin.py [PATH_TO_LATCHD] [N] [BCRYPT_COST]   (defaults: .build/debug/latchd, 20, 12)
needs: pip install bcrypt argon2-cffi passlib firebase-scrypt
"""
import base64
import hashlib
import http.client
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time

import argon2
import bcrypt
from passlib.hash import scrypt as passlib_scrypt

binary = sys.argv[1] if len(sys.argv) > 1 else ".build/debug/latchd"
n = int(sys.argv[2]) if len(sys.argv) > 2 else 20
cost = int(sys.argv[3]) if len(sys.argv) > 3 else 12
password = "Imported-Pass-1"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def firebase_hash(pw: str):
    import firebase_scrypt  # the package's own check of the hash made below
    salt = os.urandom(12)
    separator = base64.b64decode("Bw==")
    signer = os.urandom(64)
    key = hashlib.scrypt(pw.encode(), salt=salt + separator, n=1 << 14, r=8, p=1, dklen=64, maxmem=1 << 27)
    from Crypto.Cipher import AES  # pycryptodome, a dependency of firebase-scrypt
    cipher = AES.new(key[:32], AES.MODE_CTR, initial_value=b"\x00" * 16, nonce=b"")
    hashed = base64.b64encode(cipher.encrypt(signer)).decode()
    assert firebase_scrypt.verify_password(password=pw, known_hash=hashed, salt=base64.b64encode(salt).decode(),
                                           salt_separator="Bw==", signer_key=base64.b64encode(signer).decode(),
                                           rounds=8, mem_cost=14)
    return {"algorithm": "firebase_scrypt", "hash": hashed,
            "salt": base64.b64encode(salt).decode(), "salt_separator": "Bw==",
            "signer_key": base64.b64encode(signer).decode(), "rounds": 8, "mem_cost": 14}


def django(pw: str, iterations=1_000_000):
    salt = base64.b64encode(os.urandom(9)).decode()
    digest = hashlib.pbkdf2_hmac("sha256", pw.encode(), salt.encode(), iterations)
    return "pbkdf2_sha256$%d$%s$%s" % (iterations, salt, base64.b64encode(digest).decode())


def latch_own(pw: str):
    prehashed = base64.b64encode(hashlib.sha256(pw.encode()).digest())
    return {"algorithm": "latch_bcrypt_sha256", "hash": bcrypt.hashpw(prehashed, bcrypt.gensalt(cost)).decode()}


formats = {
    "latchd bcrypt (native)": latch_own(password),
    "bcrypt $2b$ cost 10": bcrypt.hashpw(password.encode(), bcrypt.gensalt(10)).decode(),
    "argon2id m=64MiB t=3 p=4": argon2.PasswordHasher(time_cost=3, memory_cost=65536, parallelism=4).hash(password),
    "scrypt ln=15 r=8 p=1": passlib_scrypt.using(rounds=15, block_size=8, parallelism=1).hash(password),
    "firebase scrypt mem_cost=14 r=8": firebase_hash(password),
    "pbkdf2_sha256 (Django) 1,000,000": django(password),
}

work = tempfile.mkdtemp(prefix="latch-imported-signin-")
port = free_port()
env = dict(os.environ, LATCH_DATABASE_URL=f"sqlite://{work}/latch.sqlite", LATCH_PORT=str(port),
           LATCH_ISSUER=f"http://127.0.0.1:{port}", LATCH_SECRET_KEY=base64.b64encode(os.urandom(32)).decode(),
           LATCH_BCRYPT_COST=str(cost), LATCH_RATE_LIMIT_SCALE="1000", LATCH_LOG_REQUESTS="false")
lines = []
for i, (name, hashed) in enumerate(formats.items()):
    lines.append({"external_id": f"f{i}", "email": f"user{i}@bench.example", "password_hash": hashed,
                  "known_devices": [{"id": "bench-device"}]})
with open(f"{work}/users.jsonl", "w") as out:
    out.write("\n".join(json.dumps(line) for line in lines) + "\n")
report = subprocess.run([binary, "admin", "import", f"{work}/users.jsonl"], env=env, check=True,
                        capture_output=True, text=True).stdout
assert json.loads(report)["imported"] == len(formats), report
server = subprocess.Popen([binary], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
try:
    for _ in range(200):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            break
        except OSError:
            time.sleep(0.1)
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)

    def sign_in(email):
        body = json.dumps({"grant_type": "password", "email": email, "password": password + "-wrong",
                           "device": {"id": "bench-device"}})
        start = time.perf_counter()
        conn.request("POST", "/v1/token", body=body, headers={"Content-Type": "application/json"})
        response = conn.getresponse()
        response.read()
        return response.status, (time.perf_counter() - start) * 1000

    times = {name: [] for name in formats}
    times["unknown address"] = []
    targets = [(name, f"user{i}@bench.example") for i, name in enumerate(formats)]
    for round_ in range(n):
        # A new unknown address each round: five failures would lock it, and a locked answer takes no bcrypt.
        for name, email in targets + [("unknown address", f"nobody{round_}@bench.example")]:
            status, ms = sign_in(email)
            assert status in (401, 423), (name, status)
            times[name].append(ms)
        if round_ % 4 == 3:  # stay under the 5-failure lock: an operator unlock of every imported user
            ids = json.loads(subprocess.run([binary, "admin", "find", "user"], env=env, check=True,
                                            capture_output=True, text=True).stdout)
            for user in ids.get("users", []):
                subprocess.run([binary, "admin", "unlock", user["id"]], env=env, check=True, capture_output=True)
    base = statistics.median(times["unknown address"])
    print(f"latchd bcrypt cost {cost}, {n} wrong passwords each (ms):")
    for name, values in times.items():
        values.sort()
        print(f"  {name:36s} median {statistics.median(values):8.1f}  p90 {values[int(0.9 * len(values)) - 1]:8.1f}"
              f"  ×{statistics.median(values) / base:.2f} of unknown")
finally:
    server.terminate()
    server.wait()
