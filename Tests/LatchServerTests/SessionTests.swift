import FluentKit
import FluentPostgresDriver
import Foundation
import LatchCore
import LatchServer
import LatchTestSupport
import NIOCore
import NIOHTTP1
import Testing

/// C8 multi-device sessions and C9 sign-out through the real HTTP stack, on one instance and on
/// two instances sharing a database; and the signed-in user's profile.
@Suite("Sessions (C8, C9)")
struct SessionTests {
    static let phone = ["name": "Alice's iPhone", "model": "iPhone16,1", "platform": "iOS"]
    static let laptop = ["name": "Alice's MacBook", "model": "Mac15,3", "platform": "macOS"]

    @Test(
        "C8 the list shows each device with its details and marks exactly the asking one current",
        arguments: TestDatabase.all)
    func C8_listShowsDevicesAndCurrent(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let start = server.clock.now
            try await server.signUp()
            server.clock.advance(by: 60)
            let phone = try await server.signInConfirmingNewDevice(device: Self.phone)
            server.clock.advance(by: 60)
            let laptop = try await server.signInConfirmingNewDevice(device: Self.laptop)

            let listed = try await server.send(.GET, "/v1/sessions", bearer: phone.accessToken)

            #expect(listed.status == 200, "\(listed.text)")
            let sessions = try listed.decode([SessionInfo].self)
            #expect(sessions.count == 3)
            let current = sessions.filter(\.current)
            #expect(current.count == 1)
            #expect(current.first?.id == phone.sessionId)
            #expect(sessions.filter { !$0.current }.count == 2)
            let phoneEntry = try #require(sessions.first { $0.id == phone.sessionId })
            #expect(phoneEntry.deviceName == "Alice's iPhone")
            #expect(phoneEntry.deviceModel == "iPhone16,1")
            #expect(phoneEntry.platform == "iOS")
            #expect(phoneEntry.ip == "127.0.0.1")
            #expect(phoneEntry.createdAt == start.addingTimeInterval(60))
            #expect(phoneEntry.lastActiveAt >= phoneEntry.createdAt)
            let laptopEntry = try #require(sessions.first { $0.id == laptop.sessionId })
            #expect(
                laptopEntry.deviceName == "Alice's MacBook" && laptopEntry.platform == "macOS")
            #expect(laptopEntry.createdAt == start.addingTimeInterval(120))
            #expect(laptopEntry.lastActiveAt == start.addingTimeInterval(120))
        }
    }

    @Test("C8 signing out another device ends its access and refresh tokens at once", arguments: TestDatabase.all)
    func C8_revokeOneDeviceEndsItAtOnce(database: TestDatabase) async throws {
        try await withServer(database) { server in
            try await server.signUp()
            let phone = try await server.signInConfirmingNewDevice(device: Self.phone)
            let laptop = try await server.signInConfirmingNewDevice(device: Self.laptop)
            #expect(try await server.send(.GET, "/v1/me", bearer: laptop.accessToken).status == 200)

            let revoked = try await server.send(.DELETE, "/v1/sessions/\(laptop.sessionId)", bearer: phone.accessToken)

            #expect(revoked.status == 204, "\(revoked.text)")
            let access = try await server.send(.GET, "/v1/me", bearer: laptop.accessToken)
            #expect(access.status == 401 && access.errorCode == "AUTH_004")
            let refresh = try await server.refresh(laptop.refreshToken)
            #expect(refresh.status == 401 && refresh.errorCode == "AUTH_004")
            #expect(try await server.send(.GET, "/v1/me", bearer: phone.accessToken).status == 200)
            let listed = try await server.send(.GET, "/v1/sessions", bearer: phone.accessToken).decode(
                [SessionInfo].self)
            #expect(!listed.contains { $0.id == laptop.sessionId })
        }
    }

    @Test(
        "C8 signing out an unknown session or another user's session is 404 and changes nothing",
        arguments: TestDatabase.all)
    func C8_revokeUnknownOrForeignSessionIsNotFound(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let alice = try await server.signUp("alice@example.com")
            let bob = try await server.signUp("bob@example.com")

            let unknown = try await server.send(
                .DELETE, "/v1/sessions/\(UUID().uuidString.lowercased())", bearer: alice.accessToken)
            let notAnID = try await server.send(.DELETE, "/v1/sessions/not-a-session", bearer: alice.accessToken)
            let foreign = try await server.send(.DELETE, "/v1/sessions/\(bob.sessionId)", bearer: alice.accessToken)

            for response in [unknown, notAnID, foreign] {
                #expect(response.status == 404 && response.errorCode == "NOT_FOUND", "\(response.text)")
            }
            #expect(
                try await server.send(.GET, "/v1/me", bearer: bob.accessToken).status == 200,
                "Bob's session is untouched")
            #expect(try await server.refresh(bob.refreshToken).status == 200)
        }
    }

    @Test("C8 signing out all other devices keeps only the current one", arguments: TestDatabase.all)
    func C8_revokeOthersKeepsCurrent(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let first = try await server.signUp()
            let phone = try await server.signInConfirmingNewDevice(device: Self.phone)
            let laptop = try await server.signInConfirmingNewDevice(device: Self.laptop)
            let bob = try await server.signUp("bob@example.com")

            let revoked = try await server.send(.DELETE, "/v1/sessions?scope=others", bearer: phone.accessToken)

            #expect(revoked.status == 204, "\(revoked.text)")
            let listed = try await server.send(.GET, "/v1/sessions", bearer: phone.accessToken).decode(
                [SessionInfo].self)
            #expect(listed.count == 1)
            #expect(listed.first?.id == phone.sessionId && listed.first?.current == true)
            for other in [first, laptop] {
                #expect(try await server.send(.GET, "/v1/me", bearer: other.accessToken).errorCode == "AUTH_004")
                #expect(try await server.refresh(other.refreshToken).errorCode == "AUTH_004")
            }
            #expect(try await server.refresh(phone.refreshToken).status == 200)
            #expect(
                try await server.send(.GET, "/v1/me", bearer: bob.accessToken).status == 200,
                "other users are untouched")
        }
    }

    @Test(
        "C8 DELETE /v1/sessions without scope=others is 422 naming scope and revokes nothing",
        arguments: TestDatabase.all)
    func C8_revokeWithoutScopeRefused(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let first = try await server.signUp()
            let phone = try await server.signInConfirmingNewDevice(device: Self.phone)

            for path in ["/v1/sessions", "/v1/sessions?scope=all", "/v1/sessions?scope=", "/v1/sessions?scope=OTHERS"] {
                let refused = try await server.send(.DELETE, path, bearer: phone.accessToken)
                #expect(refused.status == 422 && refused.errorCode == "VALIDATION_FAILED", "\(path): \(refused.text)")
                #expect(refused.errorBody?.field == "scope", "\(path)")
            }

            #expect(try await server.send(.GET, "/v1/me", bearer: first.accessToken).status == 200)
            #expect(
                try await server.send(.GET, "/v1/sessions", bearer: phone.accessToken).decode([SessionInfo].self).count
                    == 2)
        }
    }

    @Test("C9 logout answers 204 and ends this session's access and refresh tokens", arguments: TestDatabase.all)
    func C9_logoutEndsSession(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let other = try await server.signUp()
            let phone = try await server.signInConfirmingNewDevice(device: Self.phone)

            let loggedOut = try await server.send(.POST, "/v1/logout", bearer: phone.accessToken)

            #expect(loggedOut.status == 204, "\(loggedOut.text)")
            #expect(loggedOut.data.isEmpty)
            let access = try await server.send(.GET, "/v1/me", bearer: phone.accessToken)
            #expect(access.status == 401 && access.errorCode == "AUTH_004")
            #expect(try await server.refresh(phone.refreshToken).errorCode == "AUTH_004")
            #expect(try await server.send(.POST, "/v1/logout", bearer: phone.accessToken).status == 401)
            #expect(
                try await server.send(.GET, "/v1/me", bearer: other.accessToken).status == 200, "only this session ends"
            )
            #expect(try await server.send(.POST, "/v1/logout").errorCode == "AUTH_004", "no token")
        }
    }

    @Test(
        "C8 a revocation on one instance is seen by another sharing the database within 5 s",
        arguments: TestDatabase.all)
    func C8_revocationSeenAcrossInstancesWithinFiveSeconds(database: TestDatabase) async throws {
        let clock = TestClock()
        let a = try await TestServer.start(database, clock: clock)
        let b = try await TestServer.start(database, clock: clock, sharing: a.location)
        do {
            let tokens = try await a.signUp()
            // B checks the session once and remembers it as live.
            #expect(try await b.send(.GET, "/v1/me", bearer: tokens.accessToken).status == 200)

            #expect(try await a.send(.POST, "/v1/logout", bearer: tokens.accessToken).status == 204)

            #expect(try await a.send(.GET, "/v1/me", bearer: tokens.accessToken).errorCode == "AUTH_004", "A at once")
            // Before 5 s have passed B may still accept the access token from its cache; that is the
            // documented bound, so nothing is asserted about B here.
            clock.advance(by: 5)
            let onB = try await b.send(.GET, "/v1/me", bearer: tokens.accessToken)
            #expect(onB.status == 401 && onB.errorCode == "AUTH_004", "\(onB.text)")
            #expect(try await b.refresh(tokens.refreshToken).errorCode == "AUTH_004", "refresh reads the database")
        } catch {
            try? await a.stop()
            try? await b.stop()
            throw error
        }
        try await a.stop()
        try await b.stop()
    }

    /// PostgreSQL only: SQLite has no NOTIFY, and there the 5 s recheck above is the bound.
    static let postgresOnly = TestDatabase.all.filter { if case .postgres = $0 { true } else { false } }

    @Test(
        "10 §2 a session revoked on one latchd is refused by another sharing PostgreSQL through LISTEN/NOTIFY, not the 5 s recheck",
        arguments: postgresOnly)
    func test_10_revocationReachesOtherInstanceWithinOneSecond(database: TestDatabase) async throws {
        try await withTwoInstances(database) { a, b in
            #expect(try await Self.listeners(of: a) == 2)
            let delay = try await Self.revocationDelay(from: a, to: b)
            print("issue 10 §2: revocation on A refused by B after \(delay.map { "\($0)" } ?? "never")")
            #expect(delay != nil, "B never refused the revoked session")
        }
    }

    @Test("10 §2 the revocation listener reconnects after its PostgreSQL connection is lost", arguments: postgresOnly)
    func test_10_revocationListenerReconnects(database: TestDatabase) async throws {
        try await withTwoInstances(database) { a, b in
            guard case .postgres(let url, let searchPath?) = a.location, let schema = searchPath.first else {
                Issue.record("a PostgreSQL location with a schema")
                return
            }
            let name = "latch-revocation-listener \(schema)"
            try #require(try await Self.listeners(of: a) == 2)
            let terminated = try await TestDatabase.withPostgres(url) { sql in
                try await sql.raw(
                    """
                    SELECT pg_terminate_backend(pid) AS done FROM pg_stat_activity WHERE application_name = \(bind: name)
                    """
                ).all().count
            }
            #expect(terminated == 2, "both instances' listeners were cut")
            #expect(try await Self.listeners(of: a) == 2, "both listeners are back")

            let delay = try await Self.revocationDelay(from: a, to: b)
            print(
                "issue 10 §2: after reconnecting, revocation on A refused by B after \(delay.map { "\($0)" } ?? "never")"
            )
            #expect(delay != nil, "after reconnecting, B never refused the revoked session")
        }
    }

    /// How many revocation listeners listen on `server`'s schema, waiting (`eventually`) for two.
    static func listeners(of server: TestServer) async throws -> Int {
        guard case .postgres(let url, let searchPath?) = server.location, let schema = searchPath.first else {
            return 0
        }
        let name = "latch-revocation-listener \(schema)"
        var listening = 0
        _ = try await eventually(every: .milliseconds(50)) {
            listening = try await TestDatabase.withPostgres(url) { sql in
                try await sql.raw(
                    """
                    SELECT pid FROM pg_stat_activity WHERE application_name = \(bind: name) AND query = 'SELECT 1'
                    """
                ).all().count
            }
            return listening >= 2
        }
        return listening
    }

    /// Signs up on `a`, lets `b` cache the session as live, signs out on `a`, and returns how long
    /// after that `b` first refuses the access token (polled every 10 ms), nil when it never does.
    /// The test clock stands still, so `b`'s 5 s recheck can never be what refuses it: only the
    /// notification can. How soon it arrives depends on the machine's load (issue 22 §8), so the
    /// delay is reported, not bounded.
    static func revocationDelay(from a: TestServer, to b: TestServer) async throws -> Duration? {
        let tokens = try await a.signUp("user\(UUID().uuidString.prefix(8))@example.com")
        try #require(try await b.send(.GET, "/v1/me", bearer: tokens.accessToken).status == 200)
        try #require(try await a.send(.POST, "/v1/logout", bearer: tokens.accessToken).status == 204)
        let revokedAt = ContinuousClock.now
        let refused = try await eventually(every: .milliseconds(10)) {
            try await b.send(.GET, "/v1/me", bearer: tokens.accessToken).status == 401
        }
        return refused ? ContinuousClock.now - revokedAt : nil
    }

    /// Two servers on one database (and one test clock).
    func withTwoInstances(_ database: TestDatabase, _ body: (TestServer, TestServer) async throws -> Void) async throws
    {
        let clock = TestClock()
        let a = try await TestServer.start(database, clock: clock)
        let b: TestServer
        do { b = try await TestServer.start(database, clock: clock, sharing: a.location) } catch {
            try? await a.stop()
            throw error
        }
        do {
            try await body(a, b)
        } catch {
            try? await a.stop()
            try? await b.stop()
            throw error
        }
        try await a.stop()
        try await b.stop()
    }

    @Test("C8 a refresh moves the session's last activity", arguments: TestDatabase.all)
    func C8_refreshUpdatesLastActive(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let start = server.clock.now
            let first = try await server.signUp()
            let phone = try await server.signInConfirmingNewDevice(device: Self.phone)

            server.clock.advance(by: 600)
            #expect(try await server.refresh(first.refreshToken).status == 200)

            // Listed from the other session, so only the refresh can have moved the first one.
            let listed = try await server.send(.GET, "/v1/sessions", bearer: phone.accessToken).decode(
                [SessionInfo].self)
            let entry = try #require(listed.first { $0.id == first.sessionId })
            #expect(entry.createdAt == start)
            #expect(entry.lastActiveAt == start.addingTimeInterval(600))
            #expect(!entry.current)
        }
    }

    @Test("C8 GET /v1/me shows the signed-in user", arguments: TestDatabase.all)
    func C8_meShowsUser(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let tokens = try await server.signUp()

            let me = try await server.send(.GET, "/v1/me", bearer: tokens.accessToken)

            #expect(me.status == 200)
            var user = try me.decode(UserInfo.self)
            #expect(user.identities?.map(\.provider) == ["email"], "C1: the ways to sign in are listed")
            user.identities = nil // token responses leave them out
            #expect(user == tokens.user)
            #expect(user.email == "alice@example.com" && user.emailVerified)
            #expect(try await server.send(.GET, "/v1/me").errorCode == "AUTH_004")
        }
    }

    @Test("C2 PATCH /v1/me sets a trimmed nickname of at most 64 characters", arguments: TestDatabase.all)
    func C2_patchNickname(database: TestDatabase) async throws {
        try await withServer(database) { server in
            let tokens = try await server.signUp()

            let trimmed = try await server.send(
                .PATCH, "/v1/me", json: ["nickname": "  Ally \n"], bearer: tokens.accessToken)
            let longest = try await server.send(
                .PATCH, "/v1/me", json: ["nickname": String(repeating: "名", count: 64)], bearer: tokens.accessToken)
            let tooLong = try await server.send(
                .PATCH, "/v1/me", json: ["nickname": String(repeating: "a", count: 65)], bearer: tokens.accessToken)
            let control = try await server.send(
                .PATCH, "/v1/me", json: ["nickname": "Al\u{7}ly"], bearer: tokens.accessToken)

            #expect(
                trimmed.status == 200 && (try? trimmed.decode(UserInfo.self))?.nickname == "Ally", "\(trimmed.text)")
            #expect(
                longest.status == 200
                    && (try? longest.decode(UserInfo.self))?.nickname == String(repeating: "名", count: 64))
            for refused in [tooLong, control] {
                #expect(refused.status == 422 && refused.errorCode == "VALIDATION_FAILED", "\(refused.text)")
                #expect(refused.errorBody?.field == "nickname")
            }
            let me = try await server.send(.GET, "/v1/me", bearer: tokens.accessToken)
            #expect(
                (try? me.decode(UserInfo.self))?.nickname == String(repeating: "名", count: 64),
                "refused changes are not stored")
            #expect(try await server.send(.PATCH, "/v1/me", json: ["nickname": "Eve"]).errorCode == "AUTH_004")
        }
    }
}
