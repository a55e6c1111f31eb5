import FluentKit
import Foundation
import LatchCore

extension PasskeySignIn {
    /// The options of a passkey sign-in (grant `passkey`). No sign-in needed, and the same answer for
    /// everyone (issue 20 §7): `allowCredentials` is always empty, so the options say nothing of whether an
    /// email has an account or how many passkeys it has; any discoverable passkey of this RP may be offered
    /// by the browser. With an `email`, the challenge remembers the account it named, and only that
    /// account's passkeys may answer it (§7.2 step 5; none when the email has no account) — refused like
    /// an unknown credential. (Passkeys that are not discoverable cannot sign in by email this way.)
    func options(naming email: EmailAddress?) async throws -> PasskeyAuthenticationOptions {
        let now = latch.clock.epochSeconds
        var named: UUID?
        if let email {
            named = try await latch.accounts.liveUser(email: email.value, on: db)?.requireID()
        }
        let store = PasskeyChallengeStore()
        try await store.deleteExpired(now: now, on: db)
        let challenge = try await store.create(
            .authentication, user: named, namesUser: email != nil, now: now, on: db)
        let options = PublicKeyCredentialRequestOptionsJSON(
            challenge: challenge.challenge, timeout: PasskeyService.timeout, rpId: latch.config.relyingParty.id,
            allowCredentials: [], userVerification: "required")
        return PasskeyAuthenticationOptions(
            challengeId: try challenge.requireID().uuidString.lowercased(), options: options)
    }
}
