import Hummingbird
import NIOCore
import NIOFoundationCompat

/// The request decoder of `LatchRequestContext`: Hummingbird's `request.decode(as:context:)` (in the routes an
/// embedding app adds) reads a body the way `LatchRequest.decodeJSON` does, refusing what `StrictJSONBody`
/// refuses (not UTF-8, a key twice in one object) before `LatchJSON.decoder` sees it (issue 41 §3).
public struct StrictJSONRequestDecoder: RequestDecoder {
    public init() {}

    public func decode<T: Decodable>(_ type: T.Type, from request: Request, context: some RequestContext)
        async throws -> T
    {
        let buffer = try await request.body.collect(upTo: context.maxUploadSize)
        if let refusal = buffer.withUnsafeReadableBytes({ StrictJSONBody.refusal(of: $0) }) { throw refusal.error }
        return try LatchJSON.decoder.decode(T.self, from: buffer)
    }
}
