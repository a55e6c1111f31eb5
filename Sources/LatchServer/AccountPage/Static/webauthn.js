// WebAuthn between the server's JSON (base64url fields, as in WebAuthn Level 3's toJSON) and the
// browser's binary API (ArrayBuffers).

export const hasWebAuthn = typeof window.PublicKeyCredential === "function" && !!navigator.credentials;

export function fromBase64URL(text) {
  const base64 = text.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((text.length + 3) % 4);
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes.buffer;
}

export function toBase64URL(buffer) {
  const bytes = new Uint8Array(buffer);
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function descriptors(list) {
  return (list || []).map((item) => Object.assign({}, item, { id: fromBase64URL(item.id) }));
}

/** `navigator.credentials.create` options from the server's registration options. */
export function creationOptions(json) {
  return Object.assign({}, json, {
    challenge: fromBase64URL(json.challenge),
    user: Object.assign({}, json.user, { id: fromBase64URL(json.user.id) }),
    excludeCredentials: descriptors(json.excludeCredentials),
  });
}

/** `navigator.credentials.get` options from the server's authentication options. */
export function requestOptions(json) {
  return Object.assign({}, json, {
    challenge: fromBase64URL(json.challenge), allowCredentials: descriptors(json.allowCredentials),
  });
}

/** A credential's common fields and its `response` (already in JSON) as the server's JSON. */
function credentialJSON(credential, response) {
  return {
    id: credential.id, rawId: toBase64URL(credential.rawId), type: credential.type,
    authenticatorAttachment: credential.authenticatorAttachment || undefined,
    clientExtensionResults: {}, response,
  };
}

/** A new credential as the server's registration JSON. */
export function registrationJSON(credential) {
  const response = credential.response;
  return credentialJSON(credential, {
    clientDataJSON: toBase64URL(response.clientDataJSON), attestationObject: toBase64URL(response.attestationObject),
    transports: typeof response.getTransports === "function" ? response.getTransports() : [],
  });
}

/** An assertion as the server's authentication JSON. */
export function authenticationJSON(credential) {
  const response = credential.response;
  return credentialJSON(credential, {
    clientDataJSON: toBase64URL(response.clientDataJSON), authenticatorData: toBase64URL(response.authenticatorData),
    signature: toBase64URL(response.signature),
    userHandle: response.userHandle ? toBase64URL(response.userHandle) : undefined,
  });
}
