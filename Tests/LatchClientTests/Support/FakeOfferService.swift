import Foundation
import LatchCore
import Testing

@testable import LatchClient

/// Fakes `BiometricOfferService` for the offer screen: answers from a script and records what it did.
final class FakeOfferService: BiometricOfferService, @unchecked Sendable {
    var offer: BiometryKind? = .faceID
    var answered = 0
    var enableAnswers: [Result<BiometricEnableResult, LatchClientError>] = []
    var enables = 0

    func biometricOffer() async -> BiometryKind? { answered > 0 ? nil : offer }
    func answerBiometricOffer() async { answered += 1 }
    func enableBiometricSignIn(verificationToken: String?) async throws -> BiometricEnableResult {
        enables += 1
        return try enableAnswers.removeFirst().get()
    }
}
