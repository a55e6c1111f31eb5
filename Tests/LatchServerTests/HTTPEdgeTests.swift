import Foundation
import LatchCore
import LatchTestSupport
import Logging
import NIOCore
import NIOHTTP1
import Testing

@testable import LatchServer

/// Issue 41 §3, the HTTP edge: framing a client gets wrong is the client's error (E1), every body is read
/// one way only (strict JSON), and one client cannot hold the listener (E-X1, in process; the real latchd
/// under a lowered open-file limit is `FileDescriptorFloodTests`).
@Suite("The HTTP edge: framing, strict JSON, connection limits and deadlines (issue 41 §3)")
struct HTTPEdgeTests {
    static func port(_ server: TestServer) throws -> Int { try #require(URL(string: server.baseURL)?.port) }

    /// A POST to `/v1/token` with `headers` and the raw `rest` (body and framing) on a connection of its own;
    /// the connection once latchd answered and closed it.
    static func post(_ port: Int, headers: String, rest: String) async throws -> RawConnection {
        let connection = try await RawConnection.open(port: port)
        try await connection.send(
            "POST /v1/token HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n\(headers)\r\n\(rest)")
        _ = await connection.closes(within: .seconds(30))
        await connection.close()
        return connection
    }

    static func errorBody(_ connection: RawConnection) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(connection.body.utf8))) as? [String: Any] ?? [:]
    }

    // MARK: E1

    @Test(
        "41 §3 E1 an unknown Transfer-Encoding is 501 MALFORMED_BODY (unsupported_transfer_coding), logged below error level; a broken chunk is 400"
    )
    func test_41_3_unknownTransferCodingIsAClientError() async throws {
        let log = LogCapture()
        try await withServer(.sqlite, logger: Logger(label: "latchd", factory: { _ in log })) { server in
            let port = try Self.port(server)
            let gzip = try await Self.post(port, headers: "Transfer-Encoding: gzip\r\n", rest: "\u{1F}\u{8B}abc")
            let gzipThenChunked = try await Self.post(
                port, headers: "Transfer-Encoding: gzip, chunked\r\n", rest: "3\r\nabc\r\n0\r\n\r\n")
            let brokenChunk = try await Self.post(
                port, headers: "Transfer-Encoding: chunked\r\nConnection: close\r\n", rest: "zz\r\nabc\r\n0\r\n\r\n")

            for refused in [gzip, gzipThenChunked] {
                #expect(refused.status == 501, "\(refused.received)")
                #expect(Self.errorBody(refused)["error"] as? String == "MALFORMED_BODY", "\(refused.body)")
                #expect(Self.errorBody(refused)["reasons"] as? [String] == ["unsupported_transfer_coding"])
                #expect(refused.isClosed, "nothing after a body of unknown length is read as a request")
            }
            #expect(brokenChunk.status == 400, "\(brokenChunk.received)")
            #expect(Self.errorBody(brokenChunk)["reasons"] as? [String] == ["malformed_framing"], "\(brokenChunk.body)")
            let errorLines = log.text.split(separator: "\n").filter { $0.hasPrefix("error") }
            #expect(errorLines.isEmpty, "no error line for the client's framing: \(errorLines)")
        }
    }

    @Test(
        "41 §3 E1 a framing error in a request's head (Content-Length with Transfer-Encoding, a bad Content-Length) is 400 MALFORMED_BODY in the error format"
    )
    func test_41_3_framingErrorInTheHeadIsAnsweredInTheErrorFormat() async throws {
        let log = LogCapture()
        try await withServer(.sqlite, logger: Logger(label: "latchd", factory: { _ in log })) { server in
            let port = try Self.port(server)
            let both = try await Self.post(
                port, headers: "Content-Length: 5\r\nTransfer-Encoding: chunked\r\n", rest: "0\r\n\r\n")
            let badLength = try await Self.post(port, headers: "Content-Length: 1x\r\n", rest: "{}")

            for refused in [both, badLength] {
                #expect(refused.status == 400, "\(refused.received)")
                #expect(Self.errorBody(refused)["error"] as? String == "MALFORMED_BODY", "\(refused.received)")
                #expect(Self.errorBody(refused)["reasons"] as? [String] == ["malformed_framing"])
                #expect(refused.received.contains("X-Content-Type-Options: nosniff"), "\(refused.received)")
                #expect(refused.isClosed)
            }
            let errorLines = log.text.split(separator: "\n").filter { $0.hasPrefix("error") }
            #expect(errorLines.isEmpty, "\(errorLines)")
        }
    }

    // MARK: Strict JSON

    @Test(
        "41 §3 JSON_duplicateKeys a body naming a key twice (also nested, also spelled with an escape) is 400 MALFORMED_BODY duplicate_key",
        arguments: TestDatabase.all)
    func test_41_3_duplicateKeysAreRefused(database: TestDatabase) async throws {
        try await withServer(database) { server in
            try await server.signUp()
            let twoGrants =
                #"{"grant_type":"password","grant_type":"refresh_token","email":"alice@example.com","password":"Correct-Horse-9","device":{"id":"test-device-0"}}"#
            let escaped =
                #"{"grant_type":"password","grant\u005ftype":"refresh_token","email":"alice@example.com","password":"Correct-Horse-9","device":{"id":"test-device-0"}}"#
            let nested =
                #"{"grant_type":"password","email":"alice@example.com","password":"Correct-Horse-9","device":{"id":"test-device-0","id":"other"}}"#
            let distinct =
                #"{"grant_type":"password","email":"alice@example.com","password":"Correct-Horse-9","device":{"id":"test-device-0"}}"#

            let answers = [
                try await server.send(.POST, "/v1/token", body: twoGrants),
                try await server.send(.POST, "/v1/token", body: escaped),
                try await server.send(.POST, "/v1/token", body: nested)
            ]
            let accepted = try await server.send(.POST, "/v1/token", body: distinct)

            for (answer, field) in zip(answers, ["grant_type", "grant_type", "device.id"]) {
                #expect(answer.status == 400 && answer.errorCode == "MALFORMED_BODY", "\(answer.text)")
                #expect(answer.errorBody?.details.reasons == ["duplicate_key"], "\(answer.text)")
                #expect(answer.errorBody?.details.field == field, "\(answer.text)")
            }
            #expect(accepted.status == 200, "the same body without the duplicate signs in: \(accepted.text)")
        }
    }

    @Test(
        "41 §3 JSON_duplicateKeys the scanner: per object, through arrays, canonically equal keys, a depth cap, linear")
    func test_41_3_duplicateKeysScanner() {
        func refusal(_ text: String) -> StrictJSONBody.Refusal? { StrictJSONBody.refusal(of: Array(text.utf8)) }

        #expect(refusal(#"{"a":1,"b":{"a":2},"c":[{"a":3},{"a":4}]}"#) == nil, "the same key in other objects is fine")
        #expect(refusal(#"{"a":1,"b":{"c":[{"d":1,"d":2}]}}"#) == .duplicateKey("b.c.d"))
        #expect(refusal(#"{"a":"x\"y","a\"":1}"#) == nil, "an escaped quote does not end a key")
        #expect(refusal(#"{"a":"{\"a\":1}","a":2}"#) == .duplicateKey("a"), "braces in a string are text")
        #expect(refusal(#"{"caf\u00e9":1,"cafe\u0301":2}"#) == .duplicateKey("café"), "as Swift compares keys")
        #expect(refusal(#"{"\ud83d\ude00":1,"😀":2}"#) == .duplicateKey("😀"), "a surrogate pair is its character")
        #expect(refusal(#"{"\ud83d":1}"#) == .malformed, "half a surrogate pair")
        #expect(refusal(String(repeating: "[", count: 32) + String(repeating: "]", count: 32)) == nil)
        #expect(refusal(String(repeating: "[", count: 33) + String(repeating: "]", count: 33)) == .tooDeep)
        #expect(refusal(#"{"a":1"#) == .malformed)
        // 64 KiB of distinct keys is one pass: well under a second even in a debug build on a loaded machine.
        let many = "{" + (0..<6000).map { #""k\#($0)":1"# }.joined(separator: ",") + "}"
        let started = ContinuousClock.now
        #expect(refusal(many) == nil)
        #expect(ContinuousClock.now - started < .seconds(2), "\(ContinuousClock.now - started)")
    }

    @Test(
        "41 §3 JSON_utf16 a body in UTF-16 or UTF-32 (with or without a byte order mark), with a UTF-8 BOM or invalid UTF-8 is 400 MALFORMED_BODY not_utf8",
        arguments: TestDatabase.all)
    func test_41_3_utf16BodiesAreRefused(database: TestDatabase) async throws {
        try await withServer(database) { server in
            try await server.signUp()
            let body =
                #"{"grant_type":"password","email":"alice@example.com","password":"Correct-Horse-9","device":{"id":"test-device-0"}}"#
            let encodings: [(String, [UInt8])] = [
                ("UTF-16LE", Array(body.data(using: .utf16LittleEndian)!)),
                ("UTF-16BE", Array(body.data(using: .utf16BigEndian)!)),
                ("UTF-16 with BOM", [0xFF, 0xFE] + Array(body.data(using: .utf16LittleEndian)!)),
                ("UTF-32LE", Array(body.data(using: .utf32LittleEndian)!)),
                ("UTF-8 with BOM", [0xEF, 0xBB, 0xBF] + Array(body.utf8)),
                ("invalid UTF-8", Array(body.utf8.prefix(40)) + [0xC3, 0x28] + Array(body.utf8.dropFirst(40)))
            ]

            for (name, bytes) in encodings {
                let answer = try await server.send(.POST, "/v1/token", bytes: bytes)

                #expect(answer.status == 400 && answer.errorCode == "MALFORMED_BODY", "\(name): \(answer.text)")
                #expect(answer.errorBody?.details.reasons == ["not_utf8"], "\(name): \(answer.text)")
            }
            let plain = try await server.send(.POST, "/v1/token", bytes: Array(body.utf8))
            #expect(plain.status == 200, "the same body in UTF-8 signs in: \(plain.text)")
        }
    }

    // MARK: E-X1 in process

    @Test(
        "41 §3 EX1 beyond LATCH_MAX_CONNECTIONS_PER_ADDRESS a client's connections are closed at once; another address is served meanwhile"
    )
    func test_41_3_perAddressCapLeavesRoomForOthers() async throws {
        try await withServer(
            .sqlite,
            adjust: {
                $0.connections.maximumConnections = 100
                $0.connections.maximumConnectionsPerAddress = 4
            }
        ) { server in
            let port = try Self.port(server)
            var flood: [RawConnection] = []
            for _ in 0..<10 { flood.append(try await RawConnection.open(port: port)) }
            let held = flood

            let sixClosed = try await eventually { held.filter(\.isClosed).count == 6 }
            let other = await RawConnection.health(port: port, from: "127.0.0.2")
            let sameWhileFull = await RawConnection.health(port: port, within: .seconds(5))
            for connection in held { await connection.close() }
            let sameAfter = try await eventually { await RawConnection.health(port: port) == 200 }

            #expect(sixClosed, "four of ten are kept: \(held.filter(\.isClosed).count) closed")
            #expect(other == 200, "127.0.0.2 is served while 127.0.0.1 holds its four")
            #expect(sameWhileFull == nil, "a fifth from 127.0.0.1 is closed unanswered")
            #expect(sameAfter, "once its connections close, 127.0.0.1 is served again")
        }
    }

    @Test("41 §3 EX1 beyond LATCH_MAX_CONNECTIONS in total a new connection is closed at once, from any address")
    func test_41_3_totalCapHolds() async throws {
        try await withServer(
            .sqlite,
            adjust: {
                $0.connections.maximumConnections = 6
                $0.connections.maximumConnectionsPerAddress = 3
            }
        ) { server in
            let port = try Self.port(server)
            var held: [RawConnection] = []
            for source in ["127.0.0.1", "127.0.0.2", "127.0.0.3"] {
                for _ in 0..<2 { held.append(try await RawConnection.open(port: port, from: source)) }
            }
            let list = held
            try await Task.sleep(for: .milliseconds(300)) // all six admitted and counted

            let seventh = await RawConnection.health(port: port, from: "127.0.0.4", within: .seconds(5))
            let closedMeanwhile = list.filter(\.isClosed).count
            for connection in list { await connection.close() }
            let afterwards = try await eventually { await RawConnection.health(port: port, from: "127.0.0.4") == 200 }

            #expect(closedMeanwhile == 0, "the six within the caps stay open")
            #expect(seventh == nil, "a seventh is closed unanswered")
            #expect(afterwards)
        }
    }

    @Test(
        "41 §3 EX1 a head trickled byte by byte is cut at LATCH_HEADER_TIMEOUT_SECONDS, not kept for the idle timeout")
    func test_41_3_trickledHeadIsCut() async throws {
        try await withServer(
            .sqlite,
            adjust: {
                $0.idleTimeoutSeconds = 3600
                $0.connections.headerTimeoutSeconds = 1
            }
        ) { server in
            let port = try Self.port(server)
            let slow = try await RawConnection.open(port: port)
            let started = ContinuousClock.now

            // One byte every 100 ms for up to 60 s: the idle timer never sees silence.
            for byte in Array("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Pad: ".utf8)
                + Array(repeating: 0x61, count: 600)
            {
                guard !slow.isClosed, (try? await slow.send([byte])) != nil else { break }
                try await Task.sleep(for: .milliseconds(100))
            }
            let cutAfter = ContinuousClock.now - started
            await slow.close()

            #expect(slow.isClosed && cutAfter < .seconds(30), "cut after \(cutAfter)")
            #expect(cutAfter >= .milliseconds(900), "not before the deadline: \(cutAfter)")
        }
    }

    @Test("41 §3 EX1 a body trickled byte by byte is cut at LATCH_BODY_TIMEOUT_SECONDS, and a prompt one is served")
    func test_41_3_trickledBodyIsCut() async throws {
        try await withServer(
            .sqlite,
            adjust: {
                $0.idleTimeoutSeconds = 3600
                $0.connections.bodyTimeoutSeconds = 2
            }
        ) { server in
            let port = try Self.port(server)
            let slow = try await RawConnection.open(port: port)
            // A whole registration, then padding that never ends: the request must not run on what came.
            let registration = #"{"email":"late@example.com","password":"Correct-Horse-9","terms_accepted":true}"#
            // The clock starts before the head is sent: latchd's deadline cannot start earlier, so a cut
            // before LATCH_BODY_TIMEOUT_SECONDS shows here as one (a clock started after the send ran late).
            let started = ContinuousClock.now
            try await slow.send(
                "POST /v1/registrations HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                    + "Content-Length: 600\r\n\r\n\(registration)")
            for _ in 0..<(600 - registration.utf8.count) {
                guard !slow.isClosed, (try? await slow.send(" ")) != nil else { break }
                try await Task.sleep(for: .milliseconds(100))
            }
            let cutAfter = ContinuousClock.now - started
            await slow.close()
            try await Task.sleep(for: .milliseconds(500)) // a request that ran on the cut body would have mailed by now
            let mailed = await server.app.latch.outbox?.messages(to: "late@example.com") ?? []
            let prompt = try await server.send(
                .POST, "/v1/registrations",
                json: ["email": "prompt@example.com", "password": "Correct-Horse-9", "terms_accepted": true])

            #expect(slow.isClosed && cutAfter < .seconds(40), "cut after \(cutAfter)")
            #expect(cutAfter >= .milliseconds(1900), "not before the deadline: \(cutAfter)")
            #expect(mailed.isEmpty, "the cut request did not run: \(mailed.count) mail(s)")
            #expect(prompt.status == 202, "a body sent at once is read: \(prompt.text)")
        }
    }

    @Test(
        "41 §3 EX1 the deadlines, step by step: a head's starts at its first byte, a body's at its head, none between requests"
    )
    func test_41_3_requestDeadlinesStateMachine() {
        var deadlines = RequestDeadlines(headerTimeout: .seconds(10), bodyTimeout: .seconds(30))
        let start = NIODeadline.uptimeNanoseconds(1_000_000_000)

        // The first bytes of a head arm the header deadline; more bytes change nothing.
        #expect(deadlines.bytesArrived(now: start) == .arm(start + .seconds(10)))
        #expect(deadlines.bytesArrived(now: start + .seconds(5)) == .none)
        // The head arrives: the body's deadline replaces it.
        #expect(deadlines.headArrived(now: start + .seconds(6)) == .arm(start + .seconds(36)))
        // A timer firing early (a replaced one) re-arms; the request whole disarms.
        #expect(deadlines.timerFired(now: start + .seconds(10)) == .arm(start + .seconds(36)))
        #expect(deadlines.endArrived() == .disarm)
        // Between requests nothing is late, whatever fires.
        #expect(deadlines.timerFired(now: start + .seconds(100)) == .none)
        // The next request trickles: past its deadline the connection is closed, once.
        #expect(deadlines.bytesArrived(now: start + .seconds(200)) == .arm(start + .seconds(210)))
        #expect(deadlines.timerFired(now: start + .seconds(210)) == .close)
        #expect(deadlines.bytesArrived(now: start + .seconds(211)) == .none)
        #expect(deadlines.timerFired(now: start + .seconds(220)) == .none)
    }

    @Test(
        "41 §3 EX1 connection caps: derived from the open-file limit less a reserve, LATCH_* variables parsed, a cap above the limit refused"
    )
    func test_41_3_connectionLimitsConfiguration() throws {
        let derived = ConnectionLimits.resolved(ConnectionSettings(), openFileLimit: 256)
        let large = ConnectionLimits.resolved(ConnectionSettings(), openFileLimit: 1_048_576)
        let base = ["LATCH_SECRET_KEY": Data(repeating: 1, count: 32).base64EncodedString()]
        let set = try LatchConfig.fromEnvironment(
            base.merging([
                "LATCH_MAX_CONNECTIONS": "500", "LATCH_MAX_CONNECTIONS_PER_ADDRESS": "50",
                "LATCH_HEADER_TIMEOUT_SECONDS": "5", "LATCH_BODY_TIMEOUT_SECONDS": "20"
            ]) { $1 }
        ).connections

        #expect(derived.maximumConnections == 192 && derived.maximumConnectionsPerAddress == 24)
        #expect(large.maximumConnections == 16_384 && large.maximumConnectionsPerAddress == 2_048)
        #expect(derived.headerTimeout == .seconds(10) && derived.bodyTimeout == .seconds(30))
        #expect(set.maximumConnections == 500 && set.maximumConnectionsPerAddress == 50)
        #expect(set.headerTimeoutSeconds == 5 && set.bodyTimeoutSeconds == 20)
        #expect(ConnectionLimits.problem(with: set, openFileLimit: 256)?.variable == "LATCH_MAX_CONNECTIONS")
        #expect(ConnectionLimits.problem(with: set, openFileLimit: 1024) == nil)
        for (name, bad) in [
            ("LATCH_MAX_CONNECTIONS", "0"), ("LATCH_HEADER_TIMEOUT_SECONDS", "0"), ("LATCH_BODY_TIMEOUT_SECONDS", "x")
        ] {
            #expect(throws: ConfigurationError.self, "\(name)=\(bad)") {
                _ = try LatchConfig.fromEnvironment(base.merging([name: bad]) { $1 })
            }
        }
        do {
            _ = try LatchConfig.fromEnvironment(
                base.merging(["LATCH_MAX_CONNECTIONS": "10", "LATCH_MAX_CONNECTIONS_PER_ADDRESS": "11"]) { $1 })
            Issue.record("a per-address cap above the total was accepted")
        } catch let error as ConfigurationError {
            #expect(error.variable == "LATCH_MAX_CONNECTIONS_PER_ADDRESS")
        }
    }

    @Test(
        "41 §3 EX1 per-address counting: an IPv6 client by its /64, a trusted proxy in the total only; released connections free their room"
    )
    func test_41_3_perAddressCounting() throws {
        let key = ConnectionLimits.clientKey(trusting: try #require(TrustedProxies(parsing: "10.0.0.0/8")))
        let counter = ConnectionCounter(maximum: 5, maximumPerAddress: 2)

        #expect(key("2001:db8:1:2::7") == key("2001:db8:1:2:ffff::1"), "one /64 is one client")
        #expect(key("2001:db8:1:3::7") != key("2001:db8:1:2::7"))
        #expect(key("::ffff:198.51.100.7") == "198.51.100.7", "an IPv4 peer on a dual-stack socket")
        #expect(key("10.1.2.3") == nil, "a trusted proxy counts in the total only")
        #expect(counter.admit("a") == .admitted && counter.admit("a") == .admitted)
        #expect(counter.admit("a") == .overAddress)
        counter.release("a")
        #expect(counter.admit("a") == .admitted, "a closed connection frees its room")
        #expect(counter.admit(nil) == .admitted && counter.admit(nil) == .admitted)
        #expect(counter.admit("b") == .admitted)
        #expect(counter.admit("c") == .overTotal, "five open in all")
        #expect(counter.open(from: "a") == (5, 2))
    }

    @Test("41 §3 EX1 request ids are random version-4 UUIDs drawn without a file descriptor")
    func test_41_3_requestIDs() {
        let ids = (0..<1000).map { _ in RequestID.make() }

        #expect(Set(ids).count == 1000)
        #expect(ids.allSatisfy { UUID(uuidString: $0) != nil && $0.count == 36 })
        #expect(ids.allSatisfy { Array($0)[14] == "4" && "89AB".contains(Array($0)[19]) }, "\(ids[0])")
    }
}
