import FluentKit
import Foundation

/// The APNs device tokens on `device_credentials` (issue 43 §2; `AddDeviceCredentialPushToken`): the
/// only place that reads or writes them.
struct PushTokenStore: Sendable {
    /// A phone that takes approval pushes: its credential, token and environment.
    struct Phone: Sendable, Equatable {
        let credentialID: UUID
        let token: String
        let environment: PushEnvironment
    }

    /// Puts `token` on `credential`, and takes it off the user's other keys (a phone that bound a new
    /// key keeps one token: one push per phone).
    func register(
        _ token: String, environment: PushEnvironment, on credential: DeviceCredential, now: Double,
        on database: any Database
    ) async throws {
        let id = try credential.requireID()
        try await DeviceCredential.query(on: database)
            .filter(\.$userID == credential.userID).filter(\.$pushToken == token).filter(\.$id != id)
            .set(\.$pushToken, to: nil).set(\.$pushEnvironment, to: nil).set(\.$pushTokenAt, to: nil)
            .update()
        credential.pushToken = token
        credential.pushEnvironment = environment.rawValue
        credential.pushTokenAt = now
        try await credential.update(on: database)
    }

    /// Takes the token off `credential` (none: nothing changes).
    func remove(from credential: DeviceCredential, on database: any Database) async throws {
        guard credential.pushToken != nil else { return }
        credential.pushToken = nil
        credential.pushEnvironment = nil
        credential.pushTokenAt = nil
        try await credential.update(on: database)
    }

    /// Takes `token` off credential `id` if it still holds it (APNs said the token is no longer valid).
    func clear(_ token: String, of id: UUID, on database: any Database) async throws {
        try await DeviceCredential.query(on: database)
            .filter(\.$id == id).filter(\.$pushToken == token)
            .set(\.$pushToken, to: nil).set(\.$pushEnvironment, to: nil).set(\.$pushTokenAt, to: nil)
            .update()
    }

    /// Whether credential `id` still holds `token` (a key unbound, an account reset or deleted, or a token
    /// replaced since the push was queued: it is not sent).
    func holds(_ token: String, credential id: UUID, on database: any Database) async throws -> Bool {
        try await DeviceCredential.query(on: database).filter(\.$id == id).filter(\.$pushToken == token).count() > 0
    }

    /// The user's phones with a push token, oldest key first.
    func phones(of user: UUID, on database: any Database) async throws -> [Phone] {
        try await DeviceCredential.query(on: database)
            .filter(\.$userID == user).filter(\.$pushToken != nil).sort(\.$createdAt).all()
            .compactMap { credential in
                guard let id = credential.id, let token = credential.pushToken,
                    let environment = credential.pushEnvironment.flatMap(PushEnvironment.init(rawValue:))
                else { return nil }
                return Phone(credentialID: id, token: token, environment: environment)
            }
    }
}
