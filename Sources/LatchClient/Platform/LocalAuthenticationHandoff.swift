#if canImport(LocalAuthentication) && (os(iOS) || os(macOS) || os(visionOS))
import Foundation
import LocalAuthentication

/// The `LAContext` of the latest biometric match, handed once to the Secure Enclave key so that signing
/// the server's challenge right after the match needs no second prompt.
///
/// Security never rests on it: the key still demands a biometric match of the current enrollment. Without
/// a handed-over context (none kept, already taken, or older than `lifetime`) the Secure Enclave shows its
/// own prompt.
public final class LocalAuthenticationHandoff: @unchecked Sendable {
    // @unchecked Sendable: `kept` is only read and written while holding `lock`, and a context leaves
    // through `take()` exactly once.
    private let lock = NSLock()
    private var kept: (context: LAContext, at: ContinuousClock.Instant)?

    /// How long after a match its context may be used (the challenge round trip).
    public let lifetime: Duration

    public init(lifetime: Duration = .seconds(60)) {
        self.lifetime = lifetime
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
