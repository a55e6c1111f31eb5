import Testing

@testable import LatchClient

/// B3: the fallback button of the biometric prompt.
@Suite("B3 fallback button")
struct BiometricFallbackButtonTests {
    @Test func B3_nilKeepsTheSystemButton() {
        let button = BiometricFallbackButton(title: nil)

        #expect(button == .systemDefault)
        #expect(button.localizedFallbackTitle == nil)
    }

    @Test func B3_emptyTitleHidesTheButton() {
        let button = BiometricFallbackButton(title: "")

        #expect(button == .hidden)
        #expect(button.localizedFallbackTitle == "")
    }

    @Test func B3_titleOfSpacesAlsoHidesTheButton() {
        #expect(BiometricFallbackButton(title: "  ") == .hidden)
        #expect(BiometricFallbackButton(title: "\u{3000}").localizedFallbackTitle == "")
    }

    @Test func B3_customTitleIsShownAsGiven() {
        let button = BiometricFallbackButton(title: "使用密码验证")

        #expect(button == .custom("使用密码验证"))
        #expect(button.localizedFallbackTitle == "使用密码验证")
    }

    @Test func B3_sensorNamesDifferForFaceIDAndTouchID() {
        #expect(BiometryKind.faceID.displayName == "Face ID")
        #expect(BiometryKind.touchID.displayName == "Touch ID")
        #expect(BiometryKind.opticID.displayName == "Optic ID")
        #expect(BiometryKind.allCases.map(\.apiValue) == ["face_id", "touch_id", "optic_id"])
    }
}
