#!/usr/bin/env python3
"""Issue 29 §2, tracing, against a real OTLP/HTTP receiver: `python3 scripts/ci/otlp_traces.py LATCHD_BINARY`.

Needs `pip install opentelemetry-proto==1.45.2` (OpenTelemetry's own protobuf definitions, which decode what
latchd sends exactly as a collector would). Exit 0 when every check holds, 1 with the failed checks listed.

1. Traces are off unless asked for: a latchd without OTEL_EXPORTER_OTLP_ENDPOINT, beside a receiver listening
   on OTLP/HTTP's default port (4318, where an exporter would send by default), sends nothing.
2. With OTEL_EXPORTER_OTLP_ENDPOINT pointing at the receiver, a journey (sign-up with an emailed code, sign-in,
   refresh, /v1/me with a caller's `traceparent`, an SMS code to a phone, a fund password, a withdrawal verified
   by it and redeemed) arrives as OTLP/HTTP protobuf (POST /v1/traces, `application/x-protobuf`):
   - resource `service.name` is `latchd` (OTEL_SERVICE_NAME unset);
   - one SERVER span per request, named `METHOD /route` (`POST /v1/verifications/{id}/attempts`), with
     `http.request.method`, `http.route`, `http.response.status_code`;
   - the caller's `traceparent` is continued: same trace id, its span id as the parent;
   - CLIENT spans for the store calls, children of their request's span (`SELECT users`, …);
   - and no byte of any export holds the password, the fund password, a code, a token, the email address (or
     its local part) or the phone number.
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

from opentelemetry.proto.collector.trace.v1 import trace_service_pb2
from opentelemetry.proto.trace.v1 import trace_pb2

HOST = "127.0.0.1"
EMAIL = "tracy.secret+otlp@example.com"
PASSWORD = "Otlp-Trace-7-zebra"
FUND_PASSWORD = "731946"
PHONE = "+8613812345678"
DEVICE = {"id": "otlp-device-1", "name": "Trace", "model": "CI", "platform": "Linux"}
CALLER_TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736"
CALLER_SPAN_ID = "00f067aa0ba902b7"
COST = {"LATCH_BCRYPT_COST": "4"}
DROP = ("LATCH_", "OTEL_")  # the journey's latchd reads only what this script sets


class Receiver(http.server.ThreadingHTTPServer):
    """An OTLP/HTTP trace receiver: keeps every export's raw bytes and its decoded spans."""

    def __init__(self, port):
        self.exports = []  # raw request bodies
        self.requests = []  # (path, content type)
        self.lock = threading.Lock()
        super().__init__((HOST, port), Handler)

    def spans(self):
        found = []
        with self.lock:
            bodies = list(self.exports)
        for body in bodies:
            request = trace_service_pb2.ExportTraceServiceRequest()
            request.ParseFromString(body)
            for resource_spans in request.resource_spans:
                resource = {a.key: a.value.string_value for a in resource_spans.resource.attributes}
                for scope_spans in resource_spans.scope_spans:
                    for span in scope_spans.spans:
                        found.append((resource, span))
        return found


class Handler(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length)
        with self.server.lock:
            self.server.requests.append((self.path, self.headers.get("Content-Type")))
            if self.path == "/v1/traces":
                self.server.exports.append(body)
        answer = trace_service_pb2.ExportTraceServiceResponse().SerializeToString()
        self.send_response(200)
        self.send_header("Content-Type", "application/x-protobuf")
        self.send_header("Content-Length", str(len(answer)))
        self.end_headers()
        self.wfile.write(answer)

    def log_message(self, *args):
        pass


class Client:
    def __init__(self, port):
        self.base = f"http://{HOST}:{port}"
        self.secrets = {"password": PASSWORD, "fund password": FUND_PASSWORD, "email": EMAIL,
                        "email local part": EMAIL.split("@")[0], "phone": PHONE, "phone digits": PHONE[1:]}

    def call(self, method, path, body=None, bearer=None, headers=(), expect=None):
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(self.base + path, data=data, method=method)
        if data is not None:
            request.add_header("Content-Type", "application/json")
        if bearer:
            request.add_header("Authorization", "Bearer " + bearer)
        for name, value in headers:
            request.add_header(name, value)
        try:
            with urllib.request.urlopen(request, timeout=30) as answer:
                status, text = answer.status, answer.read().decode()
        except urllib.error.HTTPError as error:
            status, text = error.code, error.read().decode()
        if expect is not None and status != expect:
            raise RuntimeError(f"{method} {path}: {status} {text}")
        return json.loads(text) if text.startswith(("{", "[")) else None

    def latest_code(self, to):
        messages = self.call("GET", "/dev/outbox?to=" + urllib.request.quote(to, safe=""), expect=200)
        return [m["code"] for m in messages if m.get("code")][-1]

    def journey(self):
        registration = self.call("POST", "/v1/registrations", {
            "email": EMAIL, "password": PASSWORD, "terms_accepted": True, "nickname": "Trace"}, expect=202)
        code = self.latest_code(EMAIL)
        self.secrets["sign-up code"] = code
        tokens = self.call("POST", f"/v1/registrations/{registration['registration_id']}/verify",
                           {"code": code, "device": DEVICE}, expect=201)
        signed_in = self.call("POST", "/v1/token", {
            "grant_type": "password", "email": EMAIL, "password": PASSWORD, "device": DEVICE}, expect=200)
        refreshed = self.call("POST", "/v1/token", {
            "grant_type": "refresh_token", "refresh_token": signed_in["refresh_token"]}, expect=200)
        access = refreshed["access_token"]
        for name, value in [("access token", tokens["access_token"]), ("refresh token", tokens["refresh_token"]),
                            ("second access token", signed_in["access_token"]),
                            ("second refresh token", signed_in["refresh_token"]),
                            ("refreshed access token", access), ("refreshed refresh token", refreshed["refresh_token"])]:
            self.secrets[name] = value
        self.call("GET", "/v1/me", bearer=access, expect=200,
                  headers=[("traceparent", f"00-{CALLER_TRACE_ID}-{CALLER_SPAN_ID}-01")])
        self.call("POST", "/v1/sms/codes", {"phone": PHONE}, expect=202)
        self.secrets["SMS code"] = self.latest_code(PHONE)
        # The new user's own setup, from the session that signed up (a factor added by another session is held).
        access = tokens["access_token"]
        self.call("PUT", "/v1/fund-password", {"fund_password": FUND_PASSWORD}, bearer=access, expect=204)
        parameters = {"amount": "20", "currency": "USDT", "address": "TQ5TraceAddress"}
        started = self.call("POST", "/v1/verifications", {"action": "withdrawal", "parameters": parameters},
                            bearer=access, expect=201)
        passed = self.call("POST", f"/v1/verifications/{started['verification_id']}/attempts",
                           {"method": "fund_password", "fund_password": FUND_PASSWORD}, bearer=access, expect=200)
        self.secrets["verification token"] = passed["verification_token"]
        self.call("POST", "/v1/verifications/redeem", {
            "verification_token": passed["verification_token"], "action": "withdrawal", "parameters": parameters},
            bearer=access, expect=200)


def hexid(raw):
    return raw.hex()


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    binary = os.path.abspath(sys.argv[1])
    failures = []

    def check(condition, what):
        print(("ok   " if condition else "FAIL ") + what)
        if not condition:
            failures.append(what)

    # 1. Off unless asked for: a receiver on the default port hears nothing.
    folder = tempfile.mkdtemp(prefix="latch-otlp-off-")
    try:
        idle = Receiver(4318)
    except OSError as error:
        print(f"FAIL port 4318 (OTLP/HTTP's default) is taken ({error}): cannot show that nothing is sent there")
        sys.exit(1)
    threading.Thread(target=idle.serve_forever, daemon=True).start()
    process, port, _ = start_latchd(binary, folder, {"OTEL_BSP_SCHEDULE_DELAY": "100", **COST}, drop=DROP)
    Client(port).journey()
    time.sleep(2)
    check(stop_latchd(process) == 0, "without an endpoint latchd stops with exit status 0")
    check(idle.requests == [], f"without OTEL_EXPORTER_OTLP_ENDPOINT nothing reaches :4318 ({len(idle.requests)})")
    idle.shutdown()
    idle.server_close()
    shutil.rmtree(folder, ignore_errors=True)

    # 2. On: the journey's spans, exported to a receiver of our own.
    receiver = Receiver(free_port())
    threading.Thread(target=receiver.serve_forever, daemon=True).start()
    folder = tempfile.mkdtemp(prefix="latch-otlp-on-")
    endpoint = f"http://{HOST}:{receiver.server_address[1]}"
    process, port, _ = start_latchd(binary, folder, {
        "OTEL_EXPORTER_OTLP_ENDPOINT": endpoint, "OTEL_BSP_SCHEDULE_DELAY": "200", **COST}, drop=DROP)
    client = Client(port)
    client.journey()
    status = stop_latchd(process)  # SIGTERM: the exporter sends what it still holds before latchd exits
    check(status == 0, f"with tracing latchd stops with exit status 0 ({status})")
    if status != 0:
        print(open(os.path.join(folder, "latchd.log")).read()[-3000:])

    spans = receiver.spans()
    check(len(spans) > 0, f"spans arrived over OTLP/HTTP ({len(spans)} spans in {len(receiver.exports)} exports)")
    check(all(path == "/v1/traces" and (kind or "").startswith("application/x-protobuf")
              for path, kind in receiver.requests), f"every export is POST /v1/traces, protobuf ({receiver.requests[:3]})")
    check(all(resource.get("service.name") == "latchd" for resource, _ in spans), "service.name is latchd")

    server = [span for _, span in spans if span.kind == trace_pb2.Span.SPAN_KIND_SERVER]
    names = {span.name for span in server}
    for name in ["POST /v1/registrations", "POST /v1/registrations/{id}/verify", "POST /v1/token", "GET /v1/me",
                 "POST /v1/sms/codes", "PUT /v1/fund-password", "POST /v1/verifications",
                 "POST /v1/verifications/{id}/attempts", "POST /v1/verifications/redeem", "GET /dev/outbox"]:
        check(name in names, f"a server span named {name}")

    def attributes(span):
        return {a.key: (a.value.string_value or a.value.int_value) for a in span.attributes}

    attempt = [s for s in server if s.name == "POST /v1/verifications/{id}/attempts"]
    check(bool(attempt) and attributes(attempt[0]) == {
        "http.request.method": "POST", "http.route": "/v1/verifications/{id}/attempts",
        "http.response.status_code": 200}, f"a request span's attributes: {attempt and attributes(attempt[0])}")

    me = [s for s in server if s.name == "GET /v1/me"]
    check(bool(me) and hexid(me[0].trace_id) == CALLER_TRACE_ID and hexid(me[0].parent_span_id) == CALLER_SPAN_ID,
          "GET /v1/me continues the caller's traceparent (its trace id, its span as parent)")

    client_spans = [span for _, span in spans if span.kind == trace_pb2.Span.SPAN_KIND_CLIENT]
    by_id = {span.span_id: span for _, span in spans}
    children = [s for s in client_spans if by_id.get(s.parent_span_id) is not None
                and by_id[s.parent_span_id].kind == trace_pb2.Span.SPAN_KIND_SERVER]
    during_requests = [s for s in client_spans if any(
        r.start_time_unix_nano <= s.start_time_unix_nano <= r.end_time_unix_nano for r in server)]
    lost = sorted({s.name for s in during_requests if s not in children})
    for s in during_requests:
        if s not in children:  # named in the output only when the check below fails
            print("   lost:", s.name, "parent", s.parent_span_id.hex(), "during",
                  [(r.name, (s.start_time_unix_nano - r.start_time_unix_nano) // 1000) for r in server
                   if r.start_time_unix_nano <= s.start_time_unix_nano <= r.end_time_unix_nano])
    check(len(children) > 0 and not lost,
          f"every store call made while a request runs is a child of a request's span ({len(children)} are; "
          f"not: {lost}; the other {len(client_spans) - len(during_requests)} are latchd's start: migrations, keys)")
    me_children = [s.name for s in client_spans if me and s.parent_span_id == me[0].span_id]
    check(len(me_children) > 0, f"GET /v1/me's store calls: {sorted(set(me_children))}")
    check(any(s.name.startswith("SELECT ") for s in client_spans), "store spans are named `OPERATION table`")

    everything = b"".join(receiver.exports)
    for what, secret in client.secrets.items():
        check(secret.encode() not in everything, f"no span carries the {what}")

    receiver.shutdown()
    receiver.server_close()
    shutil.rmtree(folder, ignore_errors=True)
    if failures:
        print(f"{len(failures)} check(s) failed")
        sys.exit(1)
    print("tracing: every check holds")


if __name__ == "__main__":
    main()
