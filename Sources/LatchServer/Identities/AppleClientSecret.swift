import Crypto
import Foundation
import LatchCore

/// The `client_secret` Apple's token and revoke endpoints demand: an ES256 JWT signed with the
/// team's key, header `{alg: ES256, kid: key id}`, claims `iss` = Team ID, `iat`, `exp` (Apple allows
/// at most 6 months; latchd makes a fresh one valid for 5 minutes per call), `aud` =
/// `https://appleid.apple.com`, `sub` = the client id (the app's bundle id or Services ID).
enum AppleClientSecret {
    static let audience = "https://appleid.apple.com"
    static let lifetime: Double = 300

    /// A client secret for `clientID`, issued at `now` (seconds since 1970).
    static func make(for clientID: String, key: AppleTeamKey, now: Double) throws -> String {
        let header = Header(alg: "ES256", kid: key.keyID)
        let issuedAt = Int(now)
        let claims = Claims(iss: key.teamID, iat: issuedAt, exp: issuedAt + Int(lifetime), aud: audience, sub: clientID)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let signingInput =
            Base64URL.encode(try encoder.encode(header)) + "." + Base64URL.encode(try encoder.encode(claims))
        // JWS ES256 signatures are the raw 64-byte r‖s, not DER.
        let signature = try key.privateKey.signature(for: Data(signingInput.utf8)).rawRepresentation
        return signingInput + "." + Base64URL.encode(signature)
    }

    struct Header: Codable {
        let alg: String
        let kid: String
    }

    struct Claims: Codable {
        let iss: String
        let iat: Int
        let exp: Int
        let aud: String
        let sub: String
    }
}
