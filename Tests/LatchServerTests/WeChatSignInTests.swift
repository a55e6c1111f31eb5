import Foundation
import LatchCore
import LatchServer
import LatchTestSupport
import NIOHTTP1
import Testing

/// C1 WeChat OAuth against a local stand-in of `/sns/oauth2/access_token` and `/sns/userinfo`.
@Suite("WeChat sign-in (C1)")
struct WeChatSignInTests {
    static func wechatSignIn(_ server: TestServer, code: String, device: [String: String]? = nil) async throws
        -> TestResponse
    {
        var body: [String: Any] = ["grant_type": "wechat", "code": code]
        if let device { body["device"] = device }
        return try await server.send(.POST, "/v1/token", json: body)
    }

    @Test(
        "C1 a WeChat code signs in the account keyed by unionid, created on first sign-in with WeChat's nickname",
        arguments: TestDatabase.all)
    func C1_wechatSignInKeysByUnionID(database: TestDatabase) async throws {
        try await withProviders(database) { server, wechat in
            // Two apps of one organisation: different openids, one unionid.
            wechat.issueWeChatCode("CODE-A", for: .init(openid: "openid-app-a", unionid: "union-1", nickname: "小明"))
            wechat.issueWeChatCode("CODE-B", for: .init(openid: "openid-app-b", unionid: "union-1", nickname: "小明"))

            let first = try await Self.wechatSignIn(server, code: "CODE-A")
            let second = try await Self.wechatSignIn(server, code: "CODE-B")

            #expect(first.status == 200, "\(first.text)")
            let user = try first.decode(TokenResponse.self).user
            #expect(user.nickname == "小明" && user.email == nil)
            #expect(try second.decode(TokenResponse.self).user.id == user.id, "same unionid, same account")
            let exchange = wechat.lastWeChatExchange
            #expect(exchange["appid"] == ProviderStandIn.wechatAppID && exchange["grant_type"] == "authorization_code")
            #expect(exchange["code"] == "CODE-B")
        }
    }

    @Test("C1 without a unionid the WeChat account is keyed by openid", arguments: TestDatabase.all)
    func C1_wechatFallsBackToOpenID(database: TestDatabase) async throws {
        try await withProviders(database) { server, wechat in
            wechat.issueWeChatCode("CODE-1", for: .init(openid: "openid-solo", unionid: nil, nickname: "Solo"))
            wechat.issueWeChatCode("CODE-2", for: .init(openid: "openid-solo", unionid: nil, nickname: "Solo"))
            wechat.issueWeChatCode("CODE-3", for: .init(openid: "openid-other", unionid: nil, nickname: "Other"))

            let one = try await Self.wechatSignIn(server, code: "CODE-1").decode(TokenResponse.self).user
            let two = try await Self.wechatSignIn(server, code: "CODE-2").decode(TokenResponse.self).user
            let three = try await Self.wechatSignIn(server, code: "CODE-3").decode(TokenResponse.self).user

            #expect(one.id == two.id && one.id != three.id)
        }
    }

    @Test(
        "C1 WeChat's errcode answers become clear errors: 40029 invalid code, 40163 code used, -1 busy",
        arguments: TestDatabase.all)
    func C1_wechatErrcodesAreMapped(database: TestDatabase) async throws {
        try await withProviders(database) { server, wechat in
            wechat.issueWeChatCode("ONCE", for: .init(openid: "openid-1", unionid: "union-1", nickname: "A"))

            let invalid = try await Self.wechatSignIn(server, code: "NO-SUCH-CODE")
            #expect(try await Self.wechatSignIn(server, code: "ONCE").status == 200)
            let reused = try await Self.wechatSignIn(server, code: "ONCE")
            wechat.forceWeChatErrcode(-1)
            let busy = try await Self.wechatSignIn(server, code: "ANY")
            let badCode = try await Self.wechatSignIn(server, code: "bad code&x=1")

            #expect(
                invalid.status == 401 && invalid.errorCode == "AUTH_001"
                    && invalid.errorBody?.reasons == ["invalid_code"])
            #expect(reused.status == 401 && reused.errorBody?.reasons == ["code_used"])
            #expect(busy.status == 503 && busy.errorBody?.reasons == ["provider_unavailable", "busy"])
            #expect(busy.errorBody?.retryAfter == 30)
            #expect(badCode.status == 422 && badCode.errorBody?.field == "code")
        }
    }

    @Test(
        "C1 latchd's WeChat credentials refused, WeChat unreachable or unconfigured: clear errors, never a 500",
        arguments: [TestDatabase.sqlite])
    func C1_wechatTroubleIsNeverA500(database: TestDatabase) async throws {
        let standIn = try await ProviderStandIn.start()
        let wrongSecret = SignInProviders(
            wechat: .init(appID: ProviderStandIn.wechatAppID, appSecret: "wrong", apiBase: standIn.baseURL))
        let unreachable = SignInProviders(wechat: .init(appID: "wx", appSecret: "s", apiBase: "http://127.0.0.1:9"))
        var answers: [TestResponse] = []
        for providers in [wrongSecret, unreachable, SignInProviders()] {
            let server = try await TestServer.start(database, signInProviders: providers)
            answers.append(try await Self.wechatSignIn(server, code: "CODE"))
            try await server.stop()
        }
        try await standIn.stop()

        #expect(answers[0].status == 503 && answers[0].errorBody?.reasons == ["provider_unavailable", "misconfigured"])
        #expect(answers[1].status == 503 && answers[1].errorBody?.reasons == ["provider_unavailable", "unreachable"])
        #expect(answers[2].status == 422 && answers[2].errorBody?.reasons == ["provider_not_configured"])
    }
}
