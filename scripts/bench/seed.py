"""Seeds benchmark users straight into latchd's database (latchd must have migrated it first).

Users bench0..bench7@bench.test get the password Bench-Password-1; with --extra N, N more users
(user1@bulk.test …) make the table large. latchd hashes bcrypt(base64(SHA-256(password))), so the
seed does the same, once, and gives every user that hash.

The bench users also get the fund password 739251 (for verify.lua's step-up verifications), hashed
the same way at bcrypt cost 4: the verification benchmark measures latchd's checks around the fund
password, not bcrypt (the sign-in storm measures bcrypt at cost 12).

usage: seed.py sqlite PATH [--extra N] | seed.py postgres URL [--extra N]
"""
import base64, hashlib, sqlite3, subprocess, sys, time, uuid

import bcrypt

kind, target = sys.argv[1], sys.argv[2]
extra = int(sys.argv[sys.argv.index("--extra") + 1]) if "--extra" in sys.argv else 0
prehash = base64.b64encode(hashlib.sha256(b"Bench-Password-1").digest())
password_hash = bcrypt.hashpw(prehash, bcrypt.gensalt(12)).decode().replace("$2b$", "$2b$", 1)
fund_hash = bcrypt.hashpw(base64.b64encode(hashlib.sha256(b"739251").digest()), bcrypt.gensalt(4)).decode()
fund_sql = f"INSERT INTO fund_passwords (user_id, password_hash, updated_at) SELECT id, '{fund_hash}', {{now}} FROM users WHERE email LIKE 'bench%@bench.test'"
now = time.time()
bench = [f"bench{i}@bench.test" for i in range(8)]

if kind == "sqlite":
    db = sqlite3.connect(target, timeout=60)
    rows = ((str(uuid.uuid4()).upper(), email, 1, password_hash, None, now) for email in bench)
    db.executemany("INSERT INTO users (id, email, email_verified, password_hash, nickname, created_at) VALUES (?,?,?,?,?,?)", rows)
    batch = 100_000
    for start in range(0, extra, batch):
        rows = ((str(uuid.uuid4()).upper(), f"user{i}@bulk.test", 1, password_hash, None, now)
                for i in range(start, min(extra, start + batch)))
        db.executemany("INSERT INTO users (id, email, email_verified, password_hash, nickname, created_at) VALUES (?,?,?,?,?,?)", rows)
        db.commit()
    db.execute(fund_sql.format(now=now))
    db.commit()
    print(db.execute("SELECT count(*) FROM users").fetchone()[0], "users")
else:
    values = ",".join(f"(gen_random_uuid(), '{email}', true, '{password_hash}', NULL, {now})" for email in bench)
    sql = f"INSERT INTO users (id, email, email_verified, password_hash, nickname, created_at) VALUES {values};"
    if extra:
        sql += (f"INSERT INTO users (id, email, email_verified, password_hash, nickname, created_at) "
                f"SELECT gen_random_uuid(), 'user' || i || '@bulk.test', true, '{password_hash}', NULL, {now} "
                f"FROM generate_series(1, {extra}) AS i; ANALYZE users;")
    sql += fund_sql.format(now=now) + ";"
    sql += "SELECT count(*) FROM users;"
    out = subprocess.run(["psql", "-qtA", target, "-c", sql], check=True, capture_output=True, text=True).stdout
    print(out.strip().splitlines()[-1], "users")
