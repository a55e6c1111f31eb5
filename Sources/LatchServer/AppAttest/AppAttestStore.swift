import FluentKit
import Foundation
import SQLKit

/// App Attest's rows (issue 31 §2): challenges, used once, and the counter of an attested key, which
/// only grows (both one conditional statement, so concurrent requests and instances cannot both win).
struct AppAttestStore: Sendable {
    static let challengesTable = "app_attest_challenges"
    /// Every App Attest key id that vouched for a device key (`AddAppAttestKeysBound`).
    static let boundKeysTable = "app_attest_keys_bound"
    /// Seconds a challenge lives.
    static let challengeLifetime: Double = 300

    /// A new challenge for `user` (256 random bits).
    func createChallenge(for user: UUID, now: Double, on database: any Database) async throws -> (UUID, String) {
        let (id, challenge) = (UUID(), RandomSecrets.token())
        try await database.sql.raw(
            """
            DELETE FROM app_attest_challenges WHERE user_id = \(bind: user) AND expires_at <= \(bind: now)
            """
        ).run()
        try await database.sql.raw(
            """
            INSERT INTO app_attest_challenges (id, user_id, challenge, expires_at)
            VALUES (\(bind: id), \(bind: user), \(bind: challenge), \(bind: now + Self.challengeLifetime))
            """
        ).run()
        return (id, challenge)
    }

    /// Uses challenge `id` of `user` once; its text, or nil when it is unknown, another user's, expired or used.
    func useChallenge(_ id: UUID, of user: UUID, now: Double, on database: any Database) async throws -> String? {
        try await database.sql.useOnce(
            Self.challengesTable, mark: "used_at", where: "id = \(bind: id) AND user_id = \(bind: user)", now: now,
            returning: ["challenge"]
        )?.decode(column: "challenge", as: String.self)
    }

    /// Stores `counter` as device key `credential`'s App Attest counter if it is greater than the stored
    /// one; false when it is not (a replayed or concurrent assertion).
    func advanceCounter(of credential: UUID, to counter: UInt32, on database: any Database) async throws -> Bool {
        try await database.sql.raw(
            """
            UPDATE device_credentials SET app_attest_counter = \(bind: Int64(counter))
            WHERE id = \(bind: credential) AND app_attest_counter < \(bind: Int64(counter))
            RETURNING id
            """
        ).first() != nil
    }

    /// Whether App Attest key `keyID` ever vouched for a device key (issue 41 §2: it binds only once).
    func wasBound(_ keyID: String, on database: any Database) async throws -> Bool {
        try await database.sql.raw("SELECT 1 AS found FROM app_attest_keys_bound WHERE key_id = \(bind: keyID)")
            .first() != nil
    }

    /// Records that App Attest key `keyID` vouches for a device key from `now` on; false when it already
    /// did (a concurrent bind of the same key id won). Run it in the bind's transaction.
    func recordBinding(of keyID: String, now: Double, on database: any Database) async throws -> Bool {
        try await database.sql.raw(
            """
            INSERT INTO app_attest_keys_bound (key_id, bound_at) VALUES (\(bind: keyID), \(bind: now))
            ON CONFLICT (key_id) DO NOTHING RETURNING key_id
            """
        ).first() != nil
    }
}
