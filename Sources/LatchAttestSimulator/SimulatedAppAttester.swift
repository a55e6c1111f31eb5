import Crypto
import Foundation
import LatchClient
import LatchCore
import SwiftASN1
import X509

/// App Attest without an iPhone (issue 31 §3): keys in memory, attestations by a `SimulatedAppAttestCA`,
/// assertions with a counter, byte for byte in Apple's formats, so latchd verifies them exactly as it
/// verifies Apple's. `fault` makes the next attestations wrong in one way, for tests of each check.
public actor SimulatedAppAttester: AppAttester {
    /// One thing a real attestation never gets wrong, to see latchd refuse it.
    public enum Fault: Sendable, Equatable {
        /// The nonce extension is over other client data.
        case nonce
        /// The authenticator data's counter is 1.
        case counter
        /// The credential id is not the key id.
        case credentialID
        /// The format is `packed`, not `apple-appattest`.
        case format
    }

    public nonisolated let isSupported = true
    public let ca: SimulatedAppAttestCA
    /// `TEAMID.bundle.id` of the simulated app.
    public let appID: String
    public let environment: AppAttestEnvironment
    public var fault: Fault?
    /// The time credential certificates are valid around (a day before, a year after).
    private let now: @Sendable () -> Date
    private var keys: [String: (key: P256.Signing.PrivateKey, counter: UInt32)] = [:]

    public init(
        ca: SimulatedAppAttestCA, appID: String, environment: AppAttestEnvironment = .development, fault: Fault? = nil,
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.now = now
        self.ca = ca
        self.appID = appID
        self.environment = environment
        self.fault = fault
    }

    /// Sets `fault` for the attestations and assertions that follow.
    public func setFault(_ fault: Fault?) { self.fault = fault }

    public func generateKey() async throws -> String {
        let key = P256.Signing.PrivateKey()
        let keyID = Data(SHA256.hash(data: key.publicKey.x963Representation)).base64EncodedString()
        keys[keyID] = (key, 0)
        return keyID
    }

    public func attestKey(_ keyID: String, clientDataHash: Data) async throws -> Data {
        guard let (key, _) = keys[keyID], let keyIDBytes = Data(base64Encoded: keyID) else {
            throw SimulatedAppAttesterError.unknownKey
        }
        let credentialID = fault == .credentialID ? Array(SHA256.hash(data: keyIDBytes)) : Array(keyIDBytes)
        var authData = rpIDHash
        authData.append(0x40) // AT: attested credential data follows
        authData += Self.bigEndian(fault == .counter ? 1 : 0)
        authData += environment.aaguid
        authData += [UInt8(credentialID.count >> 8), UInt8(credentialID.count & 0xff)] + credentialID
        authData += CBOREncoder.encode(Self.coseKey(key.publicKey))
        let signedHash = fault == .nonce ? Data(SHA256.hash(data: Data("other".utf8))) : clientDataHash
        let nonce = Array(SHA256.hash(data: authData + Array(signedHash)))
        let certificate = try ca.credentialCertificate(for: key.publicKey, nonce: nonce, now: now())
        let object = CBORValue.map([
            CBORMapEntry(.text("fmt"), .text(fault == .format ? "packed" : "apple-appattest")),
            CBORMapEntry(
                .text("attStmt"),
                .map([
                    CBORMapEntry(
                        .text("x5c"),
                        .array([.bytes(try Self.der(certificate)), .bytes(try Self.der(ca.intermediate))])),
                    CBORMapEntry(.text("receipt"), .bytes(Array("simulated receipt for \(keyID)".utf8)))
                ])),
            CBORMapEntry(.text("authData"), .bytes(authData))
        ])
        return Data(CBOREncoder.encode(object))
    }

    public func generateAssertion(_ keyID: String, clientDataHash: Data) async throws -> Data {
        guard var entry = keys[keyID] else { throw SimulatedAppAttesterError.unknownKey }
        entry.counter += 1
        keys[keyID] = entry
        let authData = rpIDHash + [0x00] + Self.bigEndian(entry.counter)
        let nonce = SHA256.hash(data: authData + Array(clientDataHash))
        let signature = try entry.key.signature(for: Data(nonce))
        let object = CBORValue.map([
            CBORMapEntry(.text("signature"), .bytes(Array(signature.derRepresentation))),
            CBORMapEntry(.text("authenticatorData"), .bytes(authData))
        ])
        return Data(CBOREncoder.encode(object))
    }

    /// Sets key `keyID`'s counter (a test replays an old assertion by moving it back).
    public func setCounter(_ counter: UInt32, of keyID: String) {
        keys[keyID]?.counter = counter
    }

    private var rpIDHash: [UInt8] { Array(SHA256.hash(data: Array(appID.utf8))) }

    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xff), UInt8(value >> 8 & 0xff), UInt8(value & 0xff)]
    }

    private static func der(_ certificate: Certificate) throws -> [UInt8] {
        var serializer = DER.Serializer()
        try serializer.serialize(certificate)
        return serializer.serializedBytes
    }

    /// The EC2 COSE key (ES256) of `publicKey`, as App Attest's authenticator data carries it.
    private static func coseKey(_ publicKey: P256.Signing.PublicKey) -> CBORValue {
        let point = Array(publicKey.x963Representation)
        return .map([
            CBORMapEntry(.int(1), .int(2)), CBORMapEntry(.int(3), .int(-7)), CBORMapEntry(.int(-1), .int(1)),
            CBORMapEntry(.int(-2), .bytes(Array(point[1..<33]))), CBORMapEntry(.int(-3), .bytes(Array(point[33...])))
        ])
    }
}

/// Why the simulated attester refuses a call.
public enum SimulatedAppAttesterError: Error, Sendable {
    /// No key with this id was generated here.
    case unknownKey
}
