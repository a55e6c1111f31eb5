import Crypto
import Foundation
import LatchCore

/// Builds DPoP proofs (RFC 9449 §4.2) as pure values: header `typ` `dpop+jwt`, `alg` `ES256`, `jwk`; claims
/// `jti` (random), `htm`, `htu` (the URL without query and fragment), `iat`, and `ath` and `nonce` when given.
enum DPoPProofMaker {
    /// The proof for `method` on `url` at `now`, signed by `key`.
    static func proof(
        key: any DPoPKey, method: String, url: URL, now: Date, accessToken: String? = nil, nonce: String? = nil
    ) async throws -> String {
        let (x, y) = key.publicCoordinates
        let jwk = #"{"crv":"P-256","kty":"EC","x":"\#(Base64URL.encode(x))","y":"\#(Base64URL.encode(y))"}"#
        let header = #"{"alg":"ES256","jwk":\#(jwk),"typ":"dpop+jwt"}"#
        var claims: [String] = [
            #""htm":\#(jsonString(method))"#, #""htu":\#(jsonString(htu(of: url)))"#,
            #""iat":\#(Int(now.timeIntervalSince1970))"#, #""jti":"\#(UUID().uuidString.lowercased())""#
        ]
        if let accessToken {
            claims.append(#""ath":"\#(Base64URL.encode(Data(SHA256.hash(data: Data(accessToken.utf8)))))""#)
        }
        if let nonce { claims.append(#""nonce":\#(jsonString(nonce))"#) }
        let input =
            Base64URL.encode(Data(header.utf8)) + "."
            + Base64URL.encode(Data("{\(claims.joined(separator: ","))}".utf8))
        let signature = try await key.sign(Data(input.utf8))
        return input + "." + Base64URL.encode(signature)
    }

    /// `url` without its query and fragment (RFC 9449 §4.2: `htu`).
    static func htu(of url: URL) -> String {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
            return url.absoluteString
        }
        components.query = nil
        components.fragment = nil
        return components.string ?? url.absoluteString
    }

    private static func jsonString(_ value: String) -> String {
        let data = (try? JSONEncoder().encode(value)) ?? Data("\"\"".utf8)
        return String(decoding: data, as: UTF8.self)
    }

    /// Whether `accessToken` is bound to a key (its claims carry `cnf.jkt`): such a token is sent only as
    /// `Authorization: DPoP`, never as `Bearer`. Read without verifying: the token is this session's own.
    static func isBound(_ accessToken: String) -> Bool {
        let parts = accessToken.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let bytes = Base64URL.decode(String(parts[1])),
            let claims = (try? JSONSerialization.jsonObject(with: Data(bytes))) as? [String: Any],
            let cnf = claims["cnf"] as? [String: Any]
        else { return false }
        return cnf["jkt"] is String
    }
}
