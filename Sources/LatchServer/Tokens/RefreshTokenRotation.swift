import Crypto
import FluentKit
import Foundation
import LatchCore

/// Sessions and their rotating refresh tokens (C5, C6).
///
/// Each session has a random secret (stored encrypted) and a counter. Its refresh token number `n`
/// is `base64url(HMAC-SHA256(secret, "latch-refresh-v1:n"))`: 256 bits, stored only as a SHA-256
/// hash. Using the current token moves the counter on by one atomic conditional update. Because any
/// token can be derived again, a duplicate of the previous token within the 10 s grace window (two
/// refreshes racing, or a retry after a lost answer) gets the session's *current* token instead of
/// an error, as in GoTrue, but only **once** (claimed by one conditional update of
/// `refresh_grace_counter`). Any other use of an old token is a replay: the session is revoked.
///
/// A session lives at most `maximumAge` from its sign-in (`LATCH_SESSION_MAX_DAYS`, default 90 days)
/// however often it is refreshed, besides the 30-day idle `lifetime`: no refresh token outlives it.
struct RefreshTokenRotation: Sendable {
    static let lifetime: Double = 30 * 24 * 3600
    static let graceWindow: Double = 10
    static let defaultMaximumAge: Double = 90 * 24 * 3600

    let secrets: SecretBox
    let accessTokens: AccessTokens
    /// The owner of `users`: a sign-in reads the account's state after its session exists.
    let accounts: AccountStore
    /// The chain's statements (SQLite and PostgreSQL rotate in different ones).
    let store: RefreshTokenStore
    /// The absolute lifetime of a session, in seconds from its `created_at`.
    var maximumAge: Double = Self.defaultMaximumAge

    /// When a refresh token issued at `now` for a session created at `createdAt` stops working.
    func refreshExpiry(now: Double, createdAt: Double) -> Double {
        min(now + Self.lifetime, createdAt + maximumAge)
    }

    /// What a refresh found.
    enum Outcome {
        case rotated(TokenResponse)
        /// An old token was replayed after the grace window; the session is now revoked.
        case replayed(userID: UUID, sessionID: UUID)
        /// Unknown, expired or revoked.
        case invalid
        /// The session is bound to a DPoP key and the refresh did not prove it (`presented`: the key it
        /// proved, if any). Nothing moved: the chain stays the owner's (issue 31 §1).
        case wrongKey(presented: String?, userID: UUID, sessionID: UUID)
        /// `LATCH_DPOP=required` and the session is a bearer one: it cannot be refreshed (sign in again).
        case notBound
    }

    /// Starts a session for `user` and returns its first tokens; 403 ACCOUNT_DISABLED when an operator
    /// disabled the account, 403 ACCOUNT_FROZEN when it is frozen (issue 19 §3): every grant comes here,
    /// so none signs such an account in.
    /// `boundTo`: the DPoP key's thumbprint the session is bound to for its whole life (issue 31).
    func start(
        user: User, device: DeviceInfo?, ip: String?, boundTo key: String? = nil, now: Date, on database: any Database
    ) async throws -> (Session, TokenResponse) {
        if user.disabledAt != nil { throw LatchError.accountDisabled }
        if user.frozenAt != nil { throw LatchError.accountFrozen }
        let seconds = now.timeIntervalSince1970
        let secret = RandomSecrets.bytes(32)
        let session = Session()
        session.id = UUID()
        session.userID = try user.requireID()
        session.sealedSecret = try secrets.seal(secret)
        session.counter = 0
        session.refreshExpiresAt = refreshExpiry(now: seconds, createdAt: seconds)
        session.createdAt = seconds
        session.signedInAt = seconds
        session.lastActiveAt = seconds
        session.deviceID = Validate.deviceName(device?.id)
        session.deviceName = Validate.deviceName(device?.name)
        session.deviceModel = Validate.deviceName(device?.model)
        session.platform = Validate.deviceName(device?.platform)
        session.ip = ip
        session.dpopJKT = key
        guard try await store.insert(session, on: database) else { throw LatchError.wrongCredentials() }
        // Read after the session exists: a disable or freeze that committed before this read is seen here,
        // and one that commits after it revokes this session with the user's others (AccountDisabling,
        // AccountFreezing).
        if let refusal = try await accounts.signInRefusal(of: session.userID, on: database) {
            try await store.revoke(session.requireID(), now: seconds, on: database)
            throw refusal
        }
        let token = Self.refreshToken(secret: secret, counter: 0)
        try await store.record(
            SecretBox.hash(token), session: session.requireID(), counter: 0, now: seconds, on: database)
        return (
            session, try response(user: user.info, session: RotatingSession(session), refreshToken: token, now: now)
        )
    }

    /// Exchanges a refresh token for new tokens: one read (token, session and user joined) and, for
    /// a rotation, one write (see `rotate`). `key`: the DPoP key the request proved (checked by the
    /// caller); a bound session needs its own, before anything moves. `requireBinding`: `LATCH_DPOP=required`.
    func refresh(_ token: String, key: String?, requireBinding: Bool = false, now: Date, on database: any Database)
        async throws -> Outcome
    {
        let seconds = now.timeIntervalSince1970
        guard let found = try await store.presented(SecretBox.hash(token), on: database) else {
            return .invalid
        }
        var session = found.session
        guard isLive(session, at: seconds) else { return .invalid }
        if let bound = session.dpopJKT {
            guard key == bound else {
                return .wrongKey(presented: key, userID: session.userID, sessionID: session.id)
            }
        } else if requireBinding {
            return .notBound
        }
        let sessionID = session.id
        let secret = try secrets.open(session.sealedSecret)

        if found.counter == session.counter {
            let next = session.counter + 1
            let nextToken = Self.refreshToken(secret: secret, counter: next)
            let expires = refreshExpiry(now: seconds, createdAt: session.createdAt)
            let moved = try await store.rotate(
                session: sessionID, from: session.counter, recording: SecretBox.hash(nextToken), expires: expires,
                now: seconds, on: database)
            if moved {
                session.counter = next
                session.rotatedAt = seconds
                session.refreshExpiresAt = expires
                return .rotated(
                    try response(user: found.user, session: session, refreshToken: nextToken, now: now))
            }
            // Another request rotated it first: apply the grace rule to the fresh row.
            guard let reloaded = try await store.reload(sessionID, on: database), isLive(reloaded, at: seconds) else {
                return .invalid
            }
            session = reloaded
        }

        if found.counter == session.counter - 1, let rotatedAt = session.rotatedAt,
            seconds - rotatedAt <= Self.graceWindow,
            try await store.claimGrace(session: sessionID, counter: session.counter, on: database)
        {
            let current = Self.refreshToken(secret: secret, counter: session.counter)
            return .rotated(try response(user: found.user, session: session, refreshToken: current, now: now))
        }

        try await store.revoke(sessionID, now: seconds, on: database)
        return .replayed(userID: session.userID, sessionID: sessionID)
    }

    static func refreshToken(secret: Data, counter: Int) -> String {
        let mac = HMAC<SHA256>.authenticationCode(
            for: Data("latch-refresh-v1:\(counter)".utf8), using: SymmetricKey(data: secret))
        return Base64URL.encode(Data(mac))
    }

    /// Not revoked, not idle past its refresh expiry, not older than `maximumAge` (sessions started
    /// before the absolute lifetime existed have a later `refresh_expires_at`; this catches them).
    private func isLive(_ session: RotatingSession, at seconds: Double) -> Bool {
        session.revokedAt == nil && session.refreshExpiresAt > seconds && seconds < session.createdAt + maximumAge
    }

    /// `user`: the session's user as the answer shows it.
    private func response(user: UserInfo, session: RotatingSession, refreshToken: String, now: Date) throws
        -> TokenResponse
    {
        let sessionID = session.id
        let access = try accessTokens.issue(
            userID: session.userID, sessionID: sessionID, boundTo: session.dpopJKT, now: now)
        return TokenResponse(
            accessToken: access, tokenType: session.dpopJKT == nil ? "Bearer" : "DPoP",
            expiresIn: AccessTokens.lifetime, refreshToken: refreshToken,
            refreshExpiresIn: Int(session.refreshExpiresAt - now.timeIntervalSince1970),
            sessionId: UUIDText.lowercase(sessionID), user: user)
    }
}
