import Foundation
import LatchCore

/// What an app shows and does with a failure: a sentence for a person (`localizedDescription`), whether
/// trying the same call again later can help, and when (`retryAfter`, `lockedUntil`).
///
///     catch let error as LatchClientError {
///         showAlert(error.localizedDescription)               // the server's message, or the SDK's
///         if error.isRetryable { offerRetry(after: error.retryAfter) }
///     }
extension LatchClientError: LocalizedError {
    /// The server's message when it answered (already in the request's language), else the SDK's
    /// own sentence in the device's language (``LatchLanguage/device``).
    public var errorDescription: String? { message(in: .device) }

    /// A sentence for a person, in `language` for what the SDK says itself (the server's message is
    /// in the language the request asked for).
    public func message(in language: LatchLanguage) -> String {
        switch self {
        case .server(let error), .accountFrozen(let error): error.message
        case .signInVerificationRequired: LatchErrorCode.verificationRequired.message(in: language)
        case .network:
            language == .zhHans
                ? "网络连接失败，请检查网络后重试" : "The network could not be reached. Check the connection and try again."
        case .unexpected:
            language == .zhHans
                ? "服务器的回答无法识别，请稍后再试" : "The server gave an answer this app cannot read. Please try again later."
        case .notSignedIn: LatchErrorCode.sessionExpired.message(in: language)
        case .vaultUnavailable:
            language == .zhHans ? "设备已锁定，请解锁后重试" : "The device is locked. Unlock it and try again."
        }
    }

    /// Whether the same call may succeed if tried again later without changing anything: no answer
    /// arrived, the vault was locked, the server was busy or failing (429, 5xx). A wrong password, a
    /// lock, an expired session or bad input are not: something must change first.
    public var isRetryable: Bool {
        switch self {
        case .network, .vaultUnavailable: true
        case .server(let error): error.status == 429 || error.status >= 500
        case .unexpected(let status): status >= 500
        case .signInVerificationRequired, .accountFrozen, .notSignedIn: false
        }
    }

    /// When the lock ends (AUTH_002), as the server said.
    public var lockedUntil: Date? { serverError?.lockedUntil }

    /// Seconds to wait before trying again (429 RATE_LIMITED, 503), as the server said.
    public var retryAfter: Int? { serverError?.retryAfter }
}
