import Foundation
import NIOCore
import SQLiteNIO
import Synchronization

/// latchd's `SessionStatusCache`: whether a session is live, held 5 s, read from `sessions` on a miss;
/// the same read keeps `last_active_at` fresh (written at most once a minute per session).
final class SessionStatusCache: Sendable {
    static let recheckInterval: Double = 5
    static let activityInterval: Double = 60
    private static let limit = 100_000

    private struct Entry {
        var live: Bool
        var checkedAt: Double
    }

    private let entries = Mutex<[UUID: Entry]>([:])
    private let db: SQLiteConnection

    init(db: SQLiteConnection) {
        self.db = db
    }

    func isLive(_ sessionID: UUID, now: Double) async throws -> Bool {
        if let entry = entries.withLock({ $0[sessionID] }), now - entry.checkedAt < Self.recheckInterval {
            return entry.live
        }
        // latchd's SQLite file keeps ids as upper-case UUID text (Fluent's SQLite driver).
        let id = SQLiteData.text(sessionID.uuidString)
        let rows = try await db.query(
            "SELECT revoked_at, refresh_expires_at, last_active_at FROM sessions WHERE id = ?", [id])
        var live = false
        if let row = rows.first {
            let revokedAt = row.column("revoked_at")?.double
            let expiresAt = row.column("refresh_expires_at")?.double ?? 0
            let lastActiveAt = row.column("last_active_at")?.double ?? 0
            live = revokedAt == nil && expiresAt > now
            if live, now - lastActiveAt >= Self.activityInterval {
                _ = try await db.query(
                    "UPDATE sessions SET last_active_at = ? WHERE id = ? AND last_active_at <= ?",
                    [.float(now), id, .float(now - Self.activityInterval)])
            }
        }
        entries.withLock { entries in
            if entries.count >= Self.limit { entries.removeAll(keepingCapacity: true) }
            entries[sessionID] = Entry(live: live, checkedAt: now)
        }
        return live
    }
}

/// latchd's `ProfileCache`: the `/v1/me` body of each user, encoded once and held 5 s. Kept as a
/// ByteBuffer (shared storage, so a hit copies nothing); latchd keeps `Data`.
final class ProfileCache: Sendable {
    private struct Entry {
        var body: ByteBuffer
        var loadedAt: Double
    }

    private let entries = Mutex<[UUID: Entry]>([:])
    private static let limit = 100_000
    private let db: SQLiteConnection

    init(db: SQLiteConnection) {
        self.db = db
    }

    /// The user's body, nil when the user does not exist.
    func profile(of userID: UUID, now: Double) async throws -> ByteBuffer? {
        if let entry = entries.withLock({ $0[userID] }), now - entry.loadedAt < SessionStatusCache.recheckInterval {
            return entry.body
        }
        guard let info = try await Self.load(userID, on: db) else { return nil }
        let json = try LatchJSON.encoder.encode(info)
        let body = ByteBuffer(bytes: json)
        entries.withLock { entries in
            if entries.count >= Self.limit { entries.removeAll(keepingCapacity: true) }
            entries[userID] = Entry(body: body, loadedAt: now)
        }
        return body
    }

    /// latchd's `User.find` then `User.profile(on:)`: the row, then its email and linked identities.
    static func load(_ userID: UUID, on db: SQLiteConnection) async throws -> UserInfo? {
        let id = SQLiteData.text(userID.uuidString)
        let rows = try await db.query(
            "SELECT id, email, email_verified, nickname, created_at FROM users WHERE id = ?", [id])
        guard let row = rows.first else { return nil }
        let email = row.column("email")?.string
        let createdAt = Date(timeIntervalSince1970: row.column("created_at")?.double ?? 0)
        var identities: [IdentityInfo] = []
        if let email {
            identities.append(IdentityInfo(provider: "email", identifier: email, linkedAt: createdAt))
        }
        let linked = try await db.query(
            "SELECT provider, subject, email, created_at FROM identities WHERE user_id = ? ORDER BY created_at", [id])
        for identity in linked {
            let provider = identity.column("provider")?.string ?? ""
            let identifier: String?
            switch provider {
            case "phone": identifier = identity.column("subject")?.string
            case "apple": identifier = identity.column("email")?.string
            default: identifier = nil
            }
            identities.append(
                IdentityInfo(
                    provider: provider, identifier: identifier,
                    linkedAt: Date(timeIntervalSince1970: identity.column("created_at")?.double ?? 0)))
        }
        return UserInfo(
            id: userID.uuidString.lowercased(), email: email, emailVerified: row.column("email_verified")?.bool ?? false,
            nickname: row.column("nickname")?.string, createdAt: createdAt, identities: identities)
    }
}

/// latchd's `UserInfo` and `IdentityInfo` (Sources/LatchCore/API), field for field: the same Codable
/// synthesis and the same encoder give the same bytes.
struct UserInfo: Codable, Sendable {
    var id: String
    var email: String?
    var emailVerified: Bool
    var nickname: String?
    var createdAt: Date
    var identities: [IdentityInfo]?

    enum CodingKeys: String, CodingKey {
        case id, email, nickname, identities
        case emailVerified = "email_verified"
        case createdAt = "created_at"
    }
}

struct IdentityInfo: Codable, Sendable {
    var provider: String
    var identifier: String?
    var linkedAt: Date

    enum CodingKeys: String, CodingKey {
        case provider, identifier
        case linkedAt = "linked_at"
    }
}

/// latchd's `LatchJSON.encoder`: ISO 8601 dates, sorted keys, slashes unescaped.
enum LatchJSON {
    static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }
}
