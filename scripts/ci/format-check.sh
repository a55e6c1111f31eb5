#!/usr/bin/env bash
# The code follows .swift-format (4-space indentation, lines up to 120 columns; string literals may run
# longer): `swift format lint --strict` with the toolchain's swift-format fails on any difference.
# To fix: swift format -i -r -p Sources Tests Package.swift Fixtures scripts/fuzz
set -euo pipefail
cd "$(dirname "$0")/../.."
swift format lint --strict -r -p Sources Tests Package.swift Fixtures scripts/fuzz
