import Crypto
import Foundation
import LatchClient
import SwiftASN1
import X509

/// The test CA of the simulated attester (issue 31 §3): a root and an intermediate shaped like Apple's
/// App Attest CA (P-384, a root, "App Attestation CA 1" under it), which issues each attested key its
/// credential certificate with the nonce extension. latchd trusts it through
/// `LATCH_APP_ATTEST_ROOT_CA_FILE` (`rootPEM`); a CA latchd was not given is an untrusted root.
public struct SimulatedAppAttestCA: Sendable {
    /// The root's key: keep it (`rootKey.rawRepresentation`) to make the same CA again.
    public let rootKey: P384.Signing.PrivateKey
    public let root: Certificate
    public let intermediate: Certificate
    private let intermediateKey: P384.Signing.PrivateKey

    /// A CA with `rootKey` (a new one by default); its certificates are valid from 2020 to 2100.
    public init(rootKey: P384.Signing.PrivateKey = P384.Signing.PrivateKey()) throws {
        self.rootKey = rootKey
        // Derived from the root's key, so a CA made again from the same root key is the same CA.
        let intermediateKey = try P384.Signing.PrivateKey(
            rawRepresentation: SHA384.hash(data: rootKey.rawRepresentation + Data("intermediate".utf8)))
        self.intermediateKey = intermediateKey
        let rootName = try DistinguishedName {
            CommonName("Simulated App Attestation Root CA")
            OrganizationName("Latch")
        }
        let intermediateName = try DistinguishedName {
            CommonName("Simulated App Attestation CA 1")
            OrganizationName("Latch")
        }
        let (from, until) = (Date(timeIntervalSince1970: 1_577_836_800), Date(timeIntervalSince1970: 4_102_444_800))
        root = try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(bytes: [1]), publicKey: .init(rootKey.publicKey),
            notValidBefore: from, notValidAfter: until, issuer: rootName, subject: rootName,
            signatureAlgorithm: .ecdsaWithSHA384,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: nil))
                Critical(KeyUsage(keyCertSign: true, cRLSign: true))
            },
            issuerPrivateKey: .init(rootKey))
        intermediate = try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(bytes: [2]),
            publicKey: .init(intermediateKey.publicKey), notValidBefore: from, notValidAfter: until,
            issuer: rootName, subject: intermediateName, signatureAlgorithm: .ecdsaWithSHA384,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: 0))
                Critical(KeyUsage(keyCertSign: true, cRLSign: true))
            },
            issuerPrivateKey: .init(rootKey))
    }

    /// The vault item holding a kept CA's root key.
    public static let vaultKey = "simulated-app-attest-ca"

    /// The CA kept in `vault` (the CLI's home), made and kept there on first use.
    public static func stored(in vault: any TokenVault) async throws -> SimulatedAppAttestCA {
        switch await vault.read(vaultKey) {
        case .found(let data):
            return try SimulatedAppAttestCA(rootKey: try P384.Signing.PrivateKey(rawRepresentation: data))
        case .notFound:
            let made = try SimulatedAppAttestCA()
            try await vault.write(made.rootKey.rawRepresentation, for: vaultKey)
            return made
        case .unavailable: throw SimulatedAppAttesterError.vaultUnavailable
        }
    }

    /// The root certificate in PEM: the file for `LATCH_APP_ATTEST_ROOT_CA_FILE`.
    public var rootPEM: String {
        get throws { try root.serializeAsPEM().pemString }
    }

    /// The credential certificate of `publicKey` (valid a day before and a year after `now`), carrying
    /// `nonce` in extension 1.2.840.113635.100.8.2 as Apple encodes it: `SEQUENCE { [1] OCTET STRING }`.
    func credentialCertificate(for publicKey: P256.Signing.PublicKey, nonce: [UInt8], now: Date) throws
        -> Certificate
    {
        let keyID = Data(SHA256.hash(data: publicKey.x963Representation))
        let subject = try DistinguishedName {
            CommonName(keyID.map { String(format: "%02x", $0) }.joined())
            OrganizationalUnitName("AAA Certification")
            OrganizationName("Latch")
        }
        var serializer = DER.Serializer()
        try serializer.appendConstructedNode(identifier: .sequence) { sequence in
            try sequence.serialize(
                ASN1OctetString(contentBytes: ArraySlice(nonce)), explicitlyTaggedWithTagNumber: 1,
                tagClass: .contextSpecific)
        }
        return try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: .init(publicKey),
            notValidBefore: now - 86_400, notValidAfter: now + 365 * 86_400, issuer: intermediate.subject,
            subject: subject, signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.notCertificateAuthority)
                Critical(KeyUsage(digitalSignature: true))
                Certificate.Extension(
                    oid: [1, 2, 840, 113_635, 100, 8, 2], critical: false, value: ArraySlice(serializer.serializedBytes)
                )
            },
            issuerPrivateKey: .init(intermediateKey))
    }
}
