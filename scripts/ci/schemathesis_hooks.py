"""Schemathesis hooks for fuzzing latchd: a signed-in user for the bearer-protected operations.

Loaded by `scripts/ci/schemathesis.sh` through `SCHEMATHESIS_HOOKS` (this file's path). It needs
`LATCH_FUZZ_BASE_URL` (the latchd under test, development mode: the development outbox at
`GET /dev/outbox?to=ADDRESS` gives the emailed registration code) and writes what it did to
`LATCH_FUZZ_AUTH_LOG` when set.

How the fuzzer gets its user (`LatchSignedInUser`):

- The first bearer-protected test case registers a fresh account through the API, as an app would:
  `POST /v1/registrations`, the code from the development outbox, `POST /v1/registrations/{id}/verify`
  with a device, which answers a token response; then it sets a fund password (so verifications can
  start) and binds a fresh device key (so challenges and unbinding have an id to work on). Its access
  token goes into every bearer-protected test case (`Authorization: Bearer …`).
- When the fuzzer ends this session itself — a 204 to `POST /v1/logout` or `POST /v1/me/freeze`, a 200 to `DELETE /v1/me`, or 401 `AUTH_004` to a
  request that carried the current access token (after `DELETE /v1/sessions/{id}` of the current
  session, a password reset, …) — the session is marked dead. The next test case first tries the
  refresh token (`grant_type` `refresh_token`; it works when only the access token died), then a
  password sign-in of the same user from the same device; when both are refused (the session is
  revoked; the fuzzer locked the account or a sign-in check asks for a code), it registers a fresh
  account.
- The hook's own requests go from the loopback address 127.0.0.2 (falling back to 127.0.0.1), so the
  fuzzer's traffic on 127.0.0.1 does not spend the hook's per-client budgets; a 429 answer is
  waited out (`retry_after`), at most `MAX_RATE_LIMIT_WAIT` seconds in all per request.

One check is added (`schema_valid_request_refused_by_contract`, see schemathesis.toml). Nothing here
filters, ignores or rewrites a finding.
"""

from __future__ import annotations

import atexit
import base64
import json
import os
import secrets
import subprocess
import threading
import time
from typing import Any

import requests
import schemathesis
from requests.adapters import HTTPAdapter

# Seconds the hook waits in all for 429 answers to one of its requests before it gives up.
MAX_RATE_LIMIT_WAIT = 120.0
# Seconds each of the hook's own requests may take.
REQUEST_TIMEOUT = 15.0
# The fund password every signed-up user gets (six digits, not all the same, not a straight run).
FUND_PASSWORD = "258369"
# The loopback source address of the hook's own requests (a client of its own for per-IP budgets).
HOOK_SOURCE_ADDRESS = "127.0.0.2"


class SourceAddressAdapter(HTTPAdapter):
    """Sends every request from one local address."""

    def __init__(self, source_address: str, **kwargs: Any) -> None:
        self.source_address = (source_address, 0)
        super().__init__(**kwargs)

    def init_poolmanager(self, *args: Any, **kwargs: Any) -> None:
        kwargs["source_address"] = self.source_address
        super().init_poolmanager(*args, **kwargs)


def _hook_http_session(base_url: str) -> requests.Session:
    """A `requests` session from 127.0.0.2 when this machine can bind it (Linux can), else a plain one."""
    session = requests.Session()
    session.headers["Accept-Language"] = "en"
    adapter = SourceAddressAdapter(HOOK_SOURCE_ADDRESS)
    session.mount("http://", adapter)
    try:
        session.get(f"{base_url}/health", timeout=REQUEST_TIMEOUT).raise_for_status()
    except requests.RequestException:
        session = requests.Session()
        session.headers["Accept-Language"] = "en"
    return session


class SignUpFailed(Exception):
    """latchd did not give the hook a signed-in user; the message says which step failed."""


class Statistics:
    """What the hook did, written to `LATCH_FUZZ_AUTH_LOG` at exit for the run's summary."""

    def __init__(self) -> None:
        self.sign_ups = 0
        self.refreshes = 0
        self.refresh_refused = 0
        self.sign_ins = 0
        self.sign_in_refused = 0
        self.sessions_ended_by_fuzzer = 0
        self.device_keys_bound = 0
        self.rate_limit_waits = 0.0

    def write(self) -> None:
        path = os.environ.get("LATCH_FUZZ_AUTH_LOG")
        if not path:
            return
        with open(path, "w", encoding="utf-8") as file:
            json.dump(vars(self), file)


STATISTICS = Statistics()
atexit.register(STATISTICS.write)


class SignedInUserState:
    """The fuzzer's current user: one account and session at a time, shared by all test cases."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.base_url = os.environ.get("LATCH_FUZZ_BASE_URL", "").rstrip("/")
        self.http: requests.Session | None = None
        self.access_token: str | None = None
        self.refresh_token: str | None = None
        # The current user's (email, password, device), to sign in again after the fuzzer ended a session.
        self.credentials: tuple[str, str, dict[str, str]] | None = None
        self.session_alive = False

    def access_token_for_next_case(self, fallback_base_url: str) -> str:
        with self.lock:
            if not self.base_url:
                self.base_url = fallback_base_url.rstrip("/")
            if self.http is None:
                self.http = _hook_http_session(self.base_url)
            if self.access_token is None or not self.session_alive:
                self._renew()
            assert self.access_token is not None
            return self.access_token

    def session_ended(self, access_token: str) -> None:
        """An answer said the session of `access_token` is over; renew before the next case if it is ours."""
        with self.lock:
            if access_token == self.access_token and self.session_alive:
                self.session_alive = False
                STATISTICS.sessions_ended_by_fuzzer += 1

    # -- renewing ----------------------------------------------------------------------------------

    def _renew(self) -> None:
        if self.refresh_token is not None and self._refresh():
            return
        if self.credentials is not None and self._sign_in():
            return
        self._sign_up()

    def _refresh(self) -> bool:
        """The session's access token is what ended: rotate the refresh token."""
        answer = self._post("/v1/token", {"grant_type": "refresh_token", "refresh_token": self.refresh_token})
        self.refresh_token = None
        if answer.status_code == 200:
            self._adopt(answer.json())
            STATISTICS.refreshes += 1
            return True
        STATISTICS.refresh_refused += 1
        return False

    def _sign_in(self) -> bool:
        """The session ended: a new one for the same user from the same device (a known device, so no
        challenge). Refused — the fuzzer locked the account or a check asks for a code — means a new user."""
        email, password, device = self.credentials
        answer = self._post("/v1/token", {"grant_type": "password", "email": email, "password": password, "device": device})
        if answer.status_code == 200:
            self._adopt(answer.json())
            STATISTICS.sign_ins += 1
            return True
        STATISTICS.sign_in_refused += 1
        self.credentials = None
        return False

    def _sign_up(self) -> None:
        email = f"fuzz-{secrets.token_hex(6)}@example.com"
        password = f"Fz-{secrets.token_urlsafe(12)}-9a"
        registration = self._post(
            "/v1/registrations",
            {"email": email, "password": password, "terms_accepted": True, "nickname": "Schemathesis"},
        )
        if registration.status_code != 202:
            raise SignUpFailed(f"POST /v1/registrations answered {registration.status_code}: {registration.text[:300]}")
        registration_id = registration.json()["registration_id"]

        code = self._emailed_code(email)
        device = {"id": f"fuzz-{secrets.token_hex(8)}", "name": "Schemathesis", "model": "CI", "platform": "Linux"}
        verified = self._post(f"/v1/registrations/{registration_id}/verify", {"code": code, "device": device})
        if verified.status_code != 201:
            raise SignUpFailed(f"POST /v1/registrations/{{id}}/verify answered {verified.status_code}: {verified.text[:300]}")
        self._adopt(verified.json())
        self.credentials = (email, password, device)
        STATISTICS.sign_ups += 1
        # A fund password gives the user a step-up method, so `POST /v1/verifications` starts
        # verifications (201) instead of answering 409 NO_VERIFICATION_METHOD to everything.
        fund_password = self._authorized("PUT", "/v1/fund-password", {"fund_password": FUND_PASSWORD})
        if fund_password.status_code != 204:
            raise SignUpFailed(f"PUT /v1/fund-password answered {fund_password.status_code}: {fund_password.text[:300]}")
        # A bound device key gives `GET /v1/device-credentials` an id, which the document's links carry
        # to sign-in challenges and unbinding (otherwise those only ever answer 404).
        public_key = _new_device_public_key()
        if public_key is not None:
            bound = self._authorized(
                "POST", "/v1/device-credentials",
                {"public_key": public_key, "device_name": "Schemathesis", "biometry": "face_id"})
            if bound.status_code != 201:
                raise SignUpFailed(f"POST /v1/device-credentials answered {bound.status_code}: {bound.text[:300]}")
            STATISTICS.device_keys_bound += 1

    def _emailed_code(self, email: str) -> str:
        assert self.http is not None
        answer = self.http.get(f"{self.base_url}/dev/outbox", params={"to": email}, timeout=REQUEST_TIMEOUT)
        if answer.status_code != 200:
            # The outbox answers loopback clients only; should 127.0.0.2 not count as one, ask from 127.0.0.1.
            answer = requests.get(f"{self.base_url}/dev/outbox", params={"to": email}, timeout=REQUEST_TIMEOUT)
        if answer.status_code != 200:
            raise SignUpFailed(f"GET /dev/outbox answered {answer.status_code} (is latchd in development mode?)")
        codes = [message["code"] for message in answer.json() if message.get("code")]
        if not codes:
            raise SignUpFailed(f"the development outbox holds no code for {email}")
        return codes[-1]

    def _adopt(self, token_response: dict[str, Any]) -> None:
        self.access_token = token_response["access_token"]
        self.refresh_token = token_response["refresh_token"]
        self.session_alive = True

    def _authorized(self, method: str, path: str, body: dict[str, Any]) -> requests.Response:
        assert self.http is not None
        return self.http.request(
            method, f"{self.base_url}{path}", json=body, timeout=REQUEST_TIMEOUT,
            headers={"Authorization": f"Bearer {self.access_token}"})

    def _post(self, path: str, body: dict[str, Any]) -> requests.Response:
        """POSTs JSON, waiting out 429 answers (their `retry_after`) up to `MAX_RATE_LIMIT_WAIT` seconds."""
        assert self.http is not None
        waited = 0.0
        while True:
            answer = self.http.post(f"{self.base_url}{path}", json=body, timeout=REQUEST_TIMEOUT)
            if answer.status_code != 429:
                return answer
            retry_after = _retry_after(answer)
            if waited + retry_after > MAX_RATE_LIMIT_WAIT:
                raise SignUpFailed(f"POST {path} stayed rate limited for {waited:.0f} s: {answer.text[:300]}")
            time.sleep(retry_after)
            waited += retry_after
            STATISTICS.rate_limit_waits += retry_after


def _new_device_public_key() -> str | None:
    """A fresh P-256 public key as latchd wants it (base64url of the 65-byte X9.63 point), made with the
    `openssl` command; None when it is not installed (the user then has no device key)."""
    try:
        private_key = subprocess.run(
            ["openssl", "ecparam", "-name", "prime256v1", "-genkey", "-noout"], capture_output=True, check=True).stdout
        public_key = subprocess.run(
            ["openssl", "ec", "-pubout", "-outform", "DER"], input=private_key, capture_output=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return None
    # A DER SubjectPublicKeyInfo for P-256 ends with the uncompressed point 04 ‖ X ‖ Y.
    return base64.urlsafe_b64encode(public_key[-65:]).rstrip(b"=").decode()


def _retry_after(answer: requests.Response) -> float:
    try:
        return max(1.0, float(answer.json().get("retry_after") or answer.headers.get("Retry-After") or 1))
    except (ValueError, AttributeError):
        return 1.0


USER = SignedInUserState()


@schemathesis.auth(refresh_interval=None)
class LatchSignedInUser:
    """Bearer access token of the fuzzer's signed-in user (see the module's documentation).

    `refresh_interval=None`: Schemathesis does not cache the token; `SignedInUserState` keeps it for as
    long as its session lives, so every test case carries the current one.
    """

    def get(self, case: schemathesis.Case, context: schemathesis.AuthContext) -> str:
        return USER.access_token_for_next_case(case.operation.base_url or case.operation.schema.get_base_url())

    def set(self, case: schemathesis.Case, data: str, context: schemathesis.AuthContext) -> None:
        case.headers = case.headers or {}
        case.headers["Authorization"] = f"Bearer {data}"


@schemathesis.hook
def after_call(context: schemathesis.HookContext, case: schemathesis.Case, response: schemathesis.Response) -> None:
    """Notices a session the fuzzer ended (a logout, or 401 AUTH_004 to the current token) so the next case gets a live one."""
    authorization = (case.headers or {}).get("Authorization", "")
    if not authorization.startswith("Bearer "):
        return
    if case.operation.path.startswith("/v1/admin/"):
        # Admin operations take an admin key (none is configured here), never a user's token: their
        # 401 says nothing about the user's session.
        return
    if response.status_code == 204 and case.method.upper() == "POST" and case.operation.path == "/v1/logout":
        USER.session_ended(authorization.removeprefix("Bearer "))
        return
    if response.status_code == 200 and case.method.upper() == "DELETE" and case.operation.path == "/v1/me":
        # The fuzzer deleted the account (issue 12 §1): the next case needs a fresh one.
        USER.session_ended(authorization.removeprefix("Bearer "))
        return
    if response.status_code == 204 and case.method.upper() == "POST" and case.operation.path == "/v1/me/freeze":
        # The fuzzer froze the account (issue 19 §3): its sessions ended and no grant signs it in again.
        USER.session_ended(authorization.removeprefix("Bearer "))
        return
    if response.status_code != 401:
        return
    try:
        error = response.json().get("error")
    except ValueError:
        return
    if error == "AUTH_004":
        USER.session_ended(authorization.removeprefix("Bearer "))


# The refusals of a schema-valid request that are latchd's contract (see schemathesis.toml): status →
# the `error` it must carry, and for 422 the only (`field`, reason) pairs allowed. Any other refusal of a
# schema-valid request means the document and the validation disagree.
CONTRACT_REFUSALS: dict[int, tuple[str, frozenset[tuple[str, str]] | None]] = {
    400: ("AUTH_003", None),
    423: ("AUTH_002", None),
    422: (
        "VALIDATION_FAILED",
        frozenset({
            ("public_key", "not_p256_x963"),
            ("credential_id", "unknown"),
            ("challenge_id", "unknown_or_used"),
            ("cursor", "invalid"),
            # Issue 30 §2: what this verification accepts is a server-side fact (its policy, what passed).
            ("method", "not_offered"),
            ("method", "already_passed"),
            ("method", "not_set"),
            ("code", "not_sent"),
            # A passkey answer's credential must be one of this user's passkeys: a server-side fact, like
            # `credential_id` for a device key (documented at POST /v1/verifications/{id}/attempts).
            ("credential", "unknown_credential"),
        }),
    ),
}


@schemathesis.check
def schema_valid_request_refused_by_contract(
    ctx: schemathesis.CheckContext, response: schemathesis.Response, case: schemathesis.Case
) -> bool | None:
    """A schema-valid request answered 400, 422 or 423 must carry the contract's error for that status.

    schemathesis.toml lets `positive_data_acceptance` accept these statuses on the operations that take
    a guessable secret or name a server-side fact; this check makes sure such an answer is the
    wrong-secret, locked or unknown-fact answer and never a validation error the document does not
    predict (e.g. 400 VALIDATION_FAILED `missing`).
    """
    from schemathesis.specs.openapi.checks import is_unexpected_http_status_case

    meta = case.meta
    if meta is None or not meta.generation.mode.is_positive or is_unexpected_http_status_case(case):
        return None
    contract = CONTRACT_REFUSALS.get(response.status_code)
    if contract is None:
        return None
    error, allowed = contract
    try:
        body = response.json()
    except ValueError:
        body = None
    if not isinstance(body, dict):
        raise AssertionError(f"A schema-valid request was refused with {response.status_code} and a body that is not an error object")
    # Issue 31: a `DPoP` header is a schema-valid string, but whether it is a proof (a signed JWS naming this
    # request, fresh, unused, with the server's nonce) is a server-side check like a secret's: the token
    # endpoint and registration's verify refuse it with 400 DPOP_INVALID or USE_DPOP_NONCE.
    sent_proof = any(name.lower() == "dpop" for name in (case.headers or {}))
    if response.status_code == 400 and sent_proof and body.get("error") in ("DPOP_INVALID", "USE_DPOP_NONCE"):
        return None
    given = {(str(body.get("field")), str(reason)) for reason in body.get("reasons") or []}
    if body.get("error") != error or (allowed is not None and not (given and given <= allowed)):
        raise AssertionError(
            f"A schema-valid request was refused with {response.status_code} {body.get('error')} "
            f"(field {body.get('field')!r}, reasons {sorted(r for _, r in given)}): the document and the validation "
            f"disagree; the contract refuses a schema-valid request with {response.status_code} only as {error}"
            + (f" with (field, reason) from {sorted(allowed)}" if allowed else ""))
    return None
