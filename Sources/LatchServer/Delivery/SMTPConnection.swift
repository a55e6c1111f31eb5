import NIOCore
import NIOPosix
import NIOSSL

/// One TCP connection to an SMTP server, as async commands with a timeout each.
/// The channel's pipeline: [TLS] → reply decoder → `SMTPReplyHandler`; STARTTLS inserts TLS first.
struct SMTPConnection: Sendable {
    let channel: any Channel
    private let handler: NIOLoopBound<SMTPReplyHandler>
    private let stepTimeout: TimeAmount

    /// Connects to the configured server (with TLS at once for `smtps://`).
    static func open(_ configuration: SMTPConfiguration, tls: NIOSSLContext?, group: any EventLoopGroup) async throws
        -> SMTPConnection
    {
        let implicitTLS = configuration.security == .implicitTLS ? tls : nil
        let serverHostname = configuration.serverHostname
        let channel: any Channel
        do {
            channel = try await ClientBootstrap(group: group)
                .connectTimeout(configuration.connectTimeout)
                .channelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        let pipeline = channel.pipeline.syncOperations
                        if let implicitTLS {
                            try pipeline.addHandler(
                                NIOSSLClientHandler(context: implicitTLS, serverHostname: serverHostname))
                        }
                        try pipeline.addHandler(ByteToMessageHandler(SMTPReplyDecoder()))
                        try pipeline.addHandler(SMTPReplyHandler())
                    }
                }
                .connect(host: configuration.host, port: configuration.port).get()
        } catch {
            throw SMTPError.connection(Self.name(of: error))
        }
        let handler: NIOLoopBound<SMTPReplyHandler>
        do {
            handler = try await channel.eventLoop.submit {
                NIOLoopBound(
                    try channel.pipeline.syncOperations.handler(type: SMTPReplyHandler.self),
                    eventLoop: channel.eventLoop)
            }.get()
        } catch {
            // The pipeline is already torn down: the connection closed at once (e.g. a refused TLS handshake).
            throw SMTPError.connection("connection closed")
        }
        return SMTPConnection(channel: channel, handler: handler, stepTimeout: configuration.stepTimeout)
    }

    private init(channel: any Channel, handler: NIOLoopBound<SMTPReplyHandler>, stepTimeout: TimeAmount) {
        self.channel = channel
        self.handler = handler
        self.stepTimeout = stepTimeout
    }

    /// The next reply (the greeting, or the answer to what was just written); `step` names it in errors.
    func reply(to step: String) async throws -> SMTPReply {
        let loop = channel.eventLoop
        let promise = loop.makePromise(of: SMTPReply.self)
        let (handler, channel, timeout) = (self.handler, self.channel, self.stepTimeout)
        loop.execute {
            handler.value.awaitReply(promise)
            let timer = loop.scheduleTask(in: timeout) {
                handler.value.fail(.timeout(step: step))
                channel.close(promise: nil)
            }
            promise.futureResult.whenComplete { _ in timer.cancel() }
        }
        return try await promise.futureResult.get()
    }

    /// Writes `line` and CRLF, then waits for the reply.
    func command(_ line: String, step: String) async throws -> SMTPReply {
        try await write(ByteBuffer(string: line + "\r\n"))
        return try await reply(to: step)
    }

    /// Writes raw bytes (the message body) without waiting for a reply.
    func write(_ bytes: ByteBuffer) async throws {
        do {
            try await channel.writeAndFlush(bytes)
        } catch {
            throw error as? SMTPError ?? SMTPError.connection(Self.name(of: error))
        }
    }

    /// Puts TLS in front of the pipeline (after the server's 220 to STARTTLS). The handshake runs
    /// with the next write; a failed handshake fails the next reply.
    func startTLS(_ context: NIOSSLContext, serverHostname: String?) async throws {
        let channel = self.channel
        try await channel.eventLoop.submit {
            let tls = try NIOSSLClientHandler(context: context, serverHostname: serverHostname)
            try channel.pipeline.syncOperations.addHandler(tls, position: .first)
        }.get()
    }

    func close() async {
        try? await channel.close()
    }

    /// A short name for a low-level error, safe to log.
    static func name(of error: any Error) -> String {
        if let error = error as? NIOSSLError { return "TLS: \(error)" }
        // E.g. a certificate that does not name the host (or, for an IP host, its address).
        if let error = error as? NIOSSLExtraError { return "TLS: \(error)" }
        if let error = error as? IOError { return "I/O: \(error.errnoCode)" }
        return String(describing: type(of: error))
    }
}
