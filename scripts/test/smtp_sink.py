#!/usr/bin/env python3
"""aiosmtpd as the SMTP server of Latch's mail tests, on 127.0.0.1 and a free port: the interop
check of latchd's SMTP client against an independent implementation. The tests use their own Swift
server by default; `.ci/run` selects this one with LATCH_TEST_SMTP_SINK=aiosmtpd.

Every message it accepts is written to FOLDER as NNN.json: the envelope, the raw message, the
decoded Subject/From/To, every MIME part decoded, whether TLS was on and how the client
authenticated. Each DATA command also appends a line to FOLDER/attempts.log (accepted or not), and
each connection one to FOLDER/connections.log.

Prints "READY <port>" on stdout when it listens; runs until killed or until its stdin closes.

  --auth USER:PASS        require AUTH (PLAIN and LOGIN offered; --only-login offers LOGIN alone)
  --fail-first N --fail-code C   answer C (e.g. 451, 550) to the first N DATA commands
  --starttls              offer STARTTLS with a self-signed certificate (made by openssl into
                          FOLDER/cert.pem) and require it before MAIL
  --implicit-tls          TLS from the first byte (smtps), same self-signed certificate
  --san NAMES             the certificate's subjectAltName (default IP:127.0.0.1,DNS:localhost)
  --stall-data            never answer the end of DATA
  --silent                accept connections and never say anything (no greeting)
"""
import argparse
import asyncio
import email
import email.policy
import json
import os
import signal
import socket
import ssl
import subprocess
import sys
import threading


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def make_certificate(folder, san="IP:127.0.0.1,DNS:localhost"):
    cert, key = os.path.join(folder, "cert.pem"), os.path.join(folder, "key.pem")
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", cert,
         "-days", "1", "-subj", "/CN=localhost", "-addext", "subjectAltName=" + san],
        check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(cert, key)
    return context


class Sink:
    def __init__(self, folder, fail_first, fail_code, stall):
        self.folder, self.fail_left, self.fail_code, self.stall = folder, fail_first, fail_code, stall
        self.count = 0
        self.lock = threading.Lock()

    def log_connection(self):
        with open(os.path.join(self.folder, "connections.log"), "a") as f:
            f.write("connected\n")

    def log_attempt(self, outcome):
        with open(os.path.join(self.folder, "attempts.log"), "a") as f:
            f.write(outcome + "\n")

    async def handle_DATA(self, server, session, envelope):
        if self.stall:
            self.log_attempt("stalled")
            await asyncio.sleep(3600)
        with self.lock:
            if self.fail_left > 0:
                self.fail_left -= 1
                self.log_attempt(f"refused {self.fail_code}")
                return f"{self.fail_code} {'try again later' if self.fail_code < 500 else 'refused'}"
            self.count += 1
            number = self.count
        raw = envelope.original_content or envelope.content
        message = email.message_from_bytes(raw, policy=email.policy.default)
        parts = []
        for part in message.walk():
            if part.is_multipart():
                continue
            parts.append({"content_type": part.get_content_type(), "charset": part.get_content_charset(),
                          "transfer_encoding": part.get("Content-Transfer-Encoding"), "content": part.get_content()})
        auth = session.auth_data if isinstance(session.auth_data, dict) else None
        record = {
            "mail_from": envelope.mail_from, "rcpt_tos": envelope.rcpt_tos,
            "subject": str(message["subject"]), "from": str(message["from"]), "to": str(message["to"]),
            "date": str(message["date"]), "message_id": str(message["message-id"]),
            "content_type": message.get_content_type(), "parts": parts,
            "raw": raw.decode("utf-8", "replace"), "tls": bool(session.ssl), "auth": auth,
        }
        path = os.path.join(self.folder, f"{number:03d}.json")
        with open(path + ".tmp", "w") as f:
            json.dump(record, f, ensure_ascii=False)
        os.rename(path + ".tmp", path)
        self.log_attempt("accepted")
        return "250 OK"


def exit_with_parent():
    """Exit when stdin closes: the test that started us has ended (even if it crashed)."""
    def watch():
        try:
            while sys.stdin.buffer.read(1024):
                pass
        finally:
            os._exit(0)
    threading.Thread(target=watch, daemon=True).start()


def main():
    # The test process may have blocked signals; a child inherits that mask. Unblock them so
    # SIGTERM and SIGINT stop this server.
    signal.pthread_sigmask(signal.SIG_UNBLOCK, [signal.SIGTERM, signal.SIGINT])
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    exit_with_parent()
    parser = argparse.ArgumentParser()
    parser.add_argument("folder")
    parser.add_argument("--auth")
    parser.add_argument("--only-login", action="store_true")
    parser.add_argument("--fail-first", type=int, default=0)
    parser.add_argument("--fail-code", type=int, default=451)
    parser.add_argument("--starttls", action="store_true")
    parser.add_argument("--implicit-tls", action="store_true")
    parser.add_argument("--san", default="IP:127.0.0.1,DNS:localhost")
    parser.add_argument("--stall-data", action="store_true")
    parser.add_argument("--silent", action="store_true")
    args = parser.parse_args()
    os.makedirs(args.folder, exist_ok=True)
    port = free_port()

    sink = Sink(args.folder, args.fail_first, args.fail_code, args.stall_data)

    if args.silent:
        async def silent():
            held = []

            def connected(reader, writer):
                sink.log_connection()
                held.append(writer)
            server = await asyncio.start_server(connected, "127.0.0.1", port)
            print(f"READY {port}", flush=True)
            async with server:
                await server.serve_forever()
        asyncio.run(silent())
        return

    from aiosmtpd.controller import Controller
    from aiosmtpd.smtp import AuthResult

    kwargs = {}
    if args.auth:
        user, password = args.auth.split(":", 1)

        def authenticator(server, session, envelope, mechanism, auth_data):
            ok = auth_data.login.decode() == user and auth_data.password.decode() == password
            return AuthResult(success=ok, handled=False,
                              auth_data={"mechanism": mechanism, "login": auth_data.login.decode()} if ok else None)

        kwargs.update(authenticator=authenticator, auth_required=True, auth_require_tls=args.starttls)
        if args.only_login:
            kwargs["auth_exclude_mechanism"] = ["PLAIN"]
    if args.starttls:
        kwargs.update(tls_context=make_certificate(args.folder, args.san), require_starttls=True)

    if args.implicit_tls:
        kwargs.update(ssl_context=make_certificate(args.folder, args.san))

    class CountingController(Controller):
        def factory(self):
            server = super().factory()
            made = server.connection_made

            def connection_made(transport):
                sink.log_connection()
                return made(transport)
            server.connection_made = connection_made
            return server

    # The free port can be taken by another test between free_port() and the bind (the suite starts
    # many servers at once): then try another one.
    for attempt in range(10):
        controller = CountingController(sink, hostname="127.0.0.1", port=port, **kwargs)
        try:
            controller.start()
            break
        except OSError as error:
            if error.errno != 98 or attempt == 9:
                raise
            port = free_port()
    print(f"READY {port}", flush=True)
    try:
        threading.Event().wait()
    finally:
        controller.stop()


if __name__ == "__main__":
    main()
