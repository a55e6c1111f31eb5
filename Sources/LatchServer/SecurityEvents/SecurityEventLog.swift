import FluentKit
import Foundation
import LatchCore

/// Records security events (sign-ins, failures, locks, resets, revocations, replays). Failures that
/// strangers can cause are counted, one row per account, kind and hour (`recordAggregated`).
///
/// Issue 42 §1: every record whose kind is emitted (`SecurityEventKind.outbound`) also writes its
/// outbound event, on the same `database`, so it commits with the change or not at all. `facts` are the
/// named values the event's type carries beyond the log's own (`OutboundEvent.of`).
struct SecurityEventLog: Sendable {
    let outbound = OutboundEventStore()
    /// The log's rows (`security_events`).
    let store = SecurityEventStore()

    func record(
        _ kind: SecurityEvent.Kind, user: UUID?, session: UUID? = nil, ip: String?, now: Double,
        actor: String? = nil, detail: String? = nil, facts: [String: EventValue] = [:], on database: any Database
    ) async throws {
        if let event = OutboundEvent.of(
            kind, user: user, session: session, now: now, actor: actor, detail: detail, facts: facts,
            transaction: OutboundTransaction.current ?? OutboundTransaction.newID())
        {
            try await outbound.append(event, on: database)
        }
        if Self.aggregatedKinds.contains(kind) {
            return try await recordAggregated(kind, user: user, session: session, ip: ip, now: now, on: database)
        }
        try await store.insert(
            kind, user: user, session: session, ip: ip, now: now, actor: actor, detail: detail, on: database)
    }

    /// `record` of `kind` for each of `users` at `now` (an import's batch): the log's rows in one statement,
    /// the outbound events in another. Not for the kinds counted per hour (`aggregatedKinds`).
    func recordEach(_ kind: SecurityEvent.Kind, users: [UUID], now: Double, actor: String?, on database: any Database)
        async throws
    {
        precondition(!Self.aggregatedKinds.contains(kind), "\(kind) is counted per hour, not recorded each")
        guard !users.isEmpty else { return }
        for start in stride(from: 0, to: users.count, by: OutboundEventStore.maximumBatch) {
            let chunk = users[start..<min(users.count, start + OutboundEventStore.maximumBatch)]
            let events = chunk.compactMap { user in
                OutboundEvent.of(
                    kind, user: user, session: nil, now: now, actor: actor, detail: nil, facts: [:],
                    transaction: OutboundTransaction.current ?? OutboundTransaction.newID())
            }
            try await outbound.appendEach(events, on: database)
            try await store.insertEach(kind, users: chunk, now: now, actor: actor, on: database)
        }
    }
}
