import FluentKit
import Foundation
import LatchCore
import LatchTestSupport
import NIOCore
import NIOHTTP1
import SQLKit
import Testing

@testable import LatchServer

/// Issue 19 §1: one security reset ends every way into the account that existed before it — for the
/// password reset by email code, a freeze, and an operator's disable and sign-out — and the next
/// forgotten table cannot silently survive it.
@Suite("Security reset (issue 19 §1)")
struct SecurityResetTests {
    static let alice = "alice@example.com"
    static let newPassword = "Another-Horse-7"
    static let eve = ["id": "eve-phone-1", "name": "Eve's phone"]

    @Test(
        "19 §1 every table holding a user id is ended by the reset or kept with a reason (schema listed from the database)",
        arguments: TestDatabase.all)
    func test_19_1_everyUserTableIsEndedOrKept(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let sql = server.app.db as! any SQLDatabase
            let tables = try await Self.tablesHoldingAUserID(sql, database: database)
            let ended = SecurityReset.endedTables
            let kept = Set(SecurityReset.keptTables.keys)

            #expect(tables.count >= 15, "the schema query found the tables: \(tables.sorted())")
            for table in tables.sorted() {
                #expect(
                    ended.contains(table) || kept.contains(table),
                    "\(table) holds a user id but the security reset neither ends it nor keeps it for a written reason")
            }
            #expect(ended.isDisjoint(with: kept), "a table is either ended or kept: \(ended.intersection(kept))")
            for table in ended.union(kept) {
                #expect(tables.contains(table), "\(table) is listed but holds no user id (or does not exist)")
            }
            for (table, reason) in SecurityReset.keptTables {
                #expect(reason.count >= 20, "\(table) is kept with a real reason")
            }
        }
    }

    /// The tables with a column named `user_id` or `…_user_id`, or a foreign key to `users`, read from the
    /// database's own catalogue.
    static func tablesHoldingAUserID(_ sql: any SQLDatabase, database: TestDatabase) async throws -> Set<String> {
        var tables: Set<String> = []
        switch database {
        case .sqlite:
            let names = try await sql.raw(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name <> '_fluent_migrations'"
            ).all().map { try $0.decode(column: "name", as: String.self) }
            for table in names {
                let columns = try await sql.raw("SELECT name FROM pragma_table_info(\(bind: table))").all()
                    .map { try $0.decode(column: "name", as: String.self) }
                let references = try await sql.raw(
                    "SELECT \"table\" AS target FROM pragma_foreign_key_list(\(bind: table))"
                )
                .all().map { try $0.decode(column: "target", as: String.self) }
                if columns.contains(where: Self.namesAUser) || references.contains("users") || table == "users" {
                    tables.insert(table)
                }
            }
        case .postgres:
            let columns = try await sql.raw(
                """
                SELECT table_name, column_name FROM information_schema.columns
                WHERE table_schema = current_schema() AND table_name <> '_fluent_migrations'
                """
            ).all()
            for row in columns {
                let table = try row.decode(column: "table_name", as: String.self)
                if Self.namesAUser(try row.decode(column: "column_name", as: String.self)) || table == "users" {
                    tables.insert(table)
                }
            }
            let references = try await sql.raw(
                """
                SELECT DISTINCT tc.table_name FROM information_schema.table_constraints tc
                JOIN information_schema.constraint_column_usage cu ON cu.constraint_name = tc.constraint_name
                  AND cu.constraint_schema = tc.constraint_schema
                WHERE tc.constraint_type = 'FOREIGN KEY' AND tc.table_schema = current_schema() AND cu.table_name = 'users'
                """
            ).all()
            for row in references { tables.insert(try row.decode(column: "table_name", as: String.self)) }
        }
        return tables
    }

    private static func namesAUser(_ column: String) -> Bool { column == "user_id" || column.hasSuffix("_user_id") }

    @Test(
        "19 §1 the thief's story: a recent session adds a passkey and binds a device key; the owner resets by email code; the passkey, the device key, the old refresh token and the withdrawal proof are all refused",
        arguments: TestDatabase.all)
    func test_19_1_thiefStory(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let owner = try await server.signUp()
            try await server.setFundPassword(bearer: owner.accessToken)
            // The thief phished the password and the mailed code: a fresh session on his own phone.
            let thief = try await server.signInConfirmingNewDevice(device: Self.eve)
            var passkey = SoftwareAuthenticator()
            _ = try await server.registerPasskey(&passkey, name: "Eve's key", bearer: thief.accessToken)
            let deviceKey = DeviceKey()
            let credentialID = try await server.bindDevice(deviceKey, name: "Eve's phone", bearer: thief.accessToken)
            let heldChallenge = try await server.loginChallenge(for: credentialID)
            // His additions hold withdrawals even on a day-old account (issue 28 §2); a proof for an action
            // that is not held still works until the reset.
            let withdrawal = try await server.verificationToken(
                "internal_transfer", parameters: VerificationSamples.withdrawal, bearer: thief.accessToken)
            // Before the reset, each of them works.
            let byPasskeyBefore = try await server.passkeySignIn(&passkey, device: DeviceInfo(id: Self.eve["id"]))
            #expect(byPasskeyBefore.status == 200, "\(byPasskeyBefore.text)")

            let reset = try await server.resetPassword(to: Self.newPassword)

            #expect(reset.status == 204, "\(reset.text)")
            let byPasskey = try await server.passkeySignIn(&passkey, device: DeviceInfo(id: Self.eve["id"]))
            #expect(byPasskey.status == 401, "the thief's passkey no longer signs in: \(byPasskey.text)")
            let byKey = try await server.deviceSignatureGrant(
                challengeID: heldChallenge.challengeId,
                signature: try deviceKey.signLogin(
                    challengeID: heldChallenge.challengeId, challenge: heldChallenge.challenge))
            #expect(byKey.status == 401 && byKey.errorCode == "AUTH_001", "\(byKey.text)")
            let newChallenge = try await server.send(
                .POST, "/v1/device-credentials/\(credentialID)/challenges", body: nil)
            #expect(newChallenge.status == 404, "the device key is gone: \(newChallenge.text)")
            let refreshed = try await server.refresh(thief.refreshToken)
            #expect(refreshed.status == 401 && refreshed.errorCode == "AUTH_004", "\(refreshed.text)")
            let back = try await server.signInConfirmingNewDevice(
                password: Self.newPassword, device: TestServer.testDevice)
            let redeemed = try await server.redeem(withdrawal, action: "internal_transfer", bearer: back.accessToken)
            #expect(redeemed.status == 403 && redeemed.errorCode == "VERIFICATION_INVALID", "\(redeemed.text)")
            // The reset mail says what was ended: the owner's and the thief's two sessions (and the
            // passkey session's), the key, the passkey and the proof.
            let mail = try #require(await server.mails().last { $0.subject == "Your Latch password was reset" })
            #expect(
                mail.body.contains("Ended: 3 sessions, 1 device keys, 1 passkeys, 1 unused verification proofs"),
                "\(mail.body)")
            let events = try await server.send(.GET, "/v1/security-events", bearer: back.accessToken).securityEvents
            let resetEvent = try #require(events.first { $0.type == "security_reset" })
            #expect(
                resetEvent.detail == "sessions=3 device_keys=1 passkeys=1 verification_tokens=1",
                "\(resetEvent)")
        }
    }

    @Test(
        "19 §1 after a reset no row of an ended table still opens a door (each ended table checked by its own live-row query)",
        arguments: TestDatabase.all)
    func test_19_1_noEndedTableKeepsALiveRow(database: TestDatabase) async throws {
        try await withServer(database, adjust: { $0.verificationPolicy = SecurityNoticeTransactionTests.lockPolicy }) {
            server in
            let owner = try await server.signUp()
            let userID = owner.user.id
            try await server.setFundPassword(bearer: owner.accessToken)
            var passkey = SoftwareAuthenticator()
            _ = try await server.registerPasskey(&passkey, bearer: owner.accessToken)
            _ = try await server.bindDevice(DeviceKey(), bearer: owner.accessToken)
            _ = try await server.verificationToken(bearer: owner.accessToken)
            _ = try await server.startedVerification(bearer: owner.accessToken)
            _ = try await server.passkeyRegistrationOptions(bearer: owner.accessToken)
            _ = try await server.send(.POST, "/v1/app-attest/challenges", body: nil, bearer: owner.accessToken)
            _ = try await server.send(.POST, "/v1/mfa/totp", body: nil, bearer: owner.accessToken)
            _ = try await server.signIn(device: ["id": "another-device"]) // a pending login challenge
            // A sign-in the phone approved that the web has not collected yet (issue 43 §1).
            let approval = try await ApprovalSignInTests.create(server)
            let approvalProof = try await ApprovalSignInTests.proof(server, approval, bearer: owner.accessToken)
            let approved = try await ApprovalSignInTests.decide(
                server, approval, "approve", number: approval.number, token: approvalProof, bearer: owner.accessToken)
            try #require(approved.status == 200, "approve: \(approved.text)")
            // A verification waiting for the phone (issue 43 §2).
            let asked = try await server.send(
                .POST, "/v1/verifications",
                json: [
                    "action": "withdrawal", "parameters": VerificationSamples.withdrawal, "approve_on": "device"
                ] as [String: Any], bearer: owner.accessToken)
            try #require(asked.status == 201, "approve on device: \(asked.text)")
            // A new address time-locked (issue 30 §1).
            _ = try await server.startVerification(
                "payout", parameters: ["address": "TThief"], bearer: owner.accessToken)
            let sql = server.app.db as! any SQLDatabase
            let now = server.clock.now.timeIntervalSince1970
            let liveRows = Self.liveRowQueries(user: userID, now: now)
            #expect(Set(liveRows.keys) == SecurityReset.endedTables, "every ended table has its live-row query here")
            for (table, query) in liveRows {
                #expect(try await sql.raw(query).all().count > 0, "the setup left a live row in \(table)")
            }

            let ended = try await SecurityReset.run(
                .everything, user: try #require(UUID(uuidString: userID)), now: now,
                revocation: server.app.latch.revocation, on: server.app.db)

            for (table, query) in liveRows.sorted(by: { $0.key < $1.key }) {
                #expect(try await sql.raw(query).all().isEmpty, "\(table) keeps a live row after the reset")
            }
            #expect(
                ended.sessions == 1 && ended.deviceKeys == 1 && ended.passkeys == 1 && ended.verificationTokens == 1)
        }
    }

    /// For each table the reset ends: the rows of `user` that would still open a door.
    static func liveRowQueries(user: String, now: Double) -> [String: SQLQueryString] {
        let id = UUID(uuidString: user)!
        return [
            "sessions": "SELECT id FROM sessions WHERE user_id = \(bind: id) AND revoked_at IS NULL",
            "device_credentials": "SELECT id FROM device_credentials WHERE user_id = \(bind: id)",
            "passkeys": "SELECT id FROM passkeys WHERE user_id = \(bind: id)",
            "passkey_challenges":
                "SELECT id FROM passkey_challenges WHERE user_id = \(bind: id) AND used_at IS NULL AND expires_at > \(bind: now)",
            "app_attest_challenges":
                "SELECT id FROM app_attest_challenges WHERE user_id = \(bind: id) AND used_at IS NULL AND expires_at > \(bind: now)",
            "known_devices": "SELECT id FROM known_devices WHERE user_id = \(bind: id)",
            "login_challenges":
                "SELECT id FROM login_challenges WHERE user_id = \(bind: id) AND used_at IS NULL AND expires_at > \(bind: now)",
            "verifications":
                "SELECT id FROM verifications WHERE user_id = \(bind: id) AND completed_at IS NULL AND expires_at > \(bind: now)",
            "verification_tokens":
                "SELECT token_hash FROM verification_tokens WHERE user_id = \(bind: id) AND redeemed_at IS NULL AND expires_at > \(bind: now)",
            "totp_credentials":
                "SELECT user_id FROM totp_credentials WHERE user_id = \(bind: id) AND active = \(bind: false)",
            "policy_value_locks":
                "SELECT value_hash FROM policy_value_locks WHERE user_id = \(bind: id) AND locked_until > \(bind: now)",
            "approvals": "SELECT id FROM approvals WHERE user_id = \(bind: id) AND state = \(bind: "approved")",
            "push_approvals":
                "SELECT id FROM push_approvals WHERE user_id = \(bind: id) AND (state = \(bind: "pending") OR sealed_token IS NOT NULL)"
        ]
    }

    @Test(
        "19 §1 a password change ends the other devices' passkeys (recorded by the registering session) and keeps this device's",
        arguments: TestDatabase.all)
    func test_19_1_changeEndsOtherDevicesPasskeys(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let owner = try await server.signUp()
            var ownerKey = SoftwareAuthenticator()
            let ownPasskey = try await server.registerPasskey(&ownerKey, name: "Mine", bearer: owner.accessToken)
            let thief = try await server.signInConfirmingNewDevice(device: Self.eve)
            var thiefKey = SoftwareAuthenticator()
            _ = try await server.registerPasskey(&thiefKey, name: "Eve's", bearer: thief.accessToken)

            let changed = try await server.send(
                .POST, "/v1/password/change",
                json: ["current_password": "Correct-Horse-9", "new_password": Self.newPassword],
                bearer: owner.accessToken)

            #expect(changed.status == 204, "\(changed.text)")
            let left = try await server.send(.GET, "/v1/passkeys", bearer: owner.accessToken).decode([PasskeyInfo].self)
            #expect(left.map(\.id) == [ownPasskey.id], "\(left)")
            let byThiefKey = try await server.passkeySignIn(&thiefKey)
            #expect(byThiefKey.status == 401, "\(byThiefKey.text)")
            #expect(try await server.send(.GET, "/v1/me", bearer: thief.accessToken).errorCode == "AUTH_004")
        }
    }

    @Test(
        "19 §1 redemption refuses a proof of a disabled account and one of an ended session; an operator's disable and sign-out run the reset",
        arguments: TestDatabase.all)
    func test_19_1_redeemRefusesDisabledAndEndedSessions(database: TestDatabase) async throws {
        let serviceKey = String(repeating: "s", count: 40)
        try await withServer(
            database,
            adjust: {
                $0.serviceKeys = [serviceKey]; $0.adminKeys = [AdminTests.adminKey]
            }
        ) {
            server in
            let owner = try await server.signUp()
            try await server.setFundPassword(bearer: owner.accessToken)
            let other = try await server.signIn().decode(TokenResponse.self)
            // A proof of a session that the owner then signs out.
            let ofEndedSession = try await server.verificationToken(bearer: other.accessToken)
            #expect(
                try await server.send(.DELETE, "/v1/sessions/\(other.sessionId)", bearer: owner.accessToken).status
                    == 204)
            let byService = try await server.redeem(ofEndedSession, bearer: serviceKey)
            #expect(
                byService.status == 403 && byService.errorCode == "VERIFICATION_INVALID",
                "a proof of an ended session: \(byService.text)")

            let proof = try await server.verificationToken(bearer: owner.accessToken)
            let credential = try await server.bindDevice(DeviceKey(), bearer: owner.accessToken)
            let disabled = try await server.send(
                .POST, "/v1/admin/users/\(owner.user.id)/disable", bearer: AdminTests.adminKey)
            #expect(disabled.status == 204)
            let afterDisable = try await server.redeem(proof, bearer: serviceKey)
            #expect(
                afterDisable.status == 403 && afterDisable.errorCode == "VERIFICATION_INVALID",
                "a proof of a disabled account: \(afterDisable.text)")
            let challenge = try await server.send(.POST, "/v1/device-credentials/\(credential)/challenges", body: nil)
            #expect(challenge.status == 404, "the disable ended the device key: \(challenge.text)")

            #expect(
                try await server.send(.POST, "/v1/admin/users/\(owner.user.id)/enable", bearer: AdminTests.adminKey)
                    .status == 204)
            let again = try await server.signInConfirmingNewDevice(device: TestServer.testDevice)
            let key = try await server.bindDevice(DeviceKey(), bearer: again.accessToken)
            #expect(
                try await server.send(.POST, "/v1/admin/users/\(owner.user.id)/sign-out", bearer: AdminTests.adminKey)
                    .status == 204)
            let afterSignOut = try await server.send(.POST, "/v1/device-credentials/\(key)/challenges", body: nil)
            #expect(afterSignOut.status == 404, "sign-out everywhere ended the device key: \(afterSignOut.text)")
            let events =
                try await server.send(.GET, "/v1/admin/users/\(owner.user.id)", bearer: AdminTests.adminKey)
                .decode(AdminUserDetail.self).securityEvents
            #expect(events.filter { $0.type == "security_reset" && $0.actor == "operator" }.count == 2, "\(events)")
        }
    }
}
