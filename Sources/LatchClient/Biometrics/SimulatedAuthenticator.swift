import Foundation

/// A scriptable biometric sensor for tests and the command-line client: each prompt takes the next
/// scripted outcome, and the sensor kind, availability and enrollment (domain state) can be changed
/// at any time, e.g. to simulate someone enrolling another face (B4).
///
/// It behaves like the real thing where the flows depend on it: a prompt while biometrics are
/// unavailable fails with the matching `LAError` code without taking an outcome; `.lockout` and
/// `.denyPermission` change availability until `unlock()` / `grantPermission()`; the domain state
/// cannot be read while unavailable.
///
///     let sensor = SimulatedAuthenticator(kind: .touchID)
///     await sensor.enqueue(.noMatch, .match)
///     await sensor.evaluate(reason: "Sign in", fallbackTitle: nil)   // .failure(−1 authenticationFailed)
///     await sensor.evaluate(reason: "Sign in", fallbackTitle: nil)   // .success
///     await sensor.reenroll()                                        // domain state changes
public actor SimulatedAuthenticator: BiometricAuthenticator {
    /// What one prompt does.
    public enum Outcome: Sendable, Hashable {
        /// The face or finger matches.
        case match
        /// No match: −1 `authenticationFailed`.
        case noMatch
        /// The user taps Cancel: −2.
        case cancel
        /// The user taps the fallback button ("use another method"): −3.
        case otherMethod
        /// A call comes in or another app comes to the front: −4.
        case systemCancel
        /// The app cancels the prompt: −9.
        case appCancel
        /// The user refuses this app's Face ID permission: −6, and biometrics stay unavailable
        /// (`.notAvailable`) until `grantPermission()`.
        case denyPermission
        /// Too many failures: −8, and biometrics stay locked out until `unlock()`.
        case lockout
        /// The app was not active: −1004.
        case notInteractive
        /// Any `LAError` code.
        case error(code: Int)
    }

    /// One prompt as the app asked for it.
    public struct Prompt: Sendable, Hashable {
        public let reason: String
        public let fallbackTitle: String?
    }

    /// The sensor, or `nil` for a device without one.
    public private(set) var kind: BiometryKind?
    /// The opaque enrollment value `domainState()` reports while biometrics are usable.
    public private(set) var enrolledState: Data
    /// Why biometrics are unavailable, or `nil` when they are usable.
    public private(set) var unavailableReason: BiometricUnavailableReason?
    /// Every prompt shown, in order.
    public private(set) var prompts: [Prompt] = []
    /// Outcomes still scripted.
    public private(set) var script: [Outcome] = []
    /// What a prompt does when nothing is scripted and no `decide` hook is set.
    public private(set) var whenUnscripted: Outcome
    private let decide: (@Sendable (Prompt) async -> Outcome)?
    private var enrollmentGeneration = 1

    /// - Parameters:
    ///   - kind: the sensor; `nil` simulates a device without one.
    ///   - whenUnscripted: the outcome of prompts beyond the script (default: the user cancels).
    ///   - decide: asked for the outcome of prompts beyond the script, e.g. by a terminal UI.
    public init(
        kind: BiometryKind? = .faceID, whenUnscripted: Outcome = .cancel,
        decide: (@Sendable (Prompt) async -> Outcome)? = nil
    ) {
        self.kind = kind
        self.whenUnscripted = whenUnscripted
        self.decide = decide
        self.enrolledState = Self.state(generation: 1)
    }

    /// Adds outcomes for the next prompts, in order.
    public func enqueue(_ outcomes: Outcome...) { script += outcomes }

    /// Adds outcomes for the next prompts, in order.
    public func enqueue(contentsOf outcomes: [Outcome]) { script += outcomes }

    /// Changes what prompts beyond the script do.
    public func setWhenUnscripted(_ outcome: Outcome) { whenUnscripted = outcome }

    /// Changes the sensor (`nil`: none).
    public func setKind(_ kind: BiometryKind?) { self.kind = kind }

    /// Sets the enrollment value directly.
    public func setDomainState(_ state: Data) { enrolledState = state }

    /// Simulates adding or removing a face or finger: the domain state changes.
    public func reenroll() {
        enrollmentGeneration += 1
        enrolledState = Self.state(generation: enrollmentGeneration)
    }

    /// Makes biometrics unavailable for `reason`, or usable again with `nil`.
    public func setUnavailable(_ reason: BiometricUnavailableReason?) { unavailableReason = reason }

    /// Simulates entering the device passcode after a lockout.
    public func unlock() {
        if unavailableReason == .lockedOut { unavailableReason = nil }
    }

    /// Simulates the user turning this app's Face ID permission back on in Settings.
    public func grantPermission() {
        if unavailableReason == .notAvailable { unavailableReason = nil }
    }

    public func availability() async -> BiometricAvailability {
        guard let kind else { return .unavailable(.notSupported) }
        if let unavailableReason { return .unavailable(unavailableReason) }
        return .available(kind: kind)
    }

    public func evaluate(reason: String, fallbackTitle: String?) async -> BiometricResult {
        if case .unavailable(let reason) = await availability() {
            return .failure(BiometricFailure(code: Self.code(for: reason)))
        }
        let prompt = Prompt(reason: reason, fallbackTitle: fallbackTitle)
        prompts.append(prompt)
        let outcome: Outcome
        if !script.isEmpty {
            outcome = script.removeFirst()
        } else if let decide {
            outcome = await decide(prompt)
        } else {
            outcome = whenUnscripted
        }
        return result(of: outcome)
    }

    public func domainState() async -> Data? {
        await availability().isAvailable ? enrolledState : nil
    }

    /// How many times the app took a prompt down (`cancelEvaluation()`).
    public private(set) var cancelledEvaluations = 0

    public func cancelEvaluation() async {
        cancelledEvaluations += 1
    }

    private func result(of outcome: Outcome) -> BiometricResult {
        switch outcome {
        case .match: return .success
        case .noMatch: return .failure(BiometricFailure(code: .authenticationFailed))
        case .cancel: return .failure(BiometricFailure(code: .userCancel))
        case .otherMethod: return .failure(BiometricFailure(code: .userFallback))
        case .systemCancel: return .failure(BiometricFailure(code: .systemCancel))
        case .appCancel: return .failure(BiometricFailure(code: .appCancel))
        case .denyPermission:
            unavailableReason = .notAvailable
            return .failure(BiometricFailure(code: .biometryNotAvailable))
        case .lockout:
            unavailableReason = .lockedOut
            return .failure(BiometricFailure(code: .biometryLockout))
        case .notInteractive: return .failure(BiometricFailure(code: .notInteractive))
        case .error(let code): return .failure(BiometricFailure(laErrorCode: code))
        }
    }

    /// The code a real prompt fails with while biometrics are unavailable for `reason`.
    private static func code(for reason: BiometricUnavailableReason) -> BiometricErrorCode {
        switch reason {
        case .notEnrolled: .biometryNotEnrolled
        case .passcodeNotSet: .passcodeNotSet
        case .notAvailable, .notSupported: .biometryNotAvailable
        case .lockedOut: .biometryLockout
        }
    }

    private static func state(generation: Int) -> Data { Data("simulated-enrollment-\(generation)".utf8) }
}
