// Issue 23 §2: the verification machine's one biometric standing, and the one vocabulary of sensors and
// reasons. The standing's cases carry only what is true in them, so these tests check what each case
// passes on, and that the flow still behaves as it did when three fields described it.
import Foundation
import LatchCore
import Testing

@testable import LatchClient

@Suite("Verification standing and vocabulary (issue 23 §2)")
struct VerificationStandingTests {
    typealias F = VerificationFixtures
    typealias Standing = VerificationFlow.BiometricStanding

    static let route = VerificationFlow.BiometricRoute(
        sensor: .faceID, credentialID: F.credentialID, challengeID: "c-1", challenge: "Y2hhbGxlbmdl")

    @Test("23 a new verification starts from what was carried, without a route")
    func I23_newVerificationHasNoRoute() {
        #expect(
            Standing(.open(failures: 2, permission: .granted)) == .open(failures: 2, permission: .granted, route: nil))
        #expect(Standing(.closed) == .closed)
    }

    @Test("23 the next verification gets the count and permission, never this verification's route or lockout")
    func I23_carriedStanding() {
        #expect(
            Standing.open(failures: 1, permission: .denied, route: Self.route).carried
                == .open(failures: 1, permission: .denied))
        #expect(Standing.locked(route: Self.route, permission: .granted).carried == .closed)
        #expect(Standing.closed.carried == .closed)
    }

    @Test("23 setting biometrics aside keeps a lockout, so the device passcode can still end it")
    func I23_setAsideKeepsALockout() {
        var open = Standing.open(failures: 0, permission: .granted, route: Self.route)
        open.setAside()
        #expect(open == .closed)

        var locked = Standing.locked(route: Self.route, permission: .granted)
        locked.setAside()
        #expect(locked == .locked(route: Self.route, permission: .granted))
        #expect(locked.lockedRoute == Self.route)
        #expect(locked.route == nil)
    }

    @Test("23 B2 a lockout's passcode button belongs to its verification: the next one starts on the password")
    func I23_lockoutIsNotCarried() {
        var flow = F.flow(F.device(.lockedOut(.faceID)))
        _ = flow.start()

        // Locked out at the start: the password page, with the passcode to unlock.
        let page = flow.serverStarted(F.started())
        #expect(page.screen?.kind == .fundPassword)
        #expect(page.screen?.button(.unlockWithPasscode) != nil)

        // Time runs out; a new verification opens.
        _ = flow.timedOut(verificationID: "v-1")
        _ = flow.userTappedRetry()
        let next = flow.serverStarted(F.started(id: "v-2"))

        // Biometrics were set aside for the flow: the password page, without the passcode button.
        #expect(next.screen?.kind == .fundPassword)
        #expect(next.screen?.button(.unlockWithPasscode) == nil)
    }

    @Test("23 −6 without a sensor is an unavailable sensor: no dummy Touch ID is needed for a neutral answer")
    func I23_sensorNeutralOutcome() {
        let failure = BiometricFailure(laErrorCode: -6)
        #expect(BiometricOutcome(failure, kind: nil) == .notAvailable)
        #expect(BiometricOutcome(failure, kind: .opticID) == .permissionDenied)
        #expect(BiometricOutcome(failure, kind: .touchID) == .notAvailable)
        #expect(failure.handling == .settingsLike)
    }

    @Test("23 the page's reasons are the device's five and its own two; Settings only for the device's settings-like")
    func I23_setAsideReasons() {
        #expect(BiometricSetAsideReason.allCases.count == BiometricUnavailableReason.allCases.count + 2)
        let offersSettings = BiometricSetAsideReason.allCases.filter {
            VerificationFlow.Notice.biometricsUnavailable($0, .faceID).offersSettings
        }
        #expect(
            offersSettings == [.unavailable(.notEnrolled), .unavailable(.passcodeNotSet), .unavailable(.notAvailable)])
    }

    @Test("23 A10 an Optic ID sensor is named so on the page, and asks the app permission as Face ID does")
    func I23_opticIDOnThePage() {
        #expect(VerificationStrings(.en).title(for: .opticID) == "Optic ID")
        #expect(BiometryKind.opticID.asksAppPermission)
        #expect(BiometryKind.faceID.asksAppPermission)
        #expect(!BiometryKind.touchID.asksAppPermission)
    }
}
