#!/usr/bin/env python3
"""Runs the runnable shell blocks of README.md and docs/*.md against a fresh development latchd
(issue 22 §9; issue 32 §1 moved most of them from the README into docs/).

  python3 scripts/ci/readme_blocks.py .build/debug/latchd [--list] [--only NAME]

A block is runnable when the line before its ```sh fence is `<!-- readme-test: NAME -->` (an HTML
comment: invisible on GitHub); `<!-- readme-test: NAME LATCH_X=value … -->` also gives that block's
latchd those variables (a value naming a file of the repository, such as a policy file, is read from
the repository's folder). Other blocks are prose and never run. The files are read in a fixed order,
README.md first, then docs/*.md sorted by name; a block's NAME is unique across them (`--only NAME`
runs that one), and every message names the block's file and line. For each runnable block, in
order, this script:

- starts a fresh development latchd (the binary given, SQLite in a new temporary folder, a free
  loopback port, everything else at its defaults) and waits for `GET /health`;
- runs the block with `bash -euo pipefail` in the repository's folder, with `LATCH_SERVER` (read by
  the documents' commands and by `latch`), `LATCH_PORT` and `LATCH_DATABASE_URL` of that latchd in the
  environment, so `latchd admin …` / `latchd keys …` in a block act on the same database; the demo
  folder `/tmp/latch-demo` the blocks use is emptied first;
- fails when any command of the block exits non-zero, or when the block's expectations are not met:
  each `# ⇒ TEXT` line says that TEXT appears in what the commands above it printed (stdout and
  stderr) since the previous expectation; consecutive `# ⇒` lines are found in that output in order.

Exit status 0 when every block passed, 1 otherwise (the failing block's output is printed).
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

from latchd_process import start_latchd, stop_latchd

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MARKER = re.compile(r"^<!--\s*readme-test:\s*([A-Za-z0-9_.-]+)((?:\s+LATCH_[A-Z0-9_]+=\S+)*)\s*-->\s*$")
EXPECT = re.compile(r"^\s*#\s*⇒\s?(.*)$")
DEMO = "/tmp/latch-demo"


def documents():
    """The files whose blocks run, in their fixed order: README.md, then docs/*.md by name."""
    docs = os.path.join(ROOT, "docs")
    names = sorted(n for n in os.listdir(docs) if n.endswith(".md")) if os.path.isdir(docs) else []
    return ["README.md"] + [os.path.join("docs", n) for n in names]


def blocks(document):
    """(name, "file:line" of the block's first line, text, latchd's extra variables) of every marked
    ```sh block of one document (a path relative to the repository)."""
    lines = open(os.path.join(ROOT, document), encoding="utf-8").read().split("\n")
    found = []
    for index, line in enumerate(lines):
        marker = MARKER.match(line)
        if not marker:
            continue
        if index + 1 >= len(lines) or not lines[index + 1].startswith("```sh"):
            sys.exit(f"{document}:{index + 1}: readme-test marker not followed by a ```sh block")
        end = next((j for j in range(index + 2, len(lines)) if lines[j].startswith("```")), None)
        if end is None:
            sys.exit(f"{document}:{index + 2}: block never closed")
        extra = dict(item.split("=", 1) for item in marker.group(2).split())
        for variable, value in extra.items():
            if os.path.exists(os.path.join(ROOT, value)):
                extra[variable] = os.path.join(ROOT, value)
        found.append((marker.group(1), f"{document}:{index + 3}", "\n".join(lines[index + 2:end]), extra))
    return found


def all_blocks():
    """The blocks of every document, in order; a name used twice stops the run (`--only` needs one)."""
    found, seen = [], {}
    for document in documents():
        for block in blocks(document):
            name, where = block[0], block[1]
            if name in seen:
                sys.exit(f"{where}: block name '{name}' is already used at {seen[name]}")
            seen[name] = where
            found.append(block)
    return found


def expectations(text):
    """The block split at its `# ⇒` lines: [(commands, [expected texts])]; consecutive `# ⇒` lines
    are all about the output of the commands above them, in order."""
    steps, current = [], []
    for line in text.split("\n"):
        expect = EXPECT.match(line)
        if expect and steps and not "".join(current).strip() and steps[-1][1]:
            steps[-1][1].append(expect.group(1).strip())
        elif expect:
            steps.append(("\n".join(current), [expect.group(1).strip()]))
            current = []
        else:
            current.append(line)
    steps.append(("\n".join(current), []))
    return steps


def run_block(name, where, text, extra, binary):
    folder = tempfile.mkdtemp(prefix=f"latch-readme-{name}-")
    shutil.rmtree(DEMO, ignore_errors=True)
    process, port, server_env = start_latchd(binary, folder, extra)
    env = dict(os.environ)
    for variable in [k for k in env if k.startswith("LATCH_")]:
        del env[variable]
    env.update(LATCH_SERVER=f"http://127.0.0.1:{port}", LATCH_PORT=str(port),
               LATCH_DATABASE_URL=server_env["LATCH_DATABASE_URL"])
    # The expectations become markers in the output, so each is checked against what its own
    # commands printed: echo is a builtin and cannot fail.
    script = []
    steps = expectations(text)
    for number, (commands, expected) in enumerate(steps):
        script.append(commands)
        if expected:
            script.append(f"echo '@@readme-expect {number}@@'")
    started = time.time()
    try:
        result = subprocess.run(["bash", "-euo", "pipefail", "-c", "\n".join(script)], cwd=ROOT, env=env,
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=1800)
        output = result.stdout.decode("utf-8", "replace")
    finally:
        stop_latchd(process, timeout=30)
    took = time.time() - started
    failures = []
    if result.returncode != 0:
        failures.append(f"a command exited with status {result.returncode}")
    rest = output
    for number, (_, expected) in enumerate(steps):
        if not expected:
            continue
        marker = f"@@readme-expect {number}@@"
        if marker not in rest:
            failures.append(f"never reached the expectation «{expected[0]}»")
            break
        printed, rest = rest.split(marker, 1)
        unread = printed
        for text in expected:
            if text not in unread:
                failures.append(f"expected «{text}» in:\n{printed.strip()}")
                break
            unread = unread.split(text, 1)[1]
    shown = re.sub(r"@@readme-expect \d+@@\n?", "", output)
    if failures:
        print(f"--- block '{name}' ({where}) FAILED after {took:.0f} s")
        print(shown)
        for failure in failures:
            print("FAILED: " + failure)
        print("latchd's log: " + os.path.join(folder, "latchd.log"))
        return False
    checked = sum(len(expected) for _, expected in steps)
    print(f"--- block '{name}' ({where}): ok, {checked} answers checked, {took:.0f} s")
    shutil.rmtree(folder, ignore_errors=True)
    return True


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("latchd", nargs="?", default=os.path.join(ROOT, ".build/debug/latchd"))
    parser.add_argument("--list", action="store_true", help="list the runnable blocks and exit")
    parser.add_argument("--only", help="run only the block of this name")
    args = parser.parse_args()
    found = all_blocks()
    if args.list:
        for name, where, text, _ in found:
            print(f"{name} ({where}, {len(text.splitlines())} lines)")
        return 0
    if not found:
        print("no runnable blocks found in README.md or docs/*.md (<!-- readme-test: NAME --> before a ```sh fence)")
        return 1
    selected = [b for b in found if args.only in (None, b[0])]
    if not selected:
        print(f"no block named {args.only} in README.md or docs/*.md")
        return 1
    binary = os.path.abspath(args.latchd)
    passed = [run_block(name, where, text, extra, binary) for name, where, text, extra in selected]
    return 0 if all(passed) else 1


if __name__ == "__main__":
    sys.exit(main())
