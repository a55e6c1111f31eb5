import FluentKit
import SQLKit

/// The two statements that spend a limited secret, written once for every table holding one (email
/// and SMS codes, login challenges, verifications, signature and passkey challenges, recovery codes).
/// Each is one conditional `UPDATE … RETURNING`: under concurrency, and across latchd processes, only
/// the requests the limit allows get a row back, so only they may go on.
extension SQLDatabase {
    /// "Use one attempt": counts one try on the row of `table` that `selector` picks, if it is live
    /// (`expires_at > now`; `unused` still NULL, when given) and fewer than `maximum` tries were used.
    /// Returns the row's `attempts` (counting this one) and `columns`; `nil` when nothing could be
    /// tried. The try is used before anything is compared.
    func useAttempt(
        _ table: String, where selector: SQLQueryString, unused: String? = nil, maximum: Int, now: Double,
        returning columns: [String] = []
    ) async throws -> (any SQLRow)? {
        let unusedFilter: SQLQueryString = if let unused { "AND \(ident: unused) IS NULL" } else { "" }
        return try await raw(
            """
            UPDATE \(ident: table) SET attempts = attempts + 1
            WHERE \(selector) \(unusedFilter)
              AND expires_at > \(bind: now) AND attempts < \(bind: maximum)
            RETURNING \(idents: ["attempts"] + columns, joinedBy: ", ")
            """
        ).first()
    }

    /// "Use once": sets `column` to `now` on the row of `table` that `selector` picks, if `column` is
    /// still NULL (and, when `live`, the row has not expired). Returns the row's `columns`; `nil` for
    /// a row already used (or missing, or expired): only the request that gets the row may act on it.
    func useOnce(
        _ table: String, mark column: String, where selector: SQLQueryString, now: Double, live: Bool = true,
        returning columns: [String] = ["id"]
    ) async throws -> (any SQLRow)? {
        let liveFilter: SQLQueryString = live ? "AND expires_at > \(bind: now)" : ""
        return try await raw(
            """
            UPDATE \(ident: table) SET \(ident: column) = \(bind: now)
            WHERE \(selector) AND \(ident: column) IS NULL \(liveFilter)
            RETURNING \(idents: columns, joinedBy: ", ")
            """
        ).first()
    }
}
