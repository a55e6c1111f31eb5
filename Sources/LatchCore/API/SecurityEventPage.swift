/// One page of a security log (`GET /v1/security-events`, `GET /v1/admin/users/{id}/security-events`),
/// newest first; `next_cursor` asks for the older events (nil on the last page).
public struct SecurityEventPage: Codable, Sendable, Equatable {
    public var events: [SecurityEventInfo]
    public var nextCursor: String?

    public init(events: [SecurityEventInfo], nextCursor: String?) {
        self.events = events
        self.nextCursor = nextCursor
    }

    enum CodingKeys: String, CodingKey {
        case events
        case nextCursor = "next_cursor"
    }

    /// `next_cursor` is always there: null on the last page.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(events, forKey: .events)
        try container.encode(nextCursor, forKey: .nextCursor)
    }
}
