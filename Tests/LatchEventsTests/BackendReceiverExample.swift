import Foundation
import LatchEvents

// docs/EVENTS.md shows this file's `receive` as the Swift receiver: the test below runs it, so the
// example compiles and does what the page says.

/// A Swift backend's webhook endpoint: verify, drop duplicates, act.
struct BackendReceiver {
    let webhook: LatchWebhook
    /// Ids of events already handled (a table in your database).
    var handled: Set<String> = []
    /// What the example did, for the test (your backend revokes, cancels, holds).
    var done: [String] = []

    init(secret: String) throws { webhook = try LatchWebhook(secret: secret) }

    /// The status to answer a delivery with: 2xx when handled (or a duplicate), 401 when refused.
    mutating func receive(body: Data, headers: [String: String]) -> Int {
        let event: LatchEvent
        do {
            event = try webhook.verify(body: body, headers: headers)
        } catch {
            return 401 // forged, altered, replayed or the wrong secret: act on nothing
        }
        guard handled.insert(event.id).inserted else { return 204 } // a duplicate: same id, done already
        guard let user = event.userID else { return 204 }
        switch event.type {
        case .accountFrozen, .accountDisabled, .accountDeleted, .credentialCompromised, .refreshTokenReused:
            revokeAPIKeys(of: user)
            cancelQueuedWithdrawals(of: user)
        case .sessionRevoked where event.reason == "reset":
            endWebSessions(of: user)
        case .holdStarted:
            hold(user, actions: event.actions ?? [], until: event.until ?? event.timestamp)
        default:
            break // every other type, and `.unknown` ones from a newer latchd: answer 2xx all the same
        }
        return 204
    }

    mutating func revokeAPIKeys(of user: String) { done.append("revoke API keys of \(user)") }
    mutating func cancelQueuedWithdrawals(of user: String) { done.append("cancel withdrawals of \(user)") }
    mutating func endWebSessions(of user: String) { done.append("end web sessions of \(user)") }
    mutating func hold(_ user: String, actions: [String], until: Date) {
        done.append("hold \(actions) of \(user) until \(Int(until.timeIntervalSince1970))")
    }
}
