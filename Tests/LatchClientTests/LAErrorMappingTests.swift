import Testing

@testable import LatchClient

/// B2: every LAError code by its integer value, and its handling class. B1: canEvaluatePolicy's answers.
@Suite("B2 LAError mapping")
struct LAErrorMappingTests {
    // MARK: - Codes

    @Test func B2_everyNamedCodeMapsByItsInteger() {
        let table: [(Int, BiometricErrorCode)] = [
            (-1, .authenticationFailed), (-2, .userCancel), (-3, .userFallback), (-4, .systemCancel),
            (-5, .passcodeNotSet), (-6, .biometryNotAvailable), (-7, .biometryNotEnrolled), (-8, .biometryLockout),
            (-9, .appCancel), (-10, .invalidContext), (-1004, .notInteractive)
        ]

        for (integer, code) in table {
            #expect(BiometricErrorCode(code: integer) == code, "LAError \(integer)")
            #expect(code.code == integer)
        }
        #expect(BiometricErrorCode.named == table.map(\.1))
    }

    @Test(arguments: [0, 1, -11, -12, -13, -14, -1000, -1003, -1005, Int.min, Int.max])
    func B2_unknownCodesAreOtherAndKeepTheirValue(integer: Int) {
        let code = BiometricErrorCode(code: integer)

        #expect(code == .other(integer))
        #expect(code.code == integer)
        #expect(code.handling == .unexpected)
    }

    // MARK: - Handling classes

    @Test func B2_userCancelIsCancelLike() {
        #expect(BiometricErrorCode(code: -2).handling == .cancelLike)
    }

    @Test func B2_systemCancelIsCancelLike() {
        #expect(BiometricErrorCode(code: -4).handling == .cancelLike)
    }

    @Test func B2_appCancelIsCancelLike() {
        #expect(BiometricErrorCode(code: -9).handling == .cancelLike)
    }

    @Test func B2_passcodeNotSetIsSettingsLike() {
        #expect(BiometricErrorCode(code: -5).handling == .settingsLike)
    }

    @Test func B2_biometryNotAvailableIsSettingsLike() {
        #expect(BiometricErrorCode(code: -6).handling == .settingsLike)
    }

    @Test func B2_biometryNotEnrolledIsSettingsLike() {
        #expect(BiometricErrorCode(code: -7).handling == .settingsLike)
    }

    @Test func B2_biometryLockoutIsLockout() {
        #expect(BiometricErrorCode(code: -8).handling == .lockout)
    }

    @Test func B2_authenticationFailedShowsAnInAppMessage() {
        #expect(BiometricErrorCode(code: -1).handling == .authenticationFailed)
    }

    @Test func B2_userFallbackRunsTheAppsFallback() {
        #expect(BiometricErrorCode(code: -3).handling == .userFallback)
    }

    @Test func B2_invalidContextIsUnexpected() {
        #expect(BiometricErrorCode(code: -10).handling == .unexpected)
    }

    @Test func B2_notInteractiveRetriesWhenActive() {
        #expect(BiometricErrorCode(code: -1004).handling == .retryWhenActive)
    }

    @Test func B2_theThreeSeedClassesHoldExactlyTheSeedsCodes() {
        func codes(_ handling: BiometricFailureHandling) -> Set<Int> {
            Set(BiometricErrorCode.named.filter { $0.handling == handling }.map(\.code))
        }

        #expect(codes(.cancelLike) == [-2, -4, -9])
        #expect(codes(.settingsLike) == [-5, -6, -7])
        #expect(codes(.lockout) == [-8])
        #expect(codes(.authenticationFailed) == [-1])
        #expect(codes(.userFallback) == [-3])
        #expect(codes(.retryWhenActive) == [-1004])
        #expect(codes(.unexpected) == [-10])
    }

    @Test func B2_failureCarriesTheCodeAndDescribesIt() {
        let failure = BiometricFailure(laErrorCode: -8)

        #expect(failure.code == .biometryLockout)
        #expect(failure.handling == .lockout)
        #expect(failure.description == "LAError -8 (biometryLockout)")
        #expect(BiometricFailure(laErrorCode: -77).description == "LAError -77 (other(-77))")
    }

    // MARK: - B1 availability

    @Test func B1_successWithASensorIsAvailable() {
        #expect(BiometricAvailability(canEvaluate: true, errorCode: nil, kind: .faceID) == .available(kind: .faceID))
        #expect(BiometricAvailability(canEvaluate: true, errorCode: nil, kind: .touchID) == .available(kind: .touchID))
        #expect(BiometricAvailability(canEvaluate: true, errorCode: nil, kind: .opticID) == .available(kind: .opticID))
        #expect(BiometricAvailability.available(kind: .faceID).kind == .faceID)
        #expect(BiometricAvailability.available(kind: .faceID).isAvailable)
    }

    @Test func B1_notEnrolledPasscodeAndLockoutAreNamed() {
        #expect(BiometricAvailability(canEvaluate: false, errorCode: -7, kind: .touchID) == .unavailable(.notEnrolled))
        #expect(
            BiometricAvailability(canEvaluate: false, errorCode: -5, kind: .faceID) == .unavailable(.passcodeNotSet))
        #expect(BiometricAvailability(canEvaluate: false, errorCode: -8, kind: .faceID) == .unavailable(.lockedOut))
    }

    @Test func B1_permissionOffIsNotAvailableButNoSensorIsNotSupported() {
        // −6 with a sensor: the user turned this app's Face ID permission off.
        #expect(BiometricAvailability(canEvaluate: false, errorCode: -6, kind: .faceID) == .unavailable(.notAvailable))
        // −6 without a sensor: the device has none.
        #expect(BiometricAvailability(canEvaluate: false, errorCode: -6, kind: nil) == .unavailable(.notSupported))
    }

    @Test func B1_otherFailuresAreNotAvailableOrNotSupported() {
        #expect(
            BiometricAvailability(canEvaluate: false, errorCode: -1004, kind: .faceID) == .unavailable(.notAvailable))
        #expect(BiometricAvailability(canEvaluate: false, errorCode: -99, kind: nil) == .unavailable(.notSupported))
        #expect(
            BiometricAvailability(canEvaluate: false, errorCode: nil, kind: .touchID) == .unavailable(.notAvailable))
        #expect(BiometricAvailability(canEvaluate: true, errorCode: nil, kind: nil) == .unavailable(.notSupported))
        #expect(BiometricAvailability.unavailable(.lockedOut).kind == nil)
    }

    @Test func B1_reasonsBelongToTheB2Classes() {
        #expect(BiometricUnavailableReason.notEnrolled.handling == .settingsLike)
        #expect(BiometricUnavailableReason.passcodeNotSet.handling == .settingsLike)
        #expect(BiometricUnavailableReason.notAvailable.handling == .settingsLike)
        #expect(BiometricUnavailableReason.lockedOut.handling == .lockout)
        #expect(BiometricUnavailableReason.notSupported.handling == nil)
    }
}
