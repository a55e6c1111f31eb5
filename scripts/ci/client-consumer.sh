#!/usr/bin/env bash
# Issue 11 §3: an app that adds Latch for LatchClient only (with `traits: []`) gets none of the
# server's packages. Copies Fixtures/ClientConsumer into a scratch folder with this repository beside
# it as `latch`, resolves, fails if any server package is in its dependency graph, then builds and
# runs it (so LatchClient compiles without them).
#
# usage: scripts/ci/client-consumer.sh
set -euo pipefail
repo="$(cd "$(dirname "$0")/../.." && pwd)"
work="$(mktemp -d /tmp/latch-consumer.XXXXXX)"
cp -r "$repo/Fixtures/ClientConsumer" "$work/app"
ln -s "$repo" "$work/latch"
cd "$work/app"
swift package resolve >/dev/null
swift package show-dependencies --format json >"$work/graph.json"
swift package show-dependencies
forbidden="vapor hummingbird hummingbird-auth swift-http-types swift-nio-extras fluent fluent-kit fluent-sqlite-driver fluent-postgres-driver sqlite-nio sqlite-kit postgres-nio postgres-kit sql-kit swift-nio swift-nio-ssl jwt-kit"
found=$(python3 - "$work/graph.json" $forbidden <<'PY'
import json, sys
graph = json.load(open(sys.argv[1]))
forbidden = set(sys.argv[2:])
seen = set()
def walk(node):
    seen.add(node["identity"])
    for child in node.get("dependencies", []):
        walk(child)
walk(graph)
print(" ".join(sorted(seen & forbidden)))
PY
)
if [ -n "$found" ]; then
  echo "client-consumer: FAIL: an app using LatchClient resolves server packages: $found" >&2
  exit 1
fi
echo "client-consumer: the dependency graph holds no server package"
swift build 2>&1 | tail -n 3
"$(swift build --show-bin-path)/ClientConsumer"
echo "client-consumer: LatchClient builds and runs without the server's dependencies"
