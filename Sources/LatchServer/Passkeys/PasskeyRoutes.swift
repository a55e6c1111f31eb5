import FluentKit
import HTTPTypes
import Hummingbird
import LatchCore

extension PasskeyRegistrationOptions: ResponseEncodable {}
extension PasskeyCreated: ResponseEncodable {}
extension PasskeyInfo: ResponseEncodable {}
extension PasskeyAuthenticationOptions: ResponseEncodable {}

/// The HTTP edge of `PasskeyService` (registration, list, rename, removal) and of the passkey sign-in's
/// options (`PasskeySignIn.options`), which need no sign-in.
struct PasskeyRoutes: LatchRouteCollection {
    let latch: LatchServices
    let database: RequestDatabase

    func boot(routes: LatchRoutes) throws {
        let passkeys = routes.grouped("v1", "passkeys")
        passkeys.post("authentication", "options", use: authenticationOptions)
        let signedIn = passkeys.signedIn()
        signedIn.post("registration", "options", use: registrationOptions)
        signedIn.post(use: register)
        signedIn.get(use: list)
        signedIn.patch(":id", use: rename)
        signedIn.delete(":id", use: remove)
    }

    func registrationOptions(_ req: LatchRequest) async throws -> PasskeyRegistrationOptions {
        let service = try passkeys(req)
        let proof = req.hasBody ? try req.decodeJSON(PasskeyRegistrationOptionsRequest.self).verificationToken : nil
        return try await service.registrationOptions(proof: proof)
    }

    func register(_ req: LatchRequest) async throws -> Response {
        let service = try passkeys(req)
        let body = try req.decodeJSON(PasskeyRegistrationRequest.self)
        let name = try PasskeyService.validName(body.name, field: "name") ?? "Passkey"
        let transports = (body.credential.response.transports ?? []).filter(PasskeyService.isTransport)
        let created = try await service.register(
            challengeID: body.challengeId, credential: body.credential, name: name, transports: transports)
        return try created.encodeResponse(status: .created, for: req)
    }

    func list(_ req: LatchRequest) async throws -> [PasskeyInfo] {
        try await passkeys(req).list()
    }

    func rename(_ req: LatchRequest) async throws -> PasskeyInfo {
        let service = try passkeys(req)
        let body = try req.decodeJSON(RenamePasskeyRequest.self)
        guard let name = try PasskeyService.validName(body.name, field: "name") else {
            throw LatchError.missing("name")
        }
        return try await service.rename(req.idParameter, to: name, proof: body.verificationToken)
    }

    func remove(_ req: LatchRequest) async throws -> HTTPResponse.Status {
        let service = try passkeys(req)
        let proof = req.hasBody ? try req.decodeJSON(RemovePasskeyRequest.self).verificationToken : nil
        try await service.remove(req.idParameter, proof: proof)
        return .noContent
    }

    func authenticationOptions(_ req: LatchRequest) async throws -> PasskeyAuthenticationOptions {
        try latch.chargeRateLimit(.deviceChallenge, for: req)
        let rawEmail = req.hasBody ? try req.decodeJSON(PasskeyAuthenticationOptionsRequest.self).email : nil
        let email = try rawEmail.map { try Validate.email($0) }
        return try await passkeySignIn(req).options(naming: email)
    }
}

extension PasskeyRoutes {
    /// The signed-in session's passkeys (`PasskeyService`).
    func passkeys(_ req: LatchRequest) throws -> PasskeyService {
        PasskeyService(latch: latch, caller: try req.caller, db: database(req))
    }

    /// The passkey sign-in of `req` (its database, client address and language).
    func passkeySignIn(_ req: LatchRequest) -> PasskeySignIn {
        PasskeySignIn(latch: latch, db: database(req), clientIP: req.clientIP, language: req.language)
    }
}
