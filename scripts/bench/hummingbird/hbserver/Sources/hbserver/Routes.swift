import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// The header names and values latchd's middlewares write.
enum LatchHeaders {
    static let frameOptions = HTTPField.Name("X-Frame-Options")!
    static let pragma = HTTPField.Name("Pragma")!
    static let defaultContentSecurityPolicy = "default-src 'none'; frame-ancestors 'none'"
    /// What Vapor writes for `headers.contentType = .json` (latchd's JSON answers).
    static let json: HTTPFields = [.contentType: "application/json; charset=utf-8"]
}

/// latchd's `SecurityHeadersMiddleware`: nosniff, no framing, a default CSP, on every answer.
struct SecurityHeadersMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        var response = try await next(request, context)
        response.headers[.xContentTypeOptions] = "nosniff"
        response.headers[LatchHeaders.frameOptions] = "DENY"
        if !response.headers.contains(.contentSecurityPolicy) {
            response.headers[.contentSecurityPolicy] = LatchHeaders.defaultContentSecurityPolicy
        }
        return response
    }
}

/// latchd's `NoStoreMiddleware`: `Cache-Control: no-store` and `Pragma: no-cache` under /v1 and /dev.
struct NoStoreMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let path = request.uri.path
        guard path.hasPrefix("/v1/") || path.hasPrefix("/dev/") else { return try await next(request, context) }
        var response = try await next(request, context)
        response.headers[.cacheControl] = "no-store"
        response.headers[LatchHeaders.pragma] = "no-cache"
        return response
    }
}

/// latchd's `JSONBodyMiddleware`, which also runs on every request: a body under /v1/ must be JSON.
struct JSONBodyMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let headers = request.headers
        if request.uri.path.hasPrefix("/v1/"), Self.hasBody(headers), !Self.isJSON(headers) {
            return LatchRoutes.error(.unsupportedMediaType, code: "UNSUPPORTED_MEDIA_TYPE", message: "Unsupported media type.")
        }
        return try await next(request, context)
    }

    static func hasBody(_ headers: HTTPFields) -> Bool {
        if headers[.transferEncoding] != nil { return true }
        return headers[values: .contentLength].contains { $0.trimmingCharacters(in: .whitespaces) != "0" }
    }

    static func isJSON(_ headers: HTTPFields) -> Bool {
        guard let type = headers[.contentType], let essence = type.split(separator: ";").first else { return false }
        return essence.trimmingCharacters(in: .whitespaces).lowercased() == "application/json"
    }
}

/// The two routes of latchd's hot path.
final class LatchRoutes: Sendable {
    static let healthBody = ByteBuffer(string: #"{"status":"ok"}"#)

    let tokens: AccessTokens
    let sessions: SessionStatusCache
    let profiles: ProfileCache

    init(tokens: AccessTokens, sessions: SessionStatusCache, profiles: ProfileCache) {
        self.tokens = tokens
        self.sessions = sessions
        self.profiles = profiles
    }

    /// `GET /health` (latchd's `HealthRoutes`: `{"status":"ok"}`).
    static func health() -> Response {
        Response(status: .ok, headers: LatchHeaders.json, body: .init(byteBuffer: healthBody))
    }

    /// `GET /v1/me`: latchd's `RequireSignedIn` (bearer token verified, session live), then the cached
    /// profile body; AUTH_004 otherwise.
    func me(_ request: Request) async throws -> Response {
        let now = Date()
        guard let token = Self.bearerToken(request.headers),
            let claims = tokens.verify(token, now: now),
            let userID = UUID(uuidString: claims.sub), let sessionID = UUID(uuidString: claims.sid),
            try await sessions.isLive(sessionID, now: now.timeIntervalSince1970),
            let body = try await profiles.profile(of: userID, now: Date().timeIntervalSince1970)
        else {
            return Self.error(.unauthorized, code: "AUTH_004", message: "Your session has expired. Please sign in again.")
        }
        return Response(status: .ok, headers: LatchHeaders.json, body: .init(byteBuffer: body))
    }

    /// Vapor's `bearerAuthorization`: `Authorization: Bearer TOKEN`, the scheme in any case.
    static func bearerToken(_ headers: HTTPFields) -> String? {
        guard let value = headers[.authorization] else { return nil }
        let parts = value.split(separator: " ")
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        return String(parts[1])
    }

    /// latchd's error shape (`{"error","message"}`, no-store), English only.
    static func error(_ status: HTTPResponse.Status, code: String, message: String) -> Response {
        var headers = LatchHeaders.json
        headers[.cacheControl] = "no-store"
        let body = ByteBuffer(string: #"{"error":"\#(code)","message":"\#(message)"}"#)
        return Response(status: status, headers: headers, body: .init(byteBuffer: body))
    }
}
