import LatchCore

/// Runs the verification page for a protected settings change and says how it ended: the
/// app passes its own ``LatchClient/verify(_:authenticator:keys:presenter:language:timeZone:)`` call.
///
///     let verify: ScreenVerifier = { context in
///         await client.verify(context, authenticator: authenticator, keys: keys, presenter: sheet, language: .zhHans)
///     }
public typealias ScreenVerifier = @MainActor (VerificationContext) async -> VerificationResult
