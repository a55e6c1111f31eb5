#if canImport(LocalAuthentication) && (os(iOS) || os(macOS) || os(visionOS))
    import Foundation
    import LocalAuthentication

    /// `BiometricAuthenticator` on LocalAuthentication (Apple platforms). It only translates: every decision
    /// is made by tested core code — `BiometricAvailability(canEvaluate:errorCode:kind:)` (B1),
    /// `BiometricErrorCode` (B2), `BiometricFallbackButton` (B3).
    ///
    /// Each prompt gets a fresh `LAContext`: an already evaluated context would answer again without
    /// prompting. A context that matched is kept briefly in `handoff`, so that the Secure Enclave key can
    /// sign right after without a second prompt (`SecureEnclaveDeviceKeyStore`).
    ///
    /// The app's Info.plist needs `NSFaceIDUsageDescription`.
    ///
    ///     let authenticator = LocalAuthenticationAuthenticator()
    ///     let keys = DeviceKeyStores.platformDefault(vault: vault, authenticator: authenticator)
    public struct LocalAuthenticationAuthenticator: BiometricAuthenticator {
        /// Hands the context of the latest match to the Secure Enclave key store.
        public let handoff: LocalAuthenticationHandoff
        /// The context of the prompt that is up, so that `cancelEvaluation()` can take it down.
        private let running = LocalAuthenticationRunningPrompt()

        public init(handoff: LocalAuthenticationHandoff = LocalAuthenticationHandoff()) {
            self.handoff = handoff
        }

        public func availability() async -> BiometricAvailability {
            let context = LAContext()
            var error: NSError?
            let canEvaluate = context.canEvaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, error: &error)
            // `biometryType` is set by canEvaluatePolicy, also when it fails (e.g. permission off).
            return BiometricAvailability(
                canEvaluate: canEvaluate, errorCode: error?.code, kind: Self.kind(of: context.biometryType))
        }

        public func evaluate(reason: String, fallbackTitle: String?, cancelTitle: String?) async -> BiometricResult {
            let context = LAContext()
            context.localizedFallbackTitle = BiometricFallbackButton(title: fallbackTitle).localizedFallbackTitle
            if let cancelTitle { context.localizedCancelTitle = cancelTitle }
            // LAContext reports no scans: FailedScanInference decides from what can be seen here.
            var lockError: NSError?
            let lockedOutBefore =
                !context.canEvaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, error: &lockError)
                && lockError?.code == LAError.biometryLockout.rawValue
            let kind = Self.kind(of: context.biometryType) ?? .faceID
            let shown = ContinuousClock.now
            running.start(context)
            defer { running.end(context) }
            do {
                _ = try await context.evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: reason)
                handoff.keep(context)
                return .success
            } catch {
                let error = error as NSError
                let code = error.domain == LAErrorDomain ? BiometricErrorCode(code: error.code) : .other(error.code)
                let elapsed = ContinuousClock.now - shown
                let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
                let scanFailed = FailedScanInference.scanFailed(
                    code: code, kind: kind, lockedOutBefore: lockedOutBefore, secondsShown: seconds)
                return .failure(BiometricFailure(code: code, scanFailed: scanFailed))
            }
        }

        /// The device-passcode prompt (`deviceOwnerAuthentication`): while biometry is locked out it asks for
        /// the passcode at once, and entering it unlocks biometry again.
        public func unlockWithPasscode(reason: String, cancelTitle: String?) async -> BiometricResult {
            let context = LAContext()
            if let cancelTitle { context.localizedCancelTitle = cancelTitle }
            running.start(context)
            defer { running.end(context) }
            do {
                _ = try await context.evaluatePolicy(.deviceOwnerAuthentication, localizedReason: reason)
                return .success
            } catch {
                let error = error as NSError
                return .failure(BiometricFailure(laErrorCode: error.domain == LAErrorDomain ? error.code : 0))
            }
        }

        /// Invalidates the running prompt's context: the system takes the prompt down and `evaluate`
        /// ends with `LAError.appCancel`.
        public func cancelEvaluation() async {
            running.cancel()
        }

        /// The domain state with the API and OS version that produced it (B4): `domainState.biometry.stateHash`
        /// on iOS 18, macOS 15, visionOS 2 and later, `evaluatedPolicyDomainState` before. Apple warns that
        /// either value may change between major OS versions although nobody enrolled anything; the kept
        /// provenance turns such a difference into `EnrollmentCheck.unconfirmed`, decided by the device key.
        public func domainStateReading() async -> DomainStateReading? {
            let context = LAContext()
            var error: NSError?
            guard context.canEvaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, error: &error) else { return nil }
            let version = ProcessInfo.processInfo.operatingSystemVersion
            let system = "\(version.majorVersion).\(version.minorVersion).\(version.patchVersion)"
            if #available(iOS 18.0, macOS 15.0, visionOS 2.0, *) {
                guard let hash = context.domainState.biometry.stateHash else { return nil }
                return DomainStateReading(state: hash, source: .init(api: .domainState, systemVersion: system))
            } else {
                guard let state = context.evaluatedPolicyDomainState else { return nil }
                return DomainStateReading(
                    state: state, source: .init(api: .evaluatedPolicyDomainState, systemVersion: system))
            }
        }

        public func domainState() async -> Data? {
            let context = LAContext()
            var error: NSError?
            // The state is only readable after canEvaluatePolicy succeeded on the same context.
            guard context.canEvaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, error: &error) else { return nil }
            if #available(iOS 18.0, macOS 15.0, visionOS 2.0, *) {
                return context.domainState.biometry.stateHash
            } else {
                return context.evaluatedPolicyDomainState
            }
        }

        static func kind(of type: LABiometryType) -> BiometryKind? {
            switch type {
            case .faceID: .faceID
            case .touchID: .touchID
            case .opticID: .opticID
            case .none: nil
            @unknown default: nil
            }
        }
    }
#endif
