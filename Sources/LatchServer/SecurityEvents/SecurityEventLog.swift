import FluentKit
import Foundation

/// Records security events (sign-ins, failures, locks, resets, revocations, replays). Failures that
/// strangers can cause are counted, one row per account, kind and hour (`recordAggregated`).
struct SecurityEventLog: Sendable {
    func record(
        _ kind: SecurityEvent.Kind, user: UUID?, session: UUID? = nil, ip: String?, now: Double,
        actor: String? = nil, detail: String? = nil, on database: any Database
    ) async throws {
        if Self.aggregatedKinds.contains(kind) {
            return try await recordAggregated(kind, user: user, session: session, ip: ip, now: now, on: database)
        }
        try await SecurityEvent(
            userID: user, kind: kind, sessionID: session, ip: ip, createdAt: now, actor: actor, detail: detail
        ).create(on: database)
    }
}
