// Issue 28 §3: one name for biometric sign-in in the SDK's Chinese texts, seed 002's "面容登录" / "指纹登录"
// (its switch: 点击开启“指纹登录”), never "Face ID登录", "面容 ID 登录" or "生物识别登录".
import Foundation
import LatchCore
import Testing

@testable import LatchClient

@Suite("One name for biometric sign-in in zh-Hans (issue 28 §3)")
struct BiometricSignInNameTests {
    /// A sensor's name, then "登录": a name of biometric sign-in.
    static var namePattern: Regex<Substring> {
        #/(?:Face ?ID|Touch ?ID|Optic ?ID|面容 ?ID|指纹 ?ID|面容|指纹|生物识别|生物特征|人脸|刷脸)\s*登录/#
    }
    static let allowedNames: Set<String> = ["面容登录", "指纹登录", "Optic ID登录"]

    /// The names of biometric sign-in that `text` uses.
    static func signInNames(in text: String) -> [String] {
        text.matches(of: namePattern).map { String($0.output) }
    }

    /// Every zh-Hans text of the SDK that can name biometric sign-in, for every sensor (and none).
    static func zhTexts() -> [String] {
        let zh = LatchLanguage.zhHans
        let settings = SecuritySettingsStrings(zh)
        let offer = BiometricOfferStrings(zh)
        let kinds: [BiometryKind?] = BiometryKind.allCases + [nil]
        var texts = kinds.flatMap { kind in
            [
                BiometricStrings.signInName(kind, in: zh), settings.biometricSwitch(kind),
                settings.biometricState(kind, enabled: true), settings.biometricState(kind, enabled: false),
                settings.enableBiometricsReason(kind), settings.biometricNotVerified(kind)
            ]
        }
        for kind in BiometryKind.allCases {
            texts += [
                BiometricStrings.signIn(with: kind, in: zh), BiometricStrings.enable(kind, in: zh),
                BiometricStrings.signInReason(with: kind, in: zh), BiometricStrings.enableReason(with: kind, in: zh),
                BiometricStrings.unlockWithPasscode(kind, in: zh), BiometricStrings.passcodeReason(kind, in: zh),
                offer.title(kind), offer.message(kind), offer.acceptHint(kind), offer.enabled(kind),
                SignInStrings(zh).title(for: .biometrics(kind))
            ]
            texts += BiometricNoticeTests.all.map { $0.text(in: zh) }
        }
        texts.append(VerificationStrings(zh).holdReason(.deviceKeyAdded))
        return texts
    }

    @Test func test_28_3_faceIDAndTouchIDSignInHaveTheSeedsNames() {
        #expect(BiometricStrings.signInName(.faceID, in: .zhHans) == "面容登录")
        #expect(BiometricStrings.signInName(.touchID, in: .zhHans) == "指纹登录")
        #expect(BiometricStrings.signIn(with: .faceID, in: .zhHans) == "面容登录")
        #expect(SecuritySettingsStrings(.zhHans).biometricSwitch(.faceID) == "面容登录")
        #expect(BiometricOfferStrings(.zhHans).enabled(.touchID) == "指纹登录已开启")
        #expect(BiometricNotice.bindingRemoved(.faceID).text(in: .zhHans) == "此设备的面容登录已失效，请使用密码登录")
        // The sensor unknown: both names.
        #expect(BiometricStrings.signInName(nil, in: .zhHans) == "面容或指纹登录")
    }

    @Test func test_28_3_sdkZhTextsUseNoOtherNameForBiometricSignIn() {
        let texts = Self.zhTexts()
        // The pattern finds what it should (so an empty result below means something).
        #expect(Self.signInNames(in: "开启Face ID登录；面容 ID 登录；生物识别登录") == ["Face ID登录", "面容 ID 登录", "生物识别登录"])

        let names = Set(texts.flatMap(Self.signInNames(in:)))

        #expect(names.isSubset(of: Self.allowedNames), "other names: \(names.subtracting(Self.allowedNames))")
        #expect(names.isSuperset(of: ["面容登录", "指纹登录"]))
    }

    @Test func test_28_3_sdkAndCLISourcesWriteNoOtherNameForBiometricSignIn() throws {
        // Texts this test does not render (a new one tomorrow, the CLI's) are caught in the sources: no other name in a
        // literal or comment, and no sensor name interpolated before "登录" (`\(kind.chineseName)登录`).
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let interpolated =
            #/\\\((?:[^()]|\([^()]*\))*(?:chineseName|displayName|biometricTitle)(?:[^()]|\([^()]*\))*\)\s*登录/#
        var found: [String] = []
        for folder in ["Sources/LatchClient", "Sources/latch"] {
            let files = FileManager.default.enumerator(atPath: root.appendingPathComponent(folder).path)
            while let file = files?.nextObject() as? String {
                guard file.hasSuffix(".swift") || file.hasSuffix(".md") else { continue }
                let path = root.appendingPathComponent(folder).appendingPathComponent(file)
                let source = try String(contentsOf: path, encoding: .utf8)
                for name in Self.signInNames(in: source) where !Self.allowedNames.contains(name) {
                    found.append("\(folder)/\(file): \(name)")
                }
                for match in source.matches(of: interpolated) { found.append("\(folder)/\(file): \(match.output)") }
            }
        }
        #expect(found.isEmpty, "\(found)")
    }
}
