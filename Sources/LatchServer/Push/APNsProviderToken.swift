import Crypto
import Foundation
import JWTKit

/// The provider token APNs authenticates latchd by (issue 43 §2): an ES256 JWT, header `kid` = the key's
/// id, claims `iss` = the team id and `iat`. Apple refuses one older than an hour (403
/// ExpiredProviderToken) and one renewed more often than every 20 minutes (429
/// TooManyProviderTokenUpdates), so one token is shared by every send and made anew after
/// `refreshAge` (50 minutes); a refused token is dropped, but only once it is `minimumAge` old.
///
/// Single-flight: concurrent callers that find no fresh token await the same signing task. Time is the
/// injected clock's.
actor APNsProviderToken {
    /// A token older than this is made anew before it is used.
    static let refreshAge: Double = 50 * 60
    /// A token younger than this is kept even when APNs refuses it (a new one would be refused too).
    static let minimumAge: Double = 20 * 60

    private let keyID: String
    private let teamID: String
    private let privateKey: P256.Signing.PrivateKey
    private let clock: LatchClock
    private var current: (token: String, issuedAt: Double)?
    private var signing: Task<(token: String, issuedAt: Double), any Error>?
    /// Tokens made so far (for tests and logs).
    private(set) var made = 0

    init(keyID: String, teamID: String, privateKey: P256.Signing.PrivateKey, clock: LatchClock) {
        self.keyID = keyID
        self.teamID = teamID
        self.privateKey = privateKey
        self.clock = clock
    }

    /// A token younger than `refreshAge`: the current one, or a new one.
    func token() async throws -> String {
        let now = clock.epochSeconds
        if let current, now - current.issuedAt < Self.refreshAge, now >= current.issuedAt { return current.token }
        if let signing { return try await signing.value.token }
        let (keyID, teamID, privateKey) = (self.keyID, self.teamID, self.privateKey)
        let task = Task { try await Self.sign(keyID: keyID, teamID: teamID, privateKey: privateKey, now: now) }
        signing = task
        defer { signing = nil }
        let fresh = try await task.value
        current = fresh
        made += 1
        return fresh.token
    }

    /// APNs refused `token` (403 ExpiredProviderToken or InvalidProviderToken): the next send makes a new
    /// one, unless this one is younger than `minimumAge`.
    func refused(_ token: String) {
        guard let current, current.token == token, clock.epochSeconds - current.issuedAt >= Self.minimumAge else {
            return
        }
        self.current = nil
    }

    /// A token issued at `now` (whole seconds).
    static func sign(keyID: String, teamID: String, privateKey: P256.Signing.PrivateKey, now: Double) async throws
        -> (token: String, issuedAt: Double)
    {
        let issuedAt = now.rounded(.down)
        let keys = JWTKeyCollection()
        let kid = JWKIdentifier(string: keyID)
        await keys.add(ecdsa: try ES256PrivateKey(backing: privateKey), kid: kid)
        let claims = Claims(
            iss: IssuerClaim(value: teamID), iat: IssuedAtClaim(value: Date(timeIntervalSince1970: issuedAt)))
        return (try await keys.sign(claims, kid: kid), issuedAt)
    }

    struct Claims: JWTPayload {
        let iss: IssuerClaim
        let iat: IssuedAtClaim

        func verify(using algorithm: some JWTAlgorithm) async throws {}
    }
}
