import Crypto
import Foundation
import NIOSSL
import SwiftASN1
import X509

/// A self-signed certificate and its key, made in code for the test SMTP server's TLS (no `openssl`
/// command): a P-256 key, CN=localhost, valid from an hour ago for a day, with the subjectAltNames the
/// test asks for (`IP:127.0.0.1,DNS:localhost` by default, the `--san` syntax of the aiosmtpd sink).
struct TestCertificate {
    let certificate: NIOSSLCertificate
    let privateKey: NIOSSLPrivateKey
    /// The certificate in PEM, for a client's trust roots.
    let pem: String

    enum Failure: Error { case badSubjectAltName(String) }

    init(subjectAltNames san: String = "IP:127.0.0.1,DNS:localhost") throws {
        let key = P256.Signing.PrivateKey()
        let name = try DistinguishedName { CommonName("localhost") }
        let names: [GeneralName] = try san.split(separator: ",").map { entry in
            let parts = entry.split(separator: ":", maxSplits: 1).map(String.init)
            guard parts.count == 2 else { throw Failure.badSubjectAltName(String(entry)) }
            switch parts[0].uppercased() {
            case "DNS": return .dnsName(parts[1])
            case "IP":
                let octets = parts[1].split(separator: ".").compactMap { UInt8($0) }
                guard octets.count == 4 else { throw Failure.badSubjectAltName(String(entry)) }
                return .ipAddress(ASN1OctetString(contentBytes: ArraySlice(octets)))
            default: throw Failure.badSubjectAltName(String(entry))
            }
        }
        let now = Date()
        let certificate = try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: .init(key.publicKey),
            notValidBefore: now - 3600, notValidAfter: now + 86_400, issuer: name, subject: name,
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: nil))
                SubjectAlternativeNames(names)
            },
            issuerPrivateKey: .init(key))
        pem = try certificate.serializeAsPEM().pemString
        self.certificate = try NIOSSLCertificate(bytes: Array(pem.utf8), format: .pem)
        privateKey = try NIOSSLPrivateKey(bytes: Array(key.pemRepresentation.utf8), format: .pem)
    }

    /// A TLS server context presenting this certificate.
    func serverContext() throws -> NIOSSLContext {
        try NIOSSLContext(
            configuration: .makeServerConfiguration(
                certificateChain: [.certificate(certificate)], privateKey: .privateKey(privateKey)))
    }
}
