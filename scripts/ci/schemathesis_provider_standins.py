"""Local stand-ins for Apple's key set and WeChat's OAuth API, so the fuzzed latchd has both sign-in
providers configured (their code paths are fuzzed instead of answering 422 `provider_not_configured`).

    python3 schemathesis_provider_standins.py   # prints the port it listens on (127.0.0.1), then serves

- `GET /auth/keys`: an Apple-format key set with one RS256 public key (kid `fuzz-key`; nobody holds its
  private key, so no identity token the fuzzer sends can be valid: grant `apple` answers 401 AUTH_001).
- `GET /sns/oauth2/access_token`: WeChat's documented answer to a code it does not know,
  `{"errcode": 40029, "errmsg": "invalid code"}` (grant `wechat` answers 401 AUTH_001 `invalid_code`).
- Anything else: 404.
"""

from __future__ import annotations

import json
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

APPLE_KEY_SET = {
    "keys": [
        {
            "kty": "RSA",
            "kid": "fuzz-key",
            "use": "sig",
            "alg": "RS256",
            "n": "zOXC9aH4GRgd9sXVTkNsVtKC4CNjs16uZuj1_uEVtZMZ6CVoLT4Tp6JHmqzarA6M39F7C77Qqx6wFP2-bgWaH9MFy7weZ9A0YmRLCNAedSizYdX6hdLGgcJWR4-w5z57xnF6HTD5KGaIUslGSsYoEnkUTUALDiAMB4iYXae1jcgdt9E2yuv6vjND6Vy-XNEt2QEFHC4utoDH48ZVZXbRtfI-1NpMqan_0thfyE6XqlPVmULPbynZewg7idcrrZJKtfPApT82WqE7RsHfr_6XwLb0oZ7SqPZKdWj9n_Bt5XekBxYDQDfW-DrMIuOAFukqNGc1XIPre8ApzSrlvPhocQ",
            "e": "AQAB",
        }
    ]
}
WECHAT_UNKNOWN_CODE = {"errcode": 40029, "errmsg": "invalid code"}


class ProviderStandIns(BaseHTTPRequestHandler):
    def do_GET(self) -> None:  # noqa: N802 (the name http.server calls)
        path = self.path.split("?", 1)[0]
        if path == "/auth/keys":
            self.answer(200, APPLE_KEY_SET)
        elif path == "/sns/oauth2/access_token":
            self.answer(200, WECHAT_UNKNOWN_CODE)
        else:
            self.answer(404, {"error": "not found"})

    def answer(self, status: int, body: dict) -> None:
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 (http.server's signature)
        pass


def main() -> None:
    server = ThreadingHTTPServer(("127.0.0.1", 0), ProviderStandIns)
    print(server.server_address[1], flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
    sys.exit(0)
