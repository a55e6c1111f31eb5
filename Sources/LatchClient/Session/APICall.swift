import Foundation

/// One typed call of the Latch HTTP API: what to send and how to read the success answer.
///
/// ``LatchAPI/perform(_:accessToken:)`` sends it with a given access token;
/// ``LatchClient/perform(_:)`` adds the session's token, refreshing it as needed. The calls of the
/// contract are static members (`APICall<UserInfo>.me`, `APICall<[SessionInfo]>.sessions`, …); a feature
/// can describe its own:
///
///     let bind = APICall<DeviceCredentialCreated>(
///         method: "POST", path: "/v1/device-credentials", body: request, requiresAuthorization: true)
///     let created = try await client.perform(bind)
public struct APICall<Response: Sendable>: Sendable {
    /// `GET`, `POST`, …
    public var method: String
    /// The path below the server URL, with its query if any: `/v1/sessions?scope=others`.
    public var path: String
    /// The JSON body, encoded when the request is built.
    public var body: (any Encodable & Sendable)?
    /// Whether the call needs the session's bearer token.
    public var requiresAuthorization: Bool
    /// Reads a 2xx answer's body.
    public var decode: @Sendable (Data) throws -> Response

    public init(
        method: String, path: String, body: (any Encodable & Sendable)? = nil, requiresAuthorization: Bool,
        decode: @escaping @Sendable (Data) throws -> Response
    ) {
        self.method = method
        self.path = path
        self.body = body
        self.requiresAuthorization = requiresAuthorization
        self.decode = decode
    }
}

extension APICall where Response: Decodable {
    /// A call whose answer is a JSON `Response`.
    public init(method: String, path: String, body: (any Encodable & Sendable)? = nil, requiresAuthorization: Bool) {
        self.init(method: method, path: path, body: body, requiresAuthorization: requiresAuthorization) { data in
            try APIJSON.decoder().decode(Response.self, from: data)
        }
    }
}

extension APICall where Response == Void {
    /// A call whose answer has no body worth reading (204, 202).
    public init(method: String, path: String, body: (any Encodable & Sendable)? = nil, requiresAuthorization: Bool) {
        self.init(method: method, path: path, body: body, requiresAuthorization: requiresAuthorization) { _ in }
    }
}

extension APICall {
    /// `component` escaped for use as one path segment.
    static func segment(_ component: String) -> String {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: "/?#")
        return component.addingPercentEncoding(withAllowedCharacters: allowed) ?? component
    }
}
