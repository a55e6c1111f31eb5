import Foundation
import NIOCore
import NIOPosix
import NIOSSL
import Synchronization

/// The test suite's own SMTP server (RFC 5321) on SwiftNIO, on 127.0.0.1 and a port the kernel picks:
/// EHLO/HELO, STARTTLS and implicit TLS with a certificate made in code (`TestCertificate`), AUTH PLAIN
/// and LOGIN, MAIL/RCPT/DATA with dot-stuffing undone, RSET, NOOP, QUIT; and the misbehaviours the
/// delivery tests need (`SMTPSinkOptions`). It keeps what it received in memory for assertions.
/// `swift test` needs nothing but Swift for it (issue 22 §7); `.ci/run` also runs the mail suites
/// against aiosmtpd, an independent implementation (`LATCH_TEST_SMTP_SINK=aiosmtpd`).
final class SwiftSMTPServer: Sendable {
    let port: Int
    /// The certificate in PEM when the server speaks TLS.
    let certificatePEM: String?
    private let serverChannel: any Channel
    private let record: SMTPSinkRecord

    static func start(_ options: SMTPSinkOptions) async throws -> SwiftSMTPServer {
        let certificate = options.usesTLS ? try TestCertificate(subjectAltNames: options.subjectAltNames) : nil
        let tls = try certificate?.serverContext()
        let record = SMTPSinkRecord(failuresLeft: options.failFirst)
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let pipeline = channel.pipeline.syncOperations
                    if options.implicitTLS, let tls { try pipeline.addHandler(NIOSSLServerHandler(context: tls)) }
                    try pipeline.addHandler(ByteToMessageHandler(SMTPLineDecoder()))
                    try pipeline.addHandler(SMTPSessionHandler(options: options, record: record, tls: tls))
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        guard let port = channel.localAddress?.port else {
            try? await channel.close()
            throw SMTPSinkError.didNotStart("no local port")
        }
        return SwiftSMTPServer(port: port, certificatePEM: certificate?.pem, channel: channel, record: record)
    }

    private init(port: Int, certificatePEM: String?, channel: any Channel, record: SMTPSinkRecord) {
        self.port = port
        self.certificatePEM = certificatePEM
        self.serverChannel = channel
        self.record = record
    }

    /// Stops listening and closes every connection.
    func stop() {
        serverChannel.close(promise: nil)
        for channel in record.openChannels() { channel.close(promise: nil) }
    }

    var messages: [ReceivedMail] { record.state.withLock { $0.messages } }
    var attempts: [String] { record.state.withLock { $0.attempts } }
    var connections: Int { record.state.withLock { $0.connections } }
    var openConnections: Int { record.state.withLock { $0.open.count } }
}

/// What every connection of one server shares: the messages, the DATA outcomes, the failures still to give.
final class SMTPSinkRecord: Sendable {
    struct State {
        var messages: [ReceivedMail] = []
        var attempts: [String] = []
        var failuresLeft: Int
        var connections = 0
        var open: [ObjectIdentifier: any Channel] = [:]
    }
    let state: Mutex<State>

    init(failuresLeft: Int) { state = Mutex(State(failuresLeft: failuresLeft)) }

    func connected(_ channel: any Channel) {
        state.withLock {
            $0.connections += 1
            $0.open[ObjectIdentifier(channel)] = channel
        }
    }

    func disconnected(_ channel: any Channel) {
        _ = state.withLock { $0.open.removeValue(forKey: ObjectIdentifier(channel)) }
    }

    func openChannels() -> [any Channel] { state.withLock { Array($0.open.values) } }

    /// Takes one of the failures the server was told to give, if any are left.
    func takeFailure() -> Bool {
        state.withLock { state in
            guard state.failuresLeft > 0 else { return false }
            state.failuresLeft -= 1
            return true
        }
    }

    func attempted(_ outcome: String, message: ReceivedMail? = nil) {
        state.withLock { state in
            if let message { state.messages.append(message) }
            state.attempts.append(outcome)
        }
    }
}

enum SMTPSinkError: Error, CustomStringConvertible {
    case didNotStart(String)
    case timedOut(String)
    var description: String {
        switch self {
        case .didNotStart(let output): "the SMTP sink did not start: \(output)"
        case .timedOut(let what): "timed out waiting for \(what)"
        }
    }
}

/// Splits the stream into lines (CRLF or LF), without the line end.
struct SMTPLineDecoder: ByteToMessageDecoder {
    typealias InboundOut = ByteBuffer

    mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
        guard let newline = buffer.readableBytesView.firstIndex(of: UInt8(ascii: "\n")) else { return .needMoreData }
        var line = buffer.readSlice(length: newline - buffer.readerIndex)!
        buffer.moveReaderIndex(forwardBy: 1)
        if line.readableBytesView.last == UInt8(ascii: "\r") { line.moveWriterIndex(to: line.writerIndex - 1) }
        context.fireChannelRead(wrapInboundOut(line))
        return .continue
    }
}

/// One SMTP session: the server's side of the dialogue, one line at a time.
final class SMTPSessionHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private enum Waiting {
        case command
        case plainCredentials
        case loginUser
        case loginPassword(user: String)
        case data([String])
        case nothing // stalled or silent: every line is ignored
    }

    private let options: SMTPSinkOptions
    private let record: SMTPSinkRecord
    private let tls: NIOSSLContext?
    private var encrypted: Bool
    private var authenticated: ReceivedMail.Auth?
    private var mailFrom: String?
    private var recipients: [String] = []
    private var waiting = Waiting.command

    init(options: SMTPSinkOptions, record: SMTPSinkRecord, tls: NIOSSLContext?) {
        self.options = options
        self.record = record
        self.tls = tls
        self.encrypted = options.implicitTLS
    }

    func channelActive(context: ChannelHandlerContext) {
        record.connected(context.channel)
        if options.silent {
            waiting = .nothing
        } else {
            reply("220 localhost ESMTP latch test sink", context)
        }
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        record.disconnected(context.channel)
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil) // e.g. a client that refused the certificate
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let line = String(buffer: unwrapInboundIn(data))
        switch waiting {
        case .nothing: return
        case .data(var lines):
            if line == "." {
                endOfData(lines, context)
            } else {
                lines.append(line.hasPrefix(".") ? String(line.dropFirst()) : line)
                waiting = .data(lines)
            }
        case .plainCredentials:
            waiting = .command
            checkPlain(line, context)
        case .loginUser:
            waiting = .loginPassword(user: Self.fromBase64(line) ?? "")
            reply("334 UGFzc3dvcmQ6", context)
        case .loginPassword(let user):
            waiting = .command
            check(user: user, password: Self.fromBase64(line) ?? "", mechanism: "LOGIN", context)
        case .command:
            command(line, context)
        }
    }

    private func command(_ line: String, _ context: ChannelHandlerContext) {
        let verb = line.prefix { $0 != " " }.uppercased()
        let argument = line.drop { $0 != " " }.trimmingCharacters(in: .whitespaces)
        switch verb {
        case "EHLO":
            var lines = ["localhost", "SIZE 33554432", "8BITMIME", "SMTPUTF8"]
            if options.startTLS, !encrypted { lines.append("STARTTLS") }
            if options.auth != nil, encrypted || !options.startTLS {
                lines.append(options.onlyLogin ? "AUTH LOGIN" : "AUTH LOGIN PLAIN")
            }
            lines.append("HELP")
            reply(lines.enumerated().map { "250\($0.offset == lines.count - 1 ? " " : "-")\($0.element)" }, context)
        case "HELO":
            reply("250 localhost", context)
        case "STARTTLS":
            guard options.startTLS, !encrypted, let tls else { return reply("454 4.7.0 TLS not available", context) }
            reply("220 2.0.0 Ready to start TLS", context)
            do {
                try context.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: tls), position: .first)
                encrypted = true
                resetEnvelope()
                authenticated = nil
            } catch {
                context.close(promise: nil)
            }
        case "AUTH":
            auth(argument, context)
        case "MAIL":
            if options.startTLS, !encrypted { return reply("530 5.7.0 Must issue a STARTTLS command first", context) }
            if options.auth != nil, authenticated == nil { return reply("530 5.7.0 Authentication required", context) }
            guard argument.uppercased().hasPrefix("FROM:") else {
                return reply("501 Syntax: MAIL FROM: <address>", context)
            }
            mailFrom = Self.address(in: argument)
            recipients = []
            reply("250 OK", context)
        case "RCPT":
            guard mailFrom != nil else { return reply("503 Error: need MAIL command", context) }
            guard argument.uppercased().hasPrefix("TO:") else {
                return reply("501 Syntax: RCPT TO: <address>", context)
            }
            recipients.append(Self.address(in: argument))
            reply("250 OK", context)
        case "DATA":
            guard mailFrom != nil, !recipients.isEmpty else { return reply("503 Error: need RCPT command", context) }
            waiting = .data([])
            reply("354 End data with <CR><LF>.<CR><LF>", context)
        case "RSET":
            resetEnvelope()
            reply("250 OK", context)
        case "NOOP":
            reply("250 OK", context)
        case "QUIT":
            let channel = context.channel
            context.writeAndFlush(wrapOutboundOut(ByteBuffer(string: "221 Bye\r\n"))).whenComplete { _ in
                channel.close(promise: nil)
            }
        default:
            reply("500 Error: command \"\(verb)\" not recognized", context)
        }
    }

    private func auth(_ argument: String, _ context: ChannelHandlerContext) {
        guard options.auth != nil else { return reply("500 Error: command \"AUTH\" not recognized", context) }
        guard encrypted || !options.startTLS else { return reply("538 5.7.11 Encryption required", context) }
        guard authenticated == nil else { return reply("503 Already authenticated", context) }
        let words = argument.split(separator: " ").map(String.init)
        switch words.first?.uppercased() {
        case "PLAIN" where !options.onlyLogin:
            if words.count > 1 {
                checkPlain(words[1], context)
            } else {
                waiting = .plainCredentials
                reply("334 ", context)
            }
        case "LOGIN":
            if words.count > 1 {
                waiting = .loginPassword(user: Self.fromBase64(words[1]) ?? "")
                reply("334 UGFzc3dvcmQ6", context)
            } else {
                waiting = .loginUser
                reply("334 VXNlcm5hbWU6", context)
            }
        default:
            reply("504 5.5.4 Unrecognized authentication type", context)
        }
    }

    /// `\0user\0password` (an authorization identity before the first NUL is ignored).
    private func checkPlain(_ token: String, _ context: ChannelHandlerContext) {
        let fields = (Self.fromBase64(token) ?? "").split(separator: "\0", omittingEmptySubsequences: false)
        guard fields.count == 3 else { return reply("501 5.5.2 Can't decode base64", context) }
        check(user: String(fields[1]), password: String(fields[2]), mechanism: "PLAIN", context)
    }

    private func check(user: String, password: String, mechanism: String, _ context: ChannelHandlerContext) {
        guard let expected = options.auth, expected.user == user, expected.password == password else {
            return reply("535 5.7.8 Authentication credentials invalid", context)
        }
        authenticated = ReceivedMail.Auth(mechanism: mechanism, login: user)
        reply("235 2.7.0 Authentication successful", context)
    }

    private func endOfData(_ lines: [String], _ context: ChannelHandlerContext) {
        let raw = lines.map { $0 + "\r\n" }.joined()
        if options.stallData {
            waiting = .nothing
            record.attempted("stalled")
            return
        }
        waiting = .command
        defer { resetEnvelope() }
        if record.takeFailure() {
            record.attempted("refused \(options.failCode)")
            return reply("\(options.failCode) \(options.failCode < 500 ? "try again later" : "refused")", context)
        }
        let mail = ReceivedMail(
            raw: raw, mailFrom: mailFrom ?? "", recipients: recipients, tls: encrypted, auth: authenticated)
        record.attempted("accepted", message: mail)
        reply("250 OK", context)
    }

    private func resetEnvelope() {
        mailFrom = nil
        recipients = []
    }

    private func reply(_ line: String, _ context: ChannelHandlerContext) { reply([line], context) }

    private func reply(_ lines: [String], _ context: ChannelHandlerContext) {
        context.writeAndFlush(wrapOutboundOut(ByteBuffer(string: lines.map { $0 + "\r\n" }.joined())), promise: nil)
    }

    /// The address between `<` and `>` of `FROM:<a@b> SIZE=1`, or what follows the colon.
    static func address(in argument: String) -> String {
        let afterColon = argument.drop { $0 != ":" }.dropFirst().trimmingCharacters(in: .whitespaces)
        if let open = afterColon.firstIndex(of: "<"), let close = afterColon.firstIndex(of: ">"), open < close {
            return String(afterColon[afterColon.index(after: open)..<close])
        }
        return String(afterColon.prefix { $0 != " " })
    }

    static func fromBase64(_ text: String) -> String? {
        Data(base64Encoded: text.trimmingCharacters(in: .whitespaces)).map { String(decoding: $0, as: UTF8.self) }
    }
}
