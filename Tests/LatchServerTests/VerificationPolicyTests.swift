import Foundation
import LatchCore
import Testing

@testable import LatchServer

/// Issue 30 §1: the policy as a pure value (its file and its decision). Enforcement by the verification
/// service is not built yet; these prove the model it will enforce.
@Suite("Issue 30 §1: the verification policy (file and decision)")
struct VerificationPolicyTests {
    /// The issue's example policy.
    static let example = """
        {"actions": {
           "withdrawal": {
             "factors": 1,
             "kinds": ["biometric", "passkey", "totp", "fund_password", "email_code"],
             "amount": {"parameter": "amount", "unit": "currency"},
             "tiers": [{"above": {"USDT": "10000", "BTC": "0.5"}, "factors": 2},
                       {"above": {"USDT": "100000"}, "factors": 2, "kinds": ["passkey", "totp", "email_code"]}],
             "daily_limit": {"USDT": "50000"},
             "new_value_lock": {"parameter": "address", "duration": "24h"}},
           "default": {"factors": 1}}}
        """

    static func policy(_ json: String = example) throws -> VerificationPolicy {
        try VerificationPolicy(json: Data(json.utf8))
    }

    static func withdrawal(_ amount: String, _ unit: String = "USDT") -> [String: String] {
        ["amount": amount, "currency": unit, "address": "TXabc"]
    }

    @Test("30 §1 the example file reads as written")
    func test_30_1_exampleFileReads() throws {
        let withdrawal = try #require(try Self.policy().actions["withdrawal"])
        #expect(withdrawal.factors == 1)
        #expect(withdrawal.kinds == Set(VerificationMethodKind.allCases))
        #expect(withdrawal.amount == .init(parameter: "amount", unit: "currency"))
        #expect(withdrawal.tiers.count == 2)
        #expect(withdrawal.tiers[0].above["BTC"] == PolicyAmount("0.5"))
        #expect(withdrawal.dailyLimit["USDT"] == PolicyAmount("50000"))
        #expect(withdrawal.newValueLock == .init(parameter: "address", seconds: 86_400))
    }

    @Test(
        "30 §1 tiers: at a threshold the action's own factors; above it (strictly) the tier's; the highest matching tier wins"
    )
    func test_30_1_tiersAtBelowAndAboveEachThreshold() throws {
        let policy = try Self.policy()
        func factors(_ amount: String, _ unit: String = "USDT") throws -> Int {
            try policy.requirement(for: "withdrawal", parameters: Self.withdrawal(amount, unit)).factors
        }
        #expect(try factors("9999.99") == 1)
        #expect(try factors("10000") == 1)
        #expect(try factors("10000.00") == 1)
        #expect(try factors("10000.000000000000000001") == 2) // 18 decimals: just above
        #expect(try factors("10000.01") == 2)
        #expect(try factors("0.5", "BTC") == 1)
        #expect(try factors("0.50000001", "BTC") == 2)
        let low = try policy.requirement(for: "withdrawal", parameters: Self.withdrawal("50000"))
        #expect(low.kinds == Set(VerificationMethodKind.allCases), "the first tier keeps the action's kinds")
        #expect(low.tier?.index == 0)
        #expect(try factors("100000") == 2)
        let high = try policy.requirement(for: "withdrawal", parameters: Self.withdrawal("100000.01"))
        #expect(high.tier?.index == 1)
        #expect(high.kinds == [.passkey, .totp, .emailCode])
        #expect(high.amount?.unit == "USDT")
    }

    @Test(
        "30 §1 a unit no tier names takes the action's own factors where the file says so (issue 41 P1: other_units base); an action the file does not name takes default"
    )
    func test_30_1_unnamedUnitAndUnnamedAction() throws {
        let policy = try Self.policy(
            Self.example.replacingOccurrences(
                of: #""daily_limit": {"USDT": "50000"}"#,
                with: #""daily_limit": {"USDT": "50000"}, "other_units": "base""#))
        #expect(try policy.requirement(for: "withdrawal", parameters: Self.withdrawal("99999999", "ETH")).factors == 1)
        let transfer = try policy.requirement(for: "transfer", parameters: ["amount": "not even a number"])
        #expect(transfer == PolicyRequirement(factors: 1, kinds: VerificationPolicy.defaultKinds))
        let strict = try Self.policy(#"{"actions": {"default": {"factors": 2, "kinds": ["totp", "passkey"]}}}"#)
        #expect(try strict.requirement(for: "anything", parameters: [:]).factors == 2)
        #expect(try strict.requirement(for: "anything", parameters: [:]).kinds == [.totp, .passkey])
    }

    @Test("30 §1 without a policy file: one factor of any kind, every action (nothing existing changes)")
    func test_30_1_withoutAFileNothingChanges() throws {
        let requirement = try VerificationPolicy.unrestricted.requirement(
            for: "withdrawal", parameters: Self.withdrawal("1000000000"))
        #expect(requirement.factors == 1)
        #expect(requirement.kinds == VerificationPolicy.defaultKinds)
        #expect(requirement.amount == nil)
    }

    @Test(
        "30 §1 bad amounts: missing, not a decimal string, or without its unit answer 422 naming the parameter",
        arguments: [
            (["currency": "USDT"], "amount", "missing"),
            (["amount": "1e5", "currency": "USDT"], "amount", "not_a_decimal"),
            (["amount": "-5", "currency": "USDT"], "amount", "not_a_decimal"),
            (["amount": "1,000", "currency": "USDT"], "amount", "not_a_decimal"),
            (["amount": " 5", "currency": "USDT"], "amount", "not_a_decimal"),
            (["amount": "5.", "currency": "USDT"], "amount", "not_a_decimal"),
            (["amount": ".5", "currency": "USDT"], "amount", "not_a_decimal"),
            (["amount": "0.0000000000000000001", "currency": "USDT"], "amount", "not_a_decimal"),
            (["amount": "5"], "currency", "missing")
        ])
    func test_30_1_badAmounts(parameters: [String: String], field: String, reason: String) throws {
        let error = try #require(throws: LatchError.self) {
            try Self.policy().requirement(for: "withdrawal", parameters: parameters)
        }
        #expect(error.code == .validationFailed)
        #expect(error.field == field)
        #expect(error.reasons == [reason])
    }

    @Test("30 §1 amounts are exact decimals: sums never drift and render without exponents")
    func test_30_1_amountsAreExact() throws {
        let tenth = try #require(PolicyAmount("0.1"))
        let sum = (0..<10).reduce(PolicyAmount.zero) { total, _ in total + tenth }
        #expect(sum == PolicyAmount("1"))
        #expect(PolicyAmount("0.00000001")?.description == "0.00000001")
        #expect(PolicyAmount("100.00")?.description == "100")
        let limit = try #require(PolicyAmount("50000"))
        #expect(PolicyAmount.remaining(of: limit, after: try #require(PolicyAmount("49999.99"))).description == "0.01")
        #expect(PolicyAmount.remaining(of: limit, after: try #require(PolicyAmount("60000"))) == .zero)
    }

    @Test(
        "30 §1 bad policy files name the key and what is wrong",
        arguments: [
            ("not json", "", "not valid JSON"),
            (#"{"rules": {}}"#, "rules", "unknown key"),
            (#"{}"#, "actions", "missing"),
            (#"{"actions": {"withdrawal": {"factors": 3}}}"#, "actions.withdrawal.factors", "must be 1 or 2"),
            (#"{"actions": {"withdrawal": {"factors": true}}}"#, "actions.withdrawal.factors", "must be 1 or 2"),
            (#"{"actions": {"withdrawal": {"factor": 2}}}"#, "actions.withdrawal.factor", "unknown key"),
            (#"{"actions": {"withdrawal": {"kinds": ["face_id"]}}}"#, "actions.withdrawal.kinds", "not a factor kind"),
            (#"{"actions": {"withdrawal": {"factors": 2, "kinds": ["totp"]}}}"#, "actions.withdrawal", "allows 1"),
            (
                #"{"actions": {"withdrawal": {"tiers": [{"above": {"USDT": "10"}, "factors": 2}]}}}"#,
                "actions.withdrawal.tiers", "needs amount"
            ),
            (
                #"{"actions": {"withdrawal": {"amount": {"parameter": "amount", "unit": "currency"}, "tiers": [{"above": {"USDT": 10000}, "factors": 2}]}}}"#,
                "actions.withdrawal.tiers[0].above.USDT", "decimal string"
            ),
            (
                #"{"actions": {"withdrawal": {"amount": {"parameter": "amount", "unit": "currency"}, "daily_limit": {"USDT": "1e6"}}}}"#,
                "actions.withdrawal.daily_limit.USDT", "decimal string"
            ),
            (
                #"{"actions": {"withdrawal": {"new_value_lock": {"parameter": "address", "duration": "1d"}}}}"#,
                "actions.withdrawal.new_value_lock.duration", "duration"
            ),
            (#"{"actions": {"Withdrawal!": {}}}"#, "actions.Withdrawal!", "not an action name")
        ])
    func test_30_1_badPolicyFiles(json: String, key: String, reason: String) {
        do {
            _ = try VerificationPolicy(json: Data(json.utf8))
            Issue.record("\(json) was accepted")
        } catch {
            #expect(error.key == key)
            #expect(error.reason.contains(reason), "\(error.reason)")
        }
    }

    @Test("30 §1 durations: 24h, 30m and 90s; nothing else")
    func test_30_1_durations() throws {
        #expect(try VerificationPolicy.duration("24h", at: "d") == 86_400)
        #expect(try VerificationPolicy.duration("30m", at: "d") == 1_800)
        #expect(try VerificationPolicy.duration("90s", at: "d") == 90)
        for bad in ["0h", "-1h", "h", "24", "1.5h", "+5m", "721h", ""] {
            #expect(throws: PolicyFileError.self, "\(bad)") { try VerificationPolicy.duration(bad, at: "d") }
        }
    }
}
