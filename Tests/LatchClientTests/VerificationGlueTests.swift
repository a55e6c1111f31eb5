import Foundation
import LatchCore
import Testing

@testable import LatchClient

/// The SDK's glue between `VerificationFlow` and the world: LAError results, device state and client
/// errors as the flow reads them, and the SwiftUI page model.
@Suite("Verification glue")
struct VerificationGlueTests {
    @Test("B2 A6 A7 every LAError code maps to the flow's outcome; −6 under Face ID is the permission")
    func B2_outcomeFromLAError() {
        let expected: [Int: BiometricOutcome] = [
            -1: .failed, -2: .userCancel, -3: .userFallback, -4: .systemCancel, -5: .passcodeNotSet,
            -7: .notEnrolled, -8: .lockout, -9: .appCancel, -10: .unexpected, -1004: .notInteractive, -99: .unexpected
        ]
        for (code, outcome) in expected {
            #expect(
                BiometricOutcome(.failure(BiometricFailure(laErrorCode: code)), sensor: .faceID) == outcome,
                "LAError \(code)")
            #expect(
                BiometricOutcome(.failure(BiometricFailure(laErrorCode: code)), sensor: .touchID) == outcome,
                "LAError \(code)")
        }
        #expect(BiometricOutcome(.failure(BiometricFailure(laErrorCode: -6)), sensor: .faceID) == .permissionDenied)
        #expect(BiometricOutcome(.failure(BiometricFailure(laErrorCode: -6)), sensor: .touchID) == .notAvailable)
        #expect(BiometricOutcome(.success, sensor: .faceID) == .success)
    }

    @Test(
        "A6 A7 B1 the device state: permission asked once for Face ID, denied when Face ID is unavailable, reasons kept"
    )
    func A7_deviceStateFromAvailability() {
        func state(_ availability: BiometricAvailability, bound: BiometryKind? = .faceID, granted: Bool = false)
            -> VerificationDeviceState.Biometry
        {
            VerificationDeviceState(
                biometricCredentialID: "dc", availability: availability, boundSensor: bound,
                faceIDPermissionGranted: granted
            ).biometry
        }
        #expect(state(.available(kind: .faceID)) == .available(.faceID, permission: .notDetermined))
        #expect(state(.available(kind: .faceID), granted: true) == .available(.faceID, permission: .granted))
        #expect(state(.available(kind: .touchID)) == .available(.touchID, permission: .granted))
        #expect(state(.available(kind: .opticID), granted: true) == .available(.faceID, permission: .granted))
        #expect(state(.unavailable(.notAvailable)) == .available(.faceID, permission: .denied))
        #expect(state(.unavailable(.notAvailable), bound: .touchID) == .notAvailable(.touchID))
        #expect(state(.unavailable(.notEnrolled), bound: .touchID) == .notEnrolled(.touchID))
        #expect(state(.unavailable(.passcodeNotSet)) == .notAvailable(.faceID))
        #expect(state(.unavailable(.lockedOut)) == .lockedOut(.faceID))
        #expect(state(.unavailable(.notSupported), bound: nil) == .notSupported)
    }

    @Test("C11 A3 AUTH_004 client errors as the flow reads them: codes kept, no answer is the network")
    func C11_clientErrorsAsFlowFailures() {
        typealias E = LatchVerificationEnvironment<VerificationSheetModel>
        let wrong = LatchServerError(status: 401, rawCode: "AUTH_003", message: "wrong", attemptsRemaining: 2)
        #expect(E.failure(from: LatchClientError.server(wrong)) == .wrongAnswer(attemptsRemaining: 2))
        let until = Date(timeIntervalSince1970: 1_900_000_000)
        let locked = LatchServerError(status: 423, rawCode: "AUTH_002", message: "locked", lockedUntil: until)
        #expect(E.failure(from: LatchClientError.server(locked)) == .locked(until: until))
        let expired = LatchServerError(status: 401, rawCode: "AUTH_004", message: "expired")
        #expect(E.failure(from: LatchClientError.server(expired)) == .sessionExpired)
        #expect(E.failure(from: LatchClientError.notSignedIn) == .sessionExpired)
        #expect(E.failure(from: LatchClientError.network(URLError(.timedOut))) == .network)
        #expect(E.failure(from: URLError(.notConnectedToInternet)) == .network)
        #expect(E.failure(from: LatchClientError.unexpected(status: 502)) == .other(code: "HTTP_502"))
    }

    @Test("A4 A8 when the flow moves on, the environment takes the system prompt down")
    @MainActor
    func A8_cancelReachesTheSensor() async {
        let sensor = SimulatedAuthenticator(kind: .faceID)
        let environment = LatchVerificationEnvironment(
            client: LatchClient(serverURL: URL(string: "http://127.0.0.1:9")!, vault: InMemoryVault()),
            authenticator: sensor,
            keys: SoftwareDeviceKeyStore(vault: InMemoryVault()), presenter: VerificationSheetModel(), sensor: .faceID,
            responder: VerificationInputRelay())

        await environment.cancelBiometricEvaluation()

        #expect(await sensor.cancelledEvaluations == 1)
    }

    @Test("A1 A9 the page model shows each screen, passes taps on while it is up, and closes with the announcement")
    @MainActor
    func A9_sheetModel() async {
        let model = VerificationSheetModel()
        let received = InputLog()
        let screen = VerificationScreen(
            kind: .fundPassword, icon: VerificationIcon(symbol: .fundPassword, accessibilityLabel: "资金密码"),
            title: "资金密码",
            message: "请输入资金密码", buttons: [], announcement: VerificationAnnouncement("请输入资金密码"))

        model.send(.tapped(.cancel))
        model.present(screen, respond: VerificationResponder { received.append($0) })
        model.send(.tapped(.cancel))
        model.dismiss(announcing: VerificationAnnouncement("已取消验证"))
        model.send(.tapped(.retry))

        #expect(received.inputs == [.tapped(.cancel)], "only the input made while the page was up")
        #expect(model.screen == nil && !model.isPresented)
        #expect(model.closingAnnouncement == VerificationAnnouncement("已取消验证"))
    }
}
