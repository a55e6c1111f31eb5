import Foundation
import LatchCore

extension LatchClient {
    /// One page of the signed-in user's security log, newest first (`GET /v1/security-events`).
    /// Pass the page's ``SecurityEventPage/nextCursor`` as `cursor` for the older events (nil: the
    /// last page). Failures a stranger can cause come as one entry per hour with a `count`.
    ///
    ///     var page = try await client.securityEvents()
    ///     while let next = page.nextCursor { page = try await client.securityEvents(cursor: next) }
    public func securityEvents(limit: Int? = nil, cursor: String? = nil) async throws -> SecurityEventPage {
        var query: [String] = []
        if let limit { query.append("limit=\(limit)") }
        if let cursor { query.append("cursor=\(Self.queryValue(cursor))") }
        let path = "/v1/security-events" + (query.isEmpty ? "" : "?" + query.joined(separator: "&"))
        return try await perform(APICall<SecurityEventPage>(method: "GET", path: path, requiresAuthorization: true))
    }
}
