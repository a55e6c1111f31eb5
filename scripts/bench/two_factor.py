"""What a two-factor verification costs next to a one-factor one, same latchd, same run (issue 30 §4).

One latchd (development mode for its outbox, the default bcrypt cost 12) with one policy: withdrawals
count the fund password and the emailed code; above 100 USDT two factors are needed. For each of USERS
users, alternating, one verification of each kind from one client, one request at a time:

- one factor (1 USDT): start, fund password, redeem (3 requests);
- two factors (1000 USDT): start, fund password (the progress), ask for the emailed code, the code,
  redeem (5 requests). The code is read from the development outbox; that read is not timed.

Each verification's time is the sum of its own requests' times. Prints the median and mean of each kind
and their ratio. One emailed code per user (the server allows one a minute per address).

usage: two_factor.py [--users 60] [--bin .build-release/release/latchd]
"""
import http.client, json, os, statistics, subprocess, sys, tempfile, time, urllib.parse


def arg(name, default):
    return type(default)(sys.argv[sys.argv.index(name) + 1]) if name in sys.argv else default


USERS, BIN, PORT = arg("--users", 60), arg("--bin", ".build-release/release/latchd"), arg("--port", 18082)
POLICY = {"actions": {"withdrawal": {
    "factors": 1, "kinds": ["fund_password", "email_code"], "amount": {"parameter": "amount", "unit": "currency"},
    "tiers": [{"above": {"USDT": "100"}, "factors": 2}]}}}
FUND = "135790"


class Client:
    def __init__(self):
        self.connection = http.client.HTTPConnection("127.0.0.1", PORT, timeout=30)
        self.spent = 0.0

    def call(self, method, path, body=None, token=None, timed=True):
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = "Bearer " + token
        started = time.perf_counter()
        self.connection.request(method, path, json.dumps(body) if body is not None else None, headers)
        response = self.connection.getresponse()
        data = response.read()
        if timed:
            self.spent += time.perf_counter() - started
        return response.status, (json.loads(data) if data else None)


def outbox_codes(client, email):
    """The codes mailed to `email` so far, oldest first (an untimed read of the development outbox)."""
    status, messages = client.call("GET", "/dev/outbox?to=" + urllib.parse.quote(email, safe=""), timed=False)
    assert status == 200, status
    return [m["code"] for m in messages if m.get("code")]


def outbox_code(client, email, after):
    """The newest code mailed to `email`, which must be more than `after` codes."""
    codes = outbox_codes(client, email)
    assert len(codes) > after, codes
    return codes[-1]


def sign_up(client, index):
    email = f"two-factor{index}@bench.test"
    status, accepted = client.call("POST", "/v1/registrations",
                                   {"email": email, "password": "Bench-Password-1", "terms_accepted": True})
    assert status == 202, (status, accepted)
    code = outbox_code(client, email, 0)
    status, tokens = client.call("POST", f"/v1/registrations/{accepted['registration_id']}/verify",
                                 {"code": code, "device": {"id": "bench-device"}})
    assert status in (200, 201), (status, tokens)
    token = tokens["access_token"]
    status, _ = client.call("PUT", "/v1/fund-password", {"fund_password": FUND}, token)
    assert status == 204, status
    return email, token


def verification(client, email, token, amount):
    """One verification of `amount` USDT, redeemed; returns the seconds its requests took."""
    parameters = {"amount": amount, "currency": "USDT", "address": "TXbench"}
    client.spent = 0.0
    status, started = client.call("POST", "/v1/verifications", {"action": "withdrawal", "parameters": parameters}, token)
    assert status == 201, (status, started)
    vid = started["verification_id"]
    status, answer = client.call("POST", f"/v1/verifications/{vid}/attempts",
                                 {"method": "fund_password", "fund_password": FUND}, token)
    assert status == 200, (status, answer)
    if started["required_factors"] == 2:
        assert "remaining_factors" in answer, answer
        codes_before = len(outbox_codes(client, email))
        status, _ = client.call("POST", f"/v1/verifications/{vid}/email-code", {}, token)
        assert status == 202, status
        code = outbox_code(client, email, codes_before)
        status, answer = client.call("POST", f"/v1/verifications/{vid}/attempts",
                                     {"method": "email_code", "code": code}, token)
        assert status == 200, (status, answer)
    status, redeemed = client.call("POST", "/v1/verifications/redeem",
                                   {"verification_token": answer["verification_token"], "action": "withdrawal",
                                    "parameters": parameters}, token)
    assert status == 200, (status, redeemed)
    return client.spent


def main():
    work = tempfile.mkdtemp(prefix="latch-two-factor.")
    policy = os.path.join(work, "policy.json")
    with open(policy, "w") as f:
        json.dump(POLICY, f)
    env = dict(os.environ, LATCH_ENV="development", LATCH_PORT=str(PORT), LATCH_POLICY_FILE=policy,
               LATCH_DATABASE_URL="sqlite://" + os.path.join(work, "latch.sqlite"), LATCH_LOG_REQUESTS="false",
               LATCH_RATE_LIMIT_SCALE="1000", LATCH_ISSUER=f"http://127.0.0.1:{PORT}")
    server = subprocess.Popen([BIN], env=env, stdout=open(os.path.join(work, "latchd.log"), "w"),
                              stderr=subprocess.STDOUT)
    try:
        for _ in range(100):
            try:
                http.client.HTTPConnection("127.0.0.1", PORT, timeout=1).request("GET", "/health")
                break
            except OSError:
                time.sleep(0.2)
        client = Client()
        users = [sign_up(client, i) for i in range(USERS)]
        one, two = [], []
        for email, token in users:
            one.append(verification(client, email, token, "1"))
            two.append(verification(client, email, token, "1000"))
        ms = lambda xs: (statistics.median(xs) * 1000, statistics.fmean(xs) * 1000)
        (m1, a1), (m2, a2) = ms(one), ms(two)
        print(f"| verification | requests | median ms | mean ms | ratio (median) |")
        print(f"|---|---|---|---|---|")
        print(f"| one factor (fund password) | 3 | {m1:.1f} | {a1:.1f} | 1.000 |")
        print(f"| two factors (fund password + emailed code) | 5 | {m2:.1f} | {a2:.1f} | {m2 / m1:.3f} |")
        print(f"({USERS} of each, alternating, one client)")
    finally:
        server.terminate()
        server.wait()


if __name__ == "__main__":
    main()
