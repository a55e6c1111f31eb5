import Foundation
import Testing

@testable import LatchClient

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Fakes latchd's socket: a one-request-per-connection HTTP/1.1 server on 127.0.0.1 that answers with `respond(head, body)`.
final class LoopbackHTTPServer: Sendable {
    typealias Responder =
        @Sendable (_ head: String, _ body: Data) -> (status: Int, headers: [String: String], body: Data)

    let port: UInt16
    private let listener: Int32

    init(respond: @escaping Responder) throws {
        #if canImport(Glibc)
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { throw POSIXError(.EIO) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let size = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, size) }
        }
        guard bound == 0, listen(descriptor, 16) == 0 else {
            close(descriptor)
            throw POSIXError(.EADDRINUSE)
        }
        var actual = sockaddr_in()
        var length = size
        _ = withUnsafeMutablePointer(to: &actual) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        port = UInt16(bigEndian: actual.sin_port)
        listener = descriptor
        // The thread ends when `stop()` shuts the listening socket down and `accept` fails; only then
        // does it close the descriptor. (Closed by `stop()` instead, its number could be reused by
        // another test's new listener at once, and this thread would accept that server's
        // connections and answer them with this server's responder.)
        let thread = Thread {
            while true {
                let connection = accept(descriptor, nil, nil)
                guard connection >= 0 else {
                    close(descriptor)
                    return
                }
                Self.serve(connection, respond)
                close(connection)
            }
        }
        thread.start()
    }

    func stop() {
        _ = shutdown(listener, Int32(SHUT_RDWR))
    }

    private static func serve(_ connection: Int32, _ respond: Responder) {
        var received = Data()
        var buffer = [UInt8](repeating: 0, count: 4096)
        var head: String?
        var expected = 0
        while true {
            if let head, received.count >= expected {
                let answer = respond(head, received.prefix(expected))
                var text =
                    "HTTP/1.1 \(answer.status) X\r\nContent-Length: \(answer.body.count)\r\nConnection: close\r\n"
                for (name, value) in answer.headers { text += "\(name): \(value)\r\n" }
                let bytes = Data((text + "\r\n").utf8) + answer.body
                _ = bytes.withUnsafeBytes { send(connection, $0.baseAddress, $0.count, 0) }
                return
            }
            let count = buffer.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { return }
            received.append(contentsOf: buffer[0..<count])
            if head == nil, let end = received.firstRange(of: Data("\r\n\r\n".utf8)) {
                let text = String(decoding: received[..<end.lowerBound], as: UTF8.self)
                head = text
                received = Data(received[end.upperBound...])
                for line in text.split(separator: "\r\n") where line.lowercased().hasPrefix("content-length:") {
                    expected = Int(line.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) ?? 0
                }
            }
        }
    }
}
