import FluentKit
import Foundation
import HTTPTypes
import LatchCore
import Logging
import NIOHTTP1

/// What an SSF receiver may do (issue 42 §2, SSF 1.0 §8.1, RFC 8936): manage its own streams, read and set
/// their status, ask for a verification event, and poll. A stream of another receiver, or an operator's,
/// is answered 404 as if it did not exist. No web framework here: the routes parse, this decides.
struct SharedSignalsService: Sendable {
    let latch: LatchServices
    let database: any Database
    let receiver: SSFReceiver
    let logger: Logger

    private var streams: EventStreamStore { latch.eventStreams.streams }
    private var deliveries: EventDeliveryStore { latch.eventStreams.deliveries }
    private var issuer: String { latch.config.issuer }
    private var now: Double { latch.clock.epochSeconds }
    private static let maximumRequested = 64
    /// The most SETs one poll answers.
    static let maximumPoll = 1_000

    // MARK: Streams

    /// Creates a stream (SSF 1.0 §8.1.1.1): push when `delivery.method` is RFC 8935's (with `endpoint_url`),
    /// poll otherwise.
    func create(_ request: SSFStreamRequest) async throws -> SSFStreamConfiguration {
        try checkTransmitterSupplied(request, stream: nil)
        let requested = try Self.requested(request.eventsRequested ?? [])
        let kind = try Self.kind(of: request.delivery?.method)
        let url = try checkedURL(kind: kind, request.delivery?.endpointUrl)
        let authorization = try Self.authorization(kind: kind, request.delivery?.authorizationHeader)
        let description = try Self.description(request.description)
        let stream = EventStream(
            id: EventStream.newID(), kind: kind, url: url, types: .only(SSFEventMapping.kinds(for: requested)),
            audience: receiver.audience, status: .enabled, description: description, receiver: receiver.id,
            createdAt: now)
        try await database.tracedTransaction { database in
            try await streams.create(stream, secret: nil, authorization: authorization, on: database)
            try await SSFStreamEvents().set(
                stream: stream.id, requested: requested, now: stream.createdAt, on: database)
        }
        return SSFStreamConfiguration(stream, requested: requested, issuer: issuer)
    }

    /// The receiver's stream `id`, or all of them (SSF 1.0 §8.1.1.2).
    func read(_ id: String?) async throws -> [SSFStreamConfiguration] {
        if let id { return [try await configuration(of: try await own(id))] }
        var answers: [SSFStreamConfiguration] = []
        for stream in try await streams.streams(receiver: receiver.id, on: database) where stream.kind.sharedSignals {
            answers.append(try await configuration(of: stream))
        }
        return answers
    }

    /// Updates (`replace` false, SSF 1.0 §8.1.1.3: what is given changes) or replaces (§8.1.1.4: what is not
    /// given is removed) the receiver's stream. The delivery method cannot change (delete and create).
    func update(_ request: SSFStreamRequest, replace: Bool) async throws -> SSFStreamConfiguration {
        guard let id = request.streamId else { throw Self.badRequest("stream_id", "missing") }
        let stream = try await own(id)
        try checkTransmitterSupplied(request, stream: stream)
        if let method = request.delivery?.method, try Self.kind(of: method) != stream.kind {
            throw Self.badRequest("delivery.method", "cannot_change")
        }
        let requested: [String]? =
            if let given = request.eventsRequested { try Self.requested(given) } else if replace { [] } else { nil }
        var url: String?? = nil
        var authorization: String?? = nil
        if stream.kind == .ssfPush {
            if let given = request.delivery?.endpointUrl {
                url = .some(try checkedURL(kind: .ssfPush, given))
            } else if replace {
                throw Self.badRequest("delivery.endpoint_url", "missing")
            }
            if let given = request.delivery?.authorizationHeader {
                authorization = .some(try Self.authorization(kind: .ssfPush, given))
            } else if replace {
                authorization = .some(nil)
            }
        }
        let description: String?? =
            if let given = request.description { .some(try Self.description(given)) } else if replace {
                .some(nil)
            } else {
                nil
            }
        let now = self.now
        let (newURL, newAuthorization) = (url, authorization)
        try await database.tracedTransaction { database in
            try await streams.update(
                id, url: newURL, description: description, authorization: newAuthorization, now: now, on: database)
            if let requested {
                try await SSFStreamEvents().set(stream: id, requested: requested, now: now, on: database)
            }
        }
        return try await configuration(of: try await own(id))
    }

    /// Deletes the receiver's stream and its undelivered events (SSF 1.0 §8.1.1.5).
    func delete(_ id: String?) async throws {
        guard let id else { throw Self.badRequest("stream_id", "missing") }
        _ = try await own(id)
        try await database.tracedTransaction { database in
            try await streams.delete(id, on: database)
            try await deliveries.forget(stream: id, on: database)
        }
    }

    // MARK: Status and verification

    /// SSF 1.0 §8.1.2.1.
    func status(_ id: String?) async throws -> SSFStreamStatus {
        guard let id else { throw Self.badRequest("stream_id", "missing") }
        let stream = try await own(id)
        return SSFStreamStatus(streamId: stream.id, status: stream.status.rawValue, reason: nil)
    }

    /// SSF 1.0 §8.1.2.2: `enabled`, `paused` (events are kept) or `disabled` (events are not queued).
    func setStatus(_ request: SSFStreamStatus) async throws -> SSFStreamStatus {
        let stream = try await own(request.streamId)
        guard let status = EventStream.Status(rawValue: request.status) else {
            throw Self.badRequest("status", "enabled_paused_or_disabled")
        }
        if let reason = request.reason, reason.count > 200 { throw Self.badRequest("reason", "too_long") }
        try await streams.update(stream.id, status: status, now: now, on: database)
        return SSFStreamStatus(streamId: stream.id, status: status.rawValue, reason: request.reason)
    }

    /// SSF 1.0 §8.1.4: queues a verification event carrying `state` for this stream alone (none while the
    /// stream is disabled, which hears nothing).
    func verify(_ request: SSFVerificationRequest) async throws {
        let stream = try await own(request.streamId)
        if let state = request.state, state.count > 256 { throw Self.badRequest("state", "too_long") }
        guard stream.status != .disabled else { return }
        var data: [String: EventValue] = [:]
        if let state = request.state { data["state"] = .string(state) }
        let event = OutboundEvent(
            id: OutboundEvent.newID(), type: .ssfVerification, occurredAt: now, user: nil, session: nil,
            actor: .system, transaction: OutboundTransaction.newID(), data: data)
        let deliveries = self.deliveries
        try await database.tracedTransaction { database in
            let seq = try await OutboundEventStore().append(event, fanOut: false, on: database)
            try await deliveries.queue(seq: seq, user: nil, stream: stream.id, now: event.occurredAt, on: database)
        }
    }

    // MARK: Poll (RFC 8936)

    /// Acknowledges `ack` and `setErrs` (a SET the receiver could not process was still received; its error
    /// is logged by `jti` and code), then answers up to `maxEvents` (default 100, at most 1,000) pending SETs
    /// oldest first and whether more wait. It answers at once: `returnImmediately` false does not hold the
    /// request open (a receiver polls again). An event no CAEP or RISC event fits, or one of a type the
    /// receiver did not ask for, is acknowledged unseen.
    func poll(_ id: String, _ request: SSFPollRequest) async throws -> SSFPollResponse {
        let stream = try await own(id)
        guard stream.kind == .ssfPoll else { throw LatchError.notFound }
        let acknowledged = (request.ack ?? []) + (request.setErrs.map { Array($0.keys) } ?? [])
        guard acknowledged.count <= Self.maximumPoll else { throw Self.badRequest("ack", "too_many") }
        for (jti, error) in request.setErrs ?? [:] {
            logger.notice(
                "an SSF receiver could not process a SET",
                metadata: ["stream": "\(stream.id)", "jti": "\(jti.prefix(64))", "err": "\(error.err.prefix(64))"])
        }
        if !acknowledged.isEmpty {
            try await deliveries.acknowledge(stream: stream.id, eventIDs: acknowledged, now: now, on: database)
        }
        let limit = request.maxEvents ?? 100
        guard (0...Self.maximumPoll).contains(limit) else { throw Self.badRequest("maxEvents", "0_to_1000") }
        let requested = try await SSFStreamEvents().requested(stream: stream.id, on: database)
        let encoder = SecurityEventTokenEncoder(ring: latch.accessTokens.ring, issuer: issuer, clock: latch.clock)
        var sets: [String: String] = [:]
        var more = false
        // Events that make no SET are acknowledged and the page read again (a few rounds at most).
        for _ in 0..<5 {
            let page = try await deliveries.pending(stream: stream.id, limit: limit - sets.count, on: database)
            more = page.more
            var unseen: [String] = []
            for event in page.events {
                if let token = try await encoder.token(for: event, stream: stream, requested: requested) {
                    sets[event.id] = token
                } else {
                    unseen.append(event.id)
                }
            }
            if unseen.isEmpty || sets.count >= limit { break }
            try await deliveries.acknowledge(stream: stream.id, eventIDs: unseen, now: now, on: database)
            if !more { break }
        }
        return SSFPollResponse(sets: sets, moreAvailable: more)
    }

    // MARK: Rules

    /// The receiver's SSF stream `id`; 404 for any other.
    private func own(_ id: String) async throws -> EventStream {
        guard id.count <= 64, let stream = try await streams.stream(id, on: database),
            stream.receiver == receiver.id, stream.kind.sharedSignals
        else { throw LatchError.notFound }
        return stream
    }

    private func configuration(of stream: EventStream) async throws -> SSFStreamConfiguration {
        let requested = try await SSFStreamEvents().requestedURIs(stream: stream.id, on: database) ?? []
        return SSFStreamConfiguration(stream, requested: requested, issuer: issuer)
    }

    /// `iss` and `aud`, when the receiver repeats them, must be latchd's and its own.
    private func checkTransmitterSupplied(_ request: SSFStreamRequest, stream: EventStream?) throws {
        if let iss = request.iss, iss != issuer { throw Self.badRequest("iss", "not_this_transmitter") }
        if let aud = request.aud, aud.values != [receiver.audience] { throw Self.badRequest("aud", "not_yours") }
        if stream == nil, request.streamId != nil { throw Self.badRequest("stream_id", "transmitter_supplied") }
    }

    private func checkedURL(kind: EventStream.Kind, _ url: String?) throws -> String? {
        guard kind == .ssfPush else { return nil }
        guard let url else { throw Self.badRequest("delivery.endpoint_url", "missing") }
        guard url.count <= 2_048 else { throw Self.badRequest("delivery.endpoint_url", "too_long") }
        return try ReceiverURLCheck.check(url, rules: latch.eventStreams.rules)
    }

    private static func kind(of method: String?) throws -> EventStream.Kind {
        switch method {
        case nil, SSFTransmitterConfiguration.pollMethod: .ssfPoll
        case SSFTransmitterConfiguration.pushMethod: .ssfPush
        default: throw badRequest("delivery.method", "unsupported")
        }
    }

    private static func requested(_ uris: [String]) throws -> [String] {
        guard uris.count <= maximumRequested, uris.allSatisfy({ !$0.isEmpty && $0.count <= 512 }) else {
            throw badRequest("events_requested", "at_most_64_uris")
        }
        var seen = Set<String>()
        return uris.filter { seen.insert($0).inserted }
    }

    private static func authorization(kind: EventStream.Kind, _ header: String?) throws -> String? {
        guard kind == .ssfPush, let header else { return nil }
        guard !header.isEmpty, header.count <= 1_024,
            !header.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F })
        else { throw badRequest("delivery.authorization_header", "invalid") }
        return header
    }

    private static func description(_ text: String?) throws -> String? {
        if let text, text.count > 200 { throw badRequest("description", "too_long") }
        return text
    }

    /// SSF answers a request it cannot take with 400.
    static func badRequest(_ field: String, _ reason: String) -> LatchError {
        LatchError(.validationFailed, status: .badRequest, field: field, reasons: [reason])
    }
}
