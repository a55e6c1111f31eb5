import FluentKit
import Foundation
import SQLKit

/// The statements on `sessions` that the signed-in paths share (issue 44 §1): a session by id, the
/// user's live ones, a session's liveness with its activity stamp, and a revocation by scope. The
/// refresh's own statements are `RefreshTokenStore`'s (its prepared hot path); the security reset
/// and the account deletion end sessions in their cross-table scripts.
struct SessionStore: Sendable {
    /// Session `id`, when it exists (live or not).
    func find(_ id: UUID, on database: any Database) async throws -> Session? {
        try await Session.find(id, on: database)
    }

    /// The user's live sessions at `now`, most recently active first.
    func live(of user: UUID, now: Double, on database: any Database) async throws -> [Session] {
        try await Session.query(on: database)
            .filter(\.$userID == user)
            .filter(\.$revokedAt == nil)
            .filter(\.$refreshExpiresAt > now)
            .sort(\.$lastActiveAt, .descending)
            .all()
    }

    /// Whether session `id` is live at `now`; a live one's `last_active_at` is written when it is
    /// `activityInterval` old or older (at most once a minute per session, not on every request).
    func isLive(_ id: UUID, now: Double, activityInterval: Double, on database: any Database) async throws -> Bool {
        guard
            let row = try await database.sql.raw(
                """
                SELECT revoked_at, refresh_expires_at, last_active_at FROM sessions WHERE id = \(bind: id)
                """
            ).first()
        else { return false }
        let revokedAt = try row.decode(column: "revoked_at", as: Double?.self)
        let expiresAt = try row.decode(column: "refresh_expires_at", as: Double.self)
        let lastActiveAt = try row.decode(column: "last_active_at", as: Double.self)
        let live = revokedAt == nil && expiresAt > now
        if live, now - lastActiveAt >= activityInterval {
            try await database.sql.raw(
                """
                UPDATE sessions SET last_active_at = \(bind: now)
                WHERE id = \(bind: id) AND last_active_at <= \(bind: now - activityInterval)
                """
            ).run()
        }
        return live
    }

    /// Revokes the user's live sessions in `scope` at `now`; returns the ids it revoked.
    func revoke(_ scope: SessionRevocation.Scope, of user: UUID, now: Double, on database: any Database) async throws
        -> [UUID]
    {
        let filter: SQLQueryString =
            switch scope {
            case .one(let id): "AND id = \(bind: id)"
            case .allExcept(let id): "AND id <> \(bind: id)"
            case .all: ""
            }
        let rows = try await database.sql.raw(
            """
            UPDATE sessions SET revoked_at = \(bind: now)
            WHERE user_id = \(bind: user) AND revoked_at IS NULL \(filter)
            RETURNING id
            """
        ).all()
        return try rows.map { try $0.decode(column: "id", as: UUID.self) }
    }
}
