import Foundation
import LatchCore

extension LatchClient {
    /// The verification action that ``setAntiPhishingCode(_:verificationToken:)`` and
    /// ``removeAntiPhishingCode(verificationToken:)`` need when the sign-in is older than 10 minutes
    /// (parameters `[:]`).
    public static let setAntiPhishingCodeAction = VerificationAction.setAntiPhishingCode.rawValue

    /// The account's containment state (`GET /v1/me/security`, issue 19): the running security holds
    /// (which actions are paused, why, until when) and the anti-phishing code, so that the app can show
    /// the code on its own screens.
    ///
    ///     let security = try await client.accountSecurity()
    ///     codeLabel.text = security.antiPhishingCode   // the code every Latch mail shows
    ///     for hold in security.holds { showPaused(hold.actions, until: hold.holdUntil) }
    public func accountSecurity() async throws -> AccountSecurityStatus {
        try await perform(APICall<AccountSecurityStatus>.accountSecurity)
    }

    /// Sets or changes the anti-phishing code (`PUT /v1/me/anti-phishing-code`): 4–20 visible characters,
    /// shown in a fixed, labelled place of every mail latchd sends this user.
    ///
    /// Within 10 minutes of signing in no proof is needed; later the server answers VERIFICATION_REQUIRED
    /// (`code == .verificationRequired`): run the verification page for ``setAntiPhishingCodeAction`` and
    /// call again with the proof's token. A code the server does not accept is VALIDATION_FAILED with
    /// `field == "code"`.
    public func setAntiPhishingCode(_ code: String, verificationToken: String? = nil) async throws {
        try await perform(
            APICall<Void>.setAntiPhishingCode(AntiPhishingCodeUpdate(code: code, verificationToken: verificationToken)))
    }

    /// Removes the anti-phishing code (`DELETE /v1/me/anti-phishing-code`); the same recency rule as
    /// ``setAntiPhishingCode(_:verificationToken:)``.
    public func removeAntiPhishingCode(verificationToken: String? = nil) async throws {
        try await perform(
            APICall<Void>.removeAntiPhishingCode(verificationToken.map(AntiPhishingCodeRemoval.init)))
    }

    /// "This wasn't me" from the app (`POST /v1/me/freeze`, issue 19 §3): the server ends every way into
    /// the account (every session, this one too, device keys, passkeys) and freezes it. Freezing needs no
    /// verification. Afterwards this device is signed out and its biometric sign-in record dropped (its key was
    /// ended with the rest); every sign-in answers ``LatchClientError/accountFrozen(_:)`` until the owner
    /// recovers with ``resetPassword(email:code:newPassword:secondFactor:)``.
    public func freezeAccount() async throws {
        try await perform(APICall<Void>.freezeAccount)
        _ = await coordinator.signOut()
        await forgetEndedBiometricBinding()
    }

    /// Freezes the account of a freeze link (`POST /v1/freeze`): `linkToken` is the `#freeze=` fragment of
    /// the link in a security mail. Needs no sign-in; the server answers the same whether or not the token
    /// is valid, so a success says only that the request was accepted.
    public func freeze(linkToken: String) async throws {
        try await api.perform(.freeze(FreezeRequest(token: linkToken)))
    }
}
