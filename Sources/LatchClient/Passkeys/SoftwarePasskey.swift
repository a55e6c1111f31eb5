import Crypto
import Foundation
import LatchCore

/// One passkey of ``SoftwarePasskeyAuthenticator`` as it is kept in the vault (JSON): the P-256
/// private key, the credential id, the relying party, the user handle and the signature counter.
public struct SoftwarePasskey: Codable, Sendable, Equatable {
    /// base64url of the credential id.
    public var credentialID: String
    /// The relying party's id (a domain, e.g. `example.com`).
    public var rpID: String
    /// base64url of the user handle the server gave at registration.
    public var userHandle: String
    /// The account name from the creation options (`user.name`).
    public var userName: String
    /// base64url of the P-256 private key's raw representation.
    public var privateKey: String
    /// The counter of the last signature.
    public var signCount: UInt32
    public var createdAt: Date
    /// latchd's id of the passkey (`PasskeyCreated.id`), once registered.
    public var serverID: String?

    enum CodingKeys: String, CodingKey {
        case serverID = "server_id"
        case rpID = "rp_id"
        case credentialID = "credential_id"
        case userHandle = "user_handle"
        case userName = "user_name"
        case privateKey = "private_key"
        case signCount = "sign_count"
        case createdAt = "created_at"
    }

    /// LatchCore's authenticator for this passkey, at its current counter.
    func authenticator() throws -> SoftwareAuthenticator {
        guard let keyBytes = Base64URL.decode(privateKey), let id = Base64URL.decode(credentialID) else {
            throw PasskeyAuthenticatorError.failed("the stored passkey is damaged")
        }
        var authenticator = SoftwareAuthenticator(
            privateKey: try P256.Signing.PrivateKey(rawRepresentation: keyBytes), credentialID: id, signCount: signCount
        )
        authenticator.userHandle = Base64URL.decode(userHandle)
        return authenticator
    }
}
