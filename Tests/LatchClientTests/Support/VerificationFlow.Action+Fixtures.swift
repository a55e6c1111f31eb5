import Foundation
import LatchClient
import LatchCore

extension VerificationFlow.Action {
    /// The screen this action shows, if any.
    var screen: VerificationScreen? {
        switch self {
        case .startServerVerification(_, let screen), .show(let screen), .showCountdown(let screen),
            .evaluateBiometrics(_, let screen),
            .cancelBiometricEvaluation(let screen), .submitBiometricSignature(_, let screen),
            .submitCode(_, _, let screen), .submitFundPassword(_, _, let screen), .getPasskeyAssertion(_, let screen),
            .submitPasskeyAssertion(_, _, let screen), .submitEmailCode(_, _, let screen),
            .sendEmailCode(_, let screen), .showAwaitingResend(let screen, _):
            return screen
        case .requestBiometricPermission, .unlockBiometricsWithPasscode, .openSettings, .finish, .none:
            return nil
        }
    }

    /// The flow's result, when this action finishes it.
    var result: VerificationResult? {
        if case .finish(let result, _) = self { return result }
        return nil
    }

    /// Whether this action runs the biometric prompt.
    var evaluatesBiometrics: Bool {
        if case .evaluateBiometrics = self { return true }
        return false
    }

    /// Whether this action cancels a running biometric prompt.
    var cancelsBiometrics: Bool {
        if case .cancelBiometricEvaluation = self { return true }
        return false
    }

    /// The prompt this action runs, if any.
    var prompt: VerificationBiometricPrompt? {
        if case .evaluateBiometrics(let prompt, _) = self { return prompt }
        return nil
    }
}
