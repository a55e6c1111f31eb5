import FluentKit
import Foundation
import LatchCore

/// Grant `passkey` (issue 13) without HTTP: the routes make one from their request
/// (`Request.passkeySignIn`), tests from an application's services and a database.
struct PasskeySignIn {
    let latch: LatchServices
    let db: any Database
    /// The client's address, for the session and the security events.
    let clientIP: String?
    /// The language of the request (nothing is mailed on a passkey sign-in today).
    let language: LatchLanguage
    /// The DPoP key the request proved: the new session is bound to it (issue 31 §1); nil: a bearer session.
    var dpopKey: String? = nil

    /// An assertion answering sign-in challenge `challengeID` from
    /// `POST /v1/passkeys/authentication/options`. The challenge is used up before anything is
    /// checked; then the client data, the RP ID hash, UP and UV, the signature, the user handle and
    /// the counter. A passkey is a strong factor: the device is remembered, with no emailed code.
    ///
    /// No guess budget: nothing here can be guessed (a signature by an unknown key never verifies);
    /// the sign-in rate limit still applies.
    func signIn(challengeID: String, credential: AuthenticationResponseJSON, device: DeviceInfo?) async throws
        -> TokenResponse
    {
        let now = latch.clock.now
        let seconds = now.timeIntervalSince1970
        guard let id = UUID(uuidString: challengeID),
            let challenge = try await PasskeyChallengeStore().consume(id, .authentication, now: seconds, on: db)
        else { throw Self.refused("challenge_unknown_or_used") }
        guard let passkey = try await latch.passkeys.find(rawID: credential.rawId, on: db),
            // Options that named an account accept only its passkeys (§7.2 step 5): anyone else's
            // answers exactly like an unknown credential.
            challenge.namesUser != true || passkey.userID == challenge.userID,
            let user = try await latch.accounts.user(passkey.userID, on: db)
        else { throw Self.refused("unknown_credential") }
        let userID = try user.requireID()
        let assertion: PasskeyVerifier.Assertion
        do throws(PasskeyCheckFailure) {
            assertion = try PasskeyVerifier(relyingParty: latch.config.relyingParty)
                .verifyAssertion(
                    credential, challenge: challenge.challenge, publicKey: passkey.publicKey,
                    backupEligible: passkey.backupEligible)
            if let handle = assertion.userHandle, handle != PasskeyUserHandle.of(userID, secrets: latch.secrets) {
                throw PasskeyCheckFailure.userHandleMismatch
            }
        } catch {
            try await latch.events.record(.signInFailed, user: userID, ip: clientIP, now: seconds, on: db)
            throw Self.refused(error.rawValue)
        }
        try await recordUse(passkey, assertion: assertion, session: nil, now: seconds)
        try await NewDeviceScreening(latch: latch, db: db, clientIP: clientIP, language: language)
            .rememberDevice(Validate.deviceName(device?.id), of: userID)
        return try await latch.startSession(
            for: user, device: device, ip: clientIP, method: .passkey, boundTo: dpopKey, now: now, on: db
        ).tokens
    }

    /// Stores the new counter, backup state and time of use, in one conditional statement: a counter
    /// that did not go up (when either is non-zero) is refused and recorded as a security event, as
    /// the authenticator may have been cloned (WebAuthn Level 3 §6.1.1).
    func recordUse(_ passkey: Passkey, assertion: PasskeyVerifier.Assertion, session: UUID?, now: Double)
        async throws
    {
        let counter = Int64(assertion.signCount)
        let id = try passkey.requireID()
        let stored = try await latch.passkeys.recordUse(
            of: id, signCount: counter, backedUp: assertion.backedUp, now: now, on: db)
        guard !stored else { return }
        try await latch.events.record(
            .passkeyCounterRegressed, user: passkey.userID, session: session, ip: clientIP, now: now, on: db)
        throw Self.refused("counter_regressed")
    }

    /// 401 AUTH_001 naming why (`field` `credential`).
    static func refused(_ reason: String) -> LatchError {
        LatchError(.wrongCredentials, field: "credential", reasons: [reason])
    }
}
