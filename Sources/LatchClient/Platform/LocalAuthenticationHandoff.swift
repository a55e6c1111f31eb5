#if canImport(LocalAuthentication) && (os(iOS) || os(macOS) || os(visionOS))
    import Foundation
    import LocalAuthentication

    /// The `LAContext` of the latest biometric match, handed once to the Secure Enclave key so that signing
    /// the server's challenge right after the match needs no second prompt.
    ///
    /// Security never rests on it: the key still demands a biometric match of the current enrollment. Without
    /// a handed-over context (none kept, already taken, or older than `lifetime`) the Secure Enclave shows its
    /// own prompt.
    ///
    /// One match authorises one signature for one challenge: `take()` gives the context out once, and the
    /// key store invalidates it after that one signature. A kept context is invalidated when the app goes to
    /// the background (`UIApplication.didEnterBackgroundNotification`): a match made before the user left
    /// the app must not sign anything after they come back.
    public final class LocalAuthenticationHandoff: @unchecked Sendable {
        // @unchecked Sendable: `kept` is only read and written while holding `lock`, and a context leaves
        // through `take()` exactly once.
        private let lock = NSLock()
        private var kept: (context: LAContext, at: ContinuousClock.Instant)?

        /// How long after a match its context may be used (the challenge round trip).
        public let lifetime: Duration

        public init(lifetime: Duration = .seconds(60)) {
            self.lifetime = lifetime
            #if os(iOS) || os(visionOS)
                backgroundObserver = NotificationCenter.default.addObserver(
                    forName: Self.didEnterBackground, object: nil, queue: nil
                ) {
                    [weak self] _ in
                    self?.discard()
                }
            #endif
        }

        deinit {
            if let backgroundObserver { NotificationCenter.default.removeObserver(backgroundObserver) }
        }

        /// `UIApplication.didEnterBackgroundNotification` by its documented name, so that this nonisolated
        /// type needs neither UIKit nor the main actor to observe it.
        static let didEnterBackground = Notification.Name("UIApplicationDidEnterBackgroundNotification")

        /// The observer token of the background notification (set once in `init`).
        private var backgroundObserver: (any NSObjectProtocol)?

        /// Invalidates and drops the kept context, if any (the app went to the background).
        public func discard() {
            let kept = lock.withLock { () -> LAContext? in
                defer { self.kept = nil }
                return self.kept?.context
            }
            kept?.invalidate()
        }

        /// Keeps `context`, which has just matched, replacing any earlier one.
        func keep(_ context: LAContext) {
            let earlier = lock.withLock { () -> LAContext? in
                defer { kept = (context, .now) }
                return kept?.context
            }
            earlier?.invalidate()
        }

        /// The kept context, once, if it is younger than `lifetime`; else `nil`.
        public func take() -> LAContext? {
            let taken = lock.withLock { () -> (context: LAContext, at: ContinuousClock.Instant)? in
                defer { kept = nil }
                return kept
            }
            guard let taken else { return nil }
            guard ContinuousClock.now - taken.at <= lifetime else {
                taken.context.invalidate()
                return nil
            }
            return taken.context
        }
    }
#endif
