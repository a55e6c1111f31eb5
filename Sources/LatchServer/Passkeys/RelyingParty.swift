import Foundation

/// Who latchd is to WebAuthn (issue 13): the RP ID passkeys are scoped to, the name authenticators
/// show, and the origins whose client data is accepted (`LATCH_WEBAUTHN_RP_ID`, `LATCH_WEBAUTHN_RP_NAME`,
/// `LATCH_WEBAUTHN_ORIGINS`).
public struct RelyingParty: Sendable, Equatable {
    /// A registrable domain or host, e.g. `example.com` (never an IP address).
    public var id: String
    public var name: String
    /// Serialized origins (`https://example.com`, `http://localhost:8080`, `android:apk-key-hash:…`),
    /// compared exactly with the client data's `origin`.
    public var origins: [String]

    public init(id: String, name: String, origins: [String]) {
        self.id = id
        self.name = name
        self.origins = origins
    }

    /// Development: RP ID `localhost`, the page at `http://localhost:8080`.
    public static let development = RelyingParty(id: "localhost", name: "Latch", origins: ["http://localhost:8080"])
}
