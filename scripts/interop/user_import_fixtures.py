#!/usr/bin/env python3
"""Makes Tests/LatchServerTests/UserImport/UserImportFixtures.swift (issue 45): password, fund password and
recovery code hashes made by code no one here wrote (Python's bcrypt package, hashlib's PBKDF2 in Django's
format, an MD5 digest), for the import journeys. Rerun: pip install bcrypt; python3 scripts/interop/user_import_fixtures.py
"""
import base64
import hashlib
import pathlib

import bcrypt

OUT = pathlib.Path(__file__).resolve().parents[2] / "Tests/LatchServerTests/UserImport/UserImportFixtures.swift"


def django_pbkdf2(password: str, salt: str, iterations: int) -> str:
    digest = hashlib.pbkdf2_hmac("sha256", password.encode(), salt.encode(), iterations)
    return "pbkdf2_sha256$%d$%s$%s" % (iterations, salt, base64.b64encode(digest).decode())


fixtures = {
    "bcryptPassword": ("Imported-Pass-1", bcrypt.hashpw(b"Imported-Pass-1", bcrypt.gensalt(5)).decode()),
    "djangoPassword": ("Django-Pass-2", django_pbkdf2("Django-Pass-2", "q9sWfYzC2kR1", 1000)),
    "md5Password": ("Legacy-Pass-3", hashlib.md5(b"Legacy-Pass-3").hexdigest()),
    "bcryptFundPassword": ("Fund-Pass-77", bcrypt.hashpw(b"Fund-Pass-77", bcrypt.gensalt(4)).decode()),
    "bcryptRecoveryCode": ("rc-code-0001", bcrypt.hashpw(b"rc-code-0001", bcrypt.gensalt(4)).decode()),
}

lines = [
    "// Made by scripts/interop/user_import_fixtures.py (Python's bcrypt and hashlib); do not edit.",
    "",
    "/// Hashes made by code no one here wrote, each with the secret it hashes (issue 45).",
    "enum UserImportFixtures {",
]
for name, (secret, stored) in fixtures.items():
    lines.append(f'    static let {name} = (secret: "{secret}", hash: #"{stored}"#)')
lines.append("}")
OUT.write_text("\n".join(lines) + "\n")
print(f"wrote {OUT}")
