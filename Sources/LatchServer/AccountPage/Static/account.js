// Latch account page (issue 13 §3): plain script, no framework, no inline code (CSP script-src 'self').
// Tokens live only in this script's memory: never in web storage or cookies, so a reload or a closed
// tab signs out and no other page can ride on a stored credential.
"use strict";

(() => {
  const texts = {
    en: {
      title: "Latch account", signIn: "Sign in", email: "Email", password: "Password", signInButton: "Sign in",
      codeHint: "This sign-in is from a new device. We emailed you a code.", code: "Code", verify: "Verify",
      totpHint: "This sign-in is from a new device. Enter the code from your authenticator app.",
      passkeySignIn: "Sign in with a passkey", signUp: "Create an account", newPassword: "New password",
      passwordHint: "At least 8 characters, with upper- and lowercase letters and a digit; not a common password.", terms: "I accept the terms of service.",
      signUpButton: "Create account", signupCodeHint: "We emailed you a code to confirm your address.",
      signedInAs: "Signed in as", passkeys: "Passkeys", noPasskeys: "No passkeys yet.",
      passkeyName: "Name for the new passkey (optional)", addPasskey: "Add a passkey", devices: "Signed-in devices",
      signOutOthers: "Sign out all other devices", signOut: "Sign out", rename: "Rename", remove: "Remove",
      save: "Save", cancel: "Cancel", newName: "New name for {name}", thisDevice: "This device",
      signOutDevice: "Sign out", created: "Added {date}", lastUsed: "last used {date}", neverUsed: "never used",
      backedUp: "Synced", unknownDevice: "Unknown device", lastActive: "last active {date}",
      working: "Working…", signedIn: "Signed in.", signedOut: "Signed out.", codeSent: "We emailed you a code.",
      passkeyAdded: "Passkey “{name}” added.", passkeyRenamed: "Passkey renamed to “{name}”.",
      passkeyRemoved: "Passkey “{name}” removed.", othersSignedOut: "All other devices are signed out.",
      deviceSignedOut: "That device is signed out.", confirmRemove: "Remove the passkey “{name}”?",
      noWebAuthn: "This browser cannot use passkeys.", cancelled: "The passkey request was cancelled or timed out.",
      passkeyError: "The passkey could not be used ({name}).", network: "The server could not be reached.",
      unexpected: "Something went wrong (HTTP {status}).", removeLabel: "Remove {name}", renameLabel: "Rename {name}",
      signOutDeviceLabel: "Sign out {name}", browserName: "Web browser",
      signInAgain: "Sign out and sign in again, then try once more.",
    },
    "zh-Hans": {
      title: "Latch 账号", signIn: "登录", email: "邮箱", password: "密码", signInButton: "登录",
      codeHint: "这是新设备登录，我们已向你的邮箱发送验证码。", code: "验证码", verify: "验证",
      totpHint: "这是新设备登录，请输入身份验证器中的验证码。",
      passkeySignIn: "使用通行密钥登录", signUp: "注册账号", newPassword: "设置密码",
      passwordHint: "至少 8 位，须包含大写字母、小写字母和数字，且不能是常见密码。", terms: "我同意服务条款。",
      signUpButton: "注册", signupCodeHint: "我们已向你的邮箱发送验证码，用于确认邮箱地址。",
      signedInAs: "已登录：", passkeys: "通行密钥", noPasskeys: "还没有通行密钥。",
      passkeyName: "新通行密钥的名称（可选）", addPasskey: "添加通行密钥", devices: "已登录的设备",
      signOutOthers: "退出其他所有设备", signOut: "退出登录", rename: "重命名", remove: "删除",
      save: "保存", cancel: "取消", newName: "{name} 的新名称", thisDevice: "本设备",
      signOutDevice: "退出", created: "添加于 {date}", lastUsed: "上次使用 {date}", neverUsed: "从未使用",
      backedUp: "已同步", unknownDevice: "未知设备", lastActive: "上次活动 {date}",
      working: "处理中…", signedIn: "已登录。", signedOut: "已退出登录。", codeSent: "验证码已发送到你的邮箱。",
      passkeyAdded: "已添加通行密钥“{name}”。", passkeyRenamed: "通行密钥已重命名为“{name}”。",
      passkeyRemoved: "已删除通行密钥“{name}”。", othersSignedOut: "其他所有设备均已退出登录。",
      deviceSignedOut: "该设备已退出登录。", confirmRemove: "删除通行密钥“{name}”？",
      noWebAuthn: "此浏览器无法使用通行密钥。", cancelled: "通行密钥请求已取消或超时。",
      passkeyError: "无法使用通行密钥（{name}）。", network: "无法连接服务器。",
      unexpected: "出现错误（HTTP {status}）。", removeLabel: "删除 {name}", renameLabel: "重命名 {name}",
      signOutDeviceLabel: "退出 {name}", browserName: "网页浏览器",
      signInAgain: "请退出后重新登录，再试一次。",
    },
  };

  /** zh-Hans for any Chinese preference that comes before an English one, else English. */
  function chooseLanguage(preferences) {
    for (const raw of preferences || []) {
      const tag = String(raw).toLowerCase();
      if (tag.startsWith("zh")) return "zh-Hans";
      if (tag.startsWith("en")) return "en";
    }
    return "en";
  }

  const language = chooseLanguage(navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language]);
  const dateFormat = new Intl.DateTimeFormat(language === "zh-Hans" ? "zh-Hans-CN" : "en", { dateStyle: "medium", timeStyle: "short" });

  function t(key, values) {
    let text = texts[language][key] || texts.en[key] || key;
    for (const [name, value] of Object.entries(values || {})) text = text.split("{" + name + "}").join(String(value));
    return text;
  }

  const $ = (id) => document.getElementById(id);

  // Session state: in memory only.
  let session = null; // {accessToken, refreshToken, user}
  // A per-page-load installation id: without storage the browser is a new device on every load,
  // which is what it is to the server (the new-device code step covers it).
  const device = { id: "web-" + crypto.randomUUID(), name: t("browserName"), platform: "Web" };
  let conditional = null; // AbortController of the pending autofill (conditional) passkey request

  // MARK: Messages

  function say(text) { $("error").textContent = ""; $("status").textContent = text || ""; }
  function fail(text) { $("status").textContent = ""; $("error").textContent = text || ""; }

  class APIError extends Error {
    constructor(status, body) {
      super((body && body.message) || t("unexpected", { status }));
      this.status = status;
      this.body = body || {};
    }
  }

  // MARK: API

  async function api(method, path, body, options) {
    const headers = { "Accept": "application/json", "Accept-Language": language };
    if (body !== undefined) headers["Content-Type"] = "application/json";
    const bearer = options && options.bearer;
    if (bearer && session) headers["Authorization"] = "Bearer " + session.accessToken;
    let response;
    try {
      response = await fetch(path, {
        method, headers, body: body === undefined ? undefined : JSON.stringify(body),
        credentials: "omit", cache: "no-store", redirect: "error",
      });
    } catch (error) {
      throw new Error(t("network"));
    }
    if (bearer && response.status === 401 && !(options && options.retried) && session && await refresh()) {
      return api(method, path, body, { bearer: true, retried: true });
    }
    const text = await response.text();
    let json = null;
    if (text) { try { json = JSON.parse(text); } catch (_) { json = null; } }
    if (!response.ok) throw new APIError(response.status, json);
    return json;
  }

  /** Rotates the refresh token once after a 401; false (and signed out) when that fails too. */
  async function refresh() {
    try {
      const tokens = await api("POST", "/v1/token", { grant_type: "refresh_token", refresh_token: session.refreshToken });
      session.accessToken = tokens.access_token;
      session.refreshToken = tokens.refresh_token;
      return true;
    } catch (_) {
      showSignedOut();
      return false;
    }
  }

  // MARK: WebAuthn JSON <-> binary

  function fromBase64URL(text) {
    const base64 = text.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((text.length + 3) % 4);
    const binary = atob(base64);
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    return bytes.buffer;
  }

  function toBase64URL(buffer) {
    const bytes = new Uint8Array(buffer);
    let binary = "";
    for (const byte of bytes) binary += String.fromCharCode(byte);
    return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  }

  function descriptors(list) {
    return (list || []).map((item) => Object.assign({}, item, { id: fromBase64URL(item.id) }));
  }

  function creationOptions(json) {
    return Object.assign({}, json, {
      challenge: fromBase64URL(json.challenge),
      user: Object.assign({}, json.user, { id: fromBase64URL(json.user.id) }),
      excludeCredentials: descriptors(json.excludeCredentials),
    });
  }

  function requestOptions(json) {
    return Object.assign({}, json, {
      challenge: fromBase64URL(json.challenge), allowCredentials: descriptors(json.allowCredentials),
    });
  }

  function registrationJSON(credential) {
    const response = credential.response;
    return {
      id: credential.id, rawId: toBase64URL(credential.rawId), type: credential.type,
      authenticatorAttachment: credential.authenticatorAttachment || undefined,
      clientExtensionResults: {},
      response: {
        clientDataJSON: toBase64URL(response.clientDataJSON), attestationObject: toBase64URL(response.attestationObject),
        transports: typeof response.getTransports === "function" ? response.getTransports() : [],
      },
    };
  }

  function authenticationJSON(credential) {
    const response = credential.response;
    return {
      id: credential.id, rawId: toBase64URL(credential.rawId), type: credential.type,
      authenticatorAttachment: credential.authenticatorAttachment || undefined,
      clientExtensionResults: {},
      response: {
        clientDataJSON: toBase64URL(response.clientDataJSON), authenticatorData: toBase64URL(response.authenticatorData),
        signature: toBase64URL(response.signature),
        userHandle: response.userHandle ? toBase64URL(response.userHandle) : undefined,
      },
    };
  }

  function webAuthnMessage(error) {
    // Adding or removing a passkey needs a sign-in within 10 minutes (the page has no step-up of its own).
    if (error instanceof APIError && error.body.error === "VERIFICATION_REQUIRED") return error.message + " " + t("signInAgain");
    if (error instanceof APIError || !(error instanceof DOMException)) return error.message;
    if (error.name === "NotAllowedError" || error.name === "AbortError") return t("cancelled");
    return t("passkeyError", { name: error.name });
  }

  const hasWebAuthn = typeof window.PublicKeyCredential === "function" && !!navigator.credentials;

  // MARK: Busy buttons

  async function busy(button, work) {
    if (button) button.disabled = true;
    say(t("working"));
    try {
      await work();
    } catch (error) {
      fail(webAuthnMessage(error));
    } finally {
      if (button) button.disabled = false;
    }
  }

  // MARK: Signing in

  let loginChallenge = null;

  async function signedIn(tokens) {
    stopConditional();
    session = { accessToken: tokens.access_token, refreshToken: tokens.refresh_token, user: tokens.user || {} };
    loginChallenge = null;
    $("password-form").reset();
    $("code-form").hidden = true;
    $("code-form").reset();
    $("signup-form").reset();
    $("signup-code-form").hidden = true;
    $("signin").hidden = true;
    $("account").hidden = false;
    $("account-name").textContent = session.user.email || session.user.nickname || session.user.id || "";
    say(t("signedIn"));
    $("account-heading").focus();
    await Promise.all([loadPasskeys(), loadSessions()]);
  }

  async function passwordSignIn(event) {
    event.preventDefault();
    await busy($("signin-submit"), async () => {
      try {
        const tokens = await api("POST", "/v1/token", {
          grant_type: "password", email: $("signin-email").value.trim(), password: $("signin-password").value, device,
        });
        await signedIn(tokens);
      } catch (error) {
        if (error instanceof APIError && error.body.error === "VERIFICATION_REQUIRED" && error.body.challenge_id) {
          loginChallenge = error.body.challenge_id;
          $("code-hint").textContent = t(error.body.method === "totp" ? "totpHint" : "codeHint");
          $("code-form").hidden = false;
          say(error.body.method === "totp" ? "" : t("codeSent"));
          $("signin-code").focus();
          return;
        }
        throw error;
      }
    });
  }

  async function codeSignIn(event) {
    event.preventDefault();
    await busy($("code-submit"), async () => {
      const tokens = await api("POST", "/v1/token", {
        grant_type: "login_challenge", challenge_id: loginChallenge, code: $("signin-code").value.trim(), device,
      });
      await signedIn(tokens);
    });
  }

  /** Asks the server for sign-in options and the browser for an assertion, then trades it for tokens. */
  async function passkeyAssertion(mediation, signal) {
    const answer = await api("POST", "/v1/passkeys/authentication/options", {});
    const request = { publicKey: requestOptions(answer.options) };
    if (mediation) request.mediation = mediation;
    if (signal) request.signal = signal;
    const credential = await navigator.credentials.get(request);
    if (!credential) throw new Error(t("cancelled"));
    return api("POST", "/v1/token", {
      grant_type: "passkey", challenge_id: answer.challenge_id, credential: authenticationJSON(credential), device,
    });
  }

  async function passkeySignIn() {
    if (!hasWebAuthn) { fail(t("noWebAuthn")); return; }
    stopConditional();
    await busy($("passkey-signin"), async () => {
      try {
        await signedIn(await passkeyAssertion(null, null));
      } finally {
        if (!session) startConditional();
      }
    });
  }

  function stopConditional() {
    if (conditional) { conditional.abort(); conditional = null; }
  }

  /** Autofill: passkeys offered in the email field's suggestions, where the browser supports it. */
  async function startConditional() {
    if (!hasWebAuthn || session || conditional || typeof PublicKeyCredential.isConditionalMediationAvailable !== "function") return;
    let available = false;
    try { available = await PublicKeyCredential.isConditionalMediationAvailable(); } catch (_) { available = false; }
    if (!available || session || conditional) return;
    const controller = new AbortController();
    conditional = controller;
    try {
      const tokens = await passkeyAssertion("conditional", controller.signal);
      if (conditional === controller) conditional = null;
      await signedIn(tokens);
    } catch (error) {
      if (conditional !== controller) return; // aborted on purpose
      conditional = null;
      if (!(error instanceof DOMException)) fail(webAuthnMessage(error));
    }
  }

  // MARK: Signing up

  let registrationID = null;

  async function signUp(event) {
    event.preventDefault();
    await busy($("signup-submit"), async () => {
      const answer = await api("POST", "/v1/registrations", {
        email: $("signup-email").value.trim(), password: $("signup-password").value, terms_accepted: $("signup-terms").checked,
      });
      registrationID = answer.registration_id;
      $("signup-code-form").hidden = false;
      say(t("codeSent"));
      $("signup-code").focus();
    });
  }

  async function confirmSignUp(event) {
    event.preventDefault();
    await busy($("signup-code-submit"), async () => {
      const tokens = await api("POST", "/v1/registrations/" + encodeURIComponent(registrationID) + "/verify", {
        code: $("signup-code").value.trim(), device,
      });
      await signedIn(tokens);
    });
  }

  // MARK: Passkeys

  function formatDate(value) {
    const date = new Date(value);
    return isNaN(date) ? String(value) : dateFormat.format(date);
  }

  function button(text, className, onClick, label) {
    const element = document.createElement("button");
    element.type = "button";
    element.textContent = text;
    if (className) element.className = className;
    if (label) element.setAttribute("aria-label", label);
    element.addEventListener("click", onClick);
    return element;
  }

  async function loadPasskeys(focusID) {
    const passkeys = await api("GET", "/v1/passkeys", undefined, { bearer: true });
    const list = $("passkey-list");
    list.replaceChildren();
    $("no-passkeys").hidden = passkeys.length > 0;
    for (const passkey of passkeys) {
      const item = document.createElement("li");
      item.dataset.id = passkey.id;
      const name = document.createElement("span");
      name.className = "name";
      name.textContent = passkey.name;
      item.append(name);
      if (passkey.backed_up) {
        const badge = document.createElement("span");
        badge.className = "badge";
        badge.textContent = t("backedUp");
        item.append(badge);
      }
      item.append(
        button(t("rename"), "secondary rename", () => showRename(item, passkey), t("renameLabel", { name: passkey.name })),
        button(t("remove"), "secondary remove", (event) => removePasskey(event.currentTarget, passkey), t("removeLabel", { name: passkey.name })));
      const meta = document.createElement("span");
      meta.className = "meta";
      meta.textContent = t("created", { date: formatDate(passkey.created_at) }) + " · "
        + (passkey.last_used_at ? t("lastUsed", { date: formatDate(passkey.last_used_at) }) : t("neverUsed"));
      item.append(meta);
      list.append(item);
    }
    if (focusID) {
      const target = list.querySelector(`li[data-id="${CSS.escape(focusID)}"] .rename`);
      if (target) target.focus();
    }
  }

  function showRename(item, passkey) {
    if (item.querySelector("form")) return;
    const form = document.createElement("form");
    const inputID = "rename-" + passkey.id;
    const label = document.createElement("label");
    label.htmlFor = inputID;
    label.className = "visually-hidden";
    label.textContent = t("newName", { name: passkey.name });
    const input = document.createElement("input");
    input.id = inputID;
    input.className = "rename-input";
    input.maxLength = 64;
    input.required = true;
    input.value = passkey.name;
    input.setAttribute("aria-label", t("newName", { name: passkey.name }));
    const save = document.createElement("button");
    save.type = "submit";
    save.className = "save";
    save.textContent = t("save");
    const cancel = button(t("cancel"), "secondary", () => { form.remove(); item.querySelector(".rename").focus(); });
    form.append(input, save, cancel);
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      await busy(save, async () => {
        const renamed = await api("PATCH", "/v1/passkeys/" + encodeURIComponent(passkey.id), { name: input.value }, { bearer: true });
        await loadPasskeys(passkey.id);
        say(t("passkeyRenamed", { name: renamed.name }));
      });
    });
    form.addEventListener("keydown", (event) => { if (event.key === "Escape") cancel.click(); });
    item.append(form);
    input.focus();
    input.select();
  }

  async function removePasskey(trigger, passkey) {
    if (!window.confirm(t("confirmRemove", { name: passkey.name }))) return;
    await busy(trigger, async () => {
      await api("DELETE", "/v1/passkeys/" + encodeURIComponent(passkey.id), undefined, { bearer: true });
      await loadPasskeys();
      say(t("passkeyRemoved", { name: passkey.name }));
      $("passkeys-heading").setAttribute("tabindex", "-1");
      $("passkeys-heading").focus();
    });
  }

  async function addPasskey(event) {
    event.preventDefault();
    if (!hasWebAuthn) { fail(t("noWebAuthn")); return; }
    await busy($("add-passkey"), async () => {
      const answer = await api("POST", "/v1/passkeys/registration/options", undefined, { bearer: true });
      const credential = await navigator.credentials.create({ publicKey: creationOptions(answer.options) });
      if (!credential) throw new Error(t("cancelled"));
      const name = $("passkey-name").value.trim();
      const body = { challenge_id: answer.challenge_id, credential: registrationJSON(credential) };
      if (name) body.name = name;
      const created = await api("POST", "/v1/passkeys", body, { bearer: true });
      $("add-passkey-form").reset();
      await loadPasskeys(created.id);
      say(t("passkeyAdded", { name: created.name }));
    });
  }

  // MARK: Sessions

  async function loadSessions() {
    const sessions = await api("GET", "/v1/sessions", undefined, { bearer: true });
    const list = $("session-list");
    list.replaceChildren();
    for (const entry of sessions) {
      const item = document.createElement("li");
      item.dataset.id = entry.id;
      if (entry.current) item.classList.add("current");
      const name = document.createElement("span");
      name.className = "name";
      const title = [entry.device_name, entry.device_model].filter(Boolean).join(" · ") || t("unknownDevice");
      name.textContent = title;
      item.append(name);
      if (entry.current) {
        const badge = document.createElement("span");
        badge.className = "badge";
        badge.textContent = t("thisDevice");
        item.append(badge);
      } else {
        item.append(button(t("signOutDevice"), "secondary revoke", (event) => revokeSession(event.currentTarget, entry.id),
          t("signOutDeviceLabel", { name: title })));
      }
      const meta = document.createElement("span");
      meta.className = "meta";
      meta.textContent = [entry.platform, entry.ip, t("lastActive", { date: formatDate(entry.last_active_at) })].filter(Boolean).join(" · ");
      item.append(meta);
      list.append(item);
    }
    $("signout-others").hidden = !sessions.some((entry) => !entry.current);
  }

  async function revokeSession(trigger, id) {
    await busy(trigger, async () => {
      await api("DELETE", "/v1/sessions/" + encodeURIComponent(id), undefined, { bearer: true });
      await loadSessions();
      say(t("deviceSignedOut"));
      $("sessions-heading").setAttribute("tabindex", "-1");
      $("sessions-heading").focus();
    });
  }

  async function signOutOthers() {
    await busy($("signout-others"), async () => {
      await api("DELETE", "/v1/sessions?scope=others", undefined, { bearer: true });
      await loadSessions();
      say(t("othersSignedOut"));
      $("sessions-heading").setAttribute("tabindex", "-1");
      $("sessions-heading").focus();
    });
  }

  function showSignedOut() {
    session = null;
    $("account").hidden = true;
    $("signin").hidden = false;
    $("passkey-list").replaceChildren();
    $("session-list").replaceChildren();
    $("signin-heading").focus();
    startConditional();
  }

  async function signOut() {
    await busy($("signout"), async () => {
      try {
        await api("POST", "/v1/logout", undefined, { bearer: true });
      } finally {
        showSignedOut();
      }
      say(t("signedOut"));
    });
  }

  // MARK: Start

  function start() {
    document.documentElement.lang = language;
    for (const element of document.querySelectorAll("[data-i18n]")) element.textContent = t(element.dataset.i18n);
    document.title = t("title");
    $("password-form").addEventListener("submit", passwordSignIn);
    $("code-form").addEventListener("submit", codeSignIn);
    $("passkey-signin").addEventListener("click", passkeySignIn);
    $("signup-form").addEventListener("submit", signUp);
    $("signup-code-form").addEventListener("submit", confirmSignUp);
    $("add-passkey-form").addEventListener("submit", addPasskey);
    $("signout-others").addEventListener("click", signOutOthers);
    $("signout").addEventListener("click", signOut);
    if (!hasWebAuthn) $("passkey-signin").disabled = true;
    document.body.dataset.ready = "true";
    startConditional();
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
