import Foundation

/// A stream as the admin API and `latchd admin event-streams list` show it (issue 42 §3): never its secret.
public struct EventStreamView: Codable, Sendable, Equatable {
    public let id: String
    public let kind: String
    public let url: String?
    /// The event types it hears; `["*"]` for all.
    public let types: [String]
    public let audience: String?
    public let status: String
    public let description: String?
    public let createdAt: Date
    /// Undelivered events and the age of the oldest, in seconds.
    public let pending: Int
    public let oldestPendingSeconds: Double?

    enum CodingKeys: String, CodingKey {
        case id, kind, url, types, audience, status, description, pending
        case createdAt = "created_at"
        case oldestPendingSeconds = "oldest_pending_seconds"
    }

    init(_ stream: EventStream, backlog: (pending: Int, oldest: Double)?, now: Double) {
        id = stream.id
        kind = stream.kind.rawValue
        url = stream.url
        types =
            switch stream.types {
            case .all: ["*"]
            case .only(let types): types.map(\.rawValue).sorted()
            }
        audience = stream.audience
        status = stream.status.rawValue
        description = stream.description
        createdAt = Date(timeIntervalSince1970: stream.createdAt)
        pending = backlog?.pending ?? 0
        oldestPendingSeconds = backlog.map { max(0, now - $0.oldest) }
    }
}

/// A new webhook stream, with its signing secret: the only time the secret is shown.
public struct AddedEventStream: Codable, Sendable, Equatable {
    public let stream: EventStreamView
    /// `whsec_…`; nil for an SSF stream (its SETs are signed by latchd's keys).
    public let secret: String?
}

/// A rotated secret: the new one, shown once; the old one is still sent until `previousValidUntil`.
public struct RotatedEventStreamSecret: Codable, Sendable, Equatable {
    public let secret: String
    public let previousValidUntil: Date

    enum CodingKeys: String, CodingKey {
        case secret
        case previousValidUntil = "previous_valid_until"
    }
}

/// How many deliveries a replay queued.
public struct EventStreamReplay: Codable, Sendable, Equatable {
    public let queued: Int
}

/// A stream's delivery log, newest first.
public struct EventStreamDeliveries: Codable, Sendable, Equatable {
    public let deliveries: [EventStreamDelivery]
}

/// One row of a delivery log: the event, its state, attempts, last status and error.
public struct EventStreamDelivery: Codable, Sendable, Equatable {
    public let eventId: String?
    public let type: String?
    public let state: String
    public let attempts: Int
    public let queuedAt: Date
    public let nextAttemptAt: Date?
    public let lastAttemptAt: Date?
    public let lastStatus: Int?
    public let lastError: String?
    public let deliveredAt: Date?

    enum CodingKeys: String, CodingKey {
        case type, state, attempts
        case eventId = "event_id"
        case queuedAt = "queued_at"
        case nextAttemptAt = "next_attempt_at"
        case lastAttemptAt = "last_attempt_at"
        case lastStatus = "last_status"
        case lastError = "last_error"
        case deliveredAt = "delivered_at"
    }

    init(_ entry: EventDeliveryStore.Entry) {
        func date(_ seconds: Double?) -> Date? { seconds.map { Date(timeIntervalSince1970: $0) } }
        eventId = entry.eventID
        type = entry.type
        state = entry.state
        attempts = entry.attempts
        queuedAt = Date(timeIntervalSince1970: entry.queuedAt)
        nextAttemptAt = date(entry.nextAttemptAt)
        lastAttemptAt = date(entry.lastAttemptAt)
        lastStatus = entry.lastStatus
        lastError = entry.lastError
        deliveredAt = date(entry.deliveredAt)
    }
}
