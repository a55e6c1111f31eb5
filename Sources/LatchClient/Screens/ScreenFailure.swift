import Foundation
import LatchCore

/// What an account screen shows for a failed call: the server's own message (in the language the
/// client asked for) with the details the screen acts on, or the SDK's text when no answer arrived
/// (C11: network errors suggest a retry).
///
///     } catch {
///         failure = ScreenFailure(error, language: .zhHans)   // "邮箱或密码错误" / "Wrong email or password.", attemptsRemaining 3
///     }
public struct ScreenFailure: Sendable, Equatable {
    /// The line the screen shows.
    public var message: String
    /// The server's code, when it answered with one.
    public var code: LatchErrorCode?
    /// Tries left before a code dies or a lock starts (AUTH_001, AUTH_003).
    public var attemptsRemaining: Int?
    /// When a lock ends (AUTH_002).
    public var lockedUntil: Date?
    /// Seconds to wait before asking again (RATE_LIMITED, a busy delivery queue).
    public var retryAfter: Int?
    /// The request field at fault (VALIDATION_FAILED).
    public var field: String?
    /// Whether trying the same again may work (no answer arrived, or the server was busy).
    public var isRetryable: Bool

    public init(
        message: String, code: LatchErrorCode? = nil, attemptsRemaining: Int? = nil, lockedUntil: Date? = nil,
        retryAfter: Int? = nil, field: String? = nil, isRetryable: Bool = false
    ) {
        self.message = message
        self.code = code
        self.attemptsRemaining = attemptsRemaining
        self.lockedUntil = lockedUntil
        self.retryAfter = retryAfter
        self.field = field
        self.isRetryable = isRetryable
    }

    /// What to show for `error`, thrown by a `LatchClient` call (anything else reads as no answer).
    public init(_ error: any Error, language: LatchLanguage) {
        guard let error = error as? LatchClientError else {
            self.init(message: Self.networkMessage(language), isRetryable: true)
            return
        }
        switch error {
        case .server(let server):
            self.init(
                message: server.message, code: server.code, attemptsRemaining: server.attemptsRemaining,
                lockedUntil: server.lockedUntil, retryAfter: server.retryAfter, field: server.field,
                isRetryable: server.retryAfter != nil || server.status >= 500)
        case .signInVerificationRequired:
            self.init(message: LatchErrorCode.verificationRequired.message(in: language), code: .verificationRequired)
        case .accountFrozen(let server):
            self.init(message: server.message, code: .accountFrozen)
        case .network:
            self.init(message: Self.networkMessage(language), isRetryable: true)
        case .unexpected:
            self.init(message: Self.unexpectedMessage(language), isRetryable: true)
        case .notSignedIn:
            self.init(message: LatchErrorCode.sessionExpired.message(in: language), code: .sessionExpired)
        case .vaultUnavailable:
            self.init(message: Self.vaultMessage(language), isRetryable: true)
        }
    }

    /// No answer arrived: "网络连接失败，请重试" / "The network connection failed. Please try again.".
    static func networkMessage(_ language: LatchLanguage) -> String {
        switch language {
        case .zhHans: "网络连接失败，请重试"
        case .en: "The network connection failed. Please try again."
        }
    }

    /// An answer the SDK cannot read: "服务暂时不可用，请稍后重试" / "The service is unavailable right now. Please try again later."
    static func unexpectedMessage(_ language: LatchLanguage) -> String {
        switch language {
        case .zhHans: "服务暂时不可用，请稍后重试"
        case .en: "The service is unavailable right now. Please try again later."
        }
    }

    /// The Keychain is locked: "设备已锁定，请解锁后重试" / "Your device is locked. Unlock it and try again."
    static func vaultMessage(_ language: LatchLanguage) -> String {
        switch language {
        case .zhHans: "设备已锁定，请解锁后重试"
        case .en: "Your device is locked. Unlock it and try again."
        }
    }
}
