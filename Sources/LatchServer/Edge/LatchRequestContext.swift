import Foundation
import Hummingbird
import LatchCore
import Logging
import NIOCore

/// What latchd knows about a request while it is answered (Hummingbird's request context): the TCP peer,
/// the event loop it arrived on (SQLite's connection of that loop serves it), the Latch application (set by
/// `LatchContextMiddleware`, the first middleware `LatchApplication.install(on:)` adds) and the signed-in
/// session (set by `RequireSignedIn`). Request bodies are JSON read with `LatchJSON`, at most 64 KiB.
public struct LatchRequestContext: RequestContext, RemoteAddressRequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The TCP peer.
    public let remoteAddress: SocketAddress?
    /// The event loop of the request's connection.
    let eventLoop: any EventLoop
    /// The application serving the request; nil only before `LatchContextMiddleware` ran.
    var latchApplication: LatchApplication?
    /// The session of the access token, once `RequireSignedIn` (or `LatchRequest.authenticateSession`) checked it.
    public internal(set) var signedInSession: SignedInSession?
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
