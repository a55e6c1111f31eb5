import Crypto
import Foundation

/// A passkey in software, for tests and the CLI: one P-256 credential that answers
/// `navigator.credentials.create` (attestation `none`, or `packed` self-attestation) and `get`
/// (with a signature counter) with real WebAuthn responses, as a browser would pass them on.
///
///     var passkey = SoftwareAuthenticator()
///     let credential = try passkey.register(options: creation, origin: "https://example.com")
///     let assertion = try passkey.assert(challenge: request.challenge, rpID: "example.com", origin: "https://example.com")
///
/// The parameters after the first ones exist for tests that make a response wrong on purpose
/// (another origin, another RP ID, UV unset, a counter going backwards).
public struct SoftwareAuthenticator: Sendable {
    /// How a registration is attested.
    public enum AttestationFormat: Sendable {
        /// `fmt: "none"`, an empty statement and a zero AAGUID.
        case none
        /// `fmt: "packed"` signed by the credential key itself (no certificate).
        case packedSelf
    }

    /// Why the authenticator cannot answer.
    public enum Failure: Error, Sendable, Equatable {
        /// The challenge in the options is not base64url.
        case invalidChallenge
    }

    public let privateKey: P256.Signing.PrivateKey
    public let credentialID: [UInt8]
    /// Added to the counter before each assertion: 1 like a security key, 0 like a synced passkey
    /// (whose counter stays 0).
    public var counterStep: UInt32
    /// The counter of the last signature.
    public var signCount: UInt32
    /// The user handle given at registration, returned by assertions (discoverable credential).
    public var userHandle: [UInt8]?
    /// The BE and BS flags this authenticator reports.
    public var backupEligible: Bool
    public var backedUp: Bool

    public init(
        privateKey: P256.Signing.PrivateKey = P256.Signing.PrivateKey(), credentialID: [UInt8]? = nil,
        counterStep: UInt32 = 1,
        signCount: UInt32 = 0, backupEligible: Bool = false, backedUp: Bool = false
    ) {
        var generator = SystemRandomNumberGenerator()
        self.privateKey = privateKey
        self.credentialID = credentialID ?? (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        self.counterStep = counterStep
        self.signCount = signCount
        self.backupEligible = backupEligible
        self.backedUp = backedUp
    }

    /// The credential id, base64url.
    public var credentialIDBase64URL: String { Base64URL.encode(credentialID) }

    /// The AAGUID of attested registrations: "latch-software-a" in ASCII.
    public static let aaguid = Array("latch-software-a".utf8)

    /// A registration response for `options` from a page at `origin`.
    public mutating func register(
        options: PublicKeyCredentialCreationOptionsJSON, origin: String, format: AttestationFormat = .none,
        rpID: String? = nil, userVerified: Bool = true, type: String = "webauthn.create", crossOrigin: Bool = false,
        transports: [String] = ["internal"]
    ) throws -> RegistrationResponseJSON {
        guard Base64URL.decode(options.challenge) != nil else { throw Failure.invalidChallenge }
        userHandle = Base64URL.decode(options.user.id)
        let clientData = CollectedClientData(
            type: type, challenge: options.challenge, origin: origin, crossOrigin: crossOrigin
        )
        .jsonBytes
        var flags: AuthenticatorData.Flags = [.userPresent, .attestedCredentialData]
        if userVerified { flags.insert(.userVerified) }
        let attested: [UInt8] =
            (format == .none ? [UInt8](repeating: 0, count: 16) : Self.aaguid)
            + [UInt8(credentialID.count >> 8), UInt8(credentialID.count & 0xff)] + credentialID
            + CBOREncoder.encode(COSEPublicKey.es256(privateKey.publicKey).cbor)
        let authData = authenticatorData(rpID: rpID ?? options.rp.id, flags: flags, counter: signCount) + attested
        let statement: CBORValue
        switch format {
        case .none:
            statement = .map([])
        case .packedSelf:
            let signature = try privateKey.signature(for: Data(authData + Array(SHA256.hash(data: clientData))))
            statement = .map([
                CBORMapEntry(.text("alg"), .int(COSEAlgorithm.es256.rawValue)),
                CBORMapEntry(.text("sig"), .bytes(Array(signature.derRepresentation)))
            ])
        }
        let object = CBORValue.map([
            CBORMapEntry(.text("fmt"), .text(format == .none ? "none" : "packed")),
            CBORMapEntry(.text("attStmt"), statement),
            CBORMapEntry(.text("authData"), .bytes(authData))
        ])
        return RegistrationResponseJSON(
            id: credentialIDBase64URL, rawId: credentialIDBase64URL,
            response: RegistrationResponseJSON.Response(
                clientDataJSON: Base64URL.encode(clientData),
                attestationObject: Base64URL.encode(CBOREncoder.encode(object)),
                transports: transports),
            authenticatorAttachment: "platform")
    }

    /// An assertion over `challenge` (base64url, as in the request options) for `rpID`, from a page at `origin`.
    public mutating func assert(
        challenge: String, rpID: String, origin: String, userVerified: Bool = true, type: String = "webauthn.get",
        crossOrigin: Bool = false
    ) throws -> AuthenticationResponseJSON {
        guard Base64URL.decode(challenge) != nil else { throw Failure.invalidChallenge }
        signCount &+= counterStep
        let clientData = CollectedClientData(type: type, challenge: challenge, origin: origin, crossOrigin: crossOrigin)
            .jsonBytes
        var flags: AuthenticatorData.Flags = [.userPresent]
        if userVerified { flags.insert(.userVerified) }
        let authData = authenticatorData(rpID: rpID, flags: flags, counter: signCount)
        let signature = try privateKey.signature(for: Data(authData + Array(SHA256.hash(data: clientData))))
        return AuthenticationResponseJSON(
            id: credentialIDBase64URL, rawId: credentialIDBase64URL,
            response: AuthenticationResponseJSON.Response(
                clientDataJSON: Base64URL.encode(clientData), authenticatorData: Base64URL.encode(authData),
                signature: Base64URL.encode(signature.derRepresentation),
                userHandle: userHandle.map { Base64URL.encode($0) }),
            authenticatorAttachment: "platform")
    }

    private func authenticatorData(rpID: String, flags: AuthenticatorData.Flags, counter: UInt32) -> [UInt8] {
        var flags = flags
        if backupEligible { flags.insert(.backupEligible) }
        if backedUp { flags.insert(.backedUp) }
        return Array(SHA256.hash(data: Data(rpID.utf8))) + [flags.rawValue]
            + [UInt8(counter >> 24), UInt8(counter >> 16 & 0xff), UInt8(counter >> 8 & 0xff), UInt8(counter & 0xff)]
    }
}
