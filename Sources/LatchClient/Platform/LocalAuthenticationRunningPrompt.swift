#if canImport(LocalAuthentication) && (os(iOS) || os(macOS) || os(visionOS))
    import Foundation
    import LocalAuthentication

    /// The `LAContext` whose prompt is up, kept so the prompt can be taken down from elsewhere.
    final class LocalAuthenticationRunningPrompt: @unchecked Sendable {
        // @unchecked Sendable: `context` is only read and written while holding `lock`.
        private let lock = NSLock()
        private var context: LAContext?

        func start(_ context: LAContext) {
            lock.withLock { self.context = context }
        }

        func end(_ context: LAContext) {
            lock.withLock { if self.context === context { self.context = nil } }
        }

        func cancel() {
            lock.withLock { () -> LAContext? in
                defer { context = nil }
                return context
            }?.invalidate()
        }
    }
#endif
