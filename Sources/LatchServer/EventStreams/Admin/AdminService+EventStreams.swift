import FluentKit
import Foundation

/// Issue 42 §3: operators manage the event streams through the admin API and `latchd admin event-streams`,
/// each call audited (action `event_stream_*`, the stream's id as detail).
extension AdminService {
    private var eventStreams: EventStreamServices { latch.eventStreams }

    /// Adds a stream. A webhook gets a new signing secret, answered here once; an SSF stream needs an
    /// `audience` (its SETs' `aud`). The URL must meet the receiver rules (https; no private address
    /// unless allowed); a poll stream has none.
    public func addEventStream(
        kind: String, url: String?, types: [String], audience: String?, description: String?
    ) async throws -> AddedEventStream {
        guard let kind = EventStream.Kind(rawValue: kind) else { throw LatchError.invalid("kind", ["unknown_kind"]) }
        let filter: EventTypeFilter
        switch EventTypeFilter.parse(types) {
        case .success(let parsed): filter = parsed
        case .failure(let unknown): throw LatchError.invalid("types", ["unknown_type:\(unknown.name)"])
        }
        let checkedURL: String?
        if kind.pushes {
            guard let url else { throw LatchError.missing("url") }
            checkedURL = try ReceiverURLCheck.check(url, rules: eventStreams.rules)
        } else {
            guard url == nil else { throw LatchError.invalid("url", ["poll_stream_has_no_url"]) }
            checkedURL = nil
        }
        if kind.sharedSignals {
            guard let audience, !audience.isEmpty, audience.count <= 512 else {
                throw LatchError.invalid("audience", ["required"])
            }
        }
        if let description, description.count > 200 { throw LatchError.invalid("description", ["too_long"]) }
        let stream = EventStream(
            id: EventStream.newID(), kind: kind, url: checkedURL, types: filter,
            audience: kind.sharedSignals ? audience : nil, status: .enabled, description: description, receiver: nil,
            createdAt: latch.clock.epochSeconds)
        let secret = kind == .webhook ? WebhookSecret.random() : nil
        return try await audited("event_stream_add", target: nil, detail: stream.id) {
            try await eventStreams.streams.create(stream, secret: secret, authorization: nil, on: database)
            return AddedEventStream(
                stream: EventStreamView(stream, backlog: nil, now: latch.clock.epochSeconds), secret: secret?.text)
        }
    }

    /// Every stream, with its backlog.
    public func listEventStreams() async throws -> [EventStreamView] {
        let now = latch.clock.epochSeconds
        let backlog = try await eventStreams.deliveries.backlog(on: database)
        return try await eventStreams.streams.streams(on: database).map {
            EventStreamView($0, backlog: backlog[$0.id], now: now)
        }
    }

    /// Removes a stream and its undelivered events (404 when there is none).
    public func removeEventStream(_ id: String) async throws {
        try await audited("event_stream_remove", target: nil, detail: id) {
            guard try await eventStreams.streams.delete(id, on: database) else { throw LatchError.notFound }
            try await eventStreams.deliveries.forget(stream: id, on: database)
        }
    }

    /// Gives a webhook stream a new secret, answered once; the old one is still sent beside it for 24 hours.
    public func rotateEventStreamSecret(_ id: String) async throws -> RotatedEventStreamSecret {
        let secret = WebhookSecret.random()
        let now = latch.clock.epochSeconds
        return try await audited("event_stream_rotate_secret", target: nil, detail: id) {
            guard try await eventStreams.streams.rotateSecret(id, to: secret, now: now, on: database) else {
                throw LatchError.notFound
            }
            return RotatedEventStreamSecret(
                secret: secret.text,
                previousValidUntil: Date(timeIntervalSince1970: now + EventStreamStore.rotationOverlap))
        }
    }

    /// Queues again every event the stream hears from event `fromEvent` (`evt_…`) or from `since` on,
    /// delivered and failed ones included (the receiver sees the same ids again).
    public func replayEventStream(_ id: String, fromEvent: String?, since: Date?) async throws -> EventStreamReplay {
        guard (fromEvent == nil) != (since == nil) else { throw LatchError.invalid("from", ["event_id_or_time"]) }
        let now = latch.clock.epochSeconds
        return try await audited("event_stream_replay", target: nil, detail: id) {
            guard let stream = try await eventStreams.streams.stream(id, on: database) else {
                throw LatchError.notFound
            }
            let events = OutboundEventStore()
            guard
                let seq = try await events.firstSeq(
                    id: fromEvent, at: since?.timeIntervalSince1970, on: database)
            else {
                if fromEvent != nil { throw LatchError.invalid("from", ["unknown_event"]) }
                return EventStreamReplay(queued: 0)
            }
            return EventStreamReplay(
                queued: try await eventStreams.deliveries.replay(
                    stream: stream.id, from: seq, types: stream.types, now: now, on: database))
        }
    }

    /// The stream's delivery log, newest first (`state`: pending, delivered or failed).
    public func eventStreamDeliveries(_ id: String, state: String?, limit: Int) async throws
        -> EventStreamDeliveries
    {
        if let state, !["pending", "delivered", "failed"].contains(state) {
            throw LatchError.invalid("state", ["pending_delivered_or_failed"])
        }
        guard try await eventStreams.streams.stream(id, on: database) != nil else { throw LatchError.notFound }
        return EventStreamDeliveries(
            deliveries: try await eventStreams.deliveries.log(stream: id, state: state, limit: limit, on: database)
                .map(EventStreamDelivery.init))
    }
}
