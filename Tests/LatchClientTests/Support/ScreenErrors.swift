// Shared by the account screen tests (issue 11 §4).
#if canImport(Observation)
    import Foundation
    import LatchClient
    import LatchCore
    import Testing

    /// Errors as `LatchClient` throws them.
    enum ScreenErrors {
        static func server(
            _ code: LatchErrorCode, status: Int, message: String, attemptsRemaining: Int? = nil,
            lockedUntil: Date? = nil,
            retryAfter: Int? = nil, field: String? = nil, reasons: [String]? = nil
        ) -> LatchClientError {
            .server(
                LatchServerError(
                    status: status, rawCode: code.rawValue, message: message, field: field, reasons: reasons,
                    attemptsRemaining: attemptsRemaining, lockedUntil: lockedUntil, retryAfter: retryAfter))
        }

        static func rateLimited(_ seconds: Int, _ language: LatchLanguage = .zhHans) -> LatchClientError {
            server(
                .rateLimited, status: 429, message: LatchErrorCode.rateLimited.message(in: language),
                retryAfter: seconds)
        }

        static let verificationRequired = server(.verificationRequired, status: 403, message: "此操作需要先验证身份")

        struct Offline: Error {}
        static let offline = LatchClientError.network(Offline())
    }
#endif
