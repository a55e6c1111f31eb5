// Shared by the account screen tests (issue 11 §4).
#if canImport(Observation)
    import Foundation
    import LatchClient
    import LatchCore
    import Testing

    /// A verification page that answers as told and records what it was opened for.
    @MainActor
    final class FakeVerifier {
        var opened: [VerificationContext] = []
        var result: VerificationResult = .succeeded(
            VerificationProof(
                token: "vt-1", expiresIn: 300, context: VerificationContext(action: "any"), method: .fundPassword))

        var run: ScreenVerifier {
            { context in
                self.opened.append(context)
                return self.result
            }
        }
    }
#endif
