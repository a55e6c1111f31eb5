import FluentKit
import Foundation

/// A session as its refresh chain decides on it: the columns a refresh reads, as a value. A refresh built a Fluent
/// `Session` and `User` from its row before, each field a property-wrapper object of its own (4 % of a refresh's
/// CPU, issue 44 §4); `Session` stays the model every other path reads and writes.
struct RotatingSession: Sendable, Equatable {
    let id: UUID
    let userID: UUID
    let sealedSecret: String
    var counter: Int
    var rotatedAt: Double?
    var refreshExpiresAt: Double
    let revokedAt: Double?
    let createdAt: Double
    /// The DPoP key's thumbprint the session is bound to, if any (issue 31).
    let dpopJKT: String?
}

extension RotatingSession {
    /// The chain's columns of a stored session (one that has its id).
    init(_ session: Session) throws {
        self.init(
            id: try session.requireID(), userID: session.userID, sealedSecret: session.sealedSecret,
            counter: session.counter, rotatedAt: session.rotatedAt, refreshExpiresAt: session.refreshExpiresAt,
            revokedAt: session.revokedAt, createdAt: session.createdAt, dpopJKT: session.dpopJKT)
    }
}
