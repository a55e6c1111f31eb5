#!/usr/bin/env python3
"""Every module a target's Swift files import is declared as that target's own dependency (issue 22 §4).

  swift package dump-package > /tmp/package.json && python3 scripts/ci/check_imports.py /tmp/package.json

SwiftPM's `--explicit-target-dependency-import-check error` (also run by `.ci/run`) accepts a module
that arrives through another dependency (latchd importing LatchCore through LatchServer); this check
does not: each `import X` needs `X` among the target's own `dependencies` (a target by name or a
product; the products used here are named like their modules). The platform's modules (Foundation,
Glibc, Testing, SwiftUI …) need no declaration. Exit status 1 lists what is missing.
"""
import json
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PLATFORM = {
    "Foundation", "FoundationNetworking", "FoundationEssentials", "Glibc", "Musl", "Darwin", "Dispatch",
    "Synchronization", "Testing", "XCTest", "Observation", "SwiftUI", "UIKit", "AppKit", "Security",
    "LocalAuthentication", "AuthenticationServices", "Accessibility", "CryptoKit", "os", "Combine", "DeviceCheck",
}
# Modules a target may import through the product that brings them, each with why: they are no product of
# their own, so no target can declare them.
THROUGH = {
    # SQLiteNIO's own copy of SQLite (a target of sqlite-nio, not a product), for the prepared connections
    # of LatchServer/Support/PreparedSQLite.swift: the same copy as SQLiteNIO's, never a second SQLite in the
    # process (issue 44 §4). It arrives through FluentSQLiteDriver.
    ("LatchServer", "VaporCSQLite"): "FluentSQLiteDriver",
}
IMPORT = re.compile(r"^\s*(?:@testable\s+|@_spi\(\w+\)\s+|@preconcurrency\s+)*(?:public\s+|internal\s+|package\s+|private\s+|fileprivate\s+)?import\s+(?:(?:struct|class|enum|protocol|func|var|typealias)\s+)?([A-Za-z_][A-Za-z0-9_]*)", re.M)


def declared(target):
    names = set()
    for dependency in target["dependencies"]:
        kind, value = next(iter(dependency.items()))
        names.add(value[0])
    return names


def main():
    package = json.load(open(sys.argv[1]))
    missing = []
    for target in package["targets"]:
        if target["type"] not in ("regular", "executable", "test"):
            continue
        folder = target.get("path") or os.path.join("Tests" if target["type"] == "test" else "Sources", target["name"])
        own = declared(target) | {target["name"]}
        imports = {}
        for base, _, files in os.walk(os.path.join(ROOT, folder)):
            for name in files:
                if name.endswith(".swift"):
                    path = os.path.join(base, name)
                    for module in IMPORT.findall(open(path, encoding="utf-8").read()):
                        imports.setdefault(module, os.path.relpath(path, ROOT))
        for module, path in sorted(imports.items()):
            through = THROUGH.get((target["name"], module))
            if through and through in own:
                continue
            if module not in own and module not in PLATFORM:
                missing.append(f"{target['name']}: imports {module} ({path}) without declaring it")
    for line in missing:
        print(line)
    if not missing:
        print(f"every import is a declared dependency of its target ({len(package['targets'])} targets)")
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
