import FluentKit
import Foundation
import SQLKit

/// The statements on `event_streams` that keep an SSF receiver's requested events in a stream's `types`
/// column (issue 44 §1); what the column's text means is `SSFStreamEvents`'. Neither needs the sealed
/// secrets, so neither needs an instance.
extension EventStreamStore {
    /// Stream `id`'s `types` column; nil when there is no such stream.
    static func types(ofStream id: String, on database: any Database) async throws -> String? {
        let row = try await database.sql.raw("SELECT types FROM event_streams WHERE id = \(bind: id)").first()
        return try row.map { try $0.decode(column: "types", as: String.self) }
    }

    /// Writes stream `id`'s `types` column, changed at `now`.
    static func setTypes(_ types: String, ofStream id: String, now: Double, on database: any Database) async throws {
        try await database.sql.raw(
            """
            UPDATE event_streams SET types = \(bind: types), updated_at = \(bind: now)
            WHERE id = \(bind: id)
            """
        ).run()
    }
}
