import HTTPTypes
import LatchCore
import NIOHTTP1

/// Why an Apple or WeChat sign-in could not go on, turned into the API's error format by
/// `latchError(language:)` with the existing codes (so every client already knows them):
/// not configured → 422 VALIDATION_FAILED (`reasons` `["provider_not_configured"]`); a refused proof →
/// 401 AUTH_001 naming the reason; the provider unreachable → 503 INTERNAL_ERROR (`["provider_unavailable", …]`,
/// `retry_after`).
enum IdentityFailure: Error, Equatable {
    case notConfigured(SignInProvider, field: String)
    /// The provider's proof is not good: `reason` is e.g. `expired`, `wrong_audience`, `invalid_code`, `code_used`.
    case rejected(SignInProvider, field: String, reason: String)
    /// The provider could not be asked (down, timeout, nonsense, or latchd's credentials refused).
    case unavailable(SignInProvider, reason: String)

    func latchError(language: LatchLanguage) -> LatchError {
        switch self {
        case .notConfigured(let provider, let field):
            return LatchError(
                .validationFailed, status: LatchError.status(422), field: field, reasons: ["provider_not_configured"],
                message: ErrorMessage.providerNotConfigured(provider).text(in: language))
        case .rejected(let provider, let field, let reason):
            return LatchError(
                .wrongCredentials, field: field, reasons: [reason],
                message: ErrorMessage.providerRejected(provider).text(in: language))
        case .unavailable(let provider, let reason):
            return LatchError(
                .internalError, status: .serviceUnavailable, reasons: ["provider_unavailable", reason], retryAfter: 30,
                message: ErrorMessage.providerUnavailable(provider).text(in: language))
        }
    }
}

extension SignInProvider {
    /// The provider's name in a message.
    func displayName(_ language: LatchLanguage) -> String {
        switch (self, language) {
        case (.email, .zhHans): "邮箱"
        case (.email, .en): "Email"
        case (.apple, _): "Apple"
        case (.wechat, .zhHans): "微信"
        case (.wechat, .en): "WeChat"
        case (.phone, .zhHans): "手机号"
        case (.phone, .en): "Phone"
        }
    }
}
