import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

extension SSFTransmitterConfiguration: ResponseEncodable {}
extension SSFStreamConfiguration: ResponseEncodable {}
extension SSFStreamStatus: ResponseEncodable {}
extension SSFPollResponse: ResponseEncodable {}

/// Shared Signals (issue 42 §2): the transmitter's configuration, the stream management API of SSF 1.0
/// §8.1 for receivers holding a receiver key, and RFC 8936's poll endpoint. The work is
/// `SharedSignalsService`'s.
struct SharedSignalsRoutes: LatchRouteCollection {
    let latch: LatchServices
    let database: RequestDatabase

    func boot(routes: LatchRoutes) throws {
        routes.get(".well-known", "ssf-configuration") { req in
            SSFTransmitterConfiguration(issuer: latch.config.issuer)
        }
        let ssf = routes.grouped("ssf")
        ssf.post("streams", use: create)
        ssf.get("streams", use: read)
        ssf.patch("streams", use: update)
        ssf.put("streams", use: replace)
        ssf.delete("streams", use: delete)
        ssf.get("status", use: status)
        ssf.post("status", use: setStatus)
        ssf.post("verify", use: verify)
        ssf.post("poll", ":id", use: poll)
    }

    /// A list of streams (the answer of `GET /ssf/streams` without `stream_id`) as a bare JSON array.
    struct StreamList: ResponseGenerator {
        let streams: [SSFStreamConfiguration]

        func response(from request: Request, context: some RequestContext) throws -> Response {
            let body = try LatchJSON.encoder.encode(streams)
            return Response(
                status: .ok, headers: [.contentType: "application/json; charset=utf-8"],
                body: .init(byteBuffer: ByteBuffer(bytes: body)))
        }
    }

    func create(_ req: LatchRequest) async throws -> Response {
        let service = try await receiverService(req)
        let created = try await service.create(try req.decodeJSON(SSFStreamRequest.self))
        return try created.encodeResponse(status: .created, for: req)
    }

    func read(_ req: LatchRequest) async throws -> Response {
        let service = try await receiverService(req)
        let id = req.query[String.self, at: "stream_id"]
        let streams = try await service.read(id)
        if id != nil, let stream = streams.first { return try stream.encodeResponse(for: req) }
        return try StreamList(streams: streams).response(from: req.request, context: req.context)
    }

    func update(_ req: LatchRequest) async throws -> SSFStreamConfiguration {
        let service = try await receiverService(req)
        return try await service.update(try req.decodeJSON(SSFStreamRequest.self), replace: false)
    }

    func replace(_ req: LatchRequest) async throws -> SSFStreamConfiguration {
        let service = try await receiverService(req)
        return try await service.update(try req.decodeJSON(SSFStreamRequest.self), replace: true)
    }

    func delete(_ req: LatchRequest) async throws -> HTTPResponse.Status {
        let service = try await receiverService(req)
        try await service.delete(req.query[String.self, at: "stream_id"])
        return .noContent
    }

    func status(_ req: LatchRequest) async throws -> SSFStreamStatus {
        let service = try await receiverService(req)
        return try await service.status(req.query[String.self, at: "stream_id"])
    }

    func setStatus(_ req: LatchRequest) async throws -> SSFStreamStatus {
        let service = try await receiverService(req)
        return try await service.setStatus(try req.decodeJSON(SSFStreamStatus.self))
    }

    func verify(_ req: LatchRequest) async throws -> HTTPResponse.Status {
        let service = try await receiverService(req)
        try await service.verify(try req.decodeJSON(SSFVerificationRequest.self))
        return .noContent
    }

    func poll(_ req: LatchRequest) async throws -> SSFPollResponse {
        let service = try await receiverService(req)
        guard let id = req.parameters.get("id") else { throw LatchError.notFound }
        let request = req.hasBody ? try req.decodeJSON(SSFPollRequest.self) : SSFPollRequest()
        return try await service.poll(id, request)
    }
}

extension SharedSignalsRoutes {
    /// The SSF service for the receiver whose key `req` carries (`Authorization: Bearer KEY`, one of
    /// `LATCH_SSF_RECEIVER_KEYS` or a key an operator made in `ssf_receivers`); otherwise 401 AUTH_004.
    /// As for admin keys, a right key is never charged; wrong or missing ones are priced in the
    /// `admin_auth` bucket (429 past it), so guessing keys costs the same on both doors.
    func receiverService(_ req: LatchRequest) async throws -> SharedSignalsService {
        if let presented = req.headers.bearerToken, presented.utf8.count <= 512 {
            let db = database(req)
            let receiver: SSFReceiver? =
                if let configured = SSFReceiverKeys(latch.config.ssfReceiverKeys).receiver(presenting: presented) {
                    configured
                } else {
                    try await SSFReceiverStore().receiver(presenting: presented, on: db)
                }
            if let receiver {
                return SharedSignalsService(latch: latch, database: db, receiver: receiver, logger: req.logger)
            }
        }
        try latch.chargeRateLimit(.adminAuth, for: req)
        throw LatchError.sessionExpired
    }
}
