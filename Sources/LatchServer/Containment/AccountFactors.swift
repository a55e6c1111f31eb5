import FluentKit
import Foundation
import LatchCore
import SQLKit

/// The factors of an account that one row stands for (its address, the fund password, an active TOTP),
/// each with when and by which session it was added, and the account's own dates that judge them for a
/// held action (issue 28 §2). Read in one statement (issue 29 §2: a verification's hot read on a direct
/// statement; it took five Fluent and SQL reads before). Device keys and passkeys have rows of their
/// own and are read apart.
struct AccountFactors: Sendable, Equatable {
    /// The account's address (the `email_code` kind), when it has one.
    let email: FactorSeasoning.Provenance?
    let fundPassword: FactorSeasoning.Provenance?
    /// TOTP with its recovery codes, when active.
    let totp: FactorSeasoning.Provenance?
    /// The account's `created_at`, `registering_session_id` and `hold_lifted_at`.
    let createdAt: Double
    let registeringSession: UUID?
    let holdLiftedAt: Double?

    /// The provenance of the factor of `kind` where one row stands for it; nil when the user has none, and
    /// for device keys and passkeys, which are judged one by one (`DeviceCredential.provenance`,
    /// `Passkey.provenance`). The switch is exhaustive, so a new kind cannot be offered for a held action
    /// without saying how old it is.
    func provenance(of kind: VerificationMethodKind) -> FactorSeasoning.Provenance? {
        switch kind {
        case .biometric, .passkey: return nil
        case .totp: return totp
        case .fundPassword: return fundPassword
        case .emailCode: return email
        }
    }

    /// `user`'s factors, or nil when there is no such account.
    static func read(of user: UUID, on database: any Database) async throws -> AccountFactors? {
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
