import FluentKit
import Foundation
import HTTPTypes
import Hummingbird
import LatchCore
import Logging
import NIOCore
import NIOFoundationCompat
import NIOHTTP1

/// Turns every error into the API's error format (`{"error", "message", …}`), in the request's
/// language. Decoding problems become 400s naming the field; nothing becomes a bare 500 page.
struct LatchErrorMiddleware: RouterMiddleware {
    /// Latch's routes, so a known path asked with another method answers 405 with `Allow`.
    let routeTable: RouteTable

    func handle(
        _ request: Request, context: LatchRequestContext,
        next: (Request, LatchRequestContext) async throws -> Response
    ) async throws -> Response {
        do {
            return try await next(request, context)
        } catch {
            return response(for: error, to: request, context: context)
        }
    }

    func response(for error: any Error, to request: Request, context: LatchRequestContext) -> Response {
        if let error = error as? HTTPError, error.status == .notFound {
            let allowed = routeTable.methods(for: request.uri.path)
            guard !allowed.isEmpty else { return Self.response(for: .notFound, language: request.language) }
            var response = Self.response(for: LatchError(.methodNotAllowed), language: request.language)
            response.headers.replaceOrAdd(.allow, allowed.joined(separator: ", "))
            return response
        }
        let latchError = Self.translate(error)
        if latchError.status == .notImplemented {
            // The client's framing (an unknown transfer coding, issue 41 §3 E1): its fault, not latchd's.
            context.logger.info(
                "request refused", metadata: ["code": "\(latchError.code.rawValue)", "status": "501"])
        } else if latchError.status.code >= 500 {
            context.logger.error(
                "request failed",
                metadata: Self.failureMetadata(for: error, answered: latchError, request: request, context: context))
        }
        return Self.response(for: latchError, language: request.language)
    }

    static func response(for error: LatchError, language: LatchLanguage) -> Response {
        let body = APIErrorBody(
            error: error.code.rawValue, message: error.message ?? error.code.message(in: language),
            details: error.details)
        var headers: HTTPFields = [.contentType: "application/json; charset=utf-8", .cacheControl: "no-store"]
        if let retryAfter = error.retryAfter { headers[.retryAfter] = "\(retryAfter)" }
        if let authenticate = error.authenticate { headers[.wwwAuthenticate] = authenticate }
        if let nonce = error.dpopNonce { headers[.dpopNonce] = nonce }
        let data = (try? LatchJSON.encoder.encode(body)) ?? Data(#"{"error":"INTERNAL_ERROR"}"#.utf8)
        return Response(status: error.status, headers: headers, body: .init(byteBuffer: ByteBuffer(data: data)))
    }

    /// What a 5xx log line says: the error's type, the answer's code, whether a database error was a
    /// constraint, connection or syntax failure, the method, path and request id (escaped) — never
    /// the error's own text, which for a database error may echo bound values (PostgreSQL's
    /// `Key (email)=(alice@example.com) already exists`).
    static func failureMetadata(
        for error: any Error, answered: LatchError, request: Request, context: LatchRequestContext
    ) -> Logger.Metadata {
        var metadata: Logger.Metadata = [
            "error_type": "\(String(reflecting: type(of: error)))",
            "code": "\(answered.code.rawValue)",
            "method": "\(request.method.rawValue)",
            "path": "\(LogSafeText.escaped(request.uri.path))",
            "request_id": "\(LogSafeText.escaped(context.requestID, limit: 64))"
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
        case is HTTPParserError:
            // The body broke HTTP/1.1 framing (a bad chunk, …) after its head: the client's error (issue 41 §3 E1).
            return LatchError(.malformedBody, reasons: ["malformed_framing"])
        case let error as UnknownWireValue:
            // A value outside the shared vocabulary (e.g. a verification `method`): 422 `unknown`.
            return .invalid(error.codingPath.isEmpty ? "body" : error.codingPath.joined(separator: "."), ["unknown"])
        case let error as any HTTPResponseError:
            // Hummingbird's own refusals: a body past 64 KiB (NIOTooManyBytesError), a route not found.
            switch error.status {
            case .contentTooLarge: return LatchError(.payloadTooLarge)
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
