import Crypto
import Foundation
import LatchCore
import LatchServer
import LatchTestSupport
import NIOHTTP1
import Testing

/// B5 binding and unbinding device keys, and B6 biometric sign-in by a signed login challenge,
/// through the real HTTP stack.
@Suite("Device credentials (B5, B6)")
struct DeviceCredentialTests {
    @Test(
        "B5 binding a P-256 key answers 201 with a credential id, mails a notice and is listed",
        arguments: TestDatabase.all)
    func B5_bindKey(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let tokens = try await server.signUp()
            let key = DeviceKey()
            let mailsBefore = await server.mails().count

            let bound = try await server.send(
                .POST, "/v1/device-credentials",
                json: ["public_key": key.publicKey, "device_name": "Alice's iPhone", "biometry": "face_id"],
                bearer: tokens.accessToken)

            #expect(bound.status == 201, "\(bound.text)")
            let id = try bound.decode(DeviceCredentialCreated.self).credentialId
            #expect(UUID(uuidString: id) != nil)
            let mails = await server.mails().dropFirst(mailsBefore)
            #expect(mails.count == 1)
            #expect(mails.first?.body.contains("Alice's iPhone") == true, "\(mails.map(\.body))")
            let listed = try await server.send(.GET, "/v1/device-credentials", bearer: tokens.accessToken)
            #expect(listed.status == 200)
            let credentials = try listed.decode([DeviceCredentialInfo].self)
            #expect(credentials.map(\.id) == [id])
            #expect(credentials.first?.deviceName == "Alice's iPhone" && credentials.first?.biometry == "face_id")
            #expect(credentials.first?.createdAt == server.clock.now)
            #expect(try await server.eventTypes(bearer: tokens.accessToken).contains("device_bound"))
            let unauthenticated = try await server.send(
                .POST, "/v1/device-credentials", json: ["public_key": key.publicKey])
            #expect(unauthenticated.status == 401 && unauthenticated.errorCode == "AUTH_004")
        }
    }

    @Test("B5 a key that is not a 65-byte X9.63 P-256 point is refused naming public_key", arguments: TestDatabase.all)
    func B5_invalidKeyRefused(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let tokens = try await server.signUp()
            let key = P256.Signing.PrivateKey().publicKey
            var offCurve = key.x963Representation
            offCurve[64] ^= 0x01
            let invalid = [
                "not-a-key", "", Base64URL.encode(key.compressedRepresentation),
                Base64URL.encode(key.rawRepresentation),
                Base64URL.encode(offCurve), key.x963Representation.base64EncodedString() + "!"
            ]

            for publicKey in invalid {
                let refused = try await server.send(
                    .POST, "/v1/device-credentials", json: ["public_key": publicKey], bearer: tokens.accessToken)

                #expect(
                    refused.status == 422 && refused.errorCode == "VALIDATION_FAILED", "\(publicKey): \(refused.text)")
                #expect(refused.errorBody?.field == "public_key", "\(publicKey)")
            }
            let badBiometry = try await server.send(
                .POST, "/v1/device-credentials", json: ["public_key": DeviceKey().publicKey, "biometry": "retina"],
                bearer: tokens.accessToken)
            #expect(badBiometry.status == 422 && badBiometry.errorBody?.field == "biometry", "\(badBiometry.text)")
            let listed = try await server.send(.GET, "/v1/device-credentials", bearer: tokens.accessToken)
            #expect(try listed.decode([DeviceCredentialInfo].self).isEmpty, "\(listed.text)")
        }
    }

    @Test(
        "B5 binding more than 10 minutes after sign-in needs a verification token for bind_device",
        arguments: TestDatabase.all)
    func B5_staleSessionNeedsVerification(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let tokens = try await server.signUp()
            try await server.setFundPassword(bearer: tokens.accessToken)
            server.clock.advance(by: 660)
            let otherAction = try await server.verificationToken(parameters: [:], bearer: tokens.accessToken)
            let proof = try await server.verificationToken("bind_device", parameters: [:], bearer: tokens.accessToken)
            let key = DeviceKey()

            let stale = try await server.send(
                .POST, "/v1/device-credentials", json: ["public_key": key.publicKey], bearer: tokens.accessToken)
            let wrongProof = try await server.send(
                .POST, "/v1/device-credentials", json: ["public_key": key.publicKey, "verification_token": otherAction],
                bearer: tokens.accessToken)
            let withProof = try await server.send(
                .POST, "/v1/device-credentials", json: ["public_key": key.publicKey, "verification_token": proof],
                bearer: tokens.accessToken)
            let proofAgain = try await server.send(
                .POST, "/v1/device-credentials",
                json: ["public_key": DeviceKey().publicKey, "verification_token": proof],
                bearer: tokens.accessToken)

            #expect(stale.status == 403 && stale.errorCode == "VERIFICATION_REQUIRED", "\(stale.text)")
            #expect(wrongProof.status == 403 && wrongProof.errorCode == "VERIFICATION_INVALID", "\(wrongProof.text)")
            #expect(withProof.status == 201, "\(withProof.text)")
            #expect(proofAgain.status == 409, "the proof is single-use: \(proofAgain.text)")
        }
    }

    @Test(
        "B5 refreshing tokens is not a fresh sign-in: binding still needs verification after 10 minutes",
        arguments: TestDatabase.all)
    func B5_refreshIsNotRecentSignIn(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let tokens = try await server.signUp()
            server.clock.advance(by: 660)
            let refreshed = try await server.refresh(tokens.refreshToken).decode(TokenResponse.self)

            let bound = try await server.send(
                .POST, "/v1/device-credentials", json: ["public_key": DeviceKey().publicKey],
                bearer: refreshed.accessToken)

            #expect(bound.status == 403 && bound.errorCode == "VERIFICATION_REQUIRED", "\(bound.text)")
        }
    }

    @Test(
        "B5 at most 10 keys per user; the 11th is LIMIT_REACHED and the same key twice is a conflict",
        arguments: TestDatabase.all)
    func B5_tenKeysAtMost(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let tokens = try await server.signUp()
            let first = DeviceKey()
            _ = try await server.bindDevice(first, name: "device 1", bearer: tokens.accessToken)
            let duplicate = try await server.send(
                .POST, "/v1/device-credentials", json: ["public_key": first.publicKey], bearer: tokens.accessToken)
            for index in 2...10 {
                _ = try await server.bindDevice(DeviceKey(), name: "device \(index)", bearer: tokens.accessToken)
            }

            let eleventh = try await server.send(
                .POST, "/v1/device-credentials", json: ["public_key": DeviceKey().publicKey], bearer: tokens.accessToken
            )

            #expect(duplicate.status == 409 && duplicate.errorCode == "CONFLICT", "\(duplicate.text)")
            #expect(eleventh.status == 409 && eleventh.errorCode == "LIMIT_REACHED", "\(eleventh.text)")
            let listed = try await server.send(.GET, "/v1/device-credentials", bearer: tokens.accessToken)
            #expect(try listed.decode([DeviceCredentialInfo].self).count == 10, "\(listed.text)")
            let bob = try await server.signUp("bob@example.com")
            _ = try await server.bindDevice(DeviceKey(), name: "Bob's phone", bearer: bob.accessToken)
        }
    }

    @Test(
        "B5 unbinding removes the key: 204, no longer listed, no more challenges, and only its owner can",
        arguments: TestDatabase.all)
    func B5_unbind(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let tokens = try await server.signUp()
            let bob = try await server.signUp("bob@example.com")
            let key = DeviceKey()
            let id = try await server.bindDevice(key, bearer: tokens.accessToken)
            let outstanding = try await server.loginChallenge(for: id)

            let byOther = try await server.send(.DELETE, "/v1/device-credentials/\(id)", bearer: bob.accessToken)
            let unbound = try await server.send(.DELETE, "/v1/device-credentials/\(id)", bearer: tokens.accessToken)
            let again = try await server.send(.DELETE, "/v1/device-credentials/\(id)", bearer: tokens.accessToken)
            let challenge = try await server.send(.POST, "/v1/device-credentials/\(id)/challenges", body: nil)
            let signIn = try await server.deviceSignatureGrant(
                challengeID: outstanding.challengeId,
                signature: try key.signLogin(challengeID: outstanding.challengeId, challenge: outstanding.challenge))

            #expect(byOther.status == 404, "\(byOther.text)")
            #expect(unbound.status == 204, "\(unbound.text)")
            #expect(again.status == 404)
            #expect(challenge.status == 404 && challenge.errorCode == "NOT_FOUND", "\(challenge.text)")
            #expect(
                signIn.status == 401 && signIn.errorCode == "AUTH_001", "an unbound key cannot sign in: \(signIn.text)")
            let listed = try await server.send(.GET, "/v1/device-credentials", bearer: tokens.accessToken)
            #expect(try listed.decode([DeviceCredentialInfo].self).isEmpty, "\(listed.text)")
            #expect(try await server.eventTypes(bearer: tokens.accessToken).contains("device_unbound"))
        }
    }

    @Test("B6 a signed login challenge gives tokens for the key's owner", arguments: TestDatabase.all)
    func B6_deviceSignatureSignIn(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let tokens = try await server.signUp()
            let key = DeviceKey()
            let id = try await server.bindDevice(key, bearer: tokens.accessToken)
            _ = try await server.send(.POST, "/v1/logout", body: nil, bearer: tokens.accessToken)

            let issued = try await server.send(.POST, "/v1/device-credentials/\(id)/challenges", body: nil)
            let challenge = try issued.decode(SignatureChallengeInfo.self)
            let signature = try key.signLogin(challengeID: challenge.challengeId, challenge: challenge.challenge)
            let signedIn = try await server.deviceSignatureGrant(
                challengeID: challenge.challengeId, signature: signature)

            #expect(issued.status == 201, "\(issued.text)")
            #expect(challenge.expiresIn == 120)
            #expect(UUID(uuidString: challenge.challengeId) != nil)
            #expect(
                (Base64URL.decode(challenge.challenge)?.count ?? 0) >= 16,
                "at least 128 random bits: \(challenge.challenge)")
            #expect(signedIn.status == 200, "\(signedIn.text)")
            let session = try signedIn.decode(TokenResponse.self)
            #expect(session.user.id == tokens.user.id)
            #expect(session.tokenType == "Bearer" && session.expiresIn == 7200)
            #expect(try await server.send(.GET, "/v1/me", bearer: session.accessToken).status == 200)
            let listed = try await server.send(.GET, "/v1/device-credentials", bearer: session.accessToken)
            #expect(
                try listed.decode([DeviceCredentialInfo].self).first?.lastUsedAt != nil,
                "the key's last use is recorded")
            let replay = try await server.deviceSignatureGrant(challengeID: challenge.challengeId, signature: signature)
            #expect(replay.status == 401 && replay.errorCode == "AUTH_001", "a challenge is single-use: \(replay.text)")
            let second = try await server.loginChallenge(for: id)
            #expect(second.challenge != challenge.challenge && second.challengeId != challenge.challengeId)
        }
    }

    @Test("B6 a challenge expires after 120 s", arguments: TestDatabase.all)
    func B6_challengeExpires(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let tokens = try await server.signUp()
            let key = DeviceKey()
            let id = try await server.bindDevice(key, bearer: tokens.accessToken)
            let early = try await server.loginChallenge(for: id)
            let late = try await server.loginChallenge(for: id)

            server.clock.advance(by: 119)
            let inTime = try await server.deviceSignatureGrant(
                challengeID: early.challengeId,
                signature: try key.signLogin(challengeID: early.challengeId, challenge: early.challenge))
            server.clock.advance(by: 2)
            let expired = try await server.deviceSignatureGrant(
                challengeID: late.challengeId,
                signature: try key.signLogin(challengeID: late.challengeId, challenge: late.challenge))

            #expect(inTime.status == 200, "\(inTime.text)")
            #expect(expired.status == 401 && expired.errorCode == "AUTH_001", "\(expired.text)")
        }
    }

    @Test(
        "B6 a signature by another key, over another purpose or another challenge, or malformed, is refused",
        arguments: TestDatabase.all)
    func B6_wrongSignaturesRefused(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let tokens = try await server.signUp()
            let key = DeviceKey()
            let id = try await server.bindDevice(key, bearer: tokens.accessToken)
            let other = DeviceKey()
            _ = try await server.bindDevice(other, name: "Alice's iPad", bearer: tokens.accessToken)
            let bob = try await server.signUp("bob@example.com")
            let bobsKey = DeviceKey()
            _ = try await server.bindDevice(bobsKey, name: "Bob's phone", bearer: bob.accessToken)
            let unrelated = try await server.loginChallenge(for: id)
            let signers: [(String, (SignatureChallengeInfo) throws -> String)] = [
                (
                    "another key of the same user",
                    { try other.signLogin(challengeID: $0.challengeId, challenge: $0.challenge) }
                ),
                ("another user's key", { try bobsKey.signLogin(challengeID: $0.challengeId, challenge: $0.challenge) }),
                (
                    "the verify purpose",
                    {
                        try key.signVerification(
                            action: "withdrawal", parameters: [:], challengeID: $0.challengeId, challenge: $0.challenge)
                    }
                ),
                (
                    "another challenge's value",
                    { try key.signLogin(challengeID: $0.challengeId, challenge: unrelated.challenge) }
                ),
                (
                    "another challenge's id",
                    { try key.signLogin(challengeID: unrelated.challengeId, challenge: $0.challenge) }
                ),
                (
                    "an upper-case challenge id",
                    { try key.signLogin(challengeID: $0.challengeId.uppercased(), challenge: $0.challenge) }
                ),
                ("not a signature", { _ in "bm90LWEtc2lnbmF0dXJl" }),
                ("empty", { _ in "" })
            ]

            for (name, sign) in signers {
                let challenge = try await server.loginChallenge(for: id)
                let refused = try await server.deviceSignatureGrant(
                    challengeID: challenge.challengeId, signature: try sign(challenge))

                #expect(refused.status == 401 && refused.errorCode == "AUTH_001", "\(name): \(refused.text)")
            }
            try await server.setFundPassword(bearer: tokens.accessToken)
            let verification = try await server.startedVerification(bearer: tokens.accessToken)
            let verificationChallenge = try #require(verification.methods.first)
            let verificationChallengeID = try #require(verificationChallenge.challengeId)
            let crossPurpose = try await server.deviceSignatureGrant(
                challengeID: verificationChallengeID,
                signature: try key.signLogin(
                    challengeID: verificationChallengeID, challenge: try #require(verificationChallenge.challenge)))
            #expect(
                crossPurpose.status == 401 && crossPurpose.errorCode == "AUTH_001",
                "a step-up challenge cannot sign in: \(crossPurpose.text)")
            let unknown = try await server.deviceSignatureGrant(challengeID: UUID().uuidString, signature: "AAAA")
            #expect(unknown.status == 401 && unknown.errorCode == "AUTH_001", "\(unknown.text)")
            let notAnID = try await server.deviceSignatureGrant(challengeID: "nope", signature: "AAAA")
            #expect(notAnID.status == 401, "\(notAnID.text)")
            let missing = try await server.send(
                .POST, "/v1/token", json: ["grant_type": "device_signature", "challenge_id": unrelated.challengeId])
            #expect(missing.status == 400 && missing.errorBody?.field == "signature", "\(missing.text)")
            let noCredential = try await server.send(
                .POST, "/v1/device-credentials/\(UUID().uuidString)/challenges", body: nil)
            #expect(noCredential.status == 404)
            let badID = try await server.send(.POST, "/v1/device-credentials/not-a-uuid/challenges", body: nil)
            #expect(badID.status == 404)
        }
    }

    @Test(
        "B5 the 10-key limit holds under 16 concurrent binds: exactly 10 succeed, the rest are LIMIT_REACHED",
        arguments: TestDatabase.all)
    func B5_keyLimitUnderConcurrency(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let tokens = try await server.signUp()

            let statuses = try await withThrowingTaskGroup(of: (Int, String?).self) { group in
                for _ in 0..<16 {
                    group.addTask {
                        let bound = try await server.send(
                            .POST, "/v1/device-credentials", json: ["public_key": DeviceKey().publicKey],
                            bearer: tokens.accessToken)
                        return (Int(bound.status), bound.errorCode)
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }

            #expect(statuses.filter { $0.0 == 201 }.count == 10, "\(statuses)")
            #expect(statuses.filter { $0.0 != 201 }.allSatisfy { $0 == (409, "LIMIT_REACHED") }, "\(statuses)")
            let listed = try await server.send(.GET, "/v1/device-credentials", bearer: tokens.accessToken)
            #expect(try listed.decode([DeviceCredentialInfo].self).count == 10, "\(listed.text)")
        }
    }

    @Test(
        "B6 at most 5 live sign-in challenges per key: the 6th gets 429 with retry_after, and one frees when the oldest expires",
        arguments: TestDatabase.all)
    func B6_liveChallengesAreCapped(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let tokens = try await server.signUp()
            let key = DeviceKey()
            let id = try await server.bindDevice(key, bearer: tokens.accessToken)
            var issued: [SignatureChallengeInfo] = []
            for second in 0..<5 {
                issued.append(try await server.loginChallenge(for: id))
                if second < 4 { server.clock.advance(by: 10) }
            }

            let sixth = try await server.send(.POST, "/v1/device-credentials/\(id)/challenges", body: nil)
            #expect(sixth.status == 429 && sixth.errorCode == "RATE_LIMITED", "\(sixth.text)")
            #expect(sixth.errorBody?.retryAfter == 120 - 40, "until the oldest of the five expires: \(sixth.text)")

            // The capped key still signs in with a challenge it holds; using one frees its place.
            let newest = try #require(issued.last)
            let signedIn = try await server.deviceSignatureGrant(
                challengeID: newest.challengeId,
                signature: try key.signLogin(challengeID: newest.challengeId, challenge: newest.challenge))
            #expect(signedIn.status == 200, "\(signedIn.text)")
            #expect(try await server.send(.POST, "/v1/device-credentials/\(id)/challenges", body: nil).status == 201)
            #expect(try await server.send(.POST, "/v1/device-credentials/\(id)/challenges", body: nil).status == 429)

            server.clock.advance(by: 81) // the oldest expired
            #expect(try await server.send(.POST, "/v1/device-credentials/\(id)/challenges", body: nil).status == 201)
        }
    }

    @Test(
        "B6 a failed signature burns the challenge: the right signature afterwards is refused too",
        arguments: TestDatabase.all)
    func B6_failedSignatureBurnsChallenge(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let tokens = try await server.signUp()
            let key = DeviceKey()
            let id = try await server.bindDevice(key, bearer: tokens.accessToken)
            let challenge = try await server.loginChallenge(for: id)

            let wrong = try await server.deviceSignatureGrant(
                challengeID: challenge.challengeId,
                signature: try DeviceKey().signLogin(challengeID: challenge.challengeId, challenge: challenge.challenge)
            )
            let right = try await server.deviceSignatureGrant(
                challengeID: challenge.challengeId,
                signature: try key.signLogin(challengeID: challenge.challengeId, challenge: challenge.challenge))

            #expect(wrong.status == 401)
            #expect(right.status == 401 && right.errorCode == "AUTH_001", "\(right.text)")
            #expect(try await server.eventTypes(bearer: tokens.accessToken).contains("sign_in_failed"))
        }
    }

    @Test("B6 concurrent uses of one signed challenge give exactly one session", arguments: TestDatabase.all)
    func B6_concurrentReplayGivesOneSession(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let tokens = try await server.signUp()
            let key = DeviceKey()
            let id = try await server.bindDevice(key, bearer: tokens.accessToken)
            let challenge = try await server.loginChallenge(for: id)
            let signature = try key.signLogin(challengeID: challenge.challengeId, challenge: challenge.challenge)

            let statuses = try await withThrowingTaskGroup(of: UInt.self) { group in
                for _ in 0..<8 {
                    group.addTask {
                        try await server.deviceSignatureGrant(challengeID: challenge.challengeId, signature: signature)
                            .status
                    }
                }
                return try await group.reduce(into: [UInt]()) { $0.append($1) }
            }

            #expect(statuses.filter { $0 == 200 }.count == 1, "\(statuses)")
            #expect(statuses.filter { $0 == 401 }.count == 7, "\(statuses)")
        }
    }
}
