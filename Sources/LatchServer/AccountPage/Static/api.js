// The account page's HTTP client for latchd's API. Tokens live only in this module's memory: never in
// web storage or cookies, so a reload or a closed tab signs out and no other page can ride on a stored
// credential. A 401 on a signed-in call refreshes the tokens once and repeats the call; calls that meet
// a 401 together share that one refresh (single flight), so a rotated refresh token is never sent twice.

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
 * `fetch` is injectable for the browser test of the single-flight refresh.
 */
export function createClient({
  language, networkMessage, unexpectedMessage, onSessionEnded, fetch = (resource, init) => window.fetch(resource, init),
}) {
  let tokens = null; // {access, refresh}
  let refreshing = null; // the running refresh: Promise<boolean>

  async function send(method, path, body, accessToken) {
    const headers = { "Accept": "application/json", "Accept-Language": language };
    if (body !== undefined) headers["Content-Type"] = "application/json";
    if (accessToken) headers["Authorization"] = "Bearer " + accessToken;
    try {
      return await fetch(path, {
        method, headers, body: body === undefined ? undefined : JSON.stringify(body),
        credentials: "omit", cache: "no-store", redirect: "error",
      });
    } catch (_) {
      throw new Error(networkMessage);
    }
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
      const answer = await parse(await send("POST", "/v1/token", { grant_type: "refresh_token", refresh_token: current.refresh }));
      if (tokens === current) tokens = { access: answer.access_token, refresh: answer.refresh_token };
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
    const used = bearer && tokens ? tokens.access : null;
    let response = await send(method, path, body, used);
    if (bearer && used && response.status === 401 && await refreshedSince(used)) {
      response = await send(method, path, body, tokens && tokens.access);
    }
    return parse(response);
  }

  return {
    call,
    /** Keeps the tokens of a grant's answer (`access_token`, `refresh_token`). */
    signIn(answer) { tokens = { access: answer.access_token, refresh: answer.refresh_token }; },
    /** Forgets the tokens (no call to the server). */
    forget() { tokens = null; },
    get signedIn() { return tokens !== null; },
  };
}
