import Crypto
import Foundation
import LatchCore

/// How Apple checks a `client_secret` (Sign in with Apple REST API, "Creating a client secret"):
/// a compact JWT, header `alg` ES256 and `kid` the key id, signed by the team's key, claims `iss` the
/// Team ID, `aud` `https://appleid.apple.com`, `sub` the client id, `iat` not in the future and `exp`
/// after now and at most 6 months (15,777,000 s) after `iat`.
enum AppleClientSecretCheck {
    static let maximumLifetime: Double = 15_777_000

    /// Why `secret` would be refused (`invalid_client`), or nil when Apple would accept it.
    static func refusal(_ secret: String?, clientID: String, publicKey: P256.Signing.PublicKey, now: Date) -> String? {
        guard let secret else { return "missing" }
        let parts = secret.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 3, let header = object(parts[0]), let claims = object(parts[1]),
            let signatureBytes = Base64URL.decode(parts[2])
        else { return "malformed" }
        guard header["alg"] as? String == "ES256" else { return "wrong_alg" }
        guard header["kid"] as? String == ProviderStandIn.appleKeyID else { return "wrong_kid" }
        guard let signature = try? P256.Signing.ECDSASignature(rawRepresentation: Data(signatureBytes)),
            publicKey.isValidSignature(signature, for: Data((parts[0] + "." + parts[1]).utf8))
        else { return "bad_signature" }
        guard claims["iss"] as? String == ProviderStandIn.appleTeamID else { return "wrong_iss" }
        guard claims["aud"] as? String == "https://appleid.apple.com" else { return "wrong_aud" }
        guard claims["sub"] as? String == clientID, !clientID.isEmpty else { return "wrong_sub" }
        guard let iat = (claims["iat"] as? NSNumber)?.doubleValue, let exp = (claims["exp"] as? NSNumber)?.doubleValue
        else {
            return "missing_times"
        }
        let seconds = now.timeIntervalSince1970
        guard iat <= seconds + 60 else { return "iat_in_future" }
        guard exp > seconds else { return "expired" }
        guard exp - iat <= maximumLifetime else { return "exp_too_far" }
        return nil
    }

    private static func object(_ part: String) -> [String: Any]? {
        guard let bytes = Base64URL.decode(part) else { return nil }
        return (try? JSONSerialization.jsonObject(with: Data(bytes))) as? [String: Any]
    }
}
