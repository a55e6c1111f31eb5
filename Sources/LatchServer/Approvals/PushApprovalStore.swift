import FluentKit
import Foundation
import LatchCore
import SQLKit

/// The table of push approvals (issue 43 §2), and the only place with its SQL. Every change of state is
/// one conditional UPDATE, so a phone's approval, a denial and a freeze racing for one row cannot both win.
struct PushApprovalStore: Sendable {
    static let schema = "push_approvals"

    func insert(_ approval: PushApproval, on database: any Database) async throws {
        let parameters = String(decoding: try JSONEncoder().encode(approval.parameters), as: UTF8.self)
        try await database.sql.raw(
            """
            INSERT INTO push_approvals (id, user_id, initiator_session_id, action, parameters, number, choices, state,
              created_at, expires_at)
            VALUES (\(bind: approval.id), \(bind: approval.user), \(bind: approval.initiatorSession),
              \(bind: approval.action), \(bind: parameters), \(bind: approval.number),
              \(bind: approval.choices.joined(separator: ",")), \(bind: approval.state.rawValue),
              \(bind: approval.createdAt), \(bind: approval.expiresAt))
            """
        ).run()
    }

    /// The times `user`'s push approvals were asked for since `since`, oldest first (the bombing limit).
    func askedSince(_ since: Double, user: UUID, on database: any Database) async throws -> [Double] {
        try await database.sql.raw(
            """
            SELECT created_at FROM push_approvals WHERE user_id = \(bind: user) AND created_at > \(bind: since)
            ORDER BY created_at
            """
        ).all().map { try $0.decode(column: "created_at", as: Double.self) }
    }

    /// Push approval `id` of `user`, if any.
    func find(_ id: UUID, user: UUID, on database: any Database) async throws -> PushApproval? {
        try await database.sql.raw(
            "SELECT \(unsafeRaw: Self.columns) FROM push_approvals WHERE id = \(bind: id) AND user_id = \(bind: user)"
        ).first().map(Self.approval(of:))
    }

    /// `user`'s push approvals still waiting for the phone at `now`, newest first.
    func pending(of user: UUID, now: Double, on database: any Database) async throws -> [PushApproval] {
        try await database.sql.raw(
            """
            SELECT \(unsafeRaw: Self.columns) FROM push_approvals
            WHERE user_id = \(bind: user) AND state = \(bind: PushApproval.State.pending.rawValue)
              AND expires_at > \(bind: now)
            ORDER BY created_at DESC
            """
        ).all().map(Self.approval(of:))
    }

    /// Moves a live pending approval to `state`; with `sealedToken` (approved), the token for the
    /// initiator. Answers false when it was no longer pending or had expired.
    func decide(
        _ id: UUID, _ state: PushApproval.State, sealedToken: String? = nil, now: Double, on database: any Database
    ) async throws -> Bool {
        try await database.sql.raw(
            """
            UPDATE push_approvals SET state = \(bind: state.rawValue), sealed_token = \(bind: sealedToken),
              decided_at = \(bind: now)
            WHERE id = \(bind: id) AND state = \(bind: PushApproval.State.pending.rawValue) AND expires_at > \(bind: now)
            RETURNING id
            """
        ).first() != nil
    }

    /// Takes the initiator's sealed token once: nil when there is none, or another poll took it.
    func collect(_ id: UUID, session: UUID, on database: any Database) async throws -> String? {
        guard
            let row = try await database.sql.raw(
                """
                SELECT sealed_token FROM push_approvals
                WHERE id = \(bind: id) AND initiator_session_id = \(bind: session) AND sealed_token IS NOT NULL
                """
            ).first(), let sealed = try row.decode(column: "sealed_token", as: String?.self)
        else { return nil }
        let taken = try await database.sql.raw(
            """
            UPDATE push_approvals SET sealed_token = NULL
            WHERE id = \(bind: id) AND sealed_token = \(bind: sealed) RETURNING id
            """
        ).first()
        return taken == nil ? nil : sealed
    }

    /// Ends every push approval of `user` still pending or holding an uncollected token (a freeze, a hold,
    /// a reset); answers the ids of the verifications they belonged to.
    @discardableResult
    func endOpen(of user: UUID, now: Double, on database: any Database) async throws -> [UUID] {
        try await database.sql.raw(
            """
            UPDATE push_approvals SET state = \(bind: PushApproval.State.ended.rawValue), sealed_token = NULL,
              decided_at = \(bind: now)
            WHERE user_id = \(bind: user) AND (state = \(bind: PushApproval.State.pending.rawValue)
              OR sealed_token IS NOT NULL)
            RETURNING id
            """
        ).all().map { try $0.decode(column: "id", as: UUID.self) }
    }

    private static let columns = """
        id, user_id, initiator_session_id, action, parameters, number, choices, state, created_at, expires_at,
        sealed_token
        """

    private static func approval(of row: any SQLRow) throws -> PushApproval {
        let parameters = try row.decode(column: "parameters", as: String.self)
        return PushApproval(
            id: try row.decode(column: "id", as: UUID.self), user: try row.decode(column: "user_id", as: UUID.self),
            initiatorSession: try row.decode(column: "initiator_session_id", as: UUID.self),
            action: try row.decode(column: "action", as: String.self),
            parameters: (try? JSONDecoder().decode([String: String].self, from: Data(parameters.utf8))) ?? [:],
            number: try row.decode(column: "number", as: String.self),
            choices: try row.decode(column: "choices", as: String.self).split(separator: ",").map(String.init),
            state: PushApproval.State(rawValue: try row.decode(column: "state", as: String.self)) ?? .ended,
            createdAt: try row.decode(column: "created_at", as: Double.self),
            expiresAt: try row.decode(column: "expires_at", as: Double.self),
            sealedToken: try row.decode(column: "sealed_token", as: String?.self))
    }
}
