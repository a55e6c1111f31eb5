import Foundation

/// A scriptable biometric sensor for tests and the command-line client that behaves like the real
/// Face ID and Touch ID (seeds 000, 001, 003): the script is what the person does — scans or touches
/// that match or fail, and the buttons they press — and the sensor derives the `LAError` a real device
/// returns, per prompt and across prompts.
///
/// - **Face ID** retries by itself: after the first failed scan it scans again; after the second it
///   offers only "Try Face ID Again" (`.tryAgain`), Cancel (`.cancel` → −2) and the fallback button
///   (`.otherMethod` → −3). A scan step while those buttons show presses "Try Face ID Again" first.
///   Face ID never reports −1. A `.cancel` before any failed scan (the real prompt shows no Cancel while
///   it scans) stands for the person dismissing it: −2 without a failed scan, the user's cancel.
/// - **Touch ID** reports −1 (`authenticationFailed`) after three failed touches in one prompt; its
///   Cancel and fallback buttons end the prompt with −2 / −3. It has no "Try Again" button (`.tryAgain`
///   is ignored).
/// - **Both** report −8 (`biometryLockout`) on the fifth consecutive failed scan or touch, counted across
///   prompts; a match resets the count. The lockout lasts until the device passcode is entered
///   (`unlockWithPasscode` answered with `.passcode`, or `unlock()`).
///
/// Every failure says whether a scan failed in its prompt (`BiometricFailure.scanFailed`). A prompt while
/// biometrics are unavailable fails with the matching `LAError` code without taking a step;
/// `.denyPermission` changes availability until `grantPermission()`; the domain state cannot be read
/// while unavailable. The sensor kind, availability and enrollment can be changed at any time, e.g. to
/// simulate someone enrolling another face (B4).
///
///     let sensor = SimulatedAuthenticator(kind: .touchID)
///     await sensor.enqueue(.noMatch, .noMatch, .noMatch, .match)
///     await sensor.evaluate(reason: "Sign in", fallbackTitle: nil)   // .failure(−1): three touches failed
///     await sensor.evaluate(reason: "Sign in", fallbackTitle: nil)   // .success
///     await sensor.reenroll()                                        // domain state changes
public actor SimulatedAuthenticator: BiometricAuthenticator {
    /// One thing the person (or the system) does while a prompt is up.
    public enum Step: Sendable, Hashable {
        /// The face or finger matches: the prompt succeeds.
        case match
        /// A scan or touch that does not match (Face ID: the prompt goes on; Touch ID: −1 on the third).
        case noMatch
        /// Face ID's "Try Face ID Again" after failed scans: the next step is a scan.
        case tryAgain
        /// The user taps Cancel: −2.
        case cancel
        /// The user taps the fallback button ("use another method"): −3.
        case otherMethod
        /// The device passcode is entered in a passcode prompt (`unlockWithPasscode`): the lockout ends.
        case passcode
        /// A call comes in or another app comes to the front: −4.
        case systemCancel
        /// The app cancels the prompt: −9.
        case appCancel
        /// The user refuses this app's Face ID permission: −6, and biometrics stay unavailable
        /// (`.notAvailable`) until `grantPermission()`.
        case denyPermission
        /// Locked out at once (failures elsewhere): −8, and biometrics stay locked out until the passcode.
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
        /// The cancel button's title (`nil`: the system's).
        public let cancelTitle: String?
        /// `true` for a device-passcode prompt (`unlockWithPasscode`), `false` for a biometric one.
        public let asksForPasscode: Bool

        public init(reason: String, fallbackTitle: String?, cancelTitle: String? = nil, asksForPasscode: Bool = false) {
            self.reason = reason
            self.fallbackTitle = fallbackTitle
            self.cancelTitle = cancelTitle
            self.asksForPasscode = asksForPasscode
        }
    }

    /// Consecutive failed scans or touches (across prompts) that lock biometry out (−8).
    public static let failuresUntilLockout = 5
    /// Failed touches in one Touch ID prompt that end it with −1.
    public static let touchIDFailuresPerPrompt = 3
    /// Failed scans after which Face ID stops retrying by itself and shows its buttons.
    public static let faceIDAutomaticScans = 2

    /// The sensor, or `nil` for a device without one.
    public private(set) var kind: BiometryKind?
    /// The opaque enrollment value `domainState()` reports while biometrics are usable.
    public private(set) var enrolledState: Data
    /// Why biometrics are unavailable, or `nil` when they are usable.
    public private(set) var unavailableReason: BiometricUnavailableReason?
    /// Every prompt shown, in order.
    public private(set) var prompts: [Prompt] = []
    /// Steps still scripted.
    public private(set) var script: [Step] = []
    /// What the person does when nothing is scripted and no `decide` hook is set.
    public private(set) var whenUnscripted: Step
    /// Failed scans or touches since the last match or passcode, across prompts.
    public private(set) var consecutiveFailures = 0
    private let decide: (@Sendable (Prompt) async -> Step)?
    private var enrollmentGeneration = 1

    /// - Parameters:
    ///   - kind: the sensor; `nil` simulates a device without one.
    ///   - whenUnscripted: the step beyond the script (default: the user cancels).
    ///   - decide: asked for each step beyond the script, e.g. by a terminal UI.
    public init(
        kind: BiometryKind? = .faceID, whenUnscripted: Step = .cancel,
        decide: (@Sendable (Prompt) async -> Step)? = nil
    ) {
        self.kind = kind
        self.whenUnscripted = whenUnscripted
        self.decide = decide
        self.enrolledState = Self.state(generation: 1)
    }

    /// Adds steps for the next prompts, in order.
    public func enqueue(_ steps: Step...) { script += steps }

    /// Adds steps for the next prompts, in order.
    public func enqueue(contentsOf steps: [Step]) { script += steps }

    /// Changes what the person does beyond the script.
    public func setWhenUnscripted(_ step: Step) { whenUnscripted = step }

    /// Sets the count of consecutive failures, e.g. as kept by the CLI between runs.
    public func setConsecutiveFailures(_ count: Int) { consecutiveFailures = max(0, count) }

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

    /// Simulates entering the device passcode after a lockout (on the Lock Screen): biometry is usable
    /// again and the failure count restarts.
    public func unlock() {
        if unavailableReason == .lockedOut { unavailableReason = nil }
        consecutiveFailures = 0
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

    public func evaluate(reason: String, fallbackTitle: String?, cancelTitle: String?) async -> BiometricResult {
        if case .unavailable(let reason) = await availability() {
            return .failure(BiometricFailure(code: Self.code(for: reason)))
        }
        let prompt = Prompt(reason: reason, fallbackTitle: fallbackTitle, cancelTitle: cancelTitle)
        prompts.append(prompt)
        let kind = self.kind ?? .faceID
        var failedScans = 0
        while true {
            switch await nextStep(for: prompt) {
            case .match:
                consecutiveFailures = 0
                return .success
            case .noMatch:
                failedScans += 1
                consecutiveFailures += 1
                if consecutiveFailures >= Self.failuresUntilLockout {
                    unavailableReason = .lockedOut
                    return .failure(BiometricFailure(code: .biometryLockout, scanFailed: true))
                }
                switch kind {
                case .touchID:
                    if failedScans % Self.touchIDFailuresPerPrompt == 0 {
                        return .failure(BiometricFailure(code: .authenticationFailed))
                    }
                case .faceID, .opticID:
                    // The first failure is scanned again by itself; after the second the prompt waits on
                    // its buttons, and a further scan step stands for "Try Face ID Again".
                    break
                }
            case .tryAgain:
                // Face ID's button: the next step is a scan. Touch ID has no such button.
                continue
            case .cancel:
                return .failure(BiometricFailure(code: .userCancel, scanFailed: failedScans > 0))
            case .otherMethod:
                return .failure(BiometricFailure(code: .userFallback, scanFailed: failedScans > 0))
            case .passcode:
                // A biometric prompt asks for no passcode: the step is ignored.
                continue
            case .systemCancel:
                return .failure(BiometricFailure(code: .systemCancel, scanFailed: failedScans > 0))
            case .appCancel:
                return .failure(BiometricFailure(code: .appCancel, scanFailed: failedScans > 0))
            case .denyPermission:
                unavailableReason = .notAvailable
                return .failure(BiometricFailure(code: .biometryNotAvailable))
            case .lockout:
                unavailableReason = .lockedOut
                return .failure(BiometricFailure(code: .biometryLockout, scanFailed: failedScans > 0))
            case .notInteractive:
                return .failure(BiometricFailure(code: .notInteractive))
            case .error(let code):
                return .failure(BiometricFailure(laErrorCode: code, scanFailed: failedScans > 0))
            }
        }
    }

    /// The passcode prompt: `.passcode` enters the passcode and ends any lockout (the failure count
    /// restarts); `.systemCancel` / `.appCancel` interrupt it; any other step cancels it (−2). Without a
    /// passcode set it fails at once with −5.
    public func unlockWithPasscode(reason: String, cancelTitle: String?) async -> BiometricResult {
        if unavailableReason == .passcodeNotSet { return .failure(BiometricFailure(code: .passcodeNotSet)) }
        let prompt = Prompt(reason: reason, fallbackTitle: nil, cancelTitle: cancelTitle, asksForPasscode: true)
        prompts.append(prompt)
        switch await nextStep(for: prompt) {
        case .passcode:
            unlock()
            return .success
        case .systemCancel:
            return .failure(BiometricFailure(code: .systemCancel))
        case .appCancel:
            return .failure(BiometricFailure(code: .appCancel))
        case .match, .noMatch, .tryAgain, .cancel, .otherMethod, .denyPermission, .lockout, .notInteractive, .error:
            return .failure(BiometricFailure(code: .userCancel))
        }
    }

    private func nextStep(for prompt: Prompt) async -> Step {
        if !script.isEmpty { return script.removeFirst() }
        if let decide { return await decide(prompt) }
        switch whenUnscripted {
        case .tryAgain, .passcode:
            // Repeated for ever they would never end a biometric prompt: the person gives up instead.
            return .cancel
        case .match, .noMatch, .cancel, .otherMethod, .systemCancel, .appCancel, .denyPermission, .lockout,
            .notInteractive,
            .error:
            return whenUnscripted
        }
    }

    public func domainState() async -> Data? {
        await availability().isAvailable ? enrolledState : nil
    }

    /// Which API and OS version `domainStateReading()` says produced the state; `nil`: unknown.
    public private(set) var domainStateSource: DomainStateReading.Source?

    /// Sets the provenance `domainStateReading()` reports, without changing the state.
    public func setDomainStateSource(_ source: DomainStateReading.Source?) { domainStateSource = source }

    /// Simulates an OS update that reads the same enrollment through another API (iOS 17's
    /// `evaluatedPolicyDomainState` → iOS 18's `domainState`): the state's bytes change, the enrollment
    /// does not.
    public func updateSystem(to source: DomainStateReading.Source) {
        domainStateSource = source
        enrolledState = enrolledState + Data("|\(source.api.rawValue)@\(source.systemVersion)".utf8)
    }

    public func domainStateReading() async -> DomainStateReading? {
        await domainState().map { DomainStateReading(state: $0, source: domainStateSource) }
    }

    /// How many times the app took a prompt down (`cancelEvaluation()`).
    public private(set) var cancelledEvaluations = 0

    public func cancelEvaluation() async {
        cancelledEvaluations += 1
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
