import FluentKit
import Foundation
import LatchCore
import LatchTestSupport
import NIOHTTP1
import SQLKit
import Testing

@testable import LatchServer

/// Issue 30 §1–§2: the verification policy enforced end to end over HTTP, on SQLite and PostgreSQL.
@Suite("Verification policy enforced (issue 30 §1, §2)")
struct VerificationPolicyEnforcementTests {
    /// The exchange's withdrawal policy of the issue, with a daily limit and a short new-address lock.
    static let policyJSON = """
        {"actions": {
           "withdrawal": {
             "factors": 1,
             "kinds": ["biometric", "passkey", "totp", "fund_password", "email_code"],
             "amount": {"parameter": "amount", "unit": "currency"},
             "tiers": [{"above": {"USDT": "10000", "BTC": "0.5"}, "factors": 2},
                       {"above": {"USDT": "100000"}, "factors": 2, "kinds": ["passkey", "totp", "email_code"]}],
             "daily_limit": {"USDT": "50000"}},
           "payout": {
             "kinds": ["fund_password", "totp"],
             "new_value_lock": {"parameter": "address", "duration": "90s"}},
           "default": {"factors": 1}}}
        """

    static func withPolicy(_ json: String = policyJSON) -> (inout LatchConfig) -> Void {
        { config in config.verificationPolicy = try! VerificationPolicy(json: Data(json.utf8)) }
    }

    static func withdrawal(_ amount: String, _ currency: String = "USDT", address: String = "TX1") -> [String: String] {
        ["amount": amount, "currency": currency, "address": address]
    }

    @Test(
        "30 §1 tiers: at and below a threshold one factor, strictly above two (with a localized reason), the highest tier's kinds win",
        arguments: TestDatabase.all)
    func test_30_1_tiers(database: TestDatabase) async throws {
        // Without the USDT daily limit, which a 100,000 USDT verification would exceed at once.
        let noLimit = Self.policyJSON.replacingOccurrences(of: #""USDT": "50000""#, with: #""BTC": "100""#)
        try await withServer(database, adjust: Self.withPolicy(noLimit)) { server in
            let tokens = try await server.signUp()
            try await server.setFundPassword(bearer: tokens.accessToken)
            _ = try await server.activateTOTP(bearer: tokens.accessToken)
            let bearer = tokens.accessToken

            let at = try await server.startedVerification(parameters: Self.withdrawal("10000.00"), bearer: bearer)
            #expect(at.requiredFactors == 1 && at.reasons.isEmpty, "\(at)")
            #expect(at.methods.map(\.type) == [.totp, .fundPassword, .emailCode], "\(at.methods)")
            let above = try await server.startedVerification(parameters: Self.withdrawal("10000.01"), bearer: bearer)
            #expect(above.requiredFactors == 2)
            #expect(above.reasons.map(\.code) == ["amount_above_threshold"])
            #expect(
                above.reasons.first?.message == "Amounts above 10,000 USDT need two verifications.", "\(above.reasons)")
            let zh = try await server.send(
                .POST, "/v1/verifications",
                json: ["action": "withdrawal", "parameters": Self.withdrawal("20000")] as [String: Any],
                bearer: bearer, headers: [("Accept-Language", "zh-Hans")])
            #expect(zh.text.contains("金额超过 10,000 USDT，需要两项验证"), "\(zh.text)")
            let btc = try await server.startedVerification(parameters: Self.withdrawal("0.5", "BTC"), bearer: bearer)
            #expect(btc.requiredFactors == 1, "0.5 BTC is not above 0.5")
            let unnamed = try await server.startVerification(
                parameters: Self.withdrawal("999999", "ETH"), bearer: bearer)
            #expect(
                unnamed.status == 422 && unnamed.errorBody?.reasons == ["unknown_unit"],
                "issue 41 P1: a unit no tier or limit names is refused: \(unnamed.text)")
            let highest = try await server.startedVerification(parameters: Self.withdrawal("100000.5"), bearer: bearer)
            #expect(highest.requiredFactors == 2)
            #expect(highest.methods.map(\.type) == [.totp, .emailCode], "fund_password may not count above 100,000")
        }
    }

    @Test(
        "30 §1 bad amounts: a missing or non-decimal amount or a missing unit answers 422 naming the parameter",
        arguments: TestDatabase.all)
    func test_30_1_badAmounts(database: TestDatabase) async throws {
        try await withServer(database, adjust: Self.withPolicy()) { server in
            let tokens = try await server.signUp()
            try await server.setFundPassword(bearer: tokens.accessToken)
            for (parameters, field, reason) in [
                (["currency": "USDT"], "amount", "missing"), (Self.withdrawal("1e5"), "amount", "not_a_decimal"),
                (Self.withdrawal("-5"), "amount", "not_a_decimal"),
                (Self.withdrawal("1,000"), "amount", "not_a_decimal"),
                (["amount": "5"], "currency", "missing")
            ] {
                let refused = try await server.startVerification(parameters: parameters, bearer: tokens.accessToken)
                #expect(refused.status == 422, "\(parameters): \(refused.text)")
                #expect(refused.errorBody?.field == field && refused.errorBody?.reasons == [reason], "\(refused.text)")
            }
        }
    }

    @Test(
        "30 §2 two factors: two different kinds, the same kind twice refused, only the last factor answers the proof; redemption names both (amr)",
        arguments: TestDatabase.all)
    func test_30_2_twoFactors(database: TestDatabase) async throws {
        try await withServer(database, adjust: Self.withPolicy()) { server in
            let tokens = try await server.signUp()
            let bearer = tokens.accessToken
            try await server.setFundPassword(bearer: bearer)
            let authenticator = try await server.activateTOTP(bearer: bearer)
            let parameters = Self.withdrawal("20000")
            let started = try await server.startedVerification(parameters: parameters, bearer: bearer)
            #expect(started.requiredFactors == 2)

            let first = try await server.attempt(
                started.verificationId,
                VerificationAttempt(method: .fundPassword, fundPassword: VerificationSamples.fundPassword),
                bearer: bearer)
            #expect(first.status == 200, "\(first.text)")
            // Untyped: no `verification_token` key at all, which a typed optional does not tell from null.
            #expect(first.json["verification_token"] == nil, "no proof after the first factor")
            let progress = try first.decode(VerificationProgress.self)
            #expect(progress.remainingFactors == 1 && progress.passed == [.fundPassword])
            #expect(!progress.methods.map(\.type).contains(.fundPassword), "\(progress.methods)")

            let again = try await server.attempt(
                started.verificationId,
                VerificationAttempt(method: .fundPassword, fundPassword: VerificationSamples.fundPassword),
                bearer: bearer)
            #expect(again.status == 422 && again.errorBody?.reasons == ["already_passed"], "\(again.text)")

            server.clock.advance(by: 30) // the activation used this step's code
            let second = try await server.attempt(
                started.verificationId,
                VerificationAttempt(method: .totp, code: authenticator.code(at: server.clock.now)), bearer: bearer)
            #expect(second.status == 200, "\(second.text)")
            let token = try second.decode(VerificationPassed.self).verificationToken

            let redeemed = try await server.redeem(token, parameters: parameters, bearer: bearer)
            #expect(redeemed.status == 200, "\(redeemed.text)")
            let body = try redeemed.decode(RedeemedVerification.self)
            #expect(body.methods == [.fundPassword, .totp] && body.method == .fundPassword)
            #expect(body.amr == ["pin", "otp", "mfa"], "\(body.amr)")
        }
    }

    @Test(
        "30 §2 emailed code: mailed for the verification (action, amount, address), resend waits, a wrong code counts, the right one passes",
        arguments: TestDatabase.all)
    func test_30_2_emailCode(database: TestDatabase) async throws {
        try await withServer(database, adjust: Self.withPolicy()) { server in
            let tokens = try await server.signUp()
            let bearer = tokens.accessToken
            try await server.setFundPassword(bearer: bearer)
            let parameters = Self.withdrawal("20000", address: "TXaddress42")
            let started = try await server.startedVerification(parameters: parameters, bearer: bearer)
            #expect(started.methods.map(\.type) == [.fundPassword, .emailCode], "\(started.methods)")

            let early = try await server.attempt(
                started.verificationId, VerificationAttempt(method: .emailCode, code: "123456"), bearer: bearer)
            #expect(early.status == 422 && early.errorBody?.reasons == ["not_sent"], "\(early.text)")

            let mailsBefore = await server.mails().count
            let sent = try await server.send(
                .POST, "/v1/verifications/\(started.verificationId)/email-code", body: nil, bearer: bearer)
            #expect(sent.status == 202, "\(sent.text)")
            let mail = try #require(await server.mails().last)
            #expect(await server.mails().count == mailsBefore + 1)
            #expect(
                mail.body.contains("withdrawal") && mail.body.contains("20000 USDT")
                    && mail.body.contains("TXaddress42"), "\(mail.body)")
            let code = try #require(mail.code)

            let resend = try await server.send(
                .POST, "/v1/verifications/\(started.verificationId)/email-code", body: nil, bearer: bearer)
            #expect(resend.status == 429 && (resend.errorBody?.retryAfter ?? 0) > 0, "\(resend.text)")

            let wrong = try await server.attempt(
                started.verificationId,
                VerificationAttempt(method: .emailCode, code: code == "000000" ? "111111" : "000000"),
                bearer: bearer)
            #expect(wrong.status == 400 && wrong.errorCode == "AUTH_003", "\(wrong.text)")

            let first = try await server.attempt(
                started.verificationId, VerificationAttempt(method: .emailCode, code: code), bearer: bearer)
            #expect(first.status == 200, "\(first.text)")
            #expect(try first.decode(VerificationProgress.self).methods.map(\.type) == [.fundPassword])
            let reused = try await server.attempt(
                started.verificationId, VerificationAttempt(method: .emailCode, code: code), bearer: bearer)
            #expect(reused.status == 422, "the emailed code passes once: \(reused.text)")
            let second = try await server.attempt(
                started.verificationId,
                VerificationAttempt(method: .fundPassword, fundPassword: VerificationSamples.fundPassword),
                bearer: bearer)
            #expect(
                second.status == 200 && (try? second.decode(VerificationPassed.self))?.verificationToken != nil,
                "\(second.text)")
        }
    }

    @Test(
        "30 §1 without a policy file: the same offers as before, no emailed code, one factor",
        arguments: [TestDatabase.sqlite])
    func test_30_1_noPolicyUnchanged(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let tokens = try await server.signUp()
            try await server.setFundPassword(bearer: tokens.accessToken)
            let started = try await server.startedVerification(
                parameters: Self.withdrawal("9999999"), bearer: tokens.accessToken)
            #expect(started.methods.map(\.type) == [.fundPassword] && started.requiredFactors == 1, "\(started)")
            let sent = try await server.send(
                .POST, "/v1/verifications/\(started.verificationId)/email-code", body: nil, bearer: tokens.accessToken)
            #expect(sent.status == 422 && sent.errorBody?.reasons == ["not_offered"], "\(sent.text)")
        }
    }

    @Test(
        "30 §1 daily limit: the redeemed sum of 24 hours plus this amount may not exceed it (POLICY_LIMIT with unit, limit, remaining); it rolls",
        arguments: TestDatabase.all)
    func test_30_1_dailyLimit(database: TestDatabase) async throws {
        // Without the 10,000 USDT tier, which the day's sum would reach (issue 41 P2) and ask a second factor.
        let noTier = Self.policyJSON.replacingOccurrences(of: #""USDT": "10000", "BTC": "0.5""#, with: #""BTC": "0.5""#)
        try await withServer(database, adjust: Self.withPolicy(noTier)) { server in
            let tokens = try await server.signUp()
            let bearer = tokens.accessToken
            try await server.setFundPassword(bearer: bearer)
            let spent = Self.withdrawal("9000")
            for _ in 0..<5 {
                let token = try await server.verificationToken(parameters: spent, bearer: bearer)
                #expect(try await server.redeem(token, parameters: spent, bearer: bearer).status == 200)
            }
            let refused = try await server.startVerification(parameters: Self.withdrawal("5000.5"), bearer: bearer)
            #expect(refused.status == 403 && refused.errorCode == "POLICY_LIMIT", "\(refused.text)")
            #expect(refused.errorBody?.unit == "USDT" && refused.errorBody?.limit == "50000")
            #expect(refused.errorBody?.remaining == "5000", "\(refused.text)")
            #expect(
                try await server.startVerification(parameters: Self.withdrawal("5000"), bearer: bearer).status == 201)
            #expect(
                try await server.startVerification(parameters: Self.withdrawal("5000.5", "BTC"), bearer: bearer).status
                    == 201)
            #expect(try await server.eventTypes(bearer: bearer).contains("verification_limit_reached"))

            server.clock.advance(by: PolicyLedger.window + 1)
            let later = try await server.signIn().decode(TokenResponse.self).accessToken
            let rolled = try await server.startVerification(parameters: Self.withdrawal("5000.5"), bearer: later)
            #expect(rolled.status == 201, "\(rolled.text)")
        }
    }

    @Test(
        "30 §2 the redeem race: two proofs started under the limit and redeemed together never exceed it (one POLICY_LIMIT, left unused)",
        arguments: TestDatabase.all)
    func test_30_2_redeemRace(database: TestDatabase) async throws {
        try await withServer(database, adjust: Self.withPolicy()) { server in
            let tokens = try await server.signUp()
            let bearer = tokens.accessToken
            try await server.setFundPassword(bearer: bearer)
            let parameters = Self.withdrawal("30000")
            // 30,000 is above the first tier: a TOTP as the second factor.
            let authenticator = try await server.activateTOTP(bearer: bearer)
            var proofs: [String] = []
            for _ in 0..<2 {
                let started = try await server.startedVerification(parameters: parameters, bearer: bearer)
                _ = try await server.attempt(
                    started.verificationId,
                    VerificationAttempt(method: .fundPassword, fundPassword: VerificationSamples.fundPassword),
                    bearer: bearer)
                server.clock.advance(by: 30) // a TOTP step of its own for each
                let passed = try await server.attempt(
                    started.verificationId,
                    VerificationAttempt(method: .totp, code: authenticator.code(at: server.clock.now)),
                    bearer: bearer)
                try #require(passed.status == 200, "\(passed.text)")
                proofs.append(try passed.decode(VerificationPassed.self).verificationToken)
            }
            let statuses = try await withThrowingTaskGroup(of: TestResponse.self) { group in
                for proof in proofs {
                    group.addTask { try await server.redeem(proof, parameters: parameters, bearer: bearer) }
                }
                return try await group.reduce(into: [TestResponse]()) { $0.append($1) }
            }
            #expect(statuses.map(\.status).sorted() == [200, 403], "\(statuses.map(\.text))")
            #expect(statuses.contains { $0.errorCode == "POLICY_LIMIT" && $0.errorBody?.remaining == "20000" })
            let sql = server.app.db as! any SQLDatabase
            let redeemed = try await sql.raw(
                "SELECT COUNT(*) AS n FROM verification_tokens WHERE redeemed_at IS NOT NULL"
            ).first()
            #expect(try redeemed?.decode(column: "n", as: Int.self) == 1, "the refused proof stays unused")
        }
    }

    @Test(
        "30 §1 new-value lock: the first request records the value and tells the owner, requests during the lock are refused alike, after it the value verifies, a security reset discards running locks",
        arguments: TestDatabase.all)
    func test_30_1_newValueLock(database: TestDatabase) async throws {
        try await withServer(database, adjust: Self.withPolicy()) { server in
            let tokens = try await server.signUp()
            let bearer = tokens.accessToken
            try await server.setFundPassword(bearer: bearer)
            let parameters = ["address": "TNewAddress9"]

            let first = try await server.startVerification("payout", parameters: parameters, bearer: bearer)
            #expect(first.status == 403 && first.errorCode == "NEW_VALUE_LOCKED", "\(first.text)")
            #expect(first.errorBody?.parameter == "address")
            let until = try #require(first.lockedUntil)
            #expect(abs(until.timeIntervalSince(server.clock.now) - 90) < 2, "\(until)")
            let notice = try #require(await server.mails().last)
            #expect(notice.body.contains("TNewAddress9") && notice.body.contains("payout"), "\(notice.body)")
            #expect(
                notice.body.contains("freeze") || notice.body.contains("Freeze"), "the notice carries the freeze link")
            let mails = await server.mails().count

            server.clock.advance(by: 30)
            let during = try await server.startVerification("payout", parameters: parameters, bearer: bearer)
            #expect(during.status == 403 && during.lockedUntil == until, "\(during.text)")
            #expect(await server.mails().count == mails, "the owner is told once")
            #expect(try await server.startVerification("payout", parameters: [:], bearer: bearer).status == 422)

            server.clock.advance(by: 61)
            #expect(try await server.startVerification("payout", parameters: parameters, bearer: bearer).status == 201)

            let other = ["address": "TThiefAddress"]
            #expect(try await server.startVerification("payout", parameters: other, bearer: bearer).status == 403)
            let user = try #require(UUID(uuidString: tokens.user.id))
            try await server.app.latch.securityReset(.everything, user: user, ip: nil, on: server.app.db)
            let sql = server.app.db as! any SQLDatabase
            let rows = try await sql.raw("SELECT COUNT(*) AS n FROM policy_value_locks").first()
            #expect(
                try rows?.decode(column: "n", as: Int.self) == 0,
                "the reset discarded the running lock and the value never redeemed after its lock (issue 41 P3)")
        }
    }

    @Test("30 §1 bad policy file: latchd refuses to start with one line naming the file, the key and what is wrong")
    func test_30_1_badPolicyFile() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("policy-\(UUID().uuidString).json")
        try Data(
            #"{"actions": {"withdrawal": {"amount": {"parameter": "amount", "unit": "currency"}, "tiers": [{"above": {"USDT": "ten"}, "factors": 2}]}}}"#
                .utf8
        )
        .write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let key = Data(repeating: 7, count: 32).base64EncodedString()
        #expect(throws: ConfigurationError.self) {
            _ = try LatchConfig.fromEnvironment(["LATCH_SECRET_KEY": key, "LATCH_POLICY_FILE": file.path])
        }
        do {
            _ = try LatchConfig.fromEnvironment(["LATCH_SECRET_KEY": key, "LATCH_POLICY_FILE": file.path])
        } catch let error as ConfigurationError {
            #expect(error.variable == "LATCH_POLICY_FILE")
            #expect(error.reason.hasPrefix(file.path + ": actions.withdrawal.tiers[0].above.USDT:"), "\(error.reason)")
            #expect(!error.description.contains("\n"))
        }
        let missing = try? LatchConfig.fromEnvironment([
            "LATCH_SECRET_KEY": key, "LATCH_POLICY_FILE": "/nonexistent/policy.json"
        ])
        #expect(missing == nil)
        let good = try LatchConfig.fromEnvironment(["LATCH_SECRET_KEY": key])
        #expect(good.verificationPolicy == .unrestricted && good.policyFile == nil)
    }

    @Test(
        "30 §1 operators see the policy latchd runs (GET /v1/admin/policy, audited), defaults filled in, as documented",
        arguments: [TestDatabase.sqlite])
    func test_30_1_adminPolicyView(database: TestDatabase) async throws {
        try await AdminTests.withAdminServer(
            database,
            adjust: {
                Self.withPolicy()(&$0)
                $0.policyFile = "/etc/latch/policy.json"
            }
        ) { server in
            let answer = try await server.send(.GET, "/v1/admin/policy", bearer: AdminTests.adminKey)
            #expect(answer.status == 200, "\(answer.text)")
            let view = try answer.decode(PolicyView.self)
            #expect(view.file == "/etc/latch/policy.json")
            let withdrawal = try #require(view.actions["withdrawal"])
            #expect(withdrawal.tiers.count == 2 && withdrawal.tiers[0].above == ["USDT": "10000", "BTC": "0.5"])
            #expect(withdrawal.tiers[1].kinds == ["passkey", "totp", "email_code"])
            #expect(withdrawal.dailyLimit == ["USDT": "50000"])
            #expect(view.actions["payout"]?.newValueLock == .init(parameter: "address", duration: "90s"))
            #expect(view.actions["default"]?.kinds == ["biometric", "passkey", "totp", "fund_password"])
            let schema = try #require(try WireSchemaConformanceTests.validator().schema(named: "PolicyView"))
            // Untyped: the schema validator checks the body as it came, every key and type, not a decoded value.
            let problems = try WireSchemaConformanceTests.validator().problems(
                JSONSerialization.jsonObject(with: answer.data), against: schema)
            #expect(problems.isEmpty, "\(problems)")
            let refused = try await server.send(.GET, "/v1/admin/policy", bearer: "not-an-admin-key")
            #expect(refused.status == 401)
            let audit = try await server.send(.GET, "/v1/admin/audit", bearer: AdminTests.adminKey)
            #expect(audit.text.contains("show_policy"), "\(audit.text)")
        }
    }
}
