import LatchCore
import Testing

@testable import LatchClient

/// Localized biometric messages (zh-Hans with the seeds' wording, and English).
@Suite("Biometric messages")
struct BiometricNoticeTests {
    static let all: [BiometricNotice] =
        BiometryKind.allCases.flatMap { kind in
            [
                .notRecognized(kind), .cancelled(kind), .passcodeNotSet(kind), .notEnrolled(kind), .notAvailable(kind),
                .lockedOut(kind), .enrollmentChanged(kind), .bindingRemoved(kind), .failed(kind)
            ]
        } + [.notSupported, .networkError]

    @Test func B2_touchIDMessagesUseSeed001Wording() {
        #expect(BiometricNotice.notRecognized(.touchID).text(in: .zhHans) == "指纹验证失败")
        #expect(BiometricNotice.cancelled(.touchID).text(in: .zhHans) == "指纹验证取消")
        #expect(BiometricNotice.passcodeNotSet(.touchID).text(in: .zhHans) == "系统未设置密码")
        #expect(BiometricNotice.notEnrolled(.touchID).text(in: .zhHans) == "指纹未录入或系统未设置密码")
        #expect(BiometricNotice.notAvailable(.touchID).text(in: .zhHans) == "设备指纹不可用")
        #expect(BiometricNotice.failed(.touchID).text(in: .zhHans) == "指纹验证失败")
    }

    @Test func A10_faceIDMessagesNameFaceID() {
        #expect(BiometricNotice.notRecognized(.faceID).text(in: .zhHans) == "Face ID验证失败")
        #expect(BiometricNotice.notRecognized(.faceID).text(in: .en) == "Face ID didn't recognize you. Try again.")
        #expect(BiometricNotice.lockedOut(.faceID).text(in: .en).hasPrefix("Face ID is locked"))
        #expect(BiometricStrings.signIn(with: .faceID, in: .zhHans) == "面容登录")
        #expect(BiometricStrings.signIn(with: .touchID, in: .zhHans) == "指纹登录")
        #expect(BiometricStrings.signIn(with: .touchID, in: .en) == "Sign in with Touch ID")
    }

    @Test func A10_everyMessageExistsInBothLanguages() {
        for notice in Self.all {
            let chinese = notice.text(in: .zhHans)
            let english = notice.text(in: .en)
            #expect(!chinese.isEmpty && !english.isEmpty, "\(notice)")
            #expect(chinese != english, "\(notice)")
            #expect(!english.unicodeScalars.contains { (0x4E00...0x9FFF).contains($0.value) }, "\(notice)")
        }
        #expect(BiometricNotice.server("账号已被锁定").text(in: .en) == "账号已被锁定")
    }

    @Test func C12_passwordSignInLabel() {
        #expect(BiometricStrings.signInWithPassword(in: .zhHans) == "使用密码登录")
        #expect(BiometricStrings.signInWithPassword(in: .en) == "Sign in with password")
        #expect(BiometricStrings.openSettings(in: .zhHans) == "去设置")
        #expect(BiometricStrings.enable(.faceID, in: .zhHans) == "开启面容登录")
        #expect(BiometricStrings.enableReason(with: .touchID, in: .en) == "Verify Touch ID to turn on Touch ID sign-in")
    }

    @Test func B2_failureCodesGiveTheirSettingsOrLockoutNotice() {
        #expect(BiometricNotice(failure: .passcodeNotSet, kind: .faceID) == .passcodeNotSet(.faceID))
        #expect(BiometricNotice(failure: .biometryNotAvailable, kind: .faceID) == .notAvailable(.faceID))
        #expect(BiometricNotice(failure: .biometryNotEnrolled, kind: .touchID) == .notEnrolled(.touchID))
        #expect(BiometricNotice(failure: .biometryLockout, kind: .touchID) == .lockedOut(.touchID))
        for code in [
            BiometricErrorCode.authenticationFailed, .userCancel, .userFallback, .systemCancel, .appCancel,
            .invalidContext, .notInteractive, .other(7)
        ] {
            #expect(BiometricNotice(failure: code, kind: .faceID) == nil)
        }
    }

    @Test func B1_unavailableReasonsGiveTheirNotice() {
        #expect(BiometricNotice.unavailable(.notEnrolled, kind: .faceID) == .notEnrolled(.faceID))
        #expect(BiometricNotice.unavailable(.passcodeNotSet, kind: .faceID) == .passcodeNotSet(.faceID))
        // Issue 23 §1: the capability check's own notice ("指纹不可用"), not the prompt's −6 ("设备指纹不可用").
        #expect(BiometricNotice.unavailable(.notAvailable, kind: .faceID) == .unavailable(.faceID))
        #expect(BiometricNotice.unavailable(.lockedOut, kind: .faceID) == .lockedOut(.faceID))
        #expect(BiometricNotice.unavailable(.notSupported, kind: .faceID) == .notSupported)
        #expect(Self.all.filter(\.suggestsSettings).count == 3 * BiometryKind.allCases.count)
    }
}
