#!/usr/bin/env python3
"""Browser tests of latchd's web account page (issue 13 §3), in headless Chromium driven by Selenium.

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
"""
import http.client
import http.server
import json
import os
import pathlib
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
from selenium.common.exceptions import TimeoutException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

REPO = pathlib.Path(__file__).resolve().parents[2]
PASSWORD = "Correct-Horse-9-battery"
WAIT = 15

LATCHD = None  # set from argv
SERVER = None  # the running LatchdUnderTest


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class LatchdUnderTest:
    """latchd on 127.0.0.1:port (pages opened at http://localhost:port), and a forwarder on port2."""

    def __init__(self, binary):
        self.workdir = tempfile.mkdtemp(prefix="latch-browser.")
        self.port = free_port()
        self.api = f"http://127.0.0.1:{self.port}"
        self.origin = f"http://localhost:{self.port}"
        env = {k: v for k, v in os.environ.items() if not k.startswith("LATCH_")}
        env.update(
            LATCH_ENV="development", LATCH_HOST="127.0.0.1", LATCH_PORT=str(self.port), LATCH_ISSUER=self.origin,
            LATCH_BCRYPT_COST="4", LATCH_WEBAUTHN_ORIGINS=self.origin, LATCH_RATE_LIMIT_SCALE="10",
        )
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
        self.forwarder = Forwarder(self.port)
        self.other_origin = f"http://localhost:{self.forwarder.port}"

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

    def call(self, method, path, body=None, bearer=None):
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.api + path, data=data, method=method)
        if data is not None:
            request.add_header("Content-Type", "application/json")
        if bearer:
            request.add_header("Authorization", "Bearer " + bearer)
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                text = response.read()
                return response.status, (json.loads(text) if text else None)
        except urllib.error.HTTPError as error:
            text = error.read()
            return error.code, (json.loads(text) if text else None)

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

    def sign_in_other_device(self, email, name):
        """A second device signs in with the password (its mailed new-device code too); its tokens."""
        device = {"id": "device-" + uuid.uuid4().hex, "name": name, "platform": "iOS"}
        before = self.code_count(email)
        status, answer = self.call("POST", "/v1/token", {"grant_type": "password", "email": email, "password": PASSWORD, "device": device})
        if status == 403 and answer["error"] == "VERIFICATION_REQUIRED":
            code = self.latest_code(email, after=before)
            status, answer = self.call(
                "POST", "/v1/token", {"grant_type": "login_challenge", "challenge_id": answer["challenge_id"], "code": code, "device": device})
        assert status == 200, (status, answer)
        return answer


class Forwarder:
    """A plain HTTP forwarder: another origin (another port) in front of the same latchd."""

    def __init__(self, target_port):
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

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def stop(self):
        self.server.shutdown()
        self.server.server_close()


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
        self.by_id("passkey-signin").click()

    def sign_out(self):
        # The page offers passkeys to autofill again at once; keep that request pending.
        self.presence(False)
        self.by_id("signout").click()
        self.wait(lambda: self.visible("signin") and not self.visible("account"), "not signed out")
        self.assertEqual(self.focused_id(), "signin-heading")

    def credentials(self):
        return self.driver.execute_cdp_cmd("WebAuthn.getCredentials", {"authenticatorId": self.authenticator})["credentials"]

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

    def access_token(self):
        for answer in reversed(self.answers("/v1/")):
            try:
                body = json.loads(answer["body"])
            except ValueError:
                continue
            if isinstance(body, dict) and body.get("access_token"):
                return body["access_token"]
        self.fail("no access token seen")


class ScreenshotMixin:
    expected_language = "en"
    expected_button = "Sign in with a passkey"
    file_name = "account-en.png"

    def test_I13_pageInBrowserLanguage_screenshot(self):
        self.open_page()
        self.assertEqual(self.driver.execute_script("return document.documentElement.lang"), self.expected_language)
        self.assertEqual(self.by_id("passkey-signin").text, self.expected_button)
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


class ChineseScreenshotTests(ScreenshotMixin, AccountPageTestCase):
    language = "zh-CN"
    expected_language = "zh-Hans"
    expected_button = "使用通行密钥登录"
    file_name = "account-zh-Hans.png"
    passkey_label = "我的笔记本"
    other_device = "小王的 iPhone"
    wrong_password_message = "邮箱或密码错误"


def main():
    global LATCHD, SERVER
    if len(sys.argv) < 2 or not os.access(sys.argv[1], os.X_OK):
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    LATCHD = os.path.abspath(sys.argv.pop(1))
    SERVER = LatchdUnderTest(LATCHD)
    try:
        program = unittest.main(exit=False, verbosity=2)
        ok = program.result.wasSuccessful() and program.result.testsRun > 0 and not program.result.skipped
    finally:
        SERVER.stop()
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
