import Crypto
import Foundation
import LatchCore
import SwiftASN1
// The chain is validated at latchd's clock (injected, as every rule's time), which swift-certificates offers
// through this SPI since `init(validationTime:)` was deprecated.
@_spi(FixedExpiryValidationTime) import X509

/// Checks App Attest attestations and assertions as Apple's "Validating apps that connect to your
/// server" lists them (issue 31 §2). Pure: the trust roots, app ids and environment are given, and the
/// time to validate the chain at; storing keys and counters is `AppAttestService`'s. The X.509 chain is
/// checked with swift-certificates (RFC 5280), the nonce extension read with swift-asn1.
struct AppAttestVerifier: Sendable {
    /// The certificates a chain must end at: Apple's root, or `LATCH_APP_ATTEST_ROOT_CA_FILE`'s.
    let roots: [Certificate]
    /// `TEAMID.bundle.id` of every app whose keys are accepted.
    let appIDs: [String]
    let environment: AppAttestEnvironment

    /// The key an attestation vouched for.
    struct AttestedKey: Sendable, Equatable {
        /// The attested key's public point (65-byte X9.63), which later assertions are checked with.
        let publicKey: [UInt8]
        /// Which of `appIDs` the attestation is for.
        let appID: String
        /// Apple's receipt (kept to ask Apple for a fraud-risk metric later).
        let receipt: [UInt8]

        /// The bundle id of `appID` (what follows the team id and its dot).
        var bundleID: String { String(appID.split(separator: ".", maxSplits: 1).last ?? "") }
    }

    /// A verifier for `settings`: its roots, or Apple's built in.
    init(_ settings: AppAttestSettings) throws {
        roots = try Self.roots(fromPEM: settings.rootCertificatesPEM ?? AppleAppAttestRoot.pem)
        appIDs = settings.appIDs
        environment = settings.environment
    }

    init(roots: [Certificate], appIDs: [String], environment: AppAttestEnvironment) {
        self.roots = roots
        self.appIDs = appIDs
        self.environment = environment
    }

    /// Every certificate in `pem`.
    static func roots(fromPEM pem: String) throws -> [Certificate] {
        try PEMDocument.parseMultiple(pemString: pem).map { try Certificate(pemDocument: $0) }
    }

    /// The OID of the credential certificate's nonce extension.
    static let nonceExtension: ASN1ObjectIdentifier = [1, 2, 840, 113_635, 100, 8, 2]

    /// Checks attestation object `object` of key `keyID` (base64, as the app sent it) made over
    /// `clientDataHash`, its chain valid at `now`: Apple's nine steps, each failing with its own reason.
    func verifyAttestation(
        _ object: [UInt8], keyID: String, clientDataHash: Data, now: Date
    ) async throws(AppAttestFailure) -> AttestedKey {
        let attestation: AttestationObject
        do { attestation = try AttestationObject(bytes: object) } catch { throw .malformed }
        guard attestation.format == "apple-appattest" else { throw .wrongFormat }
        guard let x5c = attestation.statement["x5c"]?.arrayItems?.compactMap(\.byteString), x5c.count >= 1,
            let receipt = attestation.statement["receipt"]?.byteString,
            let credential = attestation.authenticatorData.attestedCredential,
            let keyIDBytes = Data(base64Encoded: keyID)
        else { throw .malformed }
        let certificates: [Certificate]
        do { certificates = try x5c.map { try Certificate(derEncoded: $0) } } catch { throw .malformed }

        // 1. The chain: the credential certificate, through the intermediates, to a trusted root.
        var verifier = Verifier(rootCertificates: CertificateStore(roots)) {
            RFC5280Policy(fixedExpiryValidationTime: now)
        }
        let result = await verifier.validate(
            leaf: certificates[0], intermediates: CertificateStore(certificates.dropFirst()))
        guard case .validCertificate = result else { throw .untrustedChain }
        let leaf = certificates[0]

        // 2.–4. nonce = SHA-256(authData ‖ clientDataHash) is the one octet string of the extension.
        let nonce = Array(SHA256.hash(data: attestation.authenticatorData.bytes + Array(clientDataHash)))
        guard let found = leaf.extensions[oid: Self.nonceExtension] else { throw .nonceMismatch }
        guard let certified = try? Self.certifiedNonce(in: Array(found.value)) else { throw .malformed }
        guard certified == nonce else { throw .nonceMismatch }

        // 5. The key id is the SHA-256 of the certificate's public key (its X9.63 point).
        guard let publicKey = P256.Signing.PublicKey(leaf.publicKey) else { throw .malformed }
        let point = Array(publicKey.x963Representation)
        guard Array(SHA256.hash(data: point)) == Array(keyIDBytes) else { throw .keyIDMismatch }

        // 6. The RP ID hash is the SHA-256 of one of the app ids.
        let rpIDHash = attestation.authenticatorData.rpIDHash
        guard let appID = appIDs.first(where: { Array(SHA256.hash(data: Array($0.utf8))) == rpIDHash }) else {
            throw .appIDMismatch
        }
        // 7. A new key has signed nothing yet.
        guard attestation.authenticatorData.signCount == 0 else { throw .counterNotZero }
        // 8. The environment.
        guard credential.aaguid == environment.aaguid else { throw .wrongEnvironment }
        // 9. The credential id is the key id.
        guard credential.credentialID == Array(keyIDBytes) else { throw .credentialIDMismatch }
        return AttestedKey(publicKey: point, appID: appID, receipt: receipt)
    }

    /// Checks assertion `object` (CBOR `{signature, authenticatorData}`) over `clientDataHash` by the key
    /// attested for `appID` whose last counter was `previousCounter`; answers the new counter.
    func verifyAssertion(
        _ object: [UInt8], clientDataHash: Data, publicKey: [UInt8], appID: String, previousCounter: UInt32
    ) throws(AppAttestFailure) -> UInt32 {
        guard let assertion = try? CBORDecoder.decode(object),
            let signatureBytes = assertion["signature"]?.byteString,
            let authData = assertion["authenticatorData"]?.byteString,
            let authenticatorData = try? AuthenticatorData(bytes: authData),
            let key = try? P256.Signing.PublicKey(x963Representation: publicKey),
            let signature = try? P256.Signing.ECDSASignature(derRepresentation: signatureBytes)
        else { throw .malformed }
        // The signature is over nonce = SHA-256(authenticatorData ‖ clientDataHash) (ECDSA hashes it again).
        let nonce = Array(SHA256.hash(data: authData + Array(clientDataHash)))
        guard key.isValidSignature(signature, for: nonce) else { throw .badSignature }
        guard authenticatorData.rpIDHash == Array(SHA256.hash(data: Array(appID.utf8))) else {
            throw .appIDMismatch
        }
        guard authenticatorData.signCount > previousCounter else { throw .counterNotIncreased }
        return authenticatorData.signCount
    }

    /// The octet string in the nonce extension's value: `SEQUENCE { [1] EXPLICIT OCTET STRING }`.
    static func certifiedNonce(in value: [UInt8]) throws -> [UInt8] {
        let node = try DER.parse(value)
        return try DER.sequence(node, identifier: .sequence) { nodes in
            try DER.explicitlyTagged(&nodes, tagNumber: 1, tagClass: .contextSpecific) { node in
                Array(try ASN1OctetString(derEncoded: node).bytes)
            }
        }
    }
}
