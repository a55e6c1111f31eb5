/// The Shared Signals event types latchd sends (issue 42 §2): CAEP 1.0, RISC 1.0 and SSF 1.0's own
/// verification event, each named by its URI in a SET's `events` claim.
enum SSFEventType: String, Sendable, CaseIterable, Equatable, Codable {
    case sessionEstablished = "https://schemas.openid.net/secevent/caep/event-type/session-established"
    case sessionRevoked = "https://schemas.openid.net/secevent/caep/event-type/session-revoked"
    case credentialChange = "https://schemas.openid.net/secevent/caep/event-type/credential-change"
    case accountDisabled = "https://schemas.openid.net/secevent/risc/event-type/account-disabled"
    case accountEnabled = "https://schemas.openid.net/secevent/risc/event-type/account-enabled"
    case accountPurged = "https://schemas.openid.net/secevent/risc/event-type/account-purged"
    case identifierChanged = "https://schemas.openid.net/secevent/risc/event-type/identifier-changed"
    case sessionsRevoked = "https://schemas.openid.net/secevent/risc/event-type/sessions-revoked"
    case recoveryActivated = "https://schemas.openid.net/secevent/risc/event-type/recovery-activated"
    case credentialCompromise = "https://schemas.openid.net/secevent/risc/event-type/credential-compromise"
    /// SSF 1.0 §8.1.4: the answer to a receiver's verification request, carrying its `state`.
    case verification = "https://schemas.openid.net/secevent/ssf/event-type/verification"
}
