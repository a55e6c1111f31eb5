import Foundation
import LatchCore

extension LatchClient {
    /// The verification action `deleteAccount(verification:)` needs when the session signed in more
    /// than 10 minutes ago (parameters `[:]`).
    public static let deleteAccountAction = VerificationAction.deleteAccount.rawValue

    /// Deletes the signed-in account (`DELETE /v1/me`, issue 12 §1) and ends the session here.
    ///
    /// Within 10 minutes of signing in no proof is needed; later the server answers
    /// `VERIFICATION_REQUIRED` (a `LatchClientError` whose `code` is `.verificationRequired`), and the
    /// app runs the verification page for ``deleteAccountAction`` and calls again with the proof:
    ///
    ///     let context = VerificationContext(action: LatchClient.deleteAccountAction, parameters: [:])
    ///     guard case .succeeded(let proof) = await client.verify(context, authenticator: auth, keys: keys,
    ///                                                             presenter: sheet, language: .zhHans) else { return }
    ///     let apple = try await client.deleteAccount(verification: proof)
    ///     if apple.needsUserAction { showAlert(apple.guidance(in: .zhHans)) }
    ///
    /// On success the tokens are deleted from the vault, `state` becomes `.signedOut`, and this device's
    /// biometric sign-in record is dropped (its key was deleted with the account).
    public func deleteAccount(verification: VerificationProof? = nil) async throws -> AppleRevocation {
        let deleted = try await perform(
            APICall<AccountDeleted>(
                method: "DELETE", path: "/v1/me",
                body: verification.map { DeleteAccountRequest(verificationToken: $0.token) },
                requiresAuthorization: true))
        _ = await coordinator.signOut()
        await forgetEndedBiometricBinding()
        return deleted.appleRevocation
    }

    /// Drops this device's biometric sign-in record after the server ended its device key with the
    /// account (deletion, freeze): nothing is left to remove on the server later.
    func forgetEndedBiometricBinding() async {
        let biometrics = BiometricEnrollmentStore(vault: vault)
        let bound = await biometrics.binding()
        try? await biometrics.forget()
        if let bound { try? await biometrics.removeStale(bound.credentialID) }
    }

    /// The verification action `exportAccountData(verification:)` needs when the session signed in
    /// more than 10 minutes ago (parameters `[:]`).
    public static let exportAccountAction = VerificationAction.exportAccount.rawValue

    /// Everything the server holds about the signed-in user, as one document (`GET /v1/me/export`):
    /// profile and identities, sessions, device keys, known devices (as keyed hashes), factor status,
    /// security events.
    ///
    /// Within 10 minutes of signing in no proof is needed; later the server answers
    /// `VERIFICATION_REQUIRED`, and the app runs the verification page for ``exportAccountAction`` and
    /// calls again with the proof (sent as `?verification_token=`, spent by this call).
    public func exportAccountData(verification: VerificationProof? = nil) async throws -> AccountExport {
        let query = verification.map { "?verification_token=\(Self.queryValue($0.token))" } ?? ""
        return try await perform(
            APICall<AccountExport>(method: "GET", path: "/v1/me/export" + query, requiresAuthorization: true))
    }

    /// `value` escaped for a query string.
    static func queryValue(_ value: String) -> String {
        var allowed = CharacterSet.urlQueryAllowed
        allowed.remove(charactersIn: "&+=#?")
        return value.addingPercentEncoding(withAllowedCharacters: allowed) ?? value
    }
}
