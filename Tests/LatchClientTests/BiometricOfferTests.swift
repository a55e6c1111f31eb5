// Issue 23 §1, seed 004 §9.2 "首次登录成功后 → 提示启用生物识别": the offer after the first sign-in, once.
import Foundation
import LatchCore
import Testing

@testable import LatchClient

@Suite("Biometric offer after sign-in (issue 23 §1, seed 004 §9.2)")
struct BiometricOfferTests {
    @Test func test_23_1_offerOnlyWhenSupportedUnboundAndUnanswered() {
        #expect(
            BiometricOffer.sensor(availability: .available(kind: .faceID), isBound: false, wasAnswered: false)
                == .faceID)
        #expect(
            BiometricOffer.sensor(availability: .available(kind: .faceID), isBound: true, wasAnswered: false) == nil)
        #expect(
            BiometricOffer.sensor(availability: .available(kind: .touchID), isBound: false, wasAnswered: true) == nil)
        #expect(
            BiometricOffer.sensor(availability: .unavailable(.notSupported), isBound: false, wasAnswered: false) == nil)
    }

    @Test func test_23_1_offerIsAnsweredOncePerDevice() async throws {
        let vault = InMemoryVault()
        let client = LatchClient(
            serverURL: URL(string: "https://auth.example.com")!, vault: vault, transport: SessionFakeServer())
        let sensor = SimulatedAuthenticator(kind: .touchID)

        // First sign-in on a Touch ID device with nothing bound: offered.
        #expect(await client.biometricOffer(authenticator: sensor) == .touchID)

        // "暂不" is remembered: not offered again.
        await client.answerBiometricOffer()
        #expect(await client.biometricOffer(authenticator: sensor) == nil)

        // A device without a sensor is never offered.
        let other = LatchClient(
            serverURL: URL(string: "https://auth.example.com")!, vault: InMemoryVault(), transport: SessionFakeServer())
        #expect(await other.biometricOffer(authenticator: SimulatedAuthenticator(kind: nil)) == nil)
    }

    @Test func test_23_1_offerTexts() {
        #expect(BiometricOfferStrings(.zhHans).title(.faceID) == "启用面容登录？")
        #expect(BiometricOfferStrings(.zhHans).title(.touchID) == "启用指纹登录？")
        #expect(BiometricOfferStrings(.en).title(.touchID) == "Turn on Touch ID sign-in?")
        #expect(BiometricOfferStrings(.zhHans).message(.touchID) == "下次可使用指纹快速登录，无需输入密码")
        #expect(BiometricOfferStrings(.zhHans).notNow == "暂不")
        #expect(BiometricOfferStrings(.en).accept == "Turn On")
    }
}

#if canImport(Observation)
    @MainActor
    @Suite("Biometric offer screen (issue 23 §1)")
    struct BiometricOfferScreenTests {
        @Test func test_23_1_offerAcceptedRunsTheBindingFlow() async {
            let service = FakeOfferService()
            service.enableAnswers = [.success(.enabled(BiometricBinding(credentialID: "c-1", biometry: .faceID)))]
            let model = BiometricOfferModel(service: service, language: .zhHans)

            // After the sign-in: offered.
            await model.load()
            #expect(model.step == .offered(.faceID))
            #expect(model.isOffered)
            #expect(model.title == "启用面容登录？")

            // "启用": the binding flow runs; the offer is answered.
            await model.accept()
            #expect(model.step == .enabled(.faceID))
            #expect(service.enables == 1)
            #expect(service.answered == 1)
            #expect(model.strings.enabled(.faceID) == "面容登录已开启")
        }

        @Test func test_23_1_offerNotNowIsRemembered() async {
            let service = FakeOfferService()
            let model = BiometricOfferModel(service: service, language: .en)
            await model.load()

            await model.notNow()

            #expect(model.step == .closed)
            #expect(service.answered == 1)
            #expect(service.enables == 0)
            // The next sign-in does not offer it again.
            let next = BiometricOfferModel(service: service, language: .en)
            await next.load()
            #expect(next.step == .closed)
            #expect(!next.isOffered)
        }

        @Test func test_23_1_offerPromptNotPassedKeepsTheOffer() async {
            let service = FakeOfferService()
            service.enableAnswers = [
                .success(.notVerified(BiometricFailure(code: .authenticationFailed))),
                .success(.notVerified(BiometricFailure(code: .userCancel)))
            ]
            let model = BiometricOfferModel(service: service, language: .zhHans)
            await model.load()

            // A failed scan: the offer stays, saying why.
            await model.accept()
            #expect(model.step == .offered(.faceID))
            #expect(model.notice == "Face ID验证失败")
            // A cancelled prompt: the offer stays, quietly.
            await model.accept()
            #expect(model.notice == nil)
            #expect(service.answered == 0)
        }
    }
#endif
