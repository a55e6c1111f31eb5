"""Turns the output of scripts/bench/ab.sh into docs/PERFORMANCE.md's same-run A/B table.

usage: python3 scripts/bench/ab_summary.py AB_OUTPUT.txt

For every benchmark of run.sh's table (/health, /v1/me, refresh with 8 and 32 clients, verifications
with 8 clients) it prints each round of A and B and B ÷ A over the sums of the rounds, then the
non-2xx counts, which must all be 0 for a valid run.
"""
import re
import sys

COLUMNS = [  # (label, column index in run.sh's table row)
    ("(a) `/health` req/s", 2),
    ("(a) `/v1/me` req/s", 3),
    ("(b) refresh/s, 8 clients", 5),
    ("(b) refresh/s, 32 clients", 6),
    ("(e) verifications/s, 8 clients (start, fund password, redeem)", 8),
]

runs = {"A": [], "B": []}
failures = []
side = None
for line in open(sys.argv[1]):
    header = re.match(r"=== round (\d+), ([AB]): (.*)", line)
    if header:
        side = header.group(2)
        continue
    if side and line.startswith("| sqlite-small"):
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        runs[side].append([float(cells[index]) for _, index in COLUMNS])
        failures.append(f"{side}: refresh {cells[7]}, verification {cells[9]}")
        side = None

rounds = min(len(runs["A"]), len(runs["B"]))
if rounds == 0:
    sys.exit("no complete A and B rounds found")
head = [f"A round {r + 1}" for r in range(rounds)] + [f"B round {r + 1}" for r in range(rounds)]
print("| | " + " | ".join(head) + " | B ÷ A (sums) |")
print("|---" * (len(head) + 2) + "|")
for column, (label, _) in enumerate(COLUMNS):
    a = [runs["A"][r][column] for r in range(rounds)]
    b = [runs["B"][r][column] for r in range(rounds)]
    ratio = sum(b) / sum(a) if sum(a) else float("nan")
    print(f"| {label} | " + " | ".join(f"{value:,.0f}" for value in a + b) + f" | **{ratio:.3f}** |")
print()
print("non-2xx per run: " + "; ".join(failures))
