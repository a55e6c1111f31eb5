/// The options for `navigator.credentials.create` in their JSON form (WebAuthn Level 3
/// `PublicKeyCredentialCreationOptionsJSON`; binary fields base64url), as
/// `PublicKeyCredential.parseCreationOptionsFromJSON` takes them.
public struct PublicKeyCredentialCreationOptionsJSON: Codable, Sendable, Equatable {
    public struct RelyingParty: Codable, Sendable, Equatable {
        public var id: String
        public var name: String

        public init(id: String, name: String) {
            self.id = id
            self.name = name
        }
    }

    public struct User: Codable, Sendable, Equatable {
        /// base64url of the user handle (opaque, at most 64 bytes).
        public var id: String
        public var name: String
        public var displayName: String

        public init(id: String, name: String, displayName: String) {
            self.id = id
            self.name = name
            self.displayName = displayName
        }
    }

    public struct Parameter: Codable, Sendable, Equatable {
        public var type: String
        public var alg: Int

        public init(alg: COSEAlgorithm) {
            self.type = "public-key"
            self.alg = alg.rawValue
        }
    }

    public struct AuthenticatorSelection: Codable, Sendable, Equatable {
        public var residentKey: String
        public var requireResidentKey: Bool
        public var userVerification: String

        public init(residentKey: String, requireResidentKey: Bool, userVerification: String) {
            self.residentKey = residentKey
            self.requireResidentKey = requireResidentKey
            self.userVerification = userVerification
        }
    }

    public var rp: RelyingParty
    public var user: User
    /// base64url of the challenge bytes.
    public var challenge: String
    public var pubKeyCredParams: [Parameter]
    /// Milliseconds.
    public var timeout: Int
    public var excludeCredentials: [PublicKeyCredentialDescriptorJSON]
    public var authenticatorSelection: AuthenticatorSelection
    public var attestation: String

    public init(
        rp: RelyingParty, user: User, challenge: String, pubKeyCredParams: [Parameter], timeout: Int,
        excludeCredentials: [PublicKeyCredentialDescriptorJSON], authenticatorSelection: AuthenticatorSelection,
        attestation: String
    ) {
        self.rp = rp
        self.user = user
        self.challenge = challenge
        self.pubKeyCredParams = pubKeyCredParams
        self.timeout = timeout
        self.excludeCredentials = excludeCredentials
        self.authenticatorSelection = authenticatorSelection
        self.attestation = attestation
    }
}
