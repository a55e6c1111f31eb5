import FluentKit
import Foundation
import LatchCore
import LatchTestSupport
import NIOHTTP1
import SQLKit
import Testing

@testable import LatchServer

/// Issue 41 §1: what the review found in the verification policy (P1 units, P2 split amounts, P3 a planted
/// address), and the design notes it settled (priced actions are held, the app's address in mails).
@Suite("Policy repairs (issue 41 §1)")
struct PolicyRepairTests {
    /// The review's policy: two factors above 0.5 BTC or 10,000 USDT, a USDT daily limit, a `transfer` that
    /// names an amount, and a `payout` whose addresses are locked when new.
    static let policyJSON = """
        {"actions": {
           "withdrawal": {
             "kinds": ["biometric", "passkey", "totp", "fund_password"],
             "amount": {"parameter": "amount", "unit": "currency"},
             "tiers": [{"above": {"usdt": "10000", "BTC": "0.5"}, "factors": 2}],
             "daily_limit": {"USDT ": "50000"}},
           "transfer": {"amount": {"parameter": "amount", "unit": "currency"}},
           "payout": {
             "kinds": ["fund_password", "totp"],
             "new_value_lock": {"parameter": "address", "duration": "90s"}},
           "default": {"factors": 1}}}
        """

    static func policy(_ json: String = policyJSON) throws -> VerificationPolicy {
        try VerificationPolicy(json: Data(json.utf8))
    }

    static func withPolicy(_ json: String = policyJSON) -> (inout LatchConfig) -> Void {
        { config in config.verificationPolicy = try! VerificationPolicy(json: Data(json.utf8)) }
    }

    static func withdrawal(_ amount: String, _ currency: String) -> [String: String] {
        ["amount": amount, "currency": currency, "address": "TX1"]
    }

    /// The field and reasons of the 422 `body` throws ("currency unknown_unit"), or nil when it passes.
    static func refusal(_ body: () throws -> PolicyRequirement) -> String? {
        do {
            _ = try body()
            return nil
        } catch let error as LatchError {
            return ([error.field ?? ""] + (error.reasons ?? [])).joined(separator: " ")
        } catch {
            return "\(error)"
        }
    }

    // MARK: P1

    @Test("41 P1 units are compared in one normal form: the file's and the parameter's, any case, no surrounding space")
    func test_41_1_unitsNormalised() throws {
        let policy = try Self.policy()
        let withdrawal = try #require(policy.actions["withdrawal"])
        #expect(withdrawal.tiers[0].above.keys.sorted() == ["BTC", "USDT"], "the file's units in normal form")
        #expect(withdrawal.dailyLimit.keys.sorted() == ["USDT"])
        for spelling in ["USDT", "usdt", "Usdt", "USDT ", " usdt\t"] {
            let requirement = try policy.requirement(for: "withdrawal", parameters: Self.withdrawal("150000", spelling))
            #expect(requirement.factors == 2 && requirement.amount?.unit == "USDT", "\(spelling): \(requirement)")
        }
        #expect(PolicyUnit.normal("usdc.erc20") == "USDC.ERC20")
        for notAUnit in ["   ", "UЅDT", "US DT", "USDT;", String(repeating: "A", count: 33)] {
            #expect(PolicyUnit.normal(notAUnit) == nil, "\(notAUnit)")
            #expect(
                Self.refusal { try policy.requirement(for: "withdrawal", parameters: Self.withdrawal("1", notAUnit)) }
                    == "currency not_a_unit", "\(notAUnit)")
        }
    }

    @Test(
        "41 P1 a unit no tier or limit names is refused by default (unknown_unit), or gets the strictest tier, or the base rule, as the file says"
    )
    func test_41_1_unknownUnits() throws {
        let policy = try Self.policy()
        #expect(
            Self.refusal { try policy.requirement(for: "withdrawal", parameters: Self.withdrawal("1", "ETH")) }
                == "currency unknown_unit")
        // An action whose amount no tier or limit grades takes every unit by its own rule.
        #expect(try policy.requirement(for: "transfer", parameters: Self.withdrawal("1", "ETH")).factors == 1)

        let strictest = try Self.policy(
            Self.policyJSON.replacingOccurrences(
                of: #""daily_limit": {"USDT ": "50000"}"#,
                with: #""daily_limit": {"USDT ": "50000"}, "other_units": "strictest""#))
        let eth = try strictest.requirement(for: "withdrawal", parameters: Self.withdrawal("0.0001", "ETH"))
        #expect(eth.factors == 2, "\(eth)")
        let base = try Self.policy(
            Self.policyJSON.replacingOccurrences(
                of: #""daily_limit": {"USDT ": "50000"}"#,
                with: #""daily_limit": {"USDT ": "50000"}, "other_units": "base""#))
        #expect(try base.requirement(for: "withdrawal", parameters: Self.withdrawal("99999", "ETH")).factors == 1)
        #expect(strictest.view(file: nil).actions["withdrawal"]?.otherUnits == "strictest")
        #expect(policy.view(file: nil).actions["withdrawal"]?.otherUnits == "refuse")
        #expect(policy.view(file: nil).actions["payout"]?.otherUnits == nil, "no amount, no rule for units")
    }

    @Test("41 P1 a policy file naming one unit twice in two spellings, or a unit that is not one, is refused")
    func test_41_1_fileUnits() {
        for (above, reason) in [
            (#"{"USDT": "1", "usdt": "2"}"#, "a second time"), (#"{"U SDT": "1"}"#, "not a unit")
        ] {
            let json = """
                {"actions": {"withdrawal": {"amount": {"parameter": "amount", "unit": "currency"},
                  "tiers": [{"above": \(above), "factors": 2}]}}}
                """
            #expect(
                performing: { try Self.policy(json) },
                throws: { error in
                    guard let error = error as? PolicyFileError else { return false }
                    return error.key.hasPrefix("actions.withdrawal.tiers[0].above.") && error.reason.contains(reason)
                })
        }
        let other =
            #"{"actions": {"withdrawal": {"amount": {"parameter": "amount", "unit": "currency"}, "other_units": "weakest"}}}"#
        #expect(throws: PolicyFileError.self, performing: { try Self.policy(other) })
    }

    @Test(
        "41 P1 the review's attack: lower-case and padded USDT meet the USDT tier and count toward the USDT daily limit; the proof stores the normal form",
        arguments: TestDatabase.all)
    func test_41_1_unitSpellingsShareTierAndLimit(database: TestDatabase) async throws {
        try await withServer(database, adjust: Self.withPolicy()) { server in
            let tokens = try await server.signUp()
            let bearer = tokens.accessToken
            try await server.setFundPassword(bearer: bearer)
            _ = try await server.activateTOTP(bearer: bearer)

            let big = try await server.startedVerification(parameters: Self.withdrawal("15000", "usdt"), bearer: bearer)
            #expect(big.requiredFactors == 2, "usdt is USDT: \(big)")
            for spelling in ["usdt", "Usdt", "USDT "] {
                // 3,000 each: 9,000 in all stays under the 10,000 tier, so one factor each time.
                let parameters = Self.withdrawal("3000", spelling)
                let token = try await server.verificationToken(parameters: parameters, bearer: bearer)
                let redeemed = try await server.redeem(token, parameters: parameters, bearer: bearer)
                #expect(redeemed.status == 200, "\(redeemed.text)")
            }
            let sql = server.app.db as! any SQLDatabase
            let units = try await sql.raw("SELECT DISTINCT unit FROM verification_tokens").all()
                .map { try $0.decode(column: "unit", as: String.self) }
            #expect(units == ["USDT"], "\(units)")
            // 9,000 redeemed in three spellings: 41,000.01 more would pass the 50,000 limit in any spelling.
            for spelling in ["USDT", "usdt", "uSdT "] {
                let over = try await server.startVerification(
                    parameters: Self.withdrawal("41000.01", spelling), bearer: bearer)
                #expect(over.status == 403 && over.errorCode == "POLICY_LIMIT", "\(over.text)")
                #expect(over.errorBody?.remaining == "41000" && over.errorBody?.unit == "USDT", "\(over.text)")
            }
            let unknown = try await server.startVerification(parameters: Self.withdrawal("1", "ETH"), bearer: bearer)
            #expect(unknown.status == 422 && unknown.errorBody?.reasons == ["unknown_unit"], "\(unknown.text)")
        }
    }

    @Test(
        "41 §3 strict JSON reaches the policy file: a key named twice (the second factors silently winning or losing) stops latchd"
    )
    func test_41_3_policyFileDuplicateKey() {
        let json = #"{"actions": {"withdrawal": {"factors": 2, "kinds": ["totp", "passkey"], "factors": 1}}}"#
        #expect(
            performing: { try Self.policy(json) },
            throws: { error in
                (error as? PolicyFileError) == PolicyFileError(key: "actions.withdrawal.factors", reason: "named twice")
            })
    }

    // MARK: P2

    @Test(
        "41 P2 a tier judges the day's sum: the chunk that takes spent plus amount over the threshold needs its factors"
    )
    func test_41_1_tierBySum() throws {
        let policy = try Self.policy()
        let half = Self.withdrawal("0.5", "BTC")
        #expect(try policy.requirement(for: "withdrawal", parameters: half).factors == 1)
        #expect(try policy.requirement(for: "withdrawal", parameters: half, spent: PolicyAmount("0")!).factors == 1)
        let second = try policy.requirement(for: "withdrawal", parameters: half, spent: PolicyAmount("0.5")!)
        #expect(second.factors == 2 && second.bySum, "\(second)")
        #expect(PolicyReasons.of(second, language: .en).map(\.code) == ["sum_above_threshold"])
        let alone = try policy.requirement(for: "withdrawal", parameters: Self.withdrawal("0.6", "BTC"))
        #expect(alone.factors == 2 && !alone.bySum)
        #expect(!second.isMet(by: [.fundPassword]) && second.isMet(by: [.fundPassword, .totp]))
        #expect(!second.isMet(by: [.fundPassword, .emailCode]), "a kind the tier does not let count is no factor")
    }

    @Test(
        "41 P2 splitting defeats no tier: 0.5 BTC twice needs two factors the second time, at start and, for proofs made together, at redemption",
        arguments: TestDatabase.all)
    func test_41_1_splitAmounts(database: TestDatabase) async throws {
        try await withServer(database, adjust: Self.withPolicy()) { server in
            let tokens = try await server.signUp()
            let bearer = tokens.accessToken
            try await server.setFundPassword(bearer: bearer)
            _ = try await server.activateTOTP(bearer: bearer)
            let half = Self.withdrawal("0.5", "BTC")

            // Two proofs made before either is redeemed: each alone is at the threshold, one factor each.
            let first = try await server.verificationToken(parameters: half, bearer: bearer)
            let second = try await server.verificationToken(parameters: half, bearer: bearer)
            #expect(try await server.redeem(first, parameters: half, bearer: bearer).status == 200)
            let refused = try await server.redeem(second, parameters: half, bearer: bearer)
            #expect(refused.status == 403 && refused.errorCode == "VERIFICATION_REQUIRED", "\(refused.text)")
            #expect(refused.errorBody?.reasons == ["sum_above_threshold"], "\(refused.text)")
            #expect(try await server.eventTypes(bearer: bearer).contains("verification_policy_applied"))
            let sql = server.app.db as! any SQLDatabase
            let redeemed = try await sql.raw(
                "SELECT COUNT(*) AS n FROM verification_tokens WHERE redeemed_at IS NOT NULL"
            ).first()
            #expect(try redeemed?.decode(column: "n", as: Int.self) == 1, "the refused proof stays unused")

            // A new verification of the second chunk asks for the tier's two factors, saying why.
            let again = try await server.startedVerification(parameters: half, bearer: bearer)
            #expect(again.requiredFactors == 2, "\(again)")
            #expect(again.reasons.map(\.code) == ["sum_above_threshold"], "\(again.reasons)")
            #expect(again.reasons.first?.message == "Above 0.5 BTC in 24 hours, two verifications are needed.")

            // The window rolls: a day later one factor again.
            server.clock.advance(by: PolicyLedger.window + 1)
            let later = try await server.signIn().decode(TokenResponse.self).accessToken
            #expect(try await server.startedVerification(parameters: half, bearer: later).requiredFactors == 1)
        }
    }

    // MARK: P3

    @Test(
        "41 P3 a planted address does not outlive the owner's reset: a lock that ran out unused is ended, so are trusts the reset's sessions started; a trust from before stays",
        arguments: TestDatabase.all)
    func test_41_1_plantedAddress(database: TestDatabase) async throws {
        try await withServer(database, adjust: Self.withPolicy()) { server in
            let owner = try await server.signUp()
            try await server.setFundPassword(bearer: owner.accessToken)
            let user = try #require(UUID(uuidString: owner.user.id))
            let planted = ["address": "TThiefAddress1"]
            let trusted = ["address": "TOwnersAddress7"]

            // The owner's own address, used after its lock from a session that later signed out.
            let old = try await server.signIn().decode(TokenResponse.self)
            #expect(
                try await server.startVerification("payout", parameters: trusted, bearer: old.accessToken).status == 403
            )
            server.clock.advance(by: 91)
            let proof = try await server.verificationToken("payout", parameters: trusted, bearer: old.accessToken)
            #expect(
                try await server.redeem(proof, action: "payout", parameters: trusted, bearer: old.accessToken).status
                    == 200)
            #expect(try await server.send(.POST, "/v1/logout", body: nil, bearer: old.accessToken).status < 300)

            // The thief's session plants an address and lets its lock run out, unused.
            let thief = try await server.signIn().decode(TokenResponse.self)
            #expect(
                try await server.startVerification("payout", parameters: planted, bearer: thief.accessToken).status
                    == 403)
            server.clock.advance(by: 91)
            #expect(
                try await server.startVerification("payout", parameters: planted, bearer: thief.accessToken).status
                    == 201)
            // ... and one more, which it even redeems.
            let used = ["address": "TThiefAddress2"]
            #expect(
                try await server.startVerification("payout", parameters: used, bearer: thief.accessToken).status == 403)
            server.clock.advance(by: 91)
            let thiefProof = try await server.verificationToken("payout", parameters: used, bearer: thief.accessToken)
            #expect(
                try await server.redeem(thiefProof, action: "payout", parameters: used, bearer: thief.accessToken)
                    .status
                    == 200)

            // The owner recovers the account: every session it ends, with what they started.
            try await server.app.latch.securityReset(.everything, user: user, ip: nil, on: server.app.db)
            let after = try await server.signInConfirmingNewDevice(device: TestServer.testDevice).accessToken
            for address in [planted, used] {
                let locked = try await server.startVerification("payout", parameters: address, bearer: after)
                #expect(locked.status == 403 && locked.errorCode == "NEW_VALUE_LOCKED", "\(address): \(locked.text)")
            }
            let kept = try await server.startVerification("payout", parameters: trusted, bearer: after)
            #expect(kept.status == 201, "a trust from a session that had ended before stays: \(kept.text)")
        }
    }

    @Test(
        "41 P3 a reset of the other devices keeps the locks this session started and ends the ones other sessions did",
        arguments: [TestDatabase.sqlite])
    func test_41_1_otherDevicesReset(database: TestDatabase) async throws {
        try await withServer(database, adjust: Self.withPolicy()) { server in
            let owner = try await server.signUp()
            try await server.setFundPassword(bearer: owner.accessToken)
            let user = try #require(UUID(uuidString: owner.user.id))
            let mine = ["address": "TMyNewAddress1"]
            let theirs = ["address": "TTheirAddress1"]
            let other = try await server.signIn().decode(TokenResponse.self)
            #expect(
                try await server.startVerification("payout", parameters: mine, bearer: owner.accessToken).status == 403)
            #expect(
                try await server.startVerification("payout", parameters: theirs, bearer: other.accessToken).status
                    == 403)
            let session = try #require(
                try await Session.query(on: server.app.db).filter(\.$userID == user).sort(\.$signedInAt).first()?.id)
            try await server.app.latch.securityReset(
                .otherDevices(keeping: session, deviceID: nil, knownDeviceID: nil), user: user, ip: nil,
                on: server.app.db)
            let sql = server.app.db as! any SQLDatabase
            let rows = try await sql.raw("SELECT value_hash FROM policy_value_locks").all()
                .map { try $0.decode(column: "value_hash", as: String.self) }
            #expect(rows == [SecretBox.hash("TMyNewAddress1")], "\(rows)")
        }
    }

    // MARK: Design notes

    @Test(
        "41 §1 an action whose policy names an amount is held after a security change, without being in LATCH_HOLD_ACTIONS",
        arguments: [TestDatabase.sqlite])
    func test_41_1_pricedActionsAreHeld(database: TestDatabase) async throws {
        var config = LatchConfig(
            mode: .development, database: .sqlite(path: "unused.sqlite"), host: "127.0.0.1", port: 0,
            issuer: "http://latch.test",
            secretKey: Data(repeating: 7, count: 32), bcryptCost: 4, logRequests: false)
        Self.withPolicy()(&config)
        #expect(config.heldActions == ["withdrawal", "transfer"], "\(config.heldActions)")
        try await withServer(database, adjust: Self.withPolicy()) { server in
            let first = try await server.signUp()
            try await server.setFundPassword(bearer: first.accessToken)
            server.clock.advance(by: 24 * 3600 + 60)
            let tokens = try await server.signIn().decode(TokenResponse.self)
            let changed = try await server.send(
                .POST, "/v1/password/change",
                json: ["current_password": "Correct-Horse-9", "new_password": "Another-Horse-7"],
                bearer: tokens.accessToken)
            #expect(changed.status == 204, "\(changed.text)")
            let held = try await server.startVerification(
                "transfer", parameters: Self.withdrawal("5", "USDT"), bearer: tokens.accessToken)
            #expect(held.status == 403 && held.errorCode == "SECURITY_HOLD", "\(held.text)")
            let payout = try await server.startVerification(
                "payout", parameters: ["address": "TSomewhere123"], bearer: tokens.accessToken)
            #expect(payout.errorCode != "SECURITY_HOLD", "an action without an amount is not held: \(payout.text)")
        }
    }

    @Test("41 §1 the app's address is printed in a code mail only when it looks like one, marked as entered in the app")
    func test_41_1_addressInMail() {
        let shown = MailTemplates.verificationCode(
            "123456", action: "withdrawal", amount: "5", unit: "USDT", target: "TQ5ExampleAddress", language: .en)
        #expect(shown.body.contains("Address (as entered in the app): TQ5ExampleAddress"), "\(shown.body)")
        for phishing in [
            "Call support at +1 800 555 0100 to cancel", "https://evil.example/cancel", "TX1", "ТQ5ExampleAddress"
        ] {
            let mail = MailTemplates.verificationCode(
                "123456", action: "withdrawal", amount: "5", unit: "USDT", target: phishing, language: .en)
            #expect(!mail.body.contains(phishing) && !mail.body.contains("Address"), "\(mail.body)")
            let notice = MailTemplates.newValueLocked(phishing, action: "withdrawal", until: 0, language: .zhHans)
            #expect(!notice.body.contains(phishing), "\(notice.body)")
        }
    }
}
