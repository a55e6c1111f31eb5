"""Issue 29 §3: same-run throughput of step-up verifications answered by a device signature (Face ID's
factor), for several latchd builds.

A verification is three requests, as the SDK makes them:
  POST /v1/verifications {action, parameters}           (201: the biometric offer and its challenge)
  POST /v1/verifications/{id}/attempts {biometric}      (200: the proof; ECDSA P-256 over the latch-v1 message)
  POST /v1/verifications/redeem {token, action, params} (200: redeemed once)
No bcrypt anywhere on this path (verify.lua answers with the fund password, so bcrypt sets its pace).

Every latchd runs at once, in development mode (its outbox gives the sign-up codes), each on its own port
and SQLite file in a new folder, idle while another is measured; each round loads each build in turn with
CLIENTS client processes (one connection and one user each), so a noisy moment weighs on all alike. Set-up,
through each latchd's API: USERS users, each signed up (that session is the one measured) with one device
key bound by that session.

usage: verify_compare.py SECONDS ROUNDS LABEL=path/to/latchd [LABEL=path …] [--clients 8] [--users 8]
  LATCH_BENCH_DATABASE=postgres://user@host:port   run each build on its own new PostgreSQL database
                                                   (created with psql) instead of SQLite
Prints verifications/s per build (mean over the rounds), those that failed, the ratio to the first build,
and each latchd's resident memory after the load: VmHWM, and the resident set split into anonymous memory
(heap, stacks) and file-backed pages (the binary's and the shared libraries' code).
needs: python3 with `cryptography`; psql for PostgreSQL.
"""
import base64, hashlib, http.client, json, multiprocessing, os, subprocess, sys, tempfile, time, urllib.parse

from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec

ACTION = "withdrawal"
PARAMETERS = {"amount": "1.5", "asset": "BTC", "to": "bc1qbench"}


def arg(name, default):
    return type(default)(sys.argv[sys.argv.index(name) + 1]) if name in sys.argv else default


def b64u(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def canonical(parameters):
    """RFC 8785 form of a flat object of plain ASCII strings (what PARAMETERS is)."""
    return "{" + ",".join(json.dumps(k) + ":" + json.dumps(parameters[k]) for k in sorted(parameters)) + "}"


DIGEST = hashlib.sha256(canonical(PARAMETERS).encode()).hexdigest()


class Client:
    def __init__(self, port):
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)

    def call(self, method, path, body=None, token=None):
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = "Bearer " + token
        self.connection.request(method, path, json.dumps(body) if body is not None else None, headers)
        response = self.connection.getresponse()
        data = response.read()
        return response.status, (json.loads(data) if data else None)


def set_up_user(job):
    """Signs user `index` up on the latchd at `port` and binds a device key with that session."""
    port, index = job
    client = Client(port)
    email = f"verify-bench{index}@bench.test"
    status, accepted = client.call(
        "POST", "/v1/registrations", {"email": email, "password": "Bench-Password-1", "terms_accepted": True})
    assert status == 202, (status, accepted)
    status, messages = client.call("GET", "/dev/outbox?to=" + urllib.parse.quote(email, safe=""))
    code = [m["code"] for m in messages if m.get("code")][-1]
    status, tokens = client.call(
        "POST", f"/v1/registrations/{accepted['registration_id']}/verify", {"code": code, "device": {"id": f"bench-{index}"}})
    assert status in (200, 201), (status, tokens)
    device = ec.generate_private_key(ec.SECP256R1())
    point = device.public_key().public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    status, bound = client.call(
        "POST", "/v1/device-credentials", {"public_key": b64u(point), "device_name": "bench", "biometry": "face_id"},
        tokens["access_token"])
    assert status == 201, (status, bound)
    pem = device.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    return {"token": tokens["access_token"], "credential": bound["credential_id"], "key": pem.decode()}


def verify_once(client, user, key):
    status, started = client.call("POST", "/v1/verifications", {"action": ACTION, "parameters": PARAMETERS}, user["token"])
    if status != 201:
        return False
    offer = next((m for m in started["methods"] if m["type"] == "biometric"), None)
    if offer is None:
        return False
    message = f"latch-v1\nverify:{ACTION}:{DIGEST}\n{offer['challenge_id']}\n{offer['challenge']}".encode()
    signature = b64u(key.sign(message, ec.ECDSA(hashes.SHA256())))
    status, passed = client.call(
        "POST", f"/v1/verifications/{started['verification_id']}/attempts",
        {"method": "biometric", "credential_id": user["credential"], "signature": signature}, user["token"])
    if status != 200 or "verification_token" not in passed:
        return False
    status, _ = client.call(
        "POST", "/v1/verifications/redeem",
        {"verification_token": passed["verification_token"], "action": ACTION, "parameters": PARAMETERS}, user["token"])
    return status == 200


def worker(job):
    port, user, seconds = job
    key = serialization.load_pem_private_key(user["key"].encode(), password=None)
    client = Client(port)
    done = failed = 0
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if verify_once(client, user, key):
            done += 1
        else:
            failed += 1
    return done, failed


def start(label, binary, port, work):
    database = os.environ.get("LATCH_BENCH_DATABASE")
    if database:
        name = f"latch_verify_{label.lower().replace('-', '_')}_{os.getpid()}"
        subprocess.run(["psql", database + "/postgres", "-qc", f"CREATE DATABASE {name}"], check=True)
        url = f"{database}/{name}?sslmode=disable"
    else:
        url = f"sqlite://{work}/{label}.sqlite"
    env = dict(os.environ, LATCH_DATABASE_URL=url, LATCH_PORT=str(port), LATCH_ISSUER=f"http://127.0.0.1:{port}",
               LATCH_RATE_LIMIT_SCALE="1000", LATCH_LOG_REQUESTS="false", LATCH_BCRYPT_COST="4")
    log = open(f"{work}/{label}.log", "w")
    process = subprocess.Popen([binary], env=env, stdout=log, stderr=subprocess.STDOUT)
    for _ in range(150):
        try:
            if Client(port).call("GET", "/health")[0] == 200:
                return process
        except OSError:
            time.sleep(0.2)
    sys.exit(f"{label} did not start; see {work}/{label}.log")


def resident(pid):
    """VmHWM, and of the resident set now, the anonymous part (heap, stacks) and the file-backed part (code)."""
    status = {line.split(":")[0]: int(line.split()[1]) for line in open(f"/proc/{pid}/status") if line.startswith(("VmHWM", "RssAnon", "RssFile"))}
    return f"{status['VmHWM'] / 1024:.0f} MiB (anonymous {status['RssAnon'] / 1024:.0f}, file {status['RssFile'] / 1024:.0f})"


if __name__ == "__main__":
    seconds, rounds = int(sys.argv[1]), int(sys.argv[2])
    builds = [a.split("=", 1) for a in sys.argv[3:] if "=" in a]
    clients, users = arg("--clients", 8), arg("--users", 8)
    work = tempfile.mkdtemp(prefix="latch-verify-compare.")
    servers = []
    try:
        for n, (label, binary) in enumerate(builds):
            port = 18100 + n
            servers.append((label, port, start(label, binary, port, work)))
        with multiprocessing.Pool(clients) as pool:
            prepared = {label: pool.map(set_up_user, [(port, i) for i in range(users)]) for label, port, _ in servers}
            totals = {label: [0, 0, 0.0] for label, _, _ in servers}
            for _ in range(rounds):
                for label, port, _ in servers:
                    begun = time.monotonic()
                    results = pool.map(worker, [(port, prepared[label][i % users], seconds) for i in range(clients)])
                    totals[label][0] += sum(r[0] for r in results)
                    totals[label][1] += sum(r[1] for r in results)
                    totals[label][2] += time.monotonic() - begun
        first = None
        database = "PostgreSQL" if os.environ.get("LATCH_BENCH_DATABASE") else "SQLite"
        print(f"machine: {os.cpu_count()} cores; {database}; {clients} clients, {users} users, "
              f"{rounds} rounds x {seconds}s per build; biometric verifications (start, attempt, redeem); work dir {work}")
        print("| build | verifications/s | failed | ratio to first | VmHWM (anonymous, file-backed) |")
        print("|---|---|---|---|---|")
        for label, _, process in servers:
            done, failed, elapsed = totals[label]
            rate = done / elapsed
            first = first or rate
            print(f"| {label} | {rate:.0f} | {failed} | {rate / first:.2f} | {resident(process.pid)} |")
    finally:
        for _, _, process in servers:
            process.terminate()
            process.wait()
