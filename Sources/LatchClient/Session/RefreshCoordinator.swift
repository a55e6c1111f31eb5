import Foundation
import LatchCore

/// Keeps the session and refreshes its tokens, one refresh at a time (C6; STYLE §2, after soto-core's
/// `ExpiringValue`).
///
/// - Every caller that needs a fresh token while a refresh is running awaits that same refresh, so 1,000
///   concurrent requests with an expiring token cause exactly one `refresh_token` grant.
/// - Each session change (sign-in, sign-out, session over) starts a new *generation*. A refresh belongs
///   to the generation it started in; if the generation moved on before it finished (the user signed
///   out, or someone else signed in), its tokens are discarded and its waiters get `.notSignedIn`.
/// - A refresh answered with AUTH_004 ends the session: vault cleared, state `.signedOut`, announced
///   once. Any other failure (network, server trouble) leaves the session as it is.
/// - The vault always ends up holding what memory holds: a write that finds the session changed while
///   it was writing writes again (see `syncVault()`).
actor RefreshCoordinator {
    /// Exchanges a refresh token for new tokens (grant `refresh_token`).
    typealias RefreshOperation = @Sendable (_ refreshToken: String) async throws -> TokenResponse

    private struct InFlightRefresh {
        let id: UInt64
        let generation: LatestWork.Ticket
        let task: Task<StoredSession, any Error>
    }

    private let vault: any TokenVault
    private let policy: RefreshPolicy
    private let clock: @Sendable () -> Date
    private let broadcast: SessionStateBroadcast
    private let refreshOperation: RefreshOperation

    /// The session in use; nil when there is none.
    private(set) var session: StoredSession?
    /// Started anew on every sign-in and sign-out (`LatestWork`, the SDK's one idiom for dropping late
    /// results); its ticket tags refreshes and vault writes (see the type's documentation).
    private var sessionChanges: LatestWork
    /// The current generation's ticket.
    private(set) var generation: LatestWork.Ticket
    private var inFlight: InFlightRefresh?
    private var refreshCount: UInt64 = 0
    /// The last vault write failed; retried before the next use of the token.
    private var vaultBehind = false
    /// Runs when the server ended the session (a security reset, a freeze): the DPoP key goes with it.
    private let sessionEnded: @Sendable () async -> Void

    init(
        vault: any TokenVault, policy: RefreshPolicy, clock: @escaping @Sendable () -> Date,
        broadcast: SessionStateBroadcast, refresh: @escaping RefreshOperation,
        sessionEnded: @escaping @Sendable () async -> Void = {}
    ) {
        self.sessionEnded = sessionEnded
        self.vault = vault
        self.policy = policy
        self.clock = clock
        self.broadcast = broadcast
        self.refreshOperation = refresh
        var changes = LatestWork()
        self.generation = changes.start()
        self.sessionChanges = changes
    }

    // MARK: - Using the session

    /// An access token to send now, refreshed first when less than the policy's margin remains.
    ///
    /// When that refresh fails without ending the session (network trouble) and the current token has
    /// not expired yet, the current token is returned; otherwise the refresh's error is thrown.
    func accessToken() async throws -> String {
        guard let current = session else { throw LatchClientError.notSignedIn }
        if vaultBehind { await syncVault() }
        let now = clock()
        switch policy.decision(
            accessTokenExpiresAt: current.accessTokenExpiresAt, refreshTokenExpiresAt: current.refreshTokenExpiresAt,
            now: now)
        {
        case .useAccessToken:
            return current.accessToken
        case .sessionOver:
            await endSession(as: .expired)
            throw LatchClientError.notSignedIn
        case .refresh:
            let started = generation
            do {
                return try await refreshShared().accessToken
            } catch let error as LatchClientError where !error.isSessionExpired {
                if sessionChanges.isCurrent(started), let session, session.accessTokenExpiresAt > clock() {
                    return session.accessToken
                }
                throw error
            }
        }
    }

    /// A token to replay a request with after the server refused `rejected` with 401: the current one
    /// when another caller already refreshed, else the result of a (shared) refresh.
    func accessToken(replacing rejected: String) async throws -> String {
        guard let current = session else { throw LatchClientError.notSignedIn }
        if current.accessToken != rejected { return current.accessToken }
        return try await refreshShared().accessToken
    }

    /// Refreshes now, whatever the policy says (joining a refresh already running).
    func refresh() async throws -> UserInfo {
        try await refreshShared().user
    }

    // MARK: - Session changes

    /// Makes `tokens` the session (a sign-in): a new generation, stored in the vault, announced.
    /// Returns the session it replaced, if any (to be ended on the server). If the vault cannot store
    /// it, the sign-in is undone and `.vaultUnavailable` thrown.
    func install(_ tokens: TokenResponse) async throws -> (user: UserInfo, replaced: StoredSession?) {
        let fresh = StoredSession(tokens: tokens, receivedAt: clock())
        let replaced = session
        startGeneration()
        session = fresh
        broadcast.publish(.signedIn(fresh.user))
        do {
            try await writeVault()
        } catch {
            if session == fresh { await endSession(as: .signedOut) }
            throw LatchClientError.vaultUnavailable
        }
        return (fresh.user, replaced)
    }

    /// Ends the session (sign-out): a new generation, in-flight refreshes cancelled, the session's vault
    /// item deleted, `state` moved to `.signedOut` (announced only if it was not already). Returns the
    /// session that ended, if any.
    @discardableResult
    func signOut() async -> StoredSession? {
        await endSession(as: .signedOut)
    }

    /// Reads the stored session at launch (C6): see ``LatchClient/restoreSession()``.
    func restore() async -> SessionRestoration {
        if let session { return .signedIn(session.user) }
        let started = generation
        let read = await vault.read(StoredSession.vaultKey)
        // Someone signed in or out while the vault was read: that is newer than what was stored.
        guard sessionChanges.isCurrent(started), session == nil else { return currentRestoration }
        switch read {
        case .unavailable:
            return .vaultUnavailable
        case .notFound:
            broadcast.publish(.signedOut)
            return .signedOut
        case .found(let data):
            guard let stored = StoredSession.decode(data) else {
                // Unreadable leftovers (another version's format): start over.
                await endSession(as: .signedOut)
                return .signedOut
            }
            session = stored
            switch policy.decision(
                accessTokenExpiresAt: stored.accessTokenExpiresAt, refreshTokenExpiresAt: stored.refreshTokenExpiresAt,
                now: clock())
            {
            case .sessionOver:
                await endSession(as: .expired)
                return .expired
            case .useAccessToken:
                broadcast.publish(.signedIn(stored.user))
                return .signedIn(stored.user)
            case .refresh:
                broadcast.publish(.signedIn(stored.user))
                // AUTH_004 ends the session inside; a network failure keeps it: either way the state says.
                _ = try? await refreshShared()
                return currentRestoration
            }
        }
    }

    /// The server's newer view of the signed-in user (from `GET`/`PATCH /v1/me`): kept and announced.
    func userChanged(_ user: UserInfo) async {
        guard var current = session, current.user.id == user.id, current.user != user else { return }
        current.user = user
        session = current
        broadcast.publish(.signedIn(user))
        await syncVault()
    }

    // MARK: - Internals

    private var currentRestoration: SessionRestoration {
        switch broadcast.current {
        case .signedIn(let user): .signedIn(user)
        case .signedOut: .signedOut
        case .expired: .expired
        }
    }

    /// The running refresh of this generation, or a new one.
    private func refreshShared() async throws -> StoredSession {
        if let inFlight, sessionChanges.isCurrent(inFlight.generation) {
            return try await inFlight.task.value
        }
        guard let current = session else { throw LatchClientError.notSignedIn }
        refreshCount += 1
        let refresh = InFlightRefresh(
            id: refreshCount, generation: generation,
            task: Task { [generation, refreshCount] in
                try await self.runRefresh(of: current, generation: generation, id: refreshCount)
            })
        inFlight = refresh
        return try await refresh.task.value
    }

    private func runRefresh(of old: StoredSession, generation started: LatestWork.Ticket, id: UInt64) async throws
        -> StoredSession
    {
        defer { if inFlight?.id == id { inFlight = nil } }
        let tokens: TokenResponse
        do {
            tokens = try await refreshOperation(old.refreshToken)
        } catch {
            // Signed out (or someone else signed in) meanwhile: this refresh no longer matters.
            guard sessionChanges.isCurrent(started) else { throw LatchClientError.notSignedIn }
            // A frozen account's sessions were ended by the freeze (issue 19 §3): signed out here too. So is a
            // bearer session that `LATCH_DPOP=required` no longer refreshes (issue 31): sign in again, bound.
            if let error = error as? LatchClientError,
                error.isSessionExpired || error.isAccountFrozen || error.isSessionNotBound
            {
                if inFlight?.id == id { inFlight = nil }
                await endSession(as: .signedOut)
                await sessionEnded()
            }
            throw error
        }
        guard sessionChanges.isCurrent(started) else { throw LatchClientError.notSignedIn }
        let fresh = StoredSession(tokens: tokens, receivedAt: clock())
        session = fresh
        broadcast.publish(.signedIn(fresh.user))
        await syncVault()
        return fresh
    }

    /// Starts a new generation: refreshes of the old one are cancelled and will be discarded.
    private func startGeneration() {
        generation = sessionChanges.start()
        inFlight?.task.cancel()
        inFlight = nil
    }

    @discardableResult
    private func endSession(as state: SessionState) async -> StoredSession? {
        let ended = session
        startGeneration()
        session = nil
        broadcast.publish(state)
        await syncVault()
        return ended
    }

    /// `writeVault()`, remembering a failure so that the next use of the session tries again.
    private func syncVault() async {
        do {
            try await writeVault()
            vaultBehind = false
        } catch {
            vaultBehind = true
        }
    }

    /// Makes the vault hold what memory holds. The actor is re-entered while the vault works, so when
    /// the session changed meanwhile, the write is repeated with the newer value: the last write to
    /// finish always matches memory, whatever order concurrent writes land in.
    private func writeVault() async throws {
        while true {
            let started = generation
            let target = session
            if let target {
                try await vault.write(target.encoded(), for: StoredSession.vaultKey)
            } else {
                try await vault.delete(StoredSession.vaultKey)
            }
            if sessionChanges.isCurrent(started), target == session { return }
        }
    }
}
