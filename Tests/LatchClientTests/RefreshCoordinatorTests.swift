import Foundation
import LatchCore
import LatchTestSupport
import Testing

@testable import LatchClient

/// C6 through the client: single-flight refresh, refresh on 401 with one replay, AUTH_004 and network
/// failures, and refreshes that finish after the session changed (STYLE §2).
@Suite("Refresh (C6)")
struct RefreshCoordinatorTests {
    func orders(_ harness: SessionHarness) -> HTTPRequest { HTTPRequest(method: "GET", url: harness.ordersURL) }

    /// The states announced after the iterator's current position, up to (not including) `marker`.
    func states(
        until marker: SessionState, from iterator: inout AsyncStream<SessionState>.Iterator
    ) async -> [SessionState] {
        var seen: [SessionState] = []
        while let state = await iterator.next(), state != marker { seen.append(state) }
        return seen
    }

    /// AUTH_004 from the server, or `.notSignedIn` for a request that arrived after the session ended.
    func isSessionOver(_ error: LatchClientError) -> Bool {
        if case .notSignedIn = error { return true }
        return error.isSessionExpired
    }

    @Test func C6_thousandConcurrentRequestsRefreshOnce() async throws {
        // Set-up: a token with 200 s left (less than 5 minutes).
        let harness = SessionHarness()
        try await harness.signIn(expiresIn: 200)

        // Act: 1,000 requests at once.
        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<1_000 {
                group.addTask { try await harness.client.send(orders(harness)).status }
            }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }

        // Check: one refresh; every request went out with the new token and succeeded.
        #expect(await harness.server.refreshGrants == 1)
        #expect(statuses.count == 1_000)
        #expect(statuses.allSatisfy { $0 == 200 })
        let bearers = Set(await harness.server.requests(to: "/orders").compactMap(SessionFakeServer.bearer(of:)))
        #expect(bearers == ["at-2"])
        #expect(await harness.storedSession()?.accessToken == "at-2")
    }

    @Test func C6_thousandConcurrent401sRefreshOnce() async throws {
        // Set-up: a fresh-looking token that the server refuses.
        let harness = SessionHarness()
        let tokens = try await harness.signIn()
        await harness.server.refuse(accessToken: tokens.accessToken)

        // Act
        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<1_000 {
                group.addTask { try await harness.client.send(orders(harness)).status }
            }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }

        // Check: one refresh; every request succeeded exactly once, with the new token. A request sent
        // before the refresh was refused and replayed once; one the task group started only after the
        // refresh (under load) went out with the new token at once. Nothing was sent a third time.
        #expect(await harness.server.refreshGrants == 1)
        #expect(statuses.count == 1_000 && statuses.allSatisfy { $0 == 200 })
        let bearers = await harness.server.requests(to: "/orders").map(SessionFakeServer.bearer(of:))
        let old = bearers.filter { $0 == tokens.accessToken }.count
        #expect(bearers.filter { $0 == "at-2" }.count == 1_000)
        #expect(old >= 1 && old + 1_000 == bearers.count, "\(old) refused, \(bearers.count) sent")
    }

    @Test func C6_refreshesWithFourMinutesFiftyNineLeft() async throws {
        let harness = SessionHarness()
        try await harness.signIn(expiresIn: 7200)
        harness.clock.advance(by: 7200 - 299)

        let response = try await harness.client.send(orders(harness))

        #expect(response.status == 200)
        #expect(await harness.server.refreshGrants == 1)
        #expect(SessionFakeServer.bearer(of: await harness.server.requests(to: "/orders")[0]) == "at-2")
    }

    @Test func C6_noRefreshWithSixMinutesLeft() async throws {
        let harness = SessionHarness()
        try await harness.signIn(expiresIn: 7200)
        harness.clock.advance(by: 7200 - 360)

        let response = try await harness.client.send(orders(harness))

        #expect(response.status == 200)
        #expect(await harness.server.refreshGrants == 0)
        #expect(SessionFakeServer.bearer(of: await harness.server.requests(to: "/orders")[0]) == "at-1")
    }

    @Test func C6_authorizedRequestCarriesAFreshBearer() async throws {
        let harness = SessionHarness()
        try await harness.signIn(expiresIn: 100)

        let request = try await harness.client.authorizedRequest(
            HTTPRequest(method: "GET", url: harness.ordersURL, headers: ["authorization": "Bearer stale", "X-App": "1"])
        )

        #expect(request.headers == ["Authorization": "Bearer at-2", "X-App": "1"])
        #expect(await harness.server.refreshGrants == 1)
    }

    @Test func C6_on401RefreshesAndReplaysOnce() async throws {
        // Set-up: the server refuses the current token although the client thinks it fresh.
        let harness = SessionHarness()
        let tokens = try await harness.signIn()
        await harness.server.refuse(accessToken: tokens.accessToken)

        // Act
        let response = try await harness.client.send(orders(harness))

        // Check: 401 with at-1, one refresh, replay with at-2 → 200.
        #expect(response.status == 200)
        #expect(String(decoding: response.body, as: UTF8.self) == "orders")
        let sequence = await harness.server.requests.map {
            "\($0.method) \(SessionFakeServer.path(of: $0)) \(SessionFakeServer.bearer(of: $0) ?? "-")"
        }
        #expect(sequence == ["GET /orders at-1", "POST /v1/token -", "GET /orders at-2"])
    }

    @Test func C6_second401IsReturnedWithoutAnotherRefresh() async throws {
        let harness = SessionHarness()
        try await harness.signIn()

        let response = try await harness.client.send(
            HTTPRequest(method: "GET", url: URL(string: "https://auth.example.com/always-401")!))

        #expect(response.status == 401)
        #expect(await harness.server.count("GET", "/always-401") == 2)
        #expect(await harness.server.refreshGrants == 1)
        #expect(harness.client.currentState == .signedIn(SessionFakeServer.alice))
    }

    @Test func C6_typedCallRefreshesOn401() async throws {
        let harness = SessionHarness()
        let tokens = try await harness.signIn()
        await harness.server.refuse(accessToken: tokens.accessToken)

        let user = try await harness.client.me()

        #expect(user == SessionFakeServer.alice)
        #expect(await harness.server.count("GET", "/v1/me") == 2)
        #expect(await harness.server.refreshGrants == 1)
    }

    @Test func C6_wrongCurrentPassword401IsNotARefusedToken() {
        let wrongPassword = SessionFakeServer.json(401, #"{"error":"AUTH_001","message":"Wrong email or password."}"#)
        #expect(!LatchClient.refusesToken(wrongPassword))
        #expect(LatchClient.refusesToken(SessionFakeServer.sessionExpired))
        #expect(LatchClient.refusesToken(HTTPResponse(status: 401)))
        #expect(!LatchClient.refusesToken(HTTPResponse(status: 403)))
    }

    @Test("31 §3 a bearer session's refresh refused as session_not_bound (LATCH_DPOP=required) ends the session")
    func test_31_3_sessionNotBoundEndsTheSession() async throws {
        let harness = SessionHarness(vault: InMemoryVault())
        try await harness.signIn(expiresIn: 60)
        await harness.server.set(refreshAnswer: .sessionNotBound)

        await #expect(throws: LatchClientError.self) { _ = try await harness.client.send(orders(harness)) }

        #expect(harness.client.currentState == .signedOut, "signed out, to sign in again with a key")
        #expect(await harness.vault.read("session") == .notFound)
    }

    @Test func C6_auth004OnRefreshClearsVaultAndSignsOutOnce() async throws {
        // Set-up: an expiring session; the server says the session is over; a settings item in the vault.
        let harness = SessionHarness(vault: InMemoryVault(items: ["settings": Data("dark".utf8)]))
        try await harness.signIn(expiresIn: 60)
        var iterator = harness.client.state.makeAsyncIterator()
        #expect(await iterator.next() == .signedIn(SessionFakeServer.alice))
        await harness.server.set(refreshAnswer: .sessionExpired)

        // Act: 50 requests at once.
        let failures = await withTaskGroup(of: LatchClientError?.self) { group in
            for _ in 0..<50 {
                group.addTask {
                    do {
                        _ = try await harness.client.send(orders(harness))
                        return nil
                    } catch {
                        return error as? LatchClientError
                    }
                }
            }
            return await group.reduce(into: [LatchClientError?]()) { $0.append($1) }
        }

        // Check: one refresh, every request failed as expired, vault cleared of the session only,
        // and `.signedOut` announced exactly once (the marker sign-in below closes the record).
        #expect(await harness.server.refreshGrants == 1)
        #expect(failures.allSatisfy { $0.map(isSessionOver) ?? false })
        #expect(failures.contains { $0?.isSessionExpired == true })
        #expect(await harness.vault.read("session") == .notFound)
        #expect(await harness.vault.read("settings") == .found(Data("dark".utf8)))
        #expect(harness.client.currentState == .signedOut)
        await harness.server.set(refreshAnswer: .rotate)
        try await harness.signIn(SessionFakeServer.bob)
        #expect(await states(until: .signedIn(SessionFakeServer.bob), from: &iterator) == [.signedOut])
    }

    @Test func C6_networkFailureDuringRefreshKeepsTheSession() async throws {
        // Set-up: an access token past its expiry; no network for the refresh.
        let harness = SessionHarness()
        try await harness.signIn(expiresIn: 7200)
        harness.clock.advance(by: 7300)
        await harness.server.set(refreshAnswer: .networkFailure)

        // Act
        let error = await #expect(throws: LatchClientError.self) { try await harness.client.send(orders(harness)) }

        // Check: the caller hears of the network; nobody is signed out.
        guard case .network = error else {
            Issue.record("expected a network error, got \(String(describing: error))")
            return
        }
        #expect(harness.client.currentState == .signedIn(SessionFakeServer.alice))
        #expect(await harness.storedSession()?.accessToken == "at-1")

        // And once the network is back the same session refreshes.
        await harness.server.set(refreshAnswer: .rotate)
        #expect(try await harness.client.send(orders(harness)).status == 200)
        #expect(await harness.storedSession()?.accessToken == "at-2")
    }

    @Test func C6_failedEarlyRefreshStillUsesAValidToken() async throws {
        // Four minutes left, the refresh fails with a server error: the still-valid token is used.
        let harness = SessionHarness()
        try await harness.signIn(expiresIn: 240)
        await harness.server.set(refreshAnswer: .serverError)

        let response = try await harness.client.send(orders(harness))

        #expect(response.status == 200)
        #expect(SessionFakeServer.bearer(of: await harness.server.requests(to: "/orders")[0]) == "at-1")
        #expect(harness.client.currentState == .signedIn(SessionFakeServer.alice))
    }

    @Test func C6_refreshFinishingAfterSignOutIsDiscarded() async throws {
        // Set-up: an expiring session; the server holds refreshes.
        let harness = SessionHarness()
        try await harness.signIn(expiresIn: 60)
        await harness.server.holdRefreshes()
        let request = Task { try await harness.client.send(orders(harness)) }
        #expect(try await eventually { await harness.server.refreshesArrived == 1 })

        // Act: sign out while the refresh is on the wire, then let the server answer it.
        await harness.client.signOut()
        await harness.server.releaseRefreshes()
        let result = await request.result

        // Check: the request did not go out with the late tokens; the vault stays empty; still signed out.
        guard case .failure(LatchClientError.notSignedIn) = result else {
            Issue.record("expected notSignedIn, got \(result)")
            return
        }
        #expect(await harness.vault.read("session") == .notFound)
        #expect(harness.client.currentState == .signedOut)
        #expect(await harness.server.count("GET", "/orders") == 0)
        #expect(await harness.server.refreshGrants == 1)
    }

    @Test func C6_refreshFinishingAfterAnotherUserSignedInIsDiscarded() async throws {
        let harness = SessionHarness()
        try await harness.signIn(SessionFakeServer.alice, expiresIn: 60)
        await harness.server.holdRefreshes()
        let request = Task { try await harness.client.send(orders(harness)) }
        #expect(try await eventually { await harness.server.refreshesArrived == 1 })

        // Act: Bob signs in while Alice's refresh is on the wire.
        let bobTokens = await harness.server.issueTokens(for: SessionFakeServer.bob)
        try await harness.client.signIn(with: bobTokens)
        await harness.server.releaseRefreshes()
        _ = await request.result

        // Check: Bob's session stands, in memory and in the vault.
        #expect(harness.client.currentState == .signedIn(SessionFakeServer.bob))
        #expect(await harness.storedSession()?.accessToken == bobTokens.accessToken)
        #expect(await harness.storedSession()?.user == SessionFakeServer.bob)
    }

    @Test func C6_explicitRefreshRotatesAndStores() async throws {
        let harness = SessionHarness()
        try await harness.signIn()

        let user = try await harness.client.refreshSession()

        #expect(user == SessionFakeServer.alice)
        let stored = try #require(await harness.storedSession())
        #expect(stored.accessToken == "at-2")
        #expect(stored.refreshToken == "rt-2")
        #expect(stored.accessTokenExpiresAt == harness.clock.now.addingTimeInterval(7200))
    }

    @Test func C6_expiredRefreshTokenEndsTheSessionAsExpired() async throws {
        let harness = SessionHarness()
        try await harness.signIn()
        harness.clock.advance(by: 31 * 86_400)

        await #expect(throws: LatchClientError.self) { try await harness.client.send(orders(harness)) }

        #expect(harness.client.currentState == .expired)
        #expect(await harness.vault.read("session") == .notFound)
        #expect(await harness.server.refreshGrants == 0)
    }

    @Test func C6_requestWithoutSessionIsRefusedLocally() async throws {
        let harness = SessionHarness()

        let error = await #expect(throws: LatchClientError.self) { try await harness.client.send(orders(harness)) }

        guard case .notSignedIn = error else {
            Issue.record("expected notSignedIn, got \(String(describing: error))")
            return
        }
        #expect(await harness.server.requests.isEmpty)
    }
}
