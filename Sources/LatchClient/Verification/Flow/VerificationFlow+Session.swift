import Foundation
import LatchCore

extension VerificationFlow {
    /// How biometrics stand for the whole flow; kept when a new verification is opened.
    enum BiometricStanding: Equatable {
        /// Still usable: `failures` failed attempts so far (0…2) and the last known Face ID permission.
        case open(failures: Int, permission: VerificationPermission)
        /// Set aside for this flow: three failures, lockout, denial, unavailable, rejected signature.
        case closed
    }

    /// What biometrics need in one verification: the sensor, this device's key and the challenge.
    struct BiometricRoute: Equatable {
        var sensor: VerificationSensor
        var credentialID: String
        var challengeID: String
        var challenge: String
    }

    /// Biometrics set aside because the sensor is locked out (−8) while they could otherwise answer:
    /// the device passcode unlocks them, and they come back with this route and permission (B2).
    struct LockedBiometrics: Equatable {
        var route: BiometricRoute
        var permission: VerificationPermission
    }

    /// What a passkey needs in one verification: the challenge's id and the request options whose
    /// challenge is bound to the action (`PasskeyStepUpChallenge`).
    struct PasskeyRoute: Equatable {
        var challengeID: String
        var options: PublicKeyCredentialRequestOptionsJSON
    }

    /// Why the passkey page waits for "使用通行密钥验证" again.
    enum PasskeyNotice: Equatable {
        /// The system sheet was closed without a passkey.
        case cancelled
        /// The device could not use its passkey.
        case failed
        /// The server did not accept the assertion (AUTH_003 / AUTH_002).
        case rejected(attemptsRemaining: Int?)
        case network
        case serverError
    }

    /// The page the device-passcode prompt was asked from.
    enum LockedPage: Equatable {
        case secret(SecretMethod, Notice?)
        case noMethodLeft(Notice?)
    }

    /// The method a code page asks for.
    enum SecretMethod: Equatable {
        case totp
        case fundPassword

        var method: VerificationMethodKind {
            switch self {
            case .totp: .totp
            case .fundPassword: .fundPassword
            }
        }
    }

    /// One open verification on the server and what can answer it.
    struct Session: Equatable {
        var verificationID: String
        var offersTOTP: Bool
        var offersFundPassword: Bool
        /// Set while biometrics can answer this verification (enabled here, offered, sensor ready,
        /// standing open).
        var biometric: BiometricRoute?
        var standing: BiometricStanding
        /// Set while biometrics are set aside for a lockout that the device passcode can end.
        var lockedBiometrics: LockedBiometrics?
        /// Set when the server offers a passkey and this device has one that can answer.
        var passkey: PasskeyRoute?

        init(started: VerificationStarted, standing: BiometricStanding) {
            let types = Set(started.methods.map(\.type))
            self.verificationID = started.verificationId
            self.offersTOTP = types.contains(.totp)
            self.offersFundPassword = types.contains(.fundPassword)
            self.biometric = nil
            self.standing = standing
            self.lockedBiometrics = nil
            self.passkey = nil
        }

        /// Where "password verification" goes (A3, A6, A7): the fund password, else 2FA.
        var passwordTarget: SecretMethod? {
            offersFundPassword ? .fundPassword : (offersTOTP ? .totp : nil)
        }

        /// Where "使用其他方式验证" / "Use Another Method" goes from a biometric page (A5): 2FA when bound, else the
        /// fund password.
        /// It is also the first page when biometrics are not enabled (the server's order).
        var otherTargetFromBiometrics: SecretMethod? {
            offersTOTP ? .totp : (offersFundPassword ? .fundPassword : nil)
        }

        /// Where "使用其他方式验证" / "Use Another Method" goes from a code page: the other code method.
        func otherSecret(than method: SecretMethod) -> SecretMethod? {
            switch method {
            case .totp: offersFundPassword ? .fundPassword : nil
            case .fundPassword: offersTOTP ? .totp : nil
            }
        }

        /// Biometrics are set aside for the rest of the flow.
        mutating func closeBiometrics() {
            biometric = nil
            standing = .closed
        }
    }

    /// Why the biometric page offers "再试一次" / "Try Again".
    enum RetryReason: Equatable {
        /// A failed match (counted).
        case failed
        /// The system or an app switch interrupted the prompt (not counted, A8).
        case interrupted
        /// The prompt failed for a reason the user cannot fix (−10, an unknown code); not counted.
        case unexpected
        /// The signature could not reach the server.
        case network
        /// The server answered with an error unrelated to the answer.
        case serverError
    }

    /// Why a verification can no longer be answered.
    enum ExpiryReason: Equatable {
        case timedOut
        case attemptsUsedUp
        case invalidated
        /// The security hold that refused the action is over (issue 19 §2): the action may be verified now.
        case holdEnded
    }

    /// A line shown on a code page or the empty page, above the normal prompt.
    enum Notice: Equatable {
        /// A3: the automatic switch after the third failure.
        case tooManyBiometricFailures(VerificationSensor)
        /// A7: biometrics could not be used.
        case biometricsUnavailable(BiometricsUnavailableReason, VerificationSensor?)
        /// AUTH_003.
        case wrongAnswer(attemptsRemaining: Int?)
        /// AUTH_002.
        case methodLocked(until: Date)
        case network
        case serverError
        /// What was typed cannot be a code or fund password.
        case invalidFormat

        /// Whether the page offers "前往设置" / "Open Settings": biometrics need a face or finger enrolled (−7), a device
        /// passcode (−5), or turning on (−6).
        var offersSettings: Bool {
            switch self {
            case .biometricsUnavailable(let reason, _):
                switch reason {
                case .notEnrolled, .passcodeNotSet, .notAvailable: true
                case .lockedOut, .notSupported, .rejected, .enrollmentChanged: false
                }
            case .tooManyBiometricFailures, .wrongAnswer, .methodLocked, .network, .serverError, .invalidFormat:
                false
            }
        }
    }

    /// Why opening the verification failed (for the message).
    enum StartProblem: Equatable {
        case network
        case server
    }
}
