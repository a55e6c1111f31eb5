"""Writes Tests/LatchServerTests/ImportedPasswords/Argon2CFFIVectors.swift: argon2 PHC strings made by
Python's argon2-cffi (which wraps the reference implementation, phc-winner-argon2), for issue 45 §2's
tests of latchd's own argon2.

usage (from the repository's root):
    pip install argon2-cffi==25.1.0
    python3 scripts/interop/argon2_vectors.py

The salts come from SHA-256 of a fixed string, so a rerun writes the same file. The costs stay small
(8 to 4096 KiB) so that the debug-build tests stay quick; they cover argon2id, argon2i and argon2d, 1 to
4 lanes, memory that is not a multiple of 4p, salts of 8 to 33 bytes, tags of 4 to 1024 bytes (over 64
bytes takes H''s long path), more than one address block per segment, version 0x10, and non-ASCII and
empty passwords.
"""
import hashlib
import os
from importlib.metadata import version

from argon2 import PasswordHasher
from argon2.low_level import Type, hash_secret

OUTPUT = "Tests/LatchServerTests/ImportedPasswords/Argon2CFFIVectors.swift"

# (password, type, version, memory KiB, passes, lanes, salt bytes, tag bytes)
LOW_LEVEL = [
    ("a", Type.ID, 19, 8, 1, 1, 8, 4),
    ("password", Type.ID, 19, 64, 2, 1, 16, 32),
    ("correct horse battery staple", Type.ID, 19, 256, 3, 2, 16, 32),
    ("Tr0ub4dor&3", Type.ID, 19, 4096, 1, 4, 16, 32),
    ("пароль", Type.ID, 19, 1024, 2, 3, 22, 64),
    ("日本語のパスワード", Type.ID, 19, 100, 1, 4, 33, 65),
    ("🔐 cafe\u0301 café", Type.ID, 19, 32, 4, 1, 16, 1024),
    ("", Type.I, 19, 8, 1, 1, 8, 16),
    ("Straße", Type.I, 19, 512, 3, 2, 16, 32),
    ("one lane, four address blocks a segment", Type.I, 19, 2048, 1, 1, 16, 32),
    ("argon2d", Type.D, 19, 64, 2, 2, 16, 32),
    ("ümlaut \"quoted\" \\ backslash", Type.D, 19, 1024, 1, 1, 12, 48),
    ("version 16, argon2id", Type.ID, 16, 256, 2, 2, 16, 32),
    ("version 16, argon2i", Type.I, 16, 128, 3, 1, 16, 32),
    ("version 16, argon2d", Type.D, 16, 64, 2, 1, 16, 32),
]

# (password, type, memory KiB, passes, lanes, salt bytes, tag bytes), through PasswordHasher.
HASHER = [
    ("hunter2", Type.ID, 1024, 2, 2, 16, 32),
    ("Ελληνικά", Type.I, 512, 2, 1, 16, 32),
]


def salt(index, length):
    """A fixed salt of `length` bytes for vector `index`."""
    return hashlib.sha256(f"latch argon2 vector {index}".encode()).digest()[:length]


def swift_literal(text):
    """`text` as a Swift string literal, non-ASCII written as \\u{…} so that the bytes are exact."""
    out = []
    for character in text:
        if character in '"\\':
            out.append("\\" + character)
        elif " " <= character <= "~":
            out.append(character)
        else:
            out.append("\\u{%X}" % ord(character))
    return '"' + "".join(out) + '"'


def swift_phc(phc):
    """`phc` as a Swift literal: on one line if short, else a multi-line literal with joined lines."""
    if len(phc) <= 104:
        return swift_literal(phc)
    chunks = [phc[start:start + 100] for start in range(0, len(phc), 100)]
    lines = ["\"\"\""] + ["            " + chunk + "\\" for chunk in chunks[:-1]]
    lines += ["            " + chunks[-1], "            \"\"\""]
    return "\n".join(lines)


vectors = []
for index, (password, kind, number, memory, passes, lanes, salt_length, tag_length) in enumerate(LOW_LEVEL):
    phc = hash_secret(password.encode(), salt(index, salt_length), passes, memory, lanes, tag_length, kind,
                      version=number).decode()
    vectors.append((password, phc))
for index, (password, kind, memory, passes, lanes, salt_length, tag_length) in enumerate(HASHER, len(LOW_LEVEL)):
    hasher = PasswordHasher(time_cost=passes, memory_cost=memory, parallelism=lanes, hash_len=tag_length,
                            salt_len=salt_length, type=kind)
    phc = hasher.hash(password, salt=salt(index, salt_length))
    assert hasher.verify(phc, password)
    vectors.append((password, phc))

lines = [
    "// Written by scripts/interop/argon2_vectors.py with argon2-cffi %s; rerun it rather than edit this file."
    % version("argon2-cffi"),
    "",
    "/// argon2 PHC strings made by Python's argon2-cffi (the reference implementation) for issue 45 §2.",
    "enum Argon2CFFIVectors {",
    "    /// Each password with the PHC string argon2-cffi made for it.",
    "    static let all: [(password: String, phc: String)] = [",
]
for password, phc in vectors:
    lines.append("        (")
    lines.append("            " + swift_literal(password) + ",")
    lines.append("            " + swift_phc(phc))
    lines.append("        ),")
lines[-1] = "        )"
lines += ["    ]", "}", ""]

os.makedirs(os.path.dirname(OUTPUT), exist_ok=True)
with open(OUTPUT, "w") as file:
    file.write("\n".join(lines))
print(f"wrote {len(vectors)} vectors to {OUTPUT}")
