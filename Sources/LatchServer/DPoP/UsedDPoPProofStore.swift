import FluentKit
import Foundation
import SQLKit
import Synchronization

/// The statements on `dpop_proofs_used` (issue 44 §1): the token endpoint's single use of DPoP proofs,
/// shared by every instance through the database, so a stolen proof cannot be replayed at another
/// instance within its window.
final class UsedDPoPProofStore: Sendable {
    static let schema = "dpop_proofs_used"
    /// Every this many uses, this instance deletes the rows that expired.
    static let pruneEvery = 256
    private let uses = Mutex(0)

    /// Records the proof `jti` of the key `thumbprint` until `expiry`; `false` when it was already used.
    func firstUse(thumbprint: String, jti: String, until expiry: Double, now: Double, on database: any Database)
        async throws -> Bool
    {
        let key = SecretBox.hash("\(thumbprint)\n\(jti)")
        if uses.withLock({ count in
            count += 1
            return count % Self.pruneEvery == 0
        }) {
            try await database.sql.raw("DELETE FROM dpop_proofs_used WHERE expires_at < \(bind: now)").run()
        }
        let rows = try await database.sql.raw(
            """
            INSERT INTO dpop_proofs_used (key_hash, expires_at) VALUES (\(bind: key), \(bind: expiry))
            ON CONFLICT (key_hash) DO UPDATE SET expires_at = excluded.expires_at
              WHERE dpop_proofs_used.expires_at < \(bind: now)
            RETURNING key_hash
            """
        ).all()
        return !rows.isEmpty
    }
}
