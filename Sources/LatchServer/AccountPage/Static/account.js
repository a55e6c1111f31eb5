// Latch account page (issue 13 §3, issue 22 §6, issue 19): the page's state, what each control does to
// it, and the start. ES modules, no framework, no inline code (CSP script-src 'self'). Every change goes
// through update(), which hands the one state to render() (view.js).
import { APIError, createClient } from "./api.js";
import { applyTexts, language, t } from "./i18n.js";
import { render } from "./view.js";
import { authenticationJSON, creationOptions, hasWebAuthn, registrationJSON, requestOptions } from "./webauthn.js";

const $ = (id) => document.getElementById(id);
const EVENTS_PER_PAGE = 10;

const state = {
  screen: "signIn", // "signIn" | "account" | "freeze"
  webAuthn: hasWebAuthn,
  freeze: { token: null, done: false, bad: false }, // the freeze link's landing (#freeze=TOKEN)
  frozen: false, // the owner froze the account from this page
  challenge: null, // {id, method}: the unusual-sign-in step (emailed code, or TOTP / recovery code)
  recovery: null, // the password reset: {step: "email"} | {step: "code", email, secondFactor}
  registrationID: null, // the sign-up's emailed-code step
  // Sign in with the phone (issue 43 §3): null, or {step: "waiting", url, number} | {step: "denied"} |
  // {step: "expired"} | {step: "failed", text}
  phone: null,
  user: null,
  passkeys: [],
  renaming: null, // id of the passkey whose rename form is open
  sessions: [],
  security: null, // GET /v1/me/security ({holds, anti_phishing_code}); null where the server has none
  events: [],
  nextCursor: null,
  message: { kind: "status", text: "" },
  busy: null, // data-action of the control whose work runs
  focus: null, // selector to focus after the next render
  clear: [], // ids of forms to reset at the next render
};

const actions = { rename, cancelRename, saveRename, remove: removePasskey, revoke: revokeSession, notMe };

function update(changes) {
  Object.assign(state, changes);
  render(state, actions);
}

const status = (text) => ({ kind: "status", text: text || "" });
const failure = (text) => ({ kind: "error", text: text || "" });

const client = createClient({
  language, networkMessage: t("network"), unexpectedMessage: (status) => t("unexpected", { status }),
  onSessionEnded: () => showSignedOut({}),
});

// A per-page-load installation id: without storage the browser is a new device on every load,
// which is what it is to the server (the new-device code step covers it).
const device = { id: "web-" + crypto.randomUUID(), name: t("browserName"), platform: "Web" };
let conditional = null; // AbortController of the pending autofill (conditional) passkey request

function messageFor(error) {
  // Adding or removing a passkey needs a sign-in within 10 minutes (the page has no step-up of its own).
  if (error instanceof APIError && error.code === "VERIFICATION_REQUIRED") return error.message + " " + t("signInAgain");
  if (error instanceof APIError || !(error instanceof DOMException)) return error.message;
  if (error.name === "NotAllowedError" || error.name === "AbortError") return t("cancelled");
  return t("passkeyError", { name: error.name });
}

/** Runs `work` with its control (data-action `key`) disabled; a failure is shown in the error region. */
async function act(key, work) {
  update({ busy: key, message: status(t("working")) });
  try {
    await work();
  } catch (error) {
    update({ message: failure(messageFor(error)) });
  } finally {
    update({ busy: null });
  }
}

// MARK: Signing in

async function signedIn(tokens) {
  stopConditional();
  stopPhone();
  client.signIn(tokens);
  update({
    screen: "account", user: tokens.user || {}, challenge: null, recovery: null, registrationID: null, frozen: false, renaming: null,
    passkeys: [], sessions: [], events: [], nextCursor: null, security: null,
    clear: ["password-form", "code-form", "signup-form", "signup-code-form"],
    message: status(t("signedIn")), focus: "#account-heading",
  });
  await Promise.all([loadPasskeys(), loadSessions(), loadSecurity(), loadEvents(null)]);
}

async function passwordSignIn(event) {
  event.preventDefault();
  await act("signin-submit", async () => {
    try {
      await signedIn(await client.call("POST", "/v1/token", {
        grant_type: "password", email: $("signin-email").value.trim(), password: $("signin-password").value, device,
      }));
    } catch (error) {
      if (error instanceof APIError && error.code === "VERIFICATION_REQUIRED" && error.body.challenge_id) {
        const method = error.body.method === "totp" ? "totp" : "email";
        update({
          challenge: { id: error.body.challenge_id, method }, clear: ["code-form"],
          message: status(method === "totp" ? "" : t("codeSent")), focus: "#signin-code",
        });
        return;
      }
      throw error;
    }
  });
}

async function codeSignIn(event) {
  event.preventDefault();
  await act("code-submit", async () => {
    // The emailed six digits, an authenticator's six digits, or a recovery code: the server tells them apart.
    await signedIn(await client.call("POST", "/v1/token", {
      grant_type: "login_challenge", challenge_id: state.challenge.id, code: $("signin-code").value.trim(), device,
    }));
  });
}

/** Asks the server for sign-in options and the browser for an assertion, then trades it for tokens. */
async function passkeyAssertion(mediation, signal) {
  const answer = await client.call("POST", "/v1/passkeys/authentication/options", {});
  const request = { publicKey: requestOptions(answer.options) };
  if (mediation) request.mediation = mediation;
  if (signal) request.signal = signal;
  const credential = await navigator.credentials.get(request);
  if (!credential) throw new Error(t("cancelled"));
  return client.call("POST", "/v1/token", {
    grant_type: "passkey", challenge_id: answer.challenge_id, credential: authenticationJSON(credential), device,
  });
}

async function passkeySignIn() {
  if (!hasWebAuthn) { update({ message: failure(t("noWebAuthn")) }); return; }
  stopConditional();
  await act("passkey-signin", async () => {
    try {
      await signedIn(await passkeyAssertion(null, null));
    } finally {
      if (!client.signedIn) startConditional();
    }
  });
}

function stopConditional() {
  if (conditional) { conditional.abort(); conditional = null; }
}

/** Autofill: passkeys offered in the email field's suggestions, where the browser supports it. */
async function startConditional() {
  if (!hasWebAuthn || client.signedIn || conditional || state.screen !== "signIn"
    || typeof PublicKeyCredential.isConditionalMediationAvailable !== "function") return;
  let available = false;
  try { available = await PublicKeyCredential.isConditionalMediationAvailable(); } catch (_) { available = false; }
  if (!available || client.signedIn || conditional || state.screen !== "signIn") return;
  const controller = new AbortController();
  conditional = controller;
  try {
    const tokens = await passkeyAssertion("conditional", controller.signal);
    if (conditional === controller) conditional = null;
    await signedIn(tokens);
  } catch (error) {
    if (conditional !== controller) return; // aborted on purpose
    conditional = null;
    if (!(error instanceof DOMException)) update({ message: failure(messageFor(error)) });
  }
}

// MARK: Sign in with the phone (issue 43 §3: a QR code and a number, approved on the phone)

let phoneGeneration = 0; // bumped to stop the running poll (cancel, another sign-in, a new start)

/** The browser's name for the phone's "who is asking" (brands where the browser tells them, else its UA). */
function browserName() {
  const brands = ((navigator.userAgentData && navigator.userAgentData.brands) || []).map((entry) => entry.brand)
    .filter((brand) => !/not.?a.?brand/i.test(brand));
  const named = brands.find((brand) => brand !== "Chromium") || brands[0];
  if (named) return named;
  const agent = navigator.userAgent || "";
  const known = [[/Edg\//, "Edge"], [/Firefox\//, "Firefox"], [/Chrome\//, "Chrome"], [/Safari\//, "Safari"]];
  const match = known.find(([pattern]) => pattern.test(agent));
  return match ? match[1] : t("browserName");
}

function stopPhone() {
  phoneGeneration++;
  if (state.phone) update({ phone: null });
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Asks latchd for an approval (with the page's DPoP key, which the session will be bound to), then polls. */
async function phoneSignIn() {
  const generation = ++phoneGeneration;
  let approval = null;
  await act("phone-start", async () => {
    approval = await client.call("POST", "/v1/approvals", {
      kind: "sign_in", client: { name: browserName(), platform: "web" }, device: { id: device.id, name: device.name },
    });
    if (generation !== phoneGeneration) return;
    update({ phone: { step: "waiting", url: approval.qr_url, number: approval.number }, message: status(""), focus: "#phone-number-line" });
  });
  if (approval && generation === phoneGeneration) await pollApproval(approval, generation);
}

/**
 * Polls `POST /v1/token` (grant `approval`) as RFC 8628 §3.5 says: every `interval` seconds while
 * `authorization_pending`, 5 s slower after each `slow_down`; `access_denied` and `expired_token` end it;
 * an unreachable server is asked again at the next interval. The tokens sign in as a password does.
 */
async function pollApproval(approval, generation) {
  let interval = Math.max(1, Number(approval.interval) || 5) * 1000;
  const deadline = Date.now() + (Number(approval.expires_in) || 120) * 1000;
  const end = (phone) => { if (generation === phoneGeneration) update({ phone, focus: "#phone-retry" }); };
  for (;;) {
    await sleep(interval);
    if (generation !== phoneGeneration) return;
    let tokens = null;
    try {
      tokens = await client.call("POST", "/v1/token", {
        grant_type: "approval", approval_id: approval.approval_id, poll_secret: approval.poll_secret,
      });
    } catch (error) {
      if (generation !== phoneGeneration) return;
      const reasons = error instanceof APIError && Array.isArray(error.body.reasons) ? error.body.reasons : [];
      if (reasons.includes("authorization_pending")) continue;
      if (reasons.includes("slow_down")) { interval += 5000; continue; }
      if (reasons.includes("access_denied")) { end({ step: "denied" }); return; }
      if (reasons.includes("expired_token")) { end({ step: "expired" }); return; }
      if (!(error instanceof APIError)) {
        // No answer: ask again until the approval would have expired anyway.
        if (Date.now() < deadline) continue;
        end({ step: "expired" });
        return;
      }
      end({ step: "failed", text: messageFor(error) });
      return;
    }
    if (generation !== phoneGeneration) return;
    await act("phone-start", () => signedIn(tokens));
    return;
  }
}

function cancelPhone() {
  stopPhone();
  update({ message: status(""), focus: "#phone-start" });
}

// MARK: Password reset by emailed code (also the way back into a frozen account)

function openRecovery() {
  const email = $("signin-email").value.trim();
  update({ screen: "signIn", recovery: { step: "email" }, challenge: null, clear: ["forgot-form"], message: status(""), focus: "#forgot-email" });
  $("forgot-email").value = email;
}

function closeRecovery() {
  update({ recovery: null, message: status(""), focus: "#signin-heading" });
}

async function sendResetCode(event) {
  event.preventDefault();
  const email = $("forgot-email").value.trim();
  await act("forgot-submit", async () => {
    // 202 whether or not the address has an account.
    await client.call("POST", "/v1/password/forgot", { email });
    update({ recovery: { step: "code", email, secondFactor: false }, clear: ["reset-form"], message: status(""), focus: "#reset-code" });
  });
}

async function resetPassword(event) {
  event.preventDefault();
  const recovery = state.recovery;
  const body = { email: recovery.email, code: $("reset-code").value.trim(), new_password: $("reset-password").value };
  const factor = $("reset-factor").value.trim();
  if (recovery.secondFactor && factor) body.second_factor = factor;
  await act("reset-submit", async () => {
    try {
      await client.call("POST", "/v1/password/reset", body);
    } catch (error) {
      // A frozen account with 2FA on: the reset needs the authenticator's code or a recovery code too.
      // The server may have spent the emailed code on this answer, so a new one is asked for at once
      // (where the old one is still live, the server keeps it and sends none: the newest mail holds it).
      if (error instanceof APIError && error.code === "VERIFICATION_REQUIRED" && error.body.field === "second_factor") {
        await client.call("POST", "/v1/password/forgot", { email: recovery.email });
        $("reset-code").value = "";
        update({ recovery: Object.assign({}, recovery, { secondFactor: true }), message: status(t("secondFactorNeeded")), focus: "#reset-code" });
        return;
      }
      throw error;
    }
    update({ recovery: null, frozen: false, clear: ["reset-form", "password-form"], message: status(t("passwordReset")), focus: "#signin-password" });
    $("signin-email").value = recovery.email;
  });
}

// MARK: Signing up

async function signUp(event) {
  event.preventDefault();
  await act("signup-submit", async () => {
    const answer = await client.call("POST", "/v1/registrations", {
      email: $("signup-email").value.trim(), password: $("signup-password").value, terms_accepted: $("signup-terms").checked,
    });
    update({ registrationID: answer.registration_id, message: status(t("codeSent")), focus: "#signup-code" });
  });
}

async function confirmSignUp(event) {
  event.preventDefault();
  await act("signup-code-submit", async () => {
    await signedIn(await client.call("POST", "/v1/registrations/" + encodeURIComponent(state.registrationID) + "/verify", {
      code: $("signup-code").value.trim(), device,
    }));
  });
}

// MARK: Passkeys

async function loadPasskeys(focus) {
  const passkeys = await client.call("GET", "/v1/passkeys", undefined, { bearer: true });
  update({ passkeys, renaming: null, focus: focus || state.focus });
}

function rename(passkey) {
  if (state.renaming === passkey.id) return;
  update({ renaming: passkey.id, focus: "#" + CSS.escape("rename-" + passkey.id) });
}

function cancelRename(passkey) {
  update({ renaming: null, focus: `#passkey-list li[data-id="${CSS.escape(passkey.id)}"] .rename` });
}

async function saveRename(passkey, name) {
  await act("rename:" + passkey.id, async () => {
    const renamed = await client.call("PATCH", "/v1/passkeys/" + encodeURIComponent(passkey.id), { name }, { bearer: true });
    await loadPasskeys(`#passkey-list li[data-id="${CSS.escape(passkey.id)}"] .rename`);
    update({ message: status(t("passkeyRenamed", { name: renamed.name })) });
  });
}

async function removePasskey(passkey) {
  if (!window.confirm(t("confirmRemove", { name: passkey.name }))) return;
  await act("remove:" + passkey.id, async () => {
    await client.call("DELETE", "/v1/passkeys/" + encodeURIComponent(passkey.id), undefined, { bearer: true });
    await loadPasskeys("#passkeys-heading");
    update({ message: status(t("passkeyRemoved", { name: passkey.name })) });
  });
}

async function addPasskey(event) {
  event.preventDefault();
  if (!hasWebAuthn) { update({ message: failure(t("noWebAuthn")) }); return; }
  await act("add-passkey", async () => {
    const answer = await client.call("POST", "/v1/passkeys/registration/options", undefined, { bearer: true });
    const credential = await navigator.credentials.create({ publicKey: creationOptions(answer.options) });
    if (!credential) throw new Error(t("cancelled"));
    const name = $("passkey-name").value.trim();
    const body = { challenge_id: answer.challenge_id, credential: registrationJSON(credential) };
    if (name) body.name = name;
    const created = await client.call("POST", "/v1/passkeys", body, { bearer: true });
    update({ clear: ["add-passkey-form"] });
    await loadPasskeys(`#passkey-list li[data-id="${CSS.escape(created.id)}"] .rename`);
    update({ message: status(t("passkeyAdded", { name: created.name })) });
    await loadEvents(null);
  });
}

// MARK: Sessions

async function loadSessions(focus) {
  const sessions = await client.call("GET", "/v1/sessions", undefined, { bearer: true });
  update({ sessions, focus: focus || state.focus });
}

async function revokeSession(entry) {
  await act("revoke:" + entry.id, async () => {
    await client.call("DELETE", "/v1/sessions/" + encodeURIComponent(entry.id), undefined, { bearer: true });
    await loadSessions("#sessions-heading");
    update({ message: status(t("deviceSignedOut")) });
  });
}

async function signOutOthers() {
  await act("signout-others", async () => {
    await client.call("DELETE", "/v1/sessions?scope=others", undefined, { bearer: true });
    await loadSessions("#sessions-heading");
    update({ message: status(t("othersSignedOut")) });
  });
}

// MARK: Security (issue 19): events, "this wasn't me", holds, anti-phishing code

/** One page of security events (`{events, next_cursor}`); a server before paging answers a plain array. */
async function loadEvents(cursor) {
  const query = "?limit=" + EVENTS_PER_PAGE + (cursor ? "&cursor=" + encodeURIComponent(cursor) : "");
  const answer = await client.call("GET", "/v1/security-events" + query, undefined, { bearer: true });
  const page = Array.isArray(answer) ? { events: answer, next_cursor: null } : answer;
  update({ events: cursor ? state.events.concat(page.events || []) : page.events || [], nextCursor: page.next_cursor || null });
}

async function moreEvents() {
  await act("more-events", async () => {
    await loadEvents(state.nextCursor);
    // The button goes once the last page is shown: the focus moves to the list's heading then.
    update({ message: status(""), focus: state.nextCursor ? null : "#events-heading" });
  });
}

/** The holds and the anti-phishing code; a server without `GET /v1/me/security` (404) shows neither. */
async function loadSecurity() {
  try {
    update({ security: await client.call("GET", "/v1/me/security", undefined, { bearer: true }) });
  } catch (error) {
    if (error instanceof APIError && error.status === 404) { update({ security: null }); return; }
    throw error;
  }
}

/** "This wasn't me": freezes the account at once (no step-up: freezing must be easy), after a confirmation. */
async function notMe() {
  if (!window.confirm(t("confirmFreeze"))) return;
  await act("freeze-own", async () => {
    await client.call("POST", "/v1/me/freeze", {}, { bearer: true });
    client.forget();
    showSignedOut({ frozen: true, message: status(""), focus: "#frozen-notice" });
  });
}

function antiPhishingFailure(error) {
  if (error instanceof APIError && error.code === "VERIFICATION_REQUIRED") return new Error(t("antiPhishingRecent"));
  if (error instanceof APIError && error.status === 422) update({ focus: "#anti-phishing-input" });
  return error;
}

async function saveAntiPhishingCode(event) {
  event.preventDefault();
  const code = $("anti-phishing-input").value;
  await act("anti-phishing-save", async () => {
    try {
      await client.call("PUT", "/v1/me/anti-phishing-code", { code }, { bearer: true });
    } catch (error) {
      throw antiPhishingFailure(error);
    }
    update({ clear: ["anti-phishing-form"] });
    await loadSecurity();
    update({ message: status(t("antiPhishingSaved")) });
    await loadEvents(null);
  });
}

async function removeAntiPhishingCode() {
  await act("anti-phishing-remove", async () => {
    try {
      await client.call("DELETE", "/v1/me/anti-phishing-code", undefined, { bearer: true });
    } catch (error) {
      throw antiPhishingFailure(error);
    }
    await loadSecurity();
    update({ message: status(t("antiPhishingRemoved")), focus: "#anti-phishing-input" });
    await loadEvents(null);
  });
}

// MARK: The freeze link (`/account#freeze=TOKEN` from a security mail)

/** The token of a freeze link, taken out of the address (and the history) at once; null without one. */
function takeFreezeToken() {
  const match = /^#freeze=(.*)$/.exec(window.location.hash);
  if (!match) return null;
  window.history.replaceState(null, "", window.location.pathname + window.location.search);
  return match[1];
}

async function freezeWithLink() {
  await act("freeze-link", async () => {
    // 202 whether or not the token was valid: the page cannot tell, and says so.
    await client.call("POST", "/v1/freeze", { token: state.freeze.token });
    update({ freeze: { token: null, done: true, bad: false }, message: status(""), focus: "#freeze-done-text" });
  });
}

/** Shows the freeze question for `token` (or says the link is incomplete). */
function openFreezeLink(token) {
  const bad = !/^[A-Za-z0-9_-]{16,128}$/.test(token);
  stopConditional();
  update({ screen: "freeze", freeze: { token: bad ? null : token, done: false, bad }, message: status(""), focus: "#freeze-heading" });
}

function leaveFreeze() {
  const signedIn = client.signedIn;
  update({
    screen: signedIn ? "account" : "signIn", freeze: { token: null, done: false, bad: false }, message: status(""),
    focus: signedIn ? "#account-heading" : "#signin-heading",
  });
  startConditional();
}

// MARK: Signing out

function showSignedOut(changes) {
  phoneGeneration++;
  update(Object.assign({
    screen: "signIn", user: null, challenge: null, phone: null, passkeys: [], sessions: [], events: [], nextCursor: null,
    security: null, renaming: null, focus: "#signin-heading",
  }, changes));
  startConditional();
}

async function signOut() {
  await act("signout", async () => {
    try {
      await client.call("POST", "/v1/logout", undefined, { bearer: true });
    } finally {
      client.forget();
      showSignedOut({});
    }
    update({ message: status(t("signedOut")) });
  });
}

// MARK: Start

function start() {
  applyTexts(document);
  $("password-form").addEventListener("submit", passwordSignIn);
  $("code-form").addEventListener("submit", codeSignIn);
  $("passkey-signin").addEventListener("click", passkeySignIn);
  $("phone-start").addEventListener("click", phoneSignIn);
  $("phone-retry").addEventListener("click", phoneSignIn);
  $("phone-cancel").addEventListener("click", cancelPhone);
  $("signup-form").addEventListener("submit", signUp);
  $("signup-code-form").addEventListener("submit", confirmSignUp);
  $("add-passkey-form").addEventListener("submit", addPasskey);
  $("signout-others").addEventListener("click", signOutOthers);
  $("signout").addEventListener("click", signOut);
  $("more-events").addEventListener("click", moreEvents);
  $("anti-phishing-form").addEventListener("submit", saveAntiPhishingCode);
  $("anti-phishing-remove").addEventListener("click", removeAntiPhishingCode);
  $("freeze-confirm").addEventListener("click", freezeWithLink);
  $("freeze-cancel").addEventListener("click", leaveFreeze);
  $("freeze-back").addEventListener("click", leaveFreeze);
  $("freeze-recover").addEventListener("click", () => {
    update({ freeze: { token: null, done: false, bad: false } });
    openRecovery();
    startConditional();
  });
  $("forgot-open").addEventListener("click", openRecovery);
  $("forgot-form").addEventListener("submit", sendResetCode);
  $("forgot-cancel").addEventListener("click", closeRecovery);
  $("reset-form").addEventListener("submit", resetPassword);
  $("reset-cancel").addEventListener("click", closeRecovery);
  // A freeze link opened in a tab that shows the page already changes only the fragment.
  window.addEventListener("hashchange", () => {
    const token = takeFreezeToken();
    if (token !== null) openFreezeLink(token);
  });
  const token = takeFreezeToken();
  if (token !== null) {
    openFreezeLink(token);
  } else {
    update({});
    startConditional();
  }
  document.body.dataset.ready = "true";
}

start();
