import ArgumentParser
import Foundation
import LatchEvents

/// `latchd events-receiver`: a development receiver for event streams (issue 42 §4). It listens on
/// loopback, verifies every webhook with LatchEvents as a backend would, and prints one line per delivery.
/// Point a stream at it: `latchd admin event-streams add --kind webhook --url http://127.0.0.1:8787/`.
struct EventsReceiverCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "events-receiver",
        abstract: "Receive a stream's deliveries while developing: verify each webhook and print one line per event.",
        discussion: """
            Each line: the time received, the event id, its type, user=…, and `verified` or `refused: CODE (why)`. \
            Answers 204 to a verified webhook, 401 to a refused one (latchd then retries). \
            An SSF push (application/secevent+jwt) is printed with its claims: verified against --jwks (202, or \
            400 refused), or unverified without it (202). \
            Reads no LATCH_* configuration.
            """
    )

    @Option(help: "The port to listen on.")
    var port: Int = 8787

    @Option(help: "The address to listen on (loopback unless you say otherwise).")
    var host: String = "127.0.0.1"

    @Option(
        name: .customLong("secret"),
        help: ArgumentHelp(
            "The stream's secret (whsec_…), as shown once by `admin event-streams add`; twice during a rotation.",
            valueName: "whsec_…"))
    var secrets: [String] = []

    @Option(
        help: ArgumentHelp(
            "Verify SSF pushes against this JWKS (latchd's /.well-known/jwks.json); without it they print unverified.",
            valueName: "url"))
    var jwks: String?

    @Option(help: "With --jwks: the SETs' expected aud (the stream's audience); not checked without it.")
    var audience: String?

    func validate() throws {
        guard !secrets.isEmpty else { throw ValidationError("Give the stream's secret: --secret whsec_…") }
        guard (try? LatchWebhook(secrets: secrets)) != nil else {
            throw ValidationError("--secret must be whsec_ and the base64 of 24 to 64 bytes")
        }
        guard (0...65_535).contains(port) else { throw ValidationError("--port must be 0 to 65535") }
        if let jwks, URL(string: jwks)?.scheme.map({ ["http", "https"].contains($0) }) != true {
            throw ValidationError("--jwks must be an http(s) URL")
        }
        if audience != nil, jwks == nil { throw ValidationError("--audience needs --jwks") }
    }

    func run() async throws {
        let keys = jwks.flatMap(URL.init(string:)).map { DevelopmentReceiverKeys(url: $0, audience: audience) }
        let receiver = DevelopmentReceiver(webhook: try LatchWebhook(secrets: secrets), keys: keys)
        try await DevelopmentReceiverServer(receiver: receiver, host: host, port: port).run()
    }
}
