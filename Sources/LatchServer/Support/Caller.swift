import Foundation
import LatchCore

/// The signed-in session asking a service, as plain values (issue 29 §1): the HTTP edge reads them from
/// its request once and hands them over, so a service never sees the web framework.
struct Caller: Sendable, Equatable {
    let user: UUID
    let session: UUID
    /// The client's address (behind `LATCH_TRUSTED_PROXIES`, the forwarded one), for security events.
    let ip: String?
    /// The language of the answer's messages and of the mails the request causes.
    let language: LatchLanguage

    /// The caller as the actor of a security change.
    var changeActor: SecurityChangeActor {
        SecurityChangeActor(user: user, session: session, ip: ip, language: language)
    }
}
