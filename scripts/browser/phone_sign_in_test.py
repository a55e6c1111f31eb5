#!/usr/bin/env python3
"""Issue 43 §3: "Sign in with your phone" on latchd's account page, in headless Chromium (Selenium), with
the `latch` CLI as the phone.

    python3 scripts/browser/phone_sign_in_test.py .build/debug/latchd [unittest options]

Uses account_page_test.py's latchd (development mode, LATCH_ISSUER http://localhost:PORT) and browser.
The phone is a `latch` home (the `latch` binary beside the given latchd, or LATCH_CLI) signed up as the
page's user with Face ID on (a bound device key, the simulated sensor). Each test clicks the button,
takes a screenshot of the page and reads the QR code off it with ZBar's zbarimg (Debian's zbar-tools),
checks it is `{issuer}/approve/{id}#s=…` of the page's own approval, then runs `latch approve URL
--number NN` (the page ends signed in, its account view shown) or `latch deny URL` (the page says the
phone denied it and offers to try again); and, with the grant's answers scripted in the page, that it
polls at `interval`, 5 s slower after `slow_down`, and says so on `expired_token`. Needs what
account_page_test.py needs, and zbar-tools.
"""
import os
import re
import subprocess
import sys
import tempfile
import urllib.parse
import uuid

import account_page_test as page
from selenium.webdriver.common.by import By

LATCH_CLI = None  # set in main()
URL_PATTERN = re.compile(r"^(?P<issuer>.+)/approve/(?P<id>[0-9a-fA-F-]{36})#s=(?P<secret>[A-Za-z0-9_-]{16,})$")


def latch(home, *arguments, input=None):
    """`latch arguments… --lang en` with LATCH_HOME=home against the latchd under test."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("LATCH_") and k not in ("LC_ALL", "LC_MESSAGES", "LANG")}
    env.update(LATCH_HOME=home, LATCH_SERVER=page.SERVER.api)
    return subprocess.run([LATCH_CLI, *arguments, "--lang", "en"], env=env, input=input, capture_output=True,
                          text=True, timeout=120)


def decode_qr(png_path):
    """The text of the one QR code zbarimg finds in the image at `png_path`."""
    run = subprocess.run(["zbarimg", "-q", "--raw", "--nodbus", "-Sdisable", "-Sqrcode.enable", png_path],
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, f"zbarimg found no QR code in {png_path}: {run.stderr}"
    codes = run.stdout.strip().splitlines()
    assert len(codes) == 1, codes
    return codes[0]


class PhoneSignInMixin:
    """The tests, in the language of the class they are mixed into."""

    phone_button = "Sign in with your phone"
    pick_prefix = "Pick "
    denied = "The sign-in was denied on your phone."
    waiting = "Waiting for your phone…"
    qr_label = "QR code to sign in with your phone: scan it with the Latch app"

    def setUp(self):
        super().setUp()
        self.home = tempfile.mkdtemp(prefix="latch-phone.")
        signup = latch(self.home, "signup", self.email, "--password-stdin", "--accept-terms", "--code-from-outbox",
                       input=page.PASSWORD + "\n")
        self.assertEqual(signup.returncode, 0, signup.stdout + signup.stderr)
        enable = latch(self.home, "biometrics", "enable", "--simulate", "match")
        self.assertEqual(enable.returncode, 0, enable.stdout + enable.stderr)

    def start_phone_sign_in(self):
        """Clicks the button; the QR code read off a screenshot with zbarimg, and the number shown."""
        button = self.by_id("phone-start")
        self.assertEqual(button.text, self.phone_button)
        button.click()
        self.wait(lambda: self.visible("phone-waiting") and self.driver.find_elements(By.CSS_SELECTOR, "#phone-qr svg"),
                  "no QR code shown")
        self.assertEqual(self.text("phone-status"), self.waiting)
        self.assertEqual(self.focused_id(), "phone-number-line")

        # Accessible: the code is a labelled image, the number is text, the status is announced.
        svg = self.driver.find_element(By.CSS_SELECTOR, "#phone-qr svg")
        self.assertEqual(svg.get_attribute("role"), "img")
        self.assertEqual(svg.get_attribute("aria-label"), self.qr_label)
        self.assertEqual(self.by_id("phone-status").get_attribute("aria-live"), "polite")
        number = self.text("phone-number")
        self.assertRegex(number, r"^[0-9]{2}$")
        self.assertTrue(self.text("phone-number-line").startswith(self.pick_prefix), self.text("phone-number-line"))

        # The QR code, read off a screenshot of the page by a real decoder.
        screenshot = os.path.join(self.home, "page.png")
        self.driver.save_screenshot(screenshot)
        url = decode_qr(screenshot)
        match = URL_PATTERN.match(url)
        self.assertIsNotNone(match, url)
        self.assertEqual(match["issuer"], page.SERVER.origin)

        # It is the page's own approval: the URL and number of its POST /v1/approvals answer.
        created = [a for a in self.answers("/v1/approvals") if a["method"] == "POST" and a["status"] == 201]
        self.assertTrue(created, "the page asked for no approval")
        answer = page.json.loads(created[-1]["body"])
        self.assertEqual(answer["qr_url"], url)
        self.assertEqual(answer["number"], number)
        self.assertEqual(match["id"], answer["approval_id"])
        return url, number

    def test_I43_3_phoneSignIn_qrReadOffTheScreenshot_latchApproveSignsThePageIn(self):
        self.open_page()
        url, number = self.start_phone_sign_in()

        approve = latch(self.home, "approve", url, "--number", number, "--simulate", "match", "--issuer", page.SERVER.origin)
        self.assertEqual(approve.returncode, 0, approve.stdout + approve.stderr)
        self.assertIn("state: approved", approve.stdout)

        self.wait_signed_in()
        self.assertFalse(self.visible("phone-waiting"))
        # The page's session came from the approval grant, bound to the page's DPoP key, and works.
        grants = [a for a in self.answers("/v1/token") if a["status"] == 200]
        self.assertTrue(grants)
        tokens = page.json.loads(grants[-1]["body"])
        self.assertEqual(tokens["token_type"], "DPoP")
        status, sessions = page.SERVER.call("GET", "/v1/sessions", bearer=tokens["access_token"])
        self.assertEqual(status, 200, sessions)
        # Every poll before the approval was told authorization_pending (none slow_down: the page waits `interval`).
        polls = [page.json.loads(a["body"]) for a in self.answers("/v1/token") if a["status"] == 400]
        self.assertTrue(all(p.get("reasons") == ["authorization_pending"] for p in polls), polls)

    def test_I43_3_phoneDenies_pageSaysDenied_tryAgainShowsANewCode(self):
        self.open_page()
        url, _ = self.start_phone_sign_in()

        deny = latch(self.home, "deny", url, "--issuer", page.SERVER.origin)
        self.assertEqual(deny.returncode, 0, deny.stdout + deny.stderr)

        self.wait(lambda: self.text("phone-status") == self.denied, "the page did not say the phone denied it")
        self.assertFalse(self.visible("phone-waiting"))
        self.assertTrue(self.visible("phone-retry"))
        self.assertEqual(self.focused_id(), "phone-retry")
        self.assertTrue(self.visible("signin") and not self.visible("account"))
        denied = [page.json.loads(a["body"]) for a in self.answers("/v1/token") if a["status"] == 400]
        self.assertEqual(denied[-1].get("reasons"), ["access_denied"])

        # Try again: a new approval, a new code.
        self.by_id("phone-retry").click()
        self.wait(lambda: self.visible("phone-waiting") and self.driver.find_elements(By.CSS_SELECTOR, "#phone-qr svg"),
                  "no new QR code")
        created = [page.json.loads(a["body"]) for a in self.answers("/v1/approvals") if a["status"] == 201]
        self.assertEqual(len(created), 2)
        self.assertNotEqual(created[0]["qr_url"], created[1]["qr_url"])
        self.by_id("phone-cancel").click()
        self.wait(lambda: not self.visible("phone-waiting") and self.visible("phone-start"), "cancel kept the code")


# Run in the page by WebDriver: the approval grant's polls answered by script (first slow_down, then
# expired_token), each poll's time kept (ms since the approval was asked for).
SCRIPTED_POLLS = """
window.__polls = [];
const original = window.fetch;
window.fetch = async (input, init) => {
  const path = new URL(String(input), location.href).pathname;
  if (path === '/v1/approvals') window.__asked = performance.now();
  if (path !== '/v1/token' || !init || !String(init.body).includes('"approval"')) return original(input, init);
  window.__polls.push(performance.now() - window.__asked);
  const reason = window.__polls.length === 1 ? 'slow_down' : 'expired_token';
  return new Response(JSON.stringify({error: 'X', message: 'scripted', reasons: [reason]}),
    {status: 400, headers: {'Content-Type': 'application/json'}});
};
"""


class EnglishPhoneSignInTests(PhoneSignInMixin, page.AccountPageTestCase):
    language = "en-US"

    def test_I43_3_pollsAsRFC8628_slowDownAddsFiveSeconds_expiredSaysSo(self):
        self.open_page()
        self.driver.execute_script(SCRIPTED_POLLS)
        self.by_id("phone-start").click()
        self.wait(lambda: self.visible("phone-waiting"), "no QR code shown")
        page.WebDriverWait(self.driver, 30).until(lambda d: self.text("phone-status") == "The code expired before your phone approved it.")
        polls = self.driver.execute_script("return window.__polls")
        self.assertEqual(len(polls), 2, polls)
        # The first poll after `interval` (1 s), the next 5 s later than that (6 s after the slow_down).
        self.assertGreaterEqual(polls[0], 1000, polls)
        self.assertLess(polls[0], 3000, polls)
        self.assertGreaterEqual(polls[1] - polls[0], 6000, polls)
        self.assertLess(polls[1] - polls[0], 8000, polls)
        self.assertTrue(self.visible("phone-retry") and not self.visible("phone-waiting"))


class ChinesePhoneSignInTests(PhoneSignInMixin, page.AccountPageTestCase):
    language = "zh-CN"
    phone_button = "使用手机扫码登录"
    pick_prefix = "请在手机上选择 "
    denied = "已在手机上拒绝此次登录。"
    waiting = "正在等待手机确认…"
    qr_label = "手机扫码登录的二维码：请用 Latch App 扫描"


def main():
    global LATCH_CLI
    if len(sys.argv) < 2 or not os.access(sys.argv[1], os.X_OK):
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    latchd = os.path.abspath(sys.argv.pop(1))
    LATCH_CLI = os.environ.get("LATCH_CLI") or os.path.join(os.path.dirname(latchd), "latch")
    if not os.access(LATCH_CLI, os.X_OK):
        print(f"no latch CLI at {LATCH_CLI} (build it: swift build --product latch)", file=sys.stderr)
        sys.exit(2)
    page.LATCHD = latchd
    page.SERVER = page.LatchdUnderTest(latchd)
    try:
        program = page.unittest.main(exit=False, verbosity=2)
        result = program.result
        ok = result.wasSuccessful() and result.testsRun > 0 and not result.skipped
    finally:
        page.SERVER.stop()
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
