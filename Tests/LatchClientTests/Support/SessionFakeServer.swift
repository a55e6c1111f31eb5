import Foundation
import LatchCore
import Testing

@testable import LatchClient

/// A stand-in for latchd that answers what the session layer asks, records every request, and can be
/// told how to answer refreshes (rotate, AUTH_004, no network, 500) and to hold them until released.
actor SessionFakeServer: HTTPTransport {
    enum RefreshAnswer {
        case rotate
        case sessionExpired
        case networkFailure
        case serverError
        /// 400 DPOP_INVALID `session_not_bound`: a bearer session after the operator set `LATCH_DPOP=required`.
        case sessionNotBound
    }

    static let alice = UserInfo(
        id: "u-alice", email: "alice@example.com", emailVerified: true, nickname: "Alice",
        createdAt: Date(timeIntervalSince1970: 1_700_000_000))
    static let bob = UserInfo(
        id: "u-bob", email: "bob@example.com", emailVerified: true, nickname: "Bob",
        createdAt: Date(timeIntervalSince1970: 1_700_000_000))
    static let password = "Secret123"
    static let challengeCode = "123456"

    var refreshAnswer: RefreshAnswer = .rotate
    /// What `POST /v1/logout` does: answer normally, or fail as if offline.
    var logoutFailsOffline = false
    /// Refreshes wait until `releaseRefreshes()` while this is on.
    var holdsRefreshes = false

    private(set) var requests: [HTTPRequest] = []
    private(set) var refreshesArrived = 0
    private var heldRefreshes: [CheckedContinuation<Void, Never>] = []
    private var accessTokens: [String: UserInfo] = [:]
    private var refreshTokens: [String: UserInfo] = [:]
    private var issued = 0
    private var profiles: [String: UserInfo] = [alice.id: alice, bob.id: bob]

    func set(refreshAnswer: RefreshAnswer) { self.refreshAnswer = refreshAnswer }
    func set(logoutFailsOffline: Bool) { self.logoutFailsOffline = logoutFailsOffline }
    func holdRefreshes() { holdsRefreshes = true }
    func releaseRefreshes() {
        holdsRefreshes = false
        for held in heldRefreshes { held.resume() }
        heldRefreshes = []
    }
    func rename(_ userID: String, to nickname: String) { profiles[userID]?.nickname = nickname }

    /// Makes the server refuse `accessToken` from now on (as if it had expired on the server's clock).
    func refuse(accessToken: String) { accessTokens[accessToken] = nil }

    /// New tokens for `user`, known to the server.
    func issueTokens(for user: UserInfo = alice, expiresIn: Int = 7200, refreshExpiresIn: Int = 30 * 86_400)
        -> TokenResponse
    {
        issued += 1
        let tokens = TokenResponse(
            accessToken: "at-\(issued)", expiresIn: expiresIn, refreshToken: "rt-\(issued)",
            refreshExpiresIn: refreshExpiresIn, sessionId: "s-\(user.id)", user: profiles[user.id] ?? user)
        accessTokens[tokens.accessToken] = user
        refreshTokens[tokens.refreshToken] = user
        return tokens
    }

    func count(_ method: String, _ path: String) -> Int {
        requests.filter { $0.method == method && Self.path(of: $0) == path }.count
    }

    var refreshGrants: Int {
        requests.filter { Self.path(of: $0) == "/v1/token" && Self.grant(of: $0)?.grantType == .refreshToken }.count
    }

    func requests(to path: String) -> [HTTPRequest] { requests.filter { Self.path(of: $0) == path } }

    static func path(of request: HTTPRequest) -> String {
        let components = URLComponents(url: request.url, resolvingAgainstBaseURL: false)
        let query = components?.percentEncodedQuery.map { "?\($0)" } ?? ""
        return (components?.percentEncodedPath ?? "") + query
    }

    static func grant(of request: HTTPRequest) -> TokenRequest? {
        request.body.flatMap { try? JSONDecoder().decode(TokenRequest.self, from: $0) }
    }

    static func bearer(of request: HTTPRequest) -> String? {
        guard let value = request.headers["Authorization"], value.hasPrefix("Bearer ") else { return nil }
        return String(value.dropFirst("Bearer ".count))
    }

    // MARK: - HTTPTransport

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        requests.append(request)
        let path = Self.path(of: request)
        switch (request.method, path) {
        case ("POST", "/v1/token"):
            return try await token(request)
        case ("POST", "/v1/registrations"):
            return Self.json(202, #"{"registration_id":"reg-1","expires_in":900}"#)
        case ("POST", "/v1/registrations/reg-1/verify"):
            return try Self.json(201, issueTokens(for: Self.alice))
        case ("POST", "/v1/logout"):
            if logoutFailsOffline { throw URLError(.notConnectedToInternet) }
            guard let token = Self.bearer(of: request), accessTokens[token] != nil else { return Self.sessionExpired }
            accessTokens[token] = nil
            return HTTPResponse(status: 204)
        case ("GET", "/v1/me"):
            guard let user = signedIn(request) else { return Self.sessionExpired }
            return try Self.json(200, profiles[user.id] ?? user)
        case ("GET", "/v1/sessions"):
            guard signedIn(request) != nil else { return Self.sessionExpired }
            return Self.json(
                200,
                #"[{"id":"s-1","device_name":"Phone","device_model":"iPhone16,1","platform":"iOS","ip":"127.0.0.1","created_at":"2026-01-02T03:04:05Z","last_active_at":"2026-01-02T04:05:06.789Z","current":true}]"#
            )
        case ("DELETE", _) where path.hasPrefix("/v1/sessions"):
            guard signedIn(request) != nil else { return Self.sessionExpired }
            return HTTPResponse(status: 204)
        case ("GET", "/orders"):
            // An app's own endpoint that accepts Latch access tokens; refuses with a bare 401.
            guard signedIn(request) != nil else { return HTTPResponse(status: 401) }
            return HTTPResponse(status: 200, body: Data("orders".utf8))
        case ("GET", "/always-401"):
            return Self.sessionExpired
        default:
            return Self.json(404, #"{"error":"NOT_FOUND","message":"Not found."}"#)
        }
    }

    private func signedIn(_ request: HTTPRequest) -> UserInfo? {
        Self.bearer(of: request).flatMap { accessTokens[$0] }
    }

    private func token(_ request: HTTPRequest) async throws -> HTTPResponse {
        guard let grant = Self.grant(of: request) else {
            return Self.json(400, #"{"error":"MALFORMED_BODY","message":"x"}"#)
        }
        switch grant.grantType {
        case .password:
            guard grant.password == Self.password else {
                return Self.json(401, #"{"error":"AUTH_001","message":"Wrong email or password."}"#)
            }
            if grant.email == "unusual@example.com" {
                return Self.json(
                    403,
                    #"{"error":"VERIFICATION_REQUIRED","message":"Please verify it is you before doing this.","challenge_id":"ch-1","method":"email"}"#
                )
            }
            return try Self.json(200, issueTokens(for: grant.email == Self.bob.email ? Self.bob : Self.alice))
        case .loginChallenge:
            guard grant.challengeId == "ch-1", grant.code == Self.challengeCode else {
                return Self.json(400, #"{"error":"AUTH_003","message":"验证码错误","attempts_remaining":4}"#)
            }
            return try Self.json(200, issueTokens(for: Self.alice))
        case .refreshToken:
            refreshesArrived += 1
            if holdsRefreshes { await withCheckedContinuation { heldRefreshes.append($0) } }
            switch refreshAnswer {
            case .networkFailure:
                throw URLError(.notConnectedToInternet)
            case .serverError:
                return Self.json(500, #"{"error":"INTERNAL_ERROR","message":"Something went wrong on the server."}"#)
            case .sessionExpired:
                return Self.sessionExpired
            case .sessionNotBound:
                return Self.json(
                    400,
                    #"{"error":"DPOP_INVALID","message":"The DPoP proof is not valid.","reasons":["session_not_bound"]}"#
                )
            case .rotate:
                guard let token = grant.refreshToken, let user = refreshTokens.removeValue(forKey: token) else {
                    return Self.sessionExpired
                }
                return try Self.json(200, issueTokens(for: user))
            }
        case .deviceSignature, .apple, .wechat, .smsCode, .passkey, .approval:
            return Self.json(422, #"{"error":"VALIDATION_FAILED","message":"x","field":"grant_type"}"#)
        }
    }

    static let sessionExpired = json(
        401, #"{"error":"AUTH_004","message":"Your session has expired. Please sign in again."}"#)

    static func json(_ status: Int, _ text: String) -> HTTPResponse {
        HTTPResponse(status: status, headers: ["Content-Type": "application/json"], body: Data(text.utf8))
    }

    static func json(_ status: Int, _ value: some Encodable) throws -> HTTPResponse {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        return HTTPResponse(
            status: status, headers: ["Content-Type": "application/json"], body: try encoder.encode(value))
    }
}
