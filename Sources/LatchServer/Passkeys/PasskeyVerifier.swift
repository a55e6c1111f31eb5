import Crypto
import Foundation
import LatchCore
import _CryptoExtras

/// The relying party's checks of WebAuthn responses (WebAuthn Level 3 §7.1 and §7.2), with no I/O:
/// the routes give it the expected challenge and the stored key, and store what it returns.
struct PasskeyVerifier: Sendable {
    let relyingParty: RelyingParty

    /// A checked registration, ready to store.
    struct Registration: Sendable {
        let credentialID: String
        let publicKey: String
        let signCount: UInt32
        let backupEligible: Bool
        let backedUp: Bool
        /// `none` or `self` (`unverified` only on passkeys registered before issue 20).
        let attestation: String
        let aaguid: String
    }

    /// A checked assertion.
    struct Assertion: Sendable {
        let signCount: UInt32
        let backedUp: Bool
        let userHandle: [UInt8]?
    }

    /// RSA keys at registration (issue 20 §7): at least 2048 bits, public exponent 65537.
    static let minimumRSABits = 2048

    /// §7.1: client data (type `webauthn.create`, the challenge, an allowed origin, not cross-origin),
    /// authenticator data (RP ID hash, UP, UV, AT with a credential whose id is `rawId` and whose key
    /// is ES256, or RS256 of at least 2048 bits with e = 65537), and the attestation statement:
    /// `none` (an empty statement), or `packed` self-attestation with its signature checked. Any other
    /// statement (a certificate chain latchd cannot check, another format) is refused, never stored
    /// as "unverified" (issue 20 §7).
    func verifyRegistration(_ credential: RegistrationResponseJSON, challenge: String) throws(PasskeyCheckFailure)
        -> Registration
    {
        guard credential.type == "public-key", credential.id == credential.rawId,
            let rawID = Base64URL.decode(credential.rawId), !rawID.isEmpty,
            let clientData = Base64URL.decode(credential.response.clientDataJSON),
            let objectBytes = Base64URL.decode(credential.response.attestationObject)
        else { throw .malformed }
        try checkClientData(clientData, type: "webauthn.create", challenge: challenge)
        guard let object = try? AttestationObject(bytes: objectBytes) else { throw .malformed }
        let authData = object.authenticatorData
        try checkAuthenticatorData(authData)
        guard let attested = authData.attestedCredential else { throw .noAttestedCredential }
        guard attested.credentialID == rawID else { throw .credentialIDMismatch }
        guard let key = try? COSEPublicKey(cbor: attested.publicKey) else { throw .unsupportedAlgorithm }
        if case .rs256(let modulus, let exponent) = key {
            guard Self.bitLength(modulus) >= Self.minimumRSABits, Array(exponent.drop { $0 == 0 }) == [1, 0, 1] else {
                throw .weakKey
            }
        }
        let attestation = try checkAttestation(object, key: key, clientDataHash: Array(SHA256.hash(data: clientData)))
        return Registration(
            credentialID: Base64URL.encode(rawID), publicKey: Base64URL.encode(attested.publicKeyBytes),
            signCount: authData.signCount, backupEligible: authData.flags.contains(.backupEligible),
            backedUp: authData.flags.contains(.backedUp), attestation: attestation,
            aaguid: Hex.lowercase(attested.aaguid))
    }

    /// §7.2: client data (type `webauthn.get`, the challenge, an allowed origin, not cross-origin),
    /// authenticator data (RP ID hash, UP, UV, and the backup-eligible flag as registered:
    /// `backupEligible`, which never changes for a credential, §6.1.3), and the signature over
    /// authData ‖ SHA-256(clientDataJSON) by `publicKey` (base64url COSE). The counter is the caller's
    /// to compare (atomically, in the database).
    func verifyAssertion(
        _ credential: AuthenticationResponseJSON, challenge: String, publicKey: String, backupEligible: Bool
    )
        throws(PasskeyCheckFailure)
        -> Assertion
    {
        guard credential.type == "public-key", credential.id == credential.rawId,
            let clientData = Base64URL.decode(credential.response.clientDataJSON),
            let authBytes = Base64URL.decode(credential.response.authenticatorData),
            let signature = Base64URL.decode(credential.response.signature)
        else { throw .malformed }
        let userHandle: [UInt8]?
        if let handle = credential.response.userHandle, !handle.isEmpty {
            guard let bytes = Base64URL.decode(handle) else { throw .malformed }
            userHandle = bytes
        } else {
            userHandle = nil
        }
        try checkClientData(clientData, type: "webauthn.get", challenge: challenge)
        guard let authData = try? AuthenticatorData(bytes: authBytes) else { throw .malformed }
        try checkAuthenticatorData(authData)
        guard authData.flags.contains(.backupEligible) == backupEligible else { throw .backupEligibilityMismatch }
        guard let coseBytes = Base64URL.decode(publicKey), let cbor = try? CBORDecoder.decode(coseBytes),
            let key = try? COSEPublicKey(cbor: cbor)
        else { throw .unsupportedAlgorithm }
        guard Self.isValid(signature: signature, over: authBytes + Array(SHA256.hash(data: clientData)), by: key) else {
            throw .badSignature
        }
        return Assertion(
            signCount: authData.signCount, backedUp: authData.flags.contains(.backedUp), userHandle: userHandle)
    }

    private func checkClientData(_ bytes: [UInt8], type: String, challenge: String) throws(PasskeyCheckFailure) {
        guard let clientData = CollectedClientData.decode(bytes) else { throw .malformed }
        guard clientData.type == type else { throw .wrongType }
        // Compared as canonical base64url (padding or not), in constant time.
        guard let presented = Base64URL.decode(clientData.challenge),
            SecretBox.constantTimeEquals(Base64URL.encode(presented), challenge)
        else { throw .challengeMismatch }
        guard relyingParty.origins.contains(clientData.origin) else { throw .originNotAllowed }
        guard clientData.crossOrigin != true, clientData.topOrigin == nil else { throw .crossOrigin }
    }

    private func checkAuthenticatorData(_ authData: AuthenticatorData) throws(PasskeyCheckFailure) {
        guard authData.rpIDHash == Array(SHA256.hash(data: Data(relyingParty.id.utf8))) else { throw .rpIDMismatch }
        guard authData.flags.contains(.userPresent) else { throw .userNotPresent }
        guard authData.flags.contains(.userVerified) else { throw .userNotVerified }
    }

    /// The attestation kind, after checking what can be checked without trusting a certificate chain.
    private func checkAttestation(_ object: AttestationObject, key: COSEPublicKey, clientDataHash: [UInt8])
        throws(PasskeyCheckFailure)
        -> String
    {
        switch object.format {
        case "none":
            guard object.statement.mapEntries?.isEmpty == true else { throw .badAttestation }
            return "none"
        case "packed":
            // With a certificate (x5c) it is full attestation, whose chain latchd cannot check: refused.
            guard object.statement["x5c"] == nil else { throw .unverifiableAttestation }
            guard object.statement["alg"]?.integer == key.algorithm.rawValue,
                let signature = object.statement["sig"]?.byteString,
                Self.isValid(signature: signature, over: object.authenticatorData.bytes + clientDataHash, by: key)
            else { throw .badAttestation }
            return "self"
        default:
            throw .unverifiableAttestation
        }
    }

    /// The bit length of a big-endian unsigned integer.
    static func bitLength(_ bytes: [UInt8]) -> Int {
        let significant = bytes.drop { $0 == 0 }
        guard let first = significant.first else { return 0 }
        return (significant.count - 1) * 8 + (8 - first.leadingZeroBitCount)
    }

    /// ES256: a DER ECDSA signature; RS256: PKCS #1 v1.5 with SHA-256 (`_CryptoExtras`).
    static func isValid(signature: [UInt8], over message: [UInt8], by key: COSEPublicKey) -> Bool {
        switch key {
        case .es256(let publicKey):
            guard let parsed = try? P256.Signing.ECDSASignature(derRepresentation: signature) else { return false }
            return publicKey.isValidSignature(parsed, for: Data(message))
        case .rs256(let modulus, let exponent):
            guard let publicKey = try? _RSA.Signing.PublicKey(n: modulus, e: exponent) else { return false }
            return publicKey.isValidSignature(
                _RSA.Signing.RSASignature(rawRepresentation: signature), for: Data(message), padding: .insecurePKCS1v1_5
            )
        }
    }
}
