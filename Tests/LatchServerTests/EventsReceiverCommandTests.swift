import Foundation
import LatchCore
import LatchTestSupport
import NIOCore
import NIOHTTP1
import Testing

@testable import LatchServer

/// Issue 42 §4: `latchd events-receiver`, the development receiver, run as the real binary.
@Suite("latchd events-receiver (issue 42 §4)", .serialized)
struct EventsReceiverCommandTests {
    /// Starts the receiver on a free port; its first line says where it listens.
    static func start(secret: WebhookSecret) async throws -> (ChildProcess, String) {
        let process = try ChildProcess([
            try LatchdProcess.binary().path, "events-receiver", "--port", "0", "--secret", secret.text
        ])
        let first = await Self.line(of: process) ?? ""
        let url = try #require(first.split(separator: " ").last.map(String.init), "first line: \(first)")
        #expect(first.hasPrefix("events-receiver listening on http://127.0.0.1:"), "\(first)")
        return (process, url)
    }

    /// The next line the receiver printed (read off the cooperative pool: the read blocks). After `limit`
    /// without one the receiver is ended, so a line that never comes fails the test instead of hanging it.
    static func line(of process: ChildProcess, within limit: Duration = .seconds(120)) async -> String? {
        let watchdog = Task {
            try await Task.sleep(for: limit)
            process.terminate()
        }
        defer { watchdog.cancel() }
        return await withCheckedContinuation { continuation in
            Thread.detachNewThread { continuation.resume(returning: process.readLine()) }
        }
    }

    static func post(_ url: String, _ body: Data, _ headers: [(String, String)]) async throws -> Int {
        let answer = try await TestHTTP.send(
            .POST, url + "/latch", headers: HTTPHeaders(headers), body: ByteBuffer(bytes: body))
        return Int(answer.status.code)
    }

    @Test(
        "42 §4 the development receiver prints a verified webhook's line (204), refuses a bad signature (401), prints an SSF push unverified (202)"
    )
    func test_42_4_developmentReceiver() async throws {
        let secret = WebhookSecret.random()
        let (process, url) = try await Self.start(secret: secret)
        defer { process.stop() }
        let user = UUID()
        let stored = OutboundEventStore.Stored(
            seq: 1, id: OutboundEvent.newID(), type: "account.frozen", occurredAt: Date().timeIntervalSince1970,
            user: user, session: nil, actor: "operator", transaction: "txn_00", data: "{}")
        let body = try WebhookPayload.body(of: stored)
        let now = Int(Date().timeIntervalSince1970)

        // A delivery signed as latchd signs it.
        let signed = StandardWebhookSignature.headers(id: stored.id, timestamp: now, body: body, secrets: [secret])
        #expect(try await Self.post(url, body, signed) == 204)
        let verified = await Self.line(of: process) ?? ""
        #expect(verified.hasSuffix(" \(stored.id) account.frozen user=\(user.uuidString.lowercased()) verified"))

        // Signed by another secret.
        let forged = StandardWebhookSignature.headers(
            id: stored.id, timestamp: now, body: body, secrets: [.random()])
        #expect(try await Self.post(url, body, forged) == 401)
        let refused = await Self.line(of: process) ?? ""
        #expect(refused.contains(" \(stored.id) - user=- refused: no_matching_signature"), "\(refused)")

        // An SSF push: its claims, unverified.
        func part(_ json: String) -> String {
            Data(json.utf8).base64EncodedString().replacingOccurrences(of: "=", with: "")
                .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        }
        let set =
            part(#"{"alg":"ES256","typ":"secevent+jwt"}"#) + "."
            + part(
                #"{"jti":"evt_1","sub_id":{"format":"iss_sub","iss":"x","sub":"u1"},"events":{"https://schemas.openid.net/secevent/risc/event-type/account-disabled":{"reason":"hijacking"}}}"#
            ) + ".c2ln"
        #expect(try await Self.post(url, Data(set.utf8), [("Content-Type", "application/secevent+jwt")]) == 202)
        let pushed = await Self.line(of: process) ?? ""
        #expect(pushed.contains(" evt_1 ssf:account-disabled user=u1 unverified"), "\(pushed)")
        #expect(pushed.contains(#""reason":"hijacking""#))

        process.terminate()
        #expect(await process.exited() == 0, "SIGTERM ends it cleanly")
    }

    @Test(
        "42 §4 latchd delivers to the development receiver: a sign-up and a freeze printed verified, the webhooks by the secret, the SET against --jwks"
    )
    func test_42_4_latchdDeliversToDevelopmentReceiver() async throws {
        try await withLatchd(environment: ["LATCH_EVENT_STREAMS_ALLOW_PRIVATE": "1"]) { server in
            let port = try LatchdProcess.freePort()
            let added = try await server.run([
                "admin", "event-streams", "add", "--kind", "webhook", "--url", "http://127.0.0.1:\(port)/latch"
            ])
            try #require(added.status == 0, "\(added)")
            let json = try JSONSerialization.jsonObject(with: Data(added.output.utf8)) as? [String: Any]
            let secret = try #require(WebhookSecret(json?["secret"] as? String ?? ""), "\(added)")
            let ssf = try await server.run([
                "admin", "event-streams", "add", "--kind", "ssf_push", "--url", "http://127.0.0.1:\(port)/ssf",
                "--audience", "https://backend.example.com"
            ])
            try #require(ssf.status == 0, "\(ssf)")
            let process = try ChildProcess([
                try LatchdProcess.binary().path, "events-receiver", "--port", String(port), "--secret", secret.text,
                "--jwks", server.baseURL + "/.well-known/jwks.json", "--audience", "https://backend.example.com"
            ])
            defer { process.stop() }
            _ = await Self.line(of: process) // listening on …

            let registered = try await server.send(
                "POST", "/v1/registrations",
                json: ["email": "rita@example.com", "password": "Correct-Horse-9", "terms_accepted": true])
            try #require(registered.status == 202)
            let registration = try registered.decode(RegistrationAccepted.self).registrationId
            let outbox = try await server.send("GET", "/dev/outbox?to=rita%40example.com")
            let code = try #require(outbox.jsonArray.last?["code"] as? String, "\(outbox.text)")
            let verified = try await server.send(
                "POST", "/v1/registrations/\(registration)/verify",
                json: ["code": code, "device": TestServer.testDevice])
            try #require(verified.status == 201, "\(verified)")
            let user = try verified.decode(TokenResponse.self).user.id
            try #require(try await server.run(["admin", "freeze", user]).status == 0)

            // The worker delivers within a second or so; a retry (the receiver started late) within seconds more.
            // The two streams overtake each other: read until both have arrived.
            let wanted = [
                " account.registered user=\(user) verified", " account.frozen user=\(user) verified",
                " ssf:account-disabled user=\(user) verified"
            ]
            var lines: [String] = []
            while !wanted.allSatisfy({ part in lines.contains { $0.contains(part) } }),
                let line = await Self.line(of: process)
            {
                lines.append(line)
            }
            for part in wanted {
                #expect(lines.contains { $0.contains(part) }, "\(part) in \(lines)")
            }
            #expect(!lines.contains { $0.contains("refused") }, "\(lines)")
        }
    }

    @Test("42 §4 events-receiver refuses a missing or malformed secret with a usage error (2)")
    func test_42_4_developmentReceiverNeedsASecret() async throws {
        let missing = try await LatchdProcess.run(["events-receiver", "--port", "0"], environment: [:])
        #expect(missing.status == 2 && missing.errors.contains("--secret"), "\(missing)")
        let malformed = try await LatchdProcess.run(
            ["events-receiver", "--port", "0", "--secret", "whsec_short"], environment: [:])
        #expect(malformed.status == 2, "\(malformed)")
    }
}
