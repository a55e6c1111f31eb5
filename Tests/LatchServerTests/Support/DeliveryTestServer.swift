import Foundation
import LatchCore
import LatchServer
import LatchTestSupport
import NIOCore
import NIOFoundationCompat
import NIOHTTP1
import Testing

/// A latchd (`InProcessLatchd`) on a loopback port configured with real carriers (`LATCH_SMTP_URL`,
/// `LATCH_SMS_WEBHOOK_URL`): the delivery tests' counterpart of `TestServer`.
struct DeliveryTestServer: Sendable {
    let server: InProcessLatchd
    let location: LatchConfig.DatabaseLocation

    var app: LatchApplication { server.app }
    var baseURL: String { server.baseURL }

    static func start(
        _ database: TestDatabase, smtpURL: String? = nil, mailFrom: String? = "Latch <latch@latch.test>",
        smsWebhookURL: String? = nil, clock: TestClock = TestClock(), sharing: LatchConfig.DatabaseLocation? = nil,
        adjust: (inout LatchConfig) -> Void = { _ in }
    ) async throws -> DeliveryTestServer {
        let location = if let sharing { sharing } else { try await database.makeLocation() }
        var config = LatchConfig(
            mode: .development, database: location, host: "127.0.0.1", port: 0, issuer: "http://latch.test",
            secretKey: Data(repeating: 7, count: 32), bcryptCost: 4, smtpURL: smtpURL,
            mailFrom: smtpURL == nil ? nil : mailFrom,
            logRequests: false, smsWebhookURL: smsWebhookURL)
        config.rateLimits = TestServer.generousRateLimits
        config.securityMailsPerHour = 10_000
        config.noticeDigestSeconds = 0 // one mail per change, as tests that count notices expect (issue 20 §2)
        config.useLoadIndependentLimits()
        adjust(&config)
        return DeliveryTestServer(
            server: try await InProcessLatchd.start(config, clock: clock.latchClock), location: location)
    }

    func stop() async throws { try await server.stop() }

    /// POSTs `json` to `path`.
    func post(_ path: String, json: [String: Any], language: String? = nil) async throws -> TestResponse {
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: "application/json")
        if let language { headers.add(name: "Accept-Language", value: language) }
        let body = try JSONSerialization.data(withJSONObject: json)
        let response = try await TestHTTP.send(.POST, baseURL + path, headers: headers, body: ByteBuffer(data: body))
        return TestResponse(
            status: response.status.code, headers: response.headers,
            data: response.body.map { Data(buffer: $0) } ?? Data())
    }
}

/// Runs `body` against a started `DeliveryTestServer` and always stops it.
func withDeliveryServer(
    _ database: TestDatabase, smtpURL: String? = nil, mailFrom: String? = "Latch <latch@latch.test>",
    smsWebhookURL: String? = nil,
    _ body: (DeliveryTestServer) async throws -> Void
) async throws {
    let server = try await DeliveryTestServer.start(
        database, smtpURL: smtpURL, mailFrom: mailFrom, smsWebhookURL: smsWebhookURL)
    do {
        try await body(server)
    } catch {
        try? await server.stop()
        throw error
    }
    try await server.stop()
}
