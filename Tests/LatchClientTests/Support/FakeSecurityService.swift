// Shared by the account screen tests (issue 11 §4).
#if canImport(Observation)
    import Foundation
    import LatchClient
    import LatchCore
    import Testing

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
#endif
