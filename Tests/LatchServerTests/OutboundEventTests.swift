import FluentKit
import Foundation
import LatchCore
import LatchTestSupport
import NIOHTTP1
import SQLKit
import Testing

@testable import LatchServer

/// Issue 42 §1: one event model, written from the change's own transaction.
@Suite("Outbound events (issue 42 §1)")
struct OutboundEventTests {
    static let store = OutboundEventStore()

    static func events(of server: TestServer, user: UUID? = nil) async throws -> [OutboundEventStore.Stored] {
        try await store.events(user: user, limit: 1_000, on: server.app.db)
    }

    static func data(_ event: OutboundEventStore.Stored) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(event.data.utf8)) as? [String: Any])
    }

    @Test(
        "42 §1 the closed world: every security-log kind is emitted as a type or declared internal with a reason, and every type is emitted by some kind"
    )
    func test_42_1_closedWorld() {
        var emitted = Set<OutboundEvent.Kind>()
        for kind in SecurityEventKind.allCases {
            switch kind.outbound {
            case .emitted(let type): emitted.insert(type)
            case .internal(let reason): #expect(reason.count >= 20, "\(kind) is internal without a reason")
            }
        }
        // `ssf.verification` is a stream's own (SSF 1.0 §8.1.4), written by POST /ssf/verify, not by a change.
        let changeTypes = Set(OutboundEvent.Kind.allCases).subtracting([.ssfVerification])
        #expect(emitted == changeTypes, "types no kind emits: \(changeTypes.subtracting(emitted))")
        // Every security change's recipe records a kind, and that kind reaches the backend.
        for change in SecurityChange.Kind.allCases {
            let kind = SecurityChange.recipe(change).event
            guard case .emitted = kind.outbound else {
                Issue.record("the security change \(change) records \(kind), which is internal")
                continue
            }
        }
    }

    @Test(
        "42 §1 a change that rolls back emits nothing; a committed one emits, with one transaction id for all its events",
        arguments: TestDatabase.all)
    func test_42_1_sameTransaction(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let tokens = try await server.signUp()
            let user = try #require(UUID(uuidString: tokens.user.id))
            let before = try await Self.events(of: server).count
            struct Rollback: Error {}
            let events = server.app.latch.events
            await #expect(throws: Rollback.self) {
                try await server.app.db.tracedTransaction { database in
                    try await events.record(.accountFrozen, user: user, ip: nil, now: 1, actor: "owner", on: database)
                    throw Rollback()
                }
            }
            #expect(try await Self.events(of: server).count == before, "the rolled-back freeze emitted nothing")

            try await server.app.db.tracedTransaction { database in
                try await events.record(.accountFrozen, user: user, ip: nil, now: 2, actor: "owner", on: database)
                try await events.record(.securityReset, user: user, ip: nil, now: 2, detail: "sessions=2", on: database)
            }
            let committed = try await Self.events(of: server).suffix(2)
            #expect(committed.map(\.type) == ["account.frozen", "session.revoked"], "\(committed)")
            #expect(
                Set(committed.map(\.transaction)).count == 1 && committed.first?.transaction.hasPrefix("txn_") == true)
            #expect(committed.allSatisfy { $0.id.hasPrefix("evt_") && $0.id.count == 36 && $0.user == user })
            #expect(try Self.data(committed.last!)["ended"] as? [String: Int] == ["sessions": 2])
            #expect(committed.first?.actor == "user")
        }
    }

    @Test(
        "42 §1 a password change emits credential.changed, session.revoked (the reset) and hold.started, in one transaction, by the user's session",
        arguments: TestDatabase.all)
    func test_42_1_passwordChange(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let first = try await server.signUp()
            server.clock.advance(by: 24 * 3600 + 60)
            let tokens = try await server.signIn().decode(TokenResponse.self)
            let user = try #require(UUID(uuidString: tokens.user.id))
            let before = try await Self.events(of: server).map(\.type)
            #expect(before == ["account.registered", "session.established"], "\(before)")
            _ = first
            // 42 §1: session.established (and account.registered) say how the session was started.
            let methods = try await Self.events(of: server).map { try Self.data($0)["method"] as? String }
            #expect(methods == ["password", "password"], "\(methods)")

            let changed = try await server.send(
                .POST, "/v1/password/change",
                json: ["current_password": "Correct-Horse-9", "new_password": "Another-Horse-7"],
                bearer: tokens.accessToken)
            #expect(changed.status == 204, "\(changed.text)")
            let change = try await Self.events(of: server).dropFirst(before.count)
            #expect(Set(change.map(\.type)) == ["credential.changed", "session.revoked", "hold.started"], "\(change)")
            #expect(Set(change.map(\.transaction)).count == 1, "one change, one transaction: \(change)")
            let credential = try #require(change.first { $0.type == "credential.changed" })
            #expect(try Self.data(credential) as? [String: String] == ["credential": "password", "change": "changed"])
            #expect(credential.actor == "user" && credential.session != nil && credential.user == user)
            let revoked = try Self.data(try #require(change.first { $0.type == "session.revoked" }))
            #expect(revoked["scope"] as? String == "others" && revoked["reason"] as? String == "reset", "\(revoked)")
            let hold = try #require(change.first { $0.type == "hold.started" })
            let holdData = try Self.data(hold)
            #expect(
                holdData["reason"] as? String == "password_changed"
                    && holdData["actions"] as? [String] == ["withdrawal"])
            #expect((holdData["until"] as? Int ?? 0) > Int(server.clock.now.timeIntervalSince1970))
        }
    }

    @Test(
        "42 §1 verification.redeemed names the action, factors and amr, and the parameters only by their hash; a refusal during a new-value lock emits nothing more",
        arguments: TestDatabase.all)
    func test_42_1_verificationRedeemed(database: TestDatabase) async throws {
        let policy =
            #"{"actions": {"payout": {"kinds": ["fund_password"], "new_value_lock": {"parameter": "address", "duration": "60s"}}}}"#
        try await withServer(
            database, adjust: { $0.verificationPolicy = try! VerificationPolicy(json: Data(policy.utf8)) }
        ) { server in
            let tokens = try await server.signUp()
            try await server.setFundPassword(bearer: tokens.accessToken)
            let token = try await server.verificationToken(bearer: tokens.accessToken)
            #expect(try await server.redeem(token, bearer: tokens.accessToken).status == 200)
            let redeemed = try #require(try await Self.events(of: server).last)
            #expect(redeemed.type == "verification.redeemed")
            let data = try Self.data(redeemed)
            #expect(data["action"] as? String == "withdrawal" && data["factors"] as? [String] == ["fund_password"])
            #expect(data["amr"] as? [String] == ["pin"])
            #expect(data["parameters_hash"] as? String == CanonicalParameters.digest(VerificationSamples.withdrawal))
            for value in VerificationSamples.withdrawal.values {
                #expect(!redeemed.data.contains(value), "\(redeemed.data)")
            }

            let address = ["address": "TPlantedAddress9"]
            #expect(
                try await server.startVerification("payout", parameters: address, bearer: tokens.accessToken).status
                    == 403)
            #expect(
                try await server.startVerification("payout", parameters: address, bearer: tokens.accessToken).status
                    == 403)
            let locks = try await Self.events(of: server).filter { $0.type == "new_value.locked" }
            #expect(locks.count == 1, "the lock is one event, not one per refused request")
            let lock = try Self.data(try #require(locks.first))
            #expect(
                lock["action"] as? String == "payout"
                    && lock["value_hash"] as? String == SecretBox.hash("TPlantedAddress9"))
            #expect(!(locks.first?.data.contains("TPlantedAddress9") ?? true))
        }
    }

    @Test("42 §1 no payload carries an email, phone, code, token, password or secret", arguments: TestDatabase.all)
    func test_42_1_payloadsFreeOfSecrets(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let tokens = try await server.signUp()
            try await server.setFundPassword(bearer: tokens.accessToken)
            let authenticator = try await server.activateTOTP(bearer: tokens.accessToken)
            let proof = try await server.verificationToken(bearer: tokens.accessToken)
            #expect(try await server.redeem(proof, bearer: tokens.accessToken).status == 200)
            #expect(try await server.refresh(tokens.refreshToken).status == 200)
            server.clock.advance(by: RefreshTokenRotation.graceWindow + 1)
            #expect(try await server.refresh(tokens.refreshToken).status == 401, "reuse of a rotated refresh token")
            server.clock.advance(by: 31)
            #expect(try await server.signIn(password: "Wrong-Horse-1").status >= 400)
            let events = try await Self.events(of: server)
            #expect(events.map(\.type).contains("refresh_token.reused"), "\(events.map(\.type))")
            let secrets =
                [
                    "alice@example.com", "Correct-Horse-9", VerificationSamples.fundPassword, tokens.accessToken,
                    tokens.refreshToken, proof, Base32.encode(authenticator.secret)
                ] + authenticator.recoveryCodes + (await server.mails().compactMap(\.code))
            for event in events {
                let row = "\(event.type) \(event.data) \(event.actor) \(event.transaction)"
                for secret in secrets where !secret.isEmpty {
                    #expect(!row.contains(secret), "\(event.type) carries a secret: \(event.data)")
                }
            }
        }
    }

    @Test(
        "42 §1 events are kept six days (three of retries, as long again to replay), then deleted in batches",
        arguments: TestDatabase.all)
    func test_42_1_retention(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let tokens = try await server.signUp()
            let user = try #require(UUID(uuidString: tokens.user.id))
            let now = server.clock.now.timeIntervalSince1970
            let events = server.app.latch.events
            try await events.record(
                .accountFrozen, user: user, ip: nil, now: now - OutboundEventStore.retention - 1, on: server.app.db)
            try await events.record(
                .accountUnfrozen, user: user, ip: nil, now: now - OutboundEventStore.retention + 60, on: server.app.db)
            #expect(try await Self.store.prune(now: now, on: server.app.db) == 1)
            let types = try await Self.events(of: server).map(\.type)
            #expect(types == ["account.registered", "account.unfrozen"], "\(types)")
        }
    }
}
