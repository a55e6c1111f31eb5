import Crypto
import Foundation
import LatchCore
import NIOCore
import NIOHTTP1
import NIOHTTP2
import NIOPosix
import NIOSSL
import Synchronization

/// A local APNs (issue 43 §2) on loopback, speaking APNs' HTTP/2 over TLS (ALPN `h2`, a certificate made in
/// code, `TestCertificate`), as the Apple and WeChat stand-ins do for theirs: it checks each request's
/// provider token — ES256 signature by the key's public half, header `kid`, claim `iss`, and `iat` not older
/// than an hour by `now` (403 InvalidProviderToken / ExpiredProviderToken otherwise) — records the request
/// (path, headers, body, HTTP version), and answers 200 with an `apns-id`, or what the test told it to.
final class APNsStandIn: Sendable {
    /// A request as APNs received it.
    struct Request: Sendable {
        let path: String
        /// Header names lowercased.
        let headers: [String: String]
        let body: Data
        let version: HTTPVersion
        /// Whether its provider token passed the checks.
        let providerTokenValid: Bool

        var json: [String: Any]? { (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] }
        /// The provider token's claims (unchecked).
        var providerTokenClaims: [String: Any]? {
            guard let token = headers["authorization"]?.split(separator: " ").last else { return nil }
            let parts = token.split(separator: ".")
            guard parts.count == 3, let data = APNsStandIn.decoded(parts[1]) else { return nil }
            return (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
        }
    }

    /// An answer the test asks for: a status and Apple's `reason`.
    struct Answer: Sendable {
        let status: Int
        let reason: String?

        static let unregistered = Answer(status: 410, reason: "Unregistered")
        static let badDeviceToken = Answer(status: 400, reason: "BadDeviceToken")
        static let tooManyRequests = Answer(status: 429, reason: "TooManyRequests")
        static let internalServerError = Answer(status: 500, reason: "InternalServerError")
        static let expiredProviderToken = Answer(status: 403, reason: "ExpiredProviderToken")
    }

    let port: Int
    /// The certificate's PEM, for `LATCH_APNS_CA_FILE`.
    let certificatePEM: String
    private let recorder: Recorder
    private let channel: any Channel

    /// `host:port` for `LATCH_APNS_HOST`.
    var host: String { "localhost:\(port)" }

    private init(port: Int, certificatePEM: String, recorder: Recorder, channel: any Channel) {
        self.port = port
        self.certificatePEM = certificatePEM
        self.recorder = recorder
        self.channel = channel
    }

    /// Starts the stand-in, trusting provider tokens signed by `publicKey` for `keyID` and `teamID`.
    static func start(
        publicKey: P256.Signing.PublicKey, keyID: String, teamID: String, now: @escaping @Sendable () -> Date
    ) async throws -> APNsStandIn {
        let certificate = try TestCertificate()
        var tls = TLSConfiguration.makeServerConfiguration(
            certificateChain: [.certificate(certificate.certificate)], privateKey: .privateKey(certificate.privateKey))
        tls.applicationProtocols = ["h2"]
        let context = try NIOSSLContext(configuration: tls)
        let recorder = Recorder(publicKey: publicKey, keyID: keyID, teamID: teamID, now: now)
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: context))
                }.flatMap {
                    channel.configureHTTP2Pipeline(mode: .server) { stream in
                        stream.eventLoop.makeCompletedFuture {
                            try stream.pipeline.syncOperations.addHandlers(
                                HTTP2FramePayloadToHTTP1ServerCodec(), StreamHandler(recorder: recorder))
                        }
                    }.map { _ in }
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        guard let port = channel.localAddress?.port else { throw StandInError.noPort }
        return APNsStandIn(port: port, certificatePEM: certificate.pem, recorder: recorder, channel: channel)
    }

    enum StandInError: Error { case noPort, timedOut(Int) }

    /// The next requests (with a valid provider token) get these answers, in order; then 200 again.
    func answer(_ answers: Answer...) { recorder.state.withLock { $0.answers += answers } }

    /// Every request so far.
    var received: [Request] { recorder.state.withLock { $0.requests } }

    /// Waits until at least `count` requests came (10 s at most).
    func waitForRequests(_ count: Int, within seconds: Double = 10) async throws -> [Request] {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            let requests = received
            if requests.count >= count { return requests }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw StandInError.timedOut(received.count)
    }

    func stop() async throws { try await channel.close() }

    /// base64url text as bytes.
    static func decoded(_ text: Substring) -> Data? { Base64URL.decode(String(text)).map { Data($0) } }

    /// The checks and the record, shared by every stream.
    final class Recorder: Sendable {
        struct State {
            var requests: [Request] = []
            var answers: [Answer] = []
        }

        let state = Mutex(State())
        let publicKey: P256.Signing.PublicKey
        let keyID: String
        let teamID: String
        let now: @Sendable () -> Date

        init(publicKey: P256.Signing.PublicKey, keyID: String, teamID: String, now: @escaping @Sendable () -> Date) {
            self.publicKey = publicKey
            self.keyID = keyID
            self.teamID = teamID
            self.now = now
        }

        /// Records `head` and `body` and says how to answer.
        func handle(_ head: HTTPRequestHead, body: Data) -> Answer {
            var headers: [String: String] = [:]
            for (name, value) in head.headers { headers[name.lowercased()] = value }
            let verdict = check(headers["authorization"])
            let request = Request(
                path: head.uri, headers: headers, body: body, version: head.version, providerTokenValid: verdict == nil)
            return state.withLock { state in
                state.requests.append(request)
                if let verdict { return verdict }
                guard head.method == .POST, head.uri.hasPrefix("/3/device/") else {
                    return Answer(status: 405, reason: "MethodNotAllowed")
                }
                return state.answers.isEmpty ? Answer(status: 200, reason: nil) : state.answers.removeFirst()
            }
        }

        /// nil for a good provider token, else APNs' answer to it.
        func check(_ authorization: String?) -> Answer? {
            let invalid = Answer(status: 403, reason: "InvalidProviderToken")
            guard let authorization, authorization.hasPrefix("bearer ") else {
                return Answer(status: 403, reason: "MissingProviderToken")
            }
            let parts = authorization.dropFirst("bearer ".count).split(separator: ".", omittingEmptySubsequences: false)
            guard parts.count == 3, let headerData = APNsStandIn.decoded(parts[0]),
                let claimsData = APNsStandIn.decoded(parts[1]),
                let signatureData = APNsStandIn.decoded(parts[2]),
                let header = (try? JSONSerialization.jsonObject(with: headerData)) as? [String: Any],
                let claims = (try? JSONSerialization.jsonObject(with: claimsData)) as? [String: Any],
                let signature = try? P256.Signing.ECDSASignature(rawRepresentation: signatureData)
            else { return invalid }
            let signingInput = Data("\(parts[0]).\(parts[1])".utf8)
            guard publicKey.isValidSignature(signature, for: signingInput), header["alg"] as? String == "ES256",
                header["kid"] as? String == keyID, claims["iss"] as? String == teamID,
                let issuedAt = (claims["iat"] as? NSNumber)?.doubleValue
            else { return invalid }
            let age = now().timeIntervalSince1970 - issuedAt
            guard age <= 3600 else { return Answer(status: 403, reason: "ExpiredProviderToken") }
            guard age >= -60 else { return invalid }
            return nil
        }
    }

    /// One HTTP/2 stream, as HTTP/1 parts (`HTTP2FramePayloadToHTTP1ServerCodec`).
    final class StreamHandler: ChannelInboundHandler {
        typealias InboundIn = HTTPServerRequestPart
        typealias OutboundOut = HTTPServerResponsePart

        private let recorder: Recorder
        private var head: HTTPRequestHead?
        private var body = Data()

        init(recorder: Recorder) { self.recorder = recorder }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            switch unwrapInboundIn(data) {
            case .head(let head): self.head = head
            case .body(let buffer): body.append(contentsOf: buffer.readableBytesView)
            case .end:
                guard let head else { return }
                let answer = recorder.handle(head, body: body)
                var headers = HTTPHeaders([("apns-id", UUID().uuidString)])
                var payload = context.channel.allocator.buffer(capacity: 64)
                if let reason = answer.reason {
                    headers.add(name: "content-type", value: "application/json")
                    payload.writeString(#"{"reason":"\#(reason)"}"#)
                }
                let status = HTTPResponseStatus(statusCode: answer.status)
                context.write(
                    wrapOutboundOut(.head(HTTPResponseHead(version: head.version, status: status, headers: headers))),
                    promise: nil)
                if payload.readableBytes > 0 {
                    context.write(wrapOutboundOut(.body(.byteBuffer(payload))), promise: nil)
                }
                context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
            }
        }
    }
}
