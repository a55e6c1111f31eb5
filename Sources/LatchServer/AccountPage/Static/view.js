// The account page's one rendering function: `render(state, actions)` makes the DOM show `state`.
// Lists are rebuilt only when their data changed (so a field being typed in keeps its text);
// everything else is set on every render. `actions` are the page's handlers for the buttons in lists.
import { actionName, eventName, formatDate, holdReasonName, t } from "./i18n.js";
import { qrMatrix, qrSVG } from "./qr.js";

const $ = (id) => document.getElementById(id);

// Sign-ins and changes a person can recognise as theirs or not: these get a "this wasn't me" button.
const recognisable = new Set([
  "signed_in", "new_device_signed_in", "password_changed", "password_reset", "profile_updated", "totp_enrolled",
  "totp_activated", "totp_disabled", "recovery_code_used", "fund_password_set", "fund_password_changed",
  "verification_passed", "verification_redeemed", "device_bound", "device_unbound", "security_settings_changed",
  "identity_linked", "identity_unlinked", "passkey_added", "passkey_removed", "anti_phishing_code_changed",
  "new_value_locked",
]);

/** Whether `event` (a security event) gets a "this wasn't me" button: a sign-in or change from another session. */
export function offersFreeze(event, currentSessionID) {
  return recognisable.has(event.type) && !(currentSessionID && event.session_id === currentSessionID);
}

const drawn = { terms: false, qr: null, passkeys: null, renaming: null, sessions: null, events: null, eventSessions: null, holds: null };

/** The sign-up's agreement in the page's language, its two links (hrefs from the server's configuration) in place. */
function renderTermsLabel() {
  const label = $("terms-label");
  const links = { terms: $("terms-link"), privacy: $("privacy-link") };
  const parts = t("termsAgreement").split(/(\{terms\}|\{privacy\})/);
  label.replaceChildren(...parts.filter(Boolean).map((part) =>
    part === "{terms}" ? links.terms : part === "{privacy}" ? links.privacy : document.createTextNode(part)));
}

export function render(state, actions) {
  document.body.dataset.screen = state.screen;
  $("freeze").hidden = state.screen !== "freeze";
  $("signin").hidden = state.screen !== "signIn";
  $("account").hidden = state.screen !== "account";
  $("status").textContent = state.message.kind === "status" ? state.message.text : "";
  $("error").textContent = state.message.kind === "error" ? state.message.text : "";

  if (!drawn.terms) {
    drawn.terms = true;
    renderTermsLabel();
  }
  renderFreeze(state);
  renderSignIn(state);
  renderAccount(state, actions);

  for (const element of document.querySelectorAll("[data-action]")) element.disabled = element.dataset.action === state.busy;
  if (!state.webAuthn) $("passkey-signin").disabled = true;

  for (const id of state.clear.splice(0)) $(id).reset();
  if (state.focus) {
    const target = document.querySelector(state.focus);
    state.focus = null;
    if (target) {
      target.focus();
      if (target.classList.contains("rename-input")) target.select();
    }
  }
}

function renderFreeze(state) {
  const freeze = state.freeze;
  $("freeze-ask").hidden = freeze.done || freeze.bad;
  $("freeze-done").hidden = !freeze.done;
  $("freeze-bad").hidden = !freeze.bad;
  $("freeze-back").hidden = !(freeze.done || freeze.bad);
}

function renderSignIn(state) {
  const challenge = state.challenge;
  $("code-form").hidden = !challenge;
  if (challenge) {
    const totp = challenge.method === "totp";
    // An authenticator's six digits or a recovery code (`xxxxx-xxxxx`, letters too) when 2FA is on.
    $("code-hint").textContent = t(totp ? "totpHint" : "codeHint");
    $("signin-code-label").textContent = t(totp ? "totpLabel" : "code");
    $("signin-code").inputMode = totp ? "text" : "numeric";
    $("signin-code").setAttribute("autocapitalize", "none");
    $("signin-code").spellcheck = false;
  }
  const recovery = state.recovery;
  $("password-form").hidden = !!recovery;
  $("forgot-form").hidden = !recovery || recovery.step !== "email";
  $("reset-form").hidden = !recovery || recovery.step !== "code";
  $("reset-second-factor").hidden = !(recovery && recovery.secondFactor);
  $("reset-factor").required = !!(recovery && recovery.secondFactor);
  $("signup-code-form").hidden = !state.registrationID;
  $("frozen-notice").hidden = !state.frozen;
  renderPhone(state);
}

/** Sign in with the phone (issue 43 §3): the QR code of the approval's URL and its number while waiting. */
function renderPhone(state) {
  const phone = state.phone;
  const waiting = !!phone && phone.step === "waiting";
  $("phone-start").hidden = !!phone;
  $("phone-waiting").hidden = !waiting;
  $("phone-retry").hidden = !phone || phone.step === "waiting";
  const texts = { waiting: t("phoneWaiting"), denied: t("phoneDenied"), expired: t("phoneExpired") };
  $("phone-status").textContent = phone ? (phone.step === "failed" ? phone.text : texts[phone.step]) : "";
  $("phone-status").classList.toggle("failed", !!phone && phone.step !== "waiting");
  const url = waiting ? phone.url : null;
  if (drawn.qr === url) return;
  drawn.qr = url;
  $("phone-qr").replaceChildren(...(url ? [qrSVG(document, qrMatrix(url), t("phoneQRLabel"))] : []));
  if (!url) { $("phone-number-line").replaceChildren(); return; }
  // "Pick NN on your phone": the number as text, in a <strong> of its own.
  const number = document.createElement("strong");
  number.id = "phone-number";
  number.textContent = phone.number;
  const parts = t("phonePick").split(/(\{number\})/);
  $("phone-number-line").replaceChildren(...parts.filter(Boolean).map((part) =>
    part === "{number}" ? number : document.createTextNode(part)));
}

function renderAccount(state, actions) {
  const user = state.user || {};
  $("account-name").textContent = user.email || user.nickname || user.id || "";
  if (drawn.passkeys !== state.passkeys || drawn.renaming !== state.renaming) {
    drawn.passkeys = state.passkeys;
    drawn.renaming = state.renaming;
    renderPasskeys(state, actions);
  }
  if (drawn.sessions !== state.sessions) {
    drawn.sessions = state.sessions;
    renderSessions(state, actions);
  }
  // The events' buttons depend on which session is this page's: redrawn when either list changes.
  if (drawn.events !== state.events || drawn.eventSessions !== state.sessions) {
    drawn.events = state.events;
    drawn.eventSessions = state.sessions;
    renderEvents(state, actions);
  }
  $("more-events").hidden = !state.nextCursor;
  renderSecurity(state);
}

function button(text, className, onClick, label, action) {
  const element = document.createElement("button");
  element.type = "button";
  element.textContent = text;
  if (className) element.className = className;
  if (label) element.setAttribute("aria-label", label);
  if (action) element.dataset.action = action;
  element.addEventListener("click", onClick);
  return element;
}

function span(className, text) {
  const element = document.createElement("span");
  element.className = className;
  element.textContent = text;
  return element;
}

function renderPasskeys(state, actions) {
  const list = $("passkey-list");
  list.replaceChildren();
  $("no-passkeys").hidden = state.passkeys.length > 0;
  for (const passkey of state.passkeys) {
    const item = document.createElement("li");
    item.dataset.id = passkey.id;
    item.append(span("name", passkey.name));
    if (passkey.backed_up) item.append(span("badge", t("backedUp")));
    item.append(
      button(t("rename"), "secondary rename", () => actions.rename(passkey), t("renameLabel", { name: passkey.name })),
      button(t("remove"), "secondary remove", () => actions.remove(passkey), t("removeLabel", { name: passkey.name }),
        "remove:" + passkey.id));
    item.append(span("meta", t("created", { date: formatDate(passkey.created_at) }) + " · "
      + (passkey.last_used_at ? t("lastUsed", { date: formatDate(passkey.last_used_at) }) : t("neverUsed"))));
    if (state.renaming === passkey.id) item.append(renameForm(passkey, actions));
    list.append(item);
  }
}

function renameForm(passkey, actions) {
  const form = document.createElement("form");
  const input = document.createElement("input");
  input.id = "rename-" + passkey.id;
  input.className = "rename-input";
  input.maxLength = 64;
  input.required = true;
  input.value = passkey.name;
  input.setAttribute("aria-label", t("newName", { name: passkey.name }));
  const save = document.createElement("button");
  save.type = "submit";
  save.className = "save";
  save.textContent = t("save");
  save.dataset.action = "rename:" + passkey.id;
  const cancel = button(t("cancel"), "secondary", () => actions.cancelRename(passkey));
  form.append(input, save, cancel);
  form.addEventListener("submit", (event) => { event.preventDefault(); actions.saveRename(passkey, input.value); });
  form.addEventListener("keydown", (event) => { if (event.key === "Escape") actions.cancelRename(passkey); });
  return form;
}

function renderSessions(state, actions) {
  const list = $("session-list");
  list.replaceChildren();
  for (const entry of state.sessions) {
    const item = document.createElement("li");
    item.dataset.id = entry.id;
    if (entry.current) item.classList.add("current");
    const title = [entry.device_name, entry.device_model].filter(Boolean).join(" · ") || t("unknownDevice");
    item.append(span("name", title));
    if (entry.current) item.append(span("badge", t("thisDevice")));
    else item.append(button(t("signOutDevice"), "secondary revoke", () => actions.revoke(entry),
      t("signOutDeviceLabel", { name: title }), "revoke:" + entry.id));
    item.append(span("meta", [entry.platform, entry.ip, t("lastActive", { date: formatDate(entry.last_active_at) })]
      .filter(Boolean).join(" · ")));
    list.append(item);
  }
  $("signout-others").hidden = !state.sessions.some((entry) => !entry.current);
}

function actorName(actor) {
  return { owner: t("actorOwner"), freeze_link: t("actorFreezeLink"), operator: t("actorOperator") }[actor] || actor;
}

function renderEvents(state, actions) {
  const list = $("event-list");
  list.replaceChildren();
  $("no-events").hidden = state.events.length > 0;
  const current = (state.sessions.find((entry) => entry.current) || {}).id;
  for (const event of state.events) {
    const item = document.createElement("li");
    item.dataset.id = event.id;
    item.dataset.type = event.type;
    const name = eventName(event.type);
    item.append(span("name", name));
    if (offersFreeze(event, current)) {
      item.append(button(t("notMe"), "secondary not-me", () => actions.notMe(event),
        t("notMeLabel", { event: name, date: formatDate(event.created_at) }), "freeze-own"));
    }
    const meta = [formatDate(event.created_at), event.ip];
    if (event.count && event.count > 1) meta.push(t("eventTimes", { count: event.count }));
    if (event.actor) meta.push(t("eventBy", { actor: actorName(event.actor) }));
    item.append(span("meta", meta.filter(Boolean).join(" · ")));
    list.append(item);
  }
}

function renderSecurity(state) {
  const security = state.security;
  $("security-status").hidden = !security;
  if (!security) return;
  const holds = security.holds || [];
  $("no-holds").hidden = holds.length > 0;
  $("holds-hint").hidden = holds.length === 0;
  if (drawn.holds !== holds) {
    drawn.holds = holds;
    const list = $("hold-list");
    list.replaceChildren();
    for (const hold of holds) {
      const item = document.createElement("li");
      const actionsText = (hold.actions || []).map(actionName).join(", ");
      item.append(span("name", t("holdItem", { actions: actionsText, date: formatDate(hold.hold_until) })));
      item.append(span("meta", t("holdReason", { reason: holdReasonName(hold.reason) })));
      list.append(item);
    }
  }
  const code = security.anti_phishing_code;
  $("anti-phishing-none").hidden = !!code;
  $("anti-phishing-set").hidden = !code;
  $("anti-phishing-code").textContent = code || "";
  $("anti-phishing-remove").hidden = !code;
}
