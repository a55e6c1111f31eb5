import LatchCore

/// A protected change on an account screen: tried without a proof; when the server answers
/// VERIFICATION_REQUIRED, the verification page runs (``ScreenVerifier``) and the change is sent again
/// with its token. Shared by the security settings and the account containment screens.
@MainActor
struct ScreenVerification {
    let verify: ScreenVerifier

    /// `call`'s answer; `nil` when the verification page was cancelled. A failed page throws
    /// ``VerificationEnded``.
    func run<Result>(_ context: VerificationContext, _ call: @MainActor (String?) async throws -> Result)
        async throws -> Result?
    {
        do {
            return try await call(nil)
        } catch let error as LatchClientError where error.code == .verificationRequired {
            guard let token = try await proof(for: context) else { return nil }
            return try await call(token)
        }
    }

    /// Runs the verification page for `context`: its token, `nil` when cancelled; a failed page throws.
    func proof(for context: VerificationContext) async throws -> String? {
        switch await verify(context) {
        case .succeeded(let proof): return proof.token
        case .cancelled: return nil
        case .failed(let failure): throw VerificationEnded(failure: failure)
        }
    }

    /// Runs one request of a screen: the failure to show, `nil` when it went through (a verification page
    /// that failed shows its own text).
    static func failure(of work: @MainActor () async throws -> Void, language: LatchLanguage) async -> ScreenFailure? {
        do {
            try await work()
            return nil
        } catch let ended as VerificationEnded {
            return ended.screenFailure(language)
        } catch {
            return ScreenFailure(error, language: language)
        }
    }

    /// The verification page ended without a token.
    struct VerificationEnded: Error {
        let failure: VerificationFailure

        var errorCode: LatchErrorCode {
            switch failure {
            case .sessionExpired: .sessionExpired
            case .noVerificationMethod: .noVerificationMethod
            }
        }

        /// What the screen shows for it.
        func screenFailure(_ language: LatchLanguage) -> ScreenFailure {
            ScreenFailure(message: VerificationStrings(language).failed(failure), code: errorCode)
        }
    }
}
