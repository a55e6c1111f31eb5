#!/usr/bin/env python3
"""Independent (Python + `cryptography`) implementation of Latch's signed-message contract.

    python3 scripts/interop/signature_vector.py --generate > docs/signature-test-vector.json
    python3 scripts/interop/signature_vector.py --check docs/signature-test-vector.json

--generate  prints the published test vector: the fixed device key below, its X9.63 public key,
            the canonical JSON of the withdrawal parameters, the digest, the messages and one
            fresh DER signature per message (ECDSA is randomized: each run signs anew; the
            committed file holds the run that was published).
--check     recomputes everything in FILE except the signatures, and verifies the signatures.
            Works on the committed vector and on any file of the same shape (e.g. one whose
            signatures came from the Swift code).

The contract (ARCHITECTURE.md, "Contract: tokens and signatures"):
    message   = "latch-v1\\n{purpose}\\n{challenge_id}\\n{challenge}" (UTF-8)
    purpose   = "login" | "verify:{action}:{digest}"
    digest    = lower-case hex SHA-256 of the RFC 8785 canonical JSON of the parameters
    signature = base64url(DER ECDSA P-256 / SHA-256 over message)
    public_key = base64url(65-byte X9.63 uncompressed point)

Needs: pip install cryptography
"""
import argparse
import base64
import hashlib
import json
import sys

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec

# The device key of the vector: SHA-256("latch-v1 signature test vector device key").
PRIVATE_KEY_HEX = hashlib.sha256(b"latch-v1 signature test vector device key").hexdigest()
CHALLENGE_ID = "chl_01J9Z7Q4XKD3M8V2W6T5R0HBNA"
CHALLENGE = "m2Xo9vB6yR0aK8sTqL4eWz1JcN7uH3pGfD5iYtE_-Ug"
LOGIN_CHALLENGE_ID = "chl_01J9Z7RB3F6T2W8K4M9X0QPVCE"
LOGIN_CHALLENGE = "Tq8Rz2Kc7Lm4Vx9Nb1Hs6Jd3Fg5Wp0Ya-_EiUoQtXrM"
ACTION = "withdrawal"
PARAMETERS = {"amount": "100.00", "currency": "USDT", "address": "TXabc"}


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def b64url_decode(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def canonical_json(parameters: dict) -> str:
    """RFC 8785 for a flat object of strings: names sorted by UTF-16 code units, no whitespace.
    json.dumps with ensure_ascii=False escapes strings exactly as JSON.stringify does
    (\\" \\\\ \\b \\f \\n \\r \\t, other controls as \\u00xx lower-case)."""
    for name, value in parameters.items():
        if not isinstance(name, str) or not isinstance(value, str):
            raise ValueError("parameters must be a flat object of strings")
    names = sorted(parameters, key=lambda name: name.encode("utf-16-be"))
    members = (
        json.dumps(name, ensure_ascii=False) + ":" + json.dumps(parameters[name], ensure_ascii=False)
        for name in names
    )
    return "{" + ",".join(members) + "}"


def digest(parameters: dict) -> str:
    return hashlib.sha256(canonical_json(parameters).encode("utf-8")).hexdigest()


def message(purpose: str, challenge_id: str, challenge: str) -> str:
    return "\n".join(["latch-v1", purpose, challenge_id, challenge])


def private_key():
    return ec.derive_private_key(int(PRIVATE_KEY_HEX, 16), ec.SECP256R1())


def public_key_x963(key) -> bytes:
    return key.public_key().public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)


def sign(key, text: str) -> str:
    return b64url(key.sign(text.encode("utf-8"), ec.ECDSA(hashes.SHA256())))


def verify(public_key_b64url: str, signature_b64url: str, text: str) -> bool:
    point = b64url_decode(public_key_b64url)
    if len(point) != 65 or point[0] != 4:
        return False
    public_key = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), point)
    try:
        public_key.verify(b64url_decode(signature_b64url), text.encode("utf-8"), ec.ECDSA(hashes.SHA256()))
        return True
    except InvalidSignature:
        return False


def generate() -> dict:
    key = private_key()
    purpose = f"verify:{ACTION}:{digest(PARAMETERS)}"
    verify_message = message(purpose, CHALLENGE_ID, CHALLENGE)
    login_message = message("login", LOGIN_CHALLENGE_ID, LOGIN_CHALLENGE)
    return {
        "description": "Latch signed-message test vector (ARCHITECTURE.md, Contract: tokens and signatures). "
        "ECDSA is randomized: check that each signature verifies and that changing one byte makes it fail; "
        "never compare signatures. Checked by Tests/LatchCoreTests/SignatureVectorTests.swift and "
        "scripts/interop/signature_vector.py --check.",
        "format": {
            "public_key": "base64url, no padding, of the 65-byte X9.63 uncompressed P-256 point",
            "canonical_parameters": "RFC 8785 canonical JSON of parameters (flat object of strings)",
            "digest": "lower-case hex SHA-256 of the UTF-8 bytes of canonical_parameters",
            "purpose": "login, or verify:{action}:{digest}",
            "message": "UTF-8 of latch-v1\\n{purpose}\\n{challenge_id}\\n{challenge}, no trailing newline",
            "signature": "base64url, no padding, of the DER ECDSA P-256 signature with SHA-256 over message",
        },
        "private_key_hex": PRIVATE_KEY_HEX,
        "public_key_x963_hex": public_key_x963(key).hex(),
        "public_key": b64url(public_key_x963(key)),
        "verify": {
            "action": ACTION,
            "parameters": PARAMETERS,
            "canonical_parameters": canonical_json(PARAMETERS),
            "digest": digest(PARAMETERS),
            "challenge_id": CHALLENGE_ID,
            "challenge": CHALLENGE,
            "purpose": purpose,
            "message": verify_message,
            "message_hex": verify_message.encode("utf-8").hex(),
            "signature": sign(key, verify_message),
        },
        "login": {
            "challenge_id": LOGIN_CHALLENGE_ID,
            "challenge": LOGIN_CHALLENGE,
            "purpose": "login",
            "message": login_message,
            "message_hex": login_message.encode("utf-8").hex(),
            "signature": sign(key, login_message),
        },
    }


def check(vector: dict) -> list:
    problems = []

    def expect(label, actual, wanted):
        if actual != wanted:
            problems.append(f"{label}: expected {wanted!r}, got {actual!r}")

    if "private_key_hex" in vector:
        key = ec.derive_private_key(int(vector["private_key_hex"], 16), ec.SECP256R1())
        expect("public_key", b64url(public_key_x963(key)), vector["public_key"])
    public_key = vector["public_key"]
    v = vector["verify"]
    expect("canonical_parameters", canonical_json(v["parameters"]), v["canonical_parameters"])
    expect("digest", digest(v["parameters"]), v["digest"])
    expect("purpose", f"verify:{v['action']}:{v['digest']}", v["purpose"])
    for name, entry in (("verify", v), ("login", vector.get("login"))):
        if entry is None:
            continue
        expect(f"{name}.message", message(entry["purpose"], entry["challenge_id"], entry["challenge"]), entry["message"])
        if "message_hex" in entry:
            expect(f"{name}.message_hex", entry["message"].encode("utf-8").hex(), entry["message_hex"])
        if not verify(public_key, entry["signature"], entry["message"]):
            problems.append(f"{name}.signature does not verify")
        tampered = entry["message"][:-1] + chr(ord(entry["message"][-1]) ^ 1)
        if verify(public_key, entry["signature"], tampered):
            problems.append(f"{name}.signature verifies a changed message")
    return problems


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    group = parser.add_mutually_exclusive_group(required=True)
    group.add_argument("--generate", action="store_true", help="print a freshly signed vector as JSON")
    group.add_argument("--check", metavar="FILE", help="verify a vector file")
    arguments = parser.parse_args()
    if arguments.generate:
        print(json.dumps(generate(), indent=2, ensure_ascii=False))
        return 0
    with open(arguments.check, encoding="utf-8") as file:
        problems = check(json.load(file))
    for problem in problems:
        print("FAIL", problem)
    print("ok" if not problems else f"{len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
