/// A new credential as `PublicKeyCredential.toJSON()` gives it after `create` (WebAuthn Level 3
/// `RegistrationResponseJSON`; binary fields base64url).
public struct RegistrationResponseJSON: Codable, Sendable, Equatable {
    public struct Response: Codable, Sendable, Equatable {
        public var clientDataJSON: String
        public var attestationObject: String
        /// e.g. `internal`, `hybrid`, `usb`.
        public var transports: [String]?

        public init(clientDataJSON: String, attestationObject: String, transports: [String]? = nil) {
            self.clientDataJSON = clientDataJSON
            self.attestationObject = attestationObject
            self.transports = transports
        }
    }

    /// base64url of the credential id (the same as `rawId`).
    public var id: String
    public var rawId: String
    /// `public-key`.
    public var type: String
    public var response: Response
    public var authenticatorAttachment: String?

    public init(id: String, rawId: String, response: Response, authenticatorAttachment: String? = nil) {
        self.id = id
        self.rawId = rawId
        self.type = "public-key"
        self.response = response
        self.authenticatorAttachment = authenticatorAttachment
    }
}
