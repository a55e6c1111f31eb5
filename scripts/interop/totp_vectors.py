#!/usr/bin/env python3
"""TOTP interoperability between Latch (LatchCore) and pyotp, in both directions.

    pip install pyotp
    python3 scripts/interop/totp_vectors.py                > vectors.json   # pyotp → Swift
    python3 scripts/interop/totp_vectors.py --check FILE                    # Swift → pyotp

Without arguments: prints JSON vectors made by pyotp — random Base32 secrets × timestamps →
codes (SHA-1/6 digits/30 s, plus SHA-256 and SHA-512 with 8 digits), and provisioning URIs with
what pyotp.parse_uri reads back from them. A selection is embedded in
Tests/LatchCoreTests/TOTPInteropTests.swift, which is the CI proof (CI has no pyotp).

--check FILE: FILE is what the Swift side printed, e.g.

    LATCH_TOTP_INTEROP_OUT=/tmp/latch-totp.json swift test --filter TOTPInteropTests
    python3 scripts/interop/totp_vectors.py --check /tmp/latch-totp.json

with the shape
    {"totp": [{"secret": BASE32, "algorithm": "SHA1", "digits": 6, "period": 30, "time": 59, "code": "..."}],
     "uris": [{"uri": "otpauth://...", "secret": BASE32, "issuer": "...", "account": "...",
               "algorithm": "SHA1", "digits": 6, "period": 30}]}
Every code must equal pyotp's for that secret and time, and pyotp.parse_uri must read back the
same secret, issuer, account, algorithm, digits and period from every URI. Exit status 1 on any
mismatch.
"""
import argparse
import base64
import hashlib
import json
import os
import random
import sys

import pyotp

try:
    from importlib.metadata import version as _package_version

    PYOTP_VERSION = _package_version("pyotp")
except Exception:  # noqa: BLE001 - only used in a label
    PYOTP_VERSION = "unknown"

DIGESTS = {"SHA1": hashlib.sha1, "SHA256": hashlib.sha256, "SHA512": hashlib.sha512}

# Step boundaries, the RFC 6238 Appendix B times, before/after 2038 and a far future time.
FIXED_TIMES = [0, 29, 30, 59, 1111111109, 1111111111, 1234567890, 2000000000, 2147483647, 2147483648, 20000000000]

URI_CASES = [
    ("Latch", "alice@example.com"),
    ("ACME Co", "john.doe@email.com"),
    ("Latch: Test", "bob:smith"),
    ("Latch 钱包", "张三@例子.cn"),
    ("A&B=C?D#E%F+G", "x&y=z"),
]


def totp_vector(secret: str, algorithm: str, digits: int, period: int, time: int) -> dict:
    totp = pyotp.TOTP(secret, digits=digits, digest=DIGESTS[algorithm], interval=period)
    return {"secret": secret, "algorithm": algorithm, "digits": digits, "period": period, "time": time,
            "code": totp.at(time)}


def uri_vector(secret: str, issuer: str, account: str) -> dict:
    uri = pyotp.TOTP(secret).provisioning_uri(name=account, issuer_name=issuer)
    parsed = pyotp.parse_uri(uri)
    return {"issuer": issuer, "account": account, "secret": secret, "uri": uri,
            "parsed": {"secret": parsed.secret, "issuer": parsed.issuer, "account": parsed.name}}


def generate(rng: random.Random) -> dict:
    secrets = [pyotp.random_base32() for _ in range(3)]
    # A 16-byte secret (26 characters, not a multiple of 8: no padding) and a 32-byte one.
    secrets.append(base64.b32encode(os.urandom(16)).decode().rstrip("="))
    secrets.append(base64.b32encode(os.urandom(32)).decode().rstrip("="))
    totp = []
    for secret in secrets:
        times = rng.sample(FIXED_TIMES, 3) + [rng.randrange(1_500_000_000, 2_100_000_000) for _ in range(2)]
        totp += [totp_vector(secret, "SHA1", 6, 30, time) for time in times]
    for algorithm in ("SHA256", "SHA512"):
        secret = pyotp.random_base32(length=64 if algorithm == "SHA512" else 52)
        for time in (59, rng.randrange(1_500_000_000, 2_100_000_000)):
            totp.append(totp_vector(secret, algorithm, 8, 30, time))
    totp.append(totp_vector(secrets[0], "SHA1", 6, 60, rng.randrange(1_500_000_000, 2_100_000_000)))
    uris = [uri_vector(pyotp.random_base32(), issuer, account) for issuer, account in URI_CASES]
    return {"generator": f"scripts/interop/totp_vectors.py with pyotp {PYOTP_VERSION}", "totp": totp, "uris": uris}


def check(document: dict) -> list:
    problems = []
    for entry in document.get("totp", []):
        wanted = pyotp.TOTP(entry["secret"], digits=entry["digits"], digest=DIGESTS[entry["algorithm"]],
                            interval=entry["period"]).at(entry["time"])
        if wanted != entry["code"]:
            problems.append(f"code for {entry['secret']} at {entry['time']} ({entry['algorithm']}/"
                            f"{entry['digits']}/{entry['period']}): Swift {entry['code']}, pyotp {wanted}")
    for entry in document.get("uris", []):
        try:
            parsed = pyotp.parse_uri(entry["uri"])
        except ValueError as error:
            problems.append(f"pyotp cannot parse {entry['uri']}: {error}")
            continue
        read = {"secret": parsed.secret, "issuer": parsed.issuer, "account": parsed.name,
                "algorithm": parsed.digest().name.upper().replace("-", ""), "digits": parsed.digits,
                "period": parsed.interval}
        for field, value in read.items():
            if value != entry[field]:
                problems.append(f"{entry['uri']}: pyotp reads {field} = {value!r}, expected {entry[field]!r}")
    return problems


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--check", metavar="FILE", help="verify codes and URIs the Swift code printed")
    parser.add_argument("--seed", type=int, help="seed for the choice of times (secrets are always fresh)")
    arguments = parser.parse_args()
    if arguments.check is None:
        print(json.dumps(generate(random.Random(arguments.seed)), indent=2, ensure_ascii=False))
        return 0
    with open(arguments.check, encoding="utf-8") as file:
        document = json.load(file)
    problems = check(document)
    for problem in problems:
        print("FAIL", problem)
    checked = len(document.get("totp", [])) + len(document.get("uris", []))
    print(f"pyotp {PYOTP_VERSION}: {checked} vectors checked, {len(problems)} mismatch(es)")
    return 1 if problems or checked == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
