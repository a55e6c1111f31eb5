#!/usr/bin/env bash
# Prints a PATH like this machine's, minus every python and the openssl command: what `swift test`
# sees on a machine with only the Swift toolchain (issue 22 §7). Each directory of PATH is mirrored
# by symlinks into a temporary folder, leaving out python*, pip* and openssl.
#   PATH="$(bash scripts/ci/swift-only-path.sh)" swift test
set -euo pipefail
mirror="$(mktemp -d "${TMPDIR:-/tmp}/latch-swift-only-path.XXXXXX")"
result=""
index=0
IFS=: read -r -a directories <<< "$PATH"
for directory in "${directories[@]}"; do
    [ -d "$directory" ] || continue
    index=$((index + 1))
    target="$mirror/$index"
    mkdir -p "$target"
    for tool in "$directory"/*; do
        name="$(basename "$tool")"
        case "$name" in python* | pip* | openssl) continue ;; esac
        [ -x "$tool" ] && [ ! -d "$tool" ] && ln -sf "$tool" "$target/$name"
    done
    result="${result:+$result:}$target"
done
if PATH="$result" command -v python3 >/dev/null || PATH="$result" command -v openssl >/dev/null; then
    echo "swift-only-path: python3 or openssl still found" >&2
    exit 1
fi
PATH="$result" command -v swift >/dev/null || { echo "swift-only-path: swift not found" >&2; exit 1; }
echo "$result"
