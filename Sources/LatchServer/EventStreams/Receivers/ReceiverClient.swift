import AsyncHTTPClient
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import Synchronization

/// latchd's POSTs to event receivers (issue 42 §3). Each attempt resolves the host once and judges every
/// address (`ReceiverResolver`), then connects to the pinned address while the request, TLS's SNI and the
/// certificate check still use the name (AsyncHTTPClient's `dnsOverride`), so a name that resolves
/// elsewhere a moment later (DNS rebinding) cannot reach inside. No redirect is followed (a 3xx is an
/// answer like any other), nothing is decompressed, an attempt has a connect and an answer timeout, and
/// at most `answerBodyLimit` bytes of an answer are read. Clients are kept per host and pinned address
/// (`ReceiverClientCache`), so connections are reused.
///
///     let receivers = ReceiverClient(rules: rules)
///     let url = try ReceiverURL(stream.url, rules: rules)
///     let answer = try await receivers.post(url, headers: signed, body: body, contentType: "application/json")
///     // answer.status, answer.body (the start of it); a failure is a ReceiverFailure
///     await receivers.shutdown()  // when latchd stops, and before the value is dropped
final class ReceiverClient: Sendable {
    let rules: ReceiverAddressRules
    let settings: ReceiverClientSettings
    private let resolver: ReceiverResolver
    private let eventLoopGroup: any EventLoopGroup
    private let cache: Mutex<ReceiverClientCache<HTTPClient>>

    init(
        rules: ReceiverAddressRules, settings: ReceiverClientSettings = ReceiverClientSettings(),
        resolver: ReceiverResolver = .system,
        eventLoopGroup: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton
    ) {
        self.rules = rules
        self.settings = settings
        self.resolver = resolver
        self.eventLoopGroup = eventLoopGroup
        cache = Mutex(ReceiverClientCache(capacity: settings.cachedClients))
    }

    /// POSTs `body` as `contentType` with `headers` besides to `url`, and reads the answer. `Host`,
    /// `Content-Type`, `Content-Length` and `Transfer-Encoding` among `headers` are dropped: the client
    /// writes them.
    func post(_ url: ReceiverURL, headers: [(String, String)], body: ByteBuffer, contentType: String)
        async throws(ReceiverFailure) -> ReceiverAnswer
    {
        try await ReceiverDeadline.run(within: settings.answerTimeout) { () async throws(ReceiverFailure) in
            try await self.attempt(url, headers: headers, body: body, contentType: contentType)
        }
    }

    /// `post(_:headers:body:contentType:)` with the body as bytes.
    func post(_ url: ReceiverURL, headers: [(String, String)], body: [UInt8], contentType: String)
        async throws(ReceiverFailure) -> ReceiverAnswer
    {
        try await post(url, headers: headers, body: ByteBuffer(bytes: body), contentType: contentType)
    }

    /// Shuts every client down (open connections closed, attempts under way fail); later posts fail with
    /// `.shutDown`.
    func shutdown() async {
        let clients = cache.withLock { $0.close() }
        for client in clients { try? await client.shutdown() }
    }

    /// How many clients are kept now (for tests and metrics).
    var cachedClientCount: Int { cache.withLock { $0.count } }

    private func attempt(
        _ url: ReceiverURL, headers: [(String, String)], body: ByteBuffer, contentType: String
    ) async throws(ReceiverFailure) -> ReceiverAnswer {
        let resolution = try await resolver.resolve(url, rules: rules)
        let leased = cache.withLock { cache -> ReceiverClientCache<HTTPClient>.Leased? in
            let pin = resolution.pin(keeping: cache.currentPin(of: url.host))
            return cache.lease(.init(host: url.host, pin: pin)) { makeClient(host: url.host, pin: pin) }
        }
        guard let leased else { throw .shutDown }
        let outcome: Result<ReceiverAnswer, ReceiverFailure>
        do {
            outcome = .success(
                try await exchange(leased.client, url, headers: headers, body: body, contentType: contentType))
        } catch {
            outcome = .failure(Self.failure(error))
        }
        // Retired clients are shut down after the exchange, so the attempt does not wait for them.
        var retired = leased.retired
        if let done = cache.withLock({ $0.release(leased.lease) }) { retired.append(done) }
        for client in retired { try? await client.shutdown() }
        return try outcome.get()
    }

    private func exchange(
        _ client: HTTPClient, _ url: ReceiverURL, headers: [(String, String)], body: ByteBuffer, contentType: String
    ) async throws -> ReceiverAnswer {
        var request = HTTPClientRequest(url: url.text)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: contentType)
        let written: Set<String> = ["host", "content-type", "content-length", "transfer-encoding"]
        for (name, value) in headers where !written.contains(name.lowercased()) {
            request.headers.add(name: name, value: value)
        }
        request.body = .bytes(body)
        let response = try await client.execute(request, timeout: settings.answerTimeout)
        var collected = ByteBuffer()
        let limit = settings.answerBodyLimit
        // Past the limit nothing more is read: leaving the loop ends the response, and AsyncHTTPClient closes
        // its connection rather than read the rest. An answer within the limit is read to its end, so its
        // connection is kept.
        for try await var chunk in response.body {
            let room = limit - collected.readableBytes
            if chunk.readableBytes > room {
                if room > 0, let slice = chunk.readSlice(length: room) { collected.writeImmutableBuffer(slice) }
                break
            }
            collected.writeBuffer(&chunk)
        }
        return ReceiverAnswer(status: Int(response.status.code), body: String(buffer: collected))
    }

    /// A client whose connections for `host` go to `pin`.
    private func makeClient(host: String, pin: ReceiverAddress) -> HTTPClient {
        var configuration = HTTPClient.Configuration(
            redirectConfiguration: .disallow,
            timeout: .init(connect: settings.connectTimeout, read: settings.answerTimeout),
            decompression: .disabled)
        configuration.dnsOverride = [host: pin.description]
        // A refused connection fails the attempt at once; the worker's backoff decides when to try again.
        configuration.connectionPool.retryConnectionEstablishment = false
        // No spans of its own: a span names the URL, whose query may hold a receiver's token. The worker's
        // delivery span covers the attempt.
        configuration.tracing.tracer = nil
        return HTTPClient(eventLoopGroup: eventLoopGroup, configuration: configuration)
    }

    /// What an error of AsyncHTTPClient, NIO or NIOSSL means, without its text (which may name the URL).
    static func failure(_ error: any Error) -> ReceiverFailure {
        switch error {
        case let failure as ReceiverFailure:
            return failure
        case let error as HTTPClientError:
            switch error {
            case .deadlineExceeded, .readTimeout, .writeTimeout: return .timeout
            case .connectTimeout, .tlsHandshakeTimeout: return .connectTimeout
            case .remoteConnectionClosed: return .connectionClosed
            case .cancelled: return .cancelled
            case .alreadyShutdown: return .shutDown
            default: return .other("HTTPClientError")
            }
        case is NIOSSLError, is BoringSSLError, is NIOSSLExtraError:
            return .tls
        case is NIOConnectionError, is IOError:
            return .connectFailed
        case let error as ChannelError:
            if case .connectTimeout = error { return .connectTimeout }
            return .connectFailed
        case is HTTPParserError:
            return .badAnswer
        case is CancellationError:
            return .cancelled
        default:
            return .other(String(describing: type(of: error)))
        }
    }
}
