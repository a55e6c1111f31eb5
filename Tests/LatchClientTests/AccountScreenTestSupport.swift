// Fakes shared by the account screen tests (issue 11 §4): a clock the test moves, server errors in the
// API's shape, and one fake service per screen that answers from a script and records every call.
#if canImport(Observation)
    import Foundation
    import LatchClient
    import LatchCore
    import Testing

    /// Time as the test says.
    @MainActor
    final class ScreenTestClock {
        var now = Date(timeIntervalSince1970: 1_800_000_000)

        func advance(_ seconds: TimeInterval) { now = now.addingTimeInterval(seconds) }

        var read: @MainActor () -> Date { { self.now } }
    }

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

    /// The next scripted answer; a call the test did not script is recorded as a failure (not a crash).
    @MainActor
    func nextAnswer<Value>(_ answers: inout [Result<Value, LatchClientError>], for call: String) throws -> Value {
        guard !answers.isEmpty else {
            Issue.record("unscripted call: \(call)")
            throw ScreenErrors.offline
        }
        return try answers.removeFirst().get()
    }

    let screenUser = UserInfo(
        id: "u-1", email: "user@example.com", emailVerified: true, nickname: nil,
        createdAt: Date(timeIntervalSince1970: 1_700_000_000))

    @MainActor
    final class FakeRegistrationService: RegistrationService {
        struct Start: Equatable {
            var email: String, password: String, nickname: String?, acceptTerms: Bool
        }

        var starts: [Start] = []
        var finishes: [(id: String, code: String)] = []
        var startAnswers: [Result<String, LatchClientError>] = []
        var finishAnswers: [Result<UserInfo, LatchClientError>] = []

        func startRegistration(email: String, password: String, nickname: String?, acceptTerms: Bool) async throws
            -> String
        {
            starts.append(Start(email: email, password: password, nickname: nickname, acceptTerms: acceptTerms))
            return try nextAnswer(&startAnswers, for: "startRegistration")
        }

        func finishRegistration(id: String, code: String) async throws -> UserInfo {
            finishes.append((id, code))
            return try nextAnswer(&finishAnswers, for: "finishRegistration")
        }
    }

    @MainActor
    final class FakeSignInService: SignInService {
        var calls: [String] = []
        var answers: [Result<UserInfo, LatchClientError>] = []
        var codeAnswers: [Result<SMSCodeAccepted, LatchClientError>] = []

        func signInWithPassword(email: String, password: String) async throws -> UserInfo {
            calls.append("password \(email) \(password)")
            return try nextAnswer(&answers, for: calls.last ?? "")
        }

        func answerSignInChallenge(id: String, code: String) async throws -> UserInfo {
            calls.append("challenge \(id) \(code)")
            return try nextAnswer(&answers, for: calls.last ?? "")
        }

        func sendSignInCode(phone: String) async throws -> SMSCodeAccepted {
            calls.append("sms \(phone)")
            return try nextAnswer(&codeAnswers, for: "sendSignInCode")
        }

        func signInWithCode(phone: String, code: String) async throws -> UserInfo {
            calls.append("code \(phone) \(code)")
            return try nextAnswer(&answers, for: calls.last ?? "")
        }
    }

    @MainActor
    final class FakeDevicesService: SignedInDevicesService {
        var calls: [String] = []
        var listed: [SessionInfo] = []
        var failure: LatchClientError?

        func sessions() async throws -> [SessionInfo] {
            calls.append("list")
            if let failure { throw failure }
            return listed
        }

        func revokeSession(id: String) async throws {
            calls.append("revoke \(id)")
            if let failure { throw failure }
        }

        func revokeOtherSessions() async throws {
            calls.append("revoke others")
            if let failure { throw failure }
        }
    }

    @MainActor
    final class FakeSecurityService: SecuritySettingsService {
        var status = SecurityStatus(
            biometry: .faceID, biometricSignInEnabled: false, twoFactorEnabled: false, fundPasswordSet: false,
            verifyUnusualSignIns: true)
        var calls: [String] = []
        /// Answers for the calls that take a token: each call takes the next one (`nil`: success).
        var failures: [LatchClientError?] = []
        var enableResult = BiometricEnableResult.enabled(BiometricBinding(credentialID: "cred-1", biometry: .faceID))
        var enrollment = TOTPEnrollment(
            secret: "JBSWY3DPEHPK3PXP", otpauthURI: "otpauth://totp/Latch:user@example.com?secret=JBSWY3DPEHPK3PXP")
        var recoveryCodes = ["aaaa-bbbb", "cccc-dddd"]

        private func answer(_ call: String) throws {
            calls.append(call)
            if !failures.isEmpty, let failure = failures.removeFirst() { throw failure }
        }

        func securityStatus() async throws -> SecurityStatus {
            try answer("status")
            return status
        }

        func enableBiometricSignIn(verificationToken: String?) async throws -> BiometricEnableResult {
            try answer("enable biometrics token=\(verificationToken ?? "-")")
            return enableResult
        }

        func disableBiometricSignIn() async throws {
            try answer("disable biometrics")
        }

        func startTwoFactorSetup(verificationToken: String?) async throws -> TOTPEnrollment {
            try answer("totp enroll token=\(verificationToken ?? "-")")
            return enrollment
        }

        func activateTwoFactor(code: String) async throws -> [String] {
            try answer("totp activate \(code)")
            return recoveryCodes
        }

        func disableTwoFactor(verificationToken: String) async throws {
            try answer("totp disable token=\(verificationToken)")
        }

        func setFundPassword(_ fundPassword: String, current: String?, verificationToken: String?) async throws {
            try answer("fund \(fundPassword) current=\(current ?? "-") token=\(verificationToken ?? "-")")
        }

        func setVerifyUnusualSignIns(_ on: Bool, verificationToken: String?) async throws -> Bool {
            try answer("unusual \(on) token=\(verificationToken ?? "-")")
            return on
        }

        func setNotifyNewDevices(_ on: Bool, verificationToken: String?) async throws -> Bool {
            try answer("notice \(on) token=\(verificationToken ?? "-")")
            return on
        }
    }

    /// A verification page that answers as told and records what it was opened for.
    @MainActor
    final class FakeVerifier {
        var opened: [VerificationContext] = []
        var result: VerificationResult = .succeeded(
            VerificationProof(
                token: "vt-1", expiresIn: 300, context: VerificationContext(action: "any"), method: .fundPassword))

        var run: ScreenVerifier {
            { context in
                self.opened.append(context)
                return self.result
            }
        }
    }
#endif
