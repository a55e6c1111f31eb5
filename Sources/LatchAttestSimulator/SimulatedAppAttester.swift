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
    /// The CA (nil until loaded from `vault`, for an attester that keeps its state there).
    private var ca: SimulatedAppAttestCA?
    /// Where the CA's root key and the keys are kept between runs (the CLI's home); nil: memory only.
    private let vault: (any TokenVault)?
    private var loaded = false
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
        self.vault = nil
        self.appID = appID
        self.environment = environment
        self.fault = fault
    }

    /// An attester that keeps its CA (made on first use) and its keys and counters in `vault`, as the
    /// `latch` CLI does in its home: what one run attests, the next run asserts.
    public init(
        appID: String, environment: AppAttestEnvironment = .development, vault: any TokenVault,
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.now = now
        self.ca = nil
        self.vault = vault
        self.appID = appID
        self.environment = environment
        self.fault = nil
    }

    /// The vault item of a persistent attester's keys (its CA is `SimulatedAppAttestCA.vaultKey`).
    static let keysVaultKey = "simulated-app-attest-keys"

    /// The CA that certifies this attester's keys (for a persistent attester: read from the vault, or made
    /// and kept there on first use). Its `rootPEM` is what latchd must trust.
    public func certificateAuthority() async throws -> SimulatedAppAttestCA {
        if let ca { return ca }
        guard let vault else { throw SimulatedAppAttesterError.unknownKey }
        let stored = try await SimulatedAppAttestCA.stored(in: vault)
        ca = stored
        return stored
    }

    /// Reads the keys a persistent attester kept (once).
    private func load() async throws {
        guard !loaded, let vault else { return }
        loaded = true
        guard case .found(let data) = await vault.read(Self.keysVaultKey) else { return }
        let stored = try JSONDecoder().decode([String: StoredKey].self, from: data)
        for (keyID, entry) in stored {
            keys[keyID] = (try P256.Signing.PrivateKey(rawRepresentation: entry.key), entry.counter)
        }
    }

    /// Keeps the keys of a persistent attester.
    private func save() async throws {
        guard let vault else { return }
        let stored = keys.mapValues { StoredKey(key: $0.key.rawRepresentation, counter: $0.counter) }
        try await vault.write(try JSONEncoder().encode(stored), for: Self.keysVaultKey)
    }

    private struct StoredKey: Codable {
        let key: Data
        let counter: UInt32
    }

    /// Sets `fault` for the attestations and assertions that follow.
    public func setFault(_ fault: Fault?) { self.fault = fault }

    public func generateKey() async throws -> String {
        try await load()
        let key = P256.Signing.PrivateKey()
        let keyID = Data(SHA256.hash(data: key.publicKey.x963Representation)).base64EncodedString()
        keys[keyID] = (key, 0)
        try await save()
        return keyID
    }

    public func attestKey(_ keyID: String, clientDataHash: Data) async throws -> Data {
        try await load()
        let ca = try await certificateAuthority()
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
        try await load()
        guard var entry = keys[keyID] else { throw SimulatedAppAttesterError.unknownKey }
        entry.counter += 1
        keys[keyID] = entry
        try await save()
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
    /// The vault that keeps the attester's state cannot be read now.
    case vaultUnavailable
}
