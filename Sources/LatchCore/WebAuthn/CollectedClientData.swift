import Foundation

/// The client data JSON a browser or platform builds (WebAuthn Level 3 §5.8.1); the authenticator
/// signs its SHA-256.
public struct CollectedClientData: Codable, Sendable, Equatable {
    /// `webauthn.create` or `webauthn.get`.
    public var type: String
    /// base64url of the challenge bytes.
    public var challenge: String
    /// The origin of the page or app, e.g. `https://example.com`.
    public var origin: String
    public var crossOrigin: Bool?
    public var topOrigin: String?

    public init(type: String, challenge: String, origin: String, crossOrigin: Bool? = false, topOrigin: String? = nil) {
        self.type = type
        self.challenge = challenge
        self.origin = origin
        self.crossOrigin = crossOrigin
        self.topOrigin = topOrigin
    }

    /// The client data in `bytes`, or nil when they are not its JSON.
    public static func decode(_ bytes: [UInt8]) -> CollectedClientData? {
        try? JSONDecoder().decode(CollectedClientData.self, from: Data(bytes))
    }

    /// The JSON bytes, keys in the order browsers write them.
    public var jsonBytes: [UInt8] {
        func quoted(_ text: String) -> String {
            let data = (try? JSONEncoder().encode(text)) ?? Data("\"\"".utf8)
            return String(decoding: data, as: UTF8.self)
        }
        var json = "{\"type\":\(quoted(type)),\"challenge\":\(quoted(challenge)),\"origin\":\(quoted(origin))"
        if let crossOrigin { json += ",\"crossOrigin\":\(crossOrigin)" }
        if let topOrigin { json += ",\"topOrigin\":\(quoted(topOrigin))" }
        return Array((json + "}").utf8)
    }
}
