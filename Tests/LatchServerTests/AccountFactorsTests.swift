import FluentKit
import Foundation
import LatchCore
import LatchTestSupport
import SQLKit
import Testing

@testable import LatchServer

/// Issue 29 §2: a verification's hot read on direct statements. `AccountFactors` reads in one statement
/// what five reads gave before (the address, the fund password, an active TOTP, each with its provenance,
/// and the account's dates a held action is judged by); `DeviceCredentialStore.offered` reads a key's four
/// columns instead of the whole model.
@Suite("A verification's factors on direct statements (issue 29 §2)")
struct AccountFactorsTests {
    @Test(
        "29 §2 the account's factors in one statement: the address with the account, the fund password and an active TOTP each with when and by which session, a TOTP not active as none, no account as nil",
        arguments: TestDatabase.all)
    func test_29_2_accountFactorsInOneStatement(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let signedUp = try await server.signUp()
            let user = try #require(UUID(uuidString: signedUp.user.id))
            let session = try #require(UUID(uuidString: signedUp.sessionId))
            let db = server.app.db
            let created = server.clock.now.timeIntervalSince1970

            let fresh = try #require(try await server.app.latch.accounts.factors(of: user, on: db))
            #expect(fresh.email?.addedAt == fresh.createdAt)
            #expect(fresh.fundPassword == nil && fresh.totp == nil && fresh.holdLiftedAt == nil)
            #expect(fresh.registeringSession == session)
            #expect(abs(fresh.createdAt - created) < 5)

            server.clock.advance(by: 120)
            try await server.setFundPassword(bearer: signedUp.accessToken)
            _ = try await server.activateTOTP(bearer: signedUp.accessToken)
            let set = try #require(try await server.app.latch.accounts.factors(of: user, on: db))
            #expect(
                set.fundPassword
                    == FactorSeasoning.Provenance(addedAt: server.clock.now.timeIntervalSince1970, session: session))
            #expect(set.totp?.session == session && set.totp.map { $0.addedAt > fresh.createdAt } == true)
            #expect(set.provenance(of: .fundPassword) == set.fundPassword && set.provenance(of: .biometric) == nil)

            try await db.sql.raw("UPDATE totp_credentials SET active = \(bind: false)").run()
            #expect(
                try await server.app.latch.accounts.factors(of: user, on: db)?.totp == nil,
                "a TOTP not active is no factor")
            #expect(try await server.app.latch.accounts.factors(of: UUID(), on: db) == nil)
        }
    }

    @Test(
        "29 §2 the keys a verification offers, read as four columns: oldest first, with their provenance, attested only under App Attest",
        arguments: TestDatabase.all)
    func test_29_2_offeredDeviceKeys(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let signedUp = try await server.signUp()
            let user = try #require(UUID(uuidString: signedUp.user.id))
            let first = try await server.bindDevice(DeviceKey(), bearer: signedUp.accessToken)
            server.clock.advance(by: 60)
            let second = try await server.bindDevice(DeviceKey(), name: "iPad", bearer: signedUp.accessToken)
            let offered = try await server.app.latch.deviceCredentials.offered(of: user, on: server.app.db)
            #expect(offered.map { $0.id.uuidString.lowercased() } == [first, second])
            #expect(
                offered.allSatisfy {
                    !$0.attested && $0.provenance.session?.uuidString.lowercased() == signedUp.sessionId
                })
            #expect(offered[1].provenance.addedAt - offered[0].provenance.addedAt == 60)

            try await server.app.db.sql.raw(
                "UPDATE device_credentials SET app_attest_public_key = \(bind: "key") WHERE id = \(bind: offered[1].id)"
            ).run()
            let attested = try await server.app.latch.deviceCredentials.offered(of: user, on: server.app.db)
            #expect(attested.map(\.attested) == [false, true])
            #expect(try await server.app.latch.deviceCredentials.offered(of: UUID(), on: server.app.db).isEmpty)
        }
    }
}
