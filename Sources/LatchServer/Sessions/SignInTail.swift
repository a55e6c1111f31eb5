import FluentKit
import Foundation
import LatchCore
import SQLKit

extension LatchServices {
    /// The tail every sign-in shares (each grant of `POST /v1/token`, registration, a first identity
    /// sign-in): starts `user`'s session on `device` and records `event` for it. Whatever the grant
    /// checked before (the secret, the account's state, the device) is the caller's. `boundTo`: the DPoP
    /// key the session is bound to (issue 31), nil for a bearer session.
    func startSession(
        for user: User, device: DeviceInfo?, ip: String?, event: SecurityEvent.Kind = .signedIn,
        boundTo key: String? = nil, now: Date, on database: any Database
    ) async throws -> (session: Session, tokens: TokenResponse) {
        let (session, tokens) = try await rotation.start(
            user: user, device: device, ip: ip, boundTo: key, now: now, on: database)
        if event == .registered, let userID = user.id, let sessionID = session.id {
            // The session that registered the account (issue 28 §2: its setup on a young account is not held).
            try await database.sql.raw(
                "UPDATE users SET registering_session_id = \(bind: sessionID) WHERE id = \(bind: userID)"
            ).run()
        }
        // The event says whether the session is bound to a DPoP key (issue 31 §1).
        try await events.record(
            event, user: user.id, session: session.id, ip: ip, now: now.timeIntervalSince1970,
            detail: key == nil ? nil : "dpop", on: database)
        return (session, tokens)
    }
}
