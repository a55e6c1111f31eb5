import Foundation
import LatchCore

extension LatchClientError {
    /// Whether the account is frozen (403 ACCOUNT_FROZEN, issue 19 §3): recover with the password reset
    /// by email code.
    public var isAccountFrozen: Bool { code == .accountFrozen }

    /// Whether a password reset needs the second factor (issue 19 §3: a frozen account with 2FA on):
    /// 403 VERIFICATION_REQUIRED naming `field: "second_factor"`. Ask for the authenticator's code (or a
    /// recovery code) and call ``LatchClient/resetPassword(email:code:newPassword:secondFactor:)`` again.
    public var needsSecondFactor: Bool {
        code == .verificationRequired && serverError?.field == "second_factor"
    }

    /// The security hold that refused the call (403 SECURITY_HOLD, issue 19 §2): the held action, why,
    /// and until when. `nil` for every other error (or a hold answer without its `hold_until`).
    public var securityHold: VerificationHold? {
        serverError.flatMap { VerificationHold($0) }
    }
}
