// The account page's HTTP client for latchd's API. Tokens live only in this module's memory: never in
// web storage or cookies, so a reload or a closed tab signs out and no other page can ride on a stored
// credential. A 401 on a signed-in call refreshes the tokens once and repeats the call; calls that meet
// a 401 together share that one refresh (single flight), so a rotated refresh token is never sent twice.
// Every call carries a DPoP proof by the page's non-extractable key (dpop.js; issue 41 §2): the grant
// binds the session to it, a bound token goes only as `Authorization: DPoP`, and a USE_DPOP_NONCE answer
// is signed again once with the nonce it gave, so `LATCH_DPOP=required` works for the page. A proof
// refused as `stale_iat` (the device's clock is off) is dated by the answer's `Date` and sent again once.

import { createProofSigner } from "./dpop.js";

/** An answer with an error status: `status`, and `body` (`{error, message, …}`, or {}). */
export class APIError extends Error {
  constructor(status, body, fallbackMessage) {
    super((body && body.message) || fallbackMessage);
    this.status = status;
    this.body = body || {};
  }

  /** The error code of the answer (`VERIFICATION_REQUIRED`, `AUTH_003`, …), or undefined. */
  get code() { return this.body.error; }
}

/**
 * A client for one page: `call(method, path, body, {bearer})` answers the parsed JSON (null when empty)
 * or throws APIError (an error status) or Error(networkMessage) (no answer).
 * `language` goes out as Accept-Language; `onSessionEnded` runs when a refresh is refused.
 * `fetch` is injectable for the browser test of the single-flight refresh; `dpop` signs the proofs
 * (the page's key by default; null: none).
 */
export function createClient({
  language, networkMessage, unexpectedMessage, onSessionEnded, fetch = (resource, init) => window.fetch(resource, init),
  dpop = createProofSigner(),
}) {
  let tokens = null; // {access, refresh, bound}
  let refreshing = null; // the running refresh: Promise<boolean>
  let nonce = null; // the latest DPoP-Nonce latchd handed out
  let clockOffset = 0; // the server's clock minus the device's (ms), as a stale_iat refusal's Date said

  /** One request; `token` is the access token to present ({access, bound}) or null. */
  async function sendOnce(method, path, body, token) {
    const headers = { "Accept": "application/json", "Accept-Language": language };
    if (body !== undefined) headers["Content-Type"] = "application/json";
    if (token) headers["Authorization"] = (token.bound ? "DPoP " : "Bearer ") + token.access;
    // A bearer token's call needs no proof (latchd reads none for it); a grant's binds its session.
    if (dpop && (!token || token.bound)) {
      let proof = null;
      try {
        proof = await dpop.proof(method, path, token ? token.access : null, nonce, Date.now() + clockOffset);
      } catch (_) {
        proof = null;
      }
      if (proof) headers["DPoP"] = proof;
    }
    try {
      return await fetch(path, {
        method, headers, body: body === undefined ? undefined : JSON.stringify(body),
        credentials: "omit", cache: "no-store", redirect: "error",
      });
    } catch (_) {
      throw new Error(networkMessage);
    }
  }

  /**
   * Whether `response` asks for the proof again: USE_DPOP_NONCE with the nonce it gave (kept for every
   * later proof), or `stale_iat` with a `Date` more than 30 s from the time the proof was dated by (kept too).
   */
  async function asksForProofAgain(response) {
    const header = (name) => (response.headers && response.headers.get ? response.headers.get(name) : null);
    const fresh = header("DPoP-Nonce");
    if (fresh) nonce = fresh;
    if (response.status !== 400 && response.status !== 401) return false;
    let answer = null;
    try { answer = await response.clone().json(); } catch (_) { return false; }
    if (!answer) return false;
    if (answer.error === "USE_DPOP_NONCE") return !!fresh;
    const stale = answer.error === "DPOP_INVALID" && Array.isArray(answer.reasons) && answer.reasons.length === 1
      && answer.reasons[0] === "stale_iat";
    const serverTime = stale ? Date.parse(header("Date") || "") : NaN;
    if (Number.isNaN(serverTime)) return false;
    const offset = serverTime - Date.now();
    if (Math.abs(offset - clockOffset) <= 30000) return false;
    clockOffset = Math.abs(offset) > 30000 ? offset : 0;
    return true;
  }

  async function send(method, path, body, token) {
    const response = await sendOnce(method, path, body, token);
    if (dpop && await asksForProofAgain(response)) return sendOnce(method, path, body, token);
    return response;
  }

  /** The tokens of a grant's answer: bound when latchd says `token_type` `DPoP`. */
  function tokensOf(answer) {
    return { access: answer.access_token, refresh: answer.refresh_token, bound: answer.token_type === "DPoP" };
  }

  async function parse(response) {
    const text = await response.text();
    let json = null;
    if (text) { try { json = JSON.parse(text); } catch (_) { json = null; } }
    if (!response.ok) throw new APIError(response.status, json, unexpectedMessage(response.status));
    return json;
  }

  /** Rotates the refresh token; false (and the session ended) when the server refuses it. */
  async function rotate(current) {
    try {
      const answer = await parse(await send("POST", "/v1/token", { grant_type: "refresh_token", refresh_token: current.refresh }, null));
      if (tokens === current) tokens = tokensOf(answer);
      return tokens !== null;
    } catch (error) {
      if (error instanceof APIError && tokens === current) {
        tokens = null;
        onSessionEnded(error);
      }
      return false;
    }
  }

  /** Whether there are tokens newer than `usedAccess`: refreshed by another call already, or by one refresh now. */
  function refreshedSince(usedAccess) {
    if (!tokens) return Promise.resolve(false);
    if (tokens.access !== usedAccess) return Promise.resolve(true);
    if (!refreshing) {
      const current = tokens;
      refreshing = rotate(current).finally(() => { refreshing = null; });
    }
    return refreshing;
  }

  async function call(method, path, body, options) {
    const bearer = !!(options && options.bearer);
    const used = bearer && tokens ? tokens : null;
    let response = await send(method, path, body, used);
    if (bearer && used && response.status === 401 && await refreshedSince(used.access)) {
      response = await send(method, path, body, tokens);
    }
    return parse(response);
  }

  return {
    call,
    /** Keeps the tokens of a grant's answer (`access_token`, `refresh_token`, `token_type`). */
    signIn(answer) { tokens = tokensOf(answer); },
    /** Forgets the tokens (no call to the server) and the DPoP key: the next sign-in makes a new one. */
    forget() {
      tokens = null;
      nonce = null;
      if (dpop) dpop.discard().catch(() => {});
    },
    get signedIn() { return tokens !== null; },
  };
}
