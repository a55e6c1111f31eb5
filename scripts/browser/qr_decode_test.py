#!/usr/bin/env python3
"""The account page's hand-written QR encoder (Sources/LatchServer/AccountPage/Static/qr.js, issue 43 §3)
read back by a real decoder: ZBar's zbarimg (Debian's zbar-tools), an independent implementation.

    python3 scripts/browser/qr_decode_test.py [.build/debug/latchd]

node (Debian's nodejs) runs qr.js's pure `qrMatrix` for each text; this script writes each matrix as a
PNG (4 pixels a module, the quiet zone of 4 modules) and zbarimg must decode exactly the text's UTF-8
bytes (non-ASCII texts carry the UTF-8 ECI, which zbarimg honours). The texts: every length from 1 to 200 (ASCII, and with non-ASCII characters), longer ones up to
version 40, each of the eight masks forced on a few texts, and, when a latchd is given, real `qr_url`s
from its `POST /v1/approvals`. Also checks the version chosen is the smallest at level M (the
standard's capacity table, byte mode), and, where Debian's qrencode is installed, that for ASCII texts
with libqrencode's mask forced qr.js draws exactly libqrencode's symbol, module for module.
Prints 'N passed, N failed'.
"""
import json
import os
import pathlib
import random
import shutil
import socket
import struct
import subprocess
import sys
import tempfile
import time
import urllib.request
import zlib
from concurrent.futures import ThreadPoolExecutor

REPO = pathlib.Path(__file__).resolve().parents[2]
QR_JS = REPO / "Sources/LatchServer/AccountPage/Static/qr.js"

# ISO/IEC 18004 Table 7: byte-mode capacity at level M, versions 1–40.
CAPACITY_M = [14, 26, 42, 62, 84, 106, 122, 152, 180, 213, 251, 287, 331, 362, 412, 450, 504, 560, 624, 666,
              711, 779, 857, 911, 997, 1059, 1125, 1190, 1264, 1370, 1452, 1538, 1628, 1722, 1809, 1911, 1989,
              2099, 2213, 2331]

def qrencode(text):
    """libqrencode's symbol for ASCII `text` (Debian's qrencode, 8-bit mode, level M): rows of "0"/"1"."""
    run = subprocess.run(["qrencode", "-t", "ASCII", "-l", "M", "-8", "-m", "0", "-o", "-", "--", text],
                         capture_output=True, text=True, timeout=60, check=True)
    return ["".join("1" if line[i] == "#" else "0" for i in range(0, len(line), 2)) for line in run.stdout.split("\n") if line]


def format_mask(rows):
    """The mask number in a symbol's format information (the copy around the top-left finder)."""
    coords = [(8, i) for i in range(6)] + [(8, 7), (8, 8), (7, 8)] + [(14 - i, 8) for i in range(9, 15)]
    bits = sum(int(rows[y][x]) << i for i, (x, y) in enumerate(coords)) ^ 0x5412
    return (bits >> 10) & 7


RUNNER = """
import { qrMatrix } from "./qr.mjs";
let input = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => { input += chunk; });
process.stdin.on("end", () => {
  const out = JSON.parse(input).map(({ text, mask }) => {
    const m = qrMatrix(text, mask === null ? {} : { mask });
    return { version: m.version, mask: m.mask, size: m.size, rows: m.dark.map((r) => r.map((d) => (d ? "1" : "0")).join("")) };
  });
  process.stdout.write(JSON.stringify(out));
});
"""


def png(rows, path, scale=4, quiet=4):
    """A grayscale PNG of `rows` ("1" dark), `scale` pixels a module, `quiet` light modules around."""
    size = len(rows) + 2 * quiet
    width = size * scale
    raw = bytearray()
    for y in range(size):
        line = bytearray()
        for x in range(size):
            my, mx = y - quiet, x - quiet
            dark = 0 <= my < len(rows) and 0 <= mx < len(rows) and rows[my][mx] == "1"
            line += bytes([0 if dark else 255]) * scale
        for _ in range(scale):
            raw += b"\x00" + line

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, width, 8, 0, 0, 0, 0))
                + chunk(b"IDAT", zlib.compress(bytes(raw), 6)) + chunk(b"IEND", b""))


def zbar(path):
    """The bytes zbarimg decodes from the image at `path` (its one QR code), or None."""
    run = subprocess.run(["zbarimg", "-q", "--raw", "--nodbus", "-Sdisable", "-Sqrcode.enable", str(path)],
                         capture_output=True, timeout=60)
    if run.returncode != 0:
        return None
    return run.stdout[:-1] if run.stdout.endswith(b"\n") else run.stdout


def matrices(cases, workdir):
    shutil.copy(QR_JS, os.path.join(workdir, "qr.mjs"))
    runner = os.path.join(workdir, "runner.mjs")
    with open(runner, "w") as f:
        f.write(RUNNER)
    node = shutil.which("node") or shutil.which("nodejs")
    if not node:
        raise SystemExit("node is not installed (Debian: apt-get install nodejs)")
    run = subprocess.run([node, runner], input=json.dumps([{"text": t, "mask": m} for t, m in cases]).encode(),
                         capture_output=True, timeout=600, check=True)
    return json.loads(run.stdout)


def real_qr_urls(latchd, count=5):
    """`qr_url`s from a development latchd's `POST /v1/approvals`."""
    workdir = tempfile.mkdtemp(prefix="latch-qr.")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = {k: v for k, v in os.environ.items() if not k.startswith("LATCH_")}
    env.update(LATCH_ENV="development", LATCH_HOST="127.0.0.1", LATCH_PORT=str(port),
               LATCH_ISSUER="https://auth.latch.example", LATCH_RATE_LIMIT_SCALE="10")
    log = open(os.path.join(workdir, "latchd.log"), "w")
    process = subprocess.Popen([latchd], cwd=workdir, env=env, stdout=log, stderr=subprocess.STDOUT)
    try:
        deadline = time.time() + 60
        while True:
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=1).read()
                break
            except OSError:
                if time.time() > deadline or process.poll() is not None:
                    raise RuntimeError("latchd did not start:\n" + open(log.name).read())
                time.sleep(0.1)
        urls = []
        for i in range(count):
            body = json.dumps({"kind": "sign_in", "client": {"name": "Chromium", "platform": "web"},
                               "device": {"id": f"web-qr-test-{i}", "name": "Web browser"}}).encode()
            request = urllib.request.Request(f"http://127.0.0.1:{port}/v1/approvals", data=body, method="POST",
                                             headers={"Content-Type": "application/json"})
            with urllib.request.urlopen(request, timeout=10) as response:
                urls.append(json.loads(response.read())["qr_url"])
        return urls
    finally:
        process.terminate()
        process.wait(timeout=10)
        log.close()
        shutil.rmtree(workdir, ignore_errors=True)


def main():
    random.seed(43)
    alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~:/?#[]@!$&'()*+,;=% "
    cases = []
    for length in range(1, 201):
        cases.append(("".join(random.choice(alphabet) for _ in range(length)), None))
    for length in range(1, 201, 7):
        cases.append(("".join(random.choice(alphabet + "登录手机扫码é€") for _ in range(length)), None))
    for length in (250, 300, 400, 500, 700, 1000, 1500, 2000, 2331):
        cases.append(("".join(random.choice(alphabet) for _ in range(length)), None))
    for mask in range(8):
        for length in (5, 60, 130, 200):
            cases.append(("".join(random.choice(alphabet) for _ in range(length)), mask))
    # Against libqrencode: ASCII texts, each with the mask libqrencode chose forced (masks are chosen by
    # penalty scores whose details differ between encoders); the symbols must be the same module for module.
    if shutil.which("qrencode"):
        compared = [("".join(random.choice(alphabet.strip()) for _ in range(length)), None) for length in range(3, 301, 9)]
        for text, _ in compared:
            cases.append((text, format_mask(qrencode(text))))
    else:
        compared = []
        print("qrencode not installed: the module-for-module comparison with libqrencode is left out")
    if len(sys.argv) > 1:
        cases += [(url, None) for url in real_qr_urls(os.path.abspath(sys.argv[1]))]
        print(f"real qr_urls from latchd: {[c[0] for c in cases[-5:]]}")

    workdir = tempfile.mkdtemp(prefix="latch-qr-decode.")
    passed, failures = 0, []
    try:
        results = matrices(cases, workdir)
        compared_texts = {text for text, _ in compared}

        def check(index):
            (text, mask), result = cases[index], results[index]
            problems = []
            length = len(text.encode())
            # Non-ASCII text carries the UTF-8 ECI (12 bits): at most one version more than the table's.
            smallest = next(v for v, capacity in enumerate(CAPACITY_M, 1) if capacity >= length)
            eci = any(ord(c) > 127 for c in text)
            if result["version"] != smallest and not (eci and result["version"] == smallest + 1):
                problems.append(f"version {result['version']}, the smallest holding {length} bytes is {smallest}")
            if result["size"] != 17 + 4 * result["version"] or len(result["rows"]) != result["size"]:
                problems.append(f"size {result['size']} for version {result['version']}")
            if mask is not None and result["mask"] != mask:
                problems.append(f"mask {result['mask']} instead of the forced {mask}")
            if mask is not None and shutil.which("qrencode") and text in compared_texts:
                if result["rows"] != qrencode(text):
                    problems.append("not the same symbol as libqrencode's with the same mask")
            path = os.path.join(workdir, f"{index}.png")
            png(result["rows"], path)
            decoded = zbar(path)
            if decoded != text.encode():
                problems.append(f"zbarimg read {decoded!r}")
            return index, problems

        with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
            for index, problems in pool.map(check, range(len(cases))):
                if problems:
                    text, mask = cases[index]
                    failures.append(f"text of {len(text.encode())} bytes (mask {mask}): {'; '.join(problems)}")
                else:
                    passed += 1
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    versions = sorted({r["version"] for r in results})
    masks = sorted({r["mask"] for r in results})
    print(f"versions covered: {versions}; masks used: {masks}")
    for failure in failures:
        print("FAIL " + failure)
    print(f"{passed} passed, {len(failures)} failed")
    sys.exit(0 if not failures and passed > 0 else 1)


if __name__ == "__main__":
    main()
