import LatchCore

/// Whether a kind of security-log event reaches the app's backend (issue 42 §1).
enum OutboundDeclaration: Sendable, Equatable {
    /// Emitted as this type, from the same transaction that records it.
    case emitted(OutboundEvent.Kind)
    /// Kept in the security log only, for this reason.
    case `internal`(String)
}

extension SecurityEventKind {
    /// What the app's backend hears of this kind, declared here beside the security changes' recipes
    /// (`SecurityChange.recipe` names the kind each change records): an exhaustive switch, so a new kind
    /// does not build until it says, and `OutboundEventDeclarationTests` checks every reason is given.
    var outbound: OutboundDeclaration {
        switch self {
        case .registered: .emitted(.accountRegistered)
        case .accountImported: .emitted(.accountImported)
        case .signedIn: .emitted(.sessionEstablished)
        case .newDeviceSignedIn: .emitted(.sessionNewDevice)
        case .signedOut, .sessionRevoked, .otherSessionsRevoked, .signedOutEverywhere, .securityReset:
            .emitted(.sessionRevoked)
        case .passwordReset, .passwordChanged, .totpActivated, .totpDisabled, .totpReset, .fundPasswordSet,
            .fundPasswordChanged, .fundPasswordReset, .passkeyAdded, .passkeyRemoved, .deviceBound, .deviceUnbound,
            .deviceKeysRemoved, .identityLinked, .identityUnlinked:
            .emitted(.credentialChanged)
        case .passkeyCounterRegressed, .dpopRefused: .emitted(.credentialCompromised)
        case .securitySettingsChanged, .antiPhishingCodeChanged: .emitted(.securitySettingsChanged)
        case .accountFrozen: .emitted(.accountFrozen)
        case .accountUnfrozen: .emitted(.accountUnfrozen)
        case .accountDisabled: .emitted(.accountDisabled)
        case .accountEnabled: .emitted(.accountEnabled)
        case .accountDeleted: .emitted(.accountDeleted)
        case .securityHoldStarted: .emitted(.holdStarted)
        case .securityHoldEnded: .emitted(.holdEnded)
        case .verificationRedeemed: .emitted(.verificationRedeemed)
        case .locked: .emitted(.lockoutStarted)
        case .accountUnlocked: .emitted(.lockoutEnded)
        case .refreshTokenReused: .emitted(.refreshTokenReused)
        case .newValueLocked: .emitted(.newValueLocked)
        case .signInFailed:
            .internal(
                "a wrong guess changes nothing, and strangers cause them at will; the lockout it leads to is lockout.started"
            )
        case .codeFailed:
            .internal(
                "a wrong code changes nothing, and strangers cause them at will; the lockout it leads to is lockout.started"
            )
        case .passwordResetRequested:
            .internal("anyone may ask for a reset code for any address; the reset itself is credential.changed")
        case .profileUpdated: .internal("the nickname and avatar are not security state")
        case .totpEnrolled:
            .internal("an enrolment not yet activated is no factor; its activation is credential.changed")
        case .recoveryCodeUsed:
            .internal(
                "a recovery code answers a sign-in or a verification, which are session.established and verification.redeemed"
            )
        case .verificationFailed:
            .internal("a wrong answer changes nothing; the lock after repeated ones is lockout.started")
        case .verificationPassed:
            .internal("a passed verification moves nothing until its proof is redeemed: verification.redeemed")
        case .verificationPolicyApplied:
            .internal("the policy asked for more factors: nothing changed; what then moves is verification.redeemed")
        case .verificationLimitReached: .internal("a refusal by the daily limit changes nothing")
        case .signInApproved:
            .internal("the phone's yes starts nothing by itself; the session the web collects is session.established")
        case .approvalDenied:
            .internal(
                "a denial ends a request and changes nothing; the owner is mailed, and a freeze that follows is account.frozen"
            )
        case .approvalWrongNumber:
            .internal(
                "a wrong number ends a request and changes nothing; the owner is mailed, and a freeze that follows is account.frozen"
            )
        case .pushTokenRegistered:
            .internal(
                "where approval pushes go: a push names only the kind of action, and approving still needs the device key's signature"
            )
        }
    }
}
