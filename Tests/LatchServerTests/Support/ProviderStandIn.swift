import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import JWTKit
import LatchServer
import LatchTestSupport
import NIOCore
import NIOFoundationCompat
import Synchronization
import _CryptoExtras

/// Local stand-ins for Apple's key set and WeChat's OAuth API: a Hummingbird application on a
/// loopback port that answers in the providers' documented JSON shapes, so the real client code of
/// latchd is exercised over real HTTP.
final class ProviderStandIn: Sendable {
    let server: StandInServer
    let baseURL: String
    private let box: Box

    /// The stand-in's state, shared with its route handlers.
    final class Box: Sendable {
        let state = Mutex(State())
    }

    struct State {
        var jwks: [[String: String]] = []
        var jwksFetches = 0
        /// WeChat codes not used yet: code → (openid, unionid, nickname).
        var wechatCodes: [String: WeChatUser] = [:]
        var usedCodes: Set<String> = []
        /// The query of the last token exchange.
        var lastExchange: [String: String] = [:]
        /// Answer every exchange with this errcode (e.g. -1 "system busy").
        var forcedErrcode: Int?
        /// Apple authorization codes not used yet: code → the person's `sub`.
        var appleCodes: [String: String] = [:]
        /// Apple refresh tokens issued: token → (sub, client id).
        var appleRefreshTokens: [String: AppleGrant] = [:]
        /// Refresh tokens revoked at `/auth/revoke`, in order, with the client id that revoked them.
        var appleRevoked: [AppleGrant] = []
        /// Why the token and revoke endpoints refused client secrets, in order (e.g. `bad_signature`).
        var clientSecretRefusals: [String] = []
        /// Answer every revoke request with this status (Apple having trouble).
        var forcedRevokeStatus: UInt?
    }

    /// A refresh token Apple issued, and to whom.
    struct AppleGrant: Sendable, Equatable {
        let token: String
        let subject: String
        let clientID: String
    }

    struct WeChatUser: Sendable {
        let openid: String
        let unionid: String?
        let nickname: String
    }

    static let wechatAppID = "wx-test-app"
    static let wechatSecret = "wechat-test-secret"
    static let appleClientID = "com.example.wallet"

    static let appleTeamID = "TEAM123456"
    static let appleKeyID = "KEY7654321"

    /// Starts the stand-ins; `clock` is the time client secrets are checked against (latchd's test clock).
    static func start(clock: TestClock? = nil) async throws -> ProviderStandIn {
        let app = Router()
        let box = Box()
        let teamKey = P256.Signing.PrivateKey()
        let idTokenKey = try AppleTestKey(kid: "apple-id-token")
        let now: @Sendable () -> Date = { clock?.now ?? Date() }
        do {
            // Apple's token endpoint: form-encoded POST, client secret checked, code exchanged once.
            app.post("auth/token") { req, _ -> Response in
                let form = try await req.form()
                let clientID = form["client_id"] ?? ""
                if let refusal = AppleClientSecretCheck.refusal(
                    form["client_secret"], clientID: clientID, publicKey: teamKey.publicKey, now: now())
                {
                    box.state.withLock { $0.clientSecretRefusals.append(refusal) }
                    return try Self.json(["error": "invalid_client"], status: .badRequest)
                }
                guard form["grant_type"] == "authorization_code", let code = form["code"],
                    let subject = box.state.withLock({ $0.appleCodes.removeValue(forKey: code) })
                else { return try Self.json(["error": "invalid_grant"], status: .badRequest) }
                let refreshToken = "r" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
                box.state.withLock {
                    $0.appleRefreshTokens[refreshToken] = AppleGrant(
                        token: refreshToken, subject: subject, clientID: clientID)
                }
                let idToken = try await idTokenKey.identityToken(
                    subject: subject, audience: clientID, expires: now() + 600, nonce: nil)
                return try Self.json([
                    "access_token": "a" + UUID().uuidString, "token_type": "Bearer", "expires_in": 3600,
                    "refresh_token": refreshToken, "id_token": idToken
                ])
            }
            // Apple's revoke endpoint: form-encoded POST, client secret checked; 200 with an empty body.
            app.post("auth/revoke") { req, _ -> Response in
                let form = try await req.form()
                let clientID = form["client_id"] ?? ""
                if let refusal = AppleClientSecretCheck.refusal(
                    form["client_secret"], clientID: clientID, publicKey: teamKey.publicKey, now: now())
                {
                    box.state.withLock { $0.clientSecretRefusals.append(refusal) }
                    return try Self.json(["error": "invalid_client"], status: .badRequest)
                }
                if let forced = box.state.withLock({ $0.forcedRevokeStatus }) {
                    return try Self.json(["error": "server_error"], status: HTTPResponse.Status(code: Int(forced)))
                }
                guard form["token_type_hint"] == "refresh_token", let token = form["token"] else {
                    return try Self.json(["error": "invalid_request"], status: .badRequest)
                }
                box.state.withLock { state in
                    if let grant = state.appleRefreshTokens.removeValue(forKey: token) {
                        state.appleRevoked.append(AppleGrant(token: token, subject: grant.subject, clientID: clientID))
                    }
                }
                return Response(status: .ok)
            }
            app.get("auth/keys") { _, _ -> Response in
                let keys = box.state.withLock { state in
                    state.jwksFetches += 1
                    return state.jwks
                }
                return try Self.json(["keys": keys])
            }
            app.get("sns/oauth2/access_token") { req, _ -> Response in
                let query = req.queryDictionary
                let answer: [String: Any] = box.state.withLock { state in
                    state.lastExchange = query
                    if let errcode = state.forcedErrcode { return ["errcode": errcode, "errmsg": "system error"] }
                    guard query["appid"] == Self.wechatAppID, query["secret"] == Self.wechatSecret,
                        query["grant_type"] == "authorization_code"
                    else { return ["errcode": 40125, "errmsg": "invalid appsecret"] }
                    let code = query["code"] ?? ""
                    if state.usedCodes.contains(code) { return ["errcode": 40163, "errmsg": "code been used"] }
                    guard let user = state.wechatCodes[code] else {
                        return ["errcode": 40029, "errmsg": "invalid code"]
                    }
                    state.usedCodes.insert(code)
                    var answer: [String: Any] = [
                        "access_token": "ACCESS-\(user.openid)", "expires_in": 7200,
                        "refresh_token": "REFRESH-\(user.openid)",
                        "openid": user.openid, "scope": "snsapi_userinfo"
                    ]
                    if let unionid = user.unionid { answer["unionid"] = unionid }
                    return answer
                }
                // WeChat answers JSON with a text/plain content type.
                return try Self.json(answer, contentType: "text/plain")
            }
            app.get("sns/userinfo") { req, _ -> Response in
                let query = req.queryDictionary
                let answer: [String: Any] = box.state.withLock { state in
                    guard let openid = query["openid"], query["access_token"] == "ACCESS-\(openid)",
                        let user = state.wechatCodes.values.first(where: { $0.openid == openid })
                    else { return ["errcode": 40001, "errmsg": "invalid credential"] }
                    var answer: [String: Any] = [
                        "openid": user.openid, "nickname": user.nickname, "sex": 1, "province": "Guangdong",
                        "city": "Shenzhen",
                        "country": "CN", "headimgurl": "https://thirdwx.qlogo.cn/mmopen/x/0", "privilege": [String]()
                    ]
                    if let unionid = user.unionid { answer["unionid"] = unionid }
                    return answer
                }
                return try Self.json(answer)
            }
        }
        let server = try await StandInServer.start(app)
        return ProviderStandIn(server: server, baseURL: "http://127.0.0.1:\(server.port)", box: box, teamKey: teamKey)
    }

    private init(server: StandInServer, baseURL: String, box: Box, teamKey: P256.Signing.PrivateKey) {
        self.server = server
        self.baseURL = baseURL
        self.box = box
        self.teamKey = teamKey
    }

    /// The team's Sign in with Apple key, whose public half the token and revoke endpoints check secrets with.
    let teamKey: P256.Signing.PrivateKey

    func stop() async throws {
        await server.stop()
    }

    private static func json(_ object: Any, contentType: String = "application/json", status: HTTPResponse.Status = .ok)
        throws -> Response
    {
        let data = try JSONSerialization.data(withJSONObject: object)
        return Response(
            status: status, headers: [.contentType: contentType], body: .init(byteBuffer: ByteBuffer(data: data)))
    }

    // MARK: Apple

    /// The providers latchd is configured with to use this stand-in.
    var providers: SignInProviders {
        SignInProviders(
            apple: .init(
                clientIDs: ["com.example.other", Self.appleClientID], jwksURL: baseURL + "/auth/keys",
                teamKey: AppleTeamKey(teamID: Self.appleTeamID, keyID: Self.appleKeyID, privateKey: teamKey),
                tokenURL: baseURL + "/auth/token", revokeURL: baseURL + "/auth/revoke"),
            wechat: .init(appID: Self.wechatAppID, appSecret: Self.wechatSecret, apiBase: baseURL))
    }

    /// Publishes exactly these keys.
    func publish(_ keys: [AppleTestKey]) {
        let jwks = keys.map(\.jwk)
        box.state.withLock { $0.jwks = jwks }
    }

    var jwksFetches: Int { box.state.withLock { $0.jwksFetches } }

    /// Makes `code` a fresh authorization code of the Apple user `subject`.
    func issueAppleCode(_ code: String, subject: String = "001234.abcdef") {
        box.state.withLock { $0.appleCodes[code] = subject }
    }

    /// The refresh tokens issued and not revoked.
    var appleRefreshTokens: [AppleGrant] { box.state.withLock { Array($0.appleRefreshTokens.values) } }
    var appleRevoked: [AppleGrant] { box.state.withLock { $0.appleRevoked } }
    var clientSecretRefusals: [String] { box.state.withLock { $0.clientSecretRefusals } }
    func forceRevokeStatus(_ status: UInt?) { box.state.withLock { $0.forcedRevokeStatus = status } }

    // MARK: WeChat

    /// Makes `code` a fresh, valid WeChat code for `user`.
    func issueWeChatCode(_ code: String, for user: WeChatUser) {
        box.state.withLock { $0.wechatCodes[code] = user }
    }

    func forceWeChatErrcode(_ errcode: Int?) { box.state.withLock { $0.forcedErrcode = errcode } }

    var lastWeChatExchange: [String: String] { box.state.withLock { $0.lastExchange } }
}

/// An RSA key standing in for one of Apple's, with its `kid`; signs identity tokens as Apple would.
struct AppleTestKey: Sendable {
    /// The raw nonce tokens carry unless a test says otherwise (`AppleSignInTests.appleSignIn` sends it).
    static let defaultNonce = "test-raw-nonce"
    /// Makes every token unique (its `iat` moves back one second per token): latchd accepts a token
    /// only once, so a test that means to replay one must reuse the same string.
    private static let tokensSigned = Atomic<Int>(0)

    let kid: String
    let privateKey: JWTKit.Insecure.RSA.PrivateKey

    init(kid: String) throws {
        self.kid = kid
        privateKey = try JWTKit.Insecure.RSA.PrivateKey(backing: _RSA.Signing.PrivateKey(keySize: .bits2048))
    }

    /// The public half as Apple publishes it.
    var jwk: [String: String] {
        let primitives = try! privateKey.publicKey.getKeyPrimitives() // a generated key always has them
        return [
            "kty": "RSA", "kid": kid, "use": "sig", "alg": "RS256",
            "n": Self.base64URL(primitives.modulus), "e": Self.base64URL(primitives.publicExponent)
        ]
    }

    /// An identity token with Apple's claims; `nonce` is the raw nonce (the token carries its SHA-256;
    /// nil: a token without a nonce).
    func identityToken(
        subject: String = "001234.abcdef", audience: String = ProviderStandIn.appleClientID,
        issuer: String = "https://appleid.apple.com", expires: Date, nonce: String? = Self.defaultNonce,
        email: String? = nil,
        emailVerified: Bool = true, signingKid: String? = nil
    ) async throws -> String {
        let hashedNonce = nonce.map {
            Data(SHA256.hash(data: Data($0.utf8))).map { String(format: "%02x", $0) }.joined()
        }
        let claims = AppleIdentityToken(
            issuer: .init(value: issuer), audience: .init(value: audience), expires: .init(value: expires),
            issuedAt: .init(
                value: expires.addingTimeInterval(-600 - Double(Self.tokensSigned.add(1, ordering: .relaxed).newValue))),
            subject: .init(value: subject), nonce: hashedNonce,
            email: email, emailVerified: email == nil ? nil : .init(value: emailVerified),
            isPrivateEmail: email.map { .init(value: $0.hasSuffix("privaterelay.appleid.com")) })
        let keys = JWTKeyCollection()
        await keys.add(rsa: privateKey, digestAlgorithm: .sha256, kid: JWKIdentifier(string: signingKid ?? kid))
        return try await keys.sign(claims, kid: JWKIdentifier(string: signingKid ?? kid))
    }

    static func base64URL(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}

/// Runs `body` with a fresh latchd configured for the stand-in, stopping both afterwards.
func withProviders(
    _ database: TestDatabase, clock: TestClock = TestClock(), _ body: (TestServer, ProviderStandIn) async throws -> Void
) async throws {
    let standIn = try await ProviderStandIn.start(clock: clock)
    let server: TestServer
    do {
        server = try await TestServer.start(database, clock: clock, signInProviders: standIn.providers)
    } catch {
        try? await standIn.stop()
        throw error
    }
    do {
        try await body(server, standIn)
    } catch {
        try? await server.stop()
        try? await standIn.stop()
        throw error
    }
    try await server.stop()
    try await standIn.stop()
}
