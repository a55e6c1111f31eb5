import Foundation
import LatchCore
import Testing

/// Issue 14 §2: verification methods, login-challenge methods and security-event kinds are enums in
/// LatchCore, with the same JSON strings as before.
@Suite("Issue 14 shared vocabulary")
struct SharedVocabularyTests {
    @Test("test_I14 the verification methods keep their wire names, passkey included")
    func test_I14_verificationMethodWireNames() throws {
        #expect(
            VerificationMethodKind.allCases.map(\.rawValue) == [
                "biometric", "passkey", "totp", "fund_password", "email_code"
            ])
        let attempt = VerificationAttempt(method: .fundPassword, fundPassword: "135799")
        let json = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(attempt)) as? [String: Any])
        #expect(json["method"] as? String == "fund_password")
        let decoded = try JSONDecoder().decode(VerificationAttempt.self, from: Data(#"{"method":"passkey"}"#.utf8))
        #expect(decoded.method == .passkey)
    }

    @Test("test_I14 an attempt with a method outside the vocabulary fails with UnknownWireValue naming the field")
    func test_I14_unknownMethodIsUnknownWireValue() throws {
        let error = #expect(throws: UnknownWireValue.self) {
            try JSONDecoder().decode(VerificationAttempt.self, from: Data(#"{"method":"face","code":"1"}"#.utf8))
        }
        #expect(error == UnknownWireValue(codingPath: ["method"], value: "face"))
        // Not a string at all stays a plain decoding error (400 wrong_type on the server).
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(VerificationAttempt.self, from: Data(#"{"method":7}"#.utf8))
        }
    }

    @Test("test_I14 a newer server's unknown offer is left out and preferred falls back to the first known one")
    func test_I14_unknownOffersAreLeftOut() throws {
        let body = #"""
            {"verification_id":"v","expires_in":300,"preferred":"security_key",
             "methods":[{"type":"security_key","challenge":"x"},{"type":"totp"},{"type":"fund_password"}]}
            """#
        let started = try JSONDecoder().decode(VerificationStarted.self, from: Data(body.utf8))
        #expect(started.methods.map(\.type) == [.totp, .fundPassword])
        #expect(started.preferred == .totp)

        let known =
            #"{"verification_id":"v","expires_in":300,"preferred":"fund_password","methods":[{"type":"totp"},{"type":"fund_password"}]}"#
        #expect(try JSONDecoder().decode(VerificationStarted.self, from: Data(known.utf8)).preferred == .fundPassword)

        let nothingKnown = #"{"verification_id":"v","expires_in":300,"preferred":"x","methods":[{"type":"x"}]}"#
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(VerificationStarted.self, from: Data(nothingKnown.utf8))
        }
    }

    @Test("test_I14 security-event kinds keep their wire names; an unknown type reads as nil")
    func test_I14_securityEventKinds() {
        #expect(SecurityEventKind.verificationPassed.rawValue == "verification_passed")
        #expect(SecurityEventKind.passkeyCounterRegressed.rawValue == "passkey_counter_regressed")
        let known = SecurityEventInfo(id: "e", type: "signed_in", sessionId: nil, ip: nil, createdAt: Date())
        let newer = SecurityEventInfo(id: "e", type: "something_new", sessionId: nil, ip: nil, createdAt: Date())
        #expect(known.kind == .signedIn && newer.kind == nil)
        #expect(LoginChallengeMethod.allCases.map(\.rawValue) == ["email", "totp"])
    }
}
