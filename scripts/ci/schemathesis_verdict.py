"""Reads one Schemathesis run of `scripts/ci/schemathesis.sh` and decides whether it passed.

    python3 schemathesis_verdict.py REPORT_DIR OPENAPI_JSON LATCHD_ALIVE SCHEMATHESIS_STATUS

REPORT_DIR holds the NDJSON report (`--report ndjson`) and `auth.json` (what the auth hook did);
OPENAPI_JSON is the document latchd served; LATCHD_ALIVE is 1 when latchd survived the run.

Prints, for every documented operation, how many answers of each status it got (so a reader sees
which operations were really exercised), then every finding. Exit status 0 only when:
- Schemathesis finished its run, with no network or internal error, and latchd is still alive;
- no check failed (every check of `--checks all` counts: server errors, status codes, content types,
  headers, response schemas, negative data accepted, positive data rejected, auth, …), and no answer was 5xx;
- each of REQUIRED_CHECKS (among them `status_code_conformance` and `response_schema_conformance`) judged
  at least one answer;
- the auth hook signed a user up, and every bearer-protected operation got at least one answer other
  than 401 and 403 (otherwise it was not fuzzed at all).
Exit status 1 on a finding, 2 when the run did not happen.
"""

from __future__ import annotations

import base64
import collections
import glob
import json
import sys
from typing import Any

HTTP_METHODS = ("get", "put", "post", "delete", "patch", "options", "head", "trace")
# Checks that must have judged answers in every run (issue 14 §6): a change of `--checks`, of
# schemathesis.toml or of Schemathesis itself that stops one of them running is a finding, not a
# silently weaker run. Their failures are findings like every other check's.
REQUIRED_CHECKS = ("not_a_server_error", "status_code_conformance", "response_schema_conformance", "content_type_conformance")


def decoded(content: Any) -> str:
    if isinstance(content, dict) and "$base64" in content:
        return base64.b64decode(content["$base64"]).decode("utf-8", "replace")
    return "" if content is None else str(content)


def documented_operations(document: dict[str, Any]) -> dict[str, bool]:
    """`METHOD /path` → whether the operation needs the bearer token."""
    default_security = document.get("security", [])
    operations = {}
    for path, item in document.get("paths", {}).items():
        for method, operation in item.items():
            if method not in HTTP_METHODS:
                continue
            security = operation.get("security", default_security)
            operations[f"{method.upper()} {path}"] = any("bearerAuth" in requirement for requirement in security)
    return operations


def main() -> int:
    report_dir, document_path, alive, status = sys.argv[1], sys.argv[2], sys.argv[3] == "1", int(sys.argv[4])
    files = glob.glob(f"{report_dir}/*.ndjson")
    if not files:
        print(f"schemathesis wrote no report (exit status {status}): it did not run", file=sys.stderr)
        return 2
    with open(document_path, encoding="utf-8") as file:
        operations = documented_operations(json.load(file))

    statuses: dict[str, collections.Counter[str]] = collections.defaultdict(collections.Counter)
    undocumented_methods: collections.Counter[int] = collections.Counter()
    findings: dict[tuple[str, str, str], str] = {}
    judged: collections.Counter[str] = collections.Counter()
    server_errors: list[str] = []
    run_errors: list[str] = []
    finished = False

    for line in open(files[0], encoding="utf-8"):
        event = json.loads(line)
        if "EngineFinished" in event:
            finished = True
        for kind in ("NonFatalError", "FatalError"):
            if kind in event:
                run_errors.append(f"{kind}: {json.dumps(event[kind])[:600]}")
        scenario = event.get("ScenarioFinished")
        if not scenario:
            continue
        recorder = scenario.get("recorder", {})
        cases = recorder.get("cases", {})
        interactions = recorder.get("interactions", {})
        for case_id, interaction in interactions.items():
            case = cases.get(case_id, {}).get("value", {})
            request, response = interaction.get("request", {}), interaction.get("response")
            label = f"{case.get('method', request.get('method'))} {case.get('path', '?')}"
            code = response.get("status_code", 0) if response else 0
            if label in operations:
                statuses[label][str(code) if response else "no answer"] += 1
            else:
                undocumented_methods[code] += 1
            if code >= 500 or not response:
                server_errors.append(
                    f"{request.get('method')} {request.get('uri')} -> {code or 'no answer'}\n"
                    f"      request body: {decoded(request.get('body'))[:300]}\n"
                    f"      answer: {decoded(response.get('content') if response else None)[:300]}")
        for case_id, checks in recorder.get("checks", {}).items():
            for check in checks:
                judged[check.get("name", "?")] += 1
                if check.get("status") != "failure":
                    continue
                case = cases.get(case_id, {}).get("value", {})
                label = f"{case.get('method', '?')} {case.get('path', '?')}"
                failure = check.get("failure_info") or {}
                failure_obj = failure.get("failure", {}) if isinstance(failure, dict) else {}
                title = failure_obj.get("title") or check.get("name")
                key = (check.get("name", "?"), label, str(title))
                if key in findings:
                    continue
                interaction = interactions.get(case_id, {})
                request, response = interaction.get("request", {}), interaction.get("response") or {}
                findings[key] = (
                    f"[{check.get('name')}] {label}: {title}\n"
                    f"      {failure_obj.get('message', '').strip()[:400].replace(chr(10), chr(10) + '      ')}\n"
                    f"      sent: {request.get('method')} {request.get('uri')} body {decoded(request.get('body'))[:300]}\n"
                    f"      answer: {response.get('status_code')} {decoded(response.get('content'))[:300]}\n"
                    f"      case {case_id}, phase {scenario.get('phase')}; headers sent: {json.dumps(request.get('headers', {}))[:300]}")

    print("\nAnswers per documented operation (status: count; * = bearer-protected):")
    unexercised = []
    for label in sorted(operations, key=lambda name: (name.split(" ", 1)[1], name)):
        counts = statuses.get(label, collections.Counter())
        shown = " ".join(f"{code}:{count}" for code, count in sorted(counts.items()))
        print(f"  {'*' if operations[label] else ' '} {label:45s} {shown or 'never called'}")
        if operations[label] and not any(code not in ("401", "403") for code in counts):
            unexercised.append(label)
    print(f"  (undocumented methods on documented paths: "
          f"{' '.join(f'{code}:{count}' for code, count in sorted(undocumented_methods.items()))})")

    auth: dict[str, Any] = {}
    try:
        with open(f"{report_dir}/auth.json", encoding="utf-8") as file:
            auth = json.load(file)
    except (OSError, ValueError):
        pass
    print(f"\nAuth hook: {auth or 'wrote no statistics'}")

    problems = []
    if not finished:
        problems.append("schemathesis did not finish its run")
    if not alive:
        problems.append("latchd died during the run")
    if not auth.get("sign_ups"):
        problems.append("the auth hook never signed a user up: the bearer-protected operations were not fuzzed")
    for name in REQUIRED_CHECKS:
        if not judged[name]:
            problems.append(f"the check {name} never ran: its findings could not fail the run")
    for label in unexercised:
        problems.append(f"{label} only ever answered 401/403: it was not fuzzed")
    problems += [f"schemathesis error (a lost connection, or a document or hook it could not use): {error}" for error in run_errors]
    problems += [f"server error: {error}" for error in server_errors]
    problems += list(findings.values())

    if problems:
        print(f"\nFINDINGS ({len(problems)}):")
        for problem in problems:
            print("  " + problem)
        return 1 if finished else 2
    print(f"\nNo findings: every check passed on {sum(sum(c.values()) for c in statuses.values())} answers "
          f"(schemathesis exit status {status}); judged: "
          f"{', '.join(f'{name} {judged[name]}' for name in REQUIRED_CHECKS)}.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
