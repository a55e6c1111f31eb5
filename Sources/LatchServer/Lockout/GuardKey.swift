import Foundation
import LatchCore

/// The keys of lockout ladders (`login_throttles`) and guess and send budgets (`guess_budgets`): one
/// typed vocabulary (issue 28 §1). Every place that counts, clears or erases one builds it here, and
/// `ofAccount` is the one list that the operator's unlock, the admin view and account deletion read, so
/// a new kind of key is a new case that they all see.
enum GuardKey: Hashable, Sendable {
    /// Password guesses at an address (the sign-in ladder and budget).
    case email(String)
    /// Password guesses at an account without an email (the password change).
    case user(UUID)
    case fundPassword(UUID)
    case totp(UUID)
    /// Guesses at a pending TOTP enrolment (its own budget: they cannot lock the active factors).
    case totpEnrolment(UUID)
    /// Guesses at an emailed code of `purpose` for `target` (an address, or `{user}:{address}`).
    case emailCode(EmailCode.Purpose, target: String)
    /// Guesses at the mailed code of a new-device sign-in of an account.
    case signInCode(UUID)
    /// Guesses at texted codes of a phone number.
    case smsCode(phone: String)
    /// The daily cap of codes sent for a purpose to a target.
    case emailCodeSends(EmailCode.Purpose, target: String)
    /// The daily cap of new-device sign-in codes of an account.
    case signInCodeSends(UUID)
    /// A session's share of the account's hourly notice budget (issue 28 §2); nil: no session.
    case notices(user: UUID, session: UUID?)
    /// The account's notice-digest window (issue 20 §2).
    case noticeWindow(UUID)

    var rawValue: String {
        switch self {
        case .email(let address): "email:\(address)"
        case .user(let user): "user:\(user.key)"
        case .fundPassword(let user): "fund:\(user.key)"
        case .totp(let user): "totp:\(user.key)"
        case .totpEnrolment(let user): "totp-enrol:\(user.key)"
        case .emailCode(let purpose, let target): "code:\(purpose.rawValue):\(target)"
        case .signInCode(let user): "code:sign_in:\(user.key)"
        case .smsCode(let phone): "code:sms:\(phone)"
        case .emailCodeSends(let purpose, let target): "send:\(purpose.rawValue):\(target)"
        case .signInCodeSends(let user): "send:sign_in:\(user.key)"
        case .notices(let user, let session): "notice:\(user.key):\(session?.key ?? "account")"
        case .noticeWindow(let user): "notice-window:\(user.key)"
        }
    }

    /// The fixed budget a key is charged against; nil for the notice keys, whose budgets come from the
    /// configuration (`LATCH_SECURITY_MAILS_PER_HOUR`, `LATCH_NOTICE_DIGEST_SECONDS`) and are no guesses.
    var budget: GuessBudget? {
        switch self {
        case .email, .user: .passwords
        case .fundPassword: .fundPasswords
        case .emailCodeSends, .signInCodeSends: .sends
        case .totp, .totpEnrolment, .emailCode, .signInCode, .smsCode: .codes
        case .notices, .noticeWindow: nil
        }
    }

    /// Every key that counts against the account of `user` with `email` and `phone`, except those whose
    /// exact form names a session or another address (`patterns`).
    static func ofAccount(_ user: UUID, email: String?, phone: String?) -> [GuardKey] {
        var keys: [GuardKey] = [
            .user(user), .fundPassword(user), .totp(user), .totpEnrolment(user), .signInCode(user),
            .signInCodeSends(user), .notices(user: user, session: nil), .noticeWindow(user)
        ]
        if let email {
            keys.append(.email(email))
            for purpose in [EmailCode.Purpose.registration, .passwordReset, .linkEmail, .removeEmail] {
                keys += [.emailCode(purpose, target: email), .emailCodeSends(purpose, target: email)]
            }
            // Link and removal codes are checked under `{user}:{address}`.
            for purpose in [EmailCode.Purpose.linkEmail, .removeEmail] {
                keys.append(.emailCode(purpose, target: "\(user.key):\(email)"))
            }
        }
        if let phone { keys.append(.smsCode(phone: phone)) }
        return keys
    }

    /// SQL `LIKE` patterns of the account's keys that name a session or another address: notice shares,
    /// and link or removal codes keyed `{user}:{address}`.
    static func patterns(ofAccount user: UUID) -> [String] {
        [
            "notice:\(user.key):%",
            "code:\(EmailCode.Purpose.linkEmail.rawValue):\(user.key):%",
            "code:\(EmailCode.Purpose.removeEmail.rawValue):\(user.key):%"
        ]
    }
}

extension UUID {
    /// The lowercase form keys are written in.
    fileprivate var key: String { uuidString.lowercased() }
}
