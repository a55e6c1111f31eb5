/// `GET /.well-known/ssf-configuration` (SSF 1.0 §7.1): where a receiver finds latchd's keys and the stream
/// management endpoints. Every stream hears every account's events (`default_subjects` `ALL`: latchd has no
/// add-subject endpoint).
struct SSFTransmitterConfiguration: Codable, Sendable, Equatable {
    struct AuthorizationScheme: Codable, Sendable, Equatable {
        let specUrn: String

        enum CodingKeys: String, CodingKey { case specUrn = "spec_urn" }
    }

    let specVersion: String
    let issuer: String
    let jwksUri: String
    let deliveryMethodsSupported: [String]
    let configurationEndpoint: String
    let statusEndpoint: String
    let verificationEndpoint: String
    let authorizationSchemes: [AuthorizationScheme]
    let defaultSubjects: String

    enum CodingKeys: String, CodingKey {
        case issuer
        case specVersion = "spec_version"
        case jwksUri = "jwks_uri"
        case deliveryMethodsSupported = "delivery_methods_supported"
        case configurationEndpoint = "configuration_endpoint"
        case statusEndpoint = "status_endpoint"
        case verificationEndpoint = "verification_endpoint"
        case authorizationSchemes = "authorization_schemes"
        case defaultSubjects = "default_subjects"
    }

    static let pushMethod = "urn:ietf:rfc:8935"
    static let pollMethod = "urn:ietf:rfc:8936"

    init(issuer: String) {
        let base = issuer.hasSuffix("/") ? String(issuer.dropLast()) : issuer
        specVersion = "1_0"
        self.issuer = issuer
        jwksUri = base + "/.well-known/jwks.json"
        deliveryMethodsSupported = [Self.pushMethod, Self.pollMethod]
        configurationEndpoint = base + "/ssf/streams"
        statusEndpoint = base + "/ssf/status"
        verificationEndpoint = base + "/ssf/verify"
        authorizationSchemes = [AuthorizationScheme(specUrn: "urn:ietf:rfc:6750")]
        defaultSubjects = "ALL"
    }

    /// Where the receiver of poll stream `id` polls (RFC 8936).
    static func pollEndpoint(issuer: String, stream id: String) -> String {
        (issuer.hasSuffix("/") ? String(issuer.dropLast()) : issuer) + "/ssf/poll/" + id
    }
}
