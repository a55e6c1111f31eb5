import FluentKit
import Foundation
import SQLKit

/// The `event_streams` table (issue 42 §3), and the only place with its SQL. Secrets go in sealed and come
/// out only in `Deliverable`, for the worker that signs or authorizes with them.
struct EventStreamStore: Sendable {
    static let table = "event_streams"
    /// How long a rotated-out webhook secret is still sent beside the new one (issue 42 §2).
    static let rotationOverlap: Double = 86_400

    let secrets: SecretBox

    /// A stream with what delivering to it needs: its live webhook secrets (newest first) and an SSF push
    /// stream's `Authorization` header.
    struct Deliverable: Sendable {
        let stream: EventStream
        let webhookSecrets: [WebhookSecret]
        let authorization: String?
    }

    func create(
        _ stream: EventStream, secret: WebhookSecret?, authorization: String?, on database: any Database
    ) async throws {
        let sealedSecret = try secret.map { try secrets.seal($0.key) }
        let sealedAuthorization = try authorization.map { try secrets.seal(Data($0.utf8)) }
        try await database.sql.raw(
            """
            INSERT INTO event_streams (id, kind, url, types, audience, status, description, receiver, sealed_secret,
              sealed_authorization, created_at, updated_at)
            VALUES (\(bind: stream.id), \(bind: stream.kind.rawValue), \(bind: stream.url), \(bind: stream.types.stored),
              \(bind: stream.audience), \(bind: stream.status.rawValue), \(bind: stream.description),
              \(bind: stream.receiver), \(bind: sealedSecret), \(bind: sealedAuthorization), \(bind: stream.createdAt),
              \(bind: stream.createdAt))
            """
        ).run()
    }

    /// Every stream, oldest first; only `receiver`'s when given.
    func streams(receiver: String? = nil, on database: any Database) async throws -> [EventStream] {
        let filter: SQLQueryString = receiver.map { "WHERE receiver = \(bind: $0)" } ?? ""
        return try await database.sql.raw(
            "SELECT \(unsafeRaw: Self.columns) FROM event_streams \(filter) ORDER BY created_at, id"
        ).all().map(Self.stream(of:))
    }

    func stream(_ id: String, on database: any Database) async throws -> EventStream? {
        try await database.sql.raw(
            "SELECT \(unsafeRaw: Self.columns) FROM event_streams WHERE id = \(bind: id)"
        ).first().map(Self.stream(of:))
    }

    /// Changes what is given; answers whether the stream exists.
    @discardableResult
    func update(
        _ id: String, url: String?? = nil, types: EventTypeFilter? = nil, status: EventStream.Status? = nil,
        description: String?? = nil, authorization: String?? = nil, now: Double, on database: any Database
    ) async throws -> Bool {
        var sets: [SQLQueryString] = ["updated_at = \(bind: now)"]
        if let url { sets.append("url = \(bind: url)") }
        if let types { sets.append("types = \(bind: types.stored)") }
        if let status { sets.append("status = \(bind: status.rawValue)") }
        if let description { sets.append("description = \(bind: description)") }
        if let authorization {
            let sealed = try authorization.map { try secrets.seal(Data($0.utf8)) }
            sets.append("sealed_authorization = \(bind: sealed)")
        }
        let rows = try await database.sql.raw(
            "UPDATE event_streams SET \(sets.joined(separator: ", ")) WHERE id = \(bind: id) RETURNING id"
        ).all()
        return !rows.isEmpty
    }

    /// Deletes the stream; answers whether it existed. Its deliveries are `EventDeliveryStore.forget`'s.
    @discardableResult
    func delete(_ id: String, on database: any Database) async throws -> Bool {
        !(try await database.sql.raw("DELETE FROM event_streams WHERE id = \(bind: id) RETURNING id").all().isEmpty)
    }

    /// Makes `secret` the webhook stream's signing secret; the one it replaces is still sent beside it
    /// until `now + rotationOverlap`. Answers whether the stream exists.
    func rotateSecret(_ id: String, to secret: WebhookSecret, now: Double, on database: any Database) async throws
        -> Bool
    {
        let sealed = try secrets.seal(secret.key)
        let rows = try await database.sql.raw(
            """
            UPDATE event_streams SET sealed_previous_secret = sealed_secret,
              previous_secret_until = \(bind: now + Self.rotationOverlap), sealed_secret = \(bind: sealed),
              updated_at = \(bind: now)
            WHERE id = \(bind: id) AND kind = 'webhook' RETURNING id
            """
        ).all()
        return !rows.isEmpty
    }

    /// The streams the worker delivers to: enabled push streams, with their live secrets opened. A secret
    /// sealed under another `LATCH_SECRET_KEY` is left out (the stream's deliveries then fail, visibly).
    func deliverable(now: Double, on database: any Database) async throws -> [Deliverable] {
        let rows = try await database.sql.raw(
            """
            SELECT \(unsafeRaw: Self.columns), sealed_secret, sealed_previous_secret, previous_secret_until,
              sealed_authorization
            FROM event_streams WHERE status = 'enabled' AND kind <> 'ssf_poll' ORDER BY created_at, id
            """
        ).all()
        return try rows.map { row in
            var live: [WebhookSecret] = []
            if let sealed = try row.decode(column: "sealed_secret", as: String?.self),
                let key = try? secrets.open(sealed)
            {
                live.append(WebhookSecret(key: key))
            }
            if let sealed = try row.decode(column: "sealed_previous_secret", as: String?.self),
                let until = try row.decode(column: "previous_secret_until", as: Double?.self), until > now,
                let key = try? secrets.open(sealed)
            {
                live.append(WebhookSecret(key: key))
            }
            let authorization = try row.decode(column: "sealed_authorization", as: String?.self)
                .flatMap { try? secrets.open($0) }.map { String(decoding: $0, as: UTF8.self) }
            return Deliverable(stream: try Self.stream(of: row), webhookSecrets: live, authorization: authorization)
        }
    }

    private static let columns = "id, kind, url, types, audience, status, description, receiver, created_at"

    private static func stream(of row: any SQLRow) throws -> EventStream {
        let kind = try row.decode(column: "kind", as: String.self)
        let status = try row.decode(column: "status", as: String.self)
        return EventStream(
            id: try row.decode(column: "id", as: String.self), kind: EventStream.Kind(rawValue: kind) ?? .webhook,
            url: try row.decode(column: "url", as: String?.self),
            types: EventTypeFilter(stored: try row.decode(column: "types", as: String.self)),
            audience: try row.decode(column: "audience", as: String?.self),
            status: EventStream.Status(rawValue: status) ?? .disabled,
            description: try row.decode(column: "description", as: String?.self),
            receiver: try row.decode(column: "receiver", as: String?.self),
            createdAt: try row.decode(column: "created_at", as: Double.self))
    }
}
