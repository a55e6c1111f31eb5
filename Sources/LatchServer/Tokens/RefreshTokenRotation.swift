import Crypto
import FluentKit
import FluentSQL
import FluentSQLiteDriver
import Foundation
import LatchCore
import SQLKit

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
    /// SQLite and PostgreSQL rotate in different statements.
    let databaseKind: DatabaseKind
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
        try await insert(session, on: database)
        // Read after the session exists: a disable or freeze that committed before this read is seen here,
        // and one that commits after it revokes this session with the user's others (AccountDisabling,
        // AccountFreezing).
        if let refusal = try await accounts.signInRefusal(of: session.userID, on: database) {
            try await database.sql.raw(
                "UPDATE sessions SET revoked_at = \(bind: seconds) WHERE id = \(bind: session.requireID())"
            ).run()
            throw refusal
        }
        let token = Self.refreshToken(secret: secret, counter: 0)
        try await record(SecretBox.hash(token), session: session.requireID(), counter: 0, now: seconds, on: database)
        return (session, try await response(user: user, session: session, refreshToken: token, now: now))
    }

    /// Exchanges a refresh token for new tokens: one read (token, session and user joined) and, for
    /// a rotation, one write (see `rotate`). `key`: the DPoP key the request proved (checked by the
    /// caller); a bound session needs its own, before anything moves. `requireBinding`: `LATCH_DPOP=required`.
    func refresh(_ token: String, key: String?, requireBinding: Bool = false, now: Date, on database: any Database)
        async throws -> Outcome
    {
        let seconds = now.timeIntervalSince1970
        guard let found = try await Presented.find(SecretBox.hash(token), kind: databaseKind, on: database) else {
            return .invalid
        }
        var session = found.session
        guard isLive(session, at: seconds) else { return .invalid }
        if let bound = session.dpopJKT {
            guard key == bound else {
                return .wrongKey(presented: key, userID: session.userID, sessionID: try session.requireID())
            }
        } else if requireBinding {
            return .notBound
        }
        let sessionID = try session.requireID()
        let secret = try secrets.open(session.sealedSecret)

        if found.counter == session.counter {
            let next = session.counter + 1
            let nextToken = Self.refreshToken(secret: secret, counter: next)
            let expires = refreshExpiry(now: seconds, createdAt: session.createdAt)
            let moved = try await rotate(
                session: sessionID, from: session.counter, recording: nextToken, expires: expires, now: seconds,
                on: database)
            if moved {
                session.counter = next
                session.rotatedAt = seconds
                session.refreshExpiresAt = expires
                return .rotated(
                    try await response(user: found.user, session: session, refreshToken: nextToken, now: now))
            }
            // Another request rotated it first: apply the grace rule to the fresh row.
            guard let reloaded = try await Session.find(sessionID, on: database), isLive(reloaded, at: seconds) else {
                return .invalid
            }
            session = reloaded
        }

        if found.counter == session.counter - 1, let rotatedAt = session.rotatedAt,
            seconds - rotatedAt <= Self.graceWindow,
            try await claimGrace(session: sessionID, counter: session.counter, on: database)
        {
            let current = Self.refreshToken(secret: secret, counter: session.counter)
            return .rotated(try await response(user: found.user, session: session, refreshToken: current, now: now))
        }

        try await database.sql.raw(
            """
            UPDATE sessions SET revoked_at = \(bind: seconds) WHERE id = \(bind: sessionID) AND revoked_at IS NULL
            """
        ).run()
        return .replayed(userID: session.userID, sessionID: sessionID)
    }

    /// Takes the one grace answer of the session's previous token, if it is still unused and the
    /// session is still at `counter`: one conditional update, so of any number of duplicates (on any
    /// number of instances) exactly one wins. Only this rare path pays for it, never a plain rotation.
    private func claimGrace(session sessionID: UUID, counter: Int, on database: any Database) async throws -> Bool {
        try await !database.sql.raw(
            """
            UPDATE sessions SET refresh_grace_counter = \(bind: counter)
            WHERE id = \(bind: sessionID) AND counter = \(bind: counter) AND revoked_at IS NULL
              AND (refresh_grace_counter IS NULL OR refresh_grace_counter <> \(bind: counter))
            RETURNING id
            """
        ).all().isEmpty
    }

    /// A presented refresh token's place in its session's rotation, with the session and its user.
    private struct Presented {
        let counter: Int
        let session: Session
        let user: User

        /// The dialect is the configuration's (`databaseKind`, chosen where the database is opened), not
        /// found out by trying casts on every refresh.
        static func find(_ hash: String, kind: DatabaseKind, on database: any Database) async throws -> Presented? {
            switch kind {
            case .sqlite:
                let rows = try await database.executeSQLite(SQLiteRefreshStatements.find, [.text(hash)])
                return try rows?.first.map(Presented.init(sqlite:))
            case .postgresql:
                let rows = try await database.executePrepared(PostgresRefreshStatements.Find(tokenHash: hash))
                return rows?.first.map(Presented.init)
            }
        }

        /// The same columns read from SQLite, in the same order.
        init(sqlite row: SQLiteRow) throws {
            self.init(
                (
                    try row.value("presented_counter"), try row.uuid("id"), try row.uuid("user_id"),
                    try row.value("sealed_secret"), try row.value("counter"), try row.optionalValue("rotated_at"),
                    try row.value("refresh_expires_at"), try row.optionalValue("revoked_at"),
                    try row.value("created_at"), try row.optionalValue("dpop_jkt"),
                    try row.optionalValue("user_email"), try row.value("user_email_verified"),
                    try row.optionalValue("user_nickname"), try row.value("user_created_at")
                ))
        }

        /// Only the columns a refresh reads, set one by one: Fluent's whole-model decoding was about
        /// 4 % of latchd's CPU on this path.
        init(_ row: PostgresRefreshStatements.Find.Row) {
            let session = Session()
            (session.id, session.userID, session.sealedSecret, session.counter) = (row.1, row.2, row.3, row.4)
            (session.rotatedAt, session.refreshExpiresAt, session.revokedAt, session.createdAt) = (
                row.5, row.6, row.7, row.8
            )
            session.dpopJKT = row.9
            self.counter = row.0
            self.session = session
            self.user = User(
                id: row.2, email: row.10, emailVerified: row.11, passwordHash: nil, nickname: row.12,
                createdAt: row.13)
        }
    }

    /// Moves the session's counter on, if it is still at `counter` and the session is not revoked, and records
    /// the next token in the same statement; returns whether it moved. Whoever receives the token can use it at
    /// once; a session that did not move (revoked, or another request rotated it first) records nothing.
    func rotate(
        session sessionID: UUID, from counter: Int, recording nextToken: String, expires: Double, now: Double,
        on database: any Database
    ) async throws -> Bool {
        let hash = SecretBox.hash(nextToken)
        let next = counter + 1
        switch databaseKind {
        case .sqlite:
            let rows = try await database.executeSQLite(
                SQLiteRefreshStatements.rotate,
                SQLiteRefreshStatements.rotateBinds(
                    nextTokenHash: hash, sessionID: sessionID, next: next, now: now, expires: expires, counter: counter)
            )
            return !(rows ?? []).isEmpty
        case .postgresql:
            // One prepared statement, so one round trip and one commit (an fsync).
            let rows = try await database.executePrepared(
                PostgresRefreshStatements.Rotate(
                    nextTokenHash: hash, sessionID: sessionID, next: next, now: now, expires: expires, counter: counter)
            )
            return !(rows ?? []).isEmpty
        }
    }

    /// Inserts the session only while its user is not deleted, in one statement: a sign-in that raced
    /// the account's deletion (checked its password, then found the account gone) gets AUTH_001 and
    /// no session. On PostgreSQL the user row is read `FOR SHARE`, which waits for a deletion in
    /// progress (it updates that row first) and then sees it; a deletion that starts later waits for
    /// this insert and revokes the session it made. SQLite runs one writer at a time.
    private func insert(_ session: Session, on database: any Database) async throws {
        let lock: SQLQueryString = databaseKind == .postgresql ? " FOR SHARE" : ""
        let rows = try await database.sql.raw(
            """
            INSERT INTO sessions (id, user_id, sealed_secret, counter, refresh_expires_at, created_at, signed_in_at,
              last_active_at, device_id, device_name, device_model, platform, ip, dpop_jkt)
            SELECT \(bind: session.id), \(bind: session.userID), \(bind: session.sealedSecret), \(bind: session.counter),
              \(bind: session.refreshExpiresAt), \(bind: session.createdAt), \(bind: session.signedInAt),
              \(bind: session.lastActiveAt), \(bind: session.deviceID), \(bind: session.deviceName),
              \(bind: session.deviceModel), \(bind: session.platform), \(bind: session.ip), \(bind: session.dpopJKT)
            WHERE EXISTS (SELECT 1 FROM users WHERE id = \(bind: session.userID) AND deleted_at IS NULL\(lock))
            RETURNING id
            """
        ).all()
        guard !rows.isEmpty else { throw LatchError.wrongCredentials() }
    }

    static func refreshToken(secret: Data, counter: Int) -> String {
        let mac = HMAC<SHA256>.authenticationCode(
            for: Data("latch-refresh-v1:\(counter)".utf8), using: SymmetricKey(data: secret))
        return Base64URL.encode(Data(mac))
    }

    /// Not revoked, not idle past its refresh expiry, not older than `maximumAge` (sessions started
    /// before the absolute lifetime existed have a later `refresh_expires_at`; this catches them).
    private func isLive(_ session: Session, at seconds: Double) -> Bool {
        session.revokedAt == nil && session.refreshExpiresAt > seconds && seconds < session.createdAt + maximumAge
    }

    private func record(_ tokenHash: String, session: UUID, counter: Int, now: Double, on database: any Database)
        async throws
    {
        try await database.sql.raw(
            """
            INSERT INTO refresh_tokens (token_hash, session_id, counter, created_at)
            VALUES (\(bind: tokenHash), \(bind: session), \(bind: counter), \(bind: now))
            ON CONFLICT (token_hash) DO NOTHING
            """
        ).run()
    }

    private func response(user: User, session: Session, refreshToken: String, now: Date) async throws -> TokenResponse {
        let sessionID = try session.requireID()
        let access = try await accessTokens.issue(
            userID: try user.requireID(), sessionID: sessionID, boundTo: session.dpopJKT, now: now)
        return TokenResponse(
            accessToken: access, tokenType: session.dpopJKT == nil ? "Bearer" : "DPoP",
            expiresIn: AccessTokens.lifetime, refreshToken: refreshToken,
            refreshExpiresIn: Int(session.refreshExpiresAt - now.timeIntervalSince1970),
            sessionId: sessionID.uuidString.lowercased(), user: user.info)
    }
}
