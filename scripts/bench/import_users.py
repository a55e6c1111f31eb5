#!/usr/bin/env python3
"""Issue 45 benchmark: writes N import lines (JSON Lines, docs/IMPORT.md) with bcrypt hashes (one hash made
by Python's bcrypt, reused: import stores hashes, it does not verify them), half of them with a nickname,
a quarter with a known device.

usage: scripts/bench/import_users.py N FILE
"""
import json
import sys

import bcrypt

count, path = int(sys.argv[1]), sys.argv[2]
hashed = bcrypt.hashpw(b"Imported-Pass-1", bcrypt.gensalt(10)).decode()
with open(path, "w") as out:
    for i in range(count):
        line = {"external_id": f"u{i:08d}", "email": f"user{i}@bench.example", "email_verified": True,
                "created_at": 1_600_000_000 + i, "password_hash": hashed}
        if i % 2 == 0:
            line["nickname"] = f"User {i}"
        if i % 4 == 0:
            line["known_devices"] = [{"id": f"device-{i}", "name": "iPhone"}]
        out.write(json.dumps(line, separators=(",", ":")) + "\n")
