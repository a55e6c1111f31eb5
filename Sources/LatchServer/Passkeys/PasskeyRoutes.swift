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
    func boot(routes: LatchRoutes) throws {
        let passkeys = routes.grouped("v1", "passkeys")
        passkeys.post("authentication", "options", use: authenticationOptions)
        let signedIn = passkeys.grouped(RequireSignedIn())
        signedIn.post("registration", "options", use: registrationOptions)
        signedIn.post(use: register)
        signedIn.get(use: list)
        signedIn.patch(":id", use: rename)
        signedIn.delete(":id", use: remove)
    }

    func registrationOptions(_ req: LatchRequest) async throws -> PasskeyRegistrationOptions {
        let service = try req.passkeys
        let proof = req.hasBody ? try req.decodeJSON(PasskeyRegistrationOptionsRequest.self).verificationToken : nil
        return try await service.registrationOptions(proof: proof)
    }

    func register(_ req: LatchRequest) async throws -> Response {
        let service = try req.passkeys
        let body = try req.decodeJSON(PasskeyRegistrationRequest.self)
        let name = try PasskeyService.validName(body.name, field: "name") ?? "Passkey"
        let transports = (body.credential.response.transports ?? []).filter(PasskeyService.isTransport)
        let created = try await service.register(
            challengeID: body.challengeId, credential: body.credential, name: name, transports: transports)
        return try created.encodeResponse(status: .created, for: req)
    }

    func list(_ req: LatchRequest) async throws -> [PasskeyInfo] {
        try await req.passkeys.list()
    }

    func rename(_ req: LatchRequest) async throws -> PasskeyInfo {
        let service = try req.passkeys
        let body = try req.decodeJSON(RenamePasskeyRequest.self)
        guard let name = try PasskeyService.validName(body.name, field: "name") else {
            throw LatchError.missing("name")
        }
        return try await service.rename(req.idParameter, to: name, proof: body.verificationToken)
    }

    func remove(_ req: LatchRequest) async throws -> HTTPResponse.Status {
        let service = try req.passkeys
        let proof = req.hasBody ? try req.decodeJSON(RemovePasskeyRequest.self).verificationToken : nil
        try await service.remove(req.idParameter, proof: proof)
        return .noContent
    }

    func authenticationOptions(_ req: LatchRequest) async throws -> PasskeyAuthenticationOptions {
        try req.chargeRateLimit(.deviceChallenge)
        let rawEmail = req.hasBody ? try req.decodeJSON(PasskeyAuthenticationOptionsRequest.self).email : nil
        let email = try rawEmail.map { try Validate.email($0) }
        return try await req.passkeySignIn.options(naming: email)
    }
}

extension LatchRequest {
    /// The signed-in session's passkeys (`PasskeyService`).
    var passkeys: PasskeyService {
        get throws { PasskeyService(latch: latch, caller: try caller, db: db) }
    }
}
