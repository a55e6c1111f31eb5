import Foundation
import LatchCore

/// What the phone is asked to approve (issue 43): a sign-in on the web by a scanned code (§1), or a
/// verification started elsewhere and pushed to this phone (§2).
public enum ApprovalSubject: Sendable, Equatable {
    /// The scanned code's approval.
    case signIn(ApprovalLink)
    /// A verification waiting for this phone (from the push or `GET /v1/approvals`).
    case verification(id: String)
}

/// What the server says asks, as loaded for the approval screen.
public enum ApprovalDetails: Sendable, Equatable {
    case signIn(SignInApprovalDetails)
    case verification(PhoneVerificationDetails)

    /// The three numbers, one of them the asking screen's.
    public var numbers: [String] {
        switch self {
        case .signIn(let details): details.numbers
        case .verification(let details): details.numbers ?? []
        }
    }

    /// When the request ends.
    public var expiresAt: Date {
        switch self {
        case .signIn(let details): details.expiresAt
        case .verification(let details): details.expiresAt
        }
    }

    /// Whether it can still be decided: pending, and with numbers to pick from.
    var isOpen: Bool {
        switch self {
        case .signIn(let details): details.numbers.count >= 2
        case .verification(let details): details.state == .pending && (details.numbers?.count ?? 0) >= 2
        }
    }
}

/// How the Face ID step on the verification page ended.
public enum ApprovalVerificationOutcome: Sendable, Equatable {
    /// Passed. For a sign-in, the token of `approve_sign_in` to send with the decision; for a pushed
    /// verification nil: the server counted the phone's pass already.
    case passed(token: String?)
    /// The server refused the picked number: the request is over for good.
    case wrongNumber
    /// The user closed the page.
    case cancelled
    /// The page could not go on (the session ended, no way to verify, the request ended).
    case failed
}

/// Why a call to the server failed, as the approval screen needs it.
public enum ApprovalCallFailure: Error, Sendable, Equatable {
    /// The request is gone: expired, decided elsewhere, or never there (NOT_FOUND).
    case gone
    /// AUTH_003 on the number: the request ended for good.
    case wrongNumber
    /// Anything else, with the line to show.
    case other(message: String)

    /// The failure `error` (from a `LatchClient` call) means.
    public init(_ error: any Error, language: LatchLanguage) {
        switch error as? LatchClientError {
        case .server(let server)? where server.code == .notFound || server.status == 404:
            self = .gone
        case .server(let server)? where server.code == .wrongCode && server.details.field == "number":
            self = .wrongNumber
        case .server(let server)?, .accountFrozen(let server)?:
            self = .other(message: server.message)
        case .network?:
            self = .other(message: language.pick("无法连接服务器，请检查网络", "The server cannot be reached."))
        default:
            self = .other(message: String(describing: error))
        }
    }
}

/// How the approval screen ended.
public enum ApprovalEnd: Sendable, Equatable {
    /// Approved: the web is signed in, or the action's initiator collects its token.
    case approved
    /// Denied by the user.
    case denied
    /// "This wasn't me": the account is frozen, every device signed out.
    case frozen
    /// It ran out, or ended elsewhere.
    case expired
    /// The picked number was not the asking screen's: ended for good (the owner is told).
    case wrongNumber
    /// Closed by the user without deciding (the request stays open until it expires).
    case closed
    /// Something else went wrong, with the line to show.
    case failed(message: String)
}
