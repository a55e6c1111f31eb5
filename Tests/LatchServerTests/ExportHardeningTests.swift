import FluentKit
import Foundation
import LatchCore
import LatchTestSupport
import NIOHTTP1
import SQLKit
import Testing

@testable import LatchServer

/// Issue 20 §4: the export hands out nothing that opens a door. Known-device ids are stored as keyed
/// hashes and never exported raw, and the export needs a recent sign-in or a verification.
@Suite("Export hands out no door (issue 20 §4)")
struct ExportHardeningTests {
    @Test(
        "review_4 known devices are stored and exported as keyed hashes: the exported value does not pass the new-device check",
        arguments: TestDatabase.all)
    func test_20_4_knownDevicesAreNeverExportedRaw(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let alice = try await server.signUp()
            _ = try await server.signInConfirmingNewDevice(device: ["id": "phone-2"])

            let answer = try await server.send(.GET, "/v1/me/export", bearer: alice.accessToken)
            try #require(answer.status == 200, "\(answer.text)")
            let exported = try answer.decode(AccountExport.self).knownDevices.map(\.deviceId)
            let stored = try await KnownDevice.query(on: server.app.db).all().map(\.deviceID)

            #expect(exported.count == 2 && Set(exported) == Set(stored))
            for raw in ["test-device-0", "phone-2"] {
                #expect(!answer.text.contains(raw), "the raw id \(raw) is not in the export")
                #expect(!stored.contains(raw), "nor in the table")
            }
            #expect(stored.allSatisfy { $0.count == 64 && $0.allSatisfy(\.isHexDigit) })

            // The attack: sign in from "a known device" using what the export shows. Screened as new.
            let withExportedID = try await server.signIn(device: ["id": try #require(exported.first)])
            #expect(withExportedID.status == 403 && withExportedID.errorCode == "VERIFICATION_REQUIRED")
            // The real devices still pass unchecked.
            #expect(try await server.signIn(device: ["id": "phone-2"]).status == 200)
            #expect(try await server.signIn(device: ["id": "test-device-0"]).status == 200)
        }
    }

    @Test(
        "review_4 the migration hashes the known devices stored before it, and they stay known",
        arguments: TestDatabase.all)
    func test_20_4_migrationHashesStoredDeviceIDs(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let alice = try await server.signUp()
            let userID = try #require(UUID(uuidString: alice.user.id))
            // A row as the previous release wrote it: the raw id.
            try await server.app.db.sql.raw("DELETE FROM known_devices").run()
            try await server.app.db.sql.raw(
                """
                INSERT INTO known_devices (id, user_id, device_id, first_seen_at)
                VALUES (\(bind: UUID()), \(bind: userID), 'old-laptop', 1)
                """
            ).run()

            try await HashKnownDeviceIDs(secrets: server.app.latch.secrets).prepare(on: server.app.db)

            let stored = try await KnownDevice.query(on: server.app.db).all().map(\.deviceID)
            #expect(stored == [KnownDevice.storedID(of: "old-laptop", user: userID, secrets: server.app.latch.secrets)])
            #expect(try await server.signIn(device: ["id": "old-laptop"]).status == 200, "still a known device")
            #expect(try await server.signIn(device: ["id": "test-device-0"]).status == 403, "no longer known")
        }
    }

    @Test(
        "review_4 the export needs a sign-in within 10 minutes or a verification token for export_account, spent once",
        arguments: TestDatabase.all)
    func test_20_4_exportNeedsRecentSignInOrVerification(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let alice = try await server.signUp()
            try await server.setFundPassword(bearer: alice.accessToken)
            server.clock.advance(by: 11 * 60)

            let stale = try await server.send(.GET, "/v1/me/export", bearer: alice.accessToken)
            let otherAction = try await server.verificationToken(
                "delete_account", parameters: [:], bearer: alice.accessToken)
            let wrongToken = try await server.send(
                .GET, "/v1/me/export?verification_token=\(otherAction)", bearer: alice.accessToken)
            let token = try await server.verificationToken("export_account", parameters: [:], bearer: alice.accessToken)
            let verified = try await server.send(
                .GET, "/v1/me/export?verification_token=\(token)", bearer: alice.accessToken)
            let replayed = try await server.send(
                .GET, "/v1/me/export?verification_token=\(token)", bearer: alice.accessToken)

            #expect(stale.status == 403 && stale.errorCode == "VERIFICATION_REQUIRED", "\(stale.text)")
            #expect(stale.errorBody?.field == "verification_token")
            #expect(wrongToken.status == 403 && wrongToken.errorCode == "VERIFICATION_INVALID", "\(wrongToken.text)")
            #expect(verified.status == 200, "\(verified.text)")
            #expect(
                replayed.status == 409 && replayed.errorCode == "CONFLICT", "a token is spent once: \(replayed.text)")
            // A fresh sign-in is enough again.
            let fresh = try await server.signIn()
            let freshTokens = try fresh.decode(TokenResponse.self)
            #expect(try await server.send(.GET, "/v1/me/export", bearer: freshTokens.accessToken).status == 200)
        }
    }
}
