#!/usr/bin/env python3
"""Password hashes made by other systems' code, for Latch's import (issue 45 §2).

    pip install passlib==1.7.4 bcrypt django firebase-scrypt==0.1.0
    python3 scripts/interop/imported_hash_vectors.py > Tests/LatchServerTests/ImportedPasswords/ImportedHashVectors.swift

Prints a Swift file with (password, stored text, format name) triples:
  bcrypt       the `bcrypt` package ($2b$, $2a$); $2y$ is PHP's spelling of the same bytes
  scrypt       passlib.hash.scrypt ($scrypt$ln=…,r=…,p=…$salt$hash, unpadded standard base64)
  pbkdf2 (passlib) is in passlib's adapted base64 (. for +); Django 5.2.19 made the Django ones
  pbkdf2       passlib.hash.pbkdf2_sha256 / pbkdf2_sha512, Django's make_password (PBKDF2PasswordHasher)
  firebase     Firebase's modified scrypt, checked with the `firebase-scrypt` package's verify_password,
               including the test vector of Firebase's own scrypt repository (user1password)
  md5/sha1/sha256  hashlib, unsalted and with the salt before or after
Salts are random, so each run prints different hashes; the committed file is one run.
"""
import base64
import hashlib
import json
import os

import bcrypt
import firebase_scrypt
from passlib.hash import pbkdf2_sha256, pbkdf2_sha512, scrypt

import django
from django.conf import settings

settings.configure(PASSWORD_HASHERS=["django.contrib.auth.hashers.PBKDF2PasswordHasher"])
django.setup()
from django.contrib.auth.hashers import PBKDF2PasswordHasher, make_password  # noqa: E402

PASSWORDS = ["correct horse battery staple", "pässwörd-ünïcode", "密码🔑パスワード", "p"]
vectors = []


def add(password, stored, fmt):
    vectors.append((password, stored, fmt))


# bcrypt: small costs, one at a realistic 10; $2y$ as PHP writes it.
for i, password in enumerate(PASSWORDS):
    h = bcrypt.hashpw(password.encode(), bcrypt.gensalt(rounds=4 + i % 3)).decode()
    add(password, h, "bcrypt")
h = bcrypt.hashpw(b"a-password-for-2a", bcrypt.gensalt(rounds=5, prefix=b"2a")).decode()
add("a-password-for-2a", h, "bcrypt")
h = bcrypt.hashpw("ÿ-php-2y".encode(), bcrypt.gensalt(rounds=5)).decode()
add("ÿ-php-2y", "$2y$" + h[4:], "bcrypt")
long_password = "x" * 72
h = bcrypt.hashpw(long_password.encode(), bcrypt.gensalt(rounds=4)).decode()
add(long_password, h, "bcrypt")
add("realistic cost", bcrypt.hashpw(b"realistic cost", bcrypt.gensalt(rounds=10)).decode(), "bcrypt")

# scrypt (passlib)
for i, password in enumerate(PASSWORDS):
    add(password, scrypt.using(rounds=8 + i, block_size=8 - i, parallelism=1 + i % 2).hash(password), "scrypt")

# PBKDF2 (passlib and Django)
for i, password in enumerate(PASSWORDS):
    add(password, pbkdf2_sha256.using(rounds=1000 + 7 * i).hash(password), "pbkdf2_sha256")
    add(password, pbkdf2_sha512.using(rounds=1000 + 11 * i, salt_size=8 + i).hash(password), "pbkdf2_sha512")


class FewerIterations(PBKDF2PasswordHasher):
    """Django's own hasher at a count that keeps debug tests fast."""

    iterations = 20000


for password in PASSWORDS:
    add(password, FewerIterations().encode(password, FewerIterations().salt()), "pbkdf2_sha256")
add("django default cost", make_password("django default cost"), "pbkdf2_sha256")  # Django's own count

# Firebase: the Firebase scrypt repository's vector, then own ones, each checked by firebase-scrypt.
SIGNER = "jxspr8Ki0RYycVU8zykbdLGjFQ3McFUH0uiiTvC8pVMXAn210wjLNmdZJzxUECKbm0QsEmYUSDzZvpjeJ9WmXA=="
SEP = "Bw=="


def firebase(password, salt, rounds, mem_cost, known=None):
    if known is None:
        derived = firebase_scrypt.generate_derived_key(password, salt, SEP, rounds, mem_cost)
        known = base64.b64encode(firebase_scrypt.encrypt(base64.b64decode(SIGNER), derived)).decode()
    assert firebase_scrypt.verify_password(password, known, salt, SEP, SIGNER, rounds, mem_cost)
    obj = {"algorithm": "firebase_scrypt", "hash": known, "salt": salt, "salt_separator": SEP,
           "signer_key": SIGNER, "rounds": rounds, "mem_cost": mem_cost}
    add(password, json.dumps(obj, sort_keys=True, separators=(",", ":")), "firebase_scrypt")


firebase("user1password", "42xEC+ixf3L2lw==", 8, 14,
         "lSrfV15cpx95/sZS2W9c9Kp6i/LVgQNDNC/qzrCnh1SAyZvqmZqAjTdn3aoItz+VHjoZilo78198JAdRuid5lQ==")
for i, password in enumerate(PASSWORDS):
    firebase(password, base64.b64encode(os.urandom(10)).decode(), 8 - i, 10 + i)

# Legacy digests (hashlib)
for name in ["md5", "sha1", "sha256"]:
    for i, password in enumerate(PASSWORDS[:3]):
        digest = lambda s: hashlib.new(name, s.encode()).hexdigest()
        if i == 0:
            obj = {"algorithm": name, "hash": digest(password)}
        elif i == 1:
            obj = {"algorithm": name, "hash": digest("s@lt" + password), "salt": "s@lt"}
        else:
            obj = {"algorithm": name, "hash": digest(password + "sälz").upper(), "salt": "sälz", "salt_position": "after"}
        add(password, json.dumps(obj, ensure_ascii=False), name)


def swift(s):
    """A Swift string literal: JSON's escapes are Swift's for these strings."""
    return json.dumps(s, ensure_ascii=False)


print("// Made by scripts/interop/imported_hash_vectors.py (passlib, bcrypt, Django, firebase-scrypt, hashlib).")
print("// Do not edit: run the script again.")
print()
print("/// Password hashes made by code no one here wrote (issue 45 §2).")
print("enum ImportedHashVectors {")
print("    /// (password, stored text, format name)")
print("    static let all: [(password: String, stored: String, format: String)] = [")
for password, stored, fmt in vectors:
    print(f"        ({swift(password)}, {swift(stored)}, {swift(fmt)}),")
print("    ]")
print("}")
