import Foundation
import Hummingbird
import LatchCore
import Logging
import NIOCore

/// What latchd knows about a request while it is answered (Hummingbird's request context): the TCP peer,
/// the event loop it arrived on (SQLite's connection of that loop serves it) and who is asking (`caller`:
/// the client's address and language, set by `LatchContextMiddleware`, the first middleware
/// `LatchApplication.install(on:)` adds, and the signed-in session, set by `RequireSignedIn`). The services
/// are not here: each route collection got its own when the router was built. Request bodies are JSON read
/// with `LatchJSON`, at most 64 KiB.
public struct LatchRequestContext: RequestContext, RemoteAddressRequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The TCP peer.
    public let remoteAddress: SocketAddress?
    /// The event loop of the request's connection.
    let eventLoop: any EventLoop
    /// Who is asking: the signed-in session (once `RequireSignedIn` checked it), the client's address and
    /// the answer's language.
    public internal(set) var caller = RequestCaller()
    /// `X-Request-Id` as sent (at most 64 characters), else a new UUID; logged as `request-id`.
    public internal(set) var requestID = ""

    public init(source: ApplicationRequestContextSource) {
        coreContext = CoreRequestContextStorage(source: source)
        remoteAddress = source.channel.remoteAddress
        eventLoop = source.channel.eventLoop
    }

    /// The largest request body latchd reads: 64 KiB (a larger one answers 413 PAYLOAD_TOO_LARGE).
    public static let maximumBodySize = 64 * 1024

    public var maxUploadSize: Int { Self.maximumBodySize }
    /// Strict: a body that is not UTF-8 or names a key twice is refused (`StrictJSONRequestDecoder`).
    public var requestDecoder: StrictJSONRequestDecoder { StrictJSONRequestDecoder() }
    public var responseEncoder: JSONEncoder { LatchJSON.encoder }
}
