import Foundation
import HTTPTypes
import Hummingbird
import LatchCore

/// One rule for every request body under `/v1/`: a body (any `Content-Length` above 0, or a chunked
/// one) must be sent as `Content-Type: application/json` (parameters such as `charset` allowed),
/// otherwise 415 UNSUPPORTED_MEDIA_TYPE before any route runs, whether or not the route reads it.
/// So no web page can reach the API with a cross-site "simple" POST (`text/plain`, form encodings
/// and no type at all are refused), and no route can forget the check.
struct JSONBodyMiddleware: RouterMiddleware {
    func handle(
        _ request: Request, context: LatchRequestContext,
        next: (Request, LatchRequestContext) async throws -> Response
    ) async throws -> Response {
        if Self.hasBody(request.headers), request.isUnder("v1"), !Self.isJSON(request.headers) {
            throw LatchError(.unsupportedMediaType)
        }
        return try await next(request, context)
    }

    /// Whether the headers announce a body: a `Content-Length` other than 0, or any `Transfer-Encoding`.
    static func hasBody(_ headers: HTTPFields) -> Bool {
        if headers[values: .transferEncoding].contains(where: { !$0.isEmpty }) { return true }
        // A plain number (nearly every request) is compared as it is; anything else is trimmed first.
        return headers[values: .contentLength].contains { length in
            length.utf8.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
                ? length != "0" : length.trimmingCharacters(in: .whitespaces) != "0"
        }
    }

    /// Whether the (first) content type is `application/json` (type and subtype, any parameters).
    ///
    /// The two values clients send (`application/json`, and with `; charset=utf-8`, in any case) are
    /// recognised without parsing (issue 21); anything else goes through `isJSONParsed`.
    /// `JSONBodyTypeTests` holds both to the same answers.
    static func isJSON(_ headers: HTTPFields) -> Bool {
        guard let value = headers[values: .contentType].first else { return false }
        return isCommonJSONType(value) || isJSONParsed(value)
    }

    /// Whether `value` is a media type `application/json`: the type and subtype before any `;`, trimmed,
    /// compared without case (no wildcard matches).
    static func isJSONParsed(_ value: String) -> Bool {
        let mediaType = value.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false)[0]
        let parts = mediaType.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2 else { return false }
        return parts[0].trimmingCharacters(in: .whitespaces).lowercased() == "application"
            && parts[1].trimmingCharacters(in: .whitespaces).lowercased() == "json"
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
