import Foundation
import LatchCore
import LatchServer
import LatchTestSupport
import NIOHTTP1
import Testing

/// Issue 12 §1: `GET /v1/me/export` answers everything held about the user as one JSON document, never a secret.
@Suite("Account data export (issue 12 §1)")
struct AccountExportTests {
    @Test(
        "test_12 the export holds the user, identities, sessions, device keys, known devices, factor status and security events",
        arguments: TestDatabase.all)
    func test_12_exportHoldsEverything(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let alice = try await server.signUp()
            _ = try await server.signInConfirmingNewDevice(device: [
                "id": "phone-2", "name": "Alice's Phone", "platform": "iOS"
            ])
            try await server.setFundPassword(bearer: alice.accessToken)
            let authenticator = try await server.activateTOTP(bearer: alice.accessToken)
            let credentialID = try await server.bindDevice(DeviceKey(), bearer: alice.accessToken)

            let answer = try await server.send(.GET, "/v1/me/export", bearer: alice.accessToken)

            #expect(answer.status == 200, "\(answer.text)")
            let export = try answer.decode(AccountExport.self)
            #expect(export.exportedAt == server.clock.now)
            #expect(export.user.id == alice.user.id && export.user.email == "alice@example.com")
            #expect(export.user.identities?.map(\.provider) == ["email"])
            #expect(export.securitySettings.verifyUnusualSignIns)
            #expect(export.sessions.count == 2)
            #expect(
                export.sessions.contains { $0.deviceName == "Alice's Phone" && $0.platform == "iOS" && !$0.current })
            #expect(export.sessions.contains { $0.id == alice.sessionId && $0.current })
            #expect(export.deviceCredentials.map(\.id) == [credentialID])
            // Two known devices, as keyed hashes (issue 20 §4: never the ids that skip the new-device check).
            #expect(Set(export.knownDevices.map(\.deviceId)).count == 2)
            #expect(!export.knownDevices.contains { ["test-device-0", "phone-2"].contains($0.deviceId) })
            #expect(
                export.factors
                    == AccountExport.Factors(
                        totp: true, fundPassword: true, biometric: true, recoveryCodesRemaining: 10))
            let types = export.securityEvents.map(\.type)
            for type in ["registered", "signed_in", "fund_password_set", "totp_activated", "device_bound"] {
                #expect(types.contains(type), "\(type) in \(types)")
            }

            // No secret in it: not the password, the fund password, the TOTP secret, a recovery code,
            // a hash or a token.
            let text = answer.text
            var secrets = [
                "Correct-Horse-9", VerificationSamples.fundPassword, alice.refreshToken, alice.accessToken, "$2b$",
                "$2a$", "sealed",
                "hash"
            ]
            secrets += authenticator.recoveryCodes
            secrets.append(Base32.encode(authenticator.secret))
            for secret in secrets {
                #expect(!text.contains(secret), "the export holds a secret: \(secret)")
            }
        }
    }

    @Test("test_12 the export needs a live session", arguments: TestDatabase.all)
    func test_12_exportNeedsSession(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let alice = try await server.signUp()
            #expect(try await server.send(.POST, "/v1/logout", bearer: alice.accessToken).status == 204)

            let answer = try await server.send(.GET, "/v1/me/export", bearer: alice.accessToken)

            #expect(answer.status == 401 && answer.errorCode == "AUTH_004")
        }
    }
}
