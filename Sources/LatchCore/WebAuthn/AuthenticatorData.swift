/// Authenticator data (WebAuthn Level 3 §6.1): what the authenticator signs besides the client data.
///
///     rpIdHash (32) ‖ flags (1) ‖ signCount (4, big-endian) ‖ [attested credential data] ‖ [extensions]
///
/// The parser is strict: attested credential data exactly when AT is set, extensions (a CBOR map)
/// exactly when ED is set, and nothing after them.
public struct AuthenticatorData: Sendable {
    /// The flags byte.
    public struct Flags: OptionSet, Sendable, Hashable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }

        /// UP: a person was present (touched, looked).
        public static let userPresent = Flags(rawValue: 0x01)
        /// UV: the person was verified (biometrics or a PIN).
        public static let userVerified = Flags(rawValue: 0x04)
        /// BE: the credential may be backed up (synced passkey).
        public static let backupEligible = Flags(rawValue: 0x08)
        /// BS: the credential is backed up now.
        public static let backedUp = Flags(rawValue: 0x10)
        /// AT: attested credential data follows.
        public static let attestedCredentialData = Flags(rawValue: 0x40)
        /// ED: extensions follow.
        public static let extensionData = Flags(rawValue: 0x80)
    }

    /// The new credential, in registration responses.
    public struct AttestedCredential: Sendable {
        /// The authenticator model's AAGUID (16 bytes; zeros for `none` attestation).
        public let aaguid: [UInt8]
        public let credentialID: [UInt8]
        /// The COSE_Key bytes exactly as sent (stored, and parsed with `COSEPublicKey`).
        public let publicKeyBytes: [UInt8]
        public let publicKey: CBORValue
    }

    /// Why authenticator data is refused.
    public enum Failure: Error, Sendable, Equatable {
        case tooShort
        case credentialIDTooLong
        case malformedCredentialKey
        case malformedExtensions
        /// BS set without BE (impossible for a real authenticator).
        case backedUpWithoutEligibility
        case trailingBytes
    }

    /// Credential ids longer than this are refused (WebAuthn: at most 1023 bytes).
    public static let maximumCredentialIDLength = 1023

    public let bytes: [UInt8]
    public let rpIDHash: [UInt8]
    public let flags: Flags
    public let signCount: UInt32
    public let attestedCredential: AttestedCredential?
    public let extensions: CBORValue?

    public init(bytes: [UInt8]) throws {
        guard bytes.count >= 37 else { throw Failure.tooShort }
        self.bytes = bytes
        rpIDHash = Array(bytes[0..<32])
        flags = Flags(rawValue: bytes[32])
        signCount = bytes[33..<37].reduce(0) { $0 << 8 | UInt32($1) }
        if flags.contains(.backedUp), !flags.contains(.backupEligible) { throw Failure.backedUpWithoutEligibility }
        var position = 37
        if flags.contains(.attestedCredentialData) {
            guard bytes.count >= position + 18 else { throw Failure.tooShort }
            let aaguid = Array(bytes[position..<position + 16])
            let idLength = Int(bytes[position + 16]) << 8 | Int(bytes[position + 17])
            position += 18
            guard idLength <= Self.maximumCredentialIDLength else { throw Failure.credentialIDTooLong }
            guard bytes.count >= position + idLength else { throw Failure.tooShort }
            let credentialID = Array(bytes[position..<position + idLength])
            position += idLength
            guard let (key, length) = try? CBORDecoder.decodePrefix(bytes[position...]), key.mapEntries != nil else {
                throw Failure.malformedCredentialKey
            }
            attestedCredential = AttestedCredential(
                aaguid: aaguid, credentialID: credentialID, publicKeyBytes: Array(bytes[position..<position + length]),
                publicKey: key)
            position += length
        } else {
            attestedCredential = nil
        }
        if flags.contains(.extensionData) {
            guard let (value, length) = try? CBORDecoder.decodePrefix(bytes[position...]), value.mapEntries != nil
            else {
                throw Failure.malformedExtensions
            }
            extensions = value
            position += length
        } else {
            extensions = nil
        }
        guard position == bytes.count else { throw Failure.trailingBytes }
    }
}
