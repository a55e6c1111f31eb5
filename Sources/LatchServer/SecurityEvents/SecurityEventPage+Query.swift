import FluentKit
import Foundation
import HTTPTypes
import LatchCore
import NIOHTTP1

extension SecurityEventPage {
    /// Page sizes: 50 unless asked, at most 100.
    static let defaultLimit = 50
    static let limitRange = 1...100

    /// The events of `userID`, newest first (time, then id), `limit` at a time after `cursor` (an
    /// opaque `next_cursor` of an earlier page: base64url of `e:{created_at}|{id}`). An aggregated
    /// failure row keeps the time of its first failure, so pages stay stable while it counts up.
    static func query(userID: UUID, limit: Int?, cursor: String?, on database: any Database) async throws
        -> SecurityEventPage
    {
        let size = limit ?? defaultLimit
        guard limitRange.contains(size) else {
            throw LatchError(.validationFailed, field: "limit", reasons: ["out_of_range"])
        }
        let rows = try await SecurityEventStore().page(
            of: userID, before: try cursor.map(Self.position), limit: size + 1, on: database)
        let page = Array(rows.prefix(size))
        let next = rows.count > size ? page.last.flatMap(Self.cursor(after:)) : nil
        return SecurityEventPage(events: page.map(\.info), nextCursor: next)
    }

    static func cursor(after event: SecurityEvent) -> String? {
        guard let id = event.id else { return nil }
        return Base64URL.encode(Array("e:\(event.createdAt)|\(id.uuidString.lowercased())".utf8))
    }

    private static func position(_ cursor: String) throws -> (createdAt: Double, id: UUID) {
        // 422: a cursor is a fact of this server (no schema can say which strings it gave), like an
        // unknown challenge id; a malformed `limit` stays 400.
        let invalid = LatchError(
            .validationFailed, status: LatchError.status(422), field: "cursor", reasons: ["invalid"])
        guard cursor.utf8.count <= 200, let bytes = Base64URL.decode(cursor),
            let text = String(bytes: bytes, encoding: .utf8), text.hasPrefix("e:")
        else { throw invalid }
        let parts = text.dropFirst(2).split(separator: "|")
        guard parts.count == 2, let time = Double(parts[0]), time.isFinite, let id = UUID(uuidString: String(parts[1]))
        else { throw invalid }
        return (time, id)
    }
}
