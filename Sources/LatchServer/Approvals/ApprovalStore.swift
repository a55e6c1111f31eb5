import FluentKit
import Foundation
import SQLKit

/// The table of phone approvals (issue 43 §1), and the only place with its SQL. Every change of state is
/// one conditional UPDATE, so two requests racing for one approval cannot both win.
struct ApprovalStore: Sendable {
    static let schema = "approvals"

    func insert(_ approval: Approval, on database: any Database) async throws {
        try await database.sql.raw(
            """
            INSERT INTO approvals (id, kind, scan_secret_hash, poll_secret_hash, number, choices, client_name,
              client_platform, device_id, device_name, ip, created_at, expires_at, state, scan_failures, dpop_jkt)
            VALUES (\(bind: approval.id), \(bind: approval.kind), \(bind: approval.scanSecretHash),
              \(bind: approval.pollSecretHash), \(bind: approval.number), \(bind: approval.choices.joined(separator: ",")),
              \(bind: approval.clientName), \(bind: approval.clientPlatform), \(bind: approval.deviceID),
              \(bind: approval.deviceName), \(bind: approval.ip), \(bind: approval.createdAt), \(bind: approval.expiresAt),
              \(bind: approval.state.rawValue), 0, \(bind: approval.dpopJKT))
            """
        ).run()
    }

    func find(_ id: UUID, on database: any Database) async throws -> Approval? {
        try await database.sql.raw("SELECT \(unsafeRaw: Self.columns) FROM approvals WHERE id = \(bind: id)")
            .first().map(Self.approval(of:))
    }

    /// Counts one wrong scan secret of a pending approval; the third ends it. Answers whether it ended.
    @discardableResult
    func scanFailed(_ id: UUID, now: Double, on database: any Database) async throws -> Bool {
        let row = try await database.sql.raw(
            """
            UPDATE approvals SET scan_failures = scan_failures + 1,
              state = CASE WHEN scan_failures + 1 >= \(bind: Approval.scanFailureLimit)
                THEN \(bind: Approval.State.ended.rawValue) ELSE state END
            WHERE id = \(bind: id) AND state = \(bind: Approval.State.pending.rawValue)
            RETURNING state
            """
        ).first()
        return try row?.decode(column: "state", as: String.self) == Approval.State.ended.rawValue
    }

    /// Moves a live pending approval to `state` (approved, denied or ended), decided by `user` from
    /// `session`. Answers false when it was no longer pending or had expired.
    func decide(
        _ id: UUID, _ state: Approval.State, user: UUID, session: UUID, now: Double, on database: any Database
    ) async throws -> Bool {
        try await database.sql.raw(
            """
            UPDATE approvals SET state = \(bind: state.rawValue), user_id = \(bind: user),
              approver_session_id = \(bind: session), decided_at = \(bind: now)
            WHERE id = \(bind: id) AND state = \(bind: Approval.State.pending.rawValue) AND expires_at > \(bind: now)
            RETURNING id
            """
        ).first() != nil
    }

    /// Notes a poll at `now`.
    func polled(_ id: UUID, now: Double, on database: any Database) async throws {
        try await database.sql.raw("UPDATE approvals SET last_polled_at = \(bind: now) WHERE id = \(bind: id)").run()
    }

    /// Uses up an approved, live approval once. Answers false when another poll already did, or it expired.
    func consume(_ id: UUID, now: Double, on database: any Database) async throws -> Bool {
        try await database.sql.raw(
            """
            UPDATE approvals SET state = \(bind: Approval.State.consumed.rawValue)
            WHERE id = \(bind: id) AND state = \(bind: Approval.State.approved.rawValue) AND expires_at > \(bind: now)
            RETURNING id
            """
        ).first() != nil
    }

    /// Ends every approval `user` approved that its web client has not collected yet (a security reset, a
    /// freeze, a security hold).
    func endApproved(of user: UUID, now: Double, on database: any Database) async throws {
        try await database.sql.raw(
            """
            UPDATE approvals SET state = \(bind: Approval.State.ended.rawValue)
            WHERE user_id = \(bind: user) AND state = \(bind: Approval.State.approved.rawValue)
            """
        ).run()
    }

    private static let columns = """
        id, kind, scan_secret_hash, poll_secret_hash, number, choices, client_name, client_platform, device_id,
        device_name, ip, created_at, expires_at, state, scan_failures, last_polled_at, user_id, approver_session_id,
        dpop_jkt
        """

    private static func approval(of row: any SQLRow) throws -> Approval {
        Approval(
            id: try row.decode(column: "id", as: UUID.self), kind: try row.decode(column: "kind", as: String.self),
            scanSecretHash: try row.decode(column: "scan_secret_hash", as: String.self),
            pollSecretHash: try row.decode(column: "poll_secret_hash", as: String.self),
            number: try row.decode(column: "number", as: String.self),
            choices: try row.decode(column: "choices", as: String.self).split(separator: ",").map(String.init),
            clientName: try row.decode(column: "client_name", as: String?.self),
            clientPlatform: try row.decode(column: "client_platform", as: String?.self),
            deviceID: try row.decode(column: "device_id", as: String?.self),
            deviceName: try row.decode(column: "device_name", as: String?.self),
            ip: try row.decode(column: "ip", as: String?.self),
            createdAt: try row.decode(column: "created_at", as: Double.self),
            expiresAt: try row.decode(column: "expires_at", as: Double.self),
            state: Approval.State(rawValue: try row.decode(column: "state", as: String.self)) ?? .ended,
            scanFailures: try row.decode(column: "scan_failures", as: Int.self),
            lastPolledAt: try row.decode(column: "last_polled_at", as: Double?.self),
            userID: try row.decode(column: "user_id", as: UUID?.self),
            approverSessionID: try row.decode(column: "approver_session_id", as: UUID?.self),
            dpopJKT: try row.decode(column: "dpop_jkt", as: String?.self))
    }
}
