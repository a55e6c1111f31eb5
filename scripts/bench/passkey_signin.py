"""Passkey sign-in throughput next to device-signature sign-in, with the same driver (issue 13 §4).

Both sign-ins take two requests: a fresh challenge, then the `/v1/token` grant with what the client
signed. Passkey: POST /v1/passkeys/authentication/options {email}, then grant `passkey` with a real
WebAuthn assertion (P-256, counter 0 like a synced passkey). Device signature: POST
/v1/device-credentials/{id}/challenges, then grant `device_signature` over the `latch-v1` login
message. Each client process keeps one connection and signs in again and again for SECONDS; the two
kinds alternate for ROUNDS rounds so a noisy moment weighs on both alike.

Set-up, through the API of a development latchd (its outbox gives the sign-up codes): USERS users,
each with one passkey (attestation `none`) and one device key.

usage: passkey_signin.py URL [--seconds 10] [--clients 8] [--users 8] [--rounds 2]
needs: python3 with `cryptography`.
"""
import base64, hashlib, http.client, json, multiprocessing, os, sys, time, urllib.parse

from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec


def arg(name, default):
    return type(default)(sys.argv[sys.argv.index(name) + 1]) if name in sys.argv else default


URL = sys.argv[1]
SECONDS, CLIENTS, USERS, ROUNDS = arg("--seconds", 10), arg("--clients", 8), arg("--users", 8), arg("--rounds", 2)
HOST = urllib.parse.urlparse(URL)


def b64u(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64u(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class Client:
    def __init__(self):
        self.connection = http.client.HTTPConnection(HOST.hostname, HOST.port, timeout=30)

    def call(self, method, path, body=None, token=None):
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = "Bearer " + token
        self.connection.request(method, path, json.dumps(body) if body is not None else None, headers)
        response = self.connection.getresponse()
        data = response.read()
        return response.status, (json.loads(data) if data else None)


# --- a minimal CBOR encoder (what WebAuthn needs: unsigned/negative ints, bytes, text, maps) ---

def cbor_head(major, value):
    if value < 24:
        return bytes([major << 5 | value])
    for info, size in ((24, 1), (25, 2), (26, 4), (27, 8)):
        if value < 1 << (8 * size):
            return bytes([major << 5 | info]) + value.to_bytes(size, "big")


def cbor(value):
    if isinstance(value, int):
        return cbor_head(0, value) if value >= 0 else cbor_head(1, -1 - value)
    if isinstance(value, bytes):
        return cbor_head(2, len(value)) + value
    if isinstance(value, str):
        data = value.encode()
        return cbor_head(3, len(data)) + data
    if isinstance(value, list):  # a map given as ordered (key, value) pairs: core deterministic order
        return cbor_head(5, len(value)) + b"".join(cbor(k) + cbor(v) for k, v in value)
    raise TypeError(value)


def der_signature(key, data):
    return key.sign(data, ec.ECDSA(hashes.SHA256()))


def set_up_user(index):
    """Signs user `index` up, registers a passkey and binds a device key; returns what sign-ins need."""
    client = Client()
    email = f"passkey-bench{index}-{os.getpid()}@bench.test"
    status, accepted = client.call("POST", "/v1/registrations", {"email": email, "password": "Bench-Password-1", "terms_accepted": True})
    assert status == 202, (status, accepted)
    status, messages = client.call("GET", "/dev/outbox?to=" + urllib.parse.quote(email, safe=""))
    code = [m["code"] for m in messages if m.get("code")][-1]
    status, tokens = client.call("POST", f"/v1/registrations/{accepted['registration_id']}/verify", {"code": code, "device": {"id": "bench-device"}})
    assert status in (200, 201), (status, tokens)
    token = tokens["access_token"]

    # A passkey (attestation none), as the SDK's software authenticator makes it.
    status, created = client.call("POST", "/v1/passkeys/registration/options", {}, token)
    assert status == 200, (status, created)
    options = created["options"]
    rp_id = options["rp"]["id"]
    origin = os.environ.get("LATCH_PASSKEY_ORIGIN") or (f"http://localhost:{HOST.port}" if rp_id == "localhost" else f"https://{rp_id}")
    passkey = ec.generate_private_key(ec.SECP256R1())
    numbers = passkey.public_key().public_numbers()
    cose = cbor([(1, 2), (3, -7), (-1, 1), (-2, numbers.x.to_bytes(32, "big")), (-3, numbers.y.to_bytes(32, "big"))])
    credential_id = os.urandom(32)
    rp_hash = hashlib.sha256(rp_id.encode()).digest()
    auth_data = rp_hash + bytes([0x45]) + (0).to_bytes(4, "big") + bytes(16) + len(credential_id).to_bytes(2, "big") + credential_id + cose
    client_data = json.dumps({"type": "webauthn.create", "challenge": options["challenge"], "origin": origin, "crossOrigin": False}).encode()
    attestation = cbor([("fmt", "none"), ("attStmt", []), ("authData", auth_data)])
    credential = {"id": b64u(credential_id), "rawId": b64u(credential_id), "type": "public-key",
                  "response": {"clientDataJSON": b64u(client_data), "attestationObject": b64u(attestation), "transports": ["internal"]}}
    status, answer = client.call("POST", "/v1/passkeys", {"challenge_id": created["challenge_id"], "credential": credential, "name": "bench"}, token)
    assert status == 201, (status, answer)

    # A device key (B5).
    device = ec.generate_private_key(ec.SECP256R1())
    point = device.public_key().public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    status, bound = client.call("POST", "/v1/device-credentials", {"public_key": b64u(point), "device_name": "bench", "biometry": "face_id"}, token)
    assert status == 201, (status, bound)
    return {
        "email": email, "rp_id": rp_id, "rp_hash": rp_hash.hex(), "origin": origin, "credential_id": b64u(credential_id),
        "passkey": passkey.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()).decode(),
        "device_credential": bound["credential_id"],
        "device": device.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()).decode(),
    }


def passkey_sign_in(client, user, key):
    status, created = client.call("POST", "/v1/passkeys/authentication/options", {"email": user["email"]})
    if status != 200:
        return False
    auth_data = bytes.fromhex(user["rp_hash"]) + bytes([0x05]) + (0).to_bytes(4, "big")
    client_data = json.dumps({"type": "webauthn.get", "challenge": created["options"]["challenge"], "origin": user["origin"], "crossOrigin": False}).encode()
    signature = der_signature(key, auth_data + hashlib.sha256(client_data).digest())
    credential = {"id": user["credential_id"], "rawId": user["credential_id"], "type": "public-key",
                  "response": {"clientDataJSON": b64u(client_data), "authenticatorData": b64u(auth_data), "signature": b64u(signature)}}
    status, _ = client.call("POST", "/v1/token", {"grant_type": "passkey", "challenge_id": created["challenge_id"], "credential": credential, "device": {"id": "bench-device"}})
    return status == 200


def device_sign_in(client, user, key):
    status, challenge = client.call("POST", f"/v1/device-credentials/{user['device_credential']}/challenges")
    if status not in (200, 201):
        return False
    message = f"latch-v1\nlogin\n{challenge['challenge_id']}\n{challenge['challenge']}".encode()
    status, _ = client.call("POST", "/v1/token", {"grant_type": "device_signature", "challenge_id": challenge["challenge_id"], "signature": b64u(der_signature(key, message)), "device": {"id": "bench-device"}})
    return status == 200


def worker(job):
    kind, user, seconds = job
    key = serialization.load_pem_private_key(user["passkey" if kind == "passkey" else "device"].encode(), password=None)
    sign_in = passkey_sign_in if kind == "passkey" else device_sign_in
    client = Client()
    done = failed = 0
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if sign_in(client, user, key):
            done += 1
        else:
            failed += 1
    return done, failed


if __name__ == "__main__":
    with multiprocessing.Pool(min(USERS, 8)) as pool:
        users = pool.map(set_up_user, range(USERS))
    totals = {"passkey": [0, 0, 0.0], "device_signature": [0, 0, 0.0]}
    with multiprocessing.Pool(CLIENTS) as pool:
        for _ in range(ROUNDS):
            for kind in ("passkey", "device_signature"):
                started = time.monotonic()
                results = pool.map(worker, [(kind, users[i % USERS], SECONDS) for i in range(CLIENTS)])
                totals[kind][0] += sum(r[0] for r in results)
                totals[kind][1] += sum(r[1] for r in results)
                totals[kind][2] += time.monotonic() - started
    rate = {kind: done / elapsed for kind, (done, _, elapsed) in totals.items()}
    print(f"clients {CLIENTS}, users {USERS}, {ROUNDS} x {SECONDS}s per kind")
    for kind, (done, failed, elapsed) in totals.items():
        print(f"{kind}: {done} sign-ins in {elapsed:.1f}s = {rate[kind]:.0f}/s ({failed} refused)")
    print(f"passkey / device_signature = {rate['passkey'] / rate['device_signature']:.2f}")
