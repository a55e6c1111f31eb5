import Foundation
import LatchCore
import NIOHTTP1

/// The opaque cursors of the admin lists: base64url of where the previous page ended (`u:{user id}`
/// for users in id order, `a:{entry id}` for the audit log, newest first). Anything else is 400
/// VALIDATION_FAILED naming `cursor`.
enum AdminCursor {
    static func after(user id: UUID) -> String { Base64URL.encode(Array("u:\(id.uuidString.lowercased())".utf8)) }

    static func after(auditEntry id: Int) -> String { Base64URL.encode(Array("a:\(id)".utf8)) }

    /// The user id a users cursor ends at.
    static func user(_ cursor: String) throws -> UUID {
        guard let text = decoded(cursor), text.hasPrefix("u:"), let id = UUID(uuidString: String(text.dropFirst(2)))
        else {
            throw LatchError(.validationFailed, field: "cursor", reasons: ["invalid"])
        }
        return id
    }

    /// The audit entry id an audit cursor ends at.
    static func auditEntry(_ cursor: String) throws -> Int {
        guard let text = decoded(cursor), text.hasPrefix("a:"), let id = Int(text.dropFirst(2)), id > 0 else {
            throw LatchError(.validationFailed, field: "cursor", reasons: ["invalid"])
        }
        return id
    }

    private static func decoded(_ cursor: String) -> String? {
        guard cursor.utf8.count <= 200, let bytes = Base64URL.decode(cursor) else { return nil }
        return String(bytes: bytes, encoding: .utf8)
    }
}
