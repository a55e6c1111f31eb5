#!/usr/bin/env python3
"""One name scheme for the Swift Testing tests under Tests/ (issue 44 §5).

    python3 scripts/ci/test_names.py                 # the check: exit 1, listing each offence
    python3 scripts/ci/test_names.py --self-test     # the checker's own checks (good names pass, bad fail)
    python3 scripts/ci/test_names.py --write-legacy  # rewrite the frozen legacy list (once; it only shrinks)

A test is a `func` whose attribute block holds `@Test` (also `@Test(` spread over several lines,
and with other attributes or modifiers, such as `@available(…)` or `@MainActor`, around it). Its
function name must be

    <id>_<rule>

`<rule>` says what the test proves, in lowerCamelCase: `[a-z][A-Za-z0-9]*` (a lowercase letter
first, then letters and digits; no underscore). `<id>` is what the test proves it for, one of:

1. Requirement IDs, one or more joined by `_`, each optionally followed by numeric sections
   `_<digits>`: `C8_…`, `A11_…`, `CW_023_…`, `A3_FR_023_03_4_…`, `S8_01_…`. Only IDs that
   docs/REQUIREMENTS.md defines count: the first cell of a row of its tables (A1…A11, B1…B7,
   C1…C12, D1…D3) and the IDs and ranges written in bold in its lists (`**CW-023**`,
   `**FR-023-01 … FR-023-06**`, `**S8_01 … S8_15**`, `**S9_01 … S9_07**`). A `-` of an ID is
   written `_` in a function name. A word shaped like an ID (`[A-Z]{1,3}-?[A-Z]?[0-9]+[a-z]?`)
   that the document does not define (`C13_…`, `E7_…`) breaks the scheme: add its row first.
2. A section of seed 004 that the table "Seed 004 sections cited by tests" of docs/REQUIREMENTS.md
   lists: `seed_<N>_` or `seed_<N>_<M>_` for §N or §N.M (`seed_6_2_…`).
3. An issue: `test_<N>_` (the issue as a whole), `test_<N>_<S>_` (its section §S), `test_I<N>_` or
   `I<N>_`; N a number without a leading zero (`test_42_4_setVerifies`, `test_I14_…`, `I11_…`).
   Issue numbers are not looked up: issues are numbered elsewhere and new ones get tests before
   REQUIREMENTS.md gets their row.

Decisions for spellings in use when the scheme came in (they are legacy, not new forms):

- `review_<N>_…` cites item §N of issue 20, the security review (REQUIREMENTS.md's row "Issue 20"
  names the items §1–§10); it is not a form of its own because the scheme already spells that
  `test_20_<N>_…`, which scripts/docs/requirements_index.py also files under issue 20.
- A language variant (`…_en`, `…_zhHans`) is not a suffix of the scheme: one test with
  `arguments:` over the languages, or the language in the rule (`wrongPasswordInEnglish`).
- `issue11_…`, `test_P1_…` / `EX1_…` / `E1_…` / `DPoP41_…` (issue 41's finding labels: write
  `test_41_<section>_…`), `J4_A1_A2_…` (journey numbers), `AUTH_003_…` (error codes), `Mail_…`,
  `Config_…`, `step1_…`, a bare `goodAttestation`, and a rule starting with a digit or a capital.

The legacy list, scripts/ci/test_names_legacy.txt, freezes the tests that broke the scheme when it
came in: one `Tests/relative/path.swift:functionName` per line, sorted. The check fails when

- a test not on the list breaks the scheme (a new test, or one renamed or moved), or
- an entry of the list no longer names an existing test with that name in that file (so the list
  only shrinks: a touched test renamed to the scheme must leave the list in the same change).

`--write-legacy` rewrites the list from the tree; it is for the list's one-time creation (and, by
hand review, for removing entries), never for adding names: it warns when the list would grow.
"""
import os
import re
import sys
from collections import Counter

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
TESTS = os.path.join(ROOT, "Tests")
REQUIREMENTS = os.path.join(ROOT, "docs", "REQUIREMENTS.md")
LEGACY = os.path.join(ROOT, "scripts", "ci", "test_names_legacy.txt")

SCHEME = """The test name scheme (issue 44 §5; scripts/ci/test_names.py explains it in full):

    <id>_<rule>

  <rule>  lowerCamelCase, [a-z][A-Za-z0-9]*: what the test proves (no underscore).
  <id>    one of
          - requirement IDs of docs/REQUIREMENTS.md, joined by _, each with optional _<digits>
            sections, a '-' written '_':  C8_…, CW_023_…, A3_FR_023_03_4_…, S8_01_…
          - a seed 004 section listed in docs/REQUIREMENTS.md:  seed_6_2_…, seed_9_…
          - an issue:  test_<N>_…, test_<N>_<section>_…, test_I<N>_…, I<N>_…
            (issue 20's review items: test_20_<item>_…, not review_<item>_…)

  e.g. C8_newDeviceChallengedByEmail, test_42_4_setVerifies, test_I14_everyWireTypeHasASample"""

ID_SHAPE = r"[A-Z]{1,3}-?[A-Z]?[0-9]+[a-z]?"
RULE = r"[a-z][A-Za-z0-9]*"
ISSUE_NUMBER = r"[1-9][0-9]*"
ISSUE_ID = (r"(?:test_" + ISSUE_NUMBER + r"(?:_[0-9]+)?"
            r"|test_I" + ISSUE_NUMBER +
            r"|I" + ISSUE_NUMBER + r")")


# ---------------------------------------------------------------------------------------------
# The known IDs, from docs/REQUIREMENTS.md

def _expand(item):
    """`A1–A11` → A1 … A11, `S8_01 … S8_15` → S8_01 … S8_15 (zero-padded alike), `CW-023` → itself."""
    item = item.strip()
    parts = re.split(r"\s*(?:–|—|…|\.\.\.)\s*", item)
    if len(parts) == 1:
        return [item] if re.fullmatch(r"[A-Z][A-Z0-9_-]*[0-9][a-z]?", item) else []
    if len(parts) != 2:
        return []
    first = re.fullmatch(r"([A-Z][A-Z0-9_-]*?)([0-9]+)", parts[0])
    last = re.fullmatch(r"([A-Z][A-Z0-9_-]*?)([0-9]+)", parts[1])
    if not first or not last or first.group(1) != last.group(1):
        return []
    width = len(first.group(2)) if first.group(2).startswith("0") else 0
    low, high = int(first.group(2)), int(last.group(2))
    if high < low or high - low > 200:
        return []
    return [first.group(1) + str(n).zfill(width) for n in range(low, high + 1)]


def known_ids(text):
    """(requirement IDs as written in function names, seed sections as `seed_N[_M]`)."""
    ids = set()
    seeds = set()
    section = ""
    for line in text.split("\n"):
        if line.startswith("#"):
            section = line
            continue
        cell = re.match(r"\|\s*([^|]*?)\s*\|", line)
        if cell and not re.fullmatch(r"-+|ID|Section", cell.group(1)):
            if re.fullmatch(ID_SHAPE, cell.group(1)):
                ids.add(cell.group(1))
            if "Seed 004 sections" in section:
                for number in re.findall(r"§([0-9]+(?:\.[0-9]+)*)", cell.group(1)):
                    seeds.add("seed_" + number.replace(".", "_"))
        if "Test index" in section:
            continue  # the generated index restates names; it defines nothing
        for bold in re.findall(r"\*\*([^*]+)\*\*", line):
            for item in bold.split(","):
                ids.update(_expand(item))
    return {i.replace("-", "_") for i in ids}, seeds


# ---------------------------------------------------------------------------------------------
# The scheme

class Scheme:
    def __init__(self, requirement_ids, seed_sections):
        self.requirement_ids = set(requirement_ids)
        self.seed_sections = set(seed_sections)
        # Longest first, so that S8_01 is tried before a shorter ID that is its prefix.
        alternatives = "|".join(re.escape(i) for i in sorted(self.requirement_ids, key=lambda i: (-len(i), i)))
        requirement = r"(?:" + alternatives + r")(?:_[0-9]+)*" if alternatives else r"(?!x)x"
        seeds = "|".join(re.escape(s) for s in sorted(self.seed_sections, key=lambda s: (-len(s), s)))
        seed = r"(?:" + seeds + r")" if seeds else r"(?!x)x"
        self.pattern = re.compile(
            r"(?:" + ISSUE_ID + r"|" + seed + r"|" + requirement + r"(?:_" + requirement + r")*)_" + RULE)

    def follows(self, name):
        return self.pattern.fullmatch(name) is not None

    def why_not(self, name):
        """A short reason a name breaks the scheme ("" when it follows it)."""
        if self.follows(name):
            return ""
        if "_" not in name:
            return "no <id>_ prefix"
        head = name.split("_")[0]
        if head == "review":
            return "issue 20's review items are written test_20_<item>_…"
        if re.fullmatch(r"issue_?[0-9]+", head) or head == "issue":
            return "an issue is written test_<N>_…, test_<N>_<section>_… or I<N>_…"
        issue = re.match(ISSUE_ID + "_", name)
        seed = re.match(r"seed_[0-9]+(?:_[0-9]+)?_", name)
        if issue:
            rest = name[issue.end():]
        elif seed:
            known = [s for s in self.seed_sections if name.startswith(s + "_")]
            if not known:
                return (seed.group(0)[:-1] + " is not a section of the table 'Seed 004 sections cited by "
                        "tests' in docs/REQUIREMENTS.md")
            rest = name[len(max(known, key=len)) + 1:]
        else:
            position = 0
            while True:
                known = [i for i in self.requirement_ids if name.startswith(i + "_", position)]
                if not known:
                    break
                position += len(max(known, key=len)) + 1
                sections = re.match(r"(?:[0-9]+_)*", name[position:])
                position += sections.end()
            if position == 0:
                if re.fullmatch(ID_SHAPE, head):
                    return head + " is not a requirement ID of docs/REQUIREMENTS.md (add its row first)"
                if head == "test":
                    return "test_ is followed by an issue number: test_<N>_…, test_<N>_<section>_…, test_I<N>_…"
                return f"{head}_ is not a requirement ID, seed section or issue"
            rest = name[position:]
        if not rest:
            return "no <rule> after the <id>"
        first = rest.split("_")[0]
        if "_" in rest and re.fullmatch(ID_SHAPE, first) and first not in self.requirement_ids:
            return first + " is not a requirement ID of docs/REQUIREMENTS.md (add its row first)"
        if not re.match(r"[a-z]", rest):
            return f"the <rule> '{rest}' must start with a lowercase letter"
        return f"the <rule> '{rest}' must be lowerCamelCase, without _"


def load_scheme():
    with open(REQUIREMENTS, encoding="utf-8") as handle:
        ids, seeds = known_ids(handle.read())
    return Scheme(ids, seeds)


# ---------------------------------------------------------------------------------------------
# Finding the tests: comments, string literals and regex literals are blanked, then the
# declarations are read token by token.

def _skip_string(text, start):
    """`text[start]` opens a string literal (after any `#`s); return the index after it."""
    hashes = 0
    i = start
    while text[i] == "#":
        hashes += 1
        i += 1
    multiline = text.startswith('"""', i)
    i += 3 if multiline else 1
    close = ('"""' if multiline else '"') + "#" * hashes
    escape = "\\" + "#" * hashes
    n = len(text)
    while i < n:
        if text.startswith(escape, i):
            j = i + len(escape)
            if j < n and text[j] == "(":
                i = _skip_code(text, j + 1, ")")  # an interpolation: code up to its `)`
            else:
                i = j + 1
            continue
        if text.startswith(close, i):
            return i + len(close)
        if not multiline and text[i] == "\n":
            return i  # unterminated: stop at the line's end
        i += 1
    return n


def _skip_block_comment(text, i):
    depth = 0
    n = len(text)
    while i < n:
        if text.startswith("/*", i):
            depth += 1
            i += 2
        elif text.startswith("*/", i):
            depth -= 1
            i += 2
            if depth == 0:
                return i
        else:
            i += 1
    return n


def _literal_end(text, i):
    """If a comment, string or extended regex literal starts at i, the index after it; else None."""
    if text.startswith("//", i):
        end = text.find("\n", i)
        return len(text) if end < 0 else end
    if text.startswith("/*", i):
        return _skip_block_comment(text, i)
    if re.match(r'#*"', text[i:i + 20]):  # "…", """…""", #"…"# (raw)
        return _skip_string(text, i)
    match = re.match(r"(#+)/", text[i:i + 20])
    if match:  # #/…/# regex literal
        close = "/" + match.group(1)
        end = text.find(close, i + len(match.group(0)))
        return len(text) if end < 0 else end + len(close)
    return None


_LITERAL_START = re.compile(r'[/"#]')
_CODE_STOP = re.compile(r'[/"#()\[\]{}]')


def _skip_code(text, i, closer):
    """Skip code (with nested brackets, strings, comments) up to and past `closer`."""
    depth = 0
    n = len(text)
    while i < n:
        candidate = _CODE_STOP.search(text, i)
        if not candidate:
            return n
        i = candidate.start()
        end = _literal_end(text, i)
        if end is not None:
            i = end
            continue
        c = text[i]
        if c in "([{":
            depth += 1
        elif c in ")]}":
            if depth == 0 and c == closer:
                return i + 1
            depth -= 1
        i += 1
    return n


def blank_literals(text):
    """The text with comments and string/regex literals replaced by spaces (newlines kept)."""
    out = []
    i = 0
    n = len(text)
    last = 0
    while i < n:
        candidate = _LITERAL_START.search(text, i)
        if not candidate:
            break
        i = candidate.start()
        end = _literal_end(text, i)
        if end is None:
            i += 1
            continue
        out.append(text[last:i])
        out.append(re.sub(r"[^\n]", " ", text[i:end]))
        i = last = end
    out.append(text[last:])
    return "".join(out)


MODIFIERS = {
    "private", "fileprivate", "internal", "public", "open", "package", "static", "class", "final",
    "override", "mutating", "nonmutating", "nonisolated", "dynamic", "required", "convenience",
    "optional", "lazy", "indirect", "isolated", "consuming", "borrowing",
}
TOKEN = re.compile(r"@[A-Za-z_][A-Za-z0-9_]*|`[^`\n]+`|[A-Za-z_][A-Za-z0-9_]*|\S")


def _matching_paren(code, i):
    """code[i] == '('; the index after its `)` (literals are already blank)."""
    depth = 0
    for j in range(i, len(code)):
        if code[j] == "(":
            depth += 1
        elif code[j] == ")":
            depth -= 1
            if depth == 0:
                return j + 1
    return len(code)


def tests_in(text):
    """[(line, function name)] of the Swift Testing tests in one Swift file's text."""
    code = blank_literals(text)
    found = []
    attributes = []
    i = 0
    n = len(code)
    while True:
        match = TOKEN.search(code, i)
        if not match:
            break
        token = match.group(0)
        i = match.end()
        if token.startswith("@"):
            attributes.append(token[1:])
            if i < n and code[i] == "(":
                i = _matching_paren(code, i)
            continue
        if token in MODIFIERS:
            if i < n and code[i] == "(":  # nonisolated(unsafe), private(set)
                i = _matching_paren(code, i)
            continue
        if token == "func":
            name = TOKEN.search(code, i)
            if name and "Test" in attributes:
                found.append((code.count("\n", 0, name.start()) + 1, name.group(0).strip("`")))
        attributes = []
    return found


def scan(root=TESTS):
    """[(path relative to the repository, line, function name)] for every test under Tests/."""
    rows = []
    for directory, subdirectories, files in os.walk(root):
        subdirectories.sort()
        for name in sorted(files):
            if not name.endswith(".swift"):
                continue
            path = os.path.join(directory, name)
            with open(path, encoding="utf-8") as handle:
                text = handle.read()
            relative = os.path.relpath(path, ROOT).replace(os.sep, "/")
            rows.extend((relative, line, function) for line, function in tests_in(text))
    return rows


# ---------------------------------------------------------------------------------------------
# The legacy list and the check

def read_legacy():
    if not os.path.exists(LEGACY):
        return Counter()
    entries = Counter()
    with open(LEGACY, encoding="utf-8") as handle:
        for line in handle:
            line = line.strip()
            if line and not line.startswith("#"):
                entries[line] += 1
    return entries


def check(scheme, tests, legacy):
    """(offences as lines, count following the scheme, count on the legacy list)."""
    present = Counter(f"{path}:{function}" for path, _, function in tests)
    unused = Counter(legacy)
    offences = []
    following = 0
    on_legacy = 0
    for path, line, function in tests:
        key = f"{path}:{function}"
        if scheme.follows(function):
            following += 1
            continue
        if unused[key] > 0:
            unused[key] -= 1
            on_legacy += 1
            continue
        offences.append(f"{path}:{line}: {function}: breaks the scheme ({scheme.why_not(function)}); "
                        "a new or renamed test must follow it")
    for key, count in sorted(legacy.items()):
        if present[key] == 0:
            offences.append(f"{os.path.relpath(LEGACY, ROOT)}: {key}: no such test any more (renamed, "
                            "moved or removed): remove the entry")
        elif unused[key] > 0 and scheme.follows(key.rsplit(":", 1)[1]):
            offences.append(f"{os.path.relpath(LEGACY, ROOT)}: {key}: follows the scheme: remove the entry")
        elif unused[key] > 0:
            offences.append(f"{os.path.relpath(LEGACY, ROOT)}: {key}: listed {count} times, "
                            f"{count - unused[key]} such tests: remove the extra entries")
    return offences, following, on_legacy


def write_legacy(scheme, tests):
    lines = sorted(f"{path}:{function}" for path, _, function in tests if not scheme.follows(function))
    before = sum(read_legacy().values()) if os.path.exists(LEGACY) else None
    added = sorted((Counter(lines) - read_legacy()).elements()) if before is not None else []
    with open(LEGACY, "w", encoding="utf-8") as handle:
        handle.write("\n".join(lines) + ("\n" if lines else ""))
    print(f"wrote {os.path.relpath(LEGACY, ROOT)}: {len(lines)} legacy test names"
          + (f" (was {before})" if before is not None else ""))
    print("WARNING: the legacy list must only shrink. --write-legacy is for its one-time creation; a new or "
          "renamed test follows the scheme instead of joining this list.", file=sys.stderr)
    if added:
        print(f"WARNING: this added {len(added)} names that were not on the list:", file=sys.stderr)
        for entry in added:
            print("  " + entry, file=sys.stderr)


# ---------------------------------------------------------------------------------------------
# Self-test

def self_test():
    failures = []

    def expect(condition, what):
        if not condition:
            failures.append(what)

    scheme = load_scheme()
    for rid in ["A1", "A11", "B7", "C1", "C12", "D3", "CW_023", "FR_023_01", "FR_023_06", "S8_01",
                "S8_15", "S9_07"]:
        expect(rid in scheme.requirement_ids, f"docs/REQUIREMENTS.md should define {rid}")
    for rid in ["A0", "A12", "B8", "C13", "D4", "E1", "FR_023_07", "S8_16"]:
        expect(rid not in scheme.requirement_ids, f"docs/REQUIREMENTS.md should not define {rid}")
    expect("seed_6_2" in scheme.seed_sections and "seed_9" in scheme.seed_sections, "seed sections read")

    good = [
        "C8_newDevice", "C8_newDeviceChallengedByEmail", "A3_thirdFailureSwitchesToPassword",
        "A11_x", "CW_023_pageMatchesTheSeed", "A3_FR_023_03_4_thirdFailureSwitchesToPassword",
        "S8_01_sensitiveActionTriggersFaceID", "A1_A2_bothAtOnce", "C11_2_sectionOfARequirement",
        "test_44_1_sqlOnlyInStores", "test_42_4_setVerifies", "test_12_metricsAreOffByDefault",
        "test_I14_everyWireTypeHasASample", "I11_fifthFailure", "test_20_4_exportNeedsRecentSignIn",
        "seed_6_2_signedInDevices", "seed_9_biometricsOnAndOff", "D1_totp2fa",
    ]
    bad = [
        "fooBar", "C8_NewDevice", "C8_newDevice_en", "C8_", "C8", "_newDevice", "C8__newDevice",
        "C13_newDevice", "A0_x", "E7_x", "c8_newDevice", "C8_401Refreshes", "test_foo",
        "test_044_1_leadingZero", "test_42_4_", "test_42_4_4_x", "test_I_x", "I_x", "issue11_x",
        "review_10_retireEndsTheKeyAtOnce", "test_review_4_x", "seed_7_1_notInTheTable", "J4_A1_x",
        "Mail_replyParsing", "goodAttestation", "AUTH_003_x", "test_P1_x", "EX1_x", "C8_new-device",
    ]
    for name in good:
        expect(scheme.follows(name), f"{name} should follow the scheme")
    for name in bad:
        expect(not scheme.follows(name), f"{name} should break the scheme")
        expect(scheme.why_not(name) != "", f"{name} should have a reason")
    expect("C13 is not a requirement ID" in scheme.why_not("C13_newDevice"), "an unknown ID is named as such")
    expect("E7 is not a requirement ID" in scheme.why_not("C8_E7_x"), "an unknown second ID is named as such")
    expect("'NewDevice' must start with a lowercase" in scheme.why_not("C8_NewDevice"), "a capital rule")
    expect("'newDevice_en' must be lowerCamelCase" in scheme.why_not("C8_newDevice_en"), "an underscore")
    expect("test_20_" in scheme.why_not("review_10_x"), "review items name their spelling")

    # The parser: multi-line @Test, other attributes, comments and strings that mention @Test.
    swift = '''
        import Testing
        // @Test func commented() {}
        /* @Test func blocked() { /* nested */ } */
        @Suite("s") struct S {
            @Test(
                "display (with parens)", arguments: [1, 2].map { ($0) }
            )
            func C8_multiLine(value: Int) {}

            @available(macOS 14, *)
            @Test("x") @MainActor
            private static func C8_withOtherAttributes() async {}

            @Test func fooBar() { let s = "@Test func inString() {}"; let r = #/@Test func regex/#
                let m = """
                @Test func inMultiline()
                \\(f("\\(g(")"))"))
                """
            }
            func helper() {}
            @MainActor func notATest() {}
            @Test("raw #\\"quote\\"") func `test_1_backticked`() {}
        }
        '''
    found = [name for _, name in tests_in(swift)]
    expect(found == ["C8_multiLine", "C8_withOtherAttributes", "fooBar", "test_1_backticked"],
           f"the parser found {found}")
    expect(_expand("A1–A11") == ["A%d" % n for n in range(1, 12)], "A1–A11 expands")
    expect(_expand("S8_01 … S8_15")[0] == "S8_01" and len(_expand("S8_01 … S8_15")) == 15, "S8 expands")

    # The check itself: a new bad name fails, a legacy one passes, a stale legacy entry fails.
    tests = [("Tests/X.swift", 1, "C8_ok"), ("Tests/X.swift", 2, "oldName"), ("Tests/X.swift", 3, "newBadName")]
    offences, following, on_legacy = check(scheme, tests, Counter({"Tests/X.swift:oldName": 1,
                                                                    "Tests/X.swift:gone": 1}))
    expect((following, on_legacy) == (1, 1), "counts in the check")
    expect(len(offences) == 2 and "newBadName" in offences[0] and "gone" in offences[1],
           f"the check's offences: {offences}")
    offences, _, _ = check(scheme, tests[:2], Counter({"Tests/X.swift:oldName": 1}))
    expect(offences == [], "a clean tree passes")
    offences, _, _ = check(scheme, tests[:1], Counter({"Tests/X.swift:C8_ok": 1}))
    expect(len(offences) == 1 and "follows the scheme" in offences[0], "a renamed-in-place entry must go")

    if failures:
        print("test_names.py --self-test FAILED:")
        for failure in failures:
            print("  " + failure)
        return 1
    print(f"test_names.py --self-test: ok ({len(good)} good names, {len(bad)} bad names, parser, check)")
    return 0


def main(argv):
    if "--self-test" in argv:
        return self_test()
    scheme = load_scheme()
    tests = scan()
    if "--write-legacy" in argv:
        write_legacy(scheme, tests)
        return 0
    unknown = [a for a in argv if a not in ("--self-test", "--write-legacy")]
    if unknown:
        print(__doc__)
        return 2
    offences, following, on_legacy = check(scheme, tests, read_legacy())
    print(f"test names: {len(tests)} tests, {following} follow the scheme, {on_legacy} legacy "
          f"({os.path.relpath(LEGACY, ROOT)})")
    if offences:
        print(f"\n{len(offences)} problem(s):")
        for offence in offences:
            print("  " + offence)
        print("\n" + SCHEME)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
