import Foundation
import LatchCore
import LatchServer
import LatchTestSupport
import NIOHTTP1
import Testing

/// A5 alternative-mode step-up verification, A11 biometrics proven by a device-key signature, and
/// D3 single-use proofs bound to user, action and parameters, through the real HTTP stack.
@Suite("Step-up verification (A5, A11, D3)")
struct VerificationTests {
    // MARK: Offered methods

    @Test("A5 with no second factor a verification cannot start: NO_VERIFICATION_METHOD", arguments: TestDatabase.all)
    func A5_noMethodAvailable(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let tokens = try await server.signUp()

            let started = try await server.startVerification(bearer: tokens.accessToken)

            #expect(started.status == 409 && started.errorCode == "NO_VERIFICATION_METHOD", "\(started.text)")
            #expect(
                (started.errorBody?.message)?.localizedCaseInsensitiveContains("fund password") == true,
                "\(started.text)")
            let enrolledOnly = try await server.send(.POST, "/v1/mfa/totp", body: nil, bearer: tokens.accessToken)
            #expect(enrolledOnly.status == 200)
            let stillNone = try await server.startVerification(bearer: tokens.accessToken)
            #expect(
                stillNone.status == 409 && stillNone.errorCode == "NO_VERIFICATION_METHOD",
                "a pending TOTP is not a method")
        }
    }

    @Test(
        "A5 only the methods the user has are offered, preferred biometric > totp > fund_password",
        arguments: TestDatabase.all)
    func A5_methodsOfferedInPriority(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let tokens = try await server.signUp()

            try await server.setFundPassword(bearer: tokens.accessToken)
            let fundOnly = try await server.startedVerification(bearer: tokens.accessToken)
            _ = try await server.activateTOTP(bearer: tokens.accessToken)
            let withTOTP = try await server.startedVerification(bearer: tokens.accessToken)
            let credentialID = try await server.bindDevice(DeviceKey(), bearer: tokens.accessToken)
            let raw = try await server.startVerification(bearer: tokens.accessToken)

            #expect(fundOnly.methods.map(\.type) == [.fundPassword] && fundOnly.preferred == .fundPassword)
            #expect(fundOnly.expiresIn == 300)
            #expect(UUID(uuidString: fundOnly.verificationId) != nil)
            #expect(withTOTP.methods.map(\.type) == [.totp, .fundPassword] && withTOTP.preferred == .totp)
            #expect(raw.status == 201, "\(raw.text)")
            let all = try raw.decode(VerificationStarted.self)
            #expect(all.methods.map(\.type) == [.biometric, .totp, .fundPassword] && all.preferred == .biometric)
            let biometric = try #require(all.methods.first)
            #expect(biometric.credentialIds == [credentialID])
            #expect(biometric.challengeId.flatMap(UUID.init(uuidString:)) != nil)
            #expect((biometric.challenge.flatMap(Base64URL.decode)?.count ?? 0) >= 16, "at least 128 random bits")
            let rawBiometric = try #require((raw.json["methods"] as? [[String: Any]])?.first)
            #expect(
                Set(rawBiometric.keys) == ["type", "credential_ids", "challenge_id", "challenge"],
                "snake_case fields: \(raw.text)")
        }
    }

    @Test("A5 a device key alone is offered as biometric only", arguments: TestDatabase.all)
    func A5_biometricOnly(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let tokens = try await server.signUp()
            _ = try await server.bindDevice(DeviceKey(), bearer: tokens.accessToken)

            let started = try await server.startedVerification(bearer: tokens.accessToken)

            #expect(started.methods.map(\.type) == [.biometric] && started.preferred == .biometric)
        }
    }

    // MARK: Biometric attempts (A11)

    @Test(
        "A11 a device-key signature over the verify message passes; the proof redeems once", arguments: TestDatabase.all
    )
    func A11_biometricSignaturePasses(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let tokens = try await server.signUp()
            let key = DeviceKey()
            let credentialID = try await server.bindDevice(key, bearer: tokens.accessToken)
            let started = try await server.startedVerification(bearer: tokens.accessToken)
            let offer = try #require(started.methods.first)
            let signature = try key.signVerification(
                action: "withdrawal", parameters: VerificationSamples.withdrawal,
                challengeID: try #require(offer.challengeId), challenge: try #require(offer.challenge))

            let passed = try await server.attempt(
                started.verificationId,
                VerificationAttempt(method: .biometric, credentialId: credentialID, signature: signature),
                bearer: tokens.accessToken)

            #expect(passed.status == 200, "\(passed.text)")
            let proof = try passed.decode(VerificationPassed.self)
            #expect(proof.expiresIn == 300)
            #expect((Base64URL.decode(proof.verificationToken)?.count ?? 0) >= 16)
            let redeemed = try await server.redeem(proof.verificationToken, bearer: tokens.accessToken)
            #expect(redeemed.status == 200, "\(redeemed.text)")
            let what = try redeemed.decode(RedeemedVerification.self)
            #expect(what.userId == tokens.user.id && what.action == "withdrawal" && what.method == .biometric)
            #expect(what.verifiedAt == server.clock.now)
            let again = try await server.redeem(proof.verificationToken, bearer: tokens.accessToken)
            #expect(again.status == 409 && again.errorCode == "CONFLICT", "\(again.text)")
            let events = try await server.eventTypes(bearer: tokens.accessToken)
            #expect(events.contains("verification_passed") && events.contains("verification_redeemed"))
        }
    }

    @Test(
        "A11 a signature by another key, over other parameters, another action or another challenge is refused",
        arguments: TestDatabase.all)
    func A11_wrongSignaturesRefused(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let tokens = try await server.signUp()
            let key = DeviceKey()
            let credentialID = try await server.bindDevice(key, bearer: tokens.accessToken)
            let otherChallenge = try await server.loginChallenge(for: credentialID)
            let amountChanged = ["amount": "100.01", "address": "TX1"]
            let signers: [(String, (String, String) throws -> String)] = [
                (
                    "another key",
                    { id, value in
                        try DeviceKey().signVerification(
                            action: "withdrawal", parameters: VerificationSamples.withdrawal, challengeID: id,
                            challenge: value)
                    }
                ),
                (
                    "other parameters",
                    { id, value in
                        try key.signVerification(
                            action: "withdrawal", parameters: amountChanged, challengeID: id, challenge: value)
                    }
                ),
                (
                    "another action",
                    { id, value in
                        try key.signVerification(
                            action: "transfer", parameters: VerificationSamples.withdrawal, challengeID: id,
                            challenge: value)
                    }
                ),
                (
                    "another challenge",
                    { _, _ in
                        try key.signVerification(
                            action: "withdrawal", parameters: VerificationSamples.withdrawal,
                            challengeID: otherChallenge.challengeId,
                            challenge: otherChallenge.challenge)
                    }
                ),
                ("the login purpose", { id, value in try key.signLogin(challengeID: id, challenge: value) }),
                ("not a signature", { _, _ in "AAAA" })
            ]

            for (name, sign) in signers {
                let started = try await server.startedVerification(bearer: tokens.accessToken)
                let offer = try #require(started.methods.first)
                let signature = try sign(try #require(offer.challengeId), try #require(offer.challenge))

                let refused = try await server.attempt(
                    started.verificationId,
                    VerificationAttempt(method: .biometric, credentialId: credentialID, signature: signature),
                    bearer: tokens.accessToken)

                #expect(refused.status == 400 && refused.errorCode == "AUTH_003", "\(name): \(refused.text)")
                #expect(refused.errorBody?.attemptsRemaining == 4, "\(name)")
            }
            #expect(
                try await server.eventTypes(bearer: tokens.accessToken).filter { $0 == "verification_failed" }.count
                    == signers.count)
        }
    }

    @Test("A11 a bare \"biometrics passed\" without a signature is refused", arguments: TestDatabase.all)
    func A11_bareBiometricFlagRefused(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let tokens = try await server.signUp()
            let credentialID = try await server.bindDevice(DeviceKey(), bearer: tokens.accessToken)
            let started = try await server.startedVerification(bearer: tokens.accessToken)

            let bare = try await server.send(
                .POST, "/v1/verifications/\(started.verificationId)/attempts",
                json: ["method": "biometric", "credential_id": credentialID, "passed": true] as [String: Any],
                bearer: tokens.accessToken)
            let noCredential = try await server.attempt(
                started.verificationId, VerificationAttempt(method: .biometric, signature: "AAAA"),
                bearer: tokens.accessToken)

            // A missing field is a 400 naming it, as everywhere in the API; no attempt is used by it.
            #expect(bare.status == 400 && bare.errorBody?.field == "signature", "\(bare.text)")
            #expect(
                noCredential.status == 400 && noCredential.errorBody?.field == "credential_id", "\(noCredential.text)")
            #expect(bare.json["verification_token"] == nil && noCredential.json["verification_token"] == nil)
        }
    }

    @Test("A11 a biometric attempt must name one of the user's own credentials", arguments: TestDatabase.all)
    func A11_credentialMustBeOwn(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let alice = try await server.signUp()
            let bob = try await server.signUp("bob@example.com")
            _ = try await server.bindDevice(DeviceKey(), bearer: alice.accessToken)
            let bobsKey = DeviceKey()
            let bobsCredential = try await server.bindDevice(bobsKey, name: "Bob's phone", bearer: bob.accessToken)
            let started = try await server.startedVerification(bearer: alice.accessToken)
            let offer = try #require(started.methods.first)
            let signature = try bobsKey.signVerification(
                action: "withdrawal", parameters: VerificationSamples.withdrawal,
                challengeID: try #require(offer.challengeId),
                challenge: try #require(offer.challenge))

            let refused = try await server.attempt(
                started.verificationId,
                VerificationAttempt(method: .biometric, credentialId: bobsCredential, signature: signature),
                bearer: alice.accessToken)

            #expect(refused.status == 422 && refused.errorBody?.field == "credential_id", "\(refused.text)")
        }
    }

    // MARK: Attempts

    @Test(
        "D3 each verification allows 5 attempts; beyond that AUTH_003 with attempts_remaining 0, unchecked",
        arguments: TestDatabase.all)
    func D3_fiveAttemptsPerVerification(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let tokens = try await server.signUp()
            try await server.setFundPassword(bearer: tokens.accessToken)
            let credentialID = try await server.bindDevice(DeviceKey(), bearer: tokens.accessToken)
            let started = try await server.startedVerification(bearer: tokens.accessToken)
            let wrongSignature = VerificationAttempt(method: .biometric, credentialId: credentialID, signature: "AAAA")

            var remaining: [Int?] = []
            for _ in 1...5 {
                let answer = try await server.attempt(
                    started.verificationId, wrongSignature, bearer: tokens.accessToken)
                #expect(answer.status == 400 && answer.errorCode == "AUTH_003", "\(answer.text)")
                remaining.append(answer.errorBody?.attemptsRemaining)
            }
            let checksBefore = server.app.latch.passwordChecksPerformed
            let sixth = try await server.attempt(
                started.verificationId,
                VerificationAttempt(method: .fundPassword, fundPassword: VerificationSamples.fundPassword),
                bearer: tokens.accessToken)

            #expect(remaining == [4, 3, 2, 1, 0])
            #expect(sixth.status == 400 && sixth.errorCode == "AUTH_003", "\(sixth.text)")
            #expect(sixth.errorBody?.attemptsRemaining == 0)
            #expect(server.app.latch.passwordChecksPerformed == checksBefore, "a used-up verification checks nothing")
            _ = try await server.verificationToken(bearer: tokens.accessToken)
        }
    }

    @Test("D3 another method after a wrong answer still passes in the same verification", arguments: TestDatabase.all)
    func D3_alternativeAfterFailure(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let tokens = try await server.signUp()
            try await server.setFundPassword(bearer: tokens.accessToken)
            let app = try await server.activateTOTP(bearer: tokens.accessToken)
            server.clock.advance(by: 30)
            let started = try await server.startedVerification(bearer: tokens.accessToken)

            let wrongTOTP = try await server.attempt(
                started.verificationId, VerificationAttempt(method: .totp, code: app.wrongCode(at: server.clock.now)),
                bearer: tokens.accessToken)
            let byFund = try await server.attempt(
                started.verificationId,
                VerificationAttempt(method: .fundPassword, fundPassword: VerificationSamples.fundPassword),
                bearer: tokens.accessToken)

            #expect(wrongTOTP.status == 400 && wrongTOTP.errorBody?.attemptsRemaining == 4)
            #expect(byFund.status == 200, "\(byFund.text)")
            let redeemed = try await server.redeem(
                try byFund.decode(VerificationPassed.self).verificationToken, bearer: tokens.accessToken)
            #expect((try? redeemed.decode(RedeemedVerification.self))?.method == .fundPassword, "\(redeemed.text)")
        }
    }

    @Test("D3 concurrent attempts never use more than 5 per verification", arguments: TestDatabase.all)
    func D3_concurrentAttemptsCapped(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let tokens = try await server.signUp()
            let credentialID = try await server.bindDevice(DeviceKey(), bearer: tokens.accessToken)
            let started = try await server.startedVerification(bearer: tokens.accessToken)
            let wrong = VerificationAttempt(method: .biometric, credentialId: credentialID, signature: "AAAA")

            let remaining = try await withThrowingTaskGroup(of: Int?.self) { group in
                for _ in 0..<12 {
                    group.addTask {
                        try await server.attempt(started.verificationId, wrong, bearer: tokens.accessToken).errorBody?
                            .attemptsRemaining
                    }
                }
                return try await group.reduce(into: [Int?]()) { $0.append($1) }
            }

            #expect(remaining.compactMap { $0 }.sorted() == [0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 3, 4], "\(remaining)")
        }
    }

    @Test("D3 concurrent right answers to one verification give exactly one proof", arguments: TestDatabase.all)
    func D3_concurrentSuccessOnce(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let tokens = try await server.signUp()
            try await server.setFundPassword(bearer: tokens.accessToken)
            let started = try await server.startedVerification(bearer: tokens.accessToken)
            let right = VerificationAttempt(method: .fundPassword, fundPassword: VerificationSamples.fundPassword)

            let statuses = try await withThrowingTaskGroup(of: UInt.self) { group in
                for _ in 0..<4 {
                    group.addTask {
                        try await server.attempt(started.verificationId, right, bearer: tokens.accessToken).status
                    }
                }
                return try await group.reduce(into: [UInt]()) { $0.append($1) }
            }

            #expect(statuses.filter { $0 == 200 }.count == 1, "\(statuses)")
            #expect(statuses.filter { $0 == 409 }.count == 3, "\(statuses)")
        }
    }

    @Test("D3 a second attempt after success is a conflict and gives no second proof", arguments: TestDatabase.all)
    func D3_attemptAfterSuccess(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let tokens = try await server.signUp()
            try await server.setFundPassword(bearer: tokens.accessToken)
            let started = try await server.startedVerification(bearer: tokens.accessToken)
            let right = VerificationAttempt(method: .fundPassword, fundPassword: VerificationSamples.fundPassword)
            let first = try await server.attempt(started.verificationId, right, bearer: tokens.accessToken)

            let second = try await server.attempt(started.verificationId, right, bearer: tokens.accessToken)

            #expect(first.status == 200)
            #expect(second.status == 409 && second.errorCode == "CONFLICT", "\(second.text)")
            #expect(second.json["verification_token"] == nil)
        }
    }

    @Test("D3 another user cannot attempt someone's verification", arguments: TestDatabase.all)
    func D3_otherUsersVerification(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let alice = try await server.signUp()
            let bob = try await server.signUp("bob@example.com")
            try await server.setFundPassword(bearer: alice.accessToken)
            try await server.setFundPassword(bearer: bob.accessToken)
            let started = try await server.startedVerification(bearer: alice.accessToken)

            let byBob = try await server.attempt(
                started.verificationId,
                VerificationAttempt(method: .fundPassword, fundPassword: VerificationSamples.fundPassword),
                bearer: bob.accessToken)
            let unknown = try await server.attempt(
                UUID().uuidString,
                VerificationAttempt(method: .fundPassword, fundPassword: VerificationSamples.fundPassword),
                bearer: bob.accessToken)
            let byAlice = try await server.attempt(
                started.verificationId, VerificationAttempt(method: .fundPassword, fundPassword: "975310"),
                bearer: alice.accessToken)

            #expect(byBob.status == 404 && byBob.errorCode == "NOT_FOUND", "\(byBob.text)")
            #expect(unknown.status == 404, "\(unknown.text)")
            #expect(byAlice.errorBody?.attemptsRemaining == 4, "bob's try used none of alice's attempts")
        }
    }

    @Test("D3 a verification expires after 5 minutes", arguments: TestDatabase.all)
    func D3_verificationExpires(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let tokens = try await server.signUp()
            try await server.setFundPassword(bearer: tokens.accessToken)
            let started = try await server.startedVerification(bearer: tokens.accessToken)

            server.clock.advance(by: 301)
            let late = try await server.attempt(
                started.verificationId,
                VerificationAttempt(method: .fundPassword, fundPassword: VerificationSamples.fundPassword),
                bearer: tokens.accessToken)

            #expect(late.status == 400 && late.errorCode == "AUTH_003", "\(late.text)")
            #expect(late.errorBody?.attemptsRemaining == 0)
        }
    }

    @Test("D3 an invalid action, parameters or method is refused naming the field", arguments: TestDatabase.all)
    func D3_badInputRefused(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let tokens = try await server.signUp()
            try await server.setFundPassword(bearer: tokens.accessToken)
            let started = try await server.startedVerification(bearer: tokens.accessToken)

            let badAction = try await server.startVerification(
                "Withdraw Now\n", parameters: [:], bearer: tokens.accessToken)
            let nested = try await server.send(
                .POST, "/v1/verifications", body: #"{"action":"withdrawal","parameters":{"amount":{"value":"1"}}}"#,
                bearer: tokens.accessToken)
            // A method outside the shared vocabulary cannot be built as a VerificationAttempt: sent as raw JSON.
            let badMethod = try await server.send(
                .POST, "/v1/verifications/\(started.verificationId)/attempts", body: #"{"method":"face"}"#,
                bearer: tokens.accessToken)
            let noPassword = try await server.attempt(
                started.verificationId, VerificationAttempt(method: .fundPassword), bearer: tokens.accessToken)
            let unauthenticated = try await server.startVerification(bearer: "")

            #expect(badAction.status == 422 && badAction.errorBody?.field == "action", "\(badAction.text)")
            #expect(
                nested.status == 400 && (nested.errorBody?.field)?.hasPrefix("parameters") == true, "\(nested.text)")
            #expect(badMethod.status == 422 && badMethod.errorBody?.field == "method", "\(badMethod.text)")
            #expect(noPassword.status == 400 && noPassword.errorBody?.field == "fund_password", "\(noPassword.text)")
            #expect(unauthenticated.status == 401 && unauthenticated.errorCode == "AUTH_004")
        }
    }

    // MARK: Redeeming (D3)

    @Test(
        "D3 a proof redeems only for the same action and parameters, and stays usable after a mismatch",
        arguments: TestDatabase.all)
    func D3_redeemBoundToActionAndParameters(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let tokens = try await server.signUp()
            try await server.setFundPassword(bearer: tokens.accessToken)
            let proof = try await server.verificationToken(bearer: tokens.accessToken)

            let otherAmount = try await server.redeem(
                proof, parameters: ["amount": "100.01", "address": "TX1"], bearer: tokens.accessToken)
            let otherAddress = try await server.redeem(
                proof, parameters: ["amount": "100.00", "address": "TX2"], bearer: tokens.accessToken)
            let extra = try await server.redeem(
                proof, parameters: ["amount": "100.00", "address": "TX1", "memo": "x"], bearer: tokens.accessToken)
            let fewer = try await server.redeem(proof, parameters: ["amount": "100.00"], bearer: tokens.accessToken)
            let otherAction = try await server.redeem(proof, action: "transfer", bearer: tokens.accessToken)
            let garbage = try await server.redeem("not-a-token", bearer: tokens.accessToken)
            let right = try await server.redeem(proof, bearer: tokens.accessToken)
            let again = try await server.redeem(proof, bearer: tokens.accessToken)

            for (name, refused) in [
                ("amount", otherAmount), ("address", otherAddress), ("extra", extra), ("fewer", fewer),
                ("action", otherAction),
                ("garbage", garbage)
            ] {
                #expect(
                    refused.status == 403 && refused.errorCode == "VERIFICATION_INVALID", "\(name): \(refused.text)")
            }
            #expect(right.status == 200, "the proof survives mismatches: \(right.text)")
            #expect(again.status == 409 && again.errorCode == "CONFLICT", "\(again.text)")
        }
    }

    @Test("D3 the parameters digest does not depend on key order in the JSON", arguments: TestDatabase.all)
    func D3_parameterOrderIndependent(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let tokens = try await server.signUp()
            try await server.setFundPassword(bearer: tokens.accessToken)
            let started = try await server.send(
                .POST, "/v1/verifications",
                body: #"{"action":"withdrawal","parameters":{"amount":"100.00","address":"TX1"}}"#,
                bearer: tokens.accessToken)
            let id = try started.decode(VerificationStarted.self).verificationId
            let passed = try await server.attempt(
                id, VerificationAttempt(method: .fundPassword, fundPassword: VerificationSamples.fundPassword),
                bearer: tokens.accessToken)
            let proof = try passed.decode(VerificationPassed.self).verificationToken

            let reordered = try await server.send(
                .POST, "/v1/verifications/redeem",
                body:
                    #"{"parameters":{"address":"TX1","amount":"100.00"},"action":"withdrawal","verification_token":"\#(proof)"}"#,
                bearer: tokens.accessToken)

            #expect(reordered.status == 200, "\(reordered.text)")
        }
    }

    @Test(
        "D3 another user cannot redeem someone's proof, and it stays usable for its owner", arguments: TestDatabase.all)
    func D3_otherUserCannotRedeem(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let alice = try await server.signUp()
            let bob = try await server.signUp("bob@example.com")
            try await server.setFundPassword(bearer: alice.accessToken)
            let proof = try await server.verificationToken(bearer: alice.accessToken)

            let byBob = try await server.redeem(proof, bearer: bob.accessToken)
            let byAlice = try await server.redeem(proof, bearer: alice.accessToken)

            #expect(byBob.status == 403 && byBob.errorCode == "VERIFICATION_INVALID", "\(byBob.text)")
            #expect(byAlice.status == 200, "\(byAlice.text)")
            let unauthenticated = try await server.redeem(proof, bearer: "")
            #expect(unauthenticated.status == 401)
        }
    }

    @Test("D3 a proof lives 5 minutes", arguments: TestDatabase.all)
    func D3_proofExpires(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let tokens = try await server.signUp()
            try await server.setFundPassword(bearer: tokens.accessToken)
            let early = try await server.verificationToken(bearer: tokens.accessToken)
            let late = try await server.verificationToken(bearer: tokens.accessToken)

            server.clock.advance(by: 299)
            let inTime = try await server.redeem(early, bearer: tokens.accessToken)
            server.clock.advance(by: 2)
            let expired = try await server.redeem(late, bearer: tokens.accessToken)

            #expect(inTime.status == 200, "\(inTime.text)")
            #expect(expired.status == 403 && expired.errorCode == "VERIFICATION_INVALID", "\(expired.text)")
        }
    }

    @Test("D3 concurrent redeems of one proof succeed exactly once", arguments: TestDatabase.all)
    func D3_concurrentRedeemOnce(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let tokens = try await server.signUp()
            try await server.setFundPassword(bearer: tokens.accessToken)
            let proof = try await server.verificationToken(bearer: tokens.accessToken)

            let statuses = try await withThrowingTaskGroup(of: UInt.self) { group in
                for _ in 0..<8 { group.addTask { try await server.redeem(proof, bearer: tokens.accessToken).status } }
                return try await group.reduce(into: [UInt]()) { $0.append($1) }
            }

            #expect(statuses.filter { $0 == 200 }.count == 1, "\(statuses)")
            #expect(statuses.filter { $0 == 409 }.count == 7, "\(statuses)")
        }
    }
}
