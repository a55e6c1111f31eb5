import Foundation
import HTTPTypes
import Hummingbird
import Logging

/// The first middleware on Latch's router: says in the request's context who is asking (the client's
/// address, from the TCP peer and, behind `trustedProxies`, `X-Forwarded-For`; the language, from
/// `Accept-Language`) and names the request (`X-Request-Id` as sent, at most 64 characters, else a new
/// random UUID, `RequestID`) in its logger's `request-id`.
struct LatchContextMiddleware: RouterMiddleware {
    /// The proxies whose `X-Forwarded-For` is believed (`LATCH_TRUSTED_PROXIES`).
    let trustedProxies: TrustedProxies

    func handle(
        _ request: Request, context: LatchRequestContext,
        next: (Request, LatchRequestContext) async throws -> Response
    ) async throws -> Response {
        var context = context
        context.caller.clientAddress = trustedProxies.client(
            peer: context.remoteAddress?.ipAddress, forwardedFor: request.headers[values: .xForwardedFor])
        context.caller.language = request.language
        let sent = request.headers[values: .xRequestID].first.map { String($0.prefix(64)) }
        context.requestID = sent.flatMap { $0.isEmpty ? nil : $0 } ?? RequestID.make()
        context.logger[metadataKey: "request-id"] = .string(context.requestID)
        // Hummingbird's own random id is replaced by this one (logs carry one id per request).
        context.logger[metadataKey: "hb.request.id"] = nil
        return try await next(request, context)
    }
}

extension HTTPField.Name {
    static let xRequestID = Self("X-Request-Id")!
    static let xForwardedFor = Self("X-Forwarded-For")!
    static let xForwardedProto = Self("X-Forwarded-Proto")!
    static let xForwardedHost = Self("X-Forwarded-Host")!
    static let dpop = Self("DPoP")!
    static let dpopNonce = Self("DPoP-Nonce")!
    static let pragma = Self("Pragma")!
    static let xFrameOptions = Self("X-Frame-Options")!
    static let referrerPolicy = Self("Referrer-Policy")!
}
