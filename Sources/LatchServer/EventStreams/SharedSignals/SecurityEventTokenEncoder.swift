import FluentKit
import Foundation
import JWTKit
import Synchronization

/// Signs the SET of an outbound event for an SSF stream (issue 42 §2): a JWS by latchd's current signing
/// key (ES256, `kid` in the header, verifiable against `/.well-known/jwks.json`), header
/// `typ: secevent+jwt`, one CAEP or RISC event (`SSFEventMapping`). nil when no event fits the type, or
/// none the stream asked for.
///
///     let encoder = SecurityEventTokenEncoder(ring: ring, issuer: config.issuer, clock: clock, database: database)
///     let set = try await encoder.token(for: event, stream: stream)  // "eyJ…" or nil
struct SecurityEventTokenEncoder: SecurityEventTokenSigner {
    let ring: SigningKeyRing
    let issuer: String
    let clock: LatchClock
    /// Where a receiver's stream keeps the event types it asked for (nil: every stream takes the first that fits).
    let database: (@Sendable () -> any Database)?
    private let requestedCache = RequestedCache()

    init(ring: SigningKeyRing, issuer: String, clock: LatchClock, database: (@Sendable () -> any Database)? = nil) {
        self.ring = ring
        self.issuer = issuer
        self.clock = clock
        self.database = database
    }

    func token(for event: OutboundEventStore.Stored, stream: EventStream) async throws -> String? {
        var requested: Set<SSFEventType>?
        if stream.receiver != nil, let database {
            requested = try await requestedCache.requested(stream: stream.id, now: clock.epochSeconds) {
                try await SSFStreamEvents().requested(stream: stream.id, on: database())
            }
        }
        return try await token(for: event, stream: stream, requested: requested)
    }

    /// The SET of `event` for `stream`, choosing among the fitting events those in `requested`.
    func token(for event: OutboundEventStore.Stored, stream: EventStream, requested: Set<SSFEventType>?)
        async throws -> String?
    {
        guard let kind = OutboundEvent.Kind(rawValue: event.type) else { return nil }
        // A verification event answers the receiver's own request, whatever it asked to hear.
        let requested = kind == .ssfVerification ? nil : requested
        let data = (try? JSONSerialization.jsonObject(with: Data(event.data.utf8))) as? [String: Any] ?? [:]
        guard
            let ssf = SSFEventMapping.event(
                for: kind, data: data, actor: event.actor, occurredAt: event.occurredAt, requested: requested)
        else { return nil }
        let subject: SubjectIdentifier =
            if kind == .ssfVerification {
                .opaque(stream.id)
            } else if let user = event.user {
                .account(issuer: issuer, user: user.uuidString.lowercased())
            } else {
                .opaque(stream.id)
            }
        let claims = SecurityEventTokenClaims(
            iss: issuer, aud: stream.audience ?? issuer, jti: event.id, iat: Int(clock.epochSeconds),
            toe: Int(event.occurredAt), txn: event.transaction, subId: subject,
            events: [ssf.type.rawValue: ssf.claims])
        var header = JWTHeader()
        header.typ = "secevent+jwt"
        let keys = ring.current
        return try await keys.collection.sign(claims, kid: JWKIdentifier(string: keys.signingKID), header: header)
    }
}

/// The types each receiver stream asked for, read at most every few seconds per stream (a push of a
/// thousand events a second must not read the stream a thousand times).
private final class RequestedCache: Sendable {
    private static let lifetime: Double = 5
    private let entries = Mutex<[String: (types: Set<SSFEventType>?, until: Double)]>([:])

    func requested(
        stream: String, now: Double, read: () async throws -> Set<SSFEventType>?
    ) async throws -> Set<SSFEventType>? {
        if let entry = entries.withLock({ $0[stream] }), entry.until > now { return entry.types }
        let types = try await read()
        entries.withLock { entries in
            if entries.count > 10_000 { entries.removeAll() }
            entries[stream] = (types, now + Self.lifetime)
        }
        return types
    }
}
