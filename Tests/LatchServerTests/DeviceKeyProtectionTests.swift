import FluentKit
import Foundation
import LatchCore
import LatchServer
import LatchTestSupport
import NIOHTTP1
import SQLKit
import Testing

/// Issue 11 §2, software key fallback: a device credential records what protects its key
/// (`secure_enclave` or `software`) when bound; the server lists it to the user, in the export and in
/// the admin view. Keys bound before (or by a client that does not say) are `unknown`.
@Suite("Device key protection (issue 11 §2)")
struct DeviceKeyProtectionTests {
    @Test(
        "11 the protection a bind declares is kept and listed; a bind that does not say is unknown",
        arguments: TestDatabase.all)
    func I11_protectionIsKeptAndListed(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let tokens = try await server.signUp()
            for (name, protection) in [("enclave", "secure_enclave"), ("software", "software")] {
                let bound = try await server.send(
                    .POST, "/v1/device-credentials",
                    json: [
                        "public_key": DeviceKey().publicKey, "device_name": name, "biometry": "face_id",
                        "protection": protection
                    ],
                    bearer: tokens.accessToken)
                #expect(bound.status == 201, "\(bound.text)")
            }
            _ = try await server.bindDevice(DeviceKey(), name: "older client", bearer: tokens.accessToken)

            let listed = try await server.send(.GET, "/v1/device-credentials", bearer: tokens.accessToken)

            let credentials = try listed.decode([DeviceCredentialInfo].self)
            let byName = Dictionary(uniqueKeysWithValues: credentials.map { ($0.deviceName ?? "", $0.protection) })
            #expect(byName == ["enclave": "secure_enclave", "software": "software", "older client": "unknown"])
        }
    }

    @Test(
        "11 a protection other than secure_enclave or software is refused naming protection",
        arguments: TestDatabase.all)
    func I11_unknownProtectionRefused(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let tokens = try await server.signUp()

            for protection in ["unknown", "hardware", "", "SOFTWARE"] {
                let refused = try await server.send(
                    .POST, "/v1/device-credentials",
                    json: ["public_key": DeviceKey().publicKey, "protection": protection],
                    bearer: tokens.accessToken)

                #expect(
                    refused.status == 422 && refused.errorCode == "VALIDATION_FAILED", "\(protection): \(refused.text)")
                #expect(refused.errorBody?.field == "protection", "\(protection)")
            }
            let listed = try await server.send(.GET, "/v1/device-credentials", bearer: tokens.accessToken)
            #expect(try listed.decode([DeviceCredentialInfo].self).isEmpty, "\(listed.text)")
        }
    }

    @Test(
        "11 rows written without the column (bound before the migration) read as unknown", arguments: TestDatabase.all)
    func I11_oldRowsAreUnknown(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let tokens = try await server.signUp()
            let key = DeviceKey()
            let id = UUID()
            try await (server.app.db as! any SQLDatabase).raw(
                """
                INSERT INTO device_credentials (id, user_id, public_key, device_name, biometry, created_at)
                VALUES (\(bind: id), \(bind: try #require(UUID(uuidString: tokens.user.id))), \(bind: key.publicKey), \(bind: "old phone"),
                        \(bind: "touch_id"), \(bind: server.clock.now.timeIntervalSince1970))
                """
            ).run()

            let listed = try await server.send(.GET, "/v1/device-credentials", bearer: tokens.accessToken)

            let credentials = try listed.decode([DeviceCredentialInfo].self)
            #expect(credentials.map(\.id) == [id.uuidString.lowercased()])
            #expect(credentials.first?.protection == DeviceKeyProtection.unknown.rawValue)
        }
    }

    @Test("11 the admin view shows each key's protection", arguments: TestDatabase.all)
    func I11_adminViewShowsProtection(database: TestDatabase) async throws {
        try await AdminTests.withAdminServer(database) { server in
            let tokens = try await server.signUp()
            let bound = try await server.send(
                .POST, "/v1/device-credentials", json: ["public_key": DeviceKey().publicKey, "protection": "software"],
                bearer: tokens.accessToken)
            try #require(bound.status == 201, "\(bound.text)")

            let detail = try await server.send(.GET, "/v1/admin/users/\(tokens.user.id)", bearer: AdminTests.adminKey)

            try #require(detail.status == 200, "\(detail.text)")
            let credentials = try detail.decode(AdminUserDetail.self).deviceCredentials
            #expect(credentials.map(\.protection) == ["software"], "\(detail.text)")
        }
    }
}
