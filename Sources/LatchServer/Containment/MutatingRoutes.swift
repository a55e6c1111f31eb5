/// Every route that changes something, and the security changes it makes (issue 28 §1): the closed
/// world that `SecurityChangeDeclarationTests` holds the router to. A route that the router serves with
/// POST, PUT, PATCH or DELETE and that is missing here fails that test, so the next route cannot forget
/// the containment the others follow: it names its `SecurityChange`s (which `SecurityChanges.apply`
/// carries out) or says, with a reason, why it makes none.
///
/// Keys are the method and the router's path (`:id` for a parameter).
enum MutatingRoutes {
    /// What a route declares.
    enum Declaration: Sendable, Equatable {
        /// The security changes the route may make (each through `SecurityChanges.apply`).
        case changes([SecurityChange.Kind])
        /// No security change, and why.
        case noSecurityChange(String)
    }

    static let declarations: [String: Declaration] = [
        // Accounts and sign-in.
        "POST /v1/registrations": .noSecurityChange(
            "starts a registration: no account exists until its code is verified"),
        "POST /v1/registrations/:id/verify": .noSecurityChange(
            "creates the account and its first session: there is no owner to tell yet"),
        "POST /v1/token": .noSecurityChange(
            "a sign-in: lockout guards its guesses and the new-device screening mails the owner of an unknown device"),
        "POST /v1/logout": .noSecurityChange("ends the acting session itself, which its holder sees"),
        "PATCH /v1/me": .noSecurityChange("the nickname and the language: nothing that signs in or verifies"),
        "DELETE /v1/me": .noSecurityChange(
            "the account ends (needs a recent sign-in or a proof, held like every listed action); AccountDeletion mails its own farewell"
        ),
        "POST /v1/password/forgot": .noSecurityChange("mails a reset code to the address; changes nothing"),
        "POST /v1/password/reset": .changes([.passwordReset, .unfrozen]),
        "POST /v1/password/change": .changes([.passwordChanged]),
        // Sessions.
        "DELETE /v1/sessions": .changes([.otherSessionsEnded]),
        "DELETE /v1/sessions/:id": .changes([.sessionEnded]),
        // Second factors.
        "POST /v1/mfa/totp": .noSecurityChange(
            "a pending enrolment that verifies nothing until POST /v1/mfa/totp/activate, the change"),
        "POST /v1/mfa/totp/activate": .changes([.totpAdded]),
        "DELETE /v1/mfa/totp": .changes([.totpRemoved]),
        "PUT /v1/fund-password": .changes([.fundPasswordAdded, .fundPasswordChanged]),
        // Device keys and passkeys.
        "POST /v1/device-credentials": .changes([.deviceKeyAdded]),
        "DELETE /v1/device-credentials/:id": .changes([.deviceKeyRemoved]),
        "POST /v1/device-credentials/:id/challenges": .noSecurityChange(
            "a single-use login challenge for a bound key: changes nothing"),
        "PUT /v1/device-credentials/:id/push-token": .noSecurityChange(
            "where approval pushes for the caller's own key go (recorded as push_token_registered): a push names only the kind of action, and approving still needs that key's signature"
        ),
        "DELETE /v1/device-credentials/:id/push-token": .noSecurityChange(
            "the caller's key gets no more approval pushes: lowers no protection"),
        "POST /v1/app-attest/challenges": .noSecurityChange(
            "a single-use App Attest challenge: nothing is bound until POST /v1/device-credentials"),
        "POST /v1/passkeys/registration/options": .noSecurityChange(
            "a single-use registration challenge: nothing is added until POST /v1/passkeys"),
        "POST /v1/passkeys": .changes([.passkeyAdded]),
        "PATCH /v1/passkeys/:id": .noSecurityChange("renames a passkey (needs a recent sign-in or a proof)"),
        "DELETE /v1/passkeys/:id": .changes([.passkeyRemoved]),
        "POST /v1/passkeys/authentication/options": .noSecurityChange(
            "a single-use sign-in challenge: changes nothing"),
        // Verification.
        "POST /v1/verifications": .changes([.newValueLocked]),
        "POST /v1/verifications/:id/attempts": .noSecurityChange(
            "one attempt: guesses are counted by the method's lock, a success issues a single-use proof"),
        "POST /v1/verifications/redeem": .noSecurityChange("a backend uses a proof once (refused during a hold)"),
        // Phone approvals (issue 43 §1).
        "POST /v1/approvals": .noSecurityChange(
            "a pending sign-in approval, signed in by no one until the phone approves it (rate limited per address)"),
        "POST /v1/verifications/:id/deny": .noSecurityChange(
            "the phone denies a verification asked of it (issue 43 §2): the request ends and the owner is mailed with a freeze link; nothing is added or removed"
        ),
        "POST /v1/approvals/:id/decision": .noSecurityChange(
            "the phone's decision: approving needs a proof for approve_sign_in bound to the approval (held like every listed action) and the session starts on the web's poll; a wrong number or a denial ends it and is recorded on the owner's log"
        ),
        "POST /v1/verifications/:id/email-code": .noSecurityChange(
            "mails a code for this verification's email_code factor; changes nothing"),
        // Settings, identities and containment.
        "PATCH /v1/me/security-settings": .changes([.unusualSignInCheckTurnedOff, .newDeviceNoticeTurnedOff]),
        "POST /v1/sms/codes": .noSecurityChange("texts a sign-in code; changes nothing"),
        "POST /v1/me/identities": .changes([.identityLinked, .phoneAdded, .emailAdded]),
        "DELETE /v1/me/identities/:provider": .changes([.identityUnlinked, .phoneRemoved, .emailRemoved]),
        "PUT /v1/me/anti-phishing-code": .changes([.antiPhishingCodeSet]),
        "DELETE /v1/me/anti-phishing-code": .changes([.antiPhishingCodeRemoved]),
        "POST /v1/me/freeze": .changes([.frozen]),
        "POST /v1/freeze": .changes([.frozen]),
        // Operators (every action audited in admin_audit_log).
        "DELETE /v1/admin/users/:id": .noSecurityChange("an operator deletes the account as DELETE /v1/me does"),
        "POST /v1/admin/users/:id/unlock": .noSecurityChange("an operator clears guess locks: lowers no protection"),
        "POST /v1/admin/users/:id/disable": .noSecurityChange(
            "an operator's switch: the security reset ends every way in and every grant answers ACCOUNT_DISABLED"),
        "POST /v1/admin/users/:id/enable": .noSecurityChange("an operator's switch back: ended sessions stay ended"),
        "POST /v1/admin/users/:id/sign-out": .noSecurityChange(
            "an operator runs the security reset: every session ends, which the owner sees"),
        "DELETE /v1/admin/users/:id/totp": .changes([.totpResetByOperator]),
        "DELETE /v1/admin/users/:id/fund-password": .changes([.fundPasswordResetByOperator]),
        "POST /v1/admin/users/:id/freeze": .changes([.frozen]),
        "POST /v1/admin/users/:id/unfreeze": .changes([.unfrozen]),
        "DELETE /v1/admin/users/:id/hold": .noSecurityChange(
            "an operator lifts a running hold: recorded as security_hold_ended with actor operator"),
        // Moving in (issue 45 §1): accounts an operator brings from another system, audited.
        "POST /v1/admin/imports": .noSecurityChange(
            "creates accounts from another system (each recorded as account_imported) and never takes over one it did not make: an email, phone or identity of another user is refused"
        ),
        // Event streams (issue 42 §3): operators' settings of what the app's backend hears, audited.
        "POST /v1/admin/event-streams": .noSecurityChange(
            "an operator adds a receiver of events the owner's security log already shows: no account changes"),
        "DELETE /v1/admin/event-streams/:id": .noSecurityChange(
            "an operator removes a receiver (audited): the owner's log, mails and holds are unchanged"),
        "POST /v1/admin/event-streams/:id/rotate-secret": .noSecurityChange(
            "a new signing secret for a receiver, shown once; the old one verifies for 24 hours"),
        "POST /v1/admin/event-streams/:id/replay": .noSecurityChange(
            "sends events again, with the same ids: receivers already handle duplicates"),
        // Shared Signals (issue 42 §2): an SSF receiver manages its own streams with its receiver key.
        "POST /ssf/streams": .noSecurityChange(
            "a receiver's own stream of events the owners' security logs already show: no account changes"),
        "PATCH /ssf/streams": .noSecurityChange("a receiver's own stream: what it hears and where; no account changes"),
        "PUT /ssf/streams": .noSecurityChange("a receiver's own stream, replaced: no account changes"),
        "DELETE /ssf/streams": .noSecurityChange(
            "a receiver ends its own stream: the owners' logs, mails and holds are unchanged"),
        "POST /ssf/status": .noSecurityChange("a receiver pauses or enables its own stream: no account changes"),
        "POST /ssf/verify": .noSecurityChange("queues a verification event on the receiver's own stream; nothing else"),
        "POST /ssf/poll/:id": .noSecurityChange(
            "a receiver reads and acknowledges its own stream's events: delivery state only")
    ]
}
