#!/usr/bin/env python3
"""Wire goldens: the exact bytes latchd answers on the wire, pinned (issue 29 §2: "the same bytes on
the wire" across the move of the HTTP edge from Vapor to Hummingbird). Recorded on Vapor, then on
Hummingbird; docs/ARCHITECTURE.md ("The HTTP edge") lists what the move changed on the wire and why.

  python3 scripts/ci/wire_goldens.py LATCHD_BINARY            # check: exit 1 and a unified diff per differing case
  python3 scripts/ci/wire_goldens.py LATCHD_BINARY --record   # rewrite scripts/ci/wire_goldens/*.txt
  python3 scripts/ci/wire_goldens.py LATCHD_BINARY --only NAME [--only NAME …]   # all cases run, these compared

What it pins. Each case in CASES sends raw bytes over its own TCP socket (the socket module, no HTTP
library between us and latchd), reads until latchd closes the connection, and records, per answer:
the status line, every header line in order and in its exact case, a blank line and the body; then
whether latchd closed the connection, or left it open (no close within OPEN_WAIT seconds of the
last answer; a connection latchd never answered waits READ_TIMEOUT). The golden of a case is
scripts/ci/wire_goldens/NAME.txt (the request, masked the same way, is written above the answer to
make the file readable; it is compared too). Large bodies (the OpenAPI document, the account page and
its assets) are recorded as their length and SHA-256. Header lines are split at CRLF; a line holding
a bare CR or LF, and any body byte that is not UTF-8, is written escaped (\\r, \\n, \\xNN).

How latchd runs (as scripts/ci/readme_blocks.py and scripts/browser/account_page_test.py start it):
a fresh temporary folder, SQLite in it, development mode (so mail goes to the in-memory development
outbox at GET /dev/outbox, where the sign-up code is read), bcrypt cost 4, a free loopback port, every
other LATCH_* variable removed from the environment. Fixed on purpose so that no answer depends on the
port: LATCH_ISSUER=http://127.0.0.1:8080 (the JWT `iss`; the default), requests send
`Host: 127.0.0.1`. LATCH_ADMIN_KEYS is a fixed key (the admin cases), LATCH_TRUSTED_PROXIES=127.0.0.2
(cases sent from source address 127.0.0.2 are from a trusted proxy, whose X-Forwarded-For counts;
from 127.0.0.1 the header is ignored). Rate limits stay at their standard values (scale 1).

Normalisation: only what changes from run to run is masked, in this order (see `mask`):
  1. the value of the `Date` header (any case)            -> <date>
  2. values the run learned, by name (the `keep` hooks of the cases: registration ids, emailed codes,
     access and refresh tokens, session and user ids)      -> <main.access_token>, <main.session_id>, …
     (a later different value of the same name, e.g. after a refresh, is <main.access_token#2>; a
     session id percent-encoded byte by byte is <NAME.session_id:%-encoded>)
  3. any other JWT (three base64url parts, `eyJ…`)         -> <jwt>
  4. any other UUID                                        -> <uuid-1>, <uuid-2>, … numbered by first
                                                              appearance within the case
  5. ISO 8601 UTC times (`2026-01-02T03:04:05Z`, with or without fractional seconds) -> <timestamp>
  6. the JWKS key members `"kid"`, `"x"`, `"y"` (a new signing key every run) -> "<kid>", "<x>", "<y>"
Nothing else is masked: Content-Length stays exact (every masked value has a fixed length), and so do
Retry-After, the admin key fingerprint and audit ids (the run is sequential).

The masks apply to the recorded requests as well. Large bodies (answers of the `digest` cases, request
bodies over 400 bytes) are written as `<N bytes, sha256 HEX>` after masking, never masked themselves.
When latchd's wire answer changes on purpose, run --record and review the goldens' diff.

Exit status: 0 every golden matched (or --record wrote them); 1 a case differed, a golden is missing,
or a golden file has no case; 2 latchd could not be started or a case's setup failed.
"""
import argparse
import difflib
import hashlib
import json
import os
import re
import shutil
import socket
import sys
import tempfile

from latchd_process import start_latchd, stop_latchd

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
GOLDENS = os.path.join(ROOT, "scripts", "ci", "wire_goldens")

HOST = "127.0.0.1"
TRUSTED_PROXY = "127.0.0.2"  # LATCH_TRUSTED_PROXIES; a case with source=TRUSTED_PROXY is sent from it
ADMIN_KEY = "wire-goldens-admin-key-0123456789abcdef"
PASSWORD = "Wire-Golden-9-horse"
MAIN_EMAIL = "wire+golden@example.com"
DEVICE = {"id": "wire-device-1", "name": "Wire", "model": "CI", "platform": "Linux"}
BIG = 70000  # body bytes over the 64 KiB limit
READ_TIMEOUT = 15.0  # seconds an answer may take
OPEN_WAIT = 3.0  # seconds to wait for latchd to close a connection after its last answer


# --- requests ------------------------------------------------------------------------------------

def http(method, target, headers=(), body=None, version="HTTP/1.1", close=True, bearer=None):
    """Raw request bytes: `Host: 127.0.0.1`, then `headers` in order, `Authorization: Bearer` when
    `bearer`, `Connection: close` when `close`; a dict/list body is compact JSON with its
    `Content-Type: application/json` and `Content-Length`; a bytes body is sent as it is (its own
    headers given in `headers`)."""
    lines = [f"{method} {target} {version}", f"Host: {HOST}"]
    lines += [f"{name}: {value}" for name, value in headers]
    if bearer:
        lines.append(f"Authorization: Bearer {bearer}")
    data = b""
    if isinstance(body, (dict, list)):
        data = json.dumps(body, separators=(",", ":")).encode()
        lines += ["Content-Type: application/json", f"Content-Length: {len(data)}"]
    elif body is not None:
        data = body
    if close:
        lines.append("Connection: close")
    return ("\r\n".join(lines) + "\r\n\r\n").encode() + data


def chunked(data, size=8192):
    """`data` in chunked transfer coding."""
    out = b""
    for start in range(0, len(data), size):
        piece = data[start:start + size]
        out += b"%x\r\n" % len(piece) + piece + b"\r\n"
    return out + b"0\r\n\r\n"


BIG_JSON = b'{"grant_type":"' + b"x" * BIG + b'"}'


def percent_encode_all(text):
    return "".join("%%%02X" % byte for byte in text.encode())


# --- cases ---------------------------------------------------------------------------------------

class Case:
    """One exchange. `send`: a function of the run's state giving the raw request bytes, or a list of
    them (sent one after another on the same socket, each after the previous answer; `pipelined`
    sends them all at once). `source`: the local address to send from. `digest`: record large bodies
    as length and SHA-256. `keep(state, answers)`: learns values from the unmasked answers.
    `until_status`: resend (each on a new connection) until the answer has this status, at most 40
    times; the golden is that answer. `record=False`: a setup step (sent, not recorded)."""

    def __init__(self, name, what, send, source=None, digest=False, keep=None, pipelined=False,
                 until_status=None, record=True):
        self.name, self.what, self.send, self.source = name, what, send, source
        self.digest, self.keep, self.pipelined = digest, keep, pipelined
        self.until_status, self.record = until_status, record


def keep_json(*pairs):
    """A `keep` hook: for each (label, key path) learns that value of the last answer's JSON body."""
    def keep(state, answers):
        body = json.loads(answers[-1][1])
        for label, path in pairs:
            value = body
            for key in path.split("."):
                value = value[int(key)] if isinstance(value, list) else value[key]
            state.learn(label, value)
    return keep


def keep_code(label):
    def keep(state, answers):
        codes = [message["code"] for message in json.loads(answers[-1][1]) if message.get("code")]
        state.learn(label, codes[-1])
    return keep


TOKEN_KEYS = ("access_token", "refresh_token", "session_id", "user.id")


def keep_tokens(prefix, keys=TOKEN_KEYS):
    return keep_json(*[(f"{prefix}.{key.replace('user.id', 'user_id')}", key) for key in keys])


def register(prefix, email, source=None, xff=None):
    """Setup: POST /v1/registrations and the code from the development outbox (not recorded)."""
    headers = [("X-Forwarded-For", xff)] if xff else []
    body = {"email": email, "password": PASSWORD, "terms_accepted": True, "nickname": "Wire"}
    return [
        Case(f"{prefix}_register", "setup", lambda s: http("POST", "/v1/registrations", headers, body),
             source=source, keep=keep_json((f"{prefix}.registration_id", "registration_id")), record=False),
        Case(f"{prefix}_code", "setup", lambda s: http("GET", "/dev/outbox?to=" + email.replace("@", "%40")),
             keep=keep_code(f"{prefix}.code"), record=False),
    ]


def verify(prefix, headers=(), device=DEVICE):
    return lambda s: http("POST", f"/v1/registrations/{s[prefix + '.registration_id']}/verify", headers,
                          {"code": s[prefix + ".code"], "device": device})


def main_bearer(path, method="GET", **kw):
    return lambda s: http(method, path, bearer=s["main.access_token"], **kw)


def admin(target):
    return lambda s: http("GET", target, [("Authorization", f"Bearer {ADMIN_KEY}")])


CASES = [
    # Documents and the account page.
    Case("health_get", "GET /health: liveness, fixed bytes", lambda s: http("GET", "/health")),
    Case("health_head", "HEAD /health: the GET route's headers, no body", lambda s: http("HEAD", "/health")),
    Case("openapi_json", "GET /openapi.json (recorded as length and SHA-256)",
         lambda s: http("GET", "/openapi.json"), digest=True),
    Case("jwks", "GET /.well-known/jwks.json: one key, masked", lambda s: http("GET", "/.well-known/jwks.json")),
    Case("account_page", "GET /account: the HTML with its own CSP (length and SHA-256)",
         lambda s: http("GET", "/account"), digest=True),
    Case("account_page_asset_css", "GET /account/account.css (length and SHA-256)",
         lambda s: http("GET", "/account/account.css"), digest=True),
    Case("account_page_asset_js", "GET /account/account.js (length and SHA-256)",
         lambda s: http("GET", "/account/account.js"), digest=True),

    # Sign-up of the main user: 202, the development outbox (query `to=` with %2B and %40), 201.
    Case("registration_202", "POST /v1/registrations: 202 with the registration id",
         lambda s: http("POST", "/v1/registrations", body={
             "email": MAIN_EMAIL, "password": PASSWORD, "terms_accepted": True, "nickname": "Wire"}),
         keep=keep_json(("main.registration_id", "registration_id"))),
    Case("dev_outbox", "GET /dev/outbox?to=wire%2Bgolden%40example.com: the mailed sign-up code",
         lambda s: http("GET", "/dev/outbox?to=wire%2Bgolden%40example.com"), keep=keep_code("main.code")),
    Case("registration_verify_201", "POST /v1/registrations/{id}/verify: 201 with a token response",
         verify("main"), keep=keep_tokens("main")),

    # Tokens, 204s, the signed-in user.
    Case("token_password_200", "POST /v1/token grant password, known device: a second session",
         lambda s: http("POST", "/v1/token", body={
             "grant_type": "password", "email": MAIN_EMAIL, "password": PASSWORD, "device": DEVICE}),
         keep=keep_tokens("second")),
    Case("token_refresh_200", "POST /v1/token grant refresh_token: the main session's tokens rotate",
         lambda s: http("POST", "/v1/token", body={"grant_type": "refresh_token",
                                                   "refresh_token": s["main.refresh_token"]}),
         keep=keep_tokens("main", ("access_token", "refresh_token"))),
    Case("fund_password_204", "PUT /v1/fund-password: 204, no body",
         lambda s: http("PUT", "/v1/fund-password", body={"fund_password": "258369"},
                        bearer=s["main.access_token"])),
    Case("session_delete_percent_encoded_id_204",
         "DELETE /v1/sessions/{id} with every byte of the id percent-encoded: 204",
         lambda s: http("DELETE", "/v1/sessions/" + s["second.session_id:%-encoded"], bearer=s["main.access_token"])),
    Case("sessions_list_200", "GET /v1/sessions: the one live session left", main_bearer("/v1/sessions")),
    Case("me_200", "GET /v1/me", main_bearer("/v1/me")),
    Case("me_trailing_slash", "GET /v1/me/: trailing slash", main_bearer("/v1/me/")),
    Case("me_double_slash", "GET /v1//me: double slash inside the path", main_bearer("/v1//me")),
    Case("health_double_slash", "GET //health: double slash at the start", lambda s: http("GET", "//health")),
    Case("health_semicolon", "GET /health%3B: an encoded semicolon in the path", lambda s: http("GET", "/health%3B")),
    Case("password_forgot_202", "POST /v1/password/forgot: 202 with an empty body",
         lambda s: http("POST", "/v1/password/forgot", body={"email": MAIN_EMAIL})),

    # Queries: `+` and %20 are spaces, keys are percent-decoded, the admin audit log echoes the text.
    Case("admin_users_query_encoded_key", "GET /v1/admin/users?%71=Wire%2Bgolden%40example.com&limit=5: found",
         admin("/v1/admin/users?%71=Wire%2Bgolden%40example.com&limit=5")),
    Case("admin_users_query_plus_and_space", "GET /v1/admin/users?q=wire+golden%20%40example.com: none",
         admin("/v1/admin/users?q=wire+golden%20%40example.com")),
    Case("admin_users_query_duplicate_key", "GET /v1/admin/users?q=nobody&q=wire: which q counts",
         admin("/v1/admin/users?q=nobody&q=wire")),
    Case("admin_audit_echoes_queries", "GET /v1/admin/audit?limit=3: the decoded q of the three searches",
         admin("/v1/admin/audit?limit=3")),
    Case("security_events_limit_plus", "GET /v1/security-events?limit=+5: `+` is a space, 400 wrong_type",
         main_bearer("/v1/security-events?limit=+5")),
    Case("security_events_limit_encoded_zero", "GET /v1/security-events?%6Cimit=%30: limit 0, 422 out_of_range",
         main_bearer("/v1/security-events?%6Cimit=%30")),
    Case("security_events_duplicate_limit", "GET /v1/security-events?limit=0&limit=x: which limit counts",
         main_bearer("/v1/security-events?limit=0&limit=x")),

    # X-Forwarded-For: honoured from the trusted proxy 127.0.0.2 only; the session list shows the client.
    *register("xff_trusted", "wire-xff-trusted@example.com", source=TRUSTED_PROXY, xff="198.51.100.9"),
    Case("xff_trusted_chain_verify", "verify sent by the trusted proxy, X-Forwarded-For: 203.0.113.7, 198.51.100.9, 127.0.0.2",
         verify("xff_trusted", [("X-Forwarded-For", "203.0.113.7, 198.51.100.9, 127.0.0.2")]),
         source=TRUSTED_PROXY, keep=keep_tokens("xff_trusted")),
    Case("xff_trusted_chain_sessions", "GET /v1/sessions: the session's ip is 198.51.100.9",
         lambda s: http("GET", "/v1/sessions", bearer=s["xff_trusted.access_token"])),
    *register("xff_untrusted", "wire-xff-untrusted@example.com"),
    Case("xff_untrusted_peer_verify", "verify sent from 127.0.0.1 (not a proxy), X-Forwarded-For: 203.0.113.7",
         verify("xff_untrusted", [("X-Forwarded-For", "203.0.113.7")]), keep=keep_tokens("xff_untrusted")),
    Case("xff_untrusted_peer_sessions", "GET /v1/sessions: the header was ignored, ip 127.0.0.1",
         lambda s: http("GET", "/v1/sessions", bearer=s["xff_untrusted.access_token"])),
    *register("xff_two_lines", "wire-xff-two-lines@example.com", source=TRUSTED_PROXY, xff="198.51.100.20"),
    Case("xff_two_header_lines_verify",
         "verify from the trusted proxy with two X-Forwarded-For lines: `203.0.113.7, 198.51.100.20` and `127.0.0.2`",
         verify("xff_two_lines", [("X-Forwarded-For", "203.0.113.7, 198.51.100.20"), ("X-Forwarded-For", "127.0.0.2")]),
         source=TRUSTED_PROXY, keep=keep_tokens("xff_two_lines")),
    Case("xff_two_header_lines_sessions", "GET /v1/sessions: the ip the two lines gave",
         lambda s: http("GET", "/v1/sessions", bearer=s["xff_two_lines.access_token"])),

    # Errors.
    Case("error_400_malformed_json", "POST /v1/token with `{abc`",
         lambda s: http("POST", "/v1/token", [("Content-Type", "application/json"), ("Content-Length", "4")], b"{abc")),
    Case("error_400_missing_field", "POST /v1/token with `{}`: grant_type missing",
         lambda s: http("POST", "/v1/token", body={})),
    Case("error_400_wrong_type", "PATCH /v1/me with nickname 5", lambda s: http(
        "PATCH", "/v1/me", body={"nickname": 5}, bearer=s["main.access_token"])),
    Case("error_401_no_token", "GET /v1/me without Authorization", lambda s: http("GET", "/v1/me")),
    Case("error_401_bad_token", "GET /v1/me with Bearer abc.def.ghi", lambda s: http("GET", "/v1/me", bearer="abc.def.ghi")),
    Case("error_401_dpop_www_authenticate", "GET /v1/me with `Authorization: DPoP` and no proof: WWW-Authenticate",
         lambda s: http("GET", "/v1/me", [("Authorization", "DPoP " + s["main.access_token"])])),
    Case("error_401_repeated_authorization", "GET /v1/me, Authorization twice: a bad token first, the good one second",
         lambda s: http("GET", "/v1/me", [("Authorization", "Bearer abc.def.ghi"),
                                          ("Authorization", "Bearer " + s["main.access_token"])])),
    Case("error_401_admin_wrong_key", "GET /v1/admin/users with a wrong admin key",
         lambda s: http("GET", "/v1/admin/users", bearer="not-the-admin-key")),
    Case("error_404_unknown_path", "GET /nope", lambda s: http("GET", "/nope")),
    Case("error_404_unknown_v1_path", "GET /v1/nope: under /v1 (no-store, pragma)", lambda s: http("GET", "/v1/nope")),
    Case("error_404_chinese", "GET /nope with Accept-Language: zh-Hans",
         lambda s: http("GET", "/nope", [("Accept-Language", "zh-Hans")])),
    Case("error_404_large_body", f"POST /nope with a {len(BIG_JSON)}-byte text/plain body",
         lambda s: http("POST", "/nope", [("Content-Type", "text/plain"), ("Content-Length", str(len(BIG_JSON)))],
                        BIG_JSON)),
    Case("error_404_v1_large_json_body", f"POST /v1/nope with a {len(BIG_JSON)}-byte JSON body",
         lambda s: http("POST", "/v1/nope", [("Content-Type", "application/json"),
                                             ("Content-Length", str(len(BIG_JSON)))], BIG_JSON)),
    Case("error_405_allow", "DELETE /health: 405 with Allow", lambda s: http("DELETE", "/health")),
    Case("error_405_options", "OPTIONS /v1/me: 405 with Allow (under /v1)", lambda s: http("OPTIONS", "/v1/me")),
    Case("error_405_head_on_post_route", "HEAD /v1/token (POST only)", lambda s: http("HEAD", "/v1/token")),
    Case("options_asterisk", "OPTIONS * (asterisk-form)", lambda s: http("OPTIONS", "*")),
    Case("error_413_content_length", f"POST /v1/token, Content-Length {len(BIG_JSON)}",
         lambda s: http("POST", "/v1/token", [("Content-Type", "application/json"),
                                              ("Content-Length", str(len(BIG_JSON)))], BIG_JSON)),
    Case("error_413_chunked", f"POST /v1/token, the same {len(BIG_JSON)} bytes chunked",
         lambda s: http("POST", "/v1/token", [("Content-Type", "application/json"),
                                              ("Transfer-Encoding", "chunked")], chunked(BIG_JSON))),
    Case("error_415_text_plain", "POST /v1/token with Content-Type: text/plain",
         lambda s: http("POST", "/v1/token", [("Content-Type", "text/plain"), ("Content-Length", "2")], b"{}")),
    Case("error_422_validation", "DELETE /v1/sessions?scope=all: scope must be others",
         main_bearer("/v1/sessions?scope=all", method="DELETE")),
    Case("error_429_rate_limited", "POST /v1/sms/codes `{}` (code-send limit, burst 10) until 429: Retry-After",
         lambda s: http("POST", "/v1/sms/codes", body={}), until_status=429),

    # Connections and framing.
    Case("http10_no_connection_header", "GET /health HTTP/1.0 without Connection",
         lambda s: http("GET", "/health", version="HTTP/1.0", close=False)),
    Case("http10_keep_alive", "GET /health HTTP/1.0 with Connection: keep-alive",
         lambda s: http("GET", "/health", [("Connection", "keep-alive")], version="HTTP/1.0", close=False)),
    Case("http11_no_connection_header", "GET /health HTTP/1.1 without Connection (kept open)",
         lambda s: http("GET", "/health", close=False)),
    Case("connection_close_capitalised", "GET /health with `Connection: Close`",
         lambda s: http("GET", "/health", [("Connection", "Close")], close=False)),
    Case("keep_alive_two_requests", "Connection: keep-alive GET /health, then GET /v1/me with Connection: close",
         lambda s: [http("GET", "/health", [("Connection", "keep-alive")], close=False), http("GET", "/v1/me")]),
    Case("pipelined_two_requests", "GET /health and GET /nope written at once on one connection",
         lambda s: [http("GET", "/health", close=False), http("GET", "/nope")], pipelined=True),
    Case("expect_100_continue", "POST /v1/token `{}` with Expect: 100-continue (body sent at once)",
         lambda s: http("POST", "/v1/token", [("Expect", "100-continue"), ("Content-Type", "application/json"),
                                              ("Content-Length", "2")], b"{}")),
    Case("absolute_form_target", "GET http://127.0.0.1/health (absolute-form)",
         lambda s: http("GET", "http://127.0.0.1/health")),
    Case("no_host_header", "GET /health HTTP/1.1 without Host",
         lambda s: b"GET /health HTTP/1.1\r\nConnection: close\r\n\r\n"),
    Case("content_length_and_chunked", "POST /v1/token with both Content-Length and Transfer-Encoding: chunked",
         lambda s: http("POST", "/v1/token", [("Content-Type", "application/json"), ("Content-Length", "2"),
                                              ("Transfer-Encoding", "chunked")], chunked(b"{}"))),
    Case("garbage_request_line", "`HELLO` and a blank line", lambda s: b"HELLO\r\n\r\n"),
    Case("bad_http_version", "GET /health HTTP/9.9", lambda s: http("GET", "/health", version="HTTP/9.9")),
    Case("space_in_target", "GET /he alth HTTP/1.1 (a space inside the target)",
         lambda s: b"GET /he alth HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"),
]


# --- sending and reading -------------------------------------------------------------------------

def parse_answers(data, methods):
    """Splits `data` into (head, body) answers, the methods being those of the requests answered, in
    order (a HEAD answer has no body). Returns (answers, rest, complete): `complete` when an answer
    for every method was read."""
    answers, rest, index = [], data, 0
    while index < len(methods):
        end = rest.find(b"\r\n\r\n")
        if end < 0:
            return answers, rest, False
        head, after = rest[:end], rest[end + 4:]
        status_line = head.split(b"\r\n", 1)[0].split(b" ")
        status = int(status_line[1]) if len(status_line) > 1 and status_line[1].isdigit() else 0
        fields = {}
        for line in head.split(b"\r\n")[1:]:
            name, _, value = line.partition(b":")
            fields.setdefault(name.strip().lower(), value.strip())
        if 100 <= status < 200:  # an interim answer: not the answer to this request
            answers.append((head, b""))
            rest = after
            continue
        if methods[index] == "HEAD" or status in (204, 304):
            length = 0
        elif b"chunked" in fields.get(b"transfer-encoding", b"").lower():
            length, cursor = None, 0
            while True:
                line_end = after.find(b"\r\n", cursor)
                if line_end < 0:
                    return answers, rest, False
                size = int(after[cursor:line_end].split(b";")[0], 16)
                cursor = line_end + 2 + size + 2
                if size == 0:
                    length = cursor
                    break
            if len(after) < length:
                return answers, rest, False
        elif b"content-length" in fields:
            length = int(fields[b"content-length"])
        else:
            return answers + [(head, after)], b"", False  # body until the connection ends
        if len(after) < length:
            return answers, rest, False
        answers.append((head, after[:length]))
        rest, index = after[length:], index + 1
    return answers, rest, True


def exchange(port, requests, source=None, pipelined=False):
    """Sends `requests` on one connection, reading each answer before sending the next (or all at
    once when `pipelined`), then waits up to OPEN_WAIT s for latchd to close. Returns (answers,
    leftover bytes, how the connection ended)."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.settimeout(READ_TIMEOUT)
    if source:
        sock.bind((source, 0))
    sock.connect((HOST, port))
    methods = [request.split(b" ", 1)[0].decode("latin-1") for request in requests]
    data, ending = b"", None
    batches = [requests] if pipelined else [[request] for request in requests]
    sent = 0
    try:
        for batch in batches:
            for request in batch:
                try:
                    sock.sendall(request)
                except (BrokenPipeError, ConnectionResetError) as error:
                    ending = f"latchd stopped reading the request ({type(error).__name__})"
            sent += len(batch)
            while not parse_answers(data, methods[:sent])[2]:
                chunk = sock.recv(65536)
                if not chunk:
                    ending = "closed by latchd"
                    break
                data += chunk
            if ending:
                break
        if not ending:
            sock.settimeout(OPEN_WAIT)
            try:
                while True:
                    chunk = sock.recv(65536)
                    if not chunk:
                        ending = "closed by latchd"
                        break
                    data += chunk
            except socket.timeout:
                ending = "left open by latchd"
    except ConnectionResetError:
        ending = "reset by latchd"
    except socket.timeout:
        ending = f"no answer within {READ_TIMEOUT:g} s"
    finally:
        sock.close()
    answers, rest, _ = parse_answers(data, methods)
    return answers, rest, ending


# --- normalising and rendering -------------------------------------------------------------------

UUID = re.compile(r"\b[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\b")
JWT = re.compile(r"\beyJ[A-Za-z0-9_-]*\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+")
TIMESTAMP = re.compile(r"\b\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z")
DATE_HEADER = re.compile(r"^(date:[ \t]*).*$", re.IGNORECASE)
JWKS_MEMBERS = re.compile(r'"(kid|x|y)":"[^"]*"')


def mask(text, state, numbers):
    """Masks 2 to 6 of the header comment, in order (1, the Date header, is `head_lines`'). `numbers`
    numbers the case's UUIDs."""
    for pattern, label in state.patterns():
        text = pattern.sub(f"<{label}>", text)
    text = JWT.sub("<jwt>", text)
    text = UUID.sub(lambda m: "<uuid-%d>" % numbers.setdefault(m.group(0).lower(), len(numbers) + 1), text)
    text = TIMESTAMP.sub("<timestamp>", text)
    return JWKS_MEMBERS.sub(lambda m: f'"{m.group(1)}":"<{m.group(1)}>"', text)


def text_of(data):
    return data.decode("utf-8", "backslashreplace").replace("\r", "\\r")


def head_lines(head):
    """The lines of a head (split at CRLF, a bare CR or LF escaped), the Date header's value masked."""
    lines = [line.decode("utf-8", "backslashreplace").replace("\r", "\\r").replace("\n", "\\n")
             for line in head.split(b"\r\n")]
    return [DATE_HEADER.sub(r"\1<date>", line) for line in lines]


def digest(data):
    return f"<{len(data)} bytes, sha256 {hashlib.sha256(data).hexdigest()}>"


def render(case, requests, answers, rest, ending, state):
    """The golden text of a case. Lengths and digests are added after masking (never masked)."""
    out, numbers = [f"# {case.name}: {case.what}"], {}

    def add(text):
        out.append(mask(text, state, numbers))

    if case.until_status:
        add(f"# (sent on new connections until the answer was {case.until_status}; that answer below)")
    for number, request in enumerate(requests, 1):
        head, _, body = request.partition(b"\r\n\r\n")
        add(f"# request {number}" + (f" (from {case.source})" if case.source else "") + ":")
        add("\n".join("> " + line for line in head_lines(head)))
        if len(body) > 400:
            out += ["> ", "> " + digest(body)]
        elif body:
            add("> \n" + "\n".join("> " + line for line in text_of(body).split("\n")))
    if not answers:
        out.append("# answer: none (no bytes)")
    for number, (head, body) in enumerate(answers, 1):
        out.append(f"# answer {number}:")
        add("\n".join(head_lines(head)))
        out.append("")
        out.append(digest(body) if case.digest and len(body) > 400 else mask(text_of(body), state, numbers))
    if rest:
        out.append(f"# then {len(rest)} more bytes:")
        add(text_of(rest))
    out.append(f"# connection: {ending}")
    return "\n".join(out) + "\n"


# --- the run -------------------------------------------------------------------------------------

class State(dict):
    """Values learned from answers (`state["main.access_token"]`: the latest), and the labels that mask
    them: the first value of a label is `<label>`, a later different one `<label#2>`, `<label#3>`, …"""

    def __init__(self):
        super().__init__()
        self.labels = {}

    def learn(self, label, value):
        self[label] = value
        if value not in self.labels:
            count = sum(1 for known in self.labels.values() if known.split("#")[0] == label)
            self.labels[value] = label if count == 0 else f"{label}#{count + 1}"
        if label.endswith("session_id"):
            self.learn(label + ":%-encoded", percent_encode_all(value))

    def patterns(self):
        """(regex, label) for every learned value, longest first; a value matches only where it is not
        part of a longer word (digits: not next to a digit; others: not next to a base64url character)."""
        for value, label in sorted(self.labels.items(), key=lambda item: -len(item[0])):
            edge = "0-9" if value.isdigit() else "A-Za-z0-9_-"
            yield re.compile(f"(?<![{edge}]){re.escape(value)}(?![{edge}])"), label


def run_case(case, port, state):
    built = case.send(state)
    requests = built if isinstance(built, list) else [built]
    for _ in range(40 if case.until_status else 1):
        answers, rest, ending = exchange(port, requests, case.source, case.pipelined)
        status = answers[-1][0].split(b" ")[1] if answers else b""
        if not case.until_status or status == str(case.until_status).encode():
            break
    if case.keep:
        try:
            case.keep(state, answers)
        except (ValueError, KeyError, IndexError, TypeError) as error:
            answer = answers[-1][0] + b"\r\n\r\n" + answers[-1][1][:500] if answers else b"no answer"
            raise RuntimeError(f"case {case.name}: could not read {error!r} from:\n{text_of(answer)}")
    return render(case, requests, answers, rest, ending, state)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("latchd", help="the latchd binary to run")
    parser.add_argument("--record", action="store_true", help="rewrite the goldens instead of checking")
    parser.add_argument("--only", action="append", help="compare (or record) only this case (repeatable)")
    args = parser.parse_args()
    recorded = [case for case in CASES if case.record]
    names = [case.name for case in recorded]
    assert len(names) == len(set(names)), "case names must be unique"
    unknown = set(args.only or []) - set(names)
    if unknown:
        print(f"no case named {', '.join(sorted(unknown))}", file=sys.stderr)
        return 2

    folder = tempfile.mkdtemp(prefix="latch-wire-goldens.")
    try:
        process, port, _ = start_latchd(os.path.abspath(args.latchd), folder, {
            "LATCH_ISSUER": "http://127.0.0.1:8080", "LATCH_BCRYPT_COST": "4", "LATCH_ADMIN_KEYS": ADMIN_KEY,
            "LATCH_TRUSTED_PROXIES": TRUSTED_PROXY})
    except (RuntimeError, OSError) as error:
        print(f"wire_goldens: {error}", file=sys.stderr)
        return 2
    state, rendered = State(), {}
    try:
        for case in CASES:
            text = run_case(case, port, state)
            if case.record:
                rendered[case.name] = text
    except (RuntimeError, OSError) as error:
        print(f"wire_goldens: {error}\nlatchd's log: {os.path.join(folder, 'latchd.log')}", file=sys.stderr)
        return 2
    finally:
        stop_latchd(process, timeout=30)

    selected = [name for name in names if not args.only or name in args.only]
    if args.record:
        os.makedirs(GOLDENS, exist_ok=True)
        if not args.only:
            for stale in os.listdir(GOLDENS):
                if stale.endswith(".txt") and stale[:-4] not in rendered:
                    os.remove(os.path.join(GOLDENS, stale))
        for name in selected:
            with open(os.path.join(GOLDENS, name + ".txt"), "w", encoding="utf-8", newline="\n") as file:
                file.write(rendered[name])
        print(f"recorded {len(selected)} wire goldens in {os.path.relpath(GOLDENS, ROOT)}/")
        shutil.rmtree(folder, ignore_errors=True)
        return 0

    failures = 0
    for name in selected:
        path = os.path.join(GOLDENS, name + ".txt")
        if not os.path.exists(path):
            print(f"--- {name}: no golden ({os.path.relpath(path, ROOT)}); run with --record")
            failures += 1
            continue
        expected = open(path, encoding="utf-8", newline="\n").read()
        if expected != rendered[name]:
            failures += 1
            sys.stdout.writelines(difflib.unified_diff(
                expected.splitlines(keepends=True), rendered[name].splitlines(keepends=True),
                fromfile=f"golden/{name}.txt", tofile=f"latchd/{name}.txt"))
    if not args.only:
        for stale in sorted(os.listdir(GOLDENS)) if os.path.isdir(GOLDENS) else []:
            if stale.endswith(".txt") and stale[:-4] not in rendered:
                print(f"--- {stale}: a golden without a case (delete it or run with --record)")
                failures += 1
    if failures:
        print(f"wire goldens: {failures} problem(s) in {len(selected)} cases (latchd's log: {os.path.join(folder, 'latchd.log')})")
        return 1
    print(f"wire goldens: all {len(selected)} cases match")
    shutil.rmtree(folder, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
