import FluentKit
import Foundation
import LatchCore
import SQLKit

/// The accounts' linked phone numbers (`IdentityStore`), read by the operator's views and the security
/// notices that go by SMS to an account without an email.
extension IdentityStore {
    /// The linked phone numbers of `users` (one each; a user without one is left out).
    func phoneNumbers(of users: [UUID], on database: any Database) async throws -> [UUID: String] {
        guard !users.isEmpty else { return [:] }
        let rows = try await Identity.query(on: database).filter(\.$userID ~~ users).filter(
            \.$provider == SignInProvider.phone.rawValue
        )
        .all()
        return Dictionary(rows.map { ($0.userID, $0.subject) }, uniquingKeysWith: { first, _ in first })
    }

    /// `user`'s linked phone number, when it has one.
    func phoneNumber(of user: UUID, on database: any Database) async throws -> String? {
        try await database.sql.raw(
            """
            SELECT subject FROM identities WHERE user_id = \(bind: user) AND provider = \(bind: SignInProvider.phone.rawValue)
            """
        ).first()?.decode(column: "subject", as: String.self)
    }
}
