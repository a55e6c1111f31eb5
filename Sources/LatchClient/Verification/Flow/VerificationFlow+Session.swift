import Foundation
import LatchCore

extension VerificationFlow {
    /// What the flow keeps of biometrics between two verifications: a new verification starts from it.
    enum CarriedBiometrics: Equatable {
        /// Still usable: `failures` failed attempts so far (0…2) and the last known Face ID permission.
        case open(failures: Int, permission: VerificationPermission)
        /// Set aside for this flow: three failures, lockout, denial, unavailable, rejected signature.
        case closed

        /// The same standing with a newly learnt Face ID permission.
        func with(permission: VerificationPermission) -> Self {
            switch self {
            case .open(let failures, _): .open(failures: failures, permission: permission)
            case .closed: .closed
            }
        }
    }

    /// How biometrics stand in one open verification. One fact, so a route cannot exist beside a
    /// lockout or after biometrics were set aside.
    enum BiometricStanding: Equatable {
        /// Not set aside: `failures` failed attempts so far (0…2), the last known Face ID permission, and
        /// `route` while biometrics can answer this verification (enabled here, offered, sensor ready).
        case open(failures: Int, permission: VerificationPermission, route: BiometricRoute?)
        /// Set aside because the sensor is locked out (−8) while they could otherwise answer: the device
        /// passcode unlocks them, and they come back with this route and permission (B2).
        case locked(route: BiometricRoute, permission: VerificationPermission)
        /// Set aside for the rest of the flow.
        case closed

        /// A new verification's standing: open ones get their route when the server's offer is read.
        init(_ carried: CarriedBiometrics) {
            switch carried {
            case .open(let failures, let permission):
                self = .open(failures: failures, permission: permission, route: nil)
            case .closed: self = .closed
            }
        }

        /// What the next verification starts from: the route is this verification's, and a lockout sets
        /// biometrics aside for the rest of the flow.
        var carried: CarriedBiometrics {
            switch self {
            case .open(let failures, let permission, _): .open(failures: failures, permission: permission)
            case .locked, .closed: .closed
            }
        }

        /// The route while biometrics can answer this verification.
        var route: BiometricRoute? {
            switch self {
            case .open(_, _, let route): route
            case .locked, .closed: nil
            }
        }

        /// The route biometrics come back with once the device passcode ends the lockout.
        var lockedRoute: BiometricRoute? {
            switch self {
            case .locked(let route, _): route
            case .open, .closed: nil
            }
        }

        /// Biometrics are set aside for the rest of the flow; a lockout stays one, so the passcode can
        /// still end it.
        mutating func setAside() {
            switch self {
            case .open: self = .closed
            case .locked, .closed: break
            }
        }
    }

    /// What biometrics need in one verification: the sensor, this device's key and the challenge.
    struct BiometricRoute: Equatable {
        var sensor: BiometryKind
        var credentialID: String
        var challengeID: String
        var challenge: String
    }

    /// Biometrics on a biometric page (every phase but the denial): open, with this verification's route.
    struct OpenBiometrics: Equatable {
        var route: BiometricRoute
        var failures: Int
        var permission: VerificationPermission
    }

    /// What a passkey needs in one verification: the challenge's id and the request options whose
    /// challenge is bound to the action (`PasskeyVerificationChallenge`).
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

    /// The method a code page asks for.
    enum SecretMethod: Equatable {
        case totp
        case fundPassword
        /// A code mailed for this verification (issue 30 §3): "发送验证码" / "Send Code" first.
        case emailCode

        var method: VerificationMethodKind {
            switch self {
            case .totp: .totp
            case .fundPassword: .fundPassword
            case .emailCode: .emailCode
            }
        }
    }

    /// One open verification on the server and what can answer it.
    struct Session: Equatable {
        var verificationID: String
        var offersTOTP: Bool
        var offersFundPassword: Bool
        /// The server offers a code mailed for this verification (issue 30 §3).
        var offersEmailCode: Bool
        /// When the emailed code may be asked for again; `nil` until one was sent (issue 30 §3).
        var emailCodeResendAt: Date?
        var biometrics: BiometricStanding
        /// Set when the server offers a passkey and this device has one that can answer.
        var passkey: PasskeyRoute?
        /// Factors the policy asks for (issue 30): 1, or 2 of two different kinds.
        var requiredFactors: Int
        /// The policy's first reason for this verification, as the server worded it.
        var reason: String?
        /// The kinds that passed so far (issue 30 §3), in order.
        var passed: [VerificationMethodKind]

        init(started: VerificationStarted, biometrics: CarriedBiometrics) {
            let types = Set(started.methods.map(\.type))
            self.verificationID = started.verificationId
            self.offersTOTP = types.contains(.totp)
            self.offersFundPassword = types.contains(.fundPassword)
            self.offersEmailCode = types.contains(.emailCode)
            self.emailCodeResendAt = nil
            self.biometrics = BiometricStanding(biometrics)
            self.passkey = nil
            self.requiredFactors = started.requiredFactors
            self.reason = started.reasons.first?.message
            self.passed = []
        }

        /// The same verification after a factor passed (issue 30 §3): only the offers still open can answer
        /// it. Biometrics keep their count (their new challenge is read when the page opens); a passkey stays
        /// only while offered, with the new challenge.
        mutating func advance(to progress: VerificationProgress) {
            let types = Set(progress.methods.map(\.type))
            offersTOTP = types.contains(.totp)
            offersFundPassword = types.contains(.fundPassword)
            offersEmailCode = types.contains(.emailCode)
            if case .open(let failures, let permission, _) = biometrics {
                biometrics = .open(failures: failures, permission: permission, route: nil)
            }
            if passkey != nil, let offer = progress.methods.first(where: { $0.type == .passkey }),
                let challengeID = offer.challengeId, let options = offer.options
            {
                passkey = PasskeyRoute(challengeID: challengeID, options: options)
            } else {
                passkey = nil
            }
            passed = progress.passed
        }

        /// Biometrics as a biometric page has them (every phase but the denial).
        var openBiometrics: OpenBiometrics {
            guard case .open(let failures, let permission, let route?) = biometrics else {
                // Those phases are entered only through enterBiometrics, which needs biometrics open with a
                // route, and every event that changes that leaves the biometric page in the same step.
                preconditionFailure("a biometric page other than the denial is only shown while biometrics stand open")
            }
            return OpenBiometrics(route: route, failures: failures, permission: permission)
        }

        /// Where "password verification" goes (A3, A6, A7): the fund password, else 2FA.
        var passwordTarget: SecretMethod? {
            offersFundPassword ? .fundPassword : (offersTOTP ? .totp : (offersEmailCode ? .emailCode : nil))
        }

        /// Where "使用其他方式验证" / "Use Another Method" goes from a biometric page (A5): 2FA when bound, else the
        /// fund password.
        /// It is also the first page when biometrics are not enabled (the server's order).
        var otherTargetFromBiometrics: SecretMethod? {
            offersTOTP ? .totp : (offersFundPassword ? .fundPassword : (offersEmailCode ? .emailCode : nil))
        }

        /// Where "使用其他方式验证" / "Use Another Method" goes from a code page: the next code method offered, in
        /// the order 2FA, fund password, emailed code, round again.
        func otherSecret(than method: SecretMethod) -> SecretMethod? {
            let order: [SecretMethod] = [.totp, .fundPassword, .emailCode]
            guard let index = order.firstIndex(of: method) else { return nil }
            let after = Array(order[(index + 1)...]) + Array(order[..<index])
            return after.first { offers($0) }
        }

        /// Whether the server offers `method` on this verification.
        func offers(_ method: SecretMethod) -> Bool {
            switch method {
            case .totp: offersTOTP
            case .fundPassword: offersFundPassword
            case .emailCode: offersEmailCode
            }
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
        /// The lock on the action's new value is over (issue 30 §3): the action may be verified now.
        case newValueLockEnded
    }

    /// A line shown on a code page or the empty page, above the normal prompt.
    enum Notice: Equatable {
        /// A3: the automatic switch after the third failure.
        case tooManyBiometricFailures(BiometryKind)
        /// A7: biometrics could not be used.
        case biometricsUnavailable(BiometricSetAsideReason, BiometryKind?)
        /// AUTH_003.
        case wrongAnswer(attemptsRemaining: Int?)
        /// AUTH_002.
        case methodLocked(until: Date)
        /// The method does not count here (issue 30 §3).
        case methodRefused(VerificationMethodRefusal)
        case network
        case serverError
        /// What was typed cannot be a code or fund password.
        case invalidFormat

        /// Whether the page offers "前往设置" / "Open Settings": biometrics need a face or finger enrolled (−7), a device
        /// passcode (−5), or turning on (−6).
        var offersSettings: Bool {
            switch self {
            case .biometricsUnavailable(.unavailable(let reason), _):
                // B2's settings-like class: −7, −5, −6.
                reason.handling == .settingsLike
            case .biometricsUnavailable(.rejected, _), .biometricsUnavailable(.enrollmentChanged, _):
                false
            case .tooManyBiometricFailures, .wrongAnswer, .methodLocked, .methodRefused, .network, .serverError,
                .invalidFormat:
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
