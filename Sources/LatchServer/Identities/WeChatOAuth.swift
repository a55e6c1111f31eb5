import Foundation
import LatchCore
import NIOCore

/// WeChat OAuth 2 (C1): exchanges the app's `code` at `/sns/oauth2/access_token`, then reads
/// `/sns/userinfo` for the nickname and `unionid`. The person is keyed by `unionid` (the same across
/// an organisation's apps), or `openid` when WeChat gives no unionid. WeChat's `errcode` answers
/// become clear errors: a bad code is `IdentityFailure.rejected`, WeChat trouble `.unavailable`.
struct WeChatOAuth: Sendable {
    let settings: SignInProviders.WeChat
    let http: OutboundHTTP
    /// How long each call may take (`LatchConfig.providerTimeoutSeconds`).
    let timeout: TimeAmount

    /// Who the code belongs to.
    struct VerifiedIdentity: Sendable {
        let subject: String
        let nickname: String?
    }

    func identity(forCode code: String) async throws -> VerifiedIdentity {
        let token: AccessTokenAnswer = try await get(
            "/sns/oauth2/access_token",
            ["appid": settings.appID, "secret": settings.appSecret, "code": code, "grant_type": "authorization_code"])
        guard let accessToken = token.accessToken, let openID = token.openid, !openID.isEmpty else {
            throw Self.unavailable("unexpected_answer")
        }
        // userinfo needs the snsapi_userinfo scope; with snsapi_base the exchange's ids are all there is.
        let info: UserInfoAnswer? = try? await get("/sns/userinfo", ["access_token": accessToken, "openid": openID])
        let unionID = nonEmpty(info?.unionid) ?? nonEmpty(token.unionid)
        let subject = unionID.map { "unionid:\($0)" } ?? "openid:\(openID)"
        guard subject.utf8.count <= 255 else { throw Self.unavailable("unexpected_answer") }
        return VerifiedIdentity(subject: subject, nickname: nonEmpty(info?.nickname))
    }

    private func nonEmpty(_ value: String?) -> String? {
        guard let value, !value.isEmpty else { return nil }
        return value
    }

    /// GETs `path` with `query`; decodes the answer, or throws the error its `errcode` means.
    private func get<Answer: Decodable & WeChatAnswer>(_ path: String, _ query: [String: String]) async throws -> Answer
    {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        let queryString = query.sorted { $0.key < $1.key }.map { key, value in
            "\(key)=\(value.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")"
        }.joined(separator: "&")
        let response: OutboundHTTP.Response
        do {
            response = try await http.get(settings.apiBase + path + "?" + queryString, timeout: timeout)
        } catch {
            throw Self.unavailable("unreachable")
        }
        guard response.status == 200, let answer = try? JSONDecoder().decode(Answer.self, from: response.body)
        else { throw Self.unavailable("unexpected_answer") }
        if let errcode = answer.errcode, errcode != 0 { throw Self.error(for: errcode) }
        return answer
    }

    /// WeChat's documented error codes, as Latch answers them.
    static func error(for errcode: Int) -> IdentityFailure {
        switch errcode {
        case 40029: rejected("invalid_code")
        case 40163: rejected("code_used")
        case 42003: rejected("code_expired")
        case 40030, 42002, 40001, 42001: rejected("invalid_credential")
        case 40013, 40125, 41002, 41004, 40164, 48001, 50001: unavailable("misconfigured")
        case -1, 45009, 45011: unavailable("busy")
        default: rejected("wechat_error_\(errcode)")
        }
    }

    static func rejected(_ reason: String) -> IdentityFailure {
        .rejected(.wechat, field: "code", reason: reason)
    }

    static func unavailable(_ reason: String) -> IdentityFailure {
        .unavailable(.wechat, reason: reason)
    }
}

/// A WeChat API answer: its fields, or `errcode`/`errmsg`.
protocol WeChatAnswer {
    var errcode: Int? { get }
}

extension WeChatOAuth {
    struct AccessTokenAnswer: Decodable, WeChatAnswer {
        let errcode: Int?
        let accessToken: String?
        let openid: String?
        let unionid: String?

        enum CodingKeys: String, CodingKey {
            case errcode, openid, unionid
            case accessToken = "access_token"
        }
    }

    struct UserInfoAnswer: Decodable, WeChatAnswer {
        let errcode: Int?
        let openid: String?
        let nickname: String?
        let unionid: String?
    }
}
