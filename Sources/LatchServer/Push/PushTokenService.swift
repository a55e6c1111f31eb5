import FluentKit
import Foundation
import LatchCore

/// What `PUT /v1/device-credentials/{id}/push-token` takes: the APNs device token (hex, 64–200
/// characters) and its environment (`production` or `development`).
struct PushTokenRequest: Decodable, Sendable {
    let token: String?
    let environment: String?
}

/// Push tokens of device keys (issue 43 §2), without HTTP: register one on the caller's key (recorded on
/// the owner's log as `push_token_registered`), or remove it. `PushTokenRoutes` is its HTTP edge.
struct PushTokenService: Sendable {
    let latch: LatchServices
    let db: any Database

    /// Validated token and environment: 422 `token` `["not_hex"]` / `["length"]` / `["required"]`,
    /// `environment` `["unknown"]` / `["required"]`.
    static func parse(_ request: PushTokenRequest) throws -> (token: String, environment: PushEnvironment) {
        guard let token = request.token else { throw LatchError.invalid("token", ["required"]) }
        guard (64...200).contains(token.count) else { throw LatchError.invalid("token", ["length"]) }
        guard token.allSatisfy(\.isHexDigit), token.allSatisfy(\.isASCII) else {
            throw LatchError.invalid("token", ["not_hex"])
        }
        guard let raw = request.environment else { throw LatchError.invalid("environment", ["required"]) }
        guard let environment = PushEnvironment(rawValue: raw) else {
            throw LatchError.invalid("environment", ["unknown"])
        }
        return (token.lowercased(), environment)
    }

    /// Registers the push token of the caller's key `id`; 404 for a key not the caller's.
    func register(_ request: PushTokenRequest, on id: UUID?, by caller: Caller) async throws {
        let (token, environment) = try Self.parse(request)
        let latch = self.latch
        guard let id, let credential = try await latch.deviceCredentials.find(id, of: caller.user, on: db) else {
            throw LatchError.notFound
        }
        let now = latch.clock.epochSeconds
        try await db.tracedTransaction { database in
            try await PushTokenStore().register(token, environment: environment, on: credential, now: now, on: database)
            try await latch.events.record(
                .pushTokenRegistered, user: caller.user, session: caller.session, ip: caller.ip, now: now,
                detail: credential.deviceName, on: database)
        }
    }

    /// Removes the push token of the caller's key `id` (none: nothing changes); 404 for a key not the
    /// caller's.
    func remove(from id: UUID?, by caller: Caller) async throws {
        guard let id, let credential = try await latch.deviceCredentials.find(id, of: caller.user, on: db) else {
            throw LatchError.notFound
        }
        try await PushTokenStore().remove(from: credential, on: db)
    }
}
