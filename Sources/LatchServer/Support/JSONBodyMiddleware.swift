import LatchCore
import Vapor

/// One rule for every request body under `/v1/`: a body (any `Content-Length` above 0, or a chunked
/// one) must be sent as `Content-Type: application/json` (parameters such as `charset` allowed),
/// otherwise 415 UNSUPPORTED_MEDIA_TYPE before any route runs, whether or not the route reads it.
/// So no web page can reach the API with a cross-site "simple" POST (`text/plain`, form encodings
/// and no type at all are refused), and no route can forget the check.
///
/// A future-based `Middleware`, not an `AsyncMiddleware`: it runs on every request, and each async
/// middleware costs a task and two executor hops per request (issue 10's benchmark rule).
struct JSONBodyMiddleware: Middleware {
    func respond(to request: Request, chainingTo next: any Responder) -> EventLoopFuture<Response> {
        if Self.hasBody(request.headers), request.isUnder("v1"), !Self.isJSON(request.headers) {
            return request.eventLoop.makeFailedFuture(LatchError(.unsupportedMediaType))
        }
        return next.respond(to: request)
    }

    /// Whether the headers announce a body: a `Content-Length` other than 0, or any `Transfer-Encoding`.
    static func hasBody(_ headers: HTTPHeaders) -> Bool {
        if headers.contains(name: .transferEncoding), !headers[.transferEncoding].isEmpty { return true }
        // A plain number (nearly every request) is compared as it is; anything else is trimmed first.
        return headers[.contentLength].contains { length in
            length.utf8.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
                ? length != "0" : length.trimmingCharacters(in: .whitespaces) != "0"
        }
    }

    /// Whether the content type is `application/json` (type and subtype, any parameters).
    ///
    /// The two values clients send (`application/json`, and with `; charset=utf-8`, in any case) are
    /// recognised without parsing (issue 21: Vapor's directive parser, run twice per request, was 3 % of a
    /// refresh); anything else goes through the parser. `JSONBodyTypeTests` holds both to the same answers.
    static func isJSON(_ headers: HTTPHeaders) -> Bool {
        if let value = headers.first(name: .contentType), isCommonJSONType(value) {
            return true
        }
        return isJSONParsed(headers)
    }

    /// `isJSON` through Vapor's parser only.
    static func isJSONParsed(_ headers: HTTPHeaders) -> Bool {
        // Compared by hand: HTTPMediaType's == lets a `*/*` wildcard equal anything.
        guard let type = headers.contentType else { return false }
        return type.type.lowercased() == "application" && type.subType.lowercased() == "json"
    }

    private static func isCommonJSONType(_ value: String) -> Bool {
        let bytes = value.utf8
        return (bytes.count == 16 || bytes.count == 31)
            && zip(bytes, "application/json; charset=utf-8".utf8).allSatisfy { lower($0) == $1 }
    }

    private static func lower(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
    }
}
