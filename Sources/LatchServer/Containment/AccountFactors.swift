import FluentKit
import Foundation
import LatchCore

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
}
