/// The options for `navigator.credentials.get` in their JSON form (WebAuthn Level 3
/// `PublicKeyCredentialRequestOptionsJSON`; binary fields base64url). An empty `allowCredentials`
/// asks for a discoverable credential.
public struct PublicKeyCredentialRequestOptionsJSON: Codable, Sendable, Equatable {
    /// base64url of the challenge bytes.
    public var challenge: String
    /// Milliseconds.
    public var timeout: Int
    public var rpId: String
    public var allowCredentials: [PublicKeyCredentialDescriptorJSON]
    public var userVerification: String

    public init(
        challenge: String, timeout: Int, rpId: String, allowCredentials: [PublicKeyCredentialDescriptorJSON],
        userVerification: String
    ) {
        self.challenge = challenge
        self.timeout = timeout
        self.rpId = rpId
        self.allowCredentials = allowCredentials
        self.userVerification = userVerification
    }
}
