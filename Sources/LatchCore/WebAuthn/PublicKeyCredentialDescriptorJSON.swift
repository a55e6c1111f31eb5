/// A credential named in options (`excludeCredentials`, `allowCredentials`); `id` is base64url.
public struct PublicKeyCredentialDescriptorJSON: Codable, Sendable, Equatable {
    public var type: String
    public var id: String
    public var transports: [String]?

    public init(id: String, transports: [String]? = nil) {
        self.type = "public-key"
        self.id = id
        self.transports = transports
    }
}
