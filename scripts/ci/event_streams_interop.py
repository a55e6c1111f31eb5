#!/usr/bin/env python3
"""Issue 42 interop: latchd's outbound events checked by code no one here wrote.

`python3 scripts/ci/event_streams_interop.py LATCHD_BINARY`; needs `pip install standardwebhooks==1.1.0
PyJWT[crypto]==2.10.1`. Exit 0 when every check holds, 1 with the failed checks listed.

1. A webhook stream (admin API) to a receiver on loopback: every delivery of a journey (sign-up, sign-in,
   sign-out of the others, an operator's freeze and unfreeze) verifies with the `standardwebhooks` package
   (the reference implementation of Standard Webhooks), with the secret shown once; their types arrive in the
   order of the changes; none carries the email, the password or a token.
2. After `rotate-secret`, deliveries verify with the old secret and with the new one (both signatures).
3. An SSF push stream to the same receiver: every SET (`application/secevent+jwt`) verifies with PyJWT
   against latchd's `/.well-known/jwks.json` (ES256, `typ` `secevent+jwt`, `aud` the stream's audience, `iss`
   the issuer, `jti` the event id, `events` a CAEP or RISC event), and the freeze arrives as RISC
   `account-disabled` with reason `hijacking`.
"""
import http.server
import json
import os
import shutil
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request

from latchd_process import free_port, start_latchd, stop_latchd

import jwt
from standardwebhooks import Webhook

HOST = "127.0.0.1"
ADMIN_KEY = "interop-admin-key-0123456789abcdef"
EMAIL = "eve.interop+events@example.com"
PASSWORD = "Events-Interop-7-otter"
DEVICE = {"id": "events-device-1", "name": "Interop", "model": "CI", "platform": "Linux"}
RISC = "https://schemas.openid.net/secevent/risc/event-type/"
CAEP = "https://schemas.openid.net/secevent/caep/event-type/"


class Receiver(http.server.ThreadingHTTPServer):
    def __init__(self, port):
        self.received = []  # (path, headers dict, body bytes)
        self.lock = threading.Lock()
        super().__init__((HOST, port), Handler)

    def of(self, path):
        with self.lock:
            return [r for r in self.received if r[0] == path]


class Handler(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        with self.server.lock:
            self.server.received.append((self.path, {k.lower(): v for k, v in self.headers.items()}, body))
        self.send_response(202 if self.path == "/ssf" else 204)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *args):
        pass


def call(base, method, path, body=None, bearer=None, expect=None):
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(base + path, data=data, method=method)
    if data is not None:
        request.add_header("Content-Type", "application/json")
    if bearer:
        request.add_header("Authorization", "Bearer " + bearer)
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            status, text = answer.status, answer.read().decode()
    except urllib.error.HTTPError as error:
        status, text = error.code, error.read().decode()
    if expect is not None and status != expect:
        raise RuntimeError(f"{method} {path}: {status} {text}")
    return json.loads(text) if text.startswith(("{", "[")) else None


def wait_for(condition, seconds=20):
    deadline = time.time() + seconds
    while time.time() < deadline:
        if condition():
            return True
        time.sleep(0.1)
    return False


def main():
    binary = os.path.abspath(sys.argv[1])
    failures = []

    def check(condition, what):
        print(("ok   " if condition else "FAIL ") + what)
        if not condition:
            failures.append(what)

    receiver = Receiver(free_port())
    threading.Thread(target=receiver.serve_forever, daemon=True).start()
    hook_url = f"http://{HOST}:{receiver.server_port}/hook"
    folder = tempfile.mkdtemp(prefix="latch-events-")
    process, port, _ = start_latchd(binary, folder, {
        "LATCH_BCRYPT_COST": "4", "LATCH_ADMIN_KEYS": ADMIN_KEY, "LATCH_EVENT_STREAMS_ALLOW_PRIVATE": "1"})
    base = f"http://{HOST}:{port}"
    try:
        added = call(base, "POST", "/v1/admin/event-streams", {"kind": "webhook", "url": hook_url},
                     bearer=ADMIN_KEY, expect=201)
        secret = added["secret"]
        stream = added["stream"]["id"]
        ssf = call(base, "POST", "/v1/admin/event-streams",
                   {"kind": "ssf_push", "url": f"http://{HOST}:{receiver.server_port}/ssf",
                    "audience": "https://backend.example.com"}, bearer=ADMIN_KEY, expect=201)
        check(ssf.get("secret") is None, "an SSF stream has no webhook secret (its SETs are signed by latchd's keys)")

        registration = call(base, "POST", "/v1/registrations",
                            {"email": EMAIL, "password": PASSWORD, "terms_accepted": True}, expect=202)
        outbox = call(base, "GET", "/dev/outbox?to=" + urllib.request.quote(EMAIL, safe=""), expect=200)
        code = [m["code"] for m in outbox if m.get("code")][-1]
        first = call(base, "POST", f"/v1/registrations/{registration['registration_id']}/verify",
                     {"code": code, "device": DEVICE}, expect=201)
        user = first["user"]["id"]
        second = call(base, "POST", "/v1/token", {"grant_type": "password", "email": EMAIL, "password": PASSWORD,
                                                  "device": DEVICE}, expect=200)
        call(base, "DELETE", "/v1/sessions?scope=others", bearer=second["access_token"], expect=204)
        call(base, "POST", f"/v1/admin/users/{user}/freeze", bearer=ADMIN_KEY, expect=204)
        call(base, "POST", f"/v1/admin/users/{user}/unfreeze", bearer=ADMIN_KEY, expect=204)
        # A freeze runs the security reset (its session.revoked) and then records account.frozen, in one transaction.
        expected = ["account.registered", "session.established", "session.revoked", "session.revoked",
                    "account.frozen", "account.unfrozen"]
        check(wait_for(lambda: len(receiver.of("/hook")) >= len(expected)),
              f"the journey's {len(expected)} webhooks arrive within 20 s")
        hooks = receiver.of("/hook")
        verifier = Webhook(secret)
        verified = []
        for _, headers, body in hooks:
            try:
                verified.append(verifier.verify(body, headers))
            except Exception as error:  # the library raises WebhookVerificationError
                check(False, f"standardwebhooks verifies {headers.get('webhook-id')}: {error}")
        check(len(verified) == len(hooks) and verified, f"standardwebhooks verified all {len(hooks)} webhooks")
        types = [event["type"] for event in verified]
        check([t for t in types if t in expected] == expected, f"in the order of the changes: {types}")
        check(all(h["webhook-id"] == e["data"]["id"] for (_, h, _), e in zip(hooks, verified)),
              "webhook-id is the event's id")
        blob = b"".join(body for _, _, body in hooks)
        for name, value in {"email": EMAIL, "password": PASSWORD, "access token": first["access_token"],
                            "refresh token": first["refresh_token"]}.items():
            check(value.encode() not in blob, f"no webhook carries the {name}")

        rotated = call(base, "POST", f"/v1/admin/event-streams/{stream}/rotate-secret", bearer=ADMIN_KEY, expect=200)
        time.sleep(1)  # a batch already under way signs with the secrets it read (the old one is still valid)
        before = len(receiver.of("/hook"))
        call(base, "POST", f"/v1/admin/users/{user}/freeze", bearer=ADMIN_KEY, expect=204)
        check(wait_for(lambda: len(receiver.of("/hook")) > before), "a webhook after the rotation arrives")
        _, headers, body = receiver.of("/hook")[before]
        for label, key in (("old", secret), ("new", rotated["secret"])):
            try:
                Webhook(key).verify(body, headers)
                check(True, f"during the rotation the {label} secret verifies (standardwebhooks)")
            except Exception as error:
                check(False, f"during the rotation the {label} secret verifies: {error}")

        arrived = wait_for(lambda: len(receiver.of("/ssf")) >= 5)
        check(arrived, "SETs arrive on the SSF push stream")
        if not arrived:
            log = call(base, "GET", f"/v1/admin/event-streams/{ssf['stream']['id']}/deliveries", bearer=ADMIN_KEY)
            print(json.dumps(log, indent=1)[:1500])
        jwks = jwt.PyJWKSet.from_dict(call(base, "GET", "/.well-known/jwks.json", expect=200))
        keys = {key.key_id: key for key in jwks.keys}
        decoded = []
        sets = receiver.of("/ssf")
        for _, headers, body in sets:
            check(headers.get("content-type") == "application/secevent+jwt", "a SET is application/secevent+jwt")
            token = body.decode()
            header = jwt.get_unverified_header(token)
            check(header.get("typ") == "secevent+jwt" and header.get("alg") == "ES256",
                  f"SET header typ secevent+jwt, ES256: {header}")
            try:
                claims = jwt.decode(token, keys[header["kid"]].key, algorithms=["ES256"],
                                    audience="https://backend.example.com",
                                    options={"verify_iss": False, "require": ["iss", "iat", "jti", "aud"]})
                decoded.append(claims)
            except Exception as error:
                check(False, f"PyJWT verifies the SET against /.well-known/jwks.json: {error}")
        check(decoded and len(decoded) == len(sets), f"PyJWT verified all {len(decoded)} SETs")
        check(all(c["jti"].startswith("evt_") and c.get("events") for c in decoded), "jti is the event id; events set")
        check(all(all(uri.startswith((RISC, CAEP, "https://schemas.openid.net/secevent/ssf/")) for uri in c["events"])
                  for c in decoded), "every event is a CAEP, RISC or SSF one")
        disabled = [c["events"][RISC + "account-disabled"] for c in decoded if RISC + "account-disabled" in c["events"]]
        check(any(d.get("reason") == "hijacking" for d in disabled), "the freeze is RISC account-disabled, hijacking")
        blob = b"".join(body for _, _, body in sets)
        check(EMAIL.encode() not in blob, "no SET carries the email")
    except Exception:
        print(open(f"{folder}/latchd.log").read()[-4000:])
        raise
    finally:
        stop_latchd(process)
        receiver.shutdown()
        shutil.rmtree(folder, ignore_errors=True)
    if failures:
        print(f"{len(failures)} check(s) failed")
        sys.exit(1)
    print("event streams interop: all checks passed")


if __name__ == "__main__":
    main()
