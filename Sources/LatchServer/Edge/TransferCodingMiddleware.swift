import Foundation
import HTTPTypes
import Hummingbird
import LatchCore
import NIOHTTP1

/// Refuses a request framed with a transfer coding other than `chunked` (`Transfer-Encoding: gzip`,
/// `gzip, chunked`, …) with 501 MALFORMED_BODY, `reasons: ["unsupported_transfer_coding"]`, before any
/// route reads its body (RFC 9112 §6.1: a server that does not understand a coding answers 501). Without
/// it NIO's parser failed in the middle of the body and the answer was a 500 logged as latchd's own error
/// (issue 41 §3 E1); and `gzip, chunked` was read as if it were plain, where a proxy that decodes gzip
/// reads another body. `ConnectionCloseOption` closes such a connection after the answer.
struct TransferCodingMiddleware: RouterMiddleware {
    func handle(
        _ request: Request, context: LatchRequestContext,
        next: (Request, LatchRequestContext) async throws -> Response
    ) async throws -> Response {
        if Self.hasUnsupportedCoding(request.headers) {
            throw LatchError(.malformedBody, status: .notImplemented, reasons: ["unsupported_transfer_coding"])
        }
        return try await next(request, context)
    }

    /// Whether some `Transfer-Encoding` coding is not `chunked` (in any case, spaces around it ignored).
    static func hasUnsupportedCoding(_ fields: HTTPFields) -> Bool {
        fields[values: .transferEncoding].contains { line in
            line.split(separator: ",", omittingEmptySubsequences: false).contains {
                $0.trimmingCharacters(in: .whitespaces).lowercased() != "chunked"
            }
        }
    }
}
