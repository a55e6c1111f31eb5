import Crypto
import Foundation
import JWTKit
import LatchServer
import Synchronization
import Vapor
import _CryptoExtras

/// Local stand-ins for Apple's key set and WeChat's OAuth API: a second Vapor application on a
/// loopback port that answers in the providers' documented JSON shapes, so the real client code of
/// latchd is exercised over real HTTP.
final class ProviderStandIn: Sendable {
    let app: Application
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
    }

    struct WeChatUser: Sendable {
        let openid: String
        let unionid: String?
        let nickname: String
    }

    static let wechatAppID = "wx-test-app"
    static let wechatSecret = "wechat-test-secret"
    static let appleClientID = "com.example.wallet"

    static func start() async throws -> ProviderStandIn {
        let app = try await Application.make(.testing)
        let box = Box()
        do {
            app.get("auth", "keys") { _ -> Response in
                let keys = box.state.withLock { state in
                    state.jwksFetches += 1
                    return state.jwks
                }
                return try Self.json(["keys": keys])
            }
            app.get("sns", "oauth2", "access_token") { req -> Response in
                let query = (try? req.query.decode([String: String].self)) ?? [:]
                let answer: [String: Any] = box.state.withLock { state in
                    state.lastExchange = query
                    if let errcode = state.forcedErrcode { return ["errcode": errcode, "errmsg": "system error"] }
                    guard query["appid"] == Self.wechatAppID, query["secret"] == Self.wechatSecret,
                        query["grant_type"] == "authorization_code"
                    else { return ["errcode": 40125, "errmsg": "invalid appsecret"] }
                    let code = query["code"] ?? ""
                    if state.usedCodes.contains(code) { return ["errcode": 40163, "errmsg": "code been used"] }
                    guard let user = state.wechatCodes[code] else { return ["errcode": 40029, "errmsg": "invalid code"] }
                    state.usedCodes.insert(code)
                    var answer: [String: Any] = [
                        "access_token": "ACCESS-\(user.openid)", "expires_in": 7200, "refresh_token": "REFRESH-\(user.openid)",
                        "openid": user.openid, "scope": "snsapi_userinfo",
                    ]
                    if let unionid = user.unionid { answer["unionid"] = unionid }
                    return answer
                }
                // WeChat answers JSON with a text/plain content type.
                return try Self.json(answer, contentType: "text/plain")
            }
            app.get("sns", "userinfo") { req -> Response in
                let query = (try? req.query.decode([String: String].self)) ?? [:]
                let answer: [String: Any] = box.state.withLock { state in
                    guard let openid = query["openid"], query["access_token"] == "ACCESS-\(openid)",
                        let user = state.wechatCodes.values.first(where: { $0.openid == openid })
                    else { return ["errcode": 40001, "errmsg": "invalid credential"] }
                    var answer: [String: Any] = [
                        "openid": user.openid, "nickname": user.nickname, "sex": 1, "province": "Guangdong", "city": "Shenzhen",
                        "country": "CN", "headimgurl": "https://thirdwx.qlogo.cn/mmopen/x/0", "privilege": [String](),
                    ]
                    if let unionid = user.unionid { answer["unionid"] = unionid }
                    return answer
                }
                return try Self.json(answer)
            }
            try await app.server.start(address: .hostname("127.0.0.1", port: 0))
            guard let port = app.http.server.shared.localAddress?.port else { throw TestServer.TestServerError.noPort }
            return ProviderStandIn(app: app, baseURL: "http://127.0.0.1:\(port)", box: box)
        } catch {
            try? await app.asyncShutdown()
            throw error
        }
    }

    private init(app: Application, baseURL: String, box: Box) {
        self.app = app
        self.baseURL = baseURL
        self.box = box
    }

    func stop() async throws {
        await app.server.shutdown()
        try await app.asyncShutdown()
    }

    private static func json(_ object: Any, contentType: String = "application/json") throws -> Response {
        let data = try JSONSerialization.data(withJSONObject: object)
        var headers = HTTPHeaders()
        headers.replaceOrAdd(name: .contentType, value: contentType)
        return Response(status: .ok, headers: headers, body: .init(data: data))
    }

    // MARK: Apple

    /// The providers latchd is configured with to use this stand-in.
    var providers: SignInProviders {
        SignInProviders(
            apple: .init(clientIDs: ["com.example.other", Self.appleClientID], jwksURL: baseURL + "/auth/keys"),
            wechat: .init(appID: Self.wechatAppID, appSecret: Self.wechatSecret, apiBase: baseURL))
    }

    /// Publishes exactly these keys.
    func publish(_ keys: [AppleTestKey]) {
        let jwks = keys.map(\.jwk)
        box.state.withLock { $0.jwks = jwks }
    }

    var jwksFetches: Int { box.state.withLock { $0.jwksFetches } }

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
        let primitives = try! privateKey.publicKey.getKeyPrimitives()  // a generated key always has them
        return [
            "kty": "RSA", "kid": kid, "use": "sig", "alg": "RS256",
            "n": Self.base64URL(primitives.modulus), "e": Self.base64URL(primitives.publicExponent),
        ]
    }

    /// An identity token with Apple's claims; `nonce` is the raw nonce (the token carries its SHA-256;
    /// nil: a token without a nonce).
    func identityToken(
        subject: String = "001234.abcdef", audience: String = ProviderStandIn.appleClientID,
        issuer: String = "https://appleid.apple.com", expires: Date, nonce: String? = Self.defaultNonce, email: String? = nil,
        emailVerified: Bool = true, signingKid: String? = nil
    ) async throws -> String {
        let hashedNonce = nonce.map { Data(SHA256.hash(data: Data($0.utf8))).map { String(format: "%02x", $0) }.joined() }
        let claims = AppleIdentityToken(
            issuer: .init(value: issuer), audience: .init(value: audience), expires: .init(value: expires),
            issuedAt: .init(value: expires.addingTimeInterval(-600 - Double(Self.tokensSigned.add(1, ordering: .relaxed).newValue))),
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
    let standIn = try await ProviderStandIn.start()
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
