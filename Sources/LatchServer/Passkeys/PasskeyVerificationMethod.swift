import FluentKit
import Foundation
import LatchCore

/// The passkey as a method of step-up verification (issue 13), without HTTP (issue 29 §1): its offer in a
/// new verification, and the check of an attempt by it.
struct PasskeyVerificationMethod: Sendable {
    let latch: LatchServices
    let caller: Caller
    let db: any Database

    /// The `passkey` offer of a new verification, when the caller has passkeys: a challenge bound to the
    /// verification, and request options whose challenge is `PasskeyVerificationChallenge` of the action,
    /// its parameters' digest, the challenge id and the challenge (ARCHITECTURE.md, "passkeys").
    /// Only passkeys `admitting` lets answer are allowed (issue 28 §2: a held action's factors are older
    /// than the hold).
    func offer(
        verification: UUID, action: String, digest: String, admitting: (Passkey) -> Bool = { _ in true }
    ) async throws -> VerificationMethodOffer? {
        let passkeys = try await latch.passkeys.all(of: caller.user, on: db).filter(admitting)
        guard !passkeys.isEmpty else { return nil }
        let challenge = try await PasskeyChallengeStore().create(
            .verification, user: caller.user, verification: verification, now: latch.clock.epochSeconds, on: db)
        let challengeID = try challenge.requireID().uuidString.lowercased()
        let bound = try PasskeyVerificationChallenge.bytes(
            action: action, parametersDigest: digest, challengeID: challengeID, challenge: challenge.challenge)
        let options = PublicKeyCredentialRequestOptionsJSON(
            challenge: Base64URL.encode(bound), timeout: PasskeyService.timeout, rpId: latch.config.relyingParty.id,
            allowCredentials: passkeys.map {
                PublicKeyCredentialDescriptorJSON(id: $0.credentialID, transports: $0.transportList)
            },
            userVerification: "required")
        return VerificationMethodOffer(
            type: .passkey, challengeId: challengeID, challenge: challenge.challenge, options: options)
    }

    /// A `passkey` attempt: an assertion by one of the caller's passkeys over this verification's bound
    /// challenge (used up first). An assertion made for another action or other parameters carries
    /// another challenge, so it fails here.
    func check(
        _ credential: AuthenticationResponseJSON, verification: UUID, action: String, digest: String,
        admitting: (Passkey) -> Bool = { _ in true }
    ) async throws -> GuardedCheck {
        guard let passkey = try await latch.passkeys.find(rawID: credential.rawId, on: db),
            passkey.userID == caller.user
        else { throw LatchError.invalid("credential", ["unknown_credential"]) }
        guard admitting(passkey) else { throw LatchError.invalid("method", ["not_offered"]) }
        let now = latch.clock.epochSeconds
        guard let challenge = try await PasskeyChallengeStore().consume(verification: verification, now: now, on: db)
        else {
            return .failed(attemptsBeforeLock: 0) // no live challenge: start a new verification
        }
        let bound = try PasskeyVerificationChallenge.bytes(
            action: action, parametersDigest: digest, challengeID: try challenge.requireID().uuidString.lowercased(),
            challenge: challenge.challenge)
        let assertion: PasskeyVerifier.Assertion
        do throws(PasskeyCheckFailure) {
            assertion = try PasskeyVerifier(relyingParty: latch.config.relyingParty)
                .verifyAssertion(
                    credential, challenge: Base64URL.encode(bound), publicKey: passkey.publicKey,
                    backupEligible: passkey.backupEligible)
            if let handle = assertion.userHandle, handle != PasskeyUserHandle.of(caller.user, secrets: latch.secrets) {
                throw PasskeyCheckFailure.userHandleMismatch
            }
        } catch {
            return .failed(attemptsBeforeLock: 0)
        }
        let signIn = PasskeySignIn(latch: latch, db: db, clientIP: caller.ip, language: caller.language)
        do {
            try await signIn.recordUse(passkey, assertion: assertion, session: caller.session, now: now)
        } catch let error as LatchError where error.reasons == ["counter_regressed"] {
            return .failed(attemptsBeforeLock: 0)
        }
        return .matched
    }
}
