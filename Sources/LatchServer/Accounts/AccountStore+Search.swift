import FluentKit
import Foundation
import SQLKit

/// The operator's search of accounts (`AdminService.findUsers`, `AccountStore`).
extension AccountStore {
    /// The ids of live accounts (not tombstones) whose email or phone number starts with `text`, or whose
    /// id does (`text` lowercased; empty: everyone), in id order, at most `limit` after `after`.
    func liveIDs(matching text: String, after: UUID?, limit: Int, on database: any Database) async throws -> [UUID] {
        let idText: SQLQueryString = "lower(CAST(users.id AS TEXT))"
        var conditions: [SQLQueryString] = ["users.deleted_at IS NULL"]
        if !text.isEmpty {
            let prefix = AdminService.likePrefix(text)
            var matches: [SQLQueryString] = ["lower(users.email) LIKE \(bind: prefix) ESCAPE '\\'"]
            if text.allSatisfy({ $0.isHexDigit || $0 == "-" }) {
                matches.append("\(idText) LIKE \(bind: prefix) ESCAPE '\\'")
            }
            let digits = text.hasPrefix("+") ? text.dropFirst() : Substring(text)
            if !digits.isEmpty, digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber) {
                matches.append(
                    """
                    users.id IN (SELECT user_id FROM identities WHERE provider = 'phone'
                      AND subject LIKE \(bind: AdminService.likePrefix("+" + digits)) ESCAPE '\\')
                    """)
            }
            conditions.append("(\(matches.joined(separator: " OR ")))")
        }
        if let after { conditions.append("\(idText) > \(bind: after.uuidString.lowercased())") }
        let whereClause: SQLQueryString = "WHERE \(conditions.joined(separator: " AND "))"
        let rows = try await database.sql.raw(
            """
            SELECT users.id FROM users \(whereClause) ORDER BY \(idText) LIMIT \(bind: limit)
            """
        ).all()
        return try rows.map { try $0.decode(column: "id", as: UUID.self) }
    }
}
