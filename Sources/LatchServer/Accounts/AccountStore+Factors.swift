import FluentKit
import Foundation
import SQLKit

/// When each of the account's factors was added and by which session (`AccountFactors`), read with the
/// account's row in one statement (`AccountStore`).
extension AccountStore {
    /// `user`'s factors, or nil when there is no such account.
    func factors(of user: UUID, on database: any Database) async throws -> AccountFactors? {
        guard
            let row = try await database.sql.raw(
                """
                SELECT u.created_at, u.registering_session_id, u.hold_lifted_at, u.email,
                  COALESCE(u.email_added_at, u.created_at) AS email_added_at, u.email_session_id,
                  f.updated_at AS fund_added_at, f.session_id AS fund_session_id,
                  t.created_at AS totp_added_at, t.session_id AS totp_session_id
                FROM users u
                LEFT JOIN fund_passwords f ON f.user_id = u.id
                LEFT JOIN totp_credentials t ON t.user_id = u.id AND t.active = \(bind: true)
                WHERE u.id = \(bind: user)
                """
            ).first()
        else { return nil }
        func provenance(_ added: String, _ session: String) throws -> FactorSeasoning.Provenance? {
            guard let addedAt = try row.decode(column: added, as: Double?.self) else { return nil }
            return .init(addedAt: addedAt, session: try row.decode(column: session, as: UUID?.self))
        }
        return AccountFactors(
            email: try row.decode(column: "email", as: String?.self) == nil
                ? nil : try provenance("email_added_at", "email_session_id"),
            fundPassword: try provenance("fund_added_at", "fund_session_id"),
            totp: try provenance("totp_added_at", "totp_session_id"),
            createdAt: try row.decode(column: "created_at", as: Double.self),
            registeringSession: try row.decode(column: "registering_session_id", as: UUID?.self),
            holdLiftedAt: try row.decode(column: "hold_lifted_at", as: Double?.self))
    }
}
