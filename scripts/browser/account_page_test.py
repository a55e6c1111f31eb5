#!/usr/bin/env python3
"""Browser tests of latchd's web account page (issue 13 §3, issue 22 §6, issue 23 §1, issue 19), in
headless Chromium driven by Selenium.

    python3 scripts/browser/account_page_test.py .build/debug/latchd [unittest options, e.g. -k Rename]

Starts the given latchd (development mode: SQLite in a temporary directory, mail kept in the
development outbox, where the tests read the emailed codes) on a free loopback port, with
LATCH_WEBAUTHN_ORIGINS allowing only http://localhost:PORT, plus a plain HTTP forwarder on a
second port (a second origin, http://localhost:PORT2, with the same RP ID `localhost`). Chrome
DevTools' WebAuthn virtual authenticator (CTAP2, internal transport, resident keys, user
verification) is the independent client that makes the passkeys.

Needs: chromium and chromium-driver (Debian packages), selenium (pip, see .ci/run), python3.
Screenshots of the signed-in page in English and in Simplified Chinese are written to
LATCH_BROWSER_SCREENSHOTS (default: docs/ of this repository).

The tests of issue 19's endpoints (freeze link, "this wasn't me", anti-phishing code, holds) skip, with
the reason printed, only when the latchd under test answers 404 for the endpoint they need (a latchd
built before those endpoints). Set LATCH_BROWSER_REQUIRE_ALL=1 to make any skip fail the run.
"""
import base64
import hashlib
import hmac
import http.client
import http.server
import json
import os
import pathlib
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import unittest
import urllib.error
import urllib.request
import uuid

from selenium import webdriver
from selenium.common.exceptions import ElementNotInteractableException, TimeoutException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

REPO = pathlib.Path(__file__).resolve().parents[2]
PASSWORD = "Correct-Horse-9-battery"
NEW_PASSWORD = "Battery-Staple-7-horse"
WAIT = 15
TERMS_PATH = "/legal/terms-of-service"

# Reasons a test may skip (and the run still pass): the latchd under test lacks what the test needs.
MISSING_ENDPOINT = "endpoint missing on this latchd:"
NEWER_LATCHD = "needs a newer latchd:"

LATCHD = None  # set from argv
SERVER = None  # the running LatchdUnderTest
PAGE_PROOF = None  # (method, path, token) -> a DPoP proof by the open page's key (set by each test case)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class LatchdUnderTest:
    """latchd on 127.0.0.1:port (pages opened at http://localhost:port), and a forwarder on port2; `settings`
    are more LATCH_* variables (e.g. LATCH_DPOP="required")."""

    def __init__(self, binary, **settings):
        self.workdir = tempfile.mkdtemp(prefix="latch-browser.")
        self.port = free_port()
        self.api = f"http://127.0.0.1:{self.port}"
        self.origin = f"http://localhost:{self.port}"
        forwarder_port = free_port()
        self.other_origin = f"http://localhost:{forwarder_port}"
        env = {k: v for k, v in os.environ.items() if not k.startswith("LATCH_")}
        env.update(
            LATCH_ENV="development", LATCH_HOST="127.0.0.1", LATCH_PORT=str(self.port), LATCH_ISSUER=self.origin,
            LATCH_BCRYPT_COST="4", LATCH_WEBAUTHN_ORIGINS=self.origin, LATCH_RATE_LIMIT_SCALE="10",
            # The Terms of Service link configured; the Privacy Policy link left at its default (/privacy).
            LATCH_TERMS_URL=self.origin + TERMS_PATH,
            # The forwarder's origin serves latchd too: the page's DPoP proofs there name it (issue 41 §2 D1).
            LATCH_PUBLIC_ORIGINS=self.other_origin,
        )
        env.update(settings)
        self.log = open(os.path.join(self.workdir, "latchd.log"), "w")
        self.process = subprocess.Popen([binary], cwd=self.workdir, env=env, stdout=self.log, stderr=subprocess.STDOUT)
        deadline = time.time() + 60
        while True:
            if self.process.poll() is not None:
                raise RuntimeError("latchd exited during start:\n" + open(self.log.name).read())
            try:
                urllib.request.urlopen(self.api + "/health", timeout=1).read()
                break
            except OSError:
                if time.time() > deadline:
                    raise RuntimeError("latchd did not answer /health")
                time.sleep(0.1)
        self.forwarder = Forwarder(self.port, forwarder_port)

    def stop(self):
        self.forwarder.stop()
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.log.close()
        shutil.rmtree(self.workdir, ignore_errors=True)

    # The API, directly (for what a second device does, and to read mailed codes).

    def call(self, method, path, body=None, bearer=None, nonce=None):
        """`method path` with `bearer`'s token; a DPoP-bound one (the page's, issue 41 §2) goes as the page
        would send it: `Authorization: DPoP` with a proof by the page's key (PAGE_PROOF), signed again once
        with the nonce of a USE_DPOP_NONCE answer (LATCH_DPOP_NONCE=1)."""
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.api + path, data=data, method=method)
        if data is not None:
            request.add_header("Content-Type", "application/json")
        bound = bool(bearer) and is_bound(bearer)
        if bound:
            request.add_header("Authorization", "DPoP " + bearer)
            request.add_header("DPoP", PAGE_PROOF(method, path.split("?")[0], bearer, nonce))
        elif bearer:
            request.add_header("Authorization", "Bearer " + bearer)
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                text = response.read()
                return response.status, (json.loads(text) if text else None)
        except urllib.error.HTTPError as error:
            text = error.read()
            answer = json.loads(text) if text else None
            fresh = error.headers.get("DPoP-Nonce")
            if bound and nonce is None and fresh and (answer or {}).get("error") == "USE_DPOP_NONCE":
                return self.call(method, path, body, bearer, nonce=fresh)
            return error.code, answer

    def latest_code(self, email, after=0):
        """The newest emailed code to `email`, waiting until there are more than `after` codes."""
        deadline = time.time() + WAIT
        while time.time() < deadline:
            status, messages = self.call("GET", "/dev/outbox?to=" + urllib.request.quote(email))
            codes = [m["code"] for m in (messages or []) if m.get("code")]
            if status == 200 and len(codes) > after:
                return codes[-1]
            time.sleep(0.1)
        raise AssertionError(f"no code mailed to {email}")

    def code_count(self, email):
        status, messages = self.call("GET", "/dev/outbox?to=" + urllib.request.quote(email))
        return len([m for m in (messages or []) if m.get("code")])

    def age_account(self, email, days=2):
        """Makes the account look `days` old (its row in the SQLite file of this latchd): security holds
        start only for accounts older than the hold (a new user setting up is not a thief)."""
        import sqlite3
        with sqlite3.connect(os.path.join(self.workdir, "latch.sqlite"), timeout=10) as database:
            changed = database.execute("UPDATE users SET created_at = created_at - ? WHERE email = ?", (days * 86400, email)).rowcount
        assert changed == 1, changed

    def messages(self, email):
        status, messages = self.call("GET", "/dev/outbox?to=" + urllib.request.quote(email))
        assert status == 200, status
        return messages or []

    def endpoint_missing(self, method, path, body=None):
        """Whether this latchd lacks `method path` (404). Asked without a token: a route that exists answers
        401 (signed-in routes) or its own answer; an unknown path answers 404."""
        status, _ = self.call(method, path, body)
        return status == 404

    def sign_in_other_device(self, email, name, password=PASSWORD, device_id=None):
        """A second device signs in with the password (its mailed new-device code too, the first time
        for `device_id`); its tokens."""
        device = {"id": device_id or "device-" + uuid.uuid4().hex, "name": name, "platform": "iOS"}
        before = self.code_count(email)
        status, answer = self.call("POST", "/v1/token", {"grant_type": "password", "email": email, "password": password, "device": device})
        if status == 403 and answer["error"] == "VERIFICATION_REQUIRED":
            code = self.latest_code(email, after=before)
            status, answer = self.call(
                "POST", "/v1/token", {"grant_type": "login_challenge", "challenge_id": answer["challenge_id"], "code": code, "device": device})
        assert status == 200, (status, answer)
        return answer


def is_bound(token):
    """Whether access token `token` is bound to a DPoP key (its claims carry `cnf.jkt`)."""
    try:
        payload = token.split(".")[1]
        claims = json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))
    except (IndexError, ValueError):
        return False
    return isinstance(claims.get("cnf"), dict) and "jkt" in claims["cnf"]


class Forwarder:
    """A plain HTTP forwarder: another origin (another port) in front of the same latchd."""

    def __init__(self, target_port, port=0):
        target = target_port

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def forward(self):
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else None
                connection = http.client.HTTPConnection("127.0.0.1", target, timeout=20)
                headers = {k: v for k, v in self.headers.items() if k.lower() not in ("host", "connection")}
                connection.request(self.command, self.path, body=body, headers=headers)
                answer = connection.getresponse()
                data = answer.read()
                self.send_response(answer.status)
                for key, value in answer.getheaders():
                    if key.lower() not in ("connection", "transfer-encoding", "content-length"):
                        self.send_header(key, value)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)
                connection.close()

            do_GET = do_POST = do_PATCH = do_DELETE = do_PUT = forward

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", port), Handler)
        self.port = self.server.server_address[1]
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def stop(self):
        self.server.shutdown()
        self.server.server_close()


def totp_now(secret_base32, at=None):
    """RFC 6238 (SHA-1, 6 digits, 30 s) for the secret of `POST /v1/mfa/totp`: an independent authenticator."""
    secret = base64.b32decode(secret_base32.upper() + "=" * (-len(secret_base32) % 8))
    counter = int((time.time() if at is None else at) // 30)
    digest = hmac.new(secret, counter.to_bytes(8, "big"), hashlib.sha1).digest()
    offset = digest[-1] & 0x0F
    number = int.from_bytes(digest[offset:offset + 4], "big") & 0x7FFFFFFF
    return f"{number % 1_000_000:06d}"


def make_driver(language):
    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu", "--window-size=900,1500",
                     f"--lang={language}", "--force-device-scale-factor=1"):
        options.add_argument(argument)
    options.add_experimental_option("prefs", {"intl.accept_languages": language})
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    service = Service(executable_path=shutil.which("chromedriver") or "/usr/bin/chromedriver")
    driver = webdriver.Chrome(options=options, service=service)
    driver.set_page_load_timeout(30)
    return driver


# JavaScript run in the page by WebDriver (not subject to the page's CSP): record the API's answers.
RECORD_FETCH = """
window.__latchAnswers = [];
const original = window.fetch;
window.fetch = async (input, init) => {
  const response = await original(input, init);
  const copy = response.clone();
  copy.text().then((text) => window.__latchAnswers.push({url: String(input), method: (init && init.method) || 'GET',
    status: response.status, body: text}));
  return response;
};
"""


class AccountPageTestCase(unittest.TestCase):
    language = "en-US"

    @classmethod
    def setUpClass(cls):
        cls.driver = make_driver(cls.language)
        cls.driver.execute_cdp_cmd("WebAuthn.enable", {"enableUI": False})

    @classmethod
    def tearDownClass(cls):
        cls.driver.quit()

    def setUp(self):
        global PAGE_PROOF
        PAGE_PROOF = self.page_proof
        answer = self.driver.execute_cdp_cmd("WebAuthn.addVirtualAuthenticator", {"options": {
            "protocol": "ctap2", "transport": "internal", "hasResidentKey": True, "hasUserVerification": True,
            "isUserVerified": True, "automaticPresenceSimulation": True}})
        self.authenticator = answer["authenticatorId"]
        self.email = f"web-{uuid.uuid4().hex[:12]}@example.com"

    def tearDown(self):
        self.driver.execute_cdp_cmd("WebAuthn.removeVirtualAuthenticator", {"authenticatorId": self.authenticator})
        # The page itself never trips its Content-Security-Policy (the CSP test's own probe trips it once).
        violations = [e["message"] for e in self.driver.get_log("browser") if "Content Security Policy" in e["message"]]
        expected = getattr(self, "expected_violations", 0)
        self.assertEqual(len(violations), expected, violations)

    # Page helpers

    def page_proof(self, method, path, token, nonce=None):
        """A DPoP proof for `method path` with `token` (and `nonce`), signed in the open page by its own key
        (dpop.js, the key the page keeps in IndexedDB): what the page's session is bound to."""
        proof = self.driver.execute_async_script("""
            const [method, path, token, nonce, done] = arguments;
            import('/account/dpop.js').then(({ createProofSigner }) => createProofSigner().proof(method, path, token, nonce))
              .then(done, (error) => done('error: ' + error));
        """, method, path, token, nonce)
        self.assertTrue(proof and not proof.startswith("error"), proof)
        return proof

    def by_id(self, element_id):
        return self.driver.find_element(By.ID, element_id)

    def wait(self, condition, message):
        try:
            return WebDriverWait(self.driver, WAIT).until(lambda d: condition())
        except TimeoutException:
            self.fail(f"{message}; status={self.text('status')!r} error={self.text('error')!r}")

    def text(self, element_id):
        return self.driver.execute_script("return document.getElementById(arguments[0]).textContent", element_id)

    def visible(self, element_id):
        return self.by_id(element_id).is_displayed()

    def open_page(self, origin=None):
        self.driver.get((origin or SERVER.origin) + "/account")
        self.wait(lambda: self.driver.execute_script("return document.body.dataset.ready === 'true'"), "the page's script did not start")
        self.driver.execute_script(RECORD_FETCH)

    def answers(self, path):
        return [a for a in self.driver.execute_script("return window.__latchAnswers") if path in a["url"]]

    def focused_id(self):
        return self.driver.execute_script("return document.activeElement && document.activeElement.id")

    def wait_signed_in(self):
        self.wait(lambda: self.visible("account") and self.text("account-name") == self.email, "not signed in")
        self.wait(lambda: len(self.driver.find_elements(By.CSS_SELECTOR, "#session-list li")) > 0, "no sessions listed")
        self.assertFalse(self.visible("signin"))
        self.assertEqual(self.focused_id(), "account-heading", "focus moves to the account heading after sign-in")

    def sign_up(self):
        self.open_page()
        self.by_id("signup-email").send_keys(self.email)
        self.by_id("signup-password").send_keys(PASSWORD)
        self.by_id("signup-terms").click()
        self.by_id("signup-submit").click()
        self.wait(lambda: self.visible("signup-code-form"), "no code step after sign-up")
        self.assertEqual(self.focused_id(), "signup-code")
        self.by_id("signup-code").send_keys(SERVER.latest_code(self.email) + Keys.ENTER)
        self.wait_signed_in()

    def passkey_names(self):
        return self.texts("#passkey-list li .name")

    def texts(self, selector):
        return self.driver.execute_script(
            "return Array.from(document.querySelectorAll(arguments[0]), (e) => e.textContent)", selector)

    def add_passkey(self, name):
        count = len(self.passkey_names())
        self.by_id("passkey-name").send_keys(name)
        self.by_id("add-passkey").click()
        self.wait(lambda: len(self.passkey_names()) == count + 1, f"passkey {name} not added")
        self.assertIn(name, self.passkey_names())

    def presence(self, on):
        """Whether the virtual authenticator answers requests made from now on by itself. Off, a
        conditional (autofill) request started meanwhile stays pending, as when nobody picks a passkey."""
        self.driver.execute_cdp_cmd("WebAuthn.setAutomaticPresenceSimulation", {"authenticatorId": self.authenticator, "enabled": on})

    def passkey_button_sign_in(self):
        # The autofill request pending since the sign-out (made with presence off) is never answered;
        # the click aborts it and starts a modal request, which the authenticator answers.
        self.presence(True)
        button = self.by_id("passkey-signin")
        # Under load the page's autofill request can start only after presence is on, and the authenticator
        # then answers it by itself: the page is signed in by the passkey before any click (seen once with a
        # fuzzer and a CI build on the same two cores). That is the same sign-in by the same passkey.
        def signed_in_already():
            return self.visible("account")

        self.wait(
            lambda: signed_in_already() or (button.is_displayed() and button.is_enabled()),
            "the passkey button cannot be clicked")

        # Shown and enabled is not always clickable yet: once in a fresh run Chromium answered "element not
        # interactable" while the page was still settling. A refused click clicked nothing; try again.
        def clicked():
            if signed_in_already():
                return True
            try:
                button.click()
                return True
            except ElementNotInteractableException:
                return False

        self.wait(clicked, "the passkey button cannot be clicked")

    def sign_out(self):
        # The page offers passkeys to autofill again at once; keep that request pending.
        self.presence(False)
        self.by_id("signout").click()
        self.wait(lambda: self.visible("signin") and not self.visible("account"), "not signed out")
        self.assertEqual(self.focused_id(), "signin-heading")

    def credentials(self):
        return self.driver.execute_cdp_cmd("WebAuthn.getCredentials", {"authenticatorId": self.authenticator})["credentials"]

    def require_endpoint(self, method, path, body=None):
        """Skips (with the reason printed) when this latchd answers 404 for `method path`: built before it."""
        if SERVER.endpoint_missing(method, path, body):
            self.skipTest(f"{MISSING_ENDPOINT} {method} {path} answers 404 (issue 19's server endpoints not merged yet)")

    def enable_totp(self):
        """Turns 2FA on through the API with the page's fresh session; the recovery codes."""
        token = self.access_token()
        status, enrollment = SERVER.call("POST", "/v1/mfa/totp", bearer=token)
        self.assertEqual(status, 200, enrollment)
        status, activated = SERVER.call("POST", "/v1/mfa/totp/activate", {"code": totp_now(enrollment["secret"])}, bearer=token)
        self.assertEqual(status, 200, activated)
        return activated["recovery_codes"]

    def page_password_sign_in(self, password=PASSWORD, second_factor=None):
        """Signs in on the page with the password (finishing the unusual-sign-in step if the server asks:
        the emailed code, or `second_factor` when 2FA is on)."""
        codes_before = SERVER.code_count(self.email)
        self.by_id("signin-email").clear()
        self.by_id("signin-email").send_keys(self.email)
        self.by_id("signin-password").clear()
        self.by_id("signin-password").send_keys(password + Keys.ENTER)
        self.wait(lambda: self.visible("account") or self.visible("code-form"), "no answer to the password")
        if self.visible("code-form"):
            code = second_factor or SERVER.latest_code(self.email, after=codes_before)
            self.by_id("signin-code").send_keys(code + Keys.ENTER)
        self.wait_signed_in()

    def event_types(self):
        return self.driver.execute_script(
            "return Array.from(document.querySelectorAll('#event-list li'), (e) => e.dataset.type)")

    def accept_confirmation(self):
        alert = WebDriverWait(self.driver, WAIT).until(lambda d: d.switch_to.alert)
        text = alert.text
        alert.accept()
        return text

    def access_token(self):
        """The page's newest access token, from the answers it received."""
        for answer in reversed(self.answers("/v1/")):
            try:
                body = json.loads(answer["body"])
            except ValueError:
                continue
            if isinstance(body, dict) and body.get("access_token"):
                return body["access_token"]
        self.fail("no access token seen")

    def storage_is_empty(self):
        return self.driver.execute_script("return localStorage.length === 0 && sessionStorage.length === 0 && document.cookie === ''")


class EnglishAccountPageTests(AccountPageTestCase):
    def test_I13_signUpAddPasskeySignOutSignInWithPasskey_ChromiumVirtualAuthenticatorCredentialSignsIn(self):
        self.sign_up()
        self.add_passkey("Work laptop")
        registered = self.answers("/v1/passkeys")
        self.assertTrue(any(a["method"] == "POST" and a["status"] == 201 for a in registered), registered)
        credentials = self.credentials()
        self.assertEqual(len(credentials), 1)
        self.assertTrue(credentials[0]["isResidentCredential"], "a discoverable credential")
        self.assertEqual(credentials[0]["rpId"], "localhost")
        self.assertIn("never used", self.driver.find_element(By.CSS_SELECTOR, "#passkey-list li .meta").text)
        self.sign_out()

        # Interop: the credential Chromium's virtual authenticator registered signs in (no email typed,
        # discoverable credential; a passkey is a strong factor, so no emailed code even on this new sign-in).
        codes_before = SERVER.code_count(self.email)
        signed = self.credentials()[0]["signCount"]
        self.passkey_button_sign_in()
        self.wait_signed_in()
        self.assertFalse(self.visible("code-form"))
        self.assertEqual(SERVER.code_count(self.email), codes_before, "no emailed code for a passkey sign-in")
        grants = [a for a in self.answers("/v1/token") if a["method"] == "POST"]
        self.assertEqual(grants[-1]["status"], 200, grants)
        self.assertEqual(self.credentials()[0]["signCount"], signed + 1, "the authenticator signed once")
        self.wait(lambda: "last used" in self.driver.find_element(By.CSS_SELECTOR, "#passkey-list li .meta").text, "last use not shown")
        self.assertTrue(self.storage_is_empty(), "tokens are held in memory only")

    def test_I13_autofillConditionalMediationSignsInWithPasskey(self):
        self.sign_up()
        self.add_passkey("Desktop")
        self.sign_out()
        # Signed out, the page asks for a passkey with mediation "conditional" (offered in the email
        # field's autofill); the virtual authenticator answers it as a person picking the passkey would.
        self.assertTrue(self.driver.execute_script("return PublicKeyCredential.isConditionalMediationAvailable()"))
        self.assertEqual(self.by_id("signin-email").get_attribute("autocomplete"), "username webauthn")
        codes_before = SERVER.code_count(self.email)
        signed = self.credentials()[0]["signCount"]
        self.presence(True)
        self.open_page()
        self.wait_signed_in()
        self.assertEqual(self.credentials()[0]["signCount"], signed + 1, "one assertion, from the autofill request")
        self.assertEqual(SERVER.code_count(self.email), codes_before, "no emailed code for a passkey sign-in")
        self.assertTrue(self.storage_is_empty())

    def test_I13_passwordSignInFromNewDeviceAsksForEmailedCode_ErrorsShowTheAPIMessage(self):
        self.sign_up()
        self.sign_out()
        self.open_page()  # a reload: a new page is a new device
        self.assertFalse(self.visible("account"), "a reload signs out: nothing kept")
        self.by_id("signin-email").send_keys(self.email)
        self.by_id("signin-password").send_keys("Wrong-Password-1" + Keys.ENTER)
        self.wait(lambda: self.text("error") != "", "no error for a wrong password")
        refused = self.answers("/v1/token")[-1]
        self.assertEqual(refused["status"], 401)
        self.assertEqual(self.text("error"), json.loads(refused["body"])["message"], "the API's message is shown")

        self.by_id("signin-password").clear()
        codes_before = SERVER.code_count(self.email)
        self.by_id("signin-password").send_keys(PASSWORD + Keys.ENTER)
        self.wait(lambda: self.visible("code-form"), "no new-device code step")
        self.assertEqual(self.focused_id(), "signin-code")
        code = SERVER.latest_code(self.email, after=codes_before)
        wrong = "000000" if code != "000000" else "111111"
        self.by_id("signin-code").send_keys(wrong + Keys.ENTER)
        self.wait(lambda: self.text("error") != "", "no error for a wrong code")
        refused = self.answers("/v1/token")[-1]
        self.assertEqual(json.loads(refused["body"])["error"], "AUTH_003")
        self.assertEqual(self.text("error"), json.loads(refused["body"])["message"])
        self.by_id("signin-code").clear()
        self.by_id("signin-code").send_keys(code + Keys.ENTER)
        self.wait_signed_in()
        self.assertEqual(self.text("error"), "")

    def test_I13_keyboardOnlySignInAndSignOut_everyFieldLabelled(self):
        self.sign_up()
        self.add_passkey("Keyboard key")
        unlabelled = self.driver.execute_script("""
            return Array.from(document.querySelectorAll('input, button')).filter((e) =>
              !(e.labels && e.labels.length) && !e.getAttribute('aria-label') && !e.textContent.trim()).map((e) => e.outerHTML)""")
        self.assertEqual(unlabelled, [], "every field has a label and every button a name")
        live = self.driver.execute_script(
            "return [document.getElementById('status').getAttribute('aria-live'), document.getElementById('error').getAttribute('aria-live')]")
        self.assertEqual(live, ["polite", "assertive"])
        focused = self.driver.execute_script("return document.activeElement.closest('li') && document.activeElement.closest('li').textContent")
        self.assertIn("Keyboard key", focused or "", "focus moves to the new passkey's first button")
        self.assertTrue(self.tab_to("signout"), "Tab reaches the sign-out button")
        self.presence(False)
        self.driver.switch_to.active_element.send_keys(Keys.ENTER)
        self.wait(lambda: self.visible("signin"), "Enter on the sign-out button signs out")
        self.assertTrue(self.tab_to("signin-email"), "Tab reaches the email field")
        self.driver.switch_to.active_element.send_keys(self.email + Keys.TAB + PASSWORD + Keys.ENTER)
        self.wait_signed_in()

    def tab_to(self, element_id, limit=40):
        for _ in range(limit):
            if self.focused_id() == element_id:
                return True
            webdriver.ActionChains(self.driver).send_keys(Keys.TAB).perform()
        return self.focused_id() == element_id

    def test_I13_browserEnforcesTheCSP_noInlineScriptRuns(self):
        self.open_page()
        ran = self.driver.execute_script("""
            const probe = document.createElement('script');
            probe.textContent = 'window.__inlineProbe = 1';
            document.head.append(probe);
            return window.__inlineProbe === 1""")
        self.assertFalse(ran, "an inline script is refused by the page's CSP")
        # That refusal is the one CSP message this test expects; the page's own code made none.
        self.expected_violations = 1

    def test_I13_renameAndRemovePasskey(self):
        self.sign_up()
        self.add_passkey("Phone")
        item = self.driver.find_element(By.CSS_SELECTOR, "#passkey-list li")
        item.find_element(By.CSS_SELECTOR, "button.rename").click()
        field = self.driver.find_element(By.CSS_SELECTOR, "#passkey-list li input.rename-input")
        self.assertEqual(self.driver.switch_to.active_element, field, "the rename field takes the focus")
        field.send_keys(Keys.CONTROL, "a")
        field.send_keys("Security key" + Keys.ENTER)
        self.wait(lambda: self.passkey_names() == ["Security key"], "not renamed")
        status, listed = SERVER.call("GET", "/v1/passkeys", bearer=self.access_token())
        self.assertEqual([p["name"] for p in listed], ["Security key"])

        self.driver.find_element(By.CSS_SELECTOR, "#passkey-list li button.remove").click()
        WebDriverWait(self.driver, WAIT).until(lambda d: d.switch_to.alert).accept()
        self.wait(lambda: self.passkey_names() == [] and self.visible("no-passkeys"), "not removed")
        status, listed = SERVER.call("GET", "/v1/passkeys", bearer=self.access_token())
        self.assertEqual(listed, [])

    def test_I13_sessionsListedOneSignedOutThenAllOthers(self):
        self.sign_up()
        phone = SERVER.sign_in_other_device(self.email, "Other phone")
        tablet = SERVER.sign_in_other_device(self.email, "Old tablet")
        # The page lists sessions when it signs in: sign in again in the same page (a known device now).
        self.sign_out()
        self.by_id("signin-email").send_keys(self.email)
        self.by_id("signin-password").send_keys(PASSWORD + Keys.ENTER)
        self.wait_signed_in()
        names = lambda: self.texts("#session-list li .name")
        self.wait(lambda: len(names()) == 3, "three sessions")
        self.assertIn("Other phone", names())
        self.assertIn("Old tablet", names())
        current = self.driver.find_elements(By.CSS_SELECTOR, "#session-list li.current")
        self.assertEqual(len(current), 1)

        tablet_item = [e for e in self.driver.find_elements(By.CSS_SELECTOR, "#session-list li") if "Old tablet" in e.text][0]
        tablet_item.find_element(By.CSS_SELECTOR, "button.revoke").click()
        self.wait(lambda: len(names()) == 2 and "Old tablet" not in names(), "tablet not signed out")
        status, _ = SERVER.call("POST", "/v1/token", {"grant_type": "refresh_token", "refresh_token": tablet["refresh_token"]})
        self.assertEqual(status, 401)

        self.by_id("signout-others").click()
        self.wait(lambda: len(names()) == 1, "others not signed out")
        self.assertFalse(self.visible("signout-others"))
        status, _ = SERVER.call("GET", "/v1/sessions", bearer=phone["access_token"])
        self.assertEqual(status, 401, "the other device's access token is revoked")
        self.sign_out()
        self.assertEqual(SERVER.call("POST", "/v1/token", {"grant_type": "refresh_token", "refresh_token": phone["refresh_token"]})[0], 401)

    def test_I13_wrongOriginAssertionIsRefusedByTheServer(self):
        self.sign_up()
        self.add_passkey("Laptop")
        self.sign_out()
        # The same page and authenticator on another origin (same RP ID `localhost`, another port)
        # that LATCH_WEBAUTHN_ORIGINS does not allow: the browser signs, the server refuses.
        self.open_page(SERVER.other_origin)
        self.passkey_button_sign_in()
        self.wait(lambda: self.text("error") != "", "no refusal shown")
        self.assertFalse(self.visible("account"))
        refused = [a for a in self.answers("/v1/token") if a["method"] == "POST"][-1]
        body = json.loads(refused["body"])
        self.assertEqual(refused["status"], 401, refused)
        self.assertEqual(body["error"], "AUTH_001")
        self.assertEqual(body.get("reasons"), ["origin_not_allowed"], body)
        self.assertEqual(self.text("error"), body["message"])
        self.assertGreaterEqual(self.credentials()[0]["signCount"], 1, "the authenticator did sign the assertion")
        # The same credential at the allowed origin signs in.
        self.presence(False)
        self.open_page()
        self.passkey_button_sign_in()
        self.wait_signed_in()



class DPoPRequiredTests(AccountPageTestCase):
    """Issue 41 §2: the page binds its session to a non-extractable WebCrypto key (ECDSA P-256, kept in
    IndexedDB) and signs every call with it, so it works against a latchd with LATCH_DPOP=required (and
    server nonces, LATCH_DPOP_NONCE=1: the page signs again with the nonce it is given)."""

    @classmethod
    def setUpClass(cls):
        global SERVER
        cls.shared = SERVER
        SERVER = LatchdUnderTest(LATCHD, LATCH_DPOP="required", LATCH_DPOP_NONCE="1")
        super().setUpClass()

    @classmethod
    def tearDownClass(cls):
        global SERVER
        super().tearDownClass()
        SERVER.stop()
        SERVER = cls.shared

    def page_key(self):
        return self.driver.execute_async_script("""
            const done = arguments[arguments.length - 1];
            const opened = indexedDB.open('latch-account');
            opened.onerror = () => done({ error: 'no database' });
            opened.onsuccess = () => {
              const request = opened.result.transaction('keys', 'readonly').objectStore('keys').get('dpop');
              request.onsuccess = async () => {
                const pair = request.result;
                if (!pair) { done(null); return; }
                const exported = await crypto.subtle.exportKey('jwk', pair.privateKey).then(() => 'exported', (e) => e.name);
                done({ extractable: pair.privateKey.extractable, type: pair.privateKey.type,
                       curve: pair.privateKey.algorithm.namedCurve, usages: pair.privateKey.usages, exported,
                       x: (await crypto.subtle.exportKey('jwk', pair.publicKey)).x });
              };
              request.onerror = () => done({ error: 'no key' });
            };
        """)

    def test_I41_2_dpopRequired_pageSignsUpSignsInAndCallsTheAPIWithItsKey(self):
        self.sign_up()  # the verify grant carries a proof; the sessions list (wait_signed_in) is a bound call
        verify = [a for a in self.answers("/v1/registrations/") if a["url"].endswith("/verify")]
        self.assertEqual(json.loads(verify[-1]["body"])["token_type"], "DPoP", verify)
        self.assertEqual(json.loads(verify[0]["body"])["error"], "USE_DPOP_NONCE", "asked for the nonce, signed again")
        key = self.page_key()
        self.assertEqual(key["extractable"], False, key)
        self.assertEqual((key["type"], key["curve"], key["usages"]), ("private", "P-256", ["sign"]), key)
        self.assertEqual(key["exported"], "InvalidAccessError", "the private key cannot leave WebCrypto")
        self.assertTrue(self.storage_is_empty(), "no token or key in web storage or cookies")

        # The page's token without the page's key is refused: as Bearer, and with no proof.
        token = self.access_token()
        for headers in ({"Authorization": "Bearer " + token}, {"Authorization": "DPoP " + token}):
            request = urllib.request.Request(SERVER.api + "/v1/me", headers=headers)
            with self.assertRaises(urllib.error.HTTPError) as refused:
                urllib.request.urlopen(request, timeout=10)
            self.assertEqual(refused.exception.code, 401)
            self.assertEqual(json.loads(refused.exception.read())["error"], "DPOP_INVALID")
        status, me = SERVER.call("GET", "/v1/me", bearer=token)  # with a proof by the page's key
        self.assertEqual(status, 200, me)

        # Signing out discards the key (the signed-out page's next call makes a new one); the password
        # sign-in binds to the new one.
        self.sign_out()
        self.wait(lambda: (self.page_key() or {}).get("x") != key["x"], "the key did not leave with the session")
        self.page_password_sign_in()
        signed_in = [a for a in self.answers("/v1/token") if a["status"] == 200][-1]
        self.assertEqual(json.loads(signed_in["body"])["token_type"], "DPoP")
        self.assertNotEqual(self.page_key()["x"], key["x"], "a new key for the new session")
        self.wait(lambda: self.text("error") == "", "an error after sign-in")


    def test_I41_2_wrongDeviceClock_proofsDatedByTheServersDate(self):
        self.open_page()
        # The page's own api.js with a scripted fetch: latchd's clock is two hours ahead of the device's.
        result = self.driver.execute_async_script("""
            const done = arguments[arguments.length - 1];
            import('/account/api.js').then(async ({ createClient }) => {
              const serverTime = Date.now() + 2 * 3600 * 1000;
              const iats = [];
              const stale = () => new Response(JSON.stringify({ error: 'DPOP_INVALID', message: 'stale', reasons: ['stale_iat'] }),
                { status: 400, headers: { 'Date': new Date(serverTime).toUTCString() } });
              const fetch = async (path, init) => {
                const claims = init.headers['DPoP'].split('.')[1].replace(/-/g, '+').replace(/_/g, '/');
                iats.push(JSON.parse(atob(claims)).iat);
                return iats.length === 1 || iats.length === 4 ? stale() : new Response('{}', { status: 200 });
              };
              const client = createClient({ language: 'en', networkMessage: 'offline', unexpectedMessage: (s) => 'HTTP ' + s,
                onSessionEnded: () => {}, fetch });
              const statuses = [];
              for (let i = 0; i < 3; i += 1) {
                statuses.push(await client.call('POST', '/v1/token', { grant_type: 'password' }).then(() => 200, (e) => e.status));
              }
              done({ iats, serverTime: Math.floor(serverTime / 1000), device: Math.floor(Date.now() / 1000), statuses });
            }, (error) => done({ error: String(error) }));
        """)
        self.assertNotIn("error", result, result)
        self.assertEqual(result["statuses"], [200, 200, 400], "signed again once; a second stale answer is not a loop")
        self.assertLessEqual(abs(result["iats"][0] - result["device"]), 5, result)
        for iat in result["iats"][1:]:
            self.assertLessEqual(abs(iat - result["serverTime"]), 5, result)


class ModuleAndRecoveryCodeTests(AccountPageTestCase):
    """Issue 22 §6: the script in ES modules, one refresh at a time, a recovery code finishes an unusual sign-in."""

    def test_I22_6_pageIsModuleScripts_servedFromSelf(self):
        self.open_page()
        scripts = self.driver.execute_script(
            "return Array.from(document.scripts, (s) => [s.type, s.getAttribute('src')])")
        self.assertEqual(scripts, [["module", "/account/account.js"]])
        loaded = self.driver.execute_script(
            "return performance.getEntriesByType('resource').map((e) => new URL(e.name).pathname).filter((p) => p.endsWith('.js')).sort()")
        self.assertEqual(loaded, ["/account/account.js", "/account/api.js", "/account/dpop.js", "/account/i18n.js", "/account/qr.js",
                                  "/account/view.js", "/account/webauthn.js"])

    def test_I22_6_apiRefreshIsSingleFlight(self):
        self.open_page()
        # The page's own api.js module, with a scripted fetch: three calls meet a 401 together and share
        # one refresh; then a refused refresh ends the session once for both calls that met it.
        result = self.driver.execute_async_script("""
            const done = arguments[arguments.length - 1];
            import('/account/api.js').then(async ({ createClient, APIError }) => {
              let refreshes = 0, ended = 0;
              const answer = (status, body) => new Response(JSON.stringify(body), { status });
              const fetch = async (path, init) => {
                const auth = init.headers['Authorization'] || '';
                if (path === '/v1/token') {
                  refreshes += 1;
                  const sent = JSON.parse(init.body).refresh_token;
                  await new Promise((resolve) => setTimeout(resolve, 50));
                  return sent === 'refresh-1' ? answer(200, { access_token: 'access-2', refresh_token: 'refresh-2' })
                    : answer(401, { error: 'AUTH_005', message: 'Session expired' });
                }
                return auth === 'Bearer access-2' ? answer(200, { path }) : answer(401, { error: 'AUTH_004', message: 'expired' });
              };
              const client = createClient({ language: 'en', networkMessage: 'offline', unexpectedMessage: (s) => 'HTTP ' + s,
                onSessionEnded: () => { ended += 1; }, fetch });
              client.signIn({ access_token: 'access-1', refresh_token: 'refresh-1' });
              const answers = await Promise.all(['/v1/a', '/v1/b', '/v1/c'].map((p) => client.call('GET', p, undefined, { bearer: true })));
              const afterFirst = refreshes;
              client.signIn({ access_token: 'access-3', refresh_token: 'refresh-3' });
              const refused = await Promise.all(['/v1/d', '/v1/e'].map((p) => client.call('GET', p, undefined, { bearer: true })
                .then(() => 'answered', (e) => e instanceof APIError ? e.status : String(e))));
              done({ answers: answers.map((a) => a.path), afterFirst, refreshes, ended, refused, signedIn: client.signedIn });
            }, (error) => done({ error: String(error) }));
        """)
        self.assertNotIn("error", result, result)
        self.assertEqual(result["answers"], ["/v1/a", "/v1/b", "/v1/c"], "each call repeated once with the new token")
        self.assertEqual(result["afterFirst"], 1, "three 401s together: one refresh")
        self.assertEqual(result["refreshes"], 2)
        self.assertEqual(result["refused"], [401, 401])
        self.assertEqual(result["ended"], 1, "a refused refresh ends the session once")
        self.assertFalse(result["signedIn"])

    def test_I22_6_recoveryCodeFinishesUnusualSignIn(self):
        self.sign_up()
        recovery = self.enable_totp()[0]
        self.assertRegex(recovery, r"^[a-z0-9]{5}-[a-z0-9]{5}$")
        self.sign_out()
        self.open_page()  # a new page is a new device: with 2FA on, the server asks for the second factor
        self.by_id("signin-email").send_keys(self.email)
        self.by_id("signin-password").send_keys(PASSWORD + Keys.ENTER)
        self.wait(lambda: self.visible("code-form"), "no unusual-sign-in step")
        challenge = json.loads(self.answers("/v1/token")[-1]["body"])
        self.assertEqual((challenge.get("error"), challenge.get("method")), ("VERIFICATION_REQUIRED", "totp"), challenge)
        self.assertEqual(self.focused_id(), "signin-code")
        self.assertIn("recovery codes", self.text("code-hint"))
        self.assertEqual(self.text("signin-code-label"), "Authenticator code or recovery code")
        field = self.by_id("signin-code")
        self.assertFalse(self.driver.execute_script("return document.getElementById('signin-code').hasAttribute('pattern')"),
                         "no six-digit pattern: a recovery code has letters and a dash")
        field.send_keys(recovery)
        self.assertTrue(self.driver.execute_script("return document.getElementById('code-form').checkValidity()"),
                        "the form takes the recovery code")
        field.send_keys(Keys.ENTER)
        self.wait_signed_in()
        grant = [a for a in self.answers("/v1/token") if a["method"] == "POST"][-1]
        self.assertEqual(grant["status"], 200, grant)
        # It was taken as the recovery code it is: spent, it does not finish another unusual sign-in.
        device = {"id": "device-" + uuid.uuid4().hex, "name": "Thief", "platform": "iOS"}
        status, again = SERVER.call("POST", "/v1/token", {"grant_type": "password", "email": self.email, "password": PASSWORD, "device": device})
        self.assertEqual((status, again["error"]), (403, "VERIFICATION_REQUIRED"))
        status, refused = SERVER.call("POST", "/v1/token", {
            "grant_type": "login_challenge", "challenge_id": again["challenge_id"], "code": recovery, "device": device})
        self.assertEqual(refused["error"], "AUTH_003", refused)


class SecurityTests(AccountPageTestCase):
    """Issue 19 on the page: security events (paged), "this wasn't me", holds, anti-phishing code, freeze link."""

    def test_I19_3_securityEventsListedInThePageLanguage(self):
        self.sign_up()
        self.add_passkey("Events key")
        self.wait(lambda: "passkey_added" in self.event_types(), "the passkey's addition is listed")
        item = self.driver.find_element(By.CSS_SELECTOR, "#event-list li[data-type='passkey_added']")
        self.assertEqual(item.find_element(By.CSS_SELECTOR, ".name").text, "Passkey added")
        listed = [a for a in self.answers("/v1/security-events") if a["method"] == "GET"][-1]
        self.assertIn("limit=10", listed["url"])
        body = json.loads(listed["body"])
        events = body if isinstance(body, list) else body["events"]
        self.assertEqual(self.event_types(), [e["type"] for e in events][:len(self.event_types())])

    def test_I19_3_securityEventsPagedWithNextCursor(self):
        self.sign_up()
        status, probe = SERVER.call("GET", "/v1/security-events?limit=2", bearer=self.access_token())
        self.assertEqual(status, 200, probe)
        if isinstance(probe, list):
            self.skipTest(f"{NEWER_LATCHD} GET /v1/security-events answers the unpaged list (paging, issue 20 §5, not merged yet)")
        token, phone = self.access_token(), "device-" + uuid.uuid4().hex
        for _ in range(40):  # one phone signing in again and again (known after the first: no more codes mailed)
            SERVER.sign_in_other_device(self.email, "Phone", device_id=phone)
            status, probe = SERVER.call("GET", "/v1/security-events?limit=21", bearer=token)
            if probe["next_cursor"]:
                break  # three pages of ten
        self.sign_out()
        self.page_password_sign_in()
        self.wait(lambda: len(self.event_types()) == 10, "the first page: 10 events")
        self.assertTrue(self.visible("more-events"))
        everything, cursor = [], None
        while True:
            status, page = SERVER.call("GET", "/v1/security-events?limit=50" + (f"&cursor={cursor}" if cursor else ""), bearer=self.access_token())
            everything += page["events"]
            cursor = page["next_cursor"]
            if not cursor:
                break
        self.assertGreater(len(everything), 2 * 10, "three pages of ten at least")
        for _ in range(10):
            if not self.visible("more-events"):
                break
            shown = len(self.event_types())
            self.by_id("more-events").click()
            self.wait(lambda: len(self.event_types()) > shown or not self.visible("more-events"), "no older events")
        ids = self.driver.execute_script("return Array.from(document.querySelectorAll('#event-list li'), (e) => e.dataset.id)")
        self.assertEqual(len(ids), len(set(ids)), "no event twice")
        self.assertEqual(ids, [e["id"] for e in everything], "every event, newest first, once the last page is shown")
        self.assertFalse(self.visible("more-events"))
        self.assertEqual(self.focused_id(), "events-heading")

    def test_I19_3_thisWasntMeFreezesTheAccount(self):
        self.require_endpoint("POST", "/v1/me/freeze", {})
        self.sign_up()
        phone = SERVER.sign_in_other_device(self.email, "Stranger's phone")
        self.sign_out()
        self.page_password_sign_in()
        self.wait(lambda: len(self.driver.find_elements(By.CSS_SELECTOR, "#event-list li .not-me")) > 0, "no 'this wasn't me' button")
        own = [e for e in self.driver.find_elements(By.CSS_SELECTOR, "#event-list li") if e.get_attribute("data-type") == "signed_in"]
        self.assertGreaterEqual(len(own), 2, "the page's and the phone's sign-ins are listed")
        button = self.driver.find_element(By.CSS_SELECTOR, "#event-list li .not-me")
        self.assertIn("This wasn't me", button.get_attribute("aria-label"))
        button.click()
        self.assertIn("Freeze your account?", self.accept_confirmation())
        self.wait(lambda: self.visible("signin") and self.visible("frozen-notice"), "not frozen and signed out")
        self.assertEqual(self.focused_id(), "frozen-notice")
        frozen = [a for a in self.answers("/v1/me/freeze") if a["method"] == "POST"][-1]
        self.assertEqual(frozen["status"], 204, frozen)
        # Frozen: the stranger's session is gone and the password signs in nowhere.
        self.assertIn(SERVER.call("POST", "/v1/token", {"grant_type": "refresh_token", "refresh_token": phone["refresh_token"]})[0], (401, 403))
        status, answer = SERVER.call("POST", "/v1/token", {"grant_type": "password", "email": self.email, "password": PASSWORD,
                                                           "device": {"id": "device-" + uuid.uuid4().hex, "name": "x", "platform": "iOS"}})
        self.assertEqual((status, answer["error"]), (403, "ACCOUNT_FROZEN"), answer)
        self.presence(False)
        self.page_password_sign_in_refused("ACCOUNT_FROZEN")

    def page_password_sign_in_refused(self, code):
        self.by_id("signin-email").clear()
        self.by_id("signin-email").send_keys(self.email)
        self.by_id("signin-password").send_keys(PASSWORD + Keys.ENTER)
        self.wait(lambda: self.text("error") != "", "no refusal shown")
        refused = [a for a in self.answers("/v1/token") if a["method"] == "POST"][-1]
        self.assertEqual(json.loads(refused["body"])["error"], code)
        self.assertEqual(self.text("error"), json.loads(refused["body"])["message"], "the API's message (how to recover)")

    def test_I19_3_freezeLinkFromTheMailFreezes(self):
        self.require_endpoint("POST", "/v1/freeze", {"token": "probe"})
        self.sign_up()
        phone = SERVER.sign_in_other_device(self.email, "Stranger's tablet")  # a new-device notice: a security mail
        links = [m.group(1) for message in SERVER.messages(self.email)
                 for m in [re.search(r"/account#freeze=([A-Za-z0-9_-]+)", message.get("body") or "")] if m]
        self.assertTrue(links, "the new-device notice carries a freeze link to /account")
        self.presence(False)

        # A made-up token gets the very same page (the server answers 202 either way) and freezes nothing.
        self.open_freeze_link(base64.urlsafe_b64encode(os.urandom(32)).decode().rstrip("="))
        self.by_id("freeze-confirm").click()
        self.wait(lambda: self.visible("freeze-done"), "no answer to a made-up link")
        made_up = [a for a in self.answers("/v1/freeze") if a["method"] == "POST"][-1]
        self.assertEqual(made_up["status"], 202, made_up)
        done_text = self.text("freeze-done")
        self.assertEqual(SERVER.call("POST", "/v1/token", {"grant_type": "refresh_token", "refresh_token": phone["refresh_token"]})[0], 200,
                         "a made-up token freezes nothing")

        phone = SERVER.sign_in_other_device(self.email, "Stranger's tablet")
        self.open_freeze_link(links[-1])
        self.by_id("freeze-confirm").click()
        self.wait(lambda: self.visible("freeze-done"), "no answer to the link")
        self.assertEqual(self.focused_id(), "freeze-done-text")
        self.assertEqual(self.text("freeze-done"), done_text, "the same words whether or not the link was valid")
        self.assertIn("Forgot password", self.text("freeze-next"), "what happens next: how to recover")
        answer = [a for a in self.answers("/v1/freeze") if a["method"] == "POST"][-1]
        self.assertEqual((answer["status"], json.loads(answer["body"])), (202, {"status": "accepted"}))
        self.assertEqual(answer["url"], "/v1/freeze", "the token goes in the body, never in a URL")
        self.assertIn(SERVER.call("POST", "/v1/token", {"grant_type": "refresh_token", "refresh_token": phone["refresh_token"]})[0], (401, 403))
        self.by_id("freeze-back").click()
        self.wait(lambda: self.visible("signin"), "no way back to sign-in")
        self.page_password_sign_in_refused("ACCOUNT_FROZEN")

    def open_freeze_link(self, token):
        self.driver.get("about:blank")  # a fresh page, as from the mail (not a fragment change of this one)
        self.driver.get(SERVER.origin + "/account#freeze=" + token)
        self.wait(lambda: self.driver.execute_script("return document.body.dataset.ready === 'true'"), "the page's script did not start")
        self.driver.execute_script(RECORD_FETCH)
        self.assertTrue(self.visible("freeze-ask"))
        self.assertFalse(self.visible("signin") or self.visible("account"))
        self.assertEqual(self.text("freeze-heading"), "Freeze my account?")
        self.assertEqual(self.focused_id(), "freeze-heading")
        self.assertEqual(self.driver.execute_script("return location.hash"), "", "the token leaves the address bar at once")
        self.assertEqual(self.driver.execute_script(
            "return Array.from(document.querySelectorAll('#freeze button'), (b) => b.id).filter((id) => document.getElementById(id).offsetParent)"),
            ["freeze-confirm", "freeze-cancel"], "one button that freezes, one that does not")

    def test_I19_3_incompleteFreezeLinkSaysSo_linkInAnOpenTabAsks(self):
        # Needs no server endpoint: nothing is sent until the button is pressed. A fresh page (from
        # another URL: from /account itself, a new fragment would not load the page again).
        self.driver.get("about:blank")
        self.driver.get(SERVER.origin + "/account#freeze=abc")
        self.wait(lambda: self.driver.execute_script("return document.body.dataset.ready === 'true'"), "the page's script did not start")
        self.driver.execute_script(RECORD_FETCH)
        self.assertTrue(self.visible("freeze-bad") and self.visible("freeze-back"))
        self.assertFalse(self.visible("freeze-ask") or self.visible("signin"))
        self.assertEqual(self.text("freeze-bad"), "This freeze link is incomplete. Open it again from the email.")
        self.assertEqual(self.driver.execute_script("return location.hash"), "")
        # The page already open, a freeze link changes only the fragment: the page asks all the same.
        token = base64.urlsafe_b64encode(os.urandom(32)).decode().rstrip("=")
        self.driver.execute_script("location.hash = arguments[0]", "freeze=" + token)
        self.wait(lambda: self.visible("freeze-ask"), "a freeze link in an open tab does not ask")
        self.assertEqual(self.focused_id(), "freeze-heading")
        self.assertEqual(self.driver.execute_script("return location.hash"), "", "the token leaves the address bar")
        self.by_id("freeze-cancel").click()
        self.wait(lambda: self.visible("signin"), "'Not now' does not go back")
        self.assertEqual(self.focused_id(), "signin-heading")
        self.assertEqual(self.answers("/v1/freeze"), [], "nothing is sent unless the button is pressed")

    def reset_password_on_the_page(self, new_password, second_factor=None):
        """'Forgot password?' on the page: the emailed code and a new password (and the second factor
        when the server asks for it)."""
        self.by_id("signin-email").clear()
        self.by_id("signin-email").send_keys(self.email)
        self.by_id("forgot-open").click()
        self.wait(lambda: self.visible("forgot-form"), "no reset form")
        self.assertFalse(self.visible("password-form"))
        self.assertEqual(self.focused_id(), "forgot-email")
        self.assertEqual(self.by_id("forgot-email").get_attribute("value"), self.email, "the address typed for sign-in is kept")
        codes_before = SERVER.code_count(self.email)
        self.by_id("forgot-submit").click()
        self.wait(lambda: self.visible("reset-form"), "no code step")
        self.assertEqual(self.focused_id(), "reset-code")
        self.by_id("reset-code").send_keys(SERVER.latest_code(self.email, after=codes_before))
        self.by_id("reset-password").send_keys(new_password + Keys.ENTER)
        if second_factor:
            self.wait(lambda: self.visible("reset-second-factor"), "the second factor is not asked for")
            asked = [a for a in self.answers("/v1/password/reset") if a["method"] == "POST"][-1]
            self.assertEqual((asked["status"], json.loads(asked["body"]).get("field")), (403, "second_factor"), asked)
            self.assertEqual(self.focused_id(), "reset-code", "a new code was mailed: the code field is empty and focused")
            self.assertEqual(self.by_id("reset-code").get_attribute("value"), "")
            self.assertIn("recovery codes", self.text("status"))
            self.by_id("reset-code").send_keys(SERVER.latest_code(self.email, after=codes_before + 1))
            self.by_id("reset-factor").send_keys(second_factor + Keys.ENTER)
        self.wait(lambda: self.visible("password-form") and not self.visible("reset-form"), "the reset did not finish")
        done = [a for a in self.answers("/v1/password/reset") if a["method"] == "POST"][-1]
        self.assertEqual(done["status"], 204, done)
        self.assertEqual(self.text("status"), "Your password is reset and every device is signed out. Sign in with the new password.")
        self.assertEqual(self.focused_id(), "signin-password")
        self.assertEqual(self.by_id("signin-email").get_attribute("value"), self.email)

    def test_I19_3_forgotPasswordOnThePage_resetsAndSignsIn(self):
        self.sign_up()
        phone = SERVER.sign_in_other_device(self.email, "Old phone")
        self.sign_out()
        self.reset_password_on_the_page(NEW_PASSWORD)
        self.assertEqual(SERVER.call("POST", "/v1/token", {"grant_type": "refresh_token", "refresh_token": phone["refresh_token"]})[0], 401,
                         "the reset ended the other device's session")
        self.page_password_sign_in(NEW_PASSWORD)

    def test_I19_3_frozenAccountRecoversOnThePage_withARecoveryCode(self):
        self.require_endpoint("POST", "/v1/me/freeze", {})
        self.sign_up()
        codes = self.enable_totp()
        SERVER.age_account(self.email)  # old enough for the recovery to start a hold
        status, _ = SERVER.call("POST", "/v1/me/freeze", {}, bearer=self.access_token())
        self.assertEqual(status, 204)
        self.presence(False)
        self.open_page()
        self.page_password_sign_in_refused("ACCOUNT_FROZEN")
        # The way back: the emailed code, a new password, and (2FA on) a recovery code.
        self.reset_password_on_the_page(NEW_PASSWORD, second_factor=codes[0])
        self.page_password_sign_in(NEW_PASSWORD, second_factor=codes[1])
        self.wait(lambda: len(self.driver.find_elements(By.CSS_SELECTOR, "#hold-list li")) > 0, "recovery starts no hold")
        self.assertIn("after: account recovered", self.driver.find_element(By.CSS_SELECTOR, "#hold-list li").text)

    def test_I19_4_antiPhishingCodeShownSetAndRemoved(self):
        self.require_endpoint("GET", "/v1/me/security")
        self.sign_up()
        self.wait(lambda: self.visible("security-status"), "no security status")
        self.assertTrue(self.visible("anti-phishing-none"))
        self.assertFalse(self.visible("anti-phishing-remove"))
        field = self.by_id("anti-phishing-input")
        field.send_keys("a b" + Keys.ENTER)
        self.wait(lambda: self.text("error") != "", "a bad code is refused")
        refused = [a for a in self.answers("/v1/me/anti-phishing-code") if a["method"] == "PUT"][-1]
        self.assertEqual(refused["status"], 422, refused)
        self.assertEqual(self.text("error"), json.loads(refused["body"])["message"])
        self.assertEqual(self.focused_id(), "anti-phishing-input")

        field.clear()
        field.send_keys("Blue-Tiger-42" + Keys.ENTER)
        self.wait(lambda: self.text("anti-phishing-code") == "Blue-Tiger-42" and self.text("status") == "Anti-phishing code saved.",
                  "the code is not shown")
        self.assertTrue(self.visible("anti-phishing-remove"))
        self.assertEqual(field.get_attribute("value"), "")
        status, security = SERVER.call("GET", "/v1/me/security", bearer=self.access_token())
        self.assertEqual((status, security["anti_phishing_code"]), (200, "Blue-Tiger-42"))
        self.wait(lambda: "anti_phishing_code_changed" in self.event_types(), "the change is listed")
        # Every mail latchd sends this user shows it (a new-device notice here).
        before = len(SERVER.messages(self.email))
        SERVER.sign_in_other_device(self.email, "Second phone")
        self.wait(lambda: any("Anti-phishing code: Blue-Tiger-42" in (m.get("body") or "") for m in SERVER.messages(self.email)[before:]),
                  "the mails after it show the anti-phishing code")

        self.by_id("anti-phishing-remove").click()
        self.wait(lambda: self.visible("anti-phishing-none") and self.text("status") == "Anti-phishing code removed.", "not removed")
        self.assertEqual(self.focused_id(), "anti-phishing-input")
        status, security = SERVER.call("GET", "/v1/me/security", bearer=self.access_token())
        self.assertEqual((status, security.get("anti_phishing_code")), (200, None), "none (null or left out)")

    def test_I19_2_runningHoldShownWithItsEnd(self):
        self.require_endpoint("GET", "/v1/me/security")
        self.sign_up()
        self.wait(lambda: self.visible("security-status"), "no security status")
        self.assertTrue(self.visible("no-holds"))
        SERVER.age_account(self.email)  # a brand-new account's changes start no hold
        status, _ = SERVER.call("POST", "/v1/password/change", {"current_password": PASSWORD, "new_password": NEW_PASSWORD},
                                bearer=self.access_token())
        self.assertEqual(status, 204)
        status, security = SERVER.call("GET", "/v1/me/security", bearer=self.access_token())
        self.assertEqual(status, 200)
        self.assertTrue(security["holds"], security)
        self.sign_out()
        self.page_password_sign_in(NEW_PASSWORD)
        self.wait(lambda: len(self.driver.find_elements(By.CSS_SELECTOR, "#hold-list li")) == 1, "the hold is not listed")
        self.assertFalse(self.visible("no-holds"))
        item = self.driver.find_element(By.CSS_SELECTOR, "#hold-list li")
        self.assertIn("Withdrawals paused until", item.text)
        self.assertIn("after: password changed", item.text)


class ScreenshotMixin:
    expected_language = "en"
    expected_button = "Sign in with a passkey"
    file_name = "account-en.png"

    def test_I13_pageInBrowserLanguage_screenshot(self):
        self.open_page()
        self.assertEqual(self.driver.execute_script("return document.documentElement.lang"), self.expected_language)
        self.assertEqual(self.by_id("passkey-signin").text, self.expected_button)
        # Issue 23 §1: the sign-up links the Terms of Service and the Privacy Policy, in the page's language.
        self.assertEqual(self.text("terms-label"), self.expected_terms)
        terms, privacy = self.by_id("terms-link"), self.by_id("privacy-link")
        self.assertEqual((terms.text, privacy.text), self.expected_links)
        self.assertEqual(terms.get_attribute("href"), SERVER.origin + TERMS_PATH, "LATCH_TERMS_URL")
        self.assertEqual(privacy.get_attribute("href"), SERVER.origin + "/privacy", "the default")
        for link in (terms, privacy):
            self.assertEqual(link.get_attribute("target"), "_blank", "the sign-up form keeps what was typed")
            self.assertIn("noopener", link.get_attribute("rel"))
        self.sign_up()
        self.add_passkey(self.passkey_label)
        SERVER.sign_in_other_device(self.email, self.other_device)
        self.sign_out()
        self.passkey_button_sign_in()
        self.wait_signed_in()
        self.wait(lambda: len(self.driver.find_elements(By.CSS_SELECTOR, "#session-list li")) == 2, "two sessions")
        self.driver.execute_script("document.activeElement.blur(); window.scrollTo(0, 0)")
        directory = pathlib.Path(os.environ.get("LATCH_BROWSER_SCREENSHOTS") or REPO / "docs")
        directory.mkdir(parents=True, exist_ok=True)
        bottom = self.driver.execute_script("return Math.ceil(document.querySelector('main').getBoundingClientRect().bottom)")
        inner = self.driver.execute_script("return window.innerHeight")
        self.driver.set_window_size(900, 1500 - inner + bottom + 16)
        self.driver.save_screenshot(str(directory / self.file_name))
        # The API's messages come in the page's language too.
        self.presence(False)
        self.open_page()
        self.by_id("signin-email").send_keys(self.email)
        self.by_id("signin-password").send_keys("Wrong-Password-1" + Keys.ENTER)
        self.wait(lambda: self.text("error") != "", "no error")
        self.assertEqual(self.text("error"), self.wrong_password_message)


class EnglishScreenshotTests(ScreenshotMixin, AccountPageTestCase):
    language = "en-US"
    passkey_label = "MacBook Pro"
    other_device = "Alice's iPhone"
    wrong_password_message = "Wrong email or password."
    expected_terms = "I have read and agree to the Terms of Service and the Privacy Policy."
    expected_links = ("Terms of Service", "Privacy Policy")


class ChineseScreenshotTests(ScreenshotMixin, AccountPageTestCase):
    language = "zh-CN"
    expected_language = "zh-Hans"
    expected_button = "使用通行密钥登录"
    file_name = "account-zh-Hans.png"
    passkey_label = "我的笔记本"
    other_device = "小王的 iPhone"
    wrong_password_message = "邮箱或密码错误"
    expected_terms = "我已阅读并同意《用户协议》和《隐私政策》"
    expected_links = ("《用户协议》", "《隐私政策》")


def main():
    global LATCHD, SERVER
    if len(sys.argv) < 2 or not os.access(sys.argv[1], os.X_OK):
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    LATCHD = os.path.abspath(sys.argv.pop(1))
    SERVER = LatchdUnderTest(LATCHD)
    try:
        program = unittest.main(exit=False, verbosity=2)
        result = program.result
        # A skip is allowed only for an endpoint this latchd does not have yet (see the module's doc).
        unexplained = [reason for _, reason in result.skipped if not reason.startswith((MISSING_ENDPOINT, NEWER_LATCHD))]
        for test, reason in result.skipped:
            print(f"SKIPPED {test.id()}: {reason}", file=sys.stderr)
        strict = os.environ.get("LATCH_BROWSER_REQUIRE_ALL") == "1"
        ok = result.wasSuccessful() and result.testsRun > 0 and not unexplained and not (strict and result.skipped)
    finally:
        SERVER.stop()
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
