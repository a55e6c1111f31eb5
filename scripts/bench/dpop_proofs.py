"""Writes DPoP proofs (RFC 9449) for the DPoP benchmark: one file per wrk thread, one proof per line, each
with its own jti (latchd accepts a proof once), signed by that thread's key, iat now (valid 300 s).

usage: dpop_proofs.py KEYS_DIR METHOD URL COUNT OUT_PREFIX [TOKENS_FILE]
  KEYS_DIR holds key0.pem … key7.pem (made with --make-keys KEYS_DIR); with TOKENS_FILE, thread N's proofs
  carry `ath` for line N's access token (a resource request).
       dpop_proofs.py --make-keys KEYS_DIR
       dpop_proofs.py --one KEYS_DIR N METHOD URL   (one proof by key N, for a grant)
"""
import base64, hashlib, json, os, sys, time, uuid

from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import decode_dss_signature

THREADS = 8


def b64(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def load(keys_dir, n):
    with open(os.path.join(keys_dir, f"key{n}.pem"), "rb") as f:
        return serialization.load_pem_private_key(f.read(), password=None)


def proof(key, method, url, token=None):
    numbers = key.public_key().public_numbers()
    jwk = {"kty": "EC", "crv": "P-256", "x": b64(numbers.x.to_bytes(32, "big")), "y": b64(numbers.y.to_bytes(32, "big"))}
    header = {"typ": "dpop+jwt", "alg": "ES256", "jwk": jwk}
    claims = {"jti": str(uuid.uuid4()), "htm": method, "htu": url, "iat": int(time.time())}
    if token:
        claims["ath"] = b64(hashlib.sha256(token.encode()).digest())
    signing_input = b64(json.dumps(header, separators=(",", ":")).encode()) + "." + b64(
        json.dumps(claims, separators=(",", ":")).encode())
    r, s = decode_dss_signature(key.sign(signing_input.encode(), ec.ECDSA(hashes.SHA256())))
    return signing_input + "." + b64(r.to_bytes(32, "big") + s.to_bytes(32, "big"))


if sys.argv[1] == "--make-keys":
    os.makedirs(sys.argv[2], exist_ok=True)
    for n in range(THREADS):
        pem = ec.generate_private_key(ec.SECP256R1()).private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
        with open(os.path.join(sys.argv[2], f"key{n}.pem"), "wb") as f:
            f.write(pem)
elif sys.argv[1] == "--one":
    print(proof(load(sys.argv[2], int(sys.argv[3])), sys.argv[4], sys.argv[5]))
else:
    keys_dir, method, url, count, prefix = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5]
    tokens = open(sys.argv[6]).read().split() if len(sys.argv) > 6 else [None] * THREADS
    for n in range(THREADS):
        key = load(keys_dir, n)
        with open(f"{prefix}{n + 1}.txt", "w") as f:
            for _ in range(count):
                f.write(proof(key, method, url, tokens[n]) + "\n")
