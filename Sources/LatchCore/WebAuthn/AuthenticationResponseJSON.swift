/// An assertion as `PublicKeyCredential.toJSON()` gives it after `get` (WebAuthn Level 3
/// `AuthenticationResponseJSON`; binary fields base64url).
public struct AuthenticationResponseJSON: Codable, Sendable, Equatable {
    public struct Response: Codable, Sendable, Equatable {
        public var clientDataJSON: String
        public var authenticatorData: String
        /// ES256: a DER ECDSA signature; RS256: the PKCS #1 v1.5 signature.
        public var signature: String
        /// The user handle of a discoverable credential.
        public var userHandle: String?

        public init(clientDataJSON: String, authenticatorData: String, signature: String, userHandle: String? = nil) {
            self.clientDataJSON = clientDataJSON
            self.authenticatorData = authenticatorData
            self.signature = signature
            self.userHandle = userHandle
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
