import Foundation
import LatchCore

/// A `POST /v1/verifications/{id}/attempts` body parsed once, at the edge: each method with exactly the
/// fields it is checked with, present (a missing one is 400 `VALIDATION_FAILED` `missing`, naming it).
enum Answer: Sendable {
    /// A bound device key's signature over the verification's challenge and the action's digest, and
    /// the App Attest assertion over the same message when the app sent one (issue 31 §2).
    case biometric(credentialID: UUID, signature: String, assertion: String?)
    /// A passkey assertion over the offer's challenge.
    case passkey(AuthenticationResponseJSON)
    /// A TOTP code or a recovery code.
    case totp(code: String)
    /// The fund password.
    case fundPassword(String)
    /// The code mailed for this verification (issue 30 §2).
    case emailCode(String)

    /// Parses `body` by its `method`, in the order the fields were always checked.
    init(_ body: VerificationAttempt) throws {
        switch body.method {
        case .biometric:
            guard let credentialID = body.credentialId.flatMap(UUID.init(uuidString:)) else {
                throw LatchError.missing("credential_id")
            }
            let signature = try body.signature.requiredNonEmpty("signature")
            guard signature.count <= 512 else { throw LatchError.missing("signature") }
            self = .biometric(credentialID: credentialID, signature: signature, assertion: body.appAttestAssertion)
        case .passkey:
            self = .passkey(try body.credential.required("credential"))
        case .totp:
            let code = try body.code.requiredNonEmpty("code")
            guard code.count <= 64 else { throw LatchError.invalid("code", ["too_long"]) }
            self = .totp(code: code)
        case .fundPassword:
            let candidate = try body.fundPassword.requiredNonEmpty("fund_password")
            guard candidate.count <= 64 else { throw LatchError.invalid("fund_password", ["too_long"]) }
            self = .fundPassword(candidate)
        case .emailCode:
            let code = try body.code.requiredNonEmpty("code")
            guard code.count <= 64 else { throw LatchError.invalid("code", ["too_long"]) }
            self = .emailCode(code)
        }
    }

    /// The method this answer is by.
    var method: VerificationMethodKind {
        switch self {
        case .biometric: .biometric
        case .passkey: .passkey
        case .totp: .totp
        case .fundPassword: .fundPassword
        case .emailCode: .emailCode
        }
    }
}
