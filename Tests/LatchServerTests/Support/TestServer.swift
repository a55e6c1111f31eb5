import Foundation
import LatchCore
import LatchServer
import LatchTestSupport
import Logging
import NIOCore
import NIOFoundationCompat
import NIOHTTP1
import Testing

/// A real latchd (the LatchServer library on a real HTTP server, started by `InProcessLatchd`) on a
/// loopback port, and an HTTP client to talk to it. Every test starts its own on a fresh database.
final class TestServer: Sendable {
    private let server: InProcessLatchd
    /// The Latch application served (`app.latch`, `app.db`).
    let app: LatchApplication
    let baseURL: String
    let clock: TestClock
    let location: LatchConfig.DatabaseLocation
    let secretKey: Data

    /// Starts a server on a fresh database, or on `location` to share one with another server.
    static func start(
        _ database: TestDatabase, clock: TestClock = TestClock(), sharing location: LatchConfig.DatabaseLocation? = nil,
        secretKey: Data = Data(repeating: 7, count: 32), production: Bool = false, serviceKeys: [String] = [],
        signInProviders: SignInProviders = SignInProviders(), sessionMaxDays: Int = 90,
        logger: Logger = InProcessLatchd.defaultLogger, adjust: (inout LatchConfig) -> Void = { _ in }
    ) async throws -> TestServer {
        let location = if let location { location } else { try await database.makeLocation() }
        var config = LatchConfig(
            mode: production ? .production : .development, database: location, host: "127.0.0.1", port: 0,
            issuer: "http://latch.test", secretKey: secretKey, bcryptCost: 4,
            smtpURL: production ? "smtp://127.0.0.1:2525" : nil, mailFrom: production ? "latch@latch.test" : nil,
            logRequests: false, serviceKeys: serviceKeys)
        config.signInProviders = signInProviders
        config.sessionMaxDays = sessionMaxDays
        // The test clock stands still, so buckets never refill: tests get the standard limits
        // a thousand times over (the limiter still runs); rate-limit tests set their own in `adjust`.
        config.rateLimits = Self.generousRateLimits
        // Likewise an account's hourly budget of security notices (issue 20 §2; `NoticeFloodTests` sets its own).
        config.securityMailsPerHour = 10_000
        config.noticeDigestSeconds = 0 // one mail per change, as tests that count notices expect (issue 20 §2)
        // Likewise the bounds that machine load would decide (bcrypt queue, guess wait, readiness).
        config.useLoadIndependentLimits()
        adjust(&config)
        let server = try await InProcessLatchd.start(config, clock: clock.latchClock, logger: logger)
        return TestServer(server: server, clock: clock, location: location, secretKey: secretKey)
    }

    /// The standard rate limits × 1000 (no test makes that many requests from 127.0.0.1).
    static let generousRateLimits = RateLimits.standard.scaled(by: 1000)

    private init(server: InProcessLatchd, clock: TestClock, location: LatchConfig.DatabaseLocation, secretKey: Data) {
        self.server = server
        self.app = server.app
        self.baseURL = server.baseURL
        self.clock = clock
        self.location = location
        self.secretKey = secretKey
    }

    func stop() async throws { try await server.stop() }

    /// The server itself, for requests without a socket (`InProcessLatchd.get(_:peer:host:)`).
    var inProcess: InProcessLatchd { server }

    enum TestServerError: Error { case noPort, noCode }

    // MARK: HTTP

    /// Sends a request with a raw body.
    func send(
        _ method: HTTPMethod, _ path: String, body: String? = nil, bearer: String? = nil,
        headers extra: [(String, String)] = [], contentType: String? = "application/json"
    ) async throws -> TestResponse {
        var headers = HTTPHeaders()
        if let bearer { headers.add(name: "Authorization", value: "Bearer \(bearer)") }
        if body != nil, let contentType { headers.add(name: "Content-Type", value: contentType) }
        for (name, value) in extra { headers.add(name: name, value: value) }
        let response = try await TestHTTP.send(
            method, baseURL + path, headers: headers, body: body.map { ByteBuffer(string: $0) })
        let data = response.body.map { Data(buffer: $0) } ?? Data()
        return TestResponse(status: response.status.code, headers: response.headers, data: data)
    }

    /// Sends a request whose body is `bytes` as they are (e.g. not UTF-8), as `application/json`.
    func send(_ method: HTTPMethod, _ path: String, bytes: [UInt8], headers extra: [(String, String)] = [])
        async throws -> TestResponse
    {
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: "application/json")
        for (name, value) in extra { headers.add(name: name, value: value) }
        let response = try await TestHTTP.send(method, baseURL + path, headers: headers, body: ByteBuffer(bytes: bytes))
        let data = response.body.map { Data(buffer: $0) } ?? Data()
        return TestResponse(status: response.status.code, headers: response.headers, data: data)
    }

    /// Sends `json` (a dictionary or an Encodable) as the body.
    func send(
        _ method: HTTPMethod, _ path: String, json: Any, bearer: String? = nil, headers: [(String, String)] = []
    ) async throws -> TestResponse {
        let data =
            if let encodable = json as? any Encodable { try JSONEncoder().encode(encodable) } else {
                try JSONSerialization.data(withJSONObject: json)
            }
        return try await send(
            method, path, body: String(decoding: data, as: UTF8.self), bearer: bearer, headers: headers)
    }

    // MARK: Journeys

    /// The latest code mailed to `address` (from the development outbox).
    func latestCode(to address: String) async throws -> String {
        let messages = await app.latch.outbox?.messages(to: address) ?? []
        guard let code = messages.last(where: { $0.code != nil })?.code else { throw TestServerError.noCode }
        return code
    }

    /// The device `signUp` registers from and `signIn` signs in from unless told otherwise: the
    /// account's own, known device, so sign-ins from it are not screened as unusual (C8).
    static let testDevice = ["id": "test-device-0"]

    /// Registers and verifies an account from `device` (trusted as the account's first device);
    /// returns its first tokens.
    @discardableResult
    func signUp(
        _ email: String = "alice@example.com", password: String = "Correct-Horse-9",
        device: [String: String]? = TestServer.testDevice
    ) async throws -> TokenResponse {
        let registered = try await send(
            .POST, "/v1/registrations", json: ["email": email, "password": password, "terms_accepted": true])
        try #require(registered.status == 202, "registration: \(registered.text)")
        let id = try registered.decode(RegistrationAccepted.self).registrationId
        var body: [String: Any] = ["code": try await latestCode(to: email)]
        if let device { body["device"] = device }
        let verified = try await send(.POST, "/v1/registrations/\(id)/verify", json: body)
        try #require(verified.status == 201, "verify: \(verified.text)")
        return try verified.decode(TokenResponse.self)
    }

    /// Signs in with a password, from the account's own device unless `device` says otherwise
    /// (`nil`: no device at all).
    func signIn(
        _ email: String = "alice@example.com", password: String = "Correct-Horse-9",
        device: [String: String]? = TestServer.testDevice, language: String? = nil
    ) async throws -> TestResponse {
        var body: [String: Any] = ["grant_type": "password", "email": email, "password": password]
        if let device { body["device"] = device }
        return try await send(.POST, "/v1/token", json: body, headers: language.map { [("Accept-Language", $0)] } ?? [])
    }

    /// Signs in with a password from a device the account does not know: the sign-in stops at 403
    /// VERIFICATION_REQUIRED, and the mailed code (as the owner would read it) finishes it.
    func signInConfirmingNewDevice(
        _ email: String = "alice@example.com", password: String = "Correct-Horse-9", device: [String: String]?
    ) async throws -> TokenResponse {
        let challenged = try await signIn(email, password: password, device: device)
        if challenged.status == 200 { return try challenged.decode(TokenResponse.self) }
        try #require(challenged.status == 403 && challenged.errorBody?.method == "email", "\(challenged.text)")
        let challengeID = try #require(challenged.errorBody?.challengeId)
        let finished = try await send(
            .POST, "/v1/token",
            json: [
                "grant_type": "login_challenge", "challenge_id": challengeID, "code": try await latestCode(to: email)
            ])
        try #require(finished.status == 200, "login challenge: \(finished.text)")
        return try finished.decode(TokenResponse.self)
    }

    /// Exchanges a refresh token.
    func refresh(_ token: String) async throws -> TestResponse {
        try await send(.POST, "/v1/token", json: ["grant_type": "refresh_token", "refresh_token": token])
    }
}

/// What a test request got back (`text`, `json`, `decode`, the typed `errorBody`: `HTTPAnswerBody`).
struct TestResponse: HTTPAnswerBody, Sendable {
    let status: UInt
    let headers: HTTPHeaders
    let data: Data
}

/// Runs `body` against a fresh server (its configuration changed by `adjust`) and always stops the server afterwards.
func withServer(
    _ database: TestDatabase, clock: TestClock = TestClock(), logger: Logger = InProcessLatchd.defaultLogger,
    adjust: (inout LatchConfig) -> Void = { _ in }, _ body: (TestServer) async throws -> Void
) async throws {
    let server = try await TestServer.start(database, clock: clock, logger: logger, adjust: adjust)
    do {
        try await body(server)
    } catch {
        try? await server.stop()
        throw error
    }
    try await server.stop()
}
