import Foundation
import HTTPTypes
import Hummingbird

extension EventStreamView: ResponseEncodable {}
extension AddedEventStream: ResponseEncodable {}
extension RotatedEventStreamSecret: ResponseEncodable {}
extension EventStreamReplay: ResponseEncodable {}
extension EventStreamDeliveries: ResponseEncodable {}

/// `/v1/admin/event-streams` (issue 42 §3): the operators' streams, authenticated by admin keys, every change
/// audited. The work is `AdminService`'s.
struct EventStreamAdminRoutes: LatchRouteCollection {
    let admins: AdminKeyCheck

    func boot(routes: LatchRoutes) throws {
        let streams = routes.grouped("v1", "admin", "event-streams")
        streams.get(use: list)
        streams.post(use: add)
        streams.delete(":id", use: remove)
        streams.post(":id", "rotate-secret", use: rotateSecret)
        streams.post(":id", "replay", use: replay)
        streams.get(":id", "deliveries", use: deliveries)
    }

    /// `POST /v1/admin/event-streams`'s body.
    struct AddRequest: Decodable {
        let kind: String
        let url: String?
        let types: [String]?
        let audience: String?
        let description: String?
    }

    /// `POST /v1/admin/event-streams/{id}/replay`'s body: one of the two.
    struct ReplayRequest: Decodable {
        let fromEventId: String?
        let since: Date?

        enum CodingKeys: String, CodingKey {
            case fromEventId = "from_event_id"
            case since
        }
    }

    struct StreamList: Encodable, ResponseEncodable {
        let streams: [EventStreamView]
    }

    func list(_ req: LatchRequest) async throws -> StreamList {
        StreamList(streams: try await admins.service(for: req).listEventStreams())
    }

    func add(_ req: LatchRequest) async throws -> Response {
        let admin = try await admins.service(for: req)
        let body = try req.decodeJSON(AddRequest.self)
        let added = try await admin.addEventStream(
            kind: body.kind, url: body.url, types: body.types ?? [], audience: body.audience,
            description: body.description)
        return try added.encodeResponse(status: .created, for: req)
    }

    func remove(_ req: LatchRequest) async throws -> HTTPResponse.Status {
        let admin = try await admins.service(for: req)
        try await admin.removeEventStream(try req.streamParameter)
        return .noContent
    }

    func rotateSecret(_ req: LatchRequest) async throws -> RotatedEventStreamSecret {
        let admin = try await admins.service(for: req)
        return try await admin.rotateEventStreamSecret(try req.streamParameter)
    }

    func replay(_ req: LatchRequest) async throws -> EventStreamReplay {
        let admin = try await admins.service(for: req)
        let body = try req.decodeJSON(ReplayRequest.self)
        return try await admin.replayEventStream(
            try req.streamParameter, fromEvent: body.fromEventId, since: body.since)
    }

    func deliveries(_ req: LatchRequest) async throws -> EventStreamDeliveries {
        let admin = try await admins.service(for: req)
        return try await admin.eventStreamDeliveries(
            try req.streamParameter, state: req.query[String.self, at: "state"],
            limit: try req.pageLimitParameter ?? AdminService.defaultLimit)
    }
}

extension LatchRequest {
    /// The `{id}` of an event-stream route.
    fileprivate var streamParameter: String {
        get throws {
            guard let id = parameters.get("id") else { throw LatchError.notFound }
            return id
        }
    }
}
