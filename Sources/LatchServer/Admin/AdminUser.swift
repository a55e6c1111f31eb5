import Foundation
import LatchCore

/// A user as the admin API shows it (`GET /v1/admin/users`): who it is and whether it may sign in.
/// Never a secret or a hash.
public struct AdminUser: Codable, Sendable, Equatable {
    public var id: String
    public var email: String?
    public var emailVerified: Bool
    /// The linked phone number (E.164), if any.
    public var phone: String?
    public var nickname: String?
    public var createdAt: Date
    /// Whether an operator disabled the account (it cannot sign in), and since when.
    public var disabled: Bool
    public var disabledAt: Date?

    enum CodingKeys: String, CodingKey {
        case id, email, phone, nickname, disabled
        case emailVerified = "email_verified"
        case createdAt = "created_at"
        case disabledAt = "disabled_at"
    }
}

/// One page of `GET /v1/admin/users`; `next_cursor` asks for the next (null: this was the last).
public struct AdminUserPage: Codable, Sendable, Equatable {
    public var users: [AdminUser]
    public var nextCursor: String?

    enum CodingKeys: String, CodingKey {
        case users
        case nextCursor = "next_cursor"
    }

    /// `next_cursor` is always there: null on the last page.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(users, forKey: .users)
        try container.encode(nextCursor, forKey: .nextCursor)
    }
}

extension User {
    /// The admin view of this user, with its phone number (looked up by the caller).
    func adminInfo(phone: String?) -> AdminUser {
        AdminUser(
            id: id?.uuidString.lowercased() ?? "", email: email, emailVerified: emailVerified, phone: phone,
            nickname: nickname,
            createdAt: Date(timeIntervalSince1970: createdAt), disabled: disabledAt != nil,
            disabledAt: disabledAt.map(Date.init(timeIntervalSince1970:)))
    }
}
