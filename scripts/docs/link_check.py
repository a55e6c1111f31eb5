#!/usr/bin/env python3
"""Fails when a document points at something that is not there (issue 44 §5).

    python3 scripts/docs/link_check.py              # exit 1, naming file and line, on any finding
    python3 scripts/docs/link_check.py --write      # first rewrite ARCHITECTURE.md's generated tables
    python3 scripts/docs/link_check.py --self-test  # prove on a small planted tree that each check catches its fault

Documents: README.md, every `.md` under docs/ (at any depth), the DocC articles (`*.docc/**/*.md`) under
Sources/, and any other `.md` file of the repository outside hidden folders (`.build`, `.git`, …). Fenced
code blocks and inline code hold no Markdown links, so only prose links are read.

- `broken_links`: a Markdown link `[text](target)`, image `![alt](target)` or reference definition
  `[label]: target` whose relative target file or folder does not exist, or whose `#anchor` names no
  heading of the target (GitHub's slugs: the heading's text lowercased, punctuation other than `-` and
  `_` dropped, each space a `-`, a repeated heading `-1`, `-2`, …; an `<a id="…">`/`<a name="…">`
  counts too). A `#L12` or `#L12-L20` anchor on a file that is not Markdown names lines, and the file
  must have that many. A target with a scheme (`https:`, `mailto:`, …) is skipped. In DocC articles,
  `<doc:Name>` must name an article of the same catalog.
- `broken_pointers`: a `path:line` or `path:line-line` pointer (`Sources/LatchServer/Foo.swift:42`,
  also in backticks or code blocks) whose file does not exist or has fewer lines than the number. A path
  is a repository path (`Sources/…`, `Tests/…`, `scripts/…`, `docs/…`, `Fixtures/…`, `.ci/…`,
  `README.md`, `Package.swift`) or a short form of docs/REQUIREMENTS.md (`Server/…`, `Client/…`,
  `LatchServerTests/…`, …).
- `architecture_names`: a Swift name docs/ARCHITECTURE.md writes (in backticks, or anywhere in a code
  block) that the code does not have. A name looks like Swift: a word with a capital first, another
  capital and a lower-case letter (`AccountStore`, `HTTPTransport`), `Type.member` or `x.lowerCamel`
  (`Database.lockUserRow`, `req.redeemVerification`), or a file stem `A+B` (`AccountStore+RowLock`). It
  must occur in Swift code under Sources/ or Tests/ (comments and string literals removed), or be the
  name of a file or folder there, or a name in Package.swift; a file stem must be a file's. In a table
  whose header has a `tables` column, every word of that column's backticked spans must occur in a Swift
  string literal under Sources/LatchServer.
- `generated_blocks`: a table of docs/ARCHITECTURE.md between `<!-- BEGIN GENERATED: kind argument … -->`
  and `<!-- END GENERATED: kind -->` that differs from what `--write` makes of the code now, or that holds
  the placeholder of a new row. Kinds: `targets` (Package.swift's targets, their kind and dependencies),
  `folders MODULE [tables]` (the module's direct subfolders; with `tables`, the tables each folder's
  code declares: a `static let schema`/`table`/`…Table = "name"`, or a migration's `schema("name")…
  .create()`), `middleware FILE` (the `router.add(middleware:)` calls of FILE in order, with their `if`),
  `background FOLDER` (every swift-service-lifecycle `Service` type and every `PeriodicTask`), and
  `operations FILE` (an OpenAPI document's operations by tag). Except `operations`, a table's last
  column is written by hand: `--write` keeps it by the row's first cell, drops the rows of what is gone
  and adds a row for what is new with a placeholder, which fails the check until someone writes it.
"""
import json
import os
import re
import sys
import tempfile

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))

# The short forms docs/REQUIREMENTS.md uses for paths, and the full paths they stand for: the index's own.
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from requirements_index import ABBREVIATIONS  # noqa: E402

ROOTS = ["Sources/", "Tests/", "scripts/", "docs/", "Fixtures/", ".ci/"]


def relative(path, root):
    return os.path.relpath(path, root)


def documents(root):
    """Every Markdown document of the repository outside build and hidden folders."""
    found = []
    for folder, subfolders, names in os.walk(root):
        subfolders[:] = sorted(d for d in subfolders if not d.startswith(".") or d == ".ci")
        if relative(folder, root).split(os.sep)[0].startswith(".build"):
            continue
        found += [os.path.join(folder, n) for n in sorted(names) if n.endswith(".md")]
    return found


FENCE = re.compile(r"^\s*(```|~~~)")


def prose_lines(text):
    """[(line number, line)] outside fenced code blocks, with inline code blanked (same length)."""
    lines, fenced = [], None
    for number, line in enumerate(text.split("\n"), 1):
        fence = FENCE.match(line)
        if fence:
            if fenced is None:
                fenced = fence.group(1)
            elif fence.group(1) == fenced:
                fenced = None
            continue
        if fenced is None:
            lines.append((number, re.sub(r"`[^`]*`", lambda m: " " * len(m.group(0)), line)))
    return lines


def slug(heading):
    """GitHub's anchor of a heading's text."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # links and images: their text
    text = re.sub(r"<[^>]+>", "", text)                        # HTML tags
    text = text.replace("`", "").replace("*", "")
    text = text.strip().lower()
    text = "".join(c for c in text if c.isalnum() or c in "-_ ")
    return text.replace(" ", "-")


def anchors(path, cache={}):
    """The anchors a Markdown file offers: its headings' slugs and its explicit `<a id|name>`s."""
    if path in cache:
        return cache[path]
    text = open(path, encoding="utf-8").read()
    found, seen, previous, fenced = set(), {}, "", None
    for line in text.split("\n"):
        fence = FENCE.match(line)
        if fence:
            fenced = fence.group(1) if fenced is None else (None if fence.group(1) == fenced else fenced)
            previous = ""
            continue
        if fenced is not None:
            continue
        heading = re.match(r"\s{0,3}#{1,6}\s+(.*?)(?:\s+#+)?\s*$", line)
        setext = (re.match(r"\s{0,3}(=+|-+)\s*$", line) and previous.strip()
                  and not previous.lstrip().startswith(("|", "-", "*", ">", "#")))
        if heading or setext:
            base = slug(heading.group(1) if heading else previous)
            count = seen.get(base, 0)
            seen[base] = count + 1
            found.add(base if count == 0 else f"{base}-{count}")
        previous = line
    found.update(re.findall(r"<a\s+(?:id|name)=\"([^\"]+)\"", text))
    cache[path] = found
    return found


def line_count(path):
    with open(path, encoding="utf-8", errors="replace") as handle:
        return sum(1 for _ in handle)


INLINE_LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*(<[^>]*>|[^)\s]+)(?:\s+\"[^\"]*\")?\s*\)")
REFERENCE = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*(<[^>]*>|\S+)")
DOC_LINK = re.compile(r"<doc:([A-Za-z0-9_-]+)(?:#[^>]*)?>")
SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")
LINE_ANCHOR = re.compile(r"^L([0-9]+)(?:-L([0-9]+))?$")


def check_target(doc, number, target, root):
    """The problem with one link's target, or None."""
    target = target.strip("<>")
    if SCHEME.match(target) or target.startswith("//"):
        return None
    path, _, anchor = target.partition("#")
    path = path.split("?")[0]
    where = f"{relative(doc, root)}:{number}"
    if path:
        from urllib.parse import unquote
        resolved = os.path.normpath(os.path.join(os.path.dirname(doc), unquote(path)))
        if path.startswith("/"):
            resolved = os.path.normpath(os.path.join(root, unquote(path).lstrip("/")))
        if not os.path.exists(resolved):
            return f"{where}: link to {target}: {relative(resolved, root)} does not exist"
    else:
        resolved = doc
    if not anchor:
        return None
    if os.path.isdir(resolved):
        return f"{where}: link to {target}: a folder has no anchors"
    if resolved.endswith(".md"):
        if anchor.lower() not in anchors(resolved):
            return f"{where}: link to {target}: {relative(resolved, root)} has no heading #{anchor}"
        return None
    lines = LINE_ANCHOR.match(anchor)
    if lines:
        last = int(lines.group(2) or lines.group(1))
        count = line_count(resolved)
        if last > count:
            return f"{where}: link to {target}: {relative(resolved, root)} has {count} lines"
        return None
    return f"{where}: link to {target}: {relative(resolved, root)} is not Markdown, and #{anchor} is not a line (#L12)"


def broken_links(root):
    """Markdown links whose relative target or anchor does not exist."""
    problems = []
    for doc in documents(root):
        text = open(doc, encoding="utf-8").read()
        catalog = next((p for p in [os.path.dirname(doc)] if ".docc" in p), None)
        for number, line in prose_lines(text):
            targets = [m.group(1) for m in INLINE_LINK.finditer(line)]
            reference = REFERENCE.match(line)
            if reference:
                targets.append(reference.group(1))
            for target in targets:
                problem = check_target(doc, number, target, root)
                if problem:
                    problems.append(problem)
            if catalog:
                top = catalog[:catalog.index(".docc") + len(".docc")]
                articles = {os.path.splitext(n)[0] for _, _, names in os.walk(top) for n in names if n.endswith(".md")}
                for name in DOC_LINK.findall(line):
                    if name not in articles:
                        problems.append(f"{relative(doc, root)}:{number}: <doc:{name}>: {relative(top, root)} has no article {name}")
    return problems


POINTER = re.compile(
    r"(?<![A-Za-z0-9_./+-])("
    + "|".join(re.escape(p) for p in ROOTS + list(ABBREVIATIONS))
    + r"|README\.md|Package\.swift)([A-Za-z0-9_./+@-]*?):([0-9]+)(?:-([0-9]+))?(?![0-9])")


def broken_pointers(root):
    """`path:line` and `path:line-line` pointers to a file that does not exist or is shorter."""
    problems = []
    for doc in documents(root):
        for number, line in enumerate(open(doc, encoding="utf-8").read().split("\n"), 1):
            for match in POINTER.finditer(line):
                start, rest = match.group(1), match.group(2)
                if start in ("README.md", "Package.swift"):
                    if rest:
                        continue
                    path = start
                else:
                    path = ABBREVIATIONS.get(start, start) + rest
                if not re.search(r"\.[A-Za-z0-9]+$", path) and start not in ("README.md", "Package.swift"):
                    continue  # `Sources/LatchServer:3` is not a file
                last = int(match.group(4) or match.group(3))
                shown = match.group(0)
                full = os.path.join(root, path)
                if not os.path.isfile(full):
                    problems.append(f"{relative(doc, root)}:{number}: pointer {shown}: {path} does not exist")
                elif last > line_count(full):
                    problems.append(f"{relative(doc, root)}:{number}: pointer {shown}: {path} has {line_count(full)} lines")
    return problems


def strip_swift(source):
    """Swift source without comments and string literals (so a name in a comment is not code)."""
    source = re.sub(r'"""[\s\S]*?"""', '""', source)
    source = re.sub(r'"(?:[^"\\\n]|\\.)*"', '""', source)
    source = re.sub(r"/\*[\s\S]*?\*/", "", source)
    return re.sub(r"//[^\n]*", "", source)


def swift_strings(source):
    return re.findall(r'"""[\s\S]*?"""|"(?:[^"\\\n]|\\.)*"', source)


def code_words(root):
    """(words of Swift code, words of Swift string literals of LatchServer, file and folder names)."""
    words, strings, names = set(), set(), set()
    for top in ("Sources", "Tests"):
        for folder, subfolders, files in os.walk(os.path.join(root, top)):
            names.update(subfolders)
            for name in files:
                names.add(name)
                names.add(os.path.splitext(name)[0])
                if not name.endswith(".swift"):
                    continue
                source = open(os.path.join(folder, name), encoding="utf-8", errors="replace").read()
                words.update(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", strip_swift(source)))
                if relative(folder, root).startswith(os.path.join("Sources", "LatchServer")):
                    for literal in swift_strings(source):
                        strings.update(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", literal))
    package = os.path.join(root, "Package.swift")
    if os.path.exists(package):
        names.update(re.findall(r'name:\s*"([^"]+)"', open(package, encoding="utf-8").read()))
    return words, strings, names


TOKEN = re.compile(r"(?<![A-Za-z0-9_/-])\+?[A-Za-z_][A-Za-z0-9_]*(?:[.+][A-Za-z_][A-Za-z0-9_]*)*(?![A-Za-z0-9_/-])")
LOWER_CAMEL = re.compile(r"[a-z][a-z0-9]*[A-Z][A-Za-z0-9]*")


def upper_camel(part):
    """`AccountStore`, `HTTPTransport`, `LatchAPI`: a capital first, another capital, a lower-case letter."""
    return (len(part) >= 4 and part[0].isupper() and sum(c.isupper() for c in part) >= 2
            and any(c.islower() for c in part))


def swift_like(token):
    """Whether a word is a Swift name: a type, `Type.member`, `x.member` or a file stem `A+B`."""
    parts = re.split(r"[.+]", token.lstrip("+"))
    if "+" in token:
        return any(p[:1].isupper() for p in parts)
    if any(upper_camel(p) for p in parts):
        return True
    return "." in token and any(LOWER_CAMEL.fullmatch(p) for p in parts[1:])


def architecture_names(root, path=None):
    """Swift-like names in ARCHITECTURE.md (backticked, or in a code block) that the code lacks, and
    tables that no string literal names."""
    path = path or os.path.join(root, "docs", "ARCHITECTURE.md")
    if not os.path.exists(path):
        return []
    words, strings, names = code_words(root)
    problems, tables_column, in_fence = [], None, False
    where = relative(path, root)
    for number, line in enumerate(open(path, encoding="utf-8").read().split("\n"), 1):
        if FENCE.match(line):
            in_fence = not in_fence
            continue
        cells = None
        if not in_fence and line.lstrip().startswith("|"):
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if cells is None:
            tables_column = None
        elif tables_column is None and "tables" in [c.lower() for c in cells]:
            tables_column = [c.lower() for c in cells].index("tables")
            continue
        elif tables_column is not None and not set(cells[0]) <= set("-: ") and len(cells) > tables_column:
            for span in re.findall(r"`([^`]+)`", cells[tables_column]):
                for part in re.findall(r"[a-z][a-z0-9_]*", span):
                    if part not in strings:
                        problems.append(f"{where}:{number}: table `{span}`: no string in Sources/LatchServer names {part}")
        spans = [line] if in_fence else re.findall(r"`([^`]+)`", line)
        for span in spans:
            if not in_fence and (span.startswith(("/", "http", "LATCH_", "latch ", "latchd "))
                                 or "/" in span and " " not in span):
                continue  # paths and routes are requirements_index.py's; commands are the CLI docs'
            for token in TOKEN.findall(span):
                if not swift_like(token):
                    continue
                if "+" in token:
                    missing = [] if token in names else [token]
                else:
                    missing = [p for p in token.split(".") if p not in words and p not in names]
                    if missing and token.split(".")[0] in names | words and len(missing) == 1 \
                            and not missing[0][:1].isupper() and not LOWER_CAMEL.fullmatch(missing[0]):
                        missing = []  # `User.swift`, `latch.key`: a file, not a member
                if missing:
                    problems.append(f"{where}:{number}: `{token}` names {', '.join(missing)}, "
                                    "which is not in the code (Sources/, Tests/, Package.swift)")
    return problems


# ---- generated blocks of ARCHITECTURE.md

BEGIN = re.compile(r"<!-- BEGIN GENERATED: ([a-z]+)((?: [^ (>][^ >]*)*) (?:\([^)]*\) )?-->\n")
PLACEHOLDER = "TODO: say what this is for"


def key_of(cell):
    return cell.strip().strip("`").rstrip("/").strip()


def kept_cells(old):
    """{key: the hand-written cell} of an old generated table (first cell the key, last cell kept)."""
    kept = {}
    for line in old.split("\n"):
        if not line.startswith("|"):
            continue
        cells = [c.strip() for c in line.strip()[1:-1].split("|")] if line.strip().endswith("|") else []
        if len(cells) < 2 or set(cells[0]) <= set("-: "):
            continue
        kept.setdefault(key_of(cells[0]), cells[-1])
    return kept


def keyed_table(header, rows, old, keep_order=True):
    """A table whose last column is hand-written and kept (by the row's key) from the old block.

    `rows`: [(key cell, [generated cells])]. Rows follow the old block's order, new keys at the end; a new
    key gets a placeholder, which the check reports until someone writes the cell."""
    kept = kept_cells(old)
    old_order = list(kept)
    if keep_order:
        rows = sorted(rows, key=lambda r: old_order.index(key_of(r[0])) if key_of(r[0]) in old_order else len(old_order))
    out = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for key, cells in rows:
        out.append("| " + " | ".join([key] + cells + [kept.get(key_of(key), PLACEHOLDER)]) + " |")
    return "\n".join(out)


def package_targets(root):
    """[(name, kind, [dependencies])] of Package.swift, in its order."""
    text = open(os.path.join(root, "Package.swift"), encoding="utf-8").read()
    products = {}
    for kind, name, targets in re.findall(r'\.(library|executable)\(name:\s*"([^"]+)",\s*targets:\s*\[([^\]]*)\]', text):
        for target in re.findall(r'"([^"]+)"', targets):
            products[target] = kind
    rows = []
    for match in re.finditer(r'\.(target|executableTarget|testTarget)\(\s*name:\s*"([^"]+)"', text):
        kind, name = match.group(1), match.group(2)
        depth, index = 1, match.end()  # the target's arguments, up to its closing parenthesis
        while depth and index < len(text):
            depth += {"(": 1, ")": -1}.get(text[index], 0)
            index += 1
        body = re.sub(r"//[^\n]*", "", text[match.end():index])
        dependencies = []
        listed = re.search(r"dependencies:\s*\[", body)
        if listed:
            depth, end = 1, listed.end()
            while depth and end < len(body):
                depth += {"[": 1, "]": -1}.get(body[end], 0)
                end += 1
            inner = body[listed.end():end - 1]
            for item in re.finditer(r'\.product\(\s*name:\s*"([^"]+)",\s*package:\s*"([^"]+)"([^)]*)\)|"([^"]+)"', inner):
                if item.group(4):
                    dependencies.append(("target", item.group(4), False))
                else:
                    dependencies.append(("package", item.group(2), "traits" in item.group(3)))
        path = re.search(r'path:\s*"([^"]+)"', body)
        if kind == "testTarget":
            label = "test target"
        elif name in products:
            label = f"{products[name]} product"
        else:
            label = "target, no product" + (f" (`{path.group(1)}`)" if path else "")
        rows.append((name, label, dependencies))
    return rows


def render_targets(root, argument, old):
    """Package.swift's targets: kind and dependencies generated, "what it is" kept."""
    rows = []
    for name, label, dependencies in package_targets(root):
        targets = list(dict.fromkeys(d[1] for d in dependencies if d[0] == "target"))
        plain = {d[1] for d in dependencies if d[0] == "package" and not d[2]}
        packages = list(dict.fromkeys(d[1] + ("" if d[1] in plain else "*") for d in dependencies if d[0] == "package"))
        shown = "; ".join(part for part in (", ".join(targets), ", ".join(packages)) if part) or "—"
        rows.append((f"`{name}`", [label, shown]))
    return keyed_table(["target", "kind", "depends on (targets; packages, * = only with the trait `Server`)", "what it is"],
                       rows, old, keep_order=False)


TABLE_NAME = re.compile(r'static let (?:schema|table|[a-z][A-Za-z]*Table)\s*=\s*"([a-z_]+)"')
CREATED_SCHEMA = re.compile(r'schema\("([a-z_]+)"\)((?:\s*\.[A-Za-z]+\((?:[^()]|\([^()]*\))*\))*)')


def folder_tables(folder):
    """The tables a folder's code names as its own: `static let schema/table/…Table = "x"`, and
    `schema("x")…create()` in a migration."""
    tables = []
    for path, _, names in sorted(os.walk(folder)):
        for name in sorted(names):
            if name.endswith(".swift"):
                source = open(os.path.join(path, name), encoding="utf-8").read()
                tables += TABLE_NAME.findall(source)
                tables += [m.group(1) for m in CREATED_SCHEMA.finditer(source) if ".create()" in m.group(2)]
    return list(dict.fromkeys(tables))


def render_folders(root, argument, old):
    """The direct subfolders of a module (`folders Sources/LatchServer [tables]`): the list generated,
    "holds" kept; with `tables`, the tables each folder's code declares."""
    module, *options = argument.split()
    top = os.path.join(root, module)
    folders = sorted(n for n in os.listdir(top) if os.path.isdir(os.path.join(top, n)))
    if "tables" in options:
        rows = [(f"`{n}/`", [", ".join(f"`{t}`" for t in folder_tables(os.path.join(top, n))) or "—"]) for n in folders]
        return keyed_table(["folder", "tables", "what it does"], rows, old)
    return keyed_table(["folder", "holds"], [(f"`{n}/`", []) for n in folders], old)


MIDDLEWARE = re.compile(r"^\s*(?:if (.+?) \{ )?router\.add\(middleware: ([A-Za-z]+)\(")


def render_middleware(root, argument, old):
    """The router's middleware in the order `argument` (a Swift file) adds them, outermost first."""
    rows = []
    for line in open(os.path.join(root, argument), encoding="utf-8"):
        match = MIDDLEWARE.match(line)
        if match:
            rows.append((f"`{match.group(2)}`", [f"`{match.group(1)}`" if match.group(1) else "always"]))
    return keyed_table(["middleware (outermost first)", "added when", "what it does"], rows, old, keep_order=False)


SERVICE_TYPE = re.compile(r"^\s*(?:public |final |private |fileprivate )*(?:actor|class|struct) ([A-Za-z]+)[^{\n]*:[^{\n]*\bService\b", re.M)
PERIODIC = re.compile(r'PeriodicTask\(every: ([^,]+), name: "([^"]+)"')
FRAMES = {"PeriodicTask", "LatchApplication"}  # the loop itself, and the application that runs them all


def render_background(root, argument, old):
    """Every swift-service-lifecycle service of `argument` (a source folder) and every `PeriodicTask`."""
    rows = []
    for path, _, names in sorted(os.walk(os.path.join(root, argument))):
        for name in sorted(names):
            if not name.endswith(".swift"):
                continue
            full = os.path.join(path, name)
            source = open(full, encoding="utf-8").read()
            where = f"`{relative(full, os.path.join(root, argument))}`"
            for match in SERVICE_TYPE.finditer(source):
                if match.group(1) not in FRAMES:
                    label = match.group(1)
                    if match.group(0)[:1].isspace():  # nested: name it by the type it is in
                        outer = re.findall(r"(?m)^(?:public |final )*(?:actor|class|struct|enum|extension) ([A-Za-z]+)",
                                           source[:match.start()])
                        label = (outer[-1] + "." if outer else "") + label
                    rows.append((f"`{label}`", [where]))
            for every, task in PERIODIC.findall(source):
                rows.append((f"`{task}` (a `PeriodicTask`)", [where]))
    return keyed_table(["service", "file (under `" + argument + "/`)", "what it does"], rows, old)


HTTP_METHODS = ["get", "post", "put", "patch", "delete", "head", "options", "trace"]


def render_operations(root, argument, old):
    """The operations of openapi.json by tag, in the document's tag order."""
    document = json.load(open(os.path.join(root, argument), encoding="utf-8"))
    order = [t["name"] for t in document.get("tags", [])]
    groups, count = {}, 0
    for route, item in document["paths"].items():
        for method in HTTP_METHODS:
            if method in item:
                count += 1
                tag = (item[method].get("tags") or ["(no tag)"])[0]
                groups.setdefault(tag, {}).setdefault(route, []).append(method.upper())
    out = ["| tag | operations |", "|---|---|"]
    for tag in sorted(groups, key=lambda t: (order.index(t) if t in order else len(order), t)):
        listed = ", ".join("/".join(methods) + f" `{route}`" for route, methods in groups[tag].items())
        out.append(f"| {tag} | {listed} |")
    return "\n".join(out)


GENERATORS = {"targets": render_targets, "folders": render_folders, "middleware": render_middleware,
              "background": render_background, "operations": render_operations}


def regenerate(text, root):
    """The document with each generated block made again, and the problems (unknown or unclosed blocks)."""
    problems, out, position = [], [], 0
    for match in BEGIN.finditer(text):
        name, argument = match.group(1), match.group(2).strip()
        end_marker = f"<!-- END GENERATED: {name} -->"
        end = text.find(end_marker, match.end())
        number = text.count("\n", 0, match.start()) + 1
        if name not in GENERATORS:
            problems.append(f"{number}: no generator named {name} (known: {', '.join(GENERATORS)})")
            continue
        if end < 0:
            problems.append(f"{number}: the generated block {name} has no {end_marker}")
            continue
        try:
            block = GENERATORS[name](root, argument, text[match.end():end])
        except (OSError, ValueError, KeyError) as error:
            problems.append(f"{number}: the generated block {name} {argument}: {error}")
            continue
        out.append(text[position:match.end()])
        out.append(block + "\n")
        position = end
    out.append(text[position:])
    return "".join(out), problems


def generated_blocks(root, write=False):
    """Generated blocks of ARCHITECTURE.md that differ from the code's, or still hold a placeholder."""
    path = os.path.join(root, "docs", "ARCHITECTURE.md")
    if not os.path.exists(path):
        return []
    where = relative(path, root)
    text = open(path, encoding="utf-8").read()
    fresh, problems = regenerate(text, root)
    problems = [f"{where}:{p}" for p in problems]
    if fresh != text:
        if write:
            open(path, "w", encoding="utf-8").write(fresh)
        else:
            old_lines, new_lines = text.split("\n"), fresh.split("\n")
            first = next((i for i, (a, b) in enumerate(zip(old_lines, new_lines)) if a != b), min(len(old_lines), len(new_lines))) + 1
            problems.append(f"{where}:{first}: a generated block is stale; run python3 scripts/docs/link_check.py --write")
    for number, line in enumerate((fresh if write else text).split("\n"), 1):
        if PLACEHOLDER in line:
            problems.append(f"{where}:{number}: a new row of a generated table: write what it is ({PLACEHOLDER})")
    return problems


def run(root, write=False):
    return broken_links(root) + broken_pointers(root) + architecture_names(root) + generated_blocks(root, write)


def self_test():
    """A small repository with one of each fault; each check must name exactly its fault."""
    with tempfile.TemporaryDirectory() as root:
        def write(path, text):
            full = os.path.join(root, path)
            os.makedirs(os.path.dirname(full), exist_ok=True)
            open(full, "w", encoding="utf-8").write(text)
        write("Sources/LatchServer/Accounts/AccountStore.swift",
              'struct AccountStore {\n    static let schema = "users"\n}\n// GoneStore was here\nextension Database {\n    func lockUserRow() {}\n}\n')
        write("Package.swift", 'let package = Package(name: "X", targets: [.target(name: "LatchServer")])\n')
        write("docs/OTHER.md", "# Other\n\n## The `users` table, in short\n\ntext\n")
        write("Sources/LatchServer/Docs.docc/Start.md", "# Start\n\nSee <doc:Start> and <doc:Gone>.\n")
        write("README.md", "\n".join([
            "# Readme",
            "[good](docs/OTHER.md) [good anchor](docs/OTHER.md#the-users-table-in-short) [self](#readme)",
            "[web](https://example.com/missing) [mail](mailto:a@example.com) `[not a link](nowhere.md)`",
            "[gone](docs/GONE.md)",
            "[bad anchor](docs/OTHER.md#no-such-heading)",
            "[lines](Sources/LatchServer/Accounts/AccountStore.swift#L2-L4) [too far](Sources/LatchServer/Accounts/AccountStore.swift#L9)",
            "```", "[in a code block](nowhere.md)", "```",
            "See `Sources/LatchServer/Accounts/AccountStore.swift:3` and Server/Accounts/AccountStore.swift:2-4.",
            "Past the end: Sources/LatchServer/Accounts/AccountStore.swift:40; gone: Sources/LatchServer/Gone.swift:1.",
            ""]))
        write("docs/ARCHITECTURE.md", "\n".join([
            "# Architecture", "",
            "`AccountStore` locks with `Database.lockUserRow`; `GoneStore` is not there.", "",
            "```", "app ──▶ AccountStore ── GoneDriver", "```",
            "| folder | tables |", "|---|---|", "| `Accounts/` | `users`, `gone_table` |", "",
            "<!-- BEGIN GENERATED: targets (stale on purpose) -->", "| stale |", "<!-- END GENERATED: targets -->", ""]))
        found = run(root)
        expected = [
            "README.md:4: link to docs/GONE.md",
            "README.md:5: link to docs/OTHER.md#no-such-heading",
            "README.md:6: link to Sources/LatchServer/Accounts/AccountStore.swift#L9",
            "README.md:11: pointer Sources/LatchServer/Accounts/AccountStore.swift:40",
            "README.md:11: pointer Sources/LatchServer/Gone.swift:1",
            "Sources/LatchServer/Docs.docc/Start.md:3: <doc:Gone>",
            "docs/ARCHITECTURE.md:3: `GoneStore` names GoneStore",
            "docs/ARCHITECTURE.md:6: `GoneDriver` names GoneDriver",
            "docs/ARCHITECTURE.md:10: table `gone_table`",
            "docs/ARCHITECTURE.md:13: a generated block is stale",
        ]
        failures = [e for e in expected if not any(f.startswith(e) for f in found)]
        unexpected = [f for f in found if not any(f.startswith(e) for e in expected)]
        if len(found) != len(expected):
            failures.append(f"{len(found)} findings, expected {len(expected)}")
        for line in failures:
            print("self-test: not caught: " + line)
        for line in unexpected:
            print("self-test: wrongly reported: " + line)
        for line in found:
            print("  found: " + line)
        if failures or unexpected:
            sys.exit(1)
        print(f"self-test: all {len(expected)} planted faults caught, nothing else reported")


def main():
    if "--self-test" in sys.argv[1:]:
        self_test()
        return
    problems = run(ROOT, write="--write" in sys.argv[1:])
    for problem in problems:
        print(problem)
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
