import FluentKit
import LatchCore
import Vapor

/// Turns every error into the API's error format (`{"error", "message", …}`), in the request's
/// language. Decoding problems become 400s naming the field; nothing becomes a bare 500 page.
struct LatchErrorMiddleware: Middleware {
    let allowedMethods = AllowedMethods()

    // Future-based (no task hop per request, like `JSONBodyMiddleware`); `recover` also catches what
    // the next responder returns as a failed future, which is how thrown route errors arrive.
    func respond(to request: Request, chainingTo next: any Responder) -> EventLoopFuture<Response> {
        next.respond(to: request).recover { error in self.response(for: error, to: request) }
    }

    func response(for error: any Error, to request: Request) -> Response {
        if error is RouteNotFound {
            let allowed = allowedMethods.methods(for: request.url.path, in: request.application.routes)
            guard !allowed.isEmpty else { return Self.response(for: .notFound, language: request.language) }
            let response = Self.response(
                for: LatchError(.methodNotAllowed), language: request.language)
            response.headers.replaceOrAdd(name: .allow, value: allowed.joined(separator: ", "))
            return response
        }
        let latchError = Self.translate(error)
        if latchError.status.code >= 500 {
            request.logger.error(
                "request failed", metadata: Self.failureMetadata(for: error, answered: latchError, request: request))
        }
        return Self.response(for: latchError, language: request.language)
    }

    static func response(for error: LatchError, language: LatchLanguage) -> Response {
        let body = APIErrorBody(
            error: error.code.rawValue, message: error.message ?? error.code.message(in: language),
            details: error.details)
        var headers = HTTPHeaders()
        headers.contentType = .json
        headers.replaceOrAdd(name: .cacheControl, value: "no-store")
        if let retryAfter = error.retryAfter { headers.replaceOrAdd(name: .retryAfter, value: "\(retryAfter)") }
        if let authenticate = error.authenticate { headers.replaceOrAdd(name: .wwwAuthenticate, value: authenticate) }
        if let nonce = error.dpopNonce { headers.replaceOrAdd(name: "DPoP-Nonce", value: nonce) }
        let data = (try? LatchJSON.encoder.encode(body)) ?? Data(#"{"error":"INTERNAL_ERROR"}"#.utf8)
        return Response(status: error.status, headers: headers, body: .init(data: data))
    }

    /// What a 5xx log line says: the error's type, the answer's code, whether a database error was a
    /// constraint, connection or syntax failure, the method, path and request id (escaped) — never
    /// the error's own text, which for a database error may echo bound values (PostgreSQL's
    /// `Key (email)=(alice@example.com) already exists`).
    static func failureMetadata(for error: any Error, answered: LatchError, request: Request) -> Logger.Metadata {
        var metadata: Logger.Metadata = [
            "error_type": "\(String(reflecting: type(of: error)))",
            "code": "\(answered.code.rawValue)",
            "method": "\(request.method.rawValue)",
            "path": "\(LogSafeText.escaped(request.url.path))",
            "request_id": "\(LogSafeText.escaped(request.id, limit: 64))"
        ]
        if let reasons = answered.reasons, error is LatchError {
            metadata["reasons"] = "\(reasons.joined(separator: ","))"
        }
        if let database = error as? any DatabaseError {
            let kind =
                database.isConstraintFailure
                ? "constraint"
                : database.isConnectionClosed ? "connection" : database.isSyntaxError ? "syntax" : "other"
            metadata["database_error"] = "\(kind)"
        }
        return metadata
    }

    static func translate(_ error: any Error) -> LatchError {
        switch error {
        case let error as LatchError:
            return error
        case let error as DecodingError:
            return translate(error)
        case let error as UnknownWireValue:
            // A value outside the shared vocabulary (e.g. a verification `method`): 422 `unknown`.
            return .invalid(error.codingPath.isEmpty ? "body" : error.codingPath.joined(separator: "."), ["unknown"])
        case let error as any AbortError:
            switch error.status {
            case .payloadTooLarge: return LatchError(.payloadTooLarge)
            case .notFound: return .notFound
            case .methodNotAllowed: return LatchError(.methodNotAllowed)
            case .unsupportedMediaType: return LatchError(.unsupportedMediaType)
            case .tooManyRequests: return .rateLimited(retryAfter: 60)
            case .unauthorized: return .sessionExpired
            case let status where status.code < 500: return LatchError(.malformedBody)
            default: return LatchError(.internalError)
            }
        default:
            return LatchError(.internalError)
        }
    }

    static func translate(_ error: DecodingError) -> LatchError {
        func path(_ codingPath: [any CodingKey], _ last: (any CodingKey)? = nil) -> String {
            let keys = codingPath + (last.map { [$0] } ?? [])
            let joined = keys.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
            return joined.isEmpty ? "body" : joined
        }
        switch error {
        case .keyNotFound(let key, let context):
            return .missing(path(context.codingPath, key))
        case .valueNotFound(_, let context):
            return .missing(path(context.codingPath))
        case .typeMismatch(_, let context):
            return LatchError(.validationFailed, field: path(context.codingPath), reasons: ["wrong_type"])
        case .dataCorrupted(let context):
            if context.codingPath.isEmpty { return LatchError(.malformedBody) }
            return LatchError(.validationFailed, field: path(context.codingPath), reasons: ["invalid"])
        @unknown default:
            return LatchError(.malformedBody)
        }
    }
}
