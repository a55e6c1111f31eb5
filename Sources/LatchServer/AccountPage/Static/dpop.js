// The account page's DPoP key (RFC 9449; issue 41 §2): an ECDSA P-256 key made by WebCrypto with
// `extractable: false`, so the page's own script can sign with it but no script can read its private
// half, kept in IndexedDB (a CryptoKey is stored as is, still not extractable) so a reload keeps it.
// Every call to latchd carries a proof by it: the grant binds the session to the key, and a bound
// token is sent only as `Authorization: DPoP` with a fresh proof, so a copied token is useless.
// Without WebCrypto the page sends no proofs (a bearer session, refused when latchd requires DPoP);
// without IndexedDB the key lives in memory for the page's life.

const DATABASE = "latch-account";
const STORE = "keys";
const KEY = "dpop";

function base64url(bytes) {
  let text = "";
  for (const byte of new Uint8Array(bytes)) text += String.fromCharCode(byte);
  return btoa(text).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function utf8(text) { return new TextEncoder().encode(text); }

/** Runs `work(store)` in a transaction of the key store; its request's result, or null without IndexedDB. */
function withStore(mode, work) {
  return new Promise((resolve) => {
    if (!window.indexedDB) { resolve(null); return; }
    let opened;
    try { opened = indexedDB.open(DATABASE, 1); } catch (_) { resolve(null); return; }
    opened.onupgradeneeded = () => opened.result.createObjectStore(STORE);
    opened.onerror = () => resolve(null);
    opened.onsuccess = () => {
      const database = opened.result;
      try {
        const request = work(database.transaction(STORE, mode).objectStore(STORE));
        request.onsuccess = () => { database.close(); resolve(request.result === undefined ? null : request.result); };
        request.onerror = () => { database.close(); resolve(null); };
      } catch (_) {
        database.close();
        resolve(null);
      }
    };
  });
}

/**
 * A signer of DPoP proofs for this page: `proof(method, path, accessToken, nonce, now)` answers the `DPoP`
 * header's value (`htu` is the page's origin and `path`; `iat` is `now`, milliseconds, the device's clock by
 * default), or null without WebCrypto; `discard()` forgets the key (signing out), so the next sign-in
 * makes a new one.
 */
export function createProofSigner() {
  let pair = null; // Promise<{keyPair, jwk}> | null
  let discarding = Promise.resolve(); // the last discard's deletion, which a new key waits for

  async function load() {
    await discarding;
    if (!window.crypto || !crypto.subtle) return null;
    let keyPair = await withStore("readonly", (store) => store.get(KEY));
    if (!keyPair || !keyPair.privateKey || !keyPair.publicKey) {
      keyPair = await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, false, ["sign", "verify"]);
      await withStore("readwrite", (store) => store.put(keyPair, KEY));
    }
    const exported = await crypto.subtle.exportKey("jwk", keyPair.publicKey);
    return { keyPair, jwk: { crv: "P-256", kty: "EC", x: exported.x, y: exported.y } };
  }

  function key() {
    if (!pair) pair = load().catch(() => null);
    return pair;
  }

  return {
    async proof(method, path, accessToken, nonce, now = Date.now()) {
      const loaded = await key();
      if (!loaded) return null;
      const url = new URL(path, window.location.origin);
      const claims = {
        htm: method, htu: url.origin + url.pathname, iat: Math.floor(now / 1000), jti: crypto.randomUUID(),
      };
      if (accessToken) claims.ath = base64url(await crypto.subtle.digest("SHA-256", utf8(accessToken)));
      if (nonce) claims.nonce = nonce;
      const header = { alg: "ES256", jwk: loaded.jwk, typ: "dpop+jwt" };
      const input = base64url(utf8(JSON.stringify(header))) + "." + base64url(utf8(JSON.stringify(claims)));
      // WebCrypto's ECDSA signature is r ‖ s (IEEE P1363), 64 bytes: what JWS's ES256 wants.
      const signature = await crypto.subtle.sign({ name: "ECDSA", hash: "SHA-256" }, loaded.keyPair.privateKey, utf8(input));
      return input + "." + base64url(signature);
    },

    discard() {
      pair = null;
      discarding = withStore("readwrite", (store) => store.delete(KEY));
      return discarding;
    },
  };
}
